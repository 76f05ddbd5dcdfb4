"""One generated module: hoisted module-level definitions, expressions and data values.

Expressions compile to functions of yaql's triple ``(receiver, context, engine)``; arguments
of yaql function calls become module-level lazy objects, built once at import time
(docs/compiled-modules.md, "Expressions").
"""

from __future__ import annotations

import ast
import datetime
from typing import Any

from mplc import ir
from mplc.codegen.int_variables import is_int_expression, normal_variable_name
from mplc.pyast import PyAst

RUNTIME = "_r"
TRIPLE = ("receiver", "context", "engine")


def runtime_attribute(at: PyAst, name: str) -> ast.expr:
    return at.Attribute(value=at.Name(id=RUNTIME, ctx=ast.Load()), attr=name, ctx=ast.Load())


def runtime_call(at: PyAst, name: str, /, *args: ast.expr, **keywords: ast.expr) -> ast.expr:
    return at.Call(func=runtime_attribute(at, name), args=list(args),
                   keywords=[at.keyword(arg=key, value=value) for key, value in keywords.items()])


def fast_attribute(at: PyAst, name: str) -> ast.expr:
    """``_r.fast.<name>``: a fast-path helper of mplc/runtime/fast_paths.py."""
    return at.Attribute(value=runtime_attribute(at, "fast"), attr=name, ctx=ast.Load())


def load(at: PyAst, name: str) -> ast.expr:
    return at.Name(id=name, ctx=ast.Load())


CALLER_TOKEN = "mplc_caller_token"
MATERIALIZED = "_call_context"


def caller_token(at: PyAst) -> ast.expr:
    """``context`` where code hands on what it runs in without reading it (a method it calls
    directly, a ``new()`` site, a query loop): there a body taken the direct way in hands its
    caller token (its variables, ``_r.fast.as_context``) and builds no call context."""
    name = load(at, "context")
    setattr(name, CALLER_TOKEN, True)
    return name


class LazyCallContext(ast.NodeTransformer):
    """Every other read of ``context`` in a function whose ``context`` may be a caller token
    (a body with a direct way in, a query loop) becomes ``(_call_context if _call_context is not
    None else (_call_context := as_context(context)))``: the call context is built once, when code first needs it. Inside
    a lambda or comprehension of the function a read builds one unless the function has;
    nested functions (Parallel branches) have a ``context`` of their own."""

    def __init__(self, builder: "ModuleBuilder", at: PyAst) -> None:
        self.at = at
        self.as_context = builder.module_constant(at, "as_context").id
        self.in_lambda = False

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id != "context" or not isinstance(node.ctx, ast.Load) or getattr(node, CALLER_TOKEN, False):
            return node
        at = self.at
        built = at.Call(func=load(at, self.as_context), args=[load(at, "context")], keywords=[])
        if not self.in_lambda:
            built = at.NamedExpr(target=store(at, MATERIALIZED), value=built)
        expression = at.IfExp(test=at.Compare(left=load(at, MATERIALIZED), ops=[ast.IsNot()],
                                              comparators=[at.Constant(value=None)]),
                              body=load(at, MATERIALIZED), orelse=built)
        for child in ast.walk(expression):
            if "lineno" in child._attributes:
                ast.copy_location(child, node)
        return expression

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        return node

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

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _nested_scope


def store(at: PyAst, name: str) -> ast.expr:
    return at.Name(id=name, ctx=ast.Store())


def parameters(at: PyAst, *names: str) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[at.arg(arg=name) for name in names],
                         kwonlyargs=[], kw_defaults=[], defaults=[])


def function_def(at: PyAst, name: str, parameter_names: tuple[str, ...],
                 body: list[ast.stmt]) -> ast.stmt:
    return at.FunctionDef(name=name, args=parameters(at, *parameter_names), body=body or [at.Pass()],
                          decorator_list=[], returns=None)


def constant(at: PyAst, value: Any) -> ast.expr:
    """Plain YAML data as a Python literal; user text only ever lands in ``ast.Constant``."""
    if isinstance(value, dict):
        return at.Dict(keys=[constant(at, key) for key in value],
                       values=[constant(at, item) for item in value.values()])
    if isinstance(value, (list, tuple)):
        return at.Tuple(elts=[constant(at, item) for item in value], ctx=ast.Load())
    if isinstance(value, (datetime.date, datetime.datetime)):
        return at.Constant(value=value.isoformat())
    if value is None or isinstance(value, (str, bytes, bool, int, float)):
        return at.Constant(value=value)
    raise TypeError(f"no literal form for {type(value).__name__}")


def holds_expression(value: ir.Value) -> bool:
    """Whether a data value is or holds a YAQL expression (else it is built once, as a constant)."""
    if isinstance(value, ir.Expression):
        return True
    if isinstance(value, ir.ListValue):
        return any(holds_expression(item) for item in value.items)
    if isinstance(value, ir.DictValue):
        return any(holds_expression(key) or holds_expression(item) for key, item in value.items)
    return False


class BodyLocals:
    """The variables of one method body kept as Python locals (``_v1``, ...), by yaql key.

    A write also goes to the body's variable scope (``_variables``, the call context's data)
    when code reads the variable from the context (hoisted lazy arguments, lambdas, Parallel
    branches, an assignment to a path under it), or the body runs Parallel branches (after
    which every local is read back) or reads ``extra`` (``keep_local``); reads are local."""

    def __init__(self, builder: "ModuleBuilder", int_keys: frozenset[str] = frozenset(),
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


VARIABLES = "_variables"


class _PredicateValue:
    """The locals of a numeric check() predicate: ``$`` is the parameter ``value``."""

    @staticmethod
    def name(key: str) -> str:
        if key != "$1":
            raise ValueError(f"a numeric predicate reads only $, not {key}")
        return "value"

    int_keys: frozenset[str] = frozenset()
    int_bounds: dict[str, int] = {}

    @staticmethod
    def holds_int(local: str) -> bool:
        return False


class _ItemValue:
    """The locals of an item function: ``$`` is the parameter ``item``; every other variable is
    read from the context."""

    @staticmethod
    def name(key: str) -> str | None:
        return "item" if key == "$1" else None

    int_keys: frozenset[str] = frozenset()
    int_bounds: dict[str, int] = {}

    @staticmethod
    def holds_int(local: str) -> bool:
        return False


RANGE_ITEM_BITS = 11
"""Items of ``range(n)`` a query loop takes stay below 2**11: the runtime runs loops only
under an iterator limit of at most ``bridge.ITERATORS_LIMIT`` (2000; a test checks)."""


class _RangeItem(_ItemValue):
    """The locals of a query loop over ``range(n)``: ``$`` is the local ``item``, an int from
    0 up to the iterator limit (the loop runs only while one applies, at most
    ``bridge.ITERATORS_LIMIT`` items)."""

    int_keys: frozenset[str] = frozenset(("$1",))
    int_bounds: dict[str, int] = {"$1": RANGE_ITEM_BITS}

    @staticmethod
    def holds_int(local: str) -> bool:
        return local == "item"


class LoopValues(_ItemValue):
    """The locals of a query loop generated in a body with locals: ``$`` is the local ``item``
    (an int of ``range(n)`` when ``range_item``); every other variable is the body's current
    value, a parameter of the loop named as the body's local (``parameters``: key -> name, in
    order). Nothing in a loop writes the variable scope (its trees are ``item_callable``), so
    the values cannot change while it runs: ``setup`` collects statements that work out, once
    before the loop, what depends on them alone."""

    def __init__(self, body_locals: BodyLocals, range_item: bool, setup: list[ast.stmt]) -> None:
        self.body_locals = body_locals
        self.range_item = range_item
        self.int_keys = _RangeItem.int_keys if range_item else frozenset()
        self.int_bounds = _RangeItem.int_bounds if range_item else {}
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


class ModuleBuilder:
    """Collects the module-level definitions of one module and hands out generated names."""

    def __init__(self, fast_paths: bool = False, legacy: bool = False) -> None:
        """``fast_paths`` compiles qualifying nodes to guarded Python (mplc.codegen.fast_paths);
        ``legacy`` says the module's Format (<= 1.1) evaluates with yaql's legacy library."""
        from mplc.codegen.fast_paths import FastPaths

        self.definitions: list[ast.stmt] = []
        self._counter = 0
        self._constants: dict[tuple, str] = {}
        self.fast = FastPaths(self, legacy) if fast_paths else None
        self.locals: BodyLocals | None = None
        # the body being built is also its method's direct way in (its Returns apply the
        # memory quota when it was called that way)
        self.direct_entry = False
        self.scalar_when_inline: set[int] = set()  # ids of IfExps whose inline branch is an int or bool
        self.local_results: set[int] = set()  # ids of IfExps freezing a local's value (``evaluate``)
        self.frozen_calls: set[int] = set()  # ids of calls whose value ``result`` leaves as it is
        self.context_reads: set[str] = set()  # keys of the variables code reads from the context
        self._module_constants: dict[str, ast.expr] = {}

    def new_name(self, prefix: str) -> str:
        self._counter += 1
        return f"_{prefix}{self._counter}"

    def define(self, at: PyAst, prefix: str, value: ast.expr) -> ast.expr:
        name = self.new_name(prefix)
        self.definitions.append(at.Assign(targets=[store(at, name)], value=value))
        return load(at, name)

    def define_function(self, at: PyAst, prefix: str, parameter_names: tuple[str, ...],
                        body: list[ast.stmt]) -> str:
        name = self.new_name(prefix)
        self.definitions.append(function_def(at, name, parameter_names, body))
        return name

    def module_constant(self, at: PyAst, name: str) -> ast.expr:
        """``_r.fast.<name>`` bound once to a module-level name."""
        if name not in self._module_constants:
            self._module_constants[name] = self.define(at, "C", fast_attribute(at, name))
        return load(at, self._module_constants[name].id)

    # -- expressions ---------------------------------------------------------------------

    def expression_function(self, tree: ir.Expr) -> str:
        """``def _fN(receiver, context, engine): return <tree>`` at module level (its variables
        are read from ``context``, whatever body it is hoisted from)."""
        at = PyAst(tree.pos)
        body_locals, self.locals = self.locals, None
        try:
            code = self.expression_code(tree)
        finally:
            self.locals = body_locals
        return self.define_function(at, "f", TRIPLE, [at.Return(value=code)])

    def expression_code(self, tree: ir.Expr) -> ast.expr:
        """Code evaluating ``tree`` with ``receiver``, ``context``, ``engine`` in scope.

        Fast paths only replace nodes yaql never evaluates with a receiver: operators and
        variables have ``uses_receiver`` False, and yaql hands a receiver only to method-style
        lambdas, which refuse such nodes (``yaqltypes.Lambda(method=True).check``)."""
        if isinstance(tree, ir.Wrap):
            return self.expression_code(tree.expr)
        fast = None if self.fast is None else self.fast.code(tree)
        return self._generic_code(PyAst(tree.pos), tree) if fast is None else fast

    def _generic_code(self, at: PyAst, tree: ir.Expr) -> ast.expr:
        if isinstance(tree, (ir.Constant, ir.KeywordConstant)):
            return constant(at, tree.value if isinstance(tree, ir.Constant) else tree.name)
        if isinstance(tree, ir.TypeName):
            return runtime_call(at, "type_reference", load(at, "context"), at.Constant(value=tree.full_name))
        if isinstance(tree, ir.GetContextValue):
            self.context_reads.add(normal_variable_name(tree.name))
            return self.call_code(at, "#get_context_data", (ir.Constant(tree.name, tree.pos),))
        if isinstance(tree, ir.Function):
            return self.call_code(at, tree.name, tree.args)
        if isinstance(tree, ir.MappingRule):
            rule = self.argument(tree)
            return at.Call(func=rule, args=[load(at, name) for name in TRIPLE], keywords=[])
        raise TypeError(f"unknown expression node {type(tree).__name__}")

    def call_code(self, at: PyAst, name: str, args: tuple[ir.Expr, ...],
              arguments: ast.expr | None = None) -> ast.expr:
        if arguments is None:
            arguments = self.call_arguments(at, args)
        return runtime_call(at, "call", at.Constant(value=name), *(load(at, n) for n in TRIPLE), arguments)

    def call_arguments(self, at: PyAst, args: tuple[ir.Expr, ...], item_functions: bool = False) -> ast.expr:
        """The hoisted tuple of argument objects of a call (``_AN``); ``item_functions``: with
        the item functions of those that qualify (the arguments of a method call, which the
        runtime's queries may call per item)."""
        return self.define(at, "A", at.Tuple(elts=[self.argument(arg, item_functions) for arg in args],
                                             ctx=ast.Load()))

    def call_lazy(self, tree: ir.Function, arguments: ast.expr) -> ast.expr:
        """The lazy argument object of the call ``tree`` whose argument tuple is ``arguments``."""
        at = PyAst(tree.pos)
        call = self.call_code(at, tree.name, tree.args, arguments)
        function = self.define_function(at, "f", TRIPLE, [at.Return(value=call)])
        return self.define(at, "L", runtime_call(at, "lazy", load(at, function),
                                                  at.Constant(value=tree.uses_receiver)))

    def argument(self, tree: ir.Expr, item_function: bool = False) -> ast.expr:
        """A module-level lazy argument object standing for ``tree`` (yaql passes trees, not values)."""
        at = PyAst(tree.pos)
        if isinstance(tree, (ir.Constant, ir.KeywordConstant)):
            keyword = isinstance(tree, ir.KeywordConstant)
            value = tree.name if keyword else tree.value
            key = (keyword, type(value), value)
            if key not in self._constants:
                built = runtime_call(at, "keyword" if keyword else "constant", constant(at, value))
                self._constants[key] = self.define(at, "K", built).id
            return load(at, self._constants[key])
        if isinstance(tree, ir.MappingRule):
            return self.define(at, "R", runtime_call(at, "rule", self.argument(tree.source),
                                                      self.argument(tree.destination)))
        if isinstance(tree, ir.SkippedArgument):
            return fast_attribute(at, "NO_VALUE")
        uses_receiver = isinstance(tree, ir.Function) and tree.uses_receiver
        function = self.expression_function(tree)
        arguments = [load(at, function), at.Constant(value=uses_receiver)]
        if item_function and self.fast is not None and self.fast.item_callable(tree):
            arguments.append(load(at, self.item_function(tree)))
        return self.define(at, "L", runtime_call(at, "lazy", *arguments))

    @property
    def in_item_function(self) -> bool:
        """Whether the code being built is an item function's (``$`` the item it is given)."""
        return isinstance(self.locals, _ItemValue)

    def item_code(self, tree: ir.Expr, range_item: bool = False,
                  loop_values: dict[str, str] | None = None, loop_setup: list[ast.stmt] | None = None) -> ast.expr:
        """The code of ``tree`` with ``$`` the local ``item``, for a tree
        ``FastPaths.item_callable`` admits (an item function's value, or a query loop's;
        ``range_item``: a loop's over ``range(n)``). ``loop_values`` and ``loop_setup``, a
        query loop's: in a body with locals, the other variables are the body's values, handed
        to the loop as parameters (``LoopValues``); their keys and names are added to the
        first, the statements the loop runs first to the second."""
        if loop_values is not None and isinstance(self.locals, BodyLocals):
            item_locals = LoopValues(self.locals, range_item, loop_setup)
        else:
            item_locals = _RangeItem() if range_item else _ItemValue()
        outer, self.locals = self.locals, item_locals
        try:
            return self.expression_code(tree)
        finally:
            self.locals = outer
            if isinstance(item_locals, LoopValues):
                loop_values.update(item_locals.parameters)

    def item_function(self, tree: ir.Expr) -> str:
        """``def _iN(item, context, engine)``: ``tree`` with ``$`` the parameter ``item`` (a
        query calls it per item, in its own context)."""
        at = PyAst(tree.pos)
        code = self.item_code(tree)
        statements = self.fast.final_dict_statements(at, code) or [at.Return(value=code)]
        return self.define_function(at, "i", ("item", "context", "engine"), statements)

    def evaluate(self, expression: ir.Expression) -> ast.expr:
        """``_r.evaluate(_fN, context)``: a whole expression, with yaql's statement semantics.

        In a body with Python locals the expression is inline, its value frozen by
        ``_r.result`` unless it is certainly a scalar; ``run_body`` and ``catch_matches`` turn
        Python errors into MuranoPL ones as ``_r.evaluate`` does."""
        at = PyAst(expression.pos)
        if self.locals is not None:
            selected = self.fast.selected_result(expression.tree)
            if selected is not None:
                return selected
            code = self.expression_code(expression.tree)
            if self.fast.returns_scalar(expression.tree) or is_int_expression(expression.tree,
                                                                               self.locals.int_keys):
                return code
            if id(code) in self.frozen_calls:
                return code
            if isinstance(code, ast.IfExp) and id(code) in self.scalar_when_inline:
                code.orelse = runtime_call(at, "result", code.orelse)
                return code
            if isinstance(code, ast.Name):  # a local: ``_r.result`` inline for scalars
                is_scalar = at.Compare(left=at.Call(func=load(at, "type"), args=[code], keywords=[]),
                                       ops=[ast.In()], comparators=[self.module_constant(at, "SCALARS")])
                value = at.IfExp(test=is_scalar, body=load(at, code.id),
                                 orelse=runtime_call(at, "result", load(at, code.id)))
                self.local_results.add(id(value))
                return value
            return runtime_call(at, "result", code)
        function = self.expression_function(expression.tree)
        arguments = [load(at, function), load(at, "context")]
        if self.fast is not None:
            arguments.append(load(at, "_ENGINE"))
        return runtime_call(at, "evaluate", *arguments)

    def hoist_expression(self, expression: ir.Expression) -> ast.expr:
        """The contract compiler's callback: a reference to the hoisted function of ``expression``."""
        at = PyAst(expression.pos)
        return load(at, self.expression_function(expression.tree))

    def numeric_predicate(self, expression: ir.Expression) -> ast.expr | None:
        """A check() predicate over ``$`` that, for a number, only does arithmetic and
        comparisons (``FastPaths.numeric_only``): hoisted as ``def _nN(value, context, engine)``
        with ``$`` the local ``value``, run with no context (the helpers need one only for
        operands that are not numbers). None when fast paths are off or the tree has more."""
        if self.fast is None or not self.fast.numeric_only(expression.tree, boolean=True):
            return None
        at = PyAst(expression.pos)
        outer, self.locals = self.locals, _PredicateValue()
        try:
            code = self.expression_code(expression.tree)
        finally:
            self.locals = outer
        return load(at, self.define_function(at, "n", ("value", "context", "engine"), [at.Return(value=code)]))

    # -- data values ---------------------------------------------------------------------

    def value(self, value: ir.Value, nested: bool = False) -> ast.expr:
        """Code building a data value in a method scope (``context`` in scope), frozen like the reference.

        The reference builds a list or dict of data with generator expressions: a StopIteration
        escaping an expression inside one becomes RuntimeError "generator raised StopIteration".
        A data list or dict holding expressions is built by a lambda ``built_data`` calls, which
        makes that conversion."""
        at = PyAst(value.pos)
        if isinstance(value, ir.Literal):
            return constant(at, value.value)
        if isinstance(value, ir.Expression):
            return self.evaluate(value)
        if isinstance(value, ir.ListValue):
            code = runtime_call(at, "freeze_list",
                                at.List(elts=[self.value(item, True) for item in value.items], ctx=ast.Load()))
        elif isinstance(value, ir.DictValue):
            pairs = [at.Tuple(elts=[self.value(key, True), self.value(item, True)], ctx=ast.Load())
                     for key, item in value.items]
            code = runtime_call(at, "freeze_dict", at.List(elts=pairs, ctx=ast.Load()))
        else:
            raise TypeError(f"unknown value node {type(value).__name__}")
        if nested or not holds_expression(value):
            return code
        return runtime_call(at, "built_data", at.Lambda(args=parameters(at), body=code))

    def optional_value(self, at: PyAst, value: ir.Value | None) -> ast.expr:
        return at.Constant(value=None) if value is None else self.value(value)


def expression_module(tree: ir.Expr, fast_paths: bool = True, legacy: bool = False) -> tuple[ast.Module, str]:
    """A module defining one expression function of ``tree`` and
    what it needs; returns the module and the function's name. For tools and tests that run
    single expressions (yaql's own test suite, differential tests)."""
    builder = ModuleBuilder(fast_paths, legacy)
    name = builder.expression_function(tree)
    at = PyAst(tree.pos)
    prologue = at.Import(names=[at.alias(name="mplc.runtime", asname=RUNTIME)])
    return ast.Module(body=[prologue] + builder.definitions, type_ignores=[]), name
