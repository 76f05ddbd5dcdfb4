"""Contract IR -> draft-04 json-schema fragment, as the reference's schema generator builds it.

Expression contracts are read as method chains on ``$`` (the reference evaluates them with each
contract function returning a schema instead of a value): ``string()``/``int()``/``bool()``
give a nullable type, ``notNull()`` drops ``null``, ``class()``/``template()`` give a
``muranoObject``, ``owned()``/``notOwned()`` set ``owned``. A ``check()`` predicate is split at
``and`` as the reference splits it (the left operand of each ``and`` down the right spine; a
left operand that is itself an ``and`` states nothing), and a term states a bound
(``$ > 5``), an ``enum`` (``$ in [a, b]``) or a ``pattern`` (``$.matches('...')``) when its
other side is a literal constant.

Where the reference's schema contradicts the contract, mplc follows the contract
(docs/fidelity.md): ``10 > $`` reads as ``$ < 10`` (the reference mirrors it to ``<=``), bounds
are numbers only, ``{}`` (any dict) is ``{"type": "object"}`` (the reference allows only the
empty dict) and a scalar constant contract is ``{"enum": [value]}`` (the reference fails).
"""

from __future__ import annotations

import datetime
import operator
from typing import Any, Callable

from mplc import ir
from mplc.contracts.compiler import bind_arguments, method_chain

NOT_CONSTANT = object()
_MIRRORED = {"#operator_>": "#operator_<", "#operator_<": "#operator_>",
             "#operator_>=": "#operator_<=", "#operator_<=": "#operator_>="}
_BOUNDS = {
    "#operator_>": ("minimum", "exclusiveMinimum", True),
    "#operator_>=": ("minimum", "exclusiveMinimum", False),
    "#operator_<": ("maximum", "exclusiveMaximum", True),
    "#operator_<=": ("maximum", "exclusiveMaximum", False),
}
_OBJECT_TYPE = "muranoObject"
_ARITHMETIC = {"#operator_+": operator.add, "#operator_-": operator.sub,
               "#operator_*": operator.mul, "#operator_/": operator.truediv,
               "#operator_mod": operator.mod}


def contract_schema(contract: ir.Contract,
                    class_name: Callable[[str | ir.TypeName], str] = str) -> dict[str, Any]:
    """The json-schema of a contract.

    ``class_name`` gives the full name of the class a ``class()``/``template()`` names: a bare
    word or string (``Foo``) as written, or an ``ns:Foo`` already resolved in the IR. It may
    raise when the class does not exist.
    """
    if isinstance(contract, ir.ContractDict):
        if not contract.fixed and contract.expression_key is None:
            return {"type": "object"}
        properties = {json_key(key): contract_schema(spec, class_name)
                      for key, spec in contract.fixed}
        additional = False if contract.expression_key is None \
            else contract_schema(contract.expression_key[1], class_name)
        return {"type": "object", "properties": properties, "additionalProperties": additional}
    if isinstance(contract, ir.ContractList):
        return _list_schema(contract, class_name)
    if isinstance(contract, ir.ContractExpression):
        return _expression_schema(contract.expression.tree, class_name)
    return {"enum": [json_value(contract.value)]}


class ContractViolation(Exception):
    """A constant value a contract refuses (the message says why, as the engine says it)."""


def transformed(contract: ir.Contract | None, value: Any) -> Any:
    """A constant value as an expression contract's ``string()``, ``int()``, ``bool()`` and
    ``notNull()`` make it (``5`` through ``$.string()`` is ``"5"``); other parts of the contract
    leave it as it is. Raises ContractViolation."""
    if not isinstance(contract, ir.ContractExpression):
        return value
    for call in method_chain(contract.expression.tree) or ():
        if call.name == "notNull" and value is None:
            raise ContractViolation("null value violates notNull() contract")
        if value is None or call.name not in ("string", "int", "bool"):
            continue
        if call.name == "bool":
            value = bool(value)
        elif call.name == "string" and not isinstance(value, str):
            if not isinstance(value, int):
                raise ContractViolation(f"Value {value!r} violates string() contract")
            value = str(value)
        elif call.name == "int":
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise ContractViolation(f"Value {value!r} violates int() contract") from None
    return value


def json_value(value: Any) -> Any:
    """A YAML scalar as JSON data (dates as ISO text, as the object model writes them)."""
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def json_key(key: Any) -> str:
    """A YAML mapping key as a JSON object key, spelled as ``json.dumps`` spells it
    (``true``, ``null``, ``2.5``), which is how the reference's keys reach its clients."""
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    return str(key)


def _list_schema(contract: ir.ContractList,
                 class_name: Callable[[str | ir.TypeName], str]) -> dict[str, Any]:
    """Integer (and boolean) items state nothing, wherever they stand, as in the reference."""
    items = [contract_schema(item, class_name) for item in contract.items
             if not (isinstance(item, ir.ContractConstant) and isinstance(item.value, int))]
    schema: dict[str, Any] = {"type": "array"}
    if len(items) == 1:
        schema["items"] = items[0]
    elif items:
        schema.update(items=items, additionalItems=items[-1])
    return schema


def _expression_schema(tree: ir.Expr,
                       class_name: Callable[[str | ir.TypeName], str]) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    for call in method_chain(tree) or ():
        arguments = bind_arguments(call)
        if arguments is None:
            continue
        schema = _apply(call.name, arguments, schema, class_name)
    schema.pop("_notNull", None)
    return schema


def _nullable(json_type: str, schema: dict[str, Any]) -> Any:
    return json_type if "_notNull" in schema else [json_type, "null"]


def _apply(name: str, arguments: dict[str, ir.Expr], schema: dict[str, Any],
           class_name: Callable[[str | ir.TypeName], str]) -> dict[str, Any]:
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
        return _object_schema(name, arguments, schema, class_name)
    if name == "check":
        for term in _and_terms(arguments["predicate"]):
            schema.update(_pattern(term))
    return schema


def _object_schema(name: str, arguments: dict[str, ir.Expr], schema: dict[str, Any],
                   class_name: Callable[[str | ir.TypeName], str]) -> dict[str, Any]:
    result = {"type": _nullable(_OBJECT_TYPE, schema),
              "muranoType": _type_name(arguments.get("name", arguments.get("type")), class_name)}
    if name == "template":
        result["owned"] = True
        excluded = constant_value(arguments["excludeProperties"]) \
            if "excludeProperties" in arguments else None
        if isinstance(excluded, tuple) and excluded:
            result["excludedProperties"] = list(excluded)
    return result


def _type_name(argument: ir.Expr, class_name: Callable[[str | ir.TypeName], str]) -> str | None:
    argument = _unwrapped(argument)
    if isinstance(argument, ir.TypeName):
        return class_name(argument)
    value = constant_value(argument)
    return class_name(value) if isinstance(value, str) else None


def _and_terms(predicate: ir.Expr) -> list[ir.Expr]:
    """The terms the reference reads: the left operand of each ``and`` down the right spine,
    then the last right operand (a parenthesised ``and`` is one term, stating nothing)."""
    terms = []
    while isinstance(predicate, ir.Function) and predicate.name == "#operator_and" \
            and len(predicate.args) == 2:
        terms.append(predicate.args[0])
        predicate = predicate.args[1]
    return terms + [predicate]


def _unwrapped(tree: ir.Expr) -> ir.Expr:
    while isinstance(tree, ir.Wrap):
        tree = tree.expr
    return tree


def property_path(tree: ir.Expr) -> tuple[str, ...] | None:
    """``()`` for ``$``, ``("a", "b")`` for ``$.a.b``; None for anything else."""
    tree = _unwrapped(tree)
    if isinstance(tree, ir.GetContextValue):
        return () if tree.name in ("$", "$1") else None
    if isinstance(tree, ir.Function) and tree.name == "#operator_." and len(tree.args) == 2:
        name = _unwrapped(tree.args[1])
        owner = property_path(tree.args[0])
        if owner is not None and isinstance(name, ir.KeywordConstant):
            return owner + (name.name,)
    return None


def _is_dollar(tree: ir.Expr) -> bool:
    """``$`` itself, as the reference recognises it (not ``($)``)."""
    return isinstance(tree, ir.GetContextValue) and tree.name in ("$", "$1")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _pattern(term: ir.Expr) -> dict[str, Any]:
    """What one check() term states about ``$``: a bound, an enum or a pattern."""
    if not isinstance(term, ir.Function) or len(term.args) != 2:
        return {}
    left, right = term.args
    if term.name in _BOUNDS:
        if _is_dollar(left):
            return _bound(term.name, right)
        if _is_dollar(right):
            return _bound(_MIRRORED[term.name], left)
        return {}
    if term.name == "#operator_in" and _is_dollar(left):
        values = constant_value(right)
        return {"enum": [json_value(value) for value in values]} \
            if isinstance(values, tuple) else {}
    if term.name == "#operator_." and _is_dollar(left):
        if isinstance(right, ir.Function) and right.name == "matches" and len(right.args) == 1:
            pattern = constant_value(right.args[0])
            if isinstance(pattern, str):
                return {"pattern": pattern}
    return {}


def _bound(operator: str, constant: ir.Expr) -> dict[str, Any]:
    bound = constant_value(constant)
    if not _is_number(bound):
        return {}
    key, exclusive_key, exclusive = _BOUNDS[operator]
    return {key: bound, exclusive_key: exclusive}


def constant_value(tree: ir.Expr) -> Any:
    """The value of a literal expression (lists as tuples, as yaql freezes them), else NOT_CONSTANT."""
    tree = _unwrapped(tree)
    if isinstance(tree, ir.Constant):
        return tree.value
    if isinstance(tree, ir.KeywordConstant):
        return tree.name
    if isinstance(tree, ir.Function):
        if tree.name in ("#list", "list") and not any(isinstance(a, ir.MappingRule)
                                                       for a in tree.args):
            items = tuple(constant_value(item) for item in tree.args)
            return NOT_CONSTANT if NOT_CONSTANT in items else items
        if tree.name in ("#unary_operator_-", "#unary_operator_+") and len(tree.args) == 1:
            value = constant_value(tree.args[0])
            if _is_number(value):
                return -value if tree.name == "#unary_operator_-" else value
        if tree.name in _ARITHMETIC and len(tree.args) == 2:
            return _arithmetic(tree.name, constant_value(tree.args[0]),
                               constant_value(tree.args[1]))
    return NOT_CONSTANT


def _arithmetic(operator: str, left: Any, right: Any) -> Any:
    """yaql's arithmetic on two constants (the reference evaluates any expression without
    ``$`` as a bound): numbers, ``/`` of integers rounding down; ``+`` also joins strings and
    lists."""
    if operator == "#operator_+" and (isinstance(left, str) and isinstance(right, str)
                                      or isinstance(left, tuple) and isinstance(right, tuple)):
        return left + right
    if not (_is_number(left) and _is_number(right)):
        return NOT_CONSTANT
    if operator in ("#operator_/", "#operator_mod") and right == 0:
        return NOT_CONSTANT
    if operator == "#operator_/" and isinstance(left, int) and isinstance(right, int):
        return left // right
    return _ARITHMETIC[operator](left, right)
