"""Contract IR -> draft-04 json-schema fragment, as the reference's schema generator builds it.

Expression contracts are read as method chains on ``$`` (the reference evaluates them with each
contract function returning a schema instead of a value): ``string()``/``int()``/``bool()``
give a nullable type, ``notNull()`` drops ``null``, ``class()``/``template()`` give a
``muranoObject``, ``owned()``/``notOwned()`` set ``owned``. ``check()`` predicates are split
at every ``and`` and each term contributes what it states about ``$`` with constants:
comparisons (minimum/maximum), ``len($)`` comparisons (minLength/maxLength, minItems/maxItems
for arrays), ``$ in <constant list>`` (enum) and regex matches (pattern). Terms about
``$.property`` of a ``class()``/``template()`` value go to its ``context`` schema (the schema of
the object's properties). Constants are the literals the compiler can see; anything else
contributes nothing.

Where the forms issue asks for more than the reference emits, the additions are keywords a
dashboard ignores or that make the schema stricter only where the contract already is:

- lists carry ``minItems``/``maxItems`` from their counts (the reference drops them);
- ``class()``/``template()`` always carry ``owned`` (``null`` when neither ``owned()`` nor
  ``notOwned()`` is given; the reference omits it) and ``version`` when a version spec is given;
- every term of ``A and B and C`` counts (the reference looks only at the last one), comparisons
  only bound numbers, and ``10 > $`` reads as ``$ < 10`` (the reference mirrors it to ``<=``);
- a scalar constant contract is ``{"enum": [value]}`` (the reference emits null, not a schema);
- ``{}`` (any dict) is ``{"type": "object"}`` (the reference allows only the empty dict).
"""

from __future__ import annotations

import datetime
from typing import Any, Callable

from mplc import ir
from mplc.contracts.compiler import bind_arguments, method_chain

NOT_CONSTANT = object()
_MIRRORED = {"#operator_>": "#operator_<", "#operator_<": "#operator_>",
             "#operator_>=": "#operator_<=", "#operator_<=": "#operator_>=",
             "*equal": "*equal"}
_BOUNDS = {
    "#operator_>": ("minimum", "exclusiveMinimum", True),
    "#operator_>=": ("minimum", "exclusiveMinimum", False),
    "#operator_<": ("maximum", "exclusiveMaximum", True),
    "#operator_<=": ("maximum", "exclusiveMaximum", False),
}
# len(x) <op> n -> (lower bound, upper bound) on the length
_LENGTH_BOUNDS = {
    "#operator_>": lambda n: (n + 1, None),
    "#operator_>=": lambda n: (n, None),
    "#operator_<": lambda n: (None, n - 1),
    "#operator_<=": lambda n: (None, n),
    "*equal": lambda n: (n, n),
}
_LENGTH_KEYWORDS = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems"),
                    "object": ("minProperties", "maxProperties")}
_OBJECT_TYPE = "muranoObject"


def contract_schema(contract: ir.Contract,
                    full_name: Callable[[str], str] = str) -> dict[str, Any]:
    """The json-schema of a contract.

    ``full_name`` resolves a class name written as a bare word or string (``Foo``) in the
    declaring class's namespaces; ``ns:Foo`` is already resolved in the IR.
    """
    if isinstance(contract, ir.ContractDict):
        if not contract.fixed and contract.expression_key is None:
            return {"type": "object"}
        properties = {str(key): contract_schema(spec, full_name) for key, spec in contract.fixed}
        additional = False if contract.expression_key is None \
            else contract_schema(contract.expression_key[1], full_name)
        return {"type": "object", "properties": properties, "additionalProperties": additional}
    if isinstance(contract, ir.ContractList):
        return _list_schema(contract, full_name)
    if isinstance(contract, ir.ContractExpression):
        return _expression_schema(contract.expression.tree, full_name)
    return {"enum": [json_value(contract.value)]}


def is_not_null(contract: ir.Contract | None) -> bool:
    """Whether the contract rejects null: an expression chain with ``notNull()``."""
    if not isinstance(contract, ir.ContractExpression):
        return False
    return any(call.name == "notNull" for call in method_chain(contract.expression.tree) or ())


def json_value(value: Any) -> Any:
    """A YAML scalar as JSON data (dates as ISO text, as the object model writes them)."""
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def _list_schema(contract: ir.ContractList, full_name: Callable[[str], str]) -> dict[str, Any]:
    items = [contract_schema(item, full_name) for item in contract.items]
    schema: dict[str, Any] = {"type": "array"}
    if len(items) == 1:
        schema["items"] = items[0]
    elif items:
        schema.update(items=items, additionalItems=items[-1])
    if contract.min_length:
        schema["minItems"] = contract.min_length
    if contract.max_length is not None:
        schema["maxItems"] = contract.max_length
    return schema


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
        return _object_schema(name, arguments, schema, full_name)
    if name == "check":
        for term in _and_terms(arguments["predicate"]):
            for path, fragment in _pattern(term, _types(schema)):
                _merge(schema, path, fragment)
    return schema


def _object_schema(name: str, arguments: dict[str, ir.Expr], schema: dict[str, Any],
                   full_name: Callable[[str], str]) -> dict[str, Any]:
    type_argument = arguments.get("name", arguments.get("type"))
    result = {"type": _nullable(_OBJECT_TYPE, schema),
              "muranoType": _type_name(type_argument, full_name),
              "owned": True if name == "template" else None}
    if "_notNull" in schema:
        result["_notNull"] = True
    version = constant_value(arguments["versionSpec"]) if "versionSpec" in arguments else None
    if isinstance(version, (str, int, float)) and not isinstance(version, bool):
        result["version"] = str(version)
    if name == "template" and "excludeProperties" in arguments:
        excluded = constant_value(arguments["excludeProperties"])
        if isinstance(excluded, tuple) and excluded:
            result["excludedProperties"] = list(excluded)
    return result


def _types(schema: dict[str, Any]) -> set[str]:
    types = schema.get("type", ())
    return {types} if isinstance(types, str) else set(types)


def _merge(schema: dict[str, Any], path: tuple[str, ...], fragment: dict[str, Any]) -> None:
    """Put ``fragment`` at ``path`` under the object's ``context`` schema (``()``: the value)."""
    if path:
        if _OBJECT_TYPE not in _types(schema):
            return
        schema = schema.setdefault("context", {"type": "object", "properties": {}})
        for name in path[:-1]:
            schema = schema["properties"].setdefault(name, {"type": "object", "properties": {}})
        schema = schema["properties"].setdefault(path[-1], {})
    schema.update(fragment)


def _type_name(argument: ir.Expr, full_name: Callable[[str], str]) -> str | None:
    argument = _unwrapped(argument)
    if isinstance(argument, ir.TypeName):
        return argument.full_name
    value = constant_value(argument)
    return full_name(value) if isinstance(value, str) else None


def _and_terms(predicate: ir.Expr) -> list[ir.Expr]:
    predicate = _unwrapped(predicate)
    if isinstance(predicate, ir.Function) and predicate.name == "#operator_and" \
            and len(predicate.args) == 2:
        return _and_terms(predicate.args[0]) + _and_terms(predicate.args[1])
    return [predicate]


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


def _lengthproperty_path(tree: ir.Expr) -> tuple[str, ...] | None:
    """The subject of ``len(subject)`` or ``subject.len()``."""
    tree = _unwrapped(tree)
    if not isinstance(tree, ir.Function):
        return None
    if tree.name == "len" and len(tree.args) == 1:
        return property_path(tree.args[0])
    if tree.name == "#operator_." and len(tree.args) == 2:
        method = _unwrapped(tree.args[1])
        if isinstance(method, ir.Function) and method.name == "len" and not method.args:
            return property_path(tree.args[0])
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _pattern(term: ir.Expr, types: set[str]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """What one check() term states, as (subject path, schema fragment) pairs."""
    term = _unwrapped(term)
    if not isinstance(term, ir.Function) or len(term.args) != 2:
        return []
    left, right = term.args
    if term.name in _MIRRORED:
        return _comparison(term.name, left, right, types) \
            or _comparison(_MIRRORED[term.name], right, left, types)
    if term.name == "#operator_in":
        path, values = property_path(left), constant_value(right)
        if path is not None and isinstance(values, tuple):
            return [(path, {"enum": [json_value(value) for value in values]})]
        return []
    return _regex(term)


def _comparison(operator: str, left: ir.Expr, right: ir.Expr,
                types: set[str]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    bound = constant_value(right)
    if not _is_number(bound):
        return []
    path = property_path(left)
    if path is not None and operator in _BOUNDS:
        key, exclusive_key, exclusive = _BOUNDS[operator]
        return [(path, {key: bound, exclusive_key: exclusive})]
    path = _lengthproperty_path(left)
    if path is None or not isinstance(bound, int):
        return []
    lower, upper = _LENGTH_BOUNDS[operator](bound)
    if upper is not None and upper < 0:
        return []
    subject_types = types if not path else set()
    kinds = [kind for kind in _LENGTH_KEYWORDS if kind in subject_types] or list(_LENGTH_KEYWORDS)
    fragment = {}
    for kind in kinds:
        minimum_key, maximum_key = _LENGTH_KEYWORDS[kind]
        if lower:
            fragment[minimum_key] = lower
        if upper is not None:
            fragment[maximum_key] = upper
    return [(path, fragment)] if fragment else []


def _regex(term: ir.Function) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """``$.matches(p)``, ``matches($, p)``, ``regex(p).matches($)`` -> pattern ``p``."""
    if term.name == "matches":
        subject, pattern = term.args
    elif term.name == "#operator_.":
        receiver, method = _unwrapped(term.args[0]), _unwrapped(term.args[1])
        if not isinstance(method, ir.Function) or method.name != "matches" \
                or len(method.args) != 1:
            return []
        subject, pattern = receiver, method.args[0]
        if isinstance(receiver, ir.Function) and receiver.name == "regex" \
                and len(receiver.args) == 1:
            subject, pattern = method.args[0], receiver.args[0]
    else:
        return []
    path, pattern = property_path(subject), constant_value(pattern)
    if path is None or not isinstance(pattern, str):
        return []
    return [(path, {"pattern": pattern})]


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
        if tree.name == "#unary_operator_-" and len(tree.args) == 1:
            value = constant_value(tree.args[0])
            if _is_number(value):
                return -value
    return NOT_CONSTANT
