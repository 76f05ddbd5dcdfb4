"""Contract IR -> draft-04 json-schema fragment, as the reference's schema generator builds it.

Expression contracts are read as method chains on ``$`` (the reference evaluates them with each
contract function returning a schema instead of a value): ``string()``/``int()``/``bool()``
give a nullable type, ``notNull()`` drops ``null``, ``class()``/``template()`` give a
``muranoObject``, ``owned()``/``notOwned()`` set ``owned``, and ``check()`` predicates
contribute what the reference recognises in them: ``$`` compared with a constant (minimum /
maximum), ``$ in <constant list>`` (enum) and ``$.matches(<constant>)`` (pattern), over the
terms of a top-level ``and`` as the reference walks it. Constants are the literals the
compiler can see; a predicate needing evaluation contributes nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from mplc import ir
from mplc.contracts.compiler import bind_arguments, method_chain

_COMPARISONS = ("#operator_>", "#operator_<", "#operator_>=", "#operator_<=")
_BOUNDS = {
    "#operator_>": ("minimum", "exclusiveMinimum", True),
    "#operator_>=": ("minimum", "exclusiveMinimum", False),
    "#operator_<": ("maximum", "exclusiveMaximum", True),
    "#operator_<=": ("maximum", "exclusiveMaximum", False),
}
_NOT_FOUND = object()


def contract_schema(contract: ir.Contract,
                    full_name: Callable[[str], str] = str) -> dict[str, Any] | None:
    """The json-schema of a contract; None for a scalar constant (the reference has none).

    ``full_name`` resolves a class name written as a bare word or string (``Foo``) in the
    declaring class's namespaces; ``ns:Foo`` is already resolved in the IR.
    """
    if isinstance(contract, ir.ContractDict):
        properties = {key: contract_schema(spec, full_name) for key, spec in contract.fixed}
        additional = False if contract.expression_key is None \
            else contract_schema(contract.expression_key[1], full_name)
        return {"type": "object", "properties": properties, "additionalProperties": additional}
    if isinstance(contract, ir.ContractList):
        items = [contract_schema(item, full_name) for item in contract.items]
        if not items:
            return {"type": "array"}
        if len(items) == 1:
            return {"type": "array", "items": items[0]}
        return {"type": "array", "items": items, "additionalItems": items[-1]}
    if isinstance(contract, ir.ContractExpression):
        return _expression_schema(contract.expression.tree, full_name)
    return None


def _expression_schema(tree: ir.Expr, full_name: Callable[[str], str]) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    for call in method_chain(tree) or ():
        arguments = bind_arguments(call)
        if arguments is None:
            continue
        schema = _apply(call.name, arguments, schema, full_name)
    schema.pop("_notNull", None)
    return schema


def _nullable(json_type: str, schema: dict[str, Any]) -> Any:
    return json_type if "_notNull" in schema else [json_type, "null"]


def _apply(name: str, arguments: dict[str, ir.Expr], schema: dict[str, Any],
           full_name: Callable[[str], str]) -> dict[str, Any]:
    simple_types = {"string": "string", "bool": "boolean", "int": "integer"}
    if name in simple_types:
        return {"type": _nullable(simple_types[name], schema)}
    if name == "notNull":
        types = schema.get("type")
        if isinstance(types, list) and "null" in types:
            types.remove("null")
            schema["type"] = types[0] if len(types) == 1 else types
        schema["_notNull"] = True
        return schema
    if name in ("owned", "notOwned"):
        schema["owned"] = name == "owned"
        return schema
    if name in ("class", "template"):
        type_argument = arguments.get("name", arguments.get("type"))
        result = {"type": _nullable("muranoObject", schema), "muranoType": _type_name(type_argument, full_name)}
        if name == "template":
            result["owned"] = True
            excluded = _constant(arguments["excludeProperties"]) \
                if "excludeProperties" in arguments else None
            if excluded and excluded is not _NOT_FOUND:
                result["excludedProperties"] = list(excluded)
        return result
    if name == "check":
        for term in _and_terms(arguments["predicate"]):
            schema.update(_pattern(term))
    return schema


def _type_name(argument: ir.Expr, full_name: Callable[[str], str]) -> str | None:
    argument = _unwrapped(argument)
    if isinstance(argument, ir.TypeName):
        return argument.full_name
    value = _constant(argument)
    return full_name(value) if isinstance(value, str) else None


def _and_terms(predicate: ir.Expr) -> list[ir.Expr]:
    """The terms the reference looks at: for ``a and b`` both, then repeatedly the right side."""
    terms = []
    while True:
        predicate = _unwrapped(predicate)
        if isinstance(predicate, ir.Function) and predicate.name == "#operator_and":
            terms.append(predicate.args[0])
            predicate = predicate.args[1]
        else:
            terms.append(predicate)
            return terms


def _unwrapped(tree: ir.Expr) -> ir.Expr:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return tree


def _is_dollar(tree: ir.Expr) -> bool:
    tree = _unwrapped(tree)
    return isinstance(tree, ir.GetContextValue) and tree.name in ("$", "$1")


def _pattern(term: ir.Expr) -> dict[str, Any]:
    term = _unwrapped(term)
    if not isinstance(term, ir.Function) or len(term.args) != 2:
        return {}
    left, right = term.args
    if term.name in _COMPARISONS:
        operator = term.name
        if _is_dollar(left):
            bound = _constant(right)
        elif _is_dollar(right):
            bound = _constant(left)
            # The reference mirrors by index (-1 - i): '>' reads as '<=', '<' as '>=', ...
            operator = _COMPARISONS[-1 - _COMPARISONS.index(operator)]
        else:
            return {}
        if bound is _NOT_FOUND or bound is None:
            return {}
        key, exclusive_key, exclusive = _BOUNDS[operator]
        return {key: bound, exclusive_key: exclusive}
    if term.name == "#operator_in" and _is_dollar(left):
        values = _constant(right)
        return {"enum": list(values)} if isinstance(values, tuple) else {}
    if term.name == "#operator_." and _is_dollar(left):
        method = _unwrapped(right)
        if isinstance(method, ir.Function) and method.name == "matches" and method.args:
            pattern = _constant(method.args[0])
            if pattern is not _NOT_FOUND and pattern is not None:
                return {"pattern": pattern}
    return {}


def _constant(tree: ir.Expr) -> Any:
    """The value of a literal expression (lists as tuples, as yaql freezes them), else _NOT_FOUND."""
    tree = _unwrapped(tree)
    if isinstance(tree, ir.Constant):
        return tree.value
    if isinstance(tree, ir.KeywordConstant):
        return tree.name
    if isinstance(tree, ir.Function):
        if tree.name in ("#list", "list") and not any(isinstance(a, ir.MappingRule)
                                                       for a in tree.args):
            items = tuple(_constant(item) for item in tree.args)
            return _NOT_FOUND if _NOT_FOUND in items else items
        if tree.name == "#unary_operator_-" and len(tree.args) == 1:
            value = _constant(tree.args[0])
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return -value
    return _NOT_FOUND
