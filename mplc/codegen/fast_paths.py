"""Expression fast paths: yaql nodes whose meaning is certain become inline Python or guarded
``_r.fast.*`` helpers instead of a call into yaql's overload resolution.

A node qualifies when no user-visible registration can change what it means: operators of
yaql's standard library (MuranoPL cannot register functions under operator names), and ``.``
on a MuranoPL object, which the runtime resolves per call site by the receiver's class. Formats
<= 1.1 evaluate with yaql's legacy library, which redefines ``[]``; there it keeps the bridge.
Helpers check their operand types at run time and fall back to the bridge otherwise.
"""

from __future__ import annotations

import ast
import itertools
import string
import weakref

from mplc import ir
from mplc.codegen.int_variables import INLINE_BOUND_BITS, int_bits, is_int_expression, normal_variable_name
from mplc.codegen.ast_parts import MATERIALIZED, caller_token, fast_attribute, load, store
from mplc.codegen.body_locals import BodyLocals, LazyCallContext, LoopValues
from mplc.pyast import PyAst

FINAL = "_mplc_final"
"""The attribute that marks a FrozenDict final (the runtime's ``bridge.FINAL``, named by
docs/compiled-modules.md)."""

# murano's functions called ``f(x)`` with their ``_r.fast`` helper and arity: no MuranoPL code
# can overload them (methods take receivers), in every Format.
OBJECT_FUNCTION_HELPERS = {"id": ("object_id", 1), "name": ("object_name", 1), "typeinfo": ("object_type", 1),
                           "trace": ("trace_value", 1), "randomName": ("random_name", 0)}

BINARY_HELPERS = {
    "#operator_is": "is_instance",
    "#operator_+": "add",
    "#operator_-": "subtract",
    "#operator_*": "multiply",
    "#operator_/": "divide",
    "#operator_mod": "modulo",
    "#operator_<": "less",
    "#operator_<=": "less_or_equal",
    "#operator_>": "greater",
    "#operator_>=": "greater_or_equal",
    "#operator_in": "contains",
}
LEGACY_REDEFINED = {"#indexer"}
NUMERIC_OPERATORS = {"#operator_+", "#operator_-", "#operator_*", "#operator_/", "#operator_mod"}
# Operators whose every yaql overload returns a bool.
SCALAR_OPERATORS = {"#operator_<", "#operator_<=", "#operator_>", "#operator_>=", "#operator_in"}
COMPARISONS = {"*equal": ast.Eq, "*not_equal": ast.NotEq}
# Literal operand types no overload of an operator takes at a position (left, right), in yaql's
# standard and legacy libraries alike. yaql checks literal arguments before it evaluates any:
# such a literal fails the call without evaluating the other operand, so it keeps the bridge.
REJECTED_LITERALS = {
    "#operator_+": ((type(None), bool), (type(None), bool)),
    "#operator_-": ((type(None), bool, str), (type(None), bool, str)),
    "#operator_*": ((type(None),), (type(None),)),
    "#operator_/": ((type(None), bool, str), (type(None), bool, str)),
    "#operator_mod": ((type(None), bool, str), (type(None), bool, str)),
    "#operator_in": ((), (type(None), bool, int, float)),
    "#indexer": ((type(None), bool, int, float, str), ()),
    "#operator_is": ((bool, int, float, str), (type(None), bool, int, float)),
}
BOOLEAN_OPERATORS = {"#operator_and": ast.And, "#operator_or": ast.Or}


def _variable_key(tree: ir.Expr) -> str | None:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return normal_variable_name(tree.name) if isinstance(tree, ir.GetContextValue) else None


def _is_own_object(tree: ir.Expr) -> bool:
    """Whether ``tree`` is ``$`` or ``$this``: in a method body, the object it runs on."""
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return isinstance(tree, ir.GetContextValue) and normal_variable_name(tree.name) in ("$1", "$this")


def _triple_call(at: PyAst, function: ast.expr, *operands: ast.expr) -> ast.expr:
    return at.Call(func=function, args=[*operands, load(at, "context"), load(at, "engine")],
                   keywords=[])


def _helper_call(at: PyAst, name: str, *operands: ast.expr) -> ast.expr:
    """``_r.fast.<name>(*operands, context, engine)`` for a helper that reads its context only
    on its slow path, through yaql (``fast._call``): it takes a caller token."""
    return at.Call(func=fast_attribute(at, name), args=[*operands, caller_token(at), load(at, "engine")],
                   keywords=[])


INLINE_INTEGER_OPERATORS = {
    "#operator_+": ast.Add(), "#operator_-": ast.Sub(), "#operator_*": ast.Mult(),
    "#operator_<": ast.Lt(), "#operator_<=": ast.LtE(), "#operator_>": ast.Gt(), "#operator_>=": ast.GtE(),
}


def _rejected_literal(name: str, args: tuple[ir.Expr, ...]) -> bool:
    """Whether an operand is a literal (a bare identifier is a string) that every overload of
    the operator refuses there."""
    rejected_types = REJECTED_LITERALS.get(name, ((), ()))
    return any((isinstance(arg, ir.Constant) and type(arg.value) in rejected)
               or (isinstance(arg, ir.KeywordConstant) and str in rejected)
               for arg, rejected in zip(args, rejected_types))


# ``format`` inline: arguments an int within this bound (at most 18 digits) or a string shorter than
# this, a format of plain fields whose result then stays below SHORT_TEXT characters: every
# value involved is far below any memory quota (4 KiB at most).
FORMAT_INT_BOUND = 10 ** 18
FORMAT_STRING_BOUND = 64
SHORT_TEXT = 1000


def _inline_format_argument(value) -> bool:
    return ((type(value) is int and -FORMAT_INT_BOUND < value < FORMAT_INT_BOUND)
            or (type(value) is str and len(value) < FORMAT_STRING_BOUND))


def _inline_format(text, arguments: int) -> bool:
    """Whether ``format(text, ...)`` may run as ``text.format(...)`` for arguments that
    ``_inline_format_argument`` admits: a string whose fields name an argument by position
    only (no attribute, item, conversion or format spec) and that stays short."""
    if type(text) is not str or arguments > 8:
        return False
    try:
        fields = [(name, spec, conversion)
                  for _, name, spec, conversion in string.Formatter().parse(text) if name is not None]
    except ValueError:
        return False
    plain = all((name == "" or name.isdigit()) and not spec and conversion is None for name, spec, conversion in fields)
    return plain and len(text) + len(fields) * FORMAT_STRING_BOUND < SHORT_TEXT


def _format_pieces(text: str, arguments: int) -> list[str | int] | None:
    """``text`` (that ``_inline_format`` admits) as literal strings and argument indexes, in
    order, when ``str.format`` would read each field's argument without error (one numbering,
    ASCII digits, each index within ``arguments``); else None."""
    pieces: list[str | int] = []
    automatic = None
    for literal, name, _, _ in string.Formatter().parse(text):
        if literal:
            pieces.append(literal)
        if name is None:
            continue
        if automatic is not None and automatic != (name == ""):
            return None
        automatic = name == ""
        if not (automatic or name.isascii()):
            return None
        index = sum(isinstance(piece, int) for piece in pieces) if automatic else int(name)
        if index >= arguments:
            return None
        pieces.append(index)
    return pieces


def _called_methods(tree: ir.Expr):
    """The names of the methods ``tree`` calls (``x.name(...)``), at any depth."""
    if isinstance(tree, ir.Function):
        if tree.name == "#operator_." and len(tree.args) == 2 and isinstance(tree.args[1], ir.Function):
            yield tree.args[1].name
        for arg in tree.args:
            yield from _called_methods(arg)
    elif isinstance(tree, ir.MappingRule):
        yield from _called_methods(tree.source)
        yield from _called_methods(tree.destination)
    elif isinstance(tree, ir.Wrap):
        yield from _called_methods(tree.expr)


def _plain_arguments(args: tuple[ir.Expr, ...]) -> bool:
    """Positional arguments only: no ``name => value`` and no bare keywords."""
    return not any(isinstance(arg, (ir.MappingRule, ir.KeywordConstant, ir.SkippedArgument))
                   for arg in args)


def _method_arguments(args: tuple[ir.Expr, ...]) -> bool:
    """Positional arguments of a method call: no ``name => value``; a bare keyword (``k`` in
    ``$o.getAttr(k)``) is the string ``'k'`` to every method a site runs directly (yaql hands
    it over as a constant, which the stubs' and queries' parameter types unwrap)."""
    return not any(isinstance(arg, (ir.MappingRule, ir.SkippedArgument)) for arg in args)


# Keywords another overload of murano's ``new`` takes, or that reach its own hidden parameters.
_NEW_OVERLOAD_KEYWORDS = frozenset(("typeName", "parameters", "owner", "objectName", "extra", "model"))


def _new_arguments(args: tuple[ir.Expr, ...]) -> bool:
    """``new(Type, name => value, ...)``: a class first, then distinct plain keywords that only
    murano's ``new(type, **properties)`` overload takes (as properties)."""
    if not args or isinstance(args[0], (ir.MappingRule, ir.SkippedArgument)):
        return False
    names = []
    for arg in args[1:]:
        if not (isinstance(arg, ir.MappingRule) and isinstance(arg.source, ir.KeywordConstant)):
            return False
        names.append(arg.source.name)
    return (len(set(names)) == len(names)
            and not any(name.startswith("_") or name in _NEW_OVERLOAD_KEYWORDS for name in names))


class FastPaths:
    """Compiles the qualifying node shapes; ``code`` returns None for every other node."""

    def __init__(self, builder, legacy: bool):
        """``builder``: the ModuleBuilder (mplc.codegen.expressions) that holds this object."""
        # A proxy: the builder holds this object, and a cycle would keep every module's ast alive
        # until the cyclic collector walks them all (seconds for a few hundred classes).
        self.builder = weakref.proxy(builder)
        self.legacy = legacy
        self.binary = dict(BINARY_HELPERS)
        if not legacy:
            self.binary["#indexer"] = "index"

    def code(self, tree: ir.Expr) -> ast.expr | None:
        """Inline code for ``tree``, or None when it keeps yaql's generic call."""
        if isinstance(tree, ir.GetContextValue):
            at = PyAst(tree.pos)
            key = normal_variable_name(tree.name)
            local = None if self.builder.locals is None else self.builder.locals.name(key)
            if local is not None:
                return load(at, local)
            self.builder.context_reads.add(key)
            return at.Call(func=fast_attribute(at, "variable"), args=[load(at, "context"), at.Constant(value=key)],
                           keywords=[])
        if not isinstance(tree, ir.Function):
            return None
        at = PyAst(tree.pos)
        name, args = tree.name, tree.args
        operand = self.builder.expression_code
        if name in self.binary and len(args) == 2 and not _rejected_literal(name, args) \
                and not any(isinstance(arg, (ir.MappingRule, ir.SkippedArgument)) for arg in args):
            left, right = operand(args[0]), operand(args[1])
            if self.builder.locals is not None:
                known_ints = all(is_int_expression(arg, self.builder.locals.int_keys) for arg in args)
                if known_ints and name in NUMERIC_OPERATORS and name != "#operator_/":
                    bits = int_bits(tree, self.builder.locals.int_bounds)
                    if bits is not None and bits < INLINE_BOUND_BITS:
                        return at.BinOp(left=left, op=INLINE_INTEGER_OPERATORS.get(name, ast.Mod()), right=right)
                inline = self._inline_integers(at, name, left, right, known_ints)
                if inline is not None:
                    return inline
            return _helper_call(at, self.binary[name], left, right)
        if name == "#indexer" and self.legacy and len(args) == 2 and _plain_arguments(args):
            # the legacy library's indexer takes its index unevaluated (a lambda)
            return at.Call(func=fast_attribute(at, "legacy_index"),
                           args=[operand(args[0]), self.builder.argument(args[1]), load(at, "context"),
                                 load(at, "engine")], keywords=[])
        if name in COMPARISONS and len(args) == 2:
            return at.Compare(left=operand(args[0]), ops=[COMPARISONS[name]()],
                              comparators=[operand(args[1])])
        if name == "#unary_operator_not" and len(args) == 1:
            return at.UnaryOp(op=ast.Not(), operand=operand(args[0]))
        if name == "#unary_operator_-" and len(args) == 1:
            return _helper_call(at, "negate", operand(args[0]))
        if name == "#list" and not any(isinstance(arg, ir.MappingRule) for arg in args):
            return at.Call(func=fast_attribute(at, "build_list"),
                           args=[load(at, "engine"), *(operand(arg) for arg in args)], keywords=[])
        if name in BOOLEAN_OPERATORS and len(args) == 2:
            return at.BoolOp(op=BOOLEAN_OPERATORS[name](), values=[self._lambda_operand(arg) for arg in args])
        if name == "#operator_." and len(args) == 2:
            return self._dot(at, args[0], args[1])
        if tree.uses_receiver:
            return self._function(at, tree)
        return None

    def _inline_integers(self, at: PyAst, name: str, left: ast.expr, right: ast.expr,
                         known_ints: bool = False) -> ast.expr | None:
        """In a body: ``+ - *``, ``mod`` by a non-zero constant and comparisons computed inline
        when both operands are ints (a sum kept within the helpers' quota bound), the helper
        otherwise. Operands other than locals and constants are evaluated once, in order, into
        temporaries (the test evaluates them all before it decides). ``known_ints``: both
        operands certainly are ints (``int_variables``), so nothing tests their types; a local
        that certainly holds an int (``BodyLocals.holds_int``) needs no test either."""
        operator = INLINE_INTEGER_OPERATORS.get(name)
        if name == "#operator_mod" and isinstance(right, ast.Constant) and type(right.value) is int \
                and right.value:
            operator = ast.Mod()
        if operator is None:
            return None
        if known_ints and not isinstance(operator, (ast.Add, ast.Sub, ast.Mult)):
            if any(isinstance(code, ast.Constant) and type(code.value) is not int for code in (left, right)):
                return None
            if isinstance(operator, ast.Mod):
                return at.BinOp(left=left, op=operator, right=right)
            return at.Compare(left=left, ops=[operator], comparators=[right])
        evaluated, plain_guards, uses, firsts = [], [], [], []
        for code in (left, right):
            if isinstance(code, ast.Constant):
                if type(code.value) is not int:
                    return None
                uses.append(code)
                firsts.append(code)
                continue
            if isinstance(code, ast.Name) and self.builder.locals.holds_int(code.id):
                uses.append(code)
                firsts.append(code)
                continue
            first, use = self._evaluated_once(at, code)
            uses.append(use)
            firsts.append(first)
            if known_ints:
                continue
            guard = at.Compare(left=at.Call(func=load(at, "type"), args=[first], keywords=[]),
                               ops=[ast.Is()], comparators=[load(at, "int")])
            (plain_guards if first is code else evaluated).append(guard)
        left, right = firsts if known_ints else uses
        call = _helper_call(at, self.binary[name], *uses)
        guards = []
        if evaluated:
            both = evaluated[0] if len(evaluated) == 1 else at.BinOp(left=evaluated[0], op=ast.BitAnd(),
                                                                      right=evaluated[1])
            guards.append(both)
        guards.extend(plain_guards)
        if isinstance(operator, ast.cmpop):
            value = at.Compare(left=left, ops=[operator], comparators=[right])
        elif isinstance(operator, ast.Mod):
            value = at.BinOp(left=left, op=operator, right=right)
        else:
            temporary = self.builder.new_name("t")
            bound = self.builder.module_constant(at, "INLINE_BOUND")
            lower_bound = self.builder.module_constant(at, "INLINE_LOWER_BOUND")
            guards.append(at.Compare(
                left=lower_bound, ops=[ast.Lt(), ast.Lt()],
                comparators=[at.NamedExpr(target=store(at, temporary),
                                          value=at.BinOp(left=left, op=operator, right=right)), bound]))
            value = load(at, temporary)
        if not guards:
            return value
        test = guards[0] if len(guards) == 1 else at.BoolOp(op=ast.And(), values=guards)
        inline = at.IfExp(test=test, body=value, orelse=call)
        self.builder.scalar_when_inline.add(id(inline))
        return inline

    def _function(self, at: PyAst, tree: ir.Function) -> ast.expr | None:
        """``dict(k => v, ...)``, ``dict(pairs)``, ``format(f, a...)``, ``len(x)``, ``range(n)``,
        ``range(a, b)``, ``str(x)``, ``concat(a, ...)``, ``new(T, k => v, ...)``: plain calls of functions no MuranoPL code can overload (methods
        and extension methods only take receivers). The node is a method-style lambda when yaql
        gives it a receiver; then it keeps the bridge."""
        name, args = tree.name, tree.args
        operand = self.builder.expression_code
        if name == "dict" and all(isinstance(arg, ir.MappingRule) for arg in args):
            named = all(isinstance(arg.source, ir.KeywordConstant)
                        or (isinstance(arg.source, ir.Constant) and type(arg.source.value) is str) for arg in args)
            keys, values, unchecked = [], [], []
            for arg in args:  # a display evaluates each key, then its value, in order
                keys.append(operand(arg.source))
                value = operand(arg.destination)
                if named and not self._certainly_scalar(arg.destination):
                    value, use = self._evaluated_once(at, value)
                    unchecked.append(use)
                values.append(value)
            fast = at.Call(func=fast_attribute(at, "final_dict" if named else "frozen_dict"),
                           args=[at.Dict(keys=keys, values=values), *unchecked], keywords=[])
        elif name == "dict" and not self.legacy and len(args) == 1 and _plain_arguments(args):
            fast = self._dict_of_selected(at, args[0]) or _helper_call(at, "dict_of_pairs", operand(args[0]))
        elif name == "format" and args and _plain_arguments(args):
            fast = self._format(at, args)
        elif name == "len" and len(args) == 1 and _plain_arguments(args):
            fast = _helper_call(at, "length", operand(args[0]))
        elif name == "range" and not self.legacy and len(args) == 1 and _plain_arguments(args):
            fast = _helper_call(at, "range_of", operand(args[0]))
        elif name == "range" and len(args) == 2 and _plain_arguments(args):
            fast = _helper_call(at, "legacy_range_between" if self.legacy else "range_between",
                                operand(args[0]), operand(args[1]))
        elif name == "str" and len(args) == 1 and _plain_arguments(args):
            fast = self._to_string(at, operand(args[0]))
        elif name == "concat" and args and _plain_arguments(args):  # concat() is ambiguous in yaql
            fast = self._concat(at, [operand(arg) for arg in args])
        elif name in OBJECT_FUNCTION_HELPERS and len(args) == OBJECT_FUNCTION_HELPERS[name][1] \
                and _plain_arguments(args):
            fast = _helper_call(at, OBJECT_FUNCTION_HELPERS[name][0], *(operand(arg) for arg in args))
        elif name == "switch" and not self.legacy and args and all(isinstance(arg, ir.MappingRule) for arg in args):
            # yaql's switch: the first rule whose key is true gives the value (the legacy
            # library's switch, a method of a value, keeps yaql's resolution)
            fast = at.Constant(value=None)
            for arg in reversed(args):
                fast = at.IfExp(test=operand(arg.source), body=operand(arg.destination), orelse=fast)
            fast = at.Call(func=fast_attribute(at, "quota"), args=[load(at, "engine"), fast], keywords=[])
        elif name == "new" and _new_arguments(args):
            class_name = operand(args[0])
            if isinstance(class_name, ast.Constant) and type(class_name.value) is str:
                names = at.Tuple(elts=[at.Constant(value=arg.source.name) for arg in args[1:]], ctx=ast.Load())
                site = self.builder.define(at, "N", at.Attribute(
                    value=self._site(at, "NewObject", class_name, names), attr="new", ctx=ast.Load()))
                fast = at.Call(func=site, args=[caller_token(at), load(at, "engine"),
                                                *[operand(arg.destination) for arg in args[1:]]], keywords=[])
            else:
                properties = [at.Tuple(elts=[at.Constant(value=arg.source.name), operand(arg.destination)],
                                       ctx=ast.Load()) for arg in args[1:]]
                fast = at.Call(func=fast_attribute(at, "new_object"),
                               args=[load(at, "context"), load(at, "engine"), class_name, *properties],
                               keywords=[])
        else:
            return None
        if self.builder.locals is not None:
            if name == "new" and isinstance(fast.func, ast.Name):
                self.builder.frozen_calls.add(id(fast))  # a NewObject site's value is an object
            return fast  # bodies and item functions run with no receiver
        without_receiver = at.Compare(left=load(at, "receiver"), ops=[ast.Is()],
                                      comparators=[fast_attribute(at, "NO_VALUE")])
        return at.IfExp(test=without_receiver, body=fast,
                        orelse=self.builder.call_code(at, name, args))

    @staticmethod
    def _query_call(tree: ir.Expr, name: str) -> tuple[ir.Function, ir.Expr, ir.Function] | None:
        """``(the call, receiver, member)`` of ``r.name(f)``, else None."""
        while isinstance(tree, ir.Wrap):
            tree = tree.expr
        if not (isinstance(tree, ir.Function) and tree.name == "#operator_." and len(tree.args) == 2):
            return None
        receiver, member = tree.args
        if not (isinstance(member, ir.Function) and member.name == name and member.uses_receiver
                and len(member.args) == 1 and _plain_arguments(member.args)):
            return None
        return tree, receiver, member

    def selected_result(self, tree: ir.Expr) -> ast.expr | None:
        """A statement's value ``r.select(f)`` with ``f`` context free (Format >= 1.2):
        ``selected_result`` with the ``select`` call site (which builds the item function) and
        the query loop of ``f`` (``item_callable``), ``selected_range`` (given ``n``) for
        ``range(n).select(f)``; ``r.where(p).select(f)`` with ``p`` context free:
        ``selected_where`` with both sites and one loop that tests ``p`` and selects ``f``."""
        found = self._query_call(tree, "select")
        if found is None or not self.item_callable(found[2].args[0]):
            return None
        call, receiver, member = found
        at = PyAst(call.pos)
        context_engine = [caller_token(at), load(at, "engine")]
        filtered = self._query_call(receiver, "where")
        if filtered is not None and self.context_free(filtered[2].args[0]):
            where_call, where_receiver, where_member = filtered
            where_site = self._method_site(PyAst(where_call.pos), where_member)
            select_site = self._method_site(at, member)
            loop, values = self._selection_loop(at, self._is_range(where_receiver), member.args[0],
                                                where_member.args[0])
            return at.Call(func=fast_attribute(at, "selected_where"),
                           args=[self.builder.expression_code(where_receiver), where_site, select_site,
                                 load(at, loop), *context_engine, *values], keywords=[])
        site = self._method_site(at, member)
        stop = self._range_stop(receiver)
        loop, values = self._selection_loop(at, stop is not None, member.args[0])
        if stop is not None:
            return at.Call(func=fast_attribute(at, "selected_range"),
                           args=[self.builder.expression_code(stop), site, load(at, loop), *context_engine,
                                 *values], keywords=[])
        return at.Call(func=fast_attribute(at, "selected_result"),
                       args=[self.builder.expression_code(receiver), site, load(at, loop), *context_engine,
                             *values], keywords=[])

    def _is_range(self, receiver: ir.Expr) -> bool:
        """Whether a query's receiver is ``range(n)``, whose items are ints (``range_of``, or
        yaql's ``range`` that takes an int only)."""
        return self._range_stop(receiver) is not None

    def _range_stop(self, receiver: ir.Expr) -> ir.Expr | None:
        """``n`` of a query's receiver ``range(n)`` (``_is_range``), else None."""
        while isinstance(receiver, ir.Wrap):
            receiver = receiver.expr
        if (not self.legacy and isinstance(receiver, ir.Function) and receiver.name == "range"
                and receiver.uses_receiver and len(receiver.args) == 1 and _plain_arguments(receiver.args)):
            return receiver.args[0]
        return None

    def _selection_loop(self, at: PyAst, over_range: bool, selector: ir.Expr,
                        predicate: ir.Expr | None = None) -> tuple[str, list[ast.expr]]:
        """``def _sN(items, context, engine, *body values)``: the tuple of ``selector``'s
        values for the items (those ``predicate`` is true of), each finalized as ``result``
        finalizes it before the next item is taken; both inline, ``$`` the local ``item``
        (``over_range``: an int of ``range(n)``). Returns its name and the body's locals to
        hand it (``ModuleBuilder.item_code``'s ``loop_values``)."""
        values = self.builder.new_name("t")
        loop_values: dict[str, str] = {}
        setup: list[ast.stmt] = []
        append = at.Attribute(value=load(at, values), attr="append", ctx=ast.Load())
        selected = self.builder.item_code(selector, over_range, loop_values, setup)
        body = self._finalized_appends(at, selected, selector, append, over_range)
        if predicate is not None:
            body = [at.If(test=self.builder.item_code(predicate, over_range, loop_values, setup), body=body,
                          orelse=[])]
        statements = [at.Assign(targets=[store(at, values)], value=at.List(elts=[], ctx=ast.Load())), *setup,
                      at.For(target=store(at, "item"), iter=load(at, "items"), body=body, orelse=[]),
                      at.Return(value=at.Call(func=load(at, "tuple"), args=[load(at, values)], keywords=[]))]
        return self._loop_function(at, "s", ("items", "context", "engine"), statements, loop_values)

    def _loop_function(self, at: PyAst, prefix: str, parameter_names: tuple[str, ...],
                       statements: list[ast.stmt], loop_values: dict[str, str]) -> tuple[str, list[ast.expr]]:
        """A query loop's module-level function, the body locals it reads appended to its
        parameters, and the loads of those locals its call hands it."""
        names = tuple(loop_values.values())
        lazy = LazyCallContext(self.builder, at)
        statements = [at.Assign(targets=[store(at, MATERIALIZED)], value=at.Constant(value=None)),
                      *(lazy.visit(statement) for statement in statements)]
        name = self.builder.define_function(at, prefix, parameter_names + names, statements)
        return name, [load(at, local) for local in names]

    def _finalized_appends(self, at: PyAst, code: ast.expr, tree: ir.Expr, append: ast.expr,
                           over_range: bool) -> list[ast.stmt]:
        """Statements appending ``code``'s value finalized: a scalar as it is; a ``final_dict``
        display built inline and appended as it is when marked final; anything else as it is
        when a scalar, an object or a final FrozenDict, else ``finalize``d."""
        constant = self.builder.module_constant

        def appended(value: ast.expr) -> ast.stmt:
            return at.Expr(value=at.Call(func=append, args=[value], keywords=[]))

        def finalized(value: ast.expr) -> ast.expr:
            return at.Call(func=constant(at, "finalize"), args=[value], keywords=[])

        if self._certainly_scalar(tree) or (over_range and is_int_expression(tree, frozenset(("$1",)))):
            return [appended(code)]
        built = self._final_dict_building(at, code)
        if built is not None:
            statements, frozen, mark, test = built
            if test is None:
                return [*statements, mark, appended(frozen)]
            return [*statements, at.If(test=test, body=[mark, appended(frozen)], orelse=[appended(finalized(frozen))])]
        value = self.builder.new_name("t")

        def type_of() -> ast.expr:
            return at.Call(func=load(at, "type"), args=[load(at, value)], keywords=[])

        final = at.BoolOp(op=ast.Or(), values=[
            at.Compare(left=type_of(), ops=[ast.In()], comparators=[constant(at, "KEPT")]),
            at.BoolOp(op=ast.And(), values=[
                at.Compare(left=type_of(), ops=[ast.Is()], comparators=[constant(at, "FrozenDict")]),
                at.Call(func=load(at, "getattr"), args=[load(at, value), at.Constant(value=FINAL),
                                                        at.Constant(value=False)], keywords=[])])])
        return [at.Assign(targets=[store(at, value)], value=code),
                appended(at.IfExp(test=final, body=load(at, value), orelse=finalized(load(at, value))))]

    def _final_dict_building(self, at: PyAst, code: ast.expr) \
            -> tuple[list[ast.stmt], ast.expr, ast.stmt, ast.expr | None] | None:
        """For ``final_dict({...}, unchecked...)``: the statements that build the FrozenDict
        as ``final_dict`` does, without the call (``new_instance``, its dict display and
        attributes), the built value, the statement that marks it final and the test of the
        unchecked values (None: none). Any other code: None."""
        if not (isinstance(code, ast.Call) and isinstance(code.func, ast.Attribute) and code.func.attr == "final_dict"):
            return None
        frozen = self.builder.new_name("t")
        constant = self.builder.module_constant

        def attribute(name: str) -> ast.Attribute:
            return at.Attribute(value=load(at, frozen), attr=name, ctx=ast.Store())

        display, *unchecked = code.args
        statements = [
            at.Assign(targets=[store(at, frozen)], value=at.Call(
                func=constant(at, "new_instance"), args=[constant(at, "FrozenDict")], keywords=[])),
            at.Assign(targets=[attribute("_d")], value=display),
            at.Assign(targets=[attribute("_hash")], value=at.Constant(value=None))]
        mark = at.Assign(targets=[attribute(FINAL)], value=at.Constant(value=True))
        scalar_tests = [at.Compare(left=at.Call(func=load(at, "type"), args=[value], keywords=[]), ops=[ast.In()],
                                   comparators=[constant(at, "SCALARS")]) for value in unchecked]
        test = None
        if scalar_tests:
            test = scalar_tests[0] if len(scalar_tests) == 1 else at.BoolOp(op=ast.And(), values=scalar_tests)
        return statements, load(at, frozen), mark, test

    def final_dict_statements(self, at: PyAst, code: ast.expr) -> list[ast.stmt] | None:
        """``return final_dict({...}, unchecked...)`` (an item function's whole value) as
        statements, without the call (``_final_dict_building``), marked final when each
        unchecked value is a scalar. Any other code: None."""
        built = self._final_dict_building(at, code)
        if built is None:
            return None
        statements, frozen, mark, test = built
        statements.append(mark if test is None else at.If(test=test, body=[mark], orelse=[]))
        statements.append(at.Return(value=frozen))
        return statements

    def _dict_of_selected(self, at: PyAst, pairs: ir.Expr) -> ast.expr | None:
        """``dict(r.select([k, v]))`` with ``[k, v]`` context free: ``dict_of_selected`` with
        the ``select`` call site (its fallback) and the loop that builds the dict."""
        found = self._query_call(pairs, "select")
        if found is None:
            return None
        pairs, receiver, member = found
        pair = member.args[0]
        while isinstance(pair, ir.Wrap):
            pair = pair.expr
        if not (isinstance(pair, ir.Function) and pair.name == "#list" and len(pair.args) == 2
                and _plain_arguments(pair.args) and self.context_free(pair)):
            return None
        site = self._method_site(PyAst(pairs.pos), member)
        loop, values = self._dict_loop(PyAst(pair.pos), self._is_range(receiver), *pair.args)
        return at.Call(func=fast_attribute(at, "dict_of_selected"),
                       args=[self.builder.expression_code(receiver), site, load(at, loop),
                             caller_token(at), load(at, "engine"), *values], keywords=[])

    def _dict_loop(self, at: PyAst, over_range: bool, key_tree: ir.Expr,
                   value_tree: ir.Expr) -> tuple[str, list[ast.expr]]:
        """``def _qN(items, context, engine, limit, *body values)`` (``_loop_function``): the
        dict ``dict_of_selected`` builds, per
        item ``k`` then ``v`` inline (``$`` the local ``item``, an int of ``range(n)`` when
        ``over_range``), the pair's quota check as
        ``[k, v]`` makes it (skipped when both are far below any quota), the insertion and,
        with a ``limit`` >= 0, yaql's ``dict`` size check."""
        constant = self.builder.module_constant
        result, key, value = (self.builder.new_name("t") for _ in range(3))
        small = at.BoolOp(op=ast.And(), values=[self._small(at, load(at, key), load(at, key)),
                                                self._small(at, load(at, value), load(at, value))])
        pair_quota = at.Call(func=constant(at, "pair_quota"), args=[load(at, "engine"), load(at, key), load(at, value)],
                             keywords=[])
        size_check = at.Call(func=constant(at, "dict_size_quota"), args=[load(at, result), load(at, "limit")],
                             keywords=[])
        loop_values: dict[str, str] = {}
        setup: list[ast.stmt] = []
        body = [at.Assign(targets=[store(at, key)],
                          value=self.builder.item_code(key_tree, over_range, loop_values, setup)),
                at.Assign(targets=[store(at, value)],
                          value=self.builder.item_code(value_tree, over_range, loop_values, setup)),
                at.If(test=at.UnaryOp(op=ast.Not(), operand=small), body=[at.Expr(value=pair_quota)], orelse=[]),
                at.Assign(targets=[at.Subscript(value=load(at, result), slice=load(at, key), ctx=ast.Store())],
                          value=load(at, value)),
                at.If(test=at.Compare(left=load(at, "limit"), ops=[ast.GtE()], comparators=[at.Constant(value=0)]),
                      body=[at.Expr(value=size_check)], orelse=[])]
        statements = [at.Assign(targets=[store(at, result)], value=at.Dict(keys=[], values=[])), *setup,
                      at.For(target=store(at, "item"), iter=load(at, "items"), body=body, orelse=[]),
                      at.Return(value=load(at, result))]
        return self._loop_function(at, "q", ("items", "context", "engine", "limit"), statements, loop_values)

    def _format(self, at: PyAst, args: tuple[ir.Expr, ...]) -> ast.expr:
        """``format(f, a...)``: ``_r.fast.format_string``; with a constant ``f`` whose fields are
        plain (``_inline_format``), ``f.format(a...)`` itself while each argument is a short
        string or an int of at most 18 digits, for which the helper's quota checks all pass and
        mplc's ``format`` is ``str.format``."""
        operands = [self.builder.expression_code(arg) for arg in args]
        text = args[0].expr if isinstance(args[0], ir.Wrap) else args[0]
        if not (isinstance(text, ir.Constant) and _inline_format(text.value, len(args) - 1)):
            return at.Call(func=fast_attribute(at, "format_string"),
                           args=[caller_token(at), load(at, "engine"), *operands], keywords=[])
        guards, uses = [], []
        for arg, code in zip(args[1:], operands[1:]):
            if isinstance(code, ast.Constant):
                if not _inline_format_argument(code.value):
                    return at.Call(func=fast_attribute(at, "format_string"),
                                   args=[caller_token(at), load(at, "engine"), *operands], keywords=[])
                uses.append(code)
                continue
            if isinstance(code, ast.Name) and self._small_int(arg):
                uses.append(code)
                continue
            first, use = self._evaluated_once(at, code)
            uses.append(use)
            guards.append(self._format_argument_guard(at, first, use))
        call = self._formatted(at, operands[0], text.value, uses)
        if not guards:
            return call
        test = guards[0]
        for guard in guards[1:]:  # ``&``: every argument is evaluated, in order, whatever the first test says
            test = at.BinOp(left=test, op=ast.BitAnd(), right=guard)
        fallback = at.Call(func=fast_attribute(at, "format_string"),
                           args=[caller_token(at), load(at, "engine"), operands[0], *uses], keywords=[])
        return at.IfExp(test=test, body=call, orelse=fallback)

    def _to_string(self, at: PyAst, code: ast.expr) -> ast.expr:
        """``str(x)``: ``f"{x}"`` while ``x`` is an int of at most 18 digits or a short string
        (yaql's ``str`` is Python's for them, and both are far below any quota), else
        ``_r.fast.to_string``."""
        if isinstance(code, ast.Constant):
            return _helper_call(at, "to_string", code)
        first, use = self._evaluated_once(at, code)
        return at.IfExp(test=self._format_argument_guard(at, first, use),
                        body=at.JoinedStr(values=[at.FormattedValue(value=use, conversion=-1, format_spec=None)]),
                        orelse=_helper_call(at, "to_string", use))

    def _concat(self, at: PyAst, operands: list[ast.expr]) -> ast.expr:
        """``concat(a, ...)``: ``f"{a}{b}..."`` while every operand is a short string (at most 8
        of them: far below any quota), else ``_r.fast.concat_strings``."""
        def helper(values: list[ast.expr]) -> ast.expr:
            return at.Call(func=fast_attribute(at, "concat_strings"),
                           args=[caller_token(at), load(at, "engine"), *values], keywords=[])

        if len(operands) > 8 or any(isinstance(code, ast.Constant) and not (
                type(code.value) is str and len(code.value) < FORMAT_STRING_BOUND) for code in operands):
            return helper(operands)
        guards, uses = [], []
        for code in operands:
            if isinstance(code, ast.Constant):
                uses.append(code)
                continue
            first, use = self._evaluated_once(at, code)
            uses.append(use)
            guards.append(self._short_string_guard(at, first, use))
        joined = at.JoinedStr(values=[at.FormattedValue(value=use, conversion=-1, format_spec=None) for use in uses])
        if not guards:
            return joined
        test = guards[0]
        for guard in guards[1:]:  # ``&``: every operand is evaluated, in order, whatever the first test says
            test = at.BinOp(left=test, op=ast.BitAnd(), right=guard)
        return at.IfExp(test=test, body=joined, orelse=helper(uses))

    @staticmethod
    def _short_string_guard(at: PyAst, first: ast.expr, use: ast.expr) -> ast.expr:
        """``type(a) is str and len(a) < S`` (a bool)."""
        return at.BoolOp(op=ast.And(), values=[
            at.Compare(left=at.Call(func=load(at, "type"), args=[first], keywords=[]), ops=[ast.Is()],
                       comparators=[load(at, "str")]),
            at.Compare(left=at.Call(func=load(at, "len"), args=[use], keywords=[]), ops=[ast.Lt()],
                       comparators=[at.Constant(value=FORMAT_STRING_BOUND)])])

    def _small_int(self, tree: ir.Expr) -> bool:
        """Whether ``tree`` (a local) is certainly an int that ``_inline_format_argument``
        admits."""
        locals_ = self.builder.locals
        if locals_ is None or not is_int_expression(tree, locals_.int_keys):
            return False
        bits = int_bits(tree, locals_.int_bounds)
        return bits is not None and 1 << bits < FORMAT_INT_BOUND

    @staticmethod
    def _formatted(at: PyAst, text_code: ast.expr, text: str, uses: list[ast.expr]) -> ast.expr:
        """``text.format(a...)`` for arguments ``_inline_format_argument`` admits: an f-string
        (each field formatted with an empty spec, as ``str.format`` formats it) when
        ``_format_pieces`` splits ``text``, else the ``str.format`` call itself."""
        pieces = _format_pieces(text, len(uses))
        if pieces is None:
            return at.Call(func=at.Attribute(value=text_code, attr="format", ctx=ast.Load()), args=uses,
                           keywords=[])
        return at.JoinedStr(values=[at.Constant(value=piece) if isinstance(piece, str)
                                    else at.FormattedValue(value=uses[piece], conversion=-1, format_spec=None)
                                    for piece in pieces])

    @staticmethod
    def _format_argument_guard(at: PyAst, first: ast.expr, use: ast.expr) -> ast.expr:
        """``type(a) is int and -B < a < B or type(a) is str and len(a) < S`` (a bool)."""
        def type_is(value: ast.expr, name: str) -> ast.expr:
            return at.Compare(left=at.Call(func=load(at, "type"), args=[value], keywords=[]),
                              ops=[ast.Is()], comparators=[load(at, name)])
        small_int = at.BoolOp(op=ast.And(), values=[type_is(first, "int"), at.Compare(
            left=at.Constant(value=-FORMAT_INT_BOUND), ops=[ast.Lt(), ast.Lt()],
            comparators=[use, at.Constant(value=FORMAT_INT_BOUND)])])
        short_string = at.BoolOp(op=ast.And(), values=[type_is(use, "str"), at.Compare(
            left=at.Call(func=load(at, "len"), args=[use], keywords=[]), ops=[ast.Lt()],
            comparators=[at.Constant(value=FORMAT_STRING_BOUND)])])
        return at.BoolOp(op=ast.Or(), values=[small_int, short_string])

    def _dot(self, at: PyAst, receiver: ir.Expr, member: ir.Expr) -> ast.expr | None:
        if isinstance(member, ir.KeywordConstant):
            site = self.builder.define(at, "P", self._site(at, "PropertyRead", at.Constant(value=member.name),
                                                           at.Constant(value=self.legacy)))
            if self.builder.locals is not None and not self.builder.in_item_function and _is_own_object(receiver):
                return self._own_property_read(at, site, member.name, receiver)
            if not self.builder.in_item_function:
                # inline only where dictionaries are usual, a query's items: elsewhere (other
                # objects' properties, mostly) the test would grow the code for nothing
                return _triple_call(at, site, self.builder.expression_code(receiver))
            return self._key_read(at, site, member.name, self.builder.expression_code(receiver))
        if isinstance(member, ir.Function) and member.uses_receiver and _method_arguments(member.args) \
                and not member.name.startswith("#"):
            site = self._method_site(at, member)
            if self.builder.locals is None:
                return _triple_call(at, site, self.builder.expression_code(receiver))
            return self._direct_method_call(at, site, receiver, member.args)
        return None

    def _method_site(self, at: PyAst, member: ir.Function) -> ast.expr:
        """The module-level ``MethodCall`` of ``receiver.member(...)``."""
        arguments = self.builder.call_arguments(at, member.args, item_functions=True)
        methods = sorted(set(itertools.chain.from_iterable(map(_called_methods, member.args))))
        return self.builder.define(at, "M", self._site(
            at, "MethodCall", at.Constant(value=member.name), self.builder.call_lazy(member, arguments),
            arguments, at.Constant(value=True),
            at.Tuple(elts=[at.Constant(value=name) for name in methods], ctx=ast.Load())))

    def _direct_method_call(self, at: PyAst, site: ast.expr, receiver: ir.Expr,
                            args: tuple[ir.Expr, ...]) -> ast.expr:
        """In a body with locals: ``_dN(r, context, engine, a, ...) if type(r) is MuranoObject and
        (_dN := r.type.call_sites.get(_MN)) is not None else _MN(r, context, engine)``: the
        receiver evaluated once, how the site calls on the receiver's class (the method body's
        direct way in or a ``DirectCall.call``) looked up in the class's call sites (the site
        itself resolves it on first use), and the arguments inline, evaluated only on the direct
        path (the site's lazy arguments read the variable scope).
        In an item function (``item_callable``) the direct call gets the lambda's parent context
        (it reads no ``$`` from it), and the site runs in the item's own context otherwise:
        ``_r.fast.per_item_call(_MN, r, item, context, engine)``. In an instance method's body
        (one with a direct way in) ``$this`` and ``$`` are always an object: its type goes
        untested (``_always_object``). In a query loop a receiver that is one of the body's
        values cannot change: ``_dN`` is looked up once, before the loop (``LoopValues.setup``)."""
        first, again = self._evaluated_once(at, self.builder.expression_code(receiver))
        direct = self.builder.new_name("d")
        is_object = at.Compare(
            left=at.Call(func=load(at, "type"), args=[first], keywords=[]), ops=[ast.Is()],
            comparators=[self.builder.module_constant(at, "MuranoObject")])
        call_sites = at.Attribute(value=at.Attribute(value=again, attr="type", ctx=ast.Load()),
                                  attr="call_sites", ctx=ast.Load())
        resolve = at.NamedExpr(target=store(at, direct), value=at.Call(
            func=at.Attribute(value=call_sites, attr="get", ctx=ast.Load()), args=[site], keywords=[]))
        locals_ = self.builder.locals
        if isinstance(locals_, LoopValues) and isinstance(first, ast.Name) and first.id != "item":
            resolve = resolve.value
            if not self._always_object(receiver, first):
                resolve = at.IfExp(test=is_object, body=resolve, orelse=at.Constant(value=None))
            locals_.setup.append(at.Assign(targets=[store(at, direct)], value=resolve))
            test = at.Compare(left=load(at, direct), ops=[ast.IsNot()], comparators=[at.Constant(value=None)])
        else:
            test = at.Compare(left=resolve, ops=[ast.IsNot()], comparators=[at.Constant(value=None)])
            if not self._always_object(receiver, first):
                test = at.BoolOp(op=ast.And(), values=[is_object, test])
        values = [self.builder.expression_code(arg) for arg in args]
        call = at.Call(func=load(at, direct), args=[again, caller_token(at), load(at, "engine"), *values],
                       keywords=[])
        if self.builder.in_item_function:
            fallback = at.Call(func=fast_attribute(at, "per_item_call"),
                               args=[site, again, load(at, "item"), load(at, "context"), load(at, "engine")],
                               keywords=[])
        else:
            fallback = _triple_call(at, site, again)
        return at.IfExp(test=test, body=call, orelse=fallback)

    def _key_read(self, at: PyAst, site: ast.expr, name: str, receiver: ast.expr) -> ast.expr:
        """``receiver.name`` (Format >= 1.2) on a FrozenDict inline, its key read as the site
        reads it, when the value is far below any memory quota as the runtime's ``quota``
        judges it (a short string or tuple, an int within the inline bound, a float, bool, null
        or FrozenDict): ``_v if type(r) is FrozenDict and ((_k := type(_v := r._d[name])) is int
        and L < _v < C or _k in SHORT_SIZED and len(_v) < SHORT or _k in ALWAYS_SMALL) else _PN(r,
        context, engine)`` (any other value is read again by the site, which checks it)."""
        first, again = self._evaluated_once(at, receiver)
        value = self.builder.new_name("t")
        is_frozen_dict = at.Compare(left=at.Call(func=load(at, "type"), args=[first], keywords=[]),
                                    ops=[ast.Is()], comparators=[self.builder.module_constant(at, "FrozenDict")])
        items = at.Attribute(value=again, attr="_d", ctx=ast.Load())
        if self.legacy:  # yaql's legacy library reads a missing key as null
            read = at.Call(func=at.Attribute(value=items, attr="get", ctx=ast.Load()),
                           args=[at.Constant(value=name)], keywords=[])
        else:
            read = at.Subscript(value=items, slice=at.Constant(value=name), ctx=ast.Load())
        small = self._small(at, at.NamedExpr(target=store(at, value), value=read), load(at, value))
        value = load(at, value)
        return at.IfExp(test=at.BoolOp(op=ast.And(), values=[is_frozen_dict, small]), body=value,
                        orelse=_triple_call(at, site, again))

    def _own_property_read(self, at: PyAst, site: ast.expr, name: str, receiver: ir.Expr) -> ast.expr:
        """``$.name`` / ``$this.name`` in a method body, read inline from the object's
        properties when the site has found that, in this class's methods, it reads this class's
        whole objects' own value of a property the class declares (``MuranoType.self_reads``)
        and the value is small by type: ``_v if type(r) is MuranoObject and _PN in
        r.type.self_reads and r.this is None and <small (_v := r.properties.get(name,
        NO_VALUE))> else _PN(r, context, engine)`` (an unset property, or any other value, is
        read by the site, which raises or checks it). In a body with a direct way in
        ``$this`` and ``$`` are always an object (``_always_object``)."""
        first, again = self._evaluated_once(at, self.builder.expression_code(receiver))
        value = self.builder.new_name("t")
        self_reads = at.Attribute(value=at.Attribute(value=again, attr="type", ctx=ast.Load()),
                                  attr="self_reads", ctx=ast.Load())
        tests = [at.Compare(left=site, ops=[ast.In()], comparators=[self_reads]),
                 at.Compare(left=at.Attribute(value=again, attr="this", ctx=ast.Load()), ops=[ast.Is()],
                            comparators=[at.Constant(value=None)])]
        if not self._always_object(receiver, first):
            tests.insert(0, at.Compare(left=at.Call(func=load(at, "type"), args=[first], keywords=[]),
                                       ops=[ast.Is()], comparators=[self.builder.module_constant(at, "MuranoObject")]))
        read = at.Call(func=at.Attribute(value=at.Attribute(value=again, attr="properties", ctx=ast.Load()),
                                         attr="get", ctx=ast.Load()),
                       args=[at.Constant(value=name), self.builder.module_constant(at, "NO_VALUE")], keywords=[])
        tests.append(self._small(at, at.NamedExpr(target=store(at, value), value=read), load(at, value)))
        return at.IfExp(test=at.BoolOp(op=ast.And(), values=tests), body=load(at, value),
                        orelse=_triple_call(at, site, again))

    def _small(self, at: PyAst, first: ast.expr, value: ast.expr) -> ast.expr:
        """Whether a value is far below any memory quota as the runtime's ``quota`` judges it
        (a short string or tuple, an int within the inline bound, a float, bool, null or
        FrozenDict): ``(_k := type(first)) is int and L < v < C or _k in SHORT_SIZED and
        len(v) < SHORT or _k in ALWAYS_SMALL``, ``first`` the value's first evaluation and ``value`` its later uses."""
        constant = self.builder.module_constant
        value_type = self.builder.new_name("t")
        read_type = at.NamedExpr(target=store(at, value_type), value=at.Call(
            func=load(at, "type"), args=[first], keywords=[]))
        small_int = at.BoolOp(op=ast.And(), values=[
            at.Compare(left=read_type, ops=[ast.Is()], comparators=[load(at, "int")]),
            at.Compare(left=constant(at, "INLINE_LOWER_BOUND"), ops=[ast.Lt(), ast.Lt()],
                       comparators=[value, constant(at, "INLINE_BOUND")])])
        short_sized = at.BoolOp(op=ast.And(), values=[
            at.Compare(left=load(at, value_type), ops=[ast.In()], comparators=[constant(at, "SHORT_SIZED")]),
            at.Compare(left=at.Call(func=load(at, "len"), args=[value], keywords=[]), ops=[ast.Lt()],
                       comparators=[constant(at, "SHORT")])])
        always_small = at.Compare(left=load(at, value_type), ops=[ast.In()],
                                  comparators=[constant(at, "ALWAYS_SMALL")])
        return at.BoolOp(op=ast.Or(), values=[small_int, short_sized, always_small])

    def _always_object(self, receiver: ir.Expr, code: ast.expr) -> bool:
        """Whether ``receiver`` (its code ``code``) is certainly an object: ``$this``, or the
        body's own ``$``, read from its local in an instance method's body (one with a direct
        way in), where both are the object the method runs on (neither can be assigned)."""
        if not (self.builder.direct_entry and isinstance(code, ast.Name)):
            return False
        key = _variable_key(receiver)
        return key == "$this" or key == "$1" and type(self.builder.locals) is BodyLocals

    def _evaluated_once(self, at: PyAst, code: ast.expr) -> tuple[ast.expr, ast.expr]:
        """``(first use, later uses)`` of a value: a local as it is, anything else bound to a
        temporary by its first use (``(_tN := code)``, then ``_tN``)."""
        if isinstance(code, ast.Name):
            return code, code
        temporary = self.builder.new_name("t")
        return at.NamedExpr(target=store(at, temporary), value=code), load(at, temporary)

    def variable_assignment(self, target: ir.AssignmentTarget, value: ast.expr) -> ast.stmt | None:
        """``$name: value``: a plain variable other than ``$`` and ``$this`` (no error possible)."""
        if target.steps or not isinstance(target.root, ir.GetContextValue):
            return None
        name = normal_variable_name(target.root.name)
        if name in ("$1", "$this"):
            return None
        at = PyAst(target.pos)
        if self.builder.locals is not None:
            return self.builder.locals.write(at, name, value)
        call = at.Call(func=fast_attribute(at, "set_variable"),
                       args=[load(at, "context"), at.Constant(value=name), value], keywords=[])
        return at.Expr(value=call)

    @staticmethod
    def _site(at: PyAst, kind: str, *args: ast.expr) -> ast.expr:
        return at.Call(func=fast_attribute(at, kind), args=list(args), keywords=[])

    def _lambda_operand(self, tree: ir.Expr) -> ast.expr:
        """An ``and``/``or`` operand: yaql runs it in a child context, which only matters when it
        may write one (``let``, ``unpack``, any function mplc does not know)."""
        if self.writes_no_context(tree):
            return self.builder.expression_code(tree)
        at = PyAst(tree.pos)
        function = self.builder.expression_function(tree)
        child = at.Call(func=fast_attribute(at, "child"), args=[load(at, "context")], keywords=[])
        return at.Call(func=load(at, function),
                       args=[fast_attribute(at, "NO_VALUE"), child, load(at, "engine")], keywords=[])

    def _certainly_scalar(self, tree: ir.Expr) -> bool:
        """Whether ``tree`` yields a scalar whatever its operands (``returns_scalar``, and calls
        of ``format``, ``len`` and ``mod``, whose every overload returns a string or a number)."""
        if isinstance(tree, ir.Wrap):
            return self._certainly_scalar(tree.expr)
        if self.returns_scalar(tree) or isinstance(tree, ir.KeywordConstant):
            return True
        if self.builder.locals is not None and is_int_expression(tree, self.builder.locals.int_keys):
            return True
        return isinstance(tree, ir.Function) and (
            (tree.name == "#operator_mod" and len(tree.args) == 2)
            or (tree.name in ("format", "len") and tree.uses_receiver and _plain_arguments(tree.args)))

    @staticmethod
    def returns_scalar(tree: ir.Expr) -> bool:
        """Whether ``tree`` always evaluates to a bool (or a scalar constant): ``#finalize``
        leaves it as it is."""
        if isinstance(tree, ir.Wrap):
            return FastPaths.returns_scalar(tree.expr)
        if isinstance(tree, ir.Constant):
            return tree.value is None or isinstance(tree.value, (str, int, float, bool))
        return isinstance(tree, ir.Function) and (
            tree.name in COMPARISONS or tree.name in SCALAR_OPERATORS
            or (tree.name == "#unary_operator_not" and len(tree.args) == 1))

    def numeric_only(self, tree: ir.Expr, boolean: bool) -> bool:
        """Whether ``tree``, with ``$`` a number, is computed by the helpers without a context:
        numbers (``$``, int and float constants, ``+ - * / mod``, unary ``-``) or, with
        ``boolean``, bools (comparisons of numbers, ``not``, ``and``, ``or`` of bools)."""
        if isinstance(tree, ir.Wrap):
            return self.numeric_only(tree.expr, boolean)
        if not boolean:
            if isinstance(tree, ir.GetContextValue):
                return normal_variable_name(tree.name) == "$1"
            if isinstance(tree, ir.Constant):
                return type(tree.value) in (int, float)
        if not isinstance(tree, ir.Function):
            return False
        name, args = tree.name, tree.args
        if not boolean:
            if name == "#unary_operator_-" and len(args) == 1:
                return self.numeric_only(args[0], False)
            return (name in NUMERIC_OPERATORS and len(args) == 2
                    and all(self.numeric_only(arg, False) for arg in args))
        if (name in COMPARISONS or name in SCALAR_OPERATORS - {"#operator_in"}) and len(args) == 2:
            return all(self.numeric_only(arg, False) for arg in args)
        if name == "#unary_operator_not" and len(args) == 1:
            return self.numeric_only(args[0], True)
        return name in BOOLEAN_OPERATORS and len(args) == 2 and all(self.numeric_only(arg, True) for arg in args)

    def context_free(self, tree: ir.Expr) -> bool:
        """Whether every node of ``tree`` compiles to code that gets ``$`` as a value and hands
        the context only to functions that do not read ``$`` from it (no lazy argument, no
        method call, no lambda): then ``$`` may be a parameter and the context the lambda's
        parent (``ModuleBuilder.item_function``)."""
        if isinstance(tree, ir.Wrap):
            return self.context_free(tree.expr)
        if isinstance(tree, (ir.Constant, ir.KeywordConstant, ir.GetContextValue, ir.TypeName)):
            return True
        if not isinstance(tree, ir.Function):
            return False
        name, args = tree.name, tree.args
        if name in BOOLEAN_OPERATORS:
            return len(args) == 2 and all(self.writes_no_context(arg) and self.context_free(arg) for arg in args)
        if name == "#operator_." and len(args) == 2:
            return isinstance(args[1], ir.KeywordConstant) and self.context_free(args[0])
        if name == "dict" and all(isinstance(arg, ir.MappingRule) for arg in args):
            return (tree.uses_receiver
                    and all(self.context_free(arg.source) and self.context_free(arg.destination) for arg in args))
        plain = ((name in self.binary and len(args) == 2 and not _rejected_literal(name, args))
                 or (name in COMPARISONS and len(args) == 2)
                 or (name in ("#unary_operator_not", "#unary_operator_-") and len(args) == 1)
                 or (name == "#list" and not any(isinstance(arg, ir.MappingRule) for arg in args))
                 or (tree.uses_receiver and _plain_arguments(args) and (
                     (name in ("dict", "range") and not self.legacy and len(args) == 1)
                     or (name == "range" and len(args) == 2) or (name == "str" and len(args) == 1)
                     or (name == "concat" and args)
                     or (name == "len" and len(args) == 1) or (name == "format" and args))))
        return plain and all(self.context_free(arg) for arg in args)

    def item_callable(self, tree: ir.Expr) -> bool:
        """Whether a query's lambda ``tree`` gets an item function: it is ``context_free``, or
        it is a method call ``r.m(a...)`` with positional arguments whose receiver and
        arguments are: a direct call of a MuranoPL method reads no ``$`` from its caller's
        context, and every other call runs in the item's own context (``_direct_method_call``)."""
        if self.context_free(tree):
            return True
        while isinstance(tree, ir.Wrap):
            tree = tree.expr
        if not (isinstance(tree, ir.Function) and tree.name == "#operator_." and len(tree.args) == 2):
            return False
        receiver, member = tree.args
        return (isinstance(member, ir.Function) and member.uses_receiver and _method_arguments(member.args)
                and not member.name.startswith("#") and self.context_free(receiver)
                and all(self.context_free(arg) for arg in member.args))

    def writes_no_context(self, tree: ir.Expr) -> bool:
        if isinstance(tree, (ir.Constant, ir.KeywordConstant, ir.GetContextValue, ir.TypeName)):
            return True
        if isinstance(tree, ir.Wrap):
            return self.writes_no_context(tree.expr)
        if not isinstance(tree, ir.Function):
            return False
        known = (tree.name in self.binary or tree.name in COMPARISONS or tree.name in BOOLEAN_OPERATORS
                 or tree.name in ("#unary_operator_not", "#unary_operator_-", "#list")
                 or (tree.name == "#operator_." and len(tree.args) == 2
                     and isinstance(tree.args[1], ir.KeywordConstant)))
        return known and all(self.writes_no_context(arg) for arg in tree.args)
