"""Named steps instead of walrus nests.

Fast paths name intermediate values with ``(_tN := value)`` inside the one expression of a
statement, so a chain such as ``new(sys:Resources).string('greeting.txt').trim()`` became one
expression nested many levels deep. Where such a binding is the first thing a statement
evaluates (everything evaluated before it only reads names it does not bind, constants or the
runtime's attributes), it runs as a statement of its own just before: ``_tN = value``, then the
statement reads ``_tN``. The order of evaluation, and so the meaning, is unchanged; the
bindings under a condition (an ``if ... else``, ``and``/``or``, a comparison after the first)
stay where they are. Each step keeps the positions of its value, so tracebacks and stack
traces point at the same YAML."""

from __future__ import annotations

import ast
from typing import Iterator

from mplc.codegen.ast_parts import RUNTIME

_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def split_into_steps(module: ast.Module) -> None:
    """Rewrite, in place, the statements of every function of ``module``."""
    for statement in module.body:
        if type(statement) is ast.FunctionDef:
            _split_block(statement.body)


def _split_block(statements: list[ast.stmt]) -> None:
    index = 0
    while index < len(statements):
        statement = statements[index]
        steps = _leading_steps(statement)
        statements[index:index] = steps
        index += len(steps) + 1
        if type(statement) is ast.FunctionDef:
            _split_block(statement.body)
            continue
        for field in _BLOCK_FIELDS:
            block = getattr(statement, field, None)
            if block:
                _split_block(block)
        for handler in getattr(statement, "handlers", ()):
            _split_block(handler.body)


def _leading_steps(statement: ast.stmt) -> list[ast.stmt]:
    """``_tN = value`` statements for the bindings ``statement`` makes first, in order; each
    binding in ``statement`` becomes a read of its name."""
    head = _evaluated_first(statement)
    if head is None:
        return []
    steps = []
    while True:
        binding = _first_binding(head)
        if binding is None:
            return steps
        parent, field, index, named = binding
        read = ast.copy_location(ast.Name(id=named.target.id, ctx=ast.Load()), named)
        if index is None:
            setattr(parent, field, read)
        else:
            getattr(parent, field)[index] = read
        step = ast.copy_location(ast.Assign(targets=[ast.Name(id=named.target.id, ctx=ast.Store())],
                                            value=named.value), named)
        ast.copy_location(step.targets[0], named.target)
        steps.extend(_leading_steps(step))
        steps.append(step)


def _evaluated_first(statement: ast.stmt) -> ast.AST | None:
    """The part of ``statement`` Python evaluates before anything else it does: its value, the
    test of an ``if``, the iterable of a ``for``. None for statements whose expression runs
    more than once (``while``) or that have none."""
    kind = type(statement)
    if kind in (ast.Assign, ast.Expr, ast.Return):
        return statement.value
    if kind is ast.If:
        return statement.test
    if kind is ast.For:
        return statement.iter
    if kind is ast.Raise and statement.cause is None:
        return statement.exc
    return None


class _Stop(Exception):
    pass


def _first_binding(expression: ast.AST | None):
    """(parent, field, index or None, the NamedExpr) of the first binding evaluated in
    ``expression`` when everything evaluated before it is a pure read it does not bind; else None."""
    if expression is None:
        return None
    reads: list[str] = []
    try:
        for parent, field, index, node in _unconditional(expression, None, None, None):
            if type(node) is ast.NamedExpr:
                if type(node.target) is not ast.Name:
                    return None
                bound = {name.id for name in ast.walk(node.value) if type(name) is ast.Name
                         and type(name.ctx) is ast.Store} | {node.target.id}
                if bound.intersection(reads):
                    return None
                return parent, field, index, node
            if type(node) is ast.Name and type(node.ctx) is ast.Load:
                reads.append(node.id)
            elif not (type(node) is ast.Constant or _runtime_attribute(node)):
                return None
    except _Stop:
        return None
    return None


def _runtime_attribute(node: ast.AST) -> bool:
    """``_r.name`` or ``_r.name.name``: an attribute of the runtime module, fixed once imported."""
    while type(node) is ast.Attribute:
        node = node.value
    return type(node) is ast.Name and node.id == RUNTIME


def _unconditional(node: ast.AST, parent, field, index) -> Iterator[tuple]:
    """The nodes of an expression that always run, in the order Python runs them, each after
    the nodes it is made of (a NamedExpr is yielded before its value: it is the candidate, and
    the walk stops there). Raises ``_Stop`` at the first part that may not run."""
    kind = type(node)
    if kind is ast.NamedExpr:
        yield parent, field, index, node
        raise _Stop
    if kind in (ast.Name, ast.Constant):
        yield parent, field, index, node
        return
    if kind is ast.Attribute:
        if _runtime_attribute(node):
            yield parent, field, index, node
            return
        yield from _unconditional(node.value, node, "value", None)
    elif kind is ast.Call:
        yield from _unconditional(node.func, node, "func", None)
        for position, argument in enumerate(node.args):
            if type(argument) is ast.Starred:
                raise _Stop
            yield from _unconditional(argument, node, "args", position)
        for keyword in node.keywords:
            if keyword.arg is None:
                raise _Stop
            yield from _unconditional(keyword.value, keyword, "value", None)
    elif kind is ast.Subscript:
        yield from _unconditional(node.value, node, "value", None)
        yield from _unconditional(node.slice, node, "slice", None)
    elif kind is ast.BinOp:
        yield from _unconditional(node.left, node, "left", None)
        yield from _unconditional(node.right, node, "right", None)
    elif kind is ast.UnaryOp:
        yield from _unconditional(node.operand, node, "operand", None)
    elif kind is ast.Compare:
        yield from _unconditional(node.left, node, "left", None)
        yield from _unconditional(node.comparators[0], node, "comparators", 0)
        if len(node.comparators) == 1 and type(node.ops[0]) in (ast.Is, ast.IsNot):
            return  # an identity test runs no code
    elif kind is ast.BoolOp:
        yield from _unconditional(node.values[0], node, "values", 0)
    elif kind is ast.IfExp:
        yield from _unconditional(node.test, node, "test", None)
    elif kind in (ast.Tuple, ast.List):
        for position, item in enumerate(node.elts):
            if type(item) is ast.Starred:
                raise _Stop
            yield from _unconditional(item, node, "elts", position)
        return
    # the operation itself, or a part that may not run (a branch, a later operand): stop here
    raise _Stop
