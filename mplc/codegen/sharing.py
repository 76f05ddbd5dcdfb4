"""One definition for identical hoisted functions and argument objects of a module.

Codegen hoists a function per expression, item function and contract where it meets one; the
same text at several places (``$person`` read three times, ``$.string().notNull()`` on four
properties) gave as many identical functions. The module builder asks ``SharedDefinitions``
before it adds one, and uses the name of an identical one defined before instead. Two
functions are identical when they are the same code up to the names of their own locals.
Positions count too where they can show, since stack traces and Python tracebacks name the
line of the innermost YAML frame: only a function whose frame is never among them is shared
across lines. That is one that returns a constant or reads one variable (it calls nothing that
could raise or look at the stack), and a contract validator made of contract primitives alone
(a violation is raised anew outside it, so its frame is in no traceback; one calling a
predicate or an expression keeps its lines).

Module-level argument objects (``_LN`` lazy arguments, ``_AN`` argument tuples, ``_RN``
mapping rules, ``_KN`` constants, ``_TN`` assignment targets) are immutable and no cache is
keyed on them, so equal ones are shared the same way. Call sites (``_MN``, ``_PN``) are not:
the runtime keeps per-site state keyed on them. Method bodies and Parallel branches are never
shared: the runtime tells methods apart by their code objects."""

from __future__ import annotations

import ast
import re

from mplc.codegen.ast_parts import RUNTIME

SHARED_FUNCTIONS = frozenset(("f", "i", "n"))
"""Prefixes of the hoisted functions that may be shared: expression, item and numeric-predicate
functions (contract validators are shared by ``SharedDefinitions.validators``)."""

TEMPORARY = re.compile(r"_[td]\d+")
"""Names of the temporaries codegen gives intermediate values (``new_name("t")``, ``"d"``):
locals of the function they are in, unique in the module."""

SHARED_CALLS = {"L": "lazy", "R": "rule", "K": "constant", "T": "target"}
"""Prefix of a shareable module-level value -> the runtime function that builds it."""


class SharedDefinitions:
    """The shareable definitions of one module, by what they are."""

    def __init__(self) -> None:
        self._values: dict[tuple, str] = {}
        self._functions: dict[tuple, list[ast.FunctionDef]] = {}

    def value(self, prefix: str, value: ast.expr, name: str) -> str:
        """The name of a definition equal to ``name = value`` made before, else ``name``."""
        key = _value_key(prefix, value)
        return name if key is None else self._values.setdefault(key, name)

    def function(self, prefix: str, function: ast.FunctionDef) -> str:
        """The name of a function identical to ``function`` defined before, else its own."""
        if prefix not in SHARED_FUNCTIONS:
            return function.name
        return self._share(prefix, function, not _cannot_show(function))

    def validators(self, functions: list[ast.FunctionDef]) -> tuple[list[ast.FunctionDef], dict[str, str]]:
        """Contract validators (items before the validators that use them) without those
        identical to ones defined before, and the names of the dropped ones -> the kept ones'
        (already read so in the validators kept)."""
        renamed: dict[str, str] = {}
        kept = []
        for function in functions:
            if renamed:
                for node in ast.walk(function):
                    if type(node) is ast.Name and node.id in renamed:
                        node.id = renamed[node.id]
            first = self._share("contract", function, not _primitives_only(function))
            if first != function.name:
                renamed[function.name] = first
            else:
                kept.append(function)
        return kept, renamed

    def _share(self, kind: str, function: ast.FunctionDef, positions: bool) -> str:
        key = (kind, _position(function) if positions else None, _outline(function))
        candidates = self._functions.setdefault(key, [])
        for other in candidates:
            if _same_code(function, other, positions):
                return other.name
        candidates.append(function)
        return function.name


def _position(node: ast.AST) -> tuple:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _outline(function: ast.FunctionDef) -> tuple:
    """A cheap summary that identical functions share: parameters, decorators, statement kinds,
    what a returned or assigned call calls and its plain arguments (temporaries' names left
    out: they differ between identical functions)."""
    parts: list = [tuple(argument.arg for argument in function.args.args), len(function.decorator_list)]
    for statement in function.body:
        value = getattr(statement, "value", None)
        callee = getattr(value, "func", None)
        parts.append((type(statement).__name__, type(value).__name__,
                      getattr(callee, "attr", None) or getattr(callee, "id", None)))
        if callee is not None:
            parts.extend(argument.value if type(argument) is ast.Constant
                         else argument.id if type(argument) is ast.Name and not TEMPORARY.fullmatch(argument.id)
                         else None for argument in value.args)
    return tuple(parts)


def _value_key(prefix: str, value: ast.expr) -> tuple | None:
    """A key equal values share: ``_r.lazy``/``_r.rule``/``_r.target``/``_r.constant`` calls of
    names and constants, tuples of names; None for others (kept apart)."""
    if prefix == "A":
        return _plain_key(value.elts) if type(value) is ast.Tuple else None
    callee = getattr(value, "func", None)
    if not (prefix in SHARED_CALLS and type(callee) is ast.Attribute and callee.attr == SHARED_CALLS[prefix]
            and type(callee.value) is ast.Name and callee.value.id == RUNTIME and not value.keywords):
        return None
    if prefix == "T":  # a target's root and steps are small nested calls and tuples
        return prefix, ast.dump(value)
    arguments = _plain_key(value.args)
    return None if arguments is None else (prefix, arguments)


def _plain_key(items: list[ast.expr]) -> tuple | None:
    key = []
    for item in items:
        if type(item) is ast.Name:
            key.append(item.id)
        elif type(item) is ast.Constant:
            key.append((type(item.value), item.value))
        else:
            return None
    return tuple(key)


def _same_code(function: ast.FunctionDef, other: ast.FunctionDef, positions: bool) -> bool:
    """Whether two functions are the same code (at the same positions, with ``positions``), up
    to their names and the names of their temporaries (one's reads as the same of the other's
    throughout)."""
    pairs: dict[str, str] = {}
    pending: list = [(function.args, other.args), (function.decorator_list, other.decorator_list),
                     (function.body, other.body)]
    while pending:
        left, right = pending.pop()
        if type(left) is not type(right):
            return False
        if type(left) is list:
            if len(left) != len(right):
                return False
            pending.extend(zip(left, right))
        elif isinstance(left, ast.AST):
            if positions:
                for attribute in left._attributes:
                    if getattr(left, attribute, None) != getattr(right, attribute, None):
                        return False
            if type(left) is ast.Name and left.id != right.id:
                if not (TEMPORARY.fullmatch(left.id) and TEMPORARY.fullmatch(right.id)
                        and pairs.setdefault(left.id, right.id) == right.id):
                    return False
                pending.append((left.ctx, right.ctx))
                continue
            for field in left._fields:
                pending.append((getattr(left, field, None), getattr(right, field, None)))
        elif left != right:
            return False
    return len(set(pairs.values())) == len(pairs)


def _cannot_show(function: ast.FunctionDef) -> bool:
    """Whether ``function`` returns a constant or reads one variable (``_r.fast.variable(context,
    key)``): it calls nothing that could raise or look at the stack, so no frame of it shows."""
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
