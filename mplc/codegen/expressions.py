"""One generated module: hoisted module-level definitions, expressions and data values.

Expressions compile to functions of yaql's triple ``(receiver, context, engine)``; arguments
of yaql function calls become module-level lazy objects, built once at import time
(docs/compiled-modules.md).
"""

from __future__ import annotations

import ast

from mplc import ir
from mplc.codegen.ast_parts import (RUNTIME, TRIPLE, constant, fast_attribute, function_def, holds_expression, load,
                                    parameters, runtime_call, store)
from mplc.codegen.body_locals import BodyLocals, ItemValue, LoopValues, PredicateValue, RangeItem
from mplc.codegen.fast_paths import FastPaths
from mplc.codegen.int_variables import is_int_expression, normal_variable_name
from mplc.codegen.sharing import SharedDefinitions
from mplc.pyast import PyAst


class ModuleBuilder:
    """Collects the module-level definitions of one module and hands out generated names."""

    def __init__(self, fast_paths: bool = False, legacy: bool = False) -> None:
        """``fast_paths`` compiles qualifying nodes to guarded Python (mplc.codegen.fast_paths);
        ``legacy`` says the module's Format (<= 1.1) evaluates with yaql's legacy library."""
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
        self.shared = SharedDefinitions()

    def new_name(self, prefix: str) -> str:
        self._counter += 1
        return f"_{prefix}{self._counter}"

    def define(self, at: PyAst, prefix: str, value: ast.expr) -> ast.expr:
        """``_<prefix>N = value`` at module level (or an equal one defined before: ``shared``)."""
        name = self.new_name(prefix)
        shared = self.shared.value(prefix, value, name)
        if shared == name:
            self.definitions.append(at.Assign(targets=[store(at, name)], value=value))
        return load(at, shared)

    def define_function(self, at: PyAst, prefix: str, parameter_names: tuple[str, ...],
                        body: list[ast.stmt]) -> str:
        """``def _<prefix>N(parameters): body`` at module level (or an identical one defined
        before: ``shared``); returns its name."""
        function = function_def(at, self.new_name(prefix), parameter_names, body)
        shared = self.shared.function(prefix, function)
        if shared == function.name:
            self.definitions.append(function)
        return shared

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
        return isinstance(self.locals, ItemValue)

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
            item_locals = RangeItem() if range_item else ItemValue()
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
        outer, self.locals = self.locals, PredicateValue()
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
