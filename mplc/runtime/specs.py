"""What compiled modules hand to the runtime: plain descriptions of packages and classes.

Codegen builds these (docs/compiled-modules.md); the loader turns them into live types.
Bodies, defaults, contracts and meta are Python callables produced by codegen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from mplc.versioning import parse_format_version


@dataclass
class MetaSpec:
    """One Meta entry: the meta class name and ``values(context) -> dict`` of its properties."""

    type_name: str
    values: Callable[[Any], dict] | None = None


@dataclass
class ArgumentSpec:
    """``loads_objects``: the contract calls class() or template(), the only contracts that
    load a ``?`` mapping as an object (modules compiled before the field existed: True)."""

    name: str
    usage: str = "Standard"  # Standard | VarArgs | KwArgs
    contract: Callable | None = None
    default: Callable | None = None
    has_default: bool = False
    meta: tuple = ()
    loads_objects: bool = True


@dataclass
class MethodSpec:
    """``direct_entry``: the body is also a method's direct way in, ``body(parent, this, caller,
    caller_engine, *arguments)`` (docs/compiled-modules.md); otherwise only ``body(context)``.
    ``local_variables``: the body's Python locals that hold MuranoPL variables (fast paths),
    which the garbage collector reads as roots of a running body; ``variable_names``: the
    variable (yaql key) each of them holds, in the same order (``withOriginal`` reads them)."""

    name: str
    usage: str = "Runtime"  # Runtime | Static | Extension | Action
    scope: str = "Session"  # Session | Public
    arguments: tuple = ()
    body: Callable | None = None
    meta: tuple = ()
    line: int = 0
    direct_entry: bool = False
    local_variables: tuple = ()
    variable_names: tuple = ()


@dataclass
class PropertySpec:
    """``default_source``: the YAQL text of a static property's Default that is one whole
    expression (its contract sees that expression unevaluated, as in the reference).
    ``loads_objects``: as ArgumentSpec's. ``value_only``: its Default is scalars (or absent)
    and its contract reads nothing but the value (``reads_value_only``), so loading the property
    a second time changes nothing (modules compiled before the field existed: False)."""

    name: str
    usage: str = "In"
    contract: Callable | None = None
    default: Callable | None = None
    has_default: bool = False
    meta: tuple = ()
    line: int = 0
    default_source: str | None = None
    loads_objects: bool = True
    value_only: bool = False


@dataclass
class ClassSpec:
    name: str
    package: Any = None  # PackageSpec, filled in by the loader
    extends: tuple = ()
    namespaces: dict = field(default_factory=dict)
    usage: str = "Class"  # Class | Meta
    cardinality: str | None = None
    applies: tuple = ()
    inherited: bool = False
    meta: tuple = ()
    imports: tuple = ()
    properties: dict = field(default_factory=dict)
    methods: dict = field(default_factory=dict)
    source_file: str = "<unknown>"
    line: int = 0


@dataclass
class PackageSpec:
    full_name: str
    version: str = "0.0.0"
    format: str = "MuranoPL/1.0.0"
    type: str = "Library"
    requirements: dict = field(default_factory=dict)
    classes: dict = field(default_factory=dict)  # class name -> module name, or -> ClassSpec
    manifest: dict = field(default_factory=dict)
    directory: str | None = None  # the compiled package directory it was imported from

    @property
    def format_version(self) -> tuple[int, int]:
        """(major, minor) of the MuranoPL format: what selects yaql contexts and options."""
        return parse_format_version(self.format)

