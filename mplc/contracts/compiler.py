"""Contract IR -> Python ast of a validator ``def <name>(value, cc)`` built from runtime primitives.

Contract expressions that are method chains of the contract functions on ``$`` (``$.string()
.notNull()``, ``$.class(ns:T).check($.x > 0, 'message')``) become direct calls of
``_r.contracts.<primitive>``; any other expression is evaluated as yaql with the contract
functions in scope (``_r.contracts.evaluate_contract``), as the reference evaluates them all.
Either way the result is frozen as yaql's ``#finalize`` freezes every expression's result.
Lists and dicts of specs become helper validators ``<name>_item<N>`` next to the main one.
"""

from __future__ import annotations

import ast
import datetime
from dataclasses import dataclass
from typing import Any, Callable

from mplc import ir
from mplc.pyast import PyAst

HoistExpression = Callable[[ir.Expression], ast.expr]

_DOLLARS = frozenset({"$", "$1"})


@dataclass(frozen=True, slots=True)
class _Signature:
    """How a contract function's arguments bind: parameter names in order, required count, and
    which argument kinds the direct call supports."""

    primitive: str
    parameters: tuple[str, ...]
    required: int
    kinds: tuple[str, ...]  # per parameter: "predicate" | "string" | "type" | "names"


_SIGNATURES = {
    "string": _Signature("string", (), 0, ()),
    "int": _Signature("integer", (), 0, ()),
    "bool": _Signature("boolean", (), 0, ()),
    "notNull": _Signature("not_null", (), 0, ()),
    "owned": _Signature("owned", (), 0, ()),
    "notOwned": _Signature("not_owned", (), 0, ()),
    "check": _Signature("check", ("predicate", "msg"), 1, ("predicate", "string")),
    "class": _Signature("class_instance", ("name", "defaultName", "versionSpec"), 1,
                        ("type", "type", "string")),
    "template": _Signature("template", ("type", "defaultType", "versionSpec", "excludeProperties"),
                           1, ("type", "type", "string", "names")),
}


# The scalar types (by the names ``_r.contracts.passes_unchanged`` takes) whose values a primitive
# returns unchanged in every mode; the frozen result of a scalar is the scalar itself.
_SCALAR_TYPES = frozenset(("str", "int", "float", "bool", "null"))
_UNCHANGED = {
    "string": frozenset(("str", "null")),
    "int": frozenset(("int", "null")),
    "bool": frozenset(("bool", "null")),
    "notNull": _SCALAR_TYPES - {"null"},
}


def unchanged_types(tree: ir.Expr, numeric_check: bool = False) -> frozenset[str]:
    """The scalar types a contract expression passes through untouched: a chain of ``string()``,
    ``int()``, ``bool()`` and ``notNull()`` on ``$`` (``$`` alone passes every scalar). With
    ``numeric_check`` the chain ends in a check() whose predicate has a numeric twin: then the
    numbers among those types pass untouched whenever the twin holds."""
    chain = method_chain(tree)
    if chain is None:
        return frozenset()
    types = _SCALAR_TYPES
    if numeric_check:
        if not chain or chain[-1].name != "check":
            return frozenset()
        chain = chain[:-1]
        types = frozenset(("int", "float"))
    for call in chain:
        if call.name not in _UNCHANGED or call.args:
            return frozenset()
        types = types & _UNCHANGED[call.name]
    return types


_OBJECT_LOADERS = frozenset(("class", "template"))


def _parts(contract: ir.Contract | None):
    """``contract`` and every spec nested in it (list items, dict keys and values)."""
    if contract is None:
        return
    yield contract
    if isinstance(contract, ir.ContractList):
        for item in contract.items:
            yield from _parts(item)
    elif isinstance(contract, ir.ContractDict):
        for _, spec in contract.fixed:
            yield from _parts(spec)
        for spec in contract.expression_key or ():
            yield from _parts(spec)


def _expression_trees(contract: ir.Contract | None) -> list[ir.Expr]:
    return [part.expression.tree for part in _parts(contract) if isinstance(part, ir.ContractExpression)]


def loads_objects(contract: ir.Contract | None) -> bool:
    """Whether ``contract`` calls class() or template() anywhere: only those turn a ``?``
    mapping into an object; every other contract keeps it as plain data."""
    return any(map(_calls_object_loader, _expression_trees(contract)))


def _calls_object_loader(tree: ir.Expr) -> bool:
    if isinstance(tree, ir.Function):
        return tree.name in _OBJECT_LOADERS or any(map(_calls_object_loader, tree.args))
    if isinstance(tree, ir.MappingRule):
        return _calls_object_loader(tree.source) or _calls_object_loader(tree.destination)
    if isinstance(tree, ir.Wrap):
        return _calls_object_loader(tree.expr)
    return False


# Contract methods that read only the value (and, for class(), the classes and objects it names).
_VALUE_READERS = frozenset(("int", "string", "bool", "notNull", "class", "owned", "notOwned"))


def reads_value_only(contract: ir.Contract | None) -> bool:
    """Whether applying ``contract`` reads nothing but the value and has no effect, for a value
    that holds no mapping (class() loads objects only from mappings): operators on ``$`` and
    constants inside check(), the type contracts, class() of a named class. Applying it twice
    is then the same as applying it once."""
    if any(isinstance(part, ir.ContractDict) and part.second_expression_key is not None
           for part in _parts(contract)):
        return False
    return all(map(_reads_value_only, _expression_trees(contract)))


def _reads_value_only(tree: ir.Expr) -> bool:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    if isinstance(tree, (ir.Constant, ir.KeywordConstant, ir.TypeName)):
        return True
    if isinstance(tree, ir.GetContextValue):
        return tree.name in ("$", "$1")
    if not isinstance(tree, ir.Function):
        return False
    name, args = tree.name, tree.args
    if name == "#operator_." and len(args) == 2:
        member = args[1]
        if isinstance(member, ir.KeywordConstant):
            return _reads_value_only(args[0])
        if not (isinstance(member, ir.Function) and member.uses_receiver):
            return False
        if member.name == "check":
            arguments_pure = (len(member.args) in (1, 2) and _reads_value_only(member.args[0])
                              and all(isinstance(arg, ir.Constant) for arg in member.args[1:]))
        else:
            arguments_pure = member.name in _VALUE_READERS and all(
                isinstance(arg, (ir.Constant, ir.KeywordConstant, ir.TypeName)) for arg in member.args)
        return arguments_pure and _reads_value_only(args[0])
    operator = name.startswith(("#operator_", "#unary_operator_")) or name in ("*equal", "*not_equal", "#list")
    return operator and not tree.uses_receiver and all(
        not isinstance(arg, ir.MappingRule) and _reads_value_only(arg) for arg in args)


class _NotDirect(Exception):
    """The expression is not a chain the compiler turns into direct primitive calls."""


def _contracts_attribute(at: PyAst, name: str) -> ast.expr:
    runtime = at.Name(id="_r", ctx=ast.Load())
    return at.Attribute(value=at.Attribute(value=runtime, attr="contracts", ctx=ast.Load()),
                        attr=name, ctx=ast.Load())


def _primitive_call(at: PyAst, name: str, *extra: ast.expr) -> ast.expr:
    arguments = [_load(at, "value"), _load(at, "cc"), *extra]
    return at.Call(func=_contracts_attribute(at, name), args=arguments, keywords=[])


def _literal(at: PyAst, value: Any) -> ast.expr:
    """A YAML scalar (or tuple of them) as a Python constant; dates as the codegen writes them."""
    if isinstance(value, (tuple, list)):
        return at.Tuple(elts=[_literal(at, item) for item in value], ctx=ast.Load())
    if isinstance(value, (datetime.date, datetime.datetime)):
        return at.Constant(value=value.isoformat())
    return at.Constant(value=value)


def _unwrap(tree: ir.Expr) -> ir.Expr:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return tree


def method_chain(tree: ir.Expr) -> list[ir.Function] | None:
    """The method calls of ``$.a().b()`` in order, or None when ``tree`` is not such a chain."""
    tree = _unwrap(tree)
    if isinstance(tree, ir.GetContextValue) and tree.name in _DOLLARS:
        return []
    if isinstance(tree, ir.Function) and tree.name == "#operator_." and len(tree.args) == 2:
        method = _unwrap(tree.args[1])
        if isinstance(method, ir.Function) and method.uses_receiver:
            receiver_chain = method_chain(tree.args[0])
            if receiver_chain is not None:
                return receiver_chain + [method]
    return None


def bind_arguments(call: ir.Function) -> dict[str, ir.Expr] | None:
    """The arguments of a contract function call by parameter name, or None when they do not
    fit its signature (yaql would then resolve something else, or fail)."""
    signature = _SIGNATURES.get(call.name)
    if signature is None:
        return None
    bound: dict[str, ir.Expr] = {}
    positional = [argument for argument in call.args if not isinstance(argument, ir.MappingRule)]
    if len(positional) > len(signature.parameters) or any(
            isinstance(argument, ir.MappingRule) for argument in call.args[:len(positional)]):
        return None
    bound.update(zip(signature.parameters, positional))
    for argument in call.args[len(positional):]:
        source = argument.source
        if not isinstance(source, ir.KeywordConstant) or source.name not in signature.parameters \
                or source.name in bound:
            return None
        bound[source.name] = argument.destination
    if any(name not in bound for name in signature.parameters[:signature.required]):
        return None
    return bound


class ContractCompiler:
    """Compiles contract IR into validator functions (see module docstring).

    ``hoist_expression(expression)`` returns a reference to a module-level function that
    ``_r.evaluate`` can run; the compiler uses it for check() predicates and for contract
    expressions evaluated as yaql.
    """

    def __init__(self, hoist_expression: HoistExpression,
                 hoist_numeric_predicate: Callable[[ir.Expression], ast.expr | None] | None = None):
        """``hoist_numeric_predicate(expression)``: a reference to a function ``(value, context,
        engine)`` computing a check() predicate for a number without any yaql context, or None
        (then check() always evaluates the predicate as yaql)."""
        self._hoist_expression = hoist_expression
        self._hoist_numeric_predicate = hoist_numeric_predicate or (lambda expression: None)

    def compile(self, contract: ir.Contract, function_name: str) -> list[ast.stmt]:
        """Statements defining ``def <function_name>(value, cc)`` and its helper validators."""
        return _Validators(self._hoist_expression, self._hoist_numeric_predicate,
                           function_name).define(contract, function_name)


class _Validators:
    """The functions of one compiled contract: the main validator and its helpers."""

    def __init__(self, hoist_expression: HoistExpression, hoist_numeric_predicate, main_name: str):
        self._hoist_expression = hoist_expression
        self._hoist_numeric_predicate = hoist_numeric_predicate
        self._numeric_checks: list[ast.expr] = []  # numeric twins of the check() calls compiled so far
        self._main_name = main_name
        self._helpers = 0
        self._definitions: list[ast.stmt] = []

    def define(self, contract: ir.Contract, name: str) -> list[ast.stmt]:
        at = PyAst(contract.pos)
        twins_before = len(self._numeric_checks)
        body = self._body(contract, at)
        own_twins = self._numeric_checks[twins_before:]
        passkey = at.If(test=at.Compare(left=_load(at, "value"), ops=[ast.Is()],
                                        comparators=[_contracts_attribute(at, "PASSKEY")]),
                        body=[at.Return(value=_load(at, "value"))], orelse=[])
        arguments = ast.arguments(posonlyargs=[], args=[at.arg(arg="value"), at.arg(arg="cc")],
                                  kwonlyargs=[], kw_defaults=[], defaults=[])
        decorators = []
        unchanged, condition = frozenset(), None
        if isinstance(contract, ir.ContractExpression):
            unchanged = unchanged_types(contract.expression.tree)
            if not unchanged and len(own_twins) == 1:
                unchanged = unchanged_types(contract.expression.tree, numeric_check=True)
                condition = own_twins[0] if unchanged else None
        if unchanged:
            keywords = [] if condition is None else [at.keyword(arg="when", value=condition)]
            decorators.append(at.Call(func=_contracts_attribute(at, "passes_unchanged"),
                                      args=[at.Constant(value=name) for name in sorted(unchanged)],
                                      keywords=keywords))
        elif self._passes_objects(contract):
            lists = isinstance(contract, ir.ContractList)
            decorators.append(at.Call(func=_contracts_attribute(at, "passes_objects"),
                                      args=[at.Constant(value=lists)], keywords=[]))
        self._definitions.append(at.FunctionDef(name=name, args=arguments, body=[passkey, *body],
                                                decorator_list=decorators, returns=None, type_params=[]))
        return self._definitions

    def _passes_objects(self, contract: ir.Contract) -> bool:
        """Whether the validator is ``class(...)`` with literal arguments followed by nothing but
        ``notNull()``, or a list contract of one such spec without length bounds: then it passes
        an object, or each object of a list, by its class alone (``_r.contracts.passes_objects``)."""
        if isinstance(contract, ir.ContractList):
            return (len(contract.items) == 1 and contract.min_length == 0 and contract.max_length is None
                    and self._passes_objects(contract.items[0]))
        if not isinstance(contract, ir.ContractExpression):
            return False
        chain = method_chain(contract.expression.tree)
        if not chain or chain[0].name != "class" or any(call.name != "notNull" or call.args for call in chain[1:]):
            return False
        try:
            self._direct_call(chain[0], contract.expression)
        except _NotDirect:
            return False
        return True

    def _helper(self, contract: ir.Contract) -> ast.expr:
        self._helpers += 1
        name = f"{self._main_name}_item{self._helpers}"
        self.define(contract, name)
        return _load(PyAst(contract.pos), name)

    def _body(self, contract: ir.Contract, at: PyAst) -> list[ast.stmt]:
        if isinstance(contract, ir.ContractExpression):
            return self._expression_body(contract.expression, at)
        if isinstance(contract, ir.ContractList):
            if contract.items or contract.bounded:
                items = at.Tuple(elts=[self._helper(item) for item in contract.items], ctx=ast.Load())
            else:
                items = at.Constant(value=None)
            call = _primitive_call(at, "list_of", items, at.Constant(value=contract.min_length),
                                   at.Constant(value=contract.max_length))
            return [at.Return(value=call)]
        if isinstance(contract, ir.ContractDict):
            fixed = at.Tuple(elts=[at.Tuple(elts=[_literal(at, key), self._helper(spec)],
                                            ctx=ast.Load())
                                   for key, spec in contract.fixed], ctx=ast.Load())
            if contract.expression_key is None:
                key_validator = value_validator = at.Constant(value=None)
            else:
                key_validator, value_validator = map(self._helper, contract.expression_key)
            call = _primitive_call(at, "dict_of", fixed, key_validator, value_validator,
                                   at.Constant(value=contract.second_expression_key is not None))
            return [at.Return(value=call)]
        if isinstance(contract, ir.ContractConstant):
            return [at.Return(value=_primitive_call(at, "constant", _literal(at, contract.value)))]
        raise TypeError(f"unknown contract node {type(contract).__name__}")

    def _expression_body(self, expression: ir.Expression, at: PyAst) -> list[ast.stmt]:
        chain = method_chain(expression.tree)
        try:
            if chain is None:
                raise _NotDirect
            calls = [self._direct_call(call, expression) for call in chain]
        except _NotDirect:
            call = at.Call(func=_contracts_attribute(at, "evaluate_contract"),
                           args=[self._hoist_expression(expression), _load(at, "value"),
                                 _load(at, "cc")], keywords=[])
            return [at.Return(value=call)]
        assignments = [PyAst(pos).Assign(targets=[PyAst(pos).Name(id="value", ctx=ast.Store())],
                                         value=call)
                       for call, pos in calls]
        frozen = at.Call(func=_contracts_attribute(at, "freeze"), args=[_load(at, "value")],
                         keywords=[])
        return [*assignments, at.Return(value=frozen)]

    def _direct_call(self, call: ir.Function, expression: ir.Expression) -> tuple[ast.expr, ir.Pos]:
        bound = bind_arguments(call)
        if bound is None:
            raise _NotDirect
        signature = _SIGNATURES[call.name]
        at = PyAst(call.pos)
        arguments = []
        for index, (parameter, kind) in enumerate(zip(signature.parameters, signature.kinds)):
            argument = bound.get(parameter)
            if argument is None:
                arguments.append(at.Constant(value=None))
            else:
                arguments.append(self._argument(argument, kind, index >= signature.required,
                                                expression))
        if call.name == "check":
            predicate = _unwrap(bound["predicate"])
            numeric = self._hoist_numeric_predicate(ir.Expression(expression.source, predicate, predicate.pos))
            if numeric is not None:
                arguments.append(numeric)
                self._numeric_checks.append(numeric)
        return _primitive_call(at, signature.primitive, *arguments), call.pos

    def _argument(self, argument: ir.Expr, kind: str, optional: bool,
                  expression: ir.Expression) -> ast.expr:
        at = PyAst(argument.pos)
        argument = _unwrap(argument)
        if kind == "predicate":
            return self._hoist_expression(ir.Expression(expression.source, argument, argument.pos))
        if isinstance(argument, ir.Constant) and argument.value is None:
            if optional:
                return at.Constant(value=None)
            raise _NotDirect
        if kind == "names":
            if isinstance(argument, ir.Function) and argument.name == "#list":
                return at.Tuple(elts=[at.Constant(value=_string_constant(item))
                                      for item in argument.args], ctx=ast.Load())
            raise _NotDirect
        if kind == "type" and isinstance(argument, ir.TypeName):
            return at.Constant(value=argument.written)
        return at.Constant(value=_string_constant(argument))


def _string_constant(argument: ir.Expr) -> str:
    """The string a literal argument evaluates to (a bare word evaluates to itself)."""
    argument = _unwrap(argument)
    if isinstance(argument, ir.Constant) and isinstance(argument.value, str):
        return argument.value
    if isinstance(argument, ir.KeywordConstant):
        return argument.name
    raise _NotDirect


def _load(at: PyAst, name: str) -> ast.expr:
    return at.Name(id=name, ctx=ast.Load())
