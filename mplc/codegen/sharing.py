"""One definition for identical hoisted functions and argument objects of a module.

Codegen hoists a function per expression, item function, query loop and contract where it
meets one; the same text at several places (``$person`` read three times,
``$.string().notNull()`` on four properties) gave as many identical functions. A later copy is
dropped and every read of its name reads the first's. Two functions are identical when they
are the same code up to the names of their own locals. Positions count too where they can
show, since stack traces and Python tracebacks name the line of the innermost YAML frame: only
a function whose frame is never among them is shared across lines. That is one that returns a
constant or reads one variable (it calls nothing that could raise or look at the stack), and
a contract validator made of contract primitives alone (a violation is raised anew outside
it, so its frame is in no traceback; one calling a predicate or an expression keeps its
lines).

Module-level argument objects (``_LN`` lazy arguments, ``_AN`` argument tuples, ``_RN``
mapping rules, ``_KN`` constants, ``_TN`` assignment targets) are immutable and no cache is
keyed on them, so equal ones are shared the same way. Call sites (``_MN``, ``_PN``) are not:
the runtime keeps per-site state keyed on them."""

from __future__ import annotations

import ast
import re

from mplc.codegen.ast_parts import RUNTIME

SHARED = re.compile(r"_(?:f|i|n|s|contract)\d+(?:_item\d+)*")
"""Names of the hoisted functions that may be shared: expression, item, numeric-predicate and
query-loop functions, contract validators. Method bodies (``_bodyN``) and Parallel branches are
never shared: the runtime tells methods apart by their code objects."""

SHARED_VALUES = re.compile(r"_[LARKT]\d+")


def share_identical_definitions(statements: list[ast.stmt]) -> list[ast.stmt]:
    """A module body without the later copies of identical shareable definitions; every name of
    a dropped copy, anywhere in the body, reads the name of the copy kept."""
    kept: dict[str, str] = {}
    renamed: dict[str, str] = {}
    result = []
    for statement in statements:
        if renamed:
            _rename(statement, renamed)
        if isinstance(statement, ast.FunctionDef) and SHARED.fullmatch(statement.name):
            key = _shape(statement)
            first = kept.get(key)
            if first is not None:
                renamed[statement.name] = first
                continue
            kept[key] = statement.name
        elif (type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name
              and SHARED_VALUES.fullmatch(statement.targets[0].id)):
            key = ast.dump(statement.value)
            first = kept.get(key)
            if first is not None:
                renamed[statement.targets[0].id] = first
                continue
            kept[key] = statement.targets[0].id
        result.append(statement)
    if renamed:
        for statement in result:
            _rename(statement, renamed)
    return result


def _rename(tree: ast.AST, renamed: dict[str, str]) -> None:
    for node in ast.walk(tree):
        if type(node) is ast.Name:
            node.id = renamed.get(node.id, node.id)


def _shape(function: ast.FunctionDef) -> str:
    """``function`` as text without its name, its locals numbered in order of appearance and,
    for one whose frame cannot show, without positions."""
    stored = [node for node in ast.walk(function) if type(node) is ast.Name and type(node.ctx) is ast.Store]
    local_names = {}
    for node in stored:
        local_names.setdefault(node.id, f"local{len(local_names)}")
    names = list({id(node): node for node in ast.walk(function)  # a node may sit at two places
                  if type(node) is ast.Name and node.id in local_names}.values())
    original = [node.id for node in names]
    positions = not _cannot_show(function)
    name, function.name = function.name, ""
    for node in names:
        node.id = local_names[node.id]
    try:
        return ast.dump(function, include_attributes=positions)
    finally:
        function.name = name
        for node, id_ in zip(names, original):
            node.id = id_


def _cannot_show(function: ast.FunctionDef) -> bool:
    """Whether no frame of ``function`` can be seen in a stack trace (see the module's docstring)."""
    if function.name.startswith("_contract"):
        return _primitives_only(function)
    if len(function.body) != 1 or type(function.body[0]) is not ast.Return:
        return False
    value = function.body[0].value
    if value is None or type(value) is ast.Constant:
        return True
    if type(value) is not ast.Call or value.keywords or len(value.args) != 2:
        return False
    callee, (context, key) = value.func, value.args
    return (type(callee) is ast.Attribute and callee.attr == "variable" and type(callee.value) is ast.Attribute
            and callee.value.attr == "fast" and type(callee.value.value) is ast.Name
            and callee.value.value.id == RUNTIME and type(context) is ast.Name and context.id == "context"
            and type(key) is ast.Constant)


def _primitives_only(validator: ast.FunctionDef) -> bool:
    """Whether a contract validator calls only ``_r.contracts.*`` and reads only its parameters,
    the runtime and other validators."""
    for node in ast.walk(validator):
        if type(node) is ast.Call:
            callee = node.func
            if not (type(callee) is ast.Attribute and type(callee.value) is ast.Attribute
                    and callee.value.attr == "contracts" and type(callee.value.value) is ast.Name
                    and callee.value.value.id == RUNTIME):
                return False
        elif type(node) is ast.Name and node.id not in ("value", "cc", RUNTIME) and not node.id.startswith("_contract"):
            return False
    return True
