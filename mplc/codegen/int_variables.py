"""Which variables of a method body certainly hold an int wherever the body's own code reads
them, so inline integer code needs no ``type(x) is int`` guard for them.

Conservative by construction; a variable qualifies only when every way it gets a value gives an
int:

- a variable whose first mention in the body is a top-level assignment of it, not reading it,
  before any other statement mentions it (so no read sees it unset); never an argument: a
  literal ``null`` argument skips its contract, even ``int().notNull()``, as in the reference;
- the variable of a For over ``range(...)`` (yaql's ranges yield ints), mentioned nowhere but
  in that loop's body;

and every assignment of it assigns an int expression: an int constant, a qualifying variable,
or ``+``, ``-``, ``*``, ``mod`` of two int expressions (yaql gives ints for ints, or fails). A
keyed or attribute assignment, a Catch ``As`` or another For disqualifies the variable; a body
with Parallel (whose branches write through the context) has none. Hoisted code (lambdas, lazy
arguments) reads variables from the context, not the locals, and is not affected.
"""

from __future__ import annotations

import dataclasses

from mplc import ir

INT_OPERATORS = frozenset(("#operator_+", "#operator_-", "#operator_*", "#operator_mod"))
_SPECIAL = frozenset(("$1", "$this"))  # assigned through the runtime, never plain locals


def normal_variable_name(name: str) -> str:
    """The key yaql's contexts store a variable under: ``$x``; ``$`` is ``$1``."""
    name = name if name.startswith("$") else "$" + name
    return "$1" if name == "$" else name


def is_int_expression(tree: ir.Expr, int_keys: frozenset[str] | set[str]) -> bool:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    if isinstance(tree, ir.Constant):
        return type(tree.value) is int
    if isinstance(tree, ir.GetContextValue):
        return normal_variable_name(tree.name) in int_keys
    return (isinstance(tree, ir.Function) and tree.name in INT_OPERATORS and len(tree.args) == 2
            and all(is_int_expression(arg, int_keys) for arg in tree.args))


def _is_int_value(value, int_keys) -> bool:
    if isinstance(value, ir.Literal):
        return type(value.value) is int
    return isinstance(value, ir.Expression) and is_int_expression(value.tree, int_keys)


def _mentions(node, found: set[str]) -> set[str]:
    """Keys of every variable ``node`` reads or writes anywhere inside it."""
    if isinstance(node, ir.GetContextValue):
        found.add(normal_variable_name(node.name))
    elif isinstance(node, ir.For):
        found.add(normal_variable_name(node.variable))
    elif isinstance(node, ir.Catch) and node.variable:
        found.add(normal_variable_name(node.variable))
    if isinstance(node, (tuple, list)):
        for item in node:
            _mentions(item, found)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for field in dataclasses.fields(node):
            if field.name != "pos":
                _mentions(getattr(node, field.name), found)
    return found


def _walk_statements(block: ir.Block):
    for statement in block.statements:
        yield statement
        for field in dataclasses.fields(statement):
            value = getattr(statement, field.name)
            blocks = value if isinstance(value, tuple) else (value,)
            for item in blocks:
                if isinstance(item, ir.Block):
                    yield from _walk_statements(item)
                elif isinstance(item, (ir.Catch, ir.MatchCase, ir.SwitchCase)):
                    yield from _walk_statements(item.body)


def _is_range(value) -> bool:
    """A For's collection is ``range(...)``: in a body that is yaql's function (no receiver),
    whose every item is an int in both libraries."""
    if not isinstance(value, ir.Expression):
        return False
    tree = value.tree
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return isinstance(tree, ir.Function) and tree.name == "range"


def int_variables(method: ir.Method) -> frozenset[str]:
    """The keys (``$name``) of ``method``'s variables that hold an int at every local read."""
    statements = list(_walk_statements(method.body))
    if any(isinstance(statement, ir.Parallel) for statement in statements):
        return frozenset()
    arguments = {normal_variable_name(argument.name) for argument in method.arguments}
    candidates: set[str] = set()
    assignments: dict[str, list] = {}
    disqualified: set[str] = set()
    loops: dict[str, ir.For] = {}
    for statement in statements:
        if isinstance(statement, ir.Assignment):
            target = statement.target
            if isinstance(target.root, ir.GetContextValue):
                key = normal_variable_name(target.root.name)
                if target.steps:
                    disqualified.add(key)
                else:
                    assignments.setdefault(key, []).append(statement.value)
        elif isinstance(statement, ir.For):
            key = normal_variable_name(statement.variable)
            if key in loops or not _is_range(statement.collection):
                disqualified.add(key)
            loops[key] = statement
        elif isinstance(statement, ir.Try):
            disqualified.update(normal_variable_name(catch.variable) for catch in statement.catches if catch.variable)
    first_assigned: set[str] = set()
    seen: set[str] = set()
    for statement in method.body.statements:
        mentioned = _mentions(statement, set())
        if (isinstance(statement, ir.Assignment) and isinstance(statement.target.root, ir.GetContextValue)
                and not statement.target.steps):
            key = normal_variable_name(statement.target.root.name)
            if key not in seen and key not in _mentions(statement.value, set()):
                first_assigned.add(key)
        seen |= mentioned
    for key, loop in loops.items():
        if key in disqualified or key in arguments or key in assignments:
            continue
        outside = _mentions_outside(method.body.statements, loop)
        if key not in outside:
            candidates.add(key)
    candidates |= {key for key in first_assigned if key not in arguments and key not in loops}
    candidates -= disqualified | _SPECIAL
    changed = True
    while changed:
        changed = False
        for key in list(candidates):
            if not all(_is_int_value(value, candidates) for value in assignments.get(key, ())):
                candidates.discard(key)
                changed = True
    return frozenset(candidates)


def _contains(node, target) -> bool:
    if node is target:
        return True
    if isinstance(node, (tuple, list)):
        return any(_contains(item, target) for item in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_contains(getattr(node, field.name), target)
                   for field in dataclasses.fields(node) if field.name != "pos")
    return False


def _mentions_outside(node, loop: ir.For) -> set[str]:
    """``_mentions`` of ``node`` except inside ``loop``'s body (its collection counts)."""
    if node is loop:
        return _mentions(loop.collection, set())
    found: set[str] = set()
    if isinstance(node, (tuple, list)):
        for item in node:
            found |= _mentions_outside(item, loop)
        return found
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        if not _contains(node, loop):
            return _mentions(node, found)
        if isinstance(node, ir.For):
            found.add(normal_variable_name(node.variable))
        elif isinstance(node, ir.Catch) and node.variable:
            found.add(normal_variable_name(node.variable))
        for field in dataclasses.fields(node):
            if field.name != "pos":
                found |= _mentions_outside(getattr(node, field.name), loop)
    return found
