"""Named steps instead of walrus nests.

Fast paths name intermediate values with ``(_tN := value)`` inside the one expression of a
statement, so a chain such as ``new(sys:Resources).string('greeting.txt').trim()`` became one
expression nested many levels deep. Where such a binding is the first thing a statement
evaluates (everything evaluated before it only reads names it does not bind, constants or the
runtime's attributes), it runs as a statement of its own just before: ``_tN = value``, then the
statement reads ``_tN``. The order of evaluation, and so the meaning, is unchanged; the
bindings under a condition (an ``if ... else``, ``and``/``or``, a comparison after the first)
stay where they are. Each step keeps the positions of its value, so tracebacks and stack
traces point at the same YAML.

The call context a body builds when code first needs it (``_call_context if _call_context is
not None else (_call_context := as_context(context))``, ``LazyCallContext``) is such a binding
too: first in a statement, it becomes ``if _call_context is None: _call_context = ...``, and
every later read in that statement and in the statements after it in the same block (nothing
sets it back) is the plain name."""

from __future__ import annotations

import ast

from mplc.codegen.ast_parts import MATERIALIZED, RUNTIME
from mplc.codegen.sharing import TEMPORARY

_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def split_into_steps(module: ast.Module) -> None:
    """Rewrite, in place, the statements of every function of ``module``."""
    for statement in module.body:
        if type(statement) is ast.FunctionDef:
            _split_block(statement.body, frozenset())


def _split_block(statements: list[ast.stmt], built: frozenset[str]) -> None:
    """``built``: the lazily built call contexts certainly built before ``statements`` run."""
    index = 0
    while index < len(statements):
        statement = statements[index]
        if built:
            _read_built(statement, built)
        steps = _leading_steps(statement, built)
        statements[index:index] = steps
        index += len(steps) + 1
        built = built.union(step.body[0].targets[0].id for step in steps if type(step) is ast.If)
        if type(statement) is ast.FunctionDef:
            _split_block(statement.body, frozenset())
            continue
        for field in _BLOCK_FIELDS:
            block = getattr(statement, field, None)
            if block:
                _split_block(block, built)
        for handler in getattr(statement, "handlers", ()):
            _split_block(handler.body, built)


def _leading_steps(statement: ast.stmt, built: frozenset[str]) -> list[ast.stmt]:
    """``_tN = value`` statements for the bindings ``statement`` makes first, in order; each
    binding in ``statement`` becomes a read of its name. ``built``: the lazily built call
    contexts already built (none of their lazy forms is left in ``statement``)."""
    head = _evaluated_first(statement)
    if head is None or getattr(statement, head) is None:
        return []
    steps = []
    while True:
        binding = _first_binding(statement, head, built)
        if binding is None:
            return steps
        parent, field, index, found = binding
        lazy_name = _lazy_context_name(found)
        named = found if lazy_name is None else found.orelse
        read = ast.copy_location(ast.Name(id=named.target.id, ctx=ast.Load()), found)
        if index is None:
            setattr(parent, field, read)
        else:
            getattr(parent, field)[index] = read
        step = ast.copy_location(ast.Assign(targets=[ast.Name(id=named.target.id, ctx=ast.Store())],
                                            value=named.value), named)
        ast.copy_location(step.targets[0], named.target)
        steps.extend(_leading_steps(step, built))
        if lazy_name is not None:
            unset = ast.copy_location(ast.Compare(left=ast.Name(id=lazy_name, ctx=ast.Load()), ops=[ast.Is()],
                                                  comparators=[ast.Constant(value=None)]), found.test)
            for node in ast.walk(unset):
                ast.copy_location(node, found.test)
            step = ast.copy_location(ast.If(test=unset, body=[step], orelse=[]), found)
            built = built | {lazy_name}
            _read_built(statement, built)
        steps.append(step)


def _evaluated_first(statement: ast.stmt) -> str | None:
    """The field of ``statement`` Python evaluates before anything else it does: its value, the
    test of an ``if``, the iterable of a ``for``. None for statements whose expression runs
    more than once (``while``) or that have none."""
    kind = type(statement)
    if kind in (ast.Assign, ast.Expr, ast.Return):
        return "value"
    if kind is ast.If:
        return "test"
    if kind is ast.For:
        return "iter"
    if kind is ast.Raise and statement.cause is None:
        return "exc"
    return None


def _first_binding(statement: ast.stmt, head: str, built: frozenset[str]):
    """(parent, field, index or None, node) of the first binding the ``head`` field of
    ``statement`` evaluates (a
    NamedExpr, or a lazily built call context) when everything evaluated before it is a pure
    read of a name it does not bind, a constant or a runtime attribute; else None. Walks the
    parts that always run in the order Python runs them; an operation that runs code (a call,
    an attribute, arithmetic), or a part that may not run (a branch, a later operand of
    ``and``/``or`` or of a chained comparison), ends the search. The names a binding could
    change are codegen's temporaries (``_tN``, ``_dN``) and the lazily built call context
    (unless ``built``): no other name is ever bound inside an expression."""
    expression = getattr(statement, head)
    reads: list[str] = []
    pending: list = [(expression, statement, head, None)]
    push = pending.append
    while pending:
        node, parent, field, index = pending.pop()
        kind = type(node)
        if kind is ast.Name:
            if node.id not in built and (node.id == MATERIALIZED or TEMPORARY.fullmatch(node.id)):
                reads.append(node.id)
        elif kind is ast.Constant:
            continue
        elif node is _OPERATION:
            return None
        elif kind is ast.NamedExpr or kind is ast.IfExp and _lazy_context_name(node) is not None:
            named = node if kind is ast.NamedExpr else node.orelse
            if type(named.target) is not ast.Name:
                return None
            if named.target.id in reads or reads and any(
                    type(name) is ast.Name and type(name.ctx) is ast.Store and name.id in reads
                    for name in ast.walk(named.value)):
                return None
            return parent, field, index, node
        elif kind is ast.Attribute:
            if not _runtime_attribute(node):
                push(_OPERATION_ENTRY)
                push((node.value, node, "value", None))
        elif kind is ast.Call:
            push(_OPERATION_ENTRY)
            for keyword in reversed(node.keywords):
                if keyword.arg is None:
                    return None
                push((keyword.value, keyword, "value", None))
            for position in range(len(node.args) - 1, -1, -1):
                if type(node.args[position]) is ast.Starred:
                    return None
                push((node.args[position], node, "args", position))
            push((node.func, node, "func", None))
        elif kind is ast.Subscript:
            push(_OPERATION_ENTRY)
            push((node.slice, node, "slice", None))
            push((node.value, node, "value", None))
        elif kind is ast.BinOp:
            push(_OPERATION_ENTRY)
            push((node.right, node, "right", None))
            push((node.left, node, "left", None))
        elif kind is ast.UnaryOp:
            push(_OPERATION_ENTRY)
            push((node.operand, node, "operand", None))
        elif kind is ast.Compare:
            if not (len(node.ops) == 1 and type(node.ops[0]) in (ast.Is, ast.IsNot)):
                push(_OPERATION_ENTRY)  # an identity test runs no code
            push((node.comparators[0], node, "comparators", 0))
            push((node.left, node, "left", None))
        elif kind is ast.BoolOp:
            push(_OPERATION_ENTRY)
            push((node.values[0], node, "values", 0))
        elif kind is ast.IfExp:
            push(_OPERATION_ENTRY)
            push((node.test, node, "test", None))
        elif kind is ast.Tuple or kind is ast.List:
            for position in range(len(node.elts) - 1, -1, -1):
                if type(node.elts[position]) is ast.Starred:
                    return None
                push((node.elts[position], node, "elts", position))
        else:
            return None
    return None


_OPERATION = object()
"""Stands, in the walk, for an operation that runs once its operands have run."""
_OPERATION_ENTRY = (_OPERATION, None, None, None)


def _runtime_attribute(node: ast.AST) -> bool:
    """``_r.name`` or ``_r.name.name``: an attribute of the runtime module, fixed once imported."""
    while type(node) is ast.Attribute:
        node = node.value
    return type(node) is ast.Name and node.id == RUNTIME


def _lazy_context_name(node: ast.AST) -> str | None:
    """``name`` when ``node`` is ``name if name is not None else (name := value)``."""
    if type(node) is not ast.IfExp or type(node.body) is not ast.Name or type(node.orelse) is not ast.NamedExpr:
        return None
    name, test = node.body.id, node.test
    if (type(test) is ast.Compare and type(test.left) is ast.Name and test.left.id == name and len(test.ops) == 1
            and type(test.ops[0]) is ast.IsNot and type(test.comparators[0]) is ast.Constant
            and test.comparators[0].value is None and type(node.orelse.target) is ast.Name
            and node.orelse.target.id == name):
        return name
    return None


_NOT_ENTERED = frozenset((ast.FunctionDef, ast.Lambda, ast.Load, ast.Store, ast.Del))


def _read_built(statement: ast.stmt, names) -> None:
    """Every ``name if name is not None else (name := ...)`` of ``names`` in the expressions of
    ``statement`` (not in its blocks, nested functions or lambdas) becomes ``name``: it is
    built by then."""
    pending = [part for field, part in ast.iter_fields(statement)
               if field not in _BLOCK_FIELDS and field != "handlers" and isinstance(part, (ast.AST, list))]
    while pending:
        node = pending.pop()
        if type(node) is list:
            items = node
            for position, item in enumerate(items):
                if type(item) is ast.IfExp and _lazy_context_name(item) in names:
                    items[position] = ast.copy_location(ast.Name(id=item.body.id, ctx=ast.Load()), item)
                elif isinstance(item, ast.AST) and type(item) not in _NOT_ENTERED:
                    pending.append(item)
            continue
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                pending.append(value)
            elif type(value) is ast.IfExp and _lazy_context_name(value) in names:
                setattr(node, field, ast.copy_location(ast.Name(id=value.body.id, ctx=ast.Load()), value))
            elif isinstance(value, ast.AST) and type(value) not in _NOT_ENTERED:
                pending.append(value)
