"""Where a generated function keeps MuranoPL variables: a method body's Python locals
(``BodyLocals``), an item function's or query loop's ``item`` (``LoopValues``), a numeric
predicate's ``value``; and the call context a body builds only when code first needs it
(``LazyCallContext``). The expression builder that uses them is passed in, never imported."""

from __future__ import annotations

import ast

from mplc.codegen.ast_parts import CALLER_TOKEN, MATERIALIZED, VARIABLES, NameSource, load, store
from mplc.pyast import PyAst


class LazyCallContext:
    """Every other read of ``context`` in a function whose ``context`` may be a caller token
    (a body with a direct way in, a query loop) becomes ``(_call_context if _call_context is not
    None else (_call_context := as_context(context)))``: the call context is built once, when code first needs it. Inside
    a lambda or comprehension of the function a read builds one unless the function has;
    nested functions (Parallel branches) have a ``context`` of their own."""

    def __init__(self, builder: NameSource, at: PyAst) -> None:
        self.at = at
        self.as_context = builder.module_constant(at, "as_context").id
        self.in_lambda = False

    def visit(self, node: ast.AST) -> ast.AST:
        """``node``, rewritten in place (a read of ``context`` comes back as its replacement).
        ``ast.NodeTransformer`` does the same by name lookups per node: a method body is
        thousands of nodes, and this walk was a fifth of the whole compile."""
        kind = type(node)
        if kind is ast.Name:
            return self.visit_Name(node)
        if kind is ast.FunctionDef:
            return node
        if kind is ast.Lambda:
            return self.visit_Lambda(node)
        if kind in _NESTED_SCOPES:
            return self._nested_scope(node)
        return self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for index, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        value[index] = self.visit(item)
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id != "context" or not isinstance(node.ctx, ast.Load) or getattr(node, CALLER_TOKEN, False):
            return node
        at = PyAst.at_node(node)
        built = at.Call(func=load(at, self.as_context), args=[load(at, "context")], keywords=[])
        if not self.in_lambda:
            built = at.NamedExpr(target=store(at, MATERIALIZED), value=built)
        return at.IfExp(test=at.Compare(left=load(at, MATERIALIZED), ops=[ast.IsNot()],
                                        comparators=[at.Constant(value=None)]),
                        body=load(at, MATERIALIZED), orelse=built)

    def visit_Lambda(self, node: ast.Lambda) -> ast.Lambda:
        if any(argument.arg == "context" for argument in node.args.args):
            return node
        return self._nested_scope(node)

    def _nested_scope(self, node: ast.AST) -> ast.AST:
        """A lambda or comprehension: no ``_call_context :=`` there (a comprehension's iterable may not
        hold one)."""
        outer, self.in_lambda = self.in_lambda, True
        try:
            return self.generic_visit(node)
        finally:
            self.in_lambda = outer


_NESTED_SCOPES = frozenset((ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))


class BodyLocals:
    """The variables of one method body kept as Python locals (``_v1``, ...), by yaql key.

    A write also goes to the body's variable scope (``_variables``, the call context's data)
    when code reads the variable from the context (hoisted lazy arguments, lambdas, Parallel
    branches, an assignment to a path under it), or the body runs Parallel branches (after
    which every local is read back) or reads ``extra`` (``keep_local``); reads are local."""

    def __init__(self, builder: NameSource, int_keys: frozenset[str] = frozenset(),
                 int_bounds: dict[str, int] | None = None) -> None:
        """``int_keys``: the variables that hold an int at every local read
        (``int_variables``), read without a type guard by inline integer code; ``int_bounds``:
        bit bounds of those whose size provably stays small (``int_bit_bounds``)."""
        self.builder = builder
        self.names: dict[str, str] = {}
        self.reload_markers: dict[int, tuple[ast.stmt, PyAst]] = {}
        self.int_keys = int_keys
        self.int_bounds = int_bounds or {}
        self.writes: list[tuple[str, ast.Assign]] = []

    def holds_int(self, local: str) -> bool:
        return any(self.names.get(key) == local for key in self.int_keys)

    def name(self, key: str) -> str:
        if key not in self.names:
            self.names[key] = self.builder.new_name("v")
        return self.names[key]

    def write(self, at: PyAst, key: str, value: ast.expr) -> ast.stmt:
        """``_vN = _variables[key] = value``."""
        slot = at.Subscript(value=load(at, VARIABLES), slice=at.Constant(value=key), ctx=ast.Store())
        assignment = at.Assign(targets=[store(at, self.name(key)), slot], value=value)
        self.writes.append((key, assignment))
        return assignment

    def keep_local(self, context_reads: set[str]) -> None:
        """Variables that no code reads from the context (``context_reads``: the keys hoisted
        code, Parallel branches and the runtime's assignment to a path read) are written to
        their local only: the garbage collector, the other reader of the variable scope, also
        reads a running body's ``_vN`` locals (``executor.running_bodies``)."""
        for key, assignment in self.writes:
            if key not in context_reads:
                del assignment.targets[1:]

    def read_back(self, at: PyAst, key: str) -> ast.stmt:
        """``_vN = _variables.get(key)``: after code that wrote the variable through the context."""
        value = at.Call(func=at.Attribute(value=load(at, VARIABLES), attr="get", ctx=ast.Load()),
                        args=[at.Constant(value=key)], keywords=[])
        return at.Assign(targets=[store(at, self.name(key))], value=value)

    def reload_all(self, at: PyAst) -> ast.stmt:
        """A placeholder ``prologue`` replaces with a ``read_back`` of every local (after Parallel)."""
        marker = at.Pass()
        self.reload_markers[id(marker)] = (marker, at)
        return marker

    def prologue(self, at: PyAst, body: list[ast.stmt]) -> list[ast.stmt]:
        """Statements binding what ``body`` may use: the variable scope, each local's current
        value (unset variables read as null, as yaql's lookup does), ``receiver`` and ``engine``
        (``bindings``). Fills in the reload placeholders of ``body``."""
        self.fill_reloads(body)
        return self.variable_reads(at) + self.bindings(at)

    def fill_reloads(self, body: list[ast.stmt]) -> None:
        if self.reload_markers:
            _ReloadFiller(self).visit(ast.Module(body=body, type_ignores=[]))

    def variable_reads(self, at: PyAst) -> list[ast.stmt]:
        """``_variables = context._data`` and a ``read_back`` of every local."""
        if not self.names:
            return []
        return [at.Assign(targets=[store(at, VARIABLES)], value=at.Attribute(
            value=load(at, "context"), attr="_data", ctx=ast.Load())),
            *(self.read_back(at, key) for key in self.names)]

    def bindings(self, at: PyAst) -> list[ast.stmt]:
        """``receiver`` and ``engine``, bound always: finding out whether the body uses them
        costs more."""
        return [at.Assign(targets=[store(at, "receiver")], value=self.builder.module_constant(at, "NO_VALUE")),
                at.Assign(targets=[store(at, "engine")], value=load(at, "_ENGINE"))]


class _OneParameter:
    """The locals of a function whose only local is its parameter ``$``, of no known type."""

    int_keys: frozenset[str] = frozenset()
    int_bounds: dict[str, int] = {}

    @staticmethod
    def holds_int(local: str) -> bool:
        return False


class PredicateValue(_OneParameter):
    """The locals of a numeric check() predicate: ``$`` is the parameter ``value``."""

    @staticmethod
    def name(key: str) -> str:
        if key != "$1":
            raise ValueError(f"a numeric predicate reads only $, not {key}")
        return "value"


class ItemValue(_OneParameter):
    """The locals of an item function: ``$`` is the parameter ``item``; every other variable is
    read from the context."""

    @staticmethod
    def name(key: str) -> str | None:
        return "item" if key == "$1" else None


RANGE_ITEM_BITS = 11
"""Items of ``range(n)`` a query loop takes stay below 2**11: the runtime runs loops only
under an iterator limit of at most ``bridge.ITERATORS_LIMIT`` (2000; a test checks)."""


class RangeItem(ItemValue):
    """The locals of a query loop over ``range(n)``: ``$`` is the local ``item``, an int from
    0 up to the iterator limit (the loop runs only while one applies, at most
    ``bridge.ITERATORS_LIMIT`` items)."""

    int_keys: frozenset[str] = frozenset(("$1",))
    int_bounds: dict[str, int] = {"$1": RANGE_ITEM_BITS}

    @staticmethod
    def holds_int(local: str) -> bool:
        return local == "item"


class LoopValues(ItemValue):
    """The locals of a query loop generated in a body with locals: ``$`` is the local ``item``
    (an int of ``range(n)`` when ``range_item``); every other variable is the body's current
    value, a parameter of the loop named as the body's local (``parameters``: key -> name, in
    order). Nothing in a loop writes the variable scope (its trees are ``item_callable``), so
    the values cannot change while it runs: ``setup`` collects statements that work out, once
    before the loop, what depends on them alone."""

    def __init__(self, body_locals: BodyLocals, range_item: bool, setup: list[ast.stmt]) -> None:
        self.body_locals = body_locals
        self.range_item = range_item
        self.int_keys = RangeItem.int_keys if range_item else frozenset()
        self.int_bounds = RangeItem.int_bounds if range_item else {}
        self.parameters: dict[str, str] = {}
        self.setup = setup

    def name(self, key: str) -> str:
        if key == "$1":
            return "item"
        self.parameters[key] = self.body_locals.name(key)
        return self.parameters[key]

    def holds_int(self, local: str) -> bool:
        return self.range_item and local == "item"


class _ReloadFiller(ast.NodeTransformer):
    def __init__(self, body_locals: BodyLocals) -> None:
        self.body_locals = body_locals

    def visit_Pass(self, node: ast.Pass):
        marker, at = self.body_locals.reload_markers.get(id(node), (None, None))
        if marker is not node:
            return node
        return [self.body_locals.read_back(at, key) for key in self.body_locals.names] or node
