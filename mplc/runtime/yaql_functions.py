"""Murano's yaql functions (the reference's dsl/yaql_functions.py and the cloud-free part of
engine/system/yaql_functions.py), written for mplc's object model, plus a safe ``format``."""

from __future__ import annotations

import base64
import binascii
import random
import string
import time

from yaql.language import specs, utils, yaqltypes
from yaql.language.expressions import Function, KeywordConstant, MappingRuleExpression

from mplc.runtime import errors, expressions, limits, statements
from mplc.runtime.activation import current_executor
from mplc.runtime.objects import MuranoObject, ObjectParameter, TypeParameter, TypeReference


_executor = current_executor


@specs.parameter("object_", ObjectParameter())
def id_(object_):
    return object_.object_id


@specs.parameter("object_", ObjectParameter())
@specs.parameter("type__", TypeParameter())
@specs.parameter("version_spec", yaqltypes.String(True))
def cast(context, object_, type__, version_spec=None):
    target = type__.type
    for part in object_.parts():  # a part casts to its own class and its ancestors only
        if part.type.name == target.name:
            return part
    raise errors.NoClassFound(target.name)


@specs.parameter("__type_name", TypeParameter())
@specs.parameter("__extra", utils.MappingType)
@specs.parameter("__owner", ObjectParameter(nullable=True))
@specs.parameter("__object_name", yaqltypes.String(True))
def new(__context, __type_name, __owner=None, __object_name=None, __extra=None, **parameters):
    return instantiate(_executor(), __context, __context[expressions.NAMES_SCOPE], __type_name, parameters,
                       __owner, __object_name, __extra)


def instantiate(executor, context, scope, type_reference, parameters, owner=None, name=None, extra=None):
    """What murano's ``new()`` builds: an object of ``type_reference`` from ``parameters``,
    named ``name``, with the keys of ``extra`` that start with ``_``, loaded by code running in
    ``context`` whose names resolve in ``scope``."""
    data = {type_reference: parameters, "name": name}
    for key, value in (extra or {}).items():
        if key.startswith("_"):
            data[key] = value
    return executor.load_object(data, owner, scope=scope, context=context)


@specs.parameter("type_name", TypeParameter())
@specs.parameter("parameters", utils.MappingType)
@specs.parameter("extra", utils.MappingType)
@specs.parameter("owner", ObjectParameter(nullable=True))
@specs.parameter("object_name", yaqltypes.String(True))
@specs.name("new")
def new_from_dict(type_name, context, parameters, owner=None, object_name=None, extra=None):
    return new(context, type_name, owner, object_name, extra,
               **utils.filter_parameters_dict(parameters))


@specs.name("new")
@specs.parameter("owner", ObjectParameter(nullable=True))
@specs.parameter("model", utils.MappingType)
def new_from_model(context, model, owner=None):
    return _executor().load_object(model, owner, scope=context[expressions.NAMES_SCOPE], context=context)


@specs.parameter("object_", ObjectParameter())
@specs.parameter("func", yaqltypes.Lambda())
def super_(context, object_, func=None):
    parents = [object_.cast(t) for t in context[expressions.TYPE].parents]
    return parents if func is None else map(func, parents)


@specs.parameter("object_", ObjectParameter())
@specs.parameter("func", yaqltypes.Lambda())
def psuper(context, object_, func=None):
    parents = super_(context, object_)
    if func is None:
        return parents
    return iter(statements.parallel_select(context, [lambda _, p=p: func(p) for p in parents]))


@specs.extension_method
def require(value):
    if value is None:
        raise ValueError("Required value is missing")
    return value


@specs.parameter("obj", ObjectParameter())
@specs.parameter("murano_class_ref", TypeParameter())
@specs.extension_method
def find(obj, murano_class_ref):
    owner = obj.real_this.owner
    while owner is not None:
        if murano_class_ref.type.is_compatible(owner):
            return owner
        owner = owner.owner
    return None


@specs.parameter("seconds", yaqltypes.Number())
def sleep_(seconds):
    statements.sleep(seconds)


@specs.parameter("object_", ObjectParameter(nullable=True))
def type_(object_):
    return None if object_ is None else object_.type.reference


@specs.name("type")
@specs.parameter("object_", ObjectParameter(nullable=True))
def type_legacy(object_):
    return None if object_ is None else object_.type.name


@specs.name("type")
@specs.parameter("cls", TypeParameter())
def type_from_name(cls):
    return cls


@specs.parameter("object_", ObjectParameter(nullable=True))
def typeinfo(object_):
    return None if object_ is None else object_.real_this.type


@specs.parameter("cls", TypeParameter())
@specs.name("typeinfo")
def typeinfo_for_class(cls):
    return cls.type


@specs.parameter("object_", ObjectParameter(nullable=True))
def name(object_):
    return None if object_ is None else object_.real_this.name


@specs.parameter("object_", ObjectParameter())
def metadata(object_):
    return object_.real_this.metadata


@specs.parameter("obj", ObjectParameter())
@specs.parameter("property_name", yaqltypes.Keyword())
@specs.name("#operator_.")
def obj_attribution(context, obj, property_name):
    return obj.get_property(property_name, context)


@specs.parameter("cls", TypeReference)
@specs.parameter("property_name", yaqltypes.Keyword())
@specs.name("#operator_.")
def obj_attribution_static(context, cls, property_name):
    return _executor().get_static_property(cls.type, property_name, context)


@specs.parameter("receiver", ObjectParameter())
@specs.parameter("expr", yaqltypes.Lambda(method=True))
@specs.inject("operator", yaqltypes.Super(with_context=True))
@specs.name("#operator_.")
def op_dot(context, receiver, expr, operator):
    linked = expressions.link(context, receiver.type.context)
    return operator(linked, receiver, expr)


@specs.parameter("receiver", TypeReference)
@specs.parameter("expr", yaqltypes.Lambda(method=True))
@specs.inject("operator", yaqltypes.Super(with_context=True))
@specs.name("#operator_.")
def op_dot_static(context, receiver, expr, operator):
    return operator(expressions.link(context, receiver.type.context), receiver, expr)


@specs.parameter("prefix", yaqltypes.Keyword())
@specs.parameter("name", yaqltypes.Keyword())
@specs.name("#operator_:")
def ns_resolve(context, prefix, name):
    return _executor().find_class(f"{prefix}:{name}", context[expressions.NAMES_SCOPE]).reference


@specs.parameter("name", yaqltypes.Keyword())
@specs.name("#unary_operator_:")
def ns_resolve_unary(context, name):
    return ns_resolve(context, "", name)


@specs.parameter("obj", ObjectParameter(nullable=True))
@specs.parameter("type_", TypeParameter())
@specs.name("#operator_is")
def is_instance_of(obj, type_):
    return obj is not None and type_.type.is_compatible(obj)


def is_object(value):
    return isinstance(value, (MuranoObject, TypeReference))


@specs.name("call")
@specs.parameter("name", yaqltypes.String())
@specs.parameter("args", yaqltypes.Sequence())
@specs.parameter("kwargs", utils.MappingType)
@specs.inject("op_dot", yaqltypes.Delegate("#operator_.", with_context=True))
@specs.inject("base", yaqltypes.Super(with_context=True))
def call_func(context, op_dot, base, name, args, kwargs, receiver=utils.NO_VALUE):
    """The method gets the values themselves, as in the reference: a null among them meets its
    contract (only a literal null written at a call site skips it)."""
    if isinstance(receiver, (MuranoObject, TypeReference)):
        arguments = tuple(args) + tuple(
            MappingRuleExpression(KeywordConstant(k), v)
            for k, v in utils.filter_parameters_dict(kwargs).items())
        return op_dot(context, receiver, Function(name, *arguments))
    return base(context, name, args, kwargs, receiver)


class _SafeFormatter(string.Formatter):
    """str.format without attribute or item access through fields (yaql 3.x dropped format
    because fields like ``{0.__class__}`` leak data)."""

    def get_field(self, field_name, args, kwargs):
        if any(c in field_name for c in ".["):
            raise ValueError(f"Invalid format field {{{field_name}}}")
        return super().get_field(field_name, args, kwargs)


_FORMATTER = _SafeFormatter()


@specs.parameter("format_", yaqltypes.String())
@specs.name("format")
@specs.extension_method
def format_(format_, *args, **kwargs):
    limits.check_format(None, format_, args, kwargs)
    plain = _PLAIN_FORMATS.get(format_)
    if plain is None:
        plain = _plain_format(format_)
        if len(_PLAIN_FORMATS) < 4096:
            _PLAIN_FORMATS[format_] = plain
    if plain:
        return format_.format(*args, **kwargs)
    return _FORMATTER.format(format_, *args, **kwargs)


_PLAIN_FORMATS: dict = {}


def _plain_format(format_: str) -> bool:
    """Whether no field of ``format_`` (nested ones in format specs included) reaches an
    attribute or item: then ``str.format`` is safe, and its errors are the reference's."""
    try:
        for _, field, spec, _ in _FORMATTER.parse(format_):
            if field is not None and any(c in field for c in ".["):
                return False
            if spec and not _plain_format(spec):
                return False
    except ValueError:
        return True
    return True


_DIGITS_36 = string.digits + string.ascii_lowercase
_random_name_counter = 0


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _DIGITS_36[digit] + digits
        if not number:
            return digits


def random_name():
    """A short unique host name, shaped as the reference's: 5 random letters, the time in
    milliseconds in base 36 (8 digits), a counter in base 36 (1-2 digits, cycling)."""
    global _random_name_counter
    _random_name_counter = _random_name_counter % 1295 + 1
    prefix = "".join(random.choice(string.ascii_lowercase) for _ in range(5))
    return prefix + _base36(int(time.time() * 1000))[:8] + _base36(_random_name_counter)


@specs.parameter("value", yaqltypes.String())
@specs.extension_method
def base64encode(value):
    return base64.b64encode(value.encode("utf-8")).decode("utf-8")


@specs.parameter("value", yaqltypes.String())
@specs.extension_method
def base64decode(value):
    """Bad base64 is a TypeError, as oslo.serialization (the reference's decoder) reports it."""
    try:
        decoded = base64.b64decode(value)
    except binascii.Error as error:
        raise TypeError(str(error)) from None
    return decoded.decode("utf-8")


def trace(value):
    """``trace(value)``: record a value in the executor's trace (``Executor(trace=True)``);
    null, as the function of Murano's test runner returns."""
    executor = _executor()
    if executor.trace is not None:
        executor.trace.append(value)


def register(context, version):
    limits.register(context)
    for function in (cast, new, new_from_dict, new_from_model, id_, super_, psuper, require, find,
                     sleep_, typeinfo, typeinfo_for_class, name, metadata, obj_attribution,
                     obj_attribution_static, op_dot, op_dot_static, ns_resolve, ns_resolve_unary,
                     is_instance_of, call_func, format_, random_name, base64encode, base64decode,
                     trace):
        context.register_function(function)
    context.register_function(type_legacy if version <= (1, 3) else type_)
    if expressions.is_legacy(version):
        context = context.create_child_context()
        for name_ in ("id", "cast", "super", "psuper", "type"):
            for spec in utils.to_extension_method(name_, context):
                context.register_function(spec)
    context.register_function(type_from_name)
    context.register_function(is_object)
    return context
