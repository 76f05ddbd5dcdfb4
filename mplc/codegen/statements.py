"""Method bodies: IR statements -> Python statements with the reference's block semantics.

Each body is ``def _bodyN(context)``; control flow is plain Python, everything whose meaning
belongs to the reference engine is a runtime call (docs/compiled-modules.md).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from mplc import ir
from mplc.codegen.int_variables import normal_variable_name
from mplc.codegen.ast_parts import (MATERIALIZED, RUNTIME, VARIABLES, constant, fast_attribute, function_def, load,
                                    runtime_attribute, runtime_call, store)
from mplc.codegen.body_locals import BodyLocals, LazyCallContext
from mplc.codegen.expressions import ModuleBuilder
from mplc.pyast import PyAst


@dataclass(frozen=True)
class DirectArgument:
    """An argument as a method body's direct way in checks it: its variable key, its contract's
    validator (a name, or None), the one builtin type its values must have when the validator
    passes exactly the values of that type unchanged (else None: the runtime's
    ``argument_acceptance`` of the validator decides), whether that acceptance may hold only on
    a condition, and for such a contract ending in ``check(p)`` that passes ints, ``p``."""

    key: str
    contract: ast.expr
    accepted_type: str | None
    conditional: bool
    int_predicate: ir.Expr | None = None


@dataclass(frozen=True)
class _Scope:
    """What the Python function being generated allows: ``break`` needs a loop, bare ``raise`` a handler."""

    in_loop: bool = False
    in_catch: bool = False
    in_branch: bool = False  # inside a Parallel branch, a nested function of its own


def _context_slot(at: PyAst, name: str, ctx: ast.expr_context) -> ast.expr:
    """``context['$name']``: a variable written by For or Catch As (yaql prefixes names with ``$``)."""
    key = name if name.startswith("$") else "$" + name
    return at.Subscript(value=load(at, "context"), slice=at.Constant(value=key), ctx=ctx)


def _is_runtime_call(code: ast.expr, name: str) -> bool:
    """Whether ``code`` is ``_r.<name>(...)`` as ``runtime_call`` builds it."""
    return (isinstance(code, ast.Call) and isinstance(code.func, ast.Attribute) and code.func.attr == name
            and isinstance(code.func.value, ast.Name) and code.func.value.id == RUNTIME)


def _reads_attribute(node: ir.Node, name: str) -> bool:
    """Whether IR ``node`` holds the keyword ``name`` (``$e.extra``). A Throw's Extra read
    through an exception's ``extra`` evaluates where it is read, with that body's variables:
    such a body keeps them all in its context."""
    return any(type(item) is ir.KeywordConstant and item.name == name for item in node.walk())


def _holds(node: ir.Node, node_type) -> bool:
    """Whether IR ``node`` is or holds a node of ``node_type``."""
    return any(isinstance(item, node_type) for item in node.walk())


def _names(at: PyAst, names: tuple[str, ...]) -> ast.expr:
    return at.Tuple(elts=[at.Constant(value=name) for name in names], ctx=ast.Load())


class _IntArgument:
    """The locals of an argument's check() predicate inline in a direct way in: ``$`` is the
    argument's local, an int there; the predicate reads nothing else (``numeric_only``)."""

    int_bounds: dict[str, int] = {}

    def __init__(self, local: str) -> None:
        self.local = local
        self.int_keys = frozenset(("$1",))

    def name(self, key: str) -> str:
        if key != "$1":
            raise ValueError(f"a numeric predicate reads only $, not {key}")
        return self.local

    def holds_int(self, local: str) -> bool:
        return local == self.local


class _AsWhen(ast.NodeTransformer):
    """Predicate code as the runtime calls a numeric twin: no context, the caller's engine."""

    def visit_Name(self, node: ast.Name):
        if node.id == "context":
            return ast.copy_location(ast.Constant(value=None), node)
        if node.id == "engine":
            return ast.copy_location(ast.Name(id="caller_engine", ctx=node.ctx), node)
        return node


class StatementCompiler:
    def __init__(self, builder: ModuleBuilder):
        self.builder = builder

    def body_function(self, block: ir.Block, pos: ir.Pos, int_keys: frozenset[str] = frozenset(),
                      int_bounds: dict[str, int] | None = None,
                      direct_arguments: tuple[DirectArgument, ...] | None = None) -> str:
        """A module-level ``def _bodyN(context)`` running ``block``; returns its name. With fast
        paths its variables are Python locals (``BodyLocals``; ``int_keys`` those that always
        hold an int, ``int_bounds`` the bit bounds of the small ones) and its expressions inline;
        given ``direct_arguments`` (in order) it is also the method's direct way in
        (``_direct_entry``). A body turns Python errors into MuranoPL exceptions itself
        (``_converting``)."""
        at = PyAst(pos)
        self.body_local_names = self.body_local_keys = ()
        if self.builder.fast is None:
            return self.builder.define_function(at, "body", ("context",),
                                                self._converting(at, self.block(block, _Scope())))
        self.builder.locals = body_locals = BodyLocals(self.builder, int_keys, int_bounds)
        self.builder.context_reads = set()
        self.builder.direct_entry = direct_arguments is not None
        try:
            body = self.block(block, _Scope())
        finally:
            self.builder.locals = None
            self.builder.direct_entry = False
        context_reads = self.builder.context_reads
        if _reads_attribute(block, "extra") or _holds(block, ir.Parallel):
            context_reads = context_reads | set(body_locals.names)
        body_locals.keep_local(context_reads)
        self.body_local_names = tuple(body_locals.names.values())
        self.body_local_keys = tuple(body_locals.names)
        body_locals.fill_reloads(body)
        body = self._converting(at, body)
        if direct_arguments is None:
            return self.builder.define_function(
                at, "body", ("context",), body_locals.variable_reads(at) + body_locals.bindings(at) + body)
        return self._direct_entry(at, body_locals, direct_arguments, body)

    def _direct_entry(self, at: PyAst, body_locals: BodyLocals,
                      arguments: tuple[DirectArgument, ...], body: list[ast.stmt]) -> str:
        """``def _bodyN(context, this=None, caller=None, caller_engine=None, <arguments>=None)``:
        called ``body(context)`` it runs in that call context as any body; called by a call site
        (``fast.MethodCall``) as ``body(parent, this, caller, caller_engine, *arguments)``, with
        ``parent`` the method's context (``CallPlan.parent``), it does what ``DirectCall`` would
        in its own frame: hands the call to ``_r.fast.enter_slowly`` unless ``_turned_away``
        finds nothing, else builds its variables (``this.real_this`` as ``$this`` and ``$``,
        the arguments, the method's context under ``METHOD_CONTEXT_KEY``), the caller token
        ``context`` then holds, and runs; the call context is built only where code needs one
        (``LazyCallContext``)."""
        builder = self.builder
        names = [body_locals.name(argument.key) for argument in arguments]
        slowly = at.Call(func=fast_attribute(at, "enter_slowly"),
                         args=[load(at, "context"), load(at, "this"), load(at, "caller"), load(at, "caller_engine"),
                               *(load(at, name) for name in names)], keywords=[])
        variables = at.Dict(keys=[at.Constant(value="$this"), at.Constant(value="$1"),
                                  *(at.Constant(value=argument.key) for argument in arguments),
                                  builder.module_constant(at, "METHOD_CONTEXT_KEY")],
                            values=[load(at, "this"), load(at, "this"), *(load(at, name) for name in names),
                                    load(at, "context")])
        direct = [
            at.If(test=self._turned_away(at, names, arguments), body=[at.Return(value=slowly)], orelse=[]),
            at.Assign(targets=[store(at, "this")],
                      value=at.Attribute(value=load(at, "this"), attr="real_this", ctx=ast.Load())),
            at.Assign(targets=[store(at, VARIABLES)], value=variables),
            at.Assign(targets=[store(at, "context")], value=load(at, VARIABLES)),
            at.Assign(targets=[store(at, MATERIALIZED)], value=at.Constant(value=None)),
        ]
        argument_keys = {argument.key for argument in arguments}
        for key, name in body_locals.names.items():
            if key in ("$this", "$1"):
                direct.append(at.Assign(targets=[store(at, name)], value=load(at, "this")))
            elif key not in argument_keys:
                direct.append(at.Assign(targets=[store(at, name)], value=at.Constant(value=None)))
        generic = [*body_locals.variable_reads(at), at.Assign(targets=[store(at, MATERIALIZED)], value=load(at, "context"))]
        prologue = at.If(test=at.Compare(left=load(at, "caller"), ops=[ast.Is()],
                                         comparators=[at.Constant(value=None)]),
                         body=generic, orelse=direct)
        name = builder.new_name("body")
        parameter_names = ("context", "this", "caller", "caller_engine", *names)
        lazy = LazyCallContext(builder, at)
        body = [lazy.visit(statement) for statement in body]
        function = function_def(at, name, parameter_names, [prologue, *body_locals.bindings(at), *body])
        function.args.defaults = [at.Constant(value=None) for _ in parameter_names[1:]]
        builder.definitions.append(function)
        return name

    def _turned_away(self, at: PyAst, names: list[str], arguments: tuple[DirectArgument, ...]) -> ast.expr:
        """What sends a direct call to ``DirectCall``: an argument its contract must see (its
        type is not one the validator passes unchanged, or the condition of such a value fails),
        a destroyed receiver, a caller that is neither a method body's caller token nor its
        ``CallContext`` (a lambda's context, or a ``WritingCallContext``: code allowed to write
        what only initialization writes), a running Parallel."""
        builder = self.builder
        tests = []
        for name, argument in zip(names, arguments):
            value = load(at, name)
            value_type = at.Call(func=load(at, "type"), args=[value], keywords=[])
            if argument.accepted_type is not None:
                tests.append(at.Compare(left=value_type, ops=[ast.IsNot()],
                                        comparators=[load(at, argument.accepted_type)]))
                continue
            predicate = self._int_predicate(name, argument.int_predicate)
            if predicate is not None:
                tests.append(at.BoolOp(op=ast.Or(), values=[
                    at.Compare(left=value_type, ops=[ast.IsNot()], comparators=[load(at, "int")]),
                    at.UnaryOp(op=ast.Not(), operand=predicate)]))
                continue
            acceptance = at.Call(func=fast_attribute(at, "argument_acceptance"), args=[argument.contract],
                                 keywords=[])
            if not argument.conditional:
                types = builder.define(at, "T", at.Subscript(value=acceptance, slice=at.Constant(value=0),
                                                             ctx=ast.Load()))
                tests.append(at.Compare(left=value_type, ops=[ast.NotIn()], comparators=[types]))
                continue
            types, when = builder.new_name("T"), builder.new_name("W")
            builder.definitions.append(at.Assign(
                targets=[at.Tuple(elts=[store(at, types), store(at, when)], ctx=ast.Store())], value=acceptance))
            tests.append(at.BoolOp(op=ast.Or(), values=[
                at.Compare(left=value_type, ops=[ast.NotIn()], comparators=[load(at, types)]),
                at.BoolOp(op=ast.And(), values=[
                    at.Compare(left=load(at, when), ops=[ast.IsNot()], comparators=[at.Constant(value=None)]),
                    at.UnaryOp(op=ast.Not(), operand=at.Call(
                        func=load(at, when), args=[value, at.Constant(value=None), load(at, "caller_engine")],
                        keywords=[]))])]))
        caller_type = builder.new_name("t")
        tests += [
            at.Attribute(value=load(at, "this"), attr="destroyed", ctx=ast.Load()),
            at.BoolOp(op=ast.And(), values=[
                at.Compare(left=at.NamedExpr(target=store(at, caller_type), value=at.Call(
                    func=load(at, "type"), args=[load(at, "caller")], keywords=[])),
                    ops=[ast.IsNot()], comparators=[load(at, "dict")]),
                at.Compare(left=load(at, caller_type), ops=[ast.IsNot()],
                           comparators=[builder.module_constant(at, "CallContext")])]),
            builder.module_constant(at, "running_parallels"),
        ]
        return at.BoolOp(op=ast.Or(), values=tests)

    def _int_predicate(self, local: str, predicate: ir.Expr | None) -> ast.expr | None:
        """A check() predicate inline, for the int in ``local``, as its numeric twin
        (``ModuleBuilder.numeric_predicate``) computes it when the runtime calls it
        ``when(value, None, caller_engine)``; None unless the predicate has such a twin."""
        builder = self.builder
        if predicate is None or not builder.fast.numeric_only(predicate, boolean=True):
            return None
        outer, builder.locals = builder.locals, _IntArgument(local)
        try:
            code = builder.expression_code(predicate)
        finally:
            builder.locals = outer
        return _AsWhen().visit(code)

    def _converting(self, at: PyAst, body: list[ast.stmt]) -> list[ast.stmt]:
        """``body`` in ``try``: a Python error becomes a MuranoPL exception where it leaves the
        method (``to_murano_exception`` of the error and its traceback); a MuranoPL one passes."""
        error = self.builder.new_name("error")
        return [at.Try(body=body, handlers=[
            at.ExceptHandler(type=self.builder.module_constant(at, "MuranoPlException"), name=None,
                             body=[at.Raise(exc=None, cause=None)]),
            at.ExceptHandler(type=load(at, "Exception"), name=error, body=[at.Raise(
                exc=at.Call(func=self.builder.module_constant(at, "to_murano_exception"),
                            args=[load(at, error), at.Attribute(value=load(at, error), attr="__traceback__",
                                                                ctx=ast.Load())], keywords=[]),
                cause=at.Constant(value=None))])], orelse=[], finalbody=[])]

    def _returned(self, at: PyAst, value: ast.expr) -> list[ast.stmt]:
        """``return value``; in a direct way in, the value passes the caller's memory quota when
        a call site called it, as ``DirectCall`` applies it: values no quota refuses go back as
        they are (``_small``), others through ``_r.fast.returned``/``quota``."""
        if not self.builder.direct_entry or isinstance(value, ast.Constant):
            return [at.Return(value=value)]
        builder = self.builder
        caller, caller_engine = load(at, "caller"), load(at, "caller_engine")
        if isinstance(value, ast.IfExp) and id(value) in builder.scalar_when_inline:
            # the inline value is a bool or an int within the inline bounds: far below any quota
            value.orelse = at.Call(func=fast_attribute(at, "returned"), args=[value.orelse, caller, caller_engine],
                                   keywords=[])
            return [at.Return(value=value)]
        if isinstance(value, ast.IfExp) and id(value) in builder.local_results:
            # a local, unless it needs freezing or a quota test
            local = value.body.id
            returned = at.Call(func=fast_attribute(at, "returned"), args=[value.orelse, caller, caller_engine],
                               keywords=[])
            return [at.Return(value=at.IfExp(test=self._small(at, local, "SMALL_RESULTS"), body=load(at, local),
                                             orelse=returned))]
        result = builder.new_name("t")
        small = at.BoolOp(op=ast.Or(), values=[
            at.Compare(left=caller, ops=[ast.Is()], comparators=[at.Constant(value=None)]),
            self._small(at, result, "QUOTA_FREE")])
        quota = at.Call(func=builder.module_constant(at, "quota"), args=[caller_engine, load(at, result)],
                        keywords=[])
        return [at.Assign(targets=[store(at, result)], value=value),
                at.Return(value=at.IfExp(test=small, body=load(at, result), orelse=quota))]

    def _small(self, at: PyAst, name: str, small_types: str) -> ast.expr:
        """``(_tN := type(name)) is int and L < name < C or _tN in _r.fast.<small_types>``."""
        builder = self.builder
        value_type = builder.new_name("t")
        return at.BoolOp(op=ast.Or(), values=[
            at.BoolOp(op=ast.And(), values=[
                at.Compare(left=at.NamedExpr(target=store(at, value_type), value=at.Call(
                    func=load(at, "type"), args=[load(at, name)], keywords=[])),
                    ops=[ast.Is()], comparators=[load(at, "int")]),
                at.Compare(left=builder.module_constant(at, "INLINE_LOWER_BOUND"), ops=[ast.Lt(), ast.Lt()],
                           comparators=[load(at, name), builder.module_constant(at, "INLINE_BOUND")])]),
            at.Compare(left=load(at, value_type), ops=[ast.In()],
                       comparators=[builder.module_constant(at, small_types)])])

    def _write_variable(self, at: PyAst, name: str, value: ast.expr) -> ast.stmt:
        """``$name = value`` for For and Catch As: a local and the variable scope, or the context."""
        key = normal_variable_name(name)
        if self.builder.locals is not None:
            return self.builder.locals.write(at, key, value)
        return at.Assign(targets=[_context_slot(at, name, ast.Store())], value=value)

    def block(self, block: ir.Block, scope: _Scope) -> list[ast.stmt]:
        statements: list[ast.stmt] = []
        for statement in block.statements:
            statements.extend(self.statement(statement, scope))
        return statements or [PyAst(block.pos).Pass()]

    def statement(self, node: ir.Statement, scope: _Scope) -> list[ast.stmt]:
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        if method is None:
            raise TypeError(f"unknown statement node {type(node).__name__}")
        return method(node, scope)

    def _expressionstatement(self, node: ir.ExpressionStatement, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        return [at.Expr(value=self.builder.evaluate(node.expression))]

    def _assignment(self, node: ir.Assignment, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        value = self.builder.value(node.value)
        if _is_runtime_call(value, "result"):
            value = self._scalar_inline(at, value.args[0])
        fast = self.builder.fast and self.builder.fast.variable_assignment(node.target, value)
        if fast:
            return [fast]
        statements: list[ast.stmt] = [at.Expr(value=runtime_call(at, "assign", load(at, "context"),
                                                                 self._target(node.target), value))]
        root = node.target.root
        if self.builder.locals is not None and isinstance(root, ir.GetContextValue):
            key = normal_variable_name(root.name)
            self.builder.context_reads.add(key)  # the runtime reads the root from the context
            statements.append(self.builder.locals.read_back(at, key))
        return statements

    def _scalar_inline(self, at: PyAst, code: ast.expr) -> ast.expr:
        """``_r.result(code)`` with its test for a scalar inline: ``_tN if type(_tN := code) in
        SCALARS else _r.result(_tN)``."""
        value = self.builder.new_name("t")
        named = at.NamedExpr(target=store(at, value), value=code)
        is_scalar = at.Compare(left=at.Call(func=load(at, "type"), args=[named], keywords=[]),
                               ops=[ast.In()], comparators=[self.builder.module_constant(at, "SCALARS")])
        return at.IfExp(test=is_scalar, body=load(at, value), orelse=runtime_call(at, "result", load(at, value)))

    def _target(self, target: ir.AssignmentTarget) -> ast.expr:
        """The hoisted ``_r.target(root, steps, source)``: root is ``_r.variable(name)`` or a lazy object."""
        at = PyAst(target.pos)
        if isinstance(target.root, ir.GetContextValue):
            root = runtime_call(at, "variable", at.Constant(value=target.root.name))
        else:
            root = self.builder.argument(target.root)
        steps = []
        for step in target.steps:
            step_at = PyAst(step.pos)
            if isinstance(step, ir.AttributeStep):
                item = step_at.Constant(value=step.name)
                kind = "attr"
            else:
                item = self.builder.argument(step.index.tree)
                kind = "index"
            steps.append(step_at.Tuple(elts=[step_at.Constant(value=kind), item], ctx=ast.Load()))
        return self.builder.define(at, "T", runtime_call(at, "target", root, at.Tuple(elts=steps, ctx=ast.Load()),
                                                         at.Constant(value=target.source)))

    def _return(self, node: ir.Return, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        value = self.builder.optional_value(at, node.value)
        if scope.in_branch:
            return [at.Raise(exc=runtime_call(at, "ParallelReturn", value), cause=None)]
        return self._returned(at, value)

    def _loop_control(self, at: PyAst, scope: _Scope, kind: str, statement: ast.stmt) -> list[ast.stmt]:
        if scope.in_loop:
            return [statement]
        return [at.Raise(exc=runtime_call(at, "misplaced", at.Constant(value=kind)), cause=None)]

    def _break(self, node: ir.Break, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        return self._loop_control(at, scope, "Break", at.Break())

    def _continue(self, node: ir.Continue, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        return self._loop_control(at, scope, "Continue", at.Continue())

    def _rethrow(self, node: ir.Rethrow, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        if scope.in_catch:
            return [at.Raise(exc=None, cause=None)]
        return [at.Raise(exc=runtime_call(at, "misplaced", at.Constant(value="Rethrow")), cause=None)]

    def _fail(self, node: ir.Fail, scope: _Scope) -> list[ast.stmt]:
        """The value first (an assignment evaluates its right side before its target), then the
        reference's error."""
        at = PyAst(node.pos)
        statements: list[ast.stmt] = [] if node.value is None else [
            at.Expr(value=self.builder.value(node.value))]
        error = runtime_call(at, "failure", at.Constant(value=node.error),
                             at.Constant(value=node.detail))
        return statements + [at.Raise(exc=error, cause=None)]

    def _do(self, node: ir.Do, scope: _Scope) -> list[ast.stmt]:
        return self.block(node.body, scope)

    def _condition(self, value: ir.Value) -> ast.expr:
        """The value itself as the test: Python's truth of it is the reference's."""
        return self.builder.value(value)

    def _if(self, node: ir.If, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        otherwise = [] if node.otherwise is None else self.block(node.otherwise, scope)
        return [at.If(test=self._condition(node.condition), body=self.block(node.then, scope),
                      orelse=otherwise)]

    def _while(self, node: ir.While, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        body = self.block(node.body, replace(scope, in_loop=True))
        return [at.While(test=self._condition(node.condition), body=body, orelse=[])]

    def _for(self, node: ir.For, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        collection = self.builder.value(node.collection)
        if _is_runtime_call(collection, "result"):  # in a body with locals: the value frozen there
            value = self.builder.new_name("t")
            empty = at.Compare(left=at.NamedExpr(target=store(at, value), value=collection.args[0]),
                               ops=[ast.Is()], comparators=[self.builder.module_constant(at, "EMPTY_TUPLE")])
            collection = at.IfExp(test=empty, body=load(at, value), orelse=at.Call(
                func=fast_attribute(at, "collection"), args=[load(at, value)], keywords=[]))
        else:
            collection = runtime_call(at, "iterate", collection)
        body = self.block(node.body, replace(scope, in_loop=True))
        item = self.builder.new_name("item")
        return [at.For(target=store(at, item), iter=collection,
                       body=[self._write_variable(at, node.variable, load(at, item))] + body, orelse=[])]

    def _repeat(self, node: ir.Repeat, scope: _Scope) -> list[ast.stmt]:
        at = PyAst(node.pos)
        count = runtime_call(at, "repeat_count", self.builder.value(node.count))
        body = self.block(node.body, replace(scope, in_loop=True))
        return [at.For(target=store(at, "_"),
                       iter=at.Call(func=load(at, "range"), args=[count], keywords=[]),
                       body=body, orelse=[])]

    def _match(self, node: ir.Match, scope: _Scope) -> list[ast.stmt]:
        """First equal key wins. The reference compares keys unevaluated, so an expression key never matches."""
        at = PyAst(node.pos)
        subject = self.builder.new_name("match")
        statements: list[ast.stmt] = [at.Assign(targets=[store(at, subject)],
                                                value=self.builder.value(node.value))]
        chain = [] if node.default is None else self.block(node.default, scope)
        for case in reversed(node.cases):
            if not isinstance(case.key, ir.Literal):
                continue
            case_at = PyAst(case.pos)
            test = runtime_call(case_at, "match_equals", load(case_at, subject),
                                constant(case_at, case.key.value))
            chain = [case_at.If(test=test, body=self.block(case.body, scope), orelse=chain)]
        return statements + chain

    def _switch(self, node: ir.Switch, scope: _Scope) -> list[ast.stmt]:
        """Every case whose condition holds runs, in order; Default runs when none did."""
        at = PyAst(node.pos)
        matched = self.builder.new_name("matched") if node.default is not None else None
        statements: list[ast.stmt] = []
        if matched:
            statements.append(at.Assign(targets=[store(at, matched)], value=at.Constant(value=False)))
        for case in node.cases:
            case_at = PyAst(case.pos)
            body = self.block(case.body, scope)
            if matched:
                body.insert(0, case_at.Assign(targets=[store(case_at, matched)],
                                              value=case_at.Constant(value=True)))
            statements.append(case_at.If(test=self._condition(case.condition), body=body, orelse=[]))
        if matched:
            statements.append(at.If(test=at.UnaryOp(op=ast.Not(), operand=load(at, matched)),
                                    body=self.block(node.default, scope), orelse=[]))
        return statements or [at.Pass()]

    def _parallel(self, node: ir.Parallel, scope: _Scope) -> list[ast.stmt]:
        """One nested ``def _branchN(context)`` per statement; the runtime gives each a child context."""
        at = PyAst(node.pos)
        statements: list[ast.stmt] = []
        branches: list[ast.expr] = []
        limit = self.builder.optional_value(at, node.limit)
        body_locals, self.builder.locals = self.builder.locals, None
        try:
            for branch in node.branches.statements:
                branch_at = PyAst(branch.pos)
                name = self.builder.new_name("branch")
                body = self.statement(branch, _Scope(in_branch=True))
                statements.append(function_def(branch_at, name, ("context",), body))
                branches.append(load(branch_at, name))
        finally:
            self.builder.locals = body_locals
        run = at.Expr(value=runtime_call(at, "parallel", load(at, "context"),
                                         at.Tuple(elts=branches, ctx=ast.Load()), limit))
        if scope.in_branch:
            return statements + [run]
        returned = self.builder.new_name("returned")
        handler = at.ExceptHandler(type=runtime_attribute(at, "ParallelReturn"), name=returned,
                                   body=self._returned(at, at.Attribute(value=load(at, returned), attr="value",
                                                                        ctx=ast.Load())))
        reload = [] if body_locals is None else [body_locals.reload_all(at)]
        return statements + [at.Try(body=[run], handlers=[handler], orelse=[], finalbody=[])] + reload

    def _throw(self, node: ir.Throw, scope: _Scope) -> list[ast.stmt]:
        """The Cause is evaluated first, then the names and the Message, as the reference does;
        the Extra is not evaluated (``_unevaluated``). A Cause the YAML writes false (null,
        empty) is none; reading a Cause's native exception fails at the Cause, the instruction
        the reference ran last."""
        at = PyAst(node.pos)
        names = at.Tuple(elts=[self.builder.value(name) if isinstance(name, ir.Expression)
                               else at.Constant(value=name) for name in node.names], ctx=ast.Load())
        extra = at.Constant(value=None) if node.extra is None else self._unevaluated(node.extra)
        cause = at.Constant(value=None)
        if node.cause is not None and not (isinstance(node.cause, ir.Literal) and not node.cause.value):
            cause = runtime_call(PyAst(node.cause.pos), "exception_cause", self.builder.value(node.cause))
        exception = runtime_call(at, "throw", load(at, "context"), cause=cause, names=names,
                                 message=self.builder.optional_value(at, node.message), extra=extra)
        return [at.Raise(exc=exception, cause=None)]

    def _unevaluated(self, value: ir.Value) -> ast.expr:
        """Data as the YAML wrote it (lists, dicts), each expression a hoisted
        ``_r.deferred(_fN, _ENGINE, source)`` that yaql's finalize evaluates where it is read."""
        at = PyAst(value.pos)
        if isinstance(value, ir.Literal):
            return constant(at, value.value)
        if isinstance(value, ir.Expression):
            function = self.builder.expression_function(value.tree)
            return self.builder.define(at, "X", runtime_call(at, "deferred", load(at, function), load(at, "_ENGINE"),
                                                             at.Constant(value=value.source)))
        if isinstance(value, ir.ListValue):
            return at.List(elts=[self._unevaluated(item) for item in value.items], ctx=ast.Load())
        return at.Dict(keys=[self._unevaluated(key) for key, _ in value.items],
                       values=[self._unevaluated(item) for _, item in value.items])

    def _try(self, node: ir.Try, scope: _Scope) -> list[ast.stmt]:
        """``except Exception``: the reference turns any Python error of a statement into a MuranoPL one."""
        at = PyAst(node.pos)
        body = self.block(node.body, scope)
        handlers: list[ast.excepthandler] = []
        if node.catches or node.otherwise is not None:
            caught = self.builder.new_name("exception")
            chain: list[ast.stmt] = [at.Raise(exc=None, cause=None)]
            catch_scope = replace(scope, in_catch=True)
            for catch in reversed(node.catches):
                catch_at = PyAst(catch.pos)
                names = _names(catch_at, catch.names) if catch.names else catch_at.Constant(value=None)
                arguments = (load(catch_at, caught), names, load(catch_at, "context"))
                catch_body = self.block(catch.body, catch_scope)
                if catch.variable:
                    catch_body.insert(0, self._write_variable(
                        catch_at, catch.variable, runtime_call(catch_at, "exception_value", load(catch_at, caught))))
                chain = [catch_at.If(test=runtime_call(catch_at, "catch_matches", *arguments),
                                     body=catch_body, orelse=chain)]
            handlers.append(at.ExceptHandler(type=load(at, "Exception"), name=caught, body=chain))
        otherwise = [] if node.otherwise is None else self.block(node.otherwise, scope)
        final = [] if node.finally_ is None else self.block(node.finally_, scope)
        if not handlers and not final:
            return body
        return [at.Try(body=body, handlers=handlers, orelse=otherwise, finalbody=final)]

