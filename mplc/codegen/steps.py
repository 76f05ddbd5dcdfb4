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
        for name in {step.body[0].targets[0].id for step in steps if type(step) is ast.If}:
            for later in statements[index - 1:]:
                _read_built(later, name)
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
        steps.extend(_leading_steps(step))
        if lazy_name is not None:
            unset = ast.copy_location(ast.Compare(left=ast.Name(id=lazy_name, ctx=ast.Load()), ops=[ast.Is()],
                                                  comparators=[ast.Constant(value=None)]), found.test)
            for node in ast.walk(unset):
                ast.copy_location(node, found.test)
            step = ast.copy_location(ast.If(test=unset, body=[step], orelse=[]), found)
            _read_built(statement, lazy_name)
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
            if type(node) is ast.NamedExpr or type(node) is ast.IfExp:
                named = node if type(node) is ast.NamedExpr else node.orelse
                if type(named.target) is not ast.Name:
                    return None
                bound = {name.id for name in ast.walk(named.value) if type(name) is ast.Name
                         and type(name.ctx) is ast.Store} | {named.target.id}
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
    the nodes it is made of (a NamedExpr, or a lazily built call context, is yielded before its
    value: it is the candidate, and the walk stops there). Raises ``_Stop`` at the first part that may not run."""
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
        if _lazy_context_name(node) is not None:
            yield parent, field, index, node
            raise _Stop
        yield from _unconditional(node.test, node, "test", None)
    elif kind in (ast.Tuple, ast.List):
        for position, item in enumerate(node.elts):
            if type(item) is ast.Starred:
                raise _Stop
            yield from _unconditional(item, node, "elts", position)
        return
    # the operation itself, or a part that may not run (a branch, a later operand): stop here
    raise _Stop


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


def _read_built(tree: ast.AST, name: str) -> None:
    """Every ``name if name is not None else (name := ...)`` in ``tree`` (outside nested
    functions and lambdas) becomes ``name``: it is built by then."""
    for node in _same_scope(tree):
        for field, value in ast.iter_fields(node):
            if type(value) is list:
                for position, item in enumerate(value):
                    if _lazy_context_name(item) == name:
                        value[position] = ast.copy_location(ast.Name(id=name, ctx=ast.Load()), item)
            elif _lazy_context_name(value) == name:
                setattr(node, field, ast.copy_location(ast.Name(id=name, ctx=ast.Load()), value))


def _same_scope(tree: ast.AST) -> Iterator[ast.AST]:
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(child for child in ast.iter_child_nodes(node)
                       if type(child) not in (ast.FunctionDef, ast.Lambda))
