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

``int_bit_bounds`` then bounds their size: a result that certainly stays below the runtime's
inline bound (``INLINE_BOUND_BITS``) needs no bound test either (see its docstring).
"""

from __future__ import annotations

from mplc import ir

INT_OPERATORS = frozenset(("#operator_+", "#operator_-", "#operator_*", "#operator_mod"))
INLINE_BOUND_BITS = 4096
"""Inline int results must stay strictly within 2**INLINE_BOUND_BITS (``bridge.SMALL_INT``):
beyond it yaql's memory quota check decides."""
STEP_BITS = 64
"""No body runs 2**64 statements: a value changed by at most M per executed assignment stays
within M * 2**64 of where it started."""
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


def _own_variable(node: ir.Node) -> str | None:
    """The key of the variable ``node`` itself reads or writes: ``$x``, a For's, a Catch's As."""
    if isinstance(node, ir.GetContextValue):
        return normal_variable_name(node.name)
    if isinstance(node, ir.For) or isinstance(node, ir.Catch) and node.variable:
        return normal_variable_name(node.variable)
    return None


def _mentions(node: ir.Node, found: set[str]) -> set[str]:
    """Keys of every variable ``node`` reads or writes anywhere inside it."""
    for item in node.walk():
        key = _own_variable(item)
        if key is not None:
            found.add(key)
    return found


_STATEMENT_TYPES = ir.Statement.__args__


def _walk_statements(block: ir.Block):
    """Every statement inside ``block``, nested blocks' too, each before those inside it."""
    return (node for node in block.walk() if isinstance(node, _STATEMENT_TYPES))


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
        outside = set().union(*(_mentions_outside(statement, loop) for statement in method.body.statements))
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


def _contains(node: ir.Node, target: ir.Node) -> bool:
    return any(item is target for item in node.walk())


def _mentions_outside(node: ir.Node, loop: ir.For) -> set[str]:
    """``_mentions`` of ``node`` except inside ``loop``'s body (its collection counts)."""
    if node is loop:
        return _mentions(loop.collection, set())
    if not _contains(node, loop):
        return _mentions(node, set())
    key = _own_variable(node)
    found = set() if key is None else {key}
    for child in node.children():
        found |= _mentions_outside(child, loop)
    return found


def _unwrapped(tree: ir.Expr) -> ir.Expr:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return tree


def int_bits(tree: ir.Expr, bounds: dict[str, int]) -> int | None:
    """An upper bound of the bit length of the int expression ``tree``'s value, given the bit
    bounds of its variables; None when some variable has none."""
    tree = _unwrapped(tree)
    if isinstance(tree, ir.Constant):
        return abs(tree.value).bit_length() if type(tree.value) is int else None
    if isinstance(tree, ir.GetContextValue):
        return bounds.get(normal_variable_name(tree.name))
    if not (isinstance(tree, ir.Function) and tree.name in INT_OPERATORS and len(tree.args) == 2):
        return None
    left, right = (int_bits(arg, bounds) for arg in tree.args)
    if right is None or (left is None and tree.name != "#operator_mod"):
        return None
    if tree.name == "#operator_mod":
        return right
    if tree.name == "#operator_*":
        return left + right
    return max(left, right) + 1


def _terms(tree: ir.Expr) -> list[ir.Expr]:
    """The operands of a top-level chain of ``+`` and ``-``."""
    tree = _unwrapped(tree)
    if isinstance(tree, ir.Function) and tree.name in ("#operator_+", "#operator_-") and len(tree.args) == 2:
        return _terms(tree.args[0]) + _terms(tree.args[1])
    return [tree]


def _assignment_bits(key: str, value: ir.Value, bounds: dict[str, int]) -> int | None:
    """The bit bound ``key`` may reach through one assignment: the value's, for a value not
    reading ``key``; for ``key ± rest`` (``key`` one operand of a ``+``/``-`` chain, ``rest`` not
    reading it), ``rest``'s grown by STEP_BITS, as if it ran every step; else None."""
    if isinstance(value, ir.Literal):
        return abs(value.value).bit_length()
    tree = value.tree
    if key not in _mentions(tree, set()):
        return int_bits(tree, bounds)
    terms = _terms(tree)
    own = [term for term in terms if isinstance(term, ir.GetContextValue) and normal_variable_name(term.name) == key]
    rest = [term for term in terms if term not in own]
    if len(own) != 1 or any(key in _mentions(term, set()) for term in rest):
        return None
    rest_bits = [int_bits(term, bounds) for term in rest]
    if None in rest_bits:
        return None
    return max(rest_bits, default=0) + len(rest) + STEP_BITS + 1


def _range_bits(collection: ir.Value, bounds: dict[str, int]) -> int | None:
    """``range(n)`` yields 0, 1, ...: its items count steps; ``range(a, b)`` starts at ``a``."""
    tree = _unwrapped(collection.tree)
    if len(tree.args) == 1:
        return STEP_BITS
    if len(tree.args) == 2:
        start = int_bits(tree.args[0], bounds)
        return None if start is None else max(start, STEP_BITS) + 1
    return None


def int_bit_bounds(method: ir.Method, int_keys: frozenset[str]) -> dict[str, int]:
    """Bit bounds of the int variables ``int_keys`` whose size provably stays small: every
    assignment assigns a value bounded by constants and other bounded variables, or adds to
    the variable itself something so bounded (growth by at most that much per step; a variable
    doubling itself, or two feeding each other, has no bound). The least fixed point from zero,
    given up at INLINE_BOUND_BITS."""
    assignments: dict[str, list] = {key: [] for key in int_keys}
    ranges: dict[str, ir.Value] = {}
    for statement in _walk_statements(method.body):
        if isinstance(statement, ir.Assignment) and isinstance(statement.target.root, ir.GetContextValue):
            key = normal_variable_name(statement.target.root.name)
            if key in assignments:
                assignments[key].append(statement.value)
        elif isinstance(statement, ir.For) and normal_variable_name(statement.variable) in int_keys:
            ranges[normal_variable_name(statement.variable)] = statement.collection
    bounds = dict.fromkeys(int_keys, 0)
    changed = True
    while changed:
        changed = False
        for key in list(bounds):
            found = [_assignment_bits(key, value, bounds) for value in assignments[key]]
            if key in ranges:
                found.append(_range_bits(ranges[key], bounds))
            bits = None if None in found else max(found, default=0)
            if bits is None or bits >= INLINE_BOUND_BITS:
                del bounds[key]
                changed = True
            elif bits > bounds[key]:
                bounds[key] = bits
                changed = True
    return bounds
