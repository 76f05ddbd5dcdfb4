"""What compiled code reads from the runtime, found in its bytecode: ``_r.<name>`` chains
(``_r.fast.<name>``, ``_r.contracts.<name>``) and the modules it imports."""

from __future__ import annotations

import dis
import glob
import marshal
import os
import types

from mplc import abi

RUNTIME = "_r"
_LOADS = {"LOAD_GLOBAL", "LOAD_NAME"}
_ATTRIBUTES = {"LOAD_ATTR", "LOAD_METHOD"}
_NAMESPACES = {"fast": abi.FAST_NAMES, "contracts": abi.CONTRACT_NAMES}


def _code_objects(code: types.CodeType):
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _code_objects(constant)


def runtime_names(code: types.CodeType) -> set[str]:
    """Every ``_r`` chain ``code`` (and the code nested in it) reads: ``name`` or ``fast.name``;
    ``_r`` used otherwise is ``<_r>``; a module imported is ``import <module>``."""
    found = set()
    for each in _code_objects(code):
        instructions = [i for i in dis.get_instructions(each) if i.opname not in ("CACHE", "EXTENDED_ARG")]
        for index, instruction in enumerate(instructions):
            if instruction.opname == "IMPORT_NAME":
                found.add(f"import {instruction.argval}")
            if instruction.opname not in _LOADS or instruction.argval != RUNTIME:
                continue
            chain = [i.argval for i in instructions[index + 1:index + 3] if i.opname in _ATTRIBUTES]
            following = instructions[index + 1:index + 3]
            if not following or following[0].opname not in _ATTRIBUTES:
                found.add("<_r>")
            elif chain[0] in _NAMESPACES and len(chain) > 1 and following[1].opname in _ATTRIBUTES:
                found.add(f"{chain[0]}.{chain[1]}")
            else:
                found.add(chain[0])
    return found


def undeclared(names: set[str]) -> set[str]:
    """The names outside the ABI (``mplc.abi``)."""
    outside = set()
    for name in names:
        if name == "import mplc.runtime":
            continue
        namespace, _, member = name.partition(".")
        if member and namespace in _NAMESPACES:
            if member not in _NAMESPACES[namespace]:
                outside.add(name)
        elif name not in abi.NAMES:
            outside.add(name)
    return outside


def compiled_package_names(package_directory: str) -> set[str]:
    """``runtime_names`` of every module of a compiled package directory."""
    names = set()
    for path in sorted(glob.glob(os.path.join(package_directory, "*.pyc"))):
        with open(path, "rb") as handle:
            names |= runtime_names(marshal.loads(handle.read()[16:]))
    return names
