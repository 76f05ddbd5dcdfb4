"""Runtime primitives of compiled contracts, and the yaql functions of contract expressions.

A compiled validator is ``def validator(value, cc)``: a chain of the primitives below, each
taking the value and the ``ContractContext`` and returning the (possibly transformed) value.
The primitives behave as the reference engine's contract methods in each of its modes
(``cc.mode``): transform (the usual apply), validate (a property re-declared up the class
hierarchy), check_type (does an extension method apply to this receiver) and finalize.

Contract expressions the compiler cannot turn into primitive calls are evaluated as yaql
(``evaluate_contract``) in a context where the contract functions (``string``, ``class``,
``check``, ...) are registered as methods, as the reference evaluates every contract.

Everything the runtime knows about objects, types and the object store is reached through
``ContractContext`` hooks that the runtime implements in a subclass.
"""

from __future__ import annotations

import collections.abc

from yaql.language import contexts as yaql_contexts
from yaql.language import conventions as yaql_conventions
from yaql.language import specs as yaql_specs
from yaql.language import utils as yaql_utils
from yaql.language import yaqltypes

from mplc.runtime.expressions import engine_for, finalize as freeze
from mplc.runtime.errors import ContractViolationException, DslContractSyntaxError, NoObjectFoundError
from mplc.runtime.value_types import NUMBERS

# Modes of one contract application (the reference's transform / validate / check_type /
# finalize, with transform split by whether template() values are finalized to dicts).
TRANSFORM = 0
TRANSFORM_UNFINALIZED = 1
VALIDATE = 2
CHECK_TYPE = 3
FINALIZE = 4

PASSKEY = yaql_utils.create_marker("<Contract Passkey>")
"""Stands for a property excluded from a template(): every contract passes it untouched."""

CONTEXT_KEY = "?contractContext"
"""The yaql context key under which contract functions find their ContractContext."""


class ObjectReference:
    """An object id met while the object model is still loading and the object is not yet built."""

    __slots__ = ("object_id",)

    def __init__(self, object_id: str):
        self.object_id = object_id

    def __repr__(self) -> str:
        return f"ObjectReference({self.object_id!r})"


class ContractContext:
    """What a validator needs from the code applying it; the runtime implements it in a subclass.

    Attributes the subclass sets for each application:

    - ``this``: the object whose property or method argument is checked (None for static ones);
    - ``owner``: the owner of objects created from dicts;
    - ``calling_type``: the class whose code supplies the value (scope of type names in models);
    - ``context``: the yaql context of ``this`` cast to the class declaring the property or
      method, or of that class for static ones ("the declaring type" below): check()
      predicates run in a child of it with ``$`` bound to the value, and contract expressions
      evaluated as yaql see its variables;
    - ``mode``: TRANSFORM, TRANSFORM_UNFINALIZED, VALIDATE, CHECK_TYPE or FINALIZE.

    Types and objects are the runtime's own; ``str(type)`` (``MuranoClass(name/version)``) and
    ``str(obj)`` appear in violation messages as the reference prints them.
    """

    __slots__ = ()

    @property
    def initializing(self) -> bool:
        """True while an object model is loading, when ids may name objects not built yet."""
        raise NotImplementedError

    def evaluate(self, expression, context):
        """Evaluate a hoisted expression as ``_r.evaluate`` does, letting
        ContractViolationException (and every other error) through unchanged."""
        raise NotImplementedError

    def find_class(self, name):
        """The type a written class name (``Foo``, ``ns:Foo``, ``a.b.Foo``) or a type reference
        value names, resolved in the declaring type's namespaces and package."""
        raise NotImplementedError

    def is_object(self, value) -> bool:
        """Whether ``value`` is a MuranoPL object."""
        raise NotImplementedError

    def object_id(self, obj) -> str:
        raise NotImplementedError

    def object_type(self, obj):
        raise NotImplementedError

    def object_owner(self, obj):
        """The object owning ``obj``, or None."""
        raise NotImplementedError

    def is_instance_of(self, obj, murano_type, version_spec) -> bool:
        """Whether the object ``obj`` is an instance of ``murano_type``'s name within
        ``version_spec`` (None: the versions the declaring type's package requires)."""
        raise NotImplementedError

    def get_object(self, object_id):
        """The object with this id, or None."""
        raise NotImplementedError

    def load_object(self, model, default_type):
        """A new object owned by ``owner`` from a dict object model (types scoped by
        ``calling_type``; ``default_type`` when the model names none)."""
        raise NotImplementedError

    def load_template(self, model, default_type, exclude_properties):
        """A dry-run object from a dict model, with each excluded property path (``a.b``) of
        the model replaced by ``PASSKEY``."""
        raise NotImplementedError

    def serialize_template(self, obj, exclude_properties):
        """The object model dict of a template object without the excluded property paths;
        ``{}`` while the object model is still loading."""
        raise NotImplementedError


def format_scalar(value) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    return str(value)


def check_type(validator, value, cc: ContractContext) -> bool:
    """Whether ``value`` satisfies the contract; ``cc.mode`` must be CHECK_TYPE."""
    if value is PASSKEY:
        return False
    try:
        validator(value, cc)
    except ContractViolationException:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Contract methods
# ---------------------------------------------------------------------------------------------

_SCALAR_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "null": type(None)}


def passes_unchanged(*type_names, when=None):
    """Marks a validator that returns values of exactly these types untouched in every mode (the
    compiler proves it for chains of string/int/bool/notNull), or, with ``when``, those for
    which ``when(value, None, engine)`` holds (a final check() of a number): callers may skip it."""
    def mark(validator):
        types = frozenset(_SCALAR_TYPES[name] for name in type_names)
        if when is None:
            validator.passes_unchanged = types
        else:
            validator.passes_unchanged_when = (types, when)
        return validator
    return mark


def unchanged_types(validator) -> frozenset:
    """The exact types ``validator`` (or a missing contract: none) always passes untouched."""
    return getattr(validator, "passes_unchanged", frozenset())


def conditionally_unchanged(validator) -> tuple:
    """``(types, when)``: values of these exact types pass ``validator`` untouched when
    ``when(value, None, engine)`` holds; ``(frozenset(), None)`` for other validators."""
    return getattr(validator, "passes_unchanged_when", (frozenset(), None))


def passes_objects(lists=False):
    """Marks a validator that is ``class(...)`` followed by nothing but ``notNull()`` (with
    ``lists``: a list contract of one such spec and no length bounds): its verdict on an object
    (on each object of a list or tuple) depends on the object's class alone, and an object it
    passes comes back unchanged (the items of a list as a tuple), so callers may remember the
    classes it passed (the compiler proves the shape)."""
    def mark(validator):
        validator.passes_objects = lists
        return validator
    return mark


def object_acceptance(validator):
    """None, or for a validator ``passes_objects`` marks whether it takes lists."""
    return getattr(validator, "passes_objects", None)


def string(value, cc: ContractContext):
    mode = cc.mode
    if mode == FINALIZE or value is None or isinstance(value, str):
        return value
    if mode >= VALIDATE:
        raise ContractViolationException()
    if isinstance(value, int):
        return str(value)
    if cc.is_object(value):
        return cc.object_id(value)
    raise ContractViolationException(f"Value {format_scalar(value)} violates string() contract")


def integer(value, cc: ContractContext):
    mode = cc.mode
    if mode == FINALIZE or value is None:
        return value
    if mode >= VALIDATE:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ContractViolationException()
    try:
        return int(value)
    except Exception:
        raise ContractViolationException(
            f"Value {format_scalar(value)} violates int() contract") from None


def boolean(value, cc: ContractContext):
    mode = cc.mode
    if mode == FINALIZE or value is None:
        return value
    if mode >= VALIDATE:
        if isinstance(value, bool):
            return value
        raise ContractViolationException()
    return True if value else False


def not_null(value, cc: ContractContext):
    if value is None and cc.mode != FINALIZE:
        raise ContractViolationException("null value violates notNull() contract")
    return value


_ENGINE = engine_for((1, 3))  # numeric predicates use the engine only for its memory quota


def check(value, cc: ContractContext, predicate, message, numeric=None):
    """``check(predicate, message)``: ``predicate`` is a hoisted expression run with ``$`` = value;
    ``numeric``, when the compiler made one, computes it for a number without a context."""
    if cc.mode == FINALIZE or isinstance(value, ObjectReference):
        return value
    if numeric is not None and type(value) in NUMBERS:
        return _checked(value, numeric(value, None, _ENGINE), message)
    context = cc.context.create_child_context()
    context["$"] = value
    return _checked(value, cc.evaluate(predicate, context), message)


def _checked(value, passed, message):
    if passed:
        return value
    raise ContractViolationException(
        message or f"Value {format_scalar(value)} doesn't match predicate")


def _validate_instance(value, cc: ContractContext, murano_type, version_spec):
    if value is None or (cc.is_object(value)
                         and cc.is_instance_of(value, murano_type, version_spec)):
        return value
    if not cc.is_object(value):
        raise ContractViolationException("Value is not an object")
    raise ContractViolationException(
        f"Object of type {cc.object_type(value)} is not compatible with requested type "
        f"{murano_type}")


def _cannot_represent(value, murano_type):
    return ContractViolationException(
        f"Value {format_scalar(value)} cannot be represented as class {murano_type}")


def class_instance(value, cc: ContractContext, type_name, default_type_name=None,
                   version_spec=None):
    """``class(type, defaultType, versionSpec)``: an object, or a dict model / object id of one."""
    murano_type = cc.find_class(type_name)
    default_type = murano_type if default_type_name is None else cc.find_class(default_type_name)
    mode = cc.mode
    if mode == FINALIZE:
        return value
    if mode >= VALIDATE:
        return _validate_instance(value, cc, murano_type, version_spec)
    if type(value) is ObjectReference:
        value = value.object_id
    if value is None:
        return None
    if type(value) is dict:
        obj = cc.load_object(value, default_type)
    elif cc.is_object(value):
        obj = value
    elif isinstance(value, collections.abc.Mapping):
        obj = cc.load_object(value, default_type)
    elif isinstance(value, str):
        obj = cc.get_object(value)
        if obj is None:
            if not cc.initializing:
                raise NoObjectFoundError(value)
            return ObjectReference(value)
    else:
        raise _cannot_represent(value, murano_type)
    return _validate_instance(obj, cc, murano_type, version_spec)


def template(value, cc: ContractContext, type_name, default_type_name=None, version_spec=None,
             exclude_properties=None):
    """``template(type, defaultType, versionSpec, excludeProperties)``: an object model dict
    checked by building a dry-run object of the type."""
    murano_type = cc.find_class(type_name)
    default_type = murano_type if default_type_name is None else cc.find_class(default_type_name)
    mode = cc.mode
    if mode == FINALIZE:
        return _finalize_template(value, cc, exclude_properties)
    if mode == CHECK_TYPE and isinstance(value, collections.abc.Mapping):
        return value
    if mode >= VALIDATE:
        return _validate_instance(value, cc, murano_type, version_spec)
    if value is None:
        return None
    if cc.is_object(value):
        obj = value
    elif isinstance(value, collections.abc.Mapping):
        obj = cc.load_template(value, default_type, exclude_properties)
    else:
        raise _cannot_represent(value, murano_type)
    obj = _validate_instance(obj, cc, murano_type, version_spec)
    if mode == TRANSFORM:
        return _finalize_template(obj, cc, exclude_properties)
    return obj


def _finalize_template(value, cc: ContractContext, exclude_properties):
    if value is None:
        return None
    if not cc.is_object(value) and not cc.initializing:
        # a model dict finalized again (a static property's write): the reference reads the
        # object's real_this from it
        raise AttributeError("'FrozenDict' object has no attribute 'real_this'")
    return cc.serialize_template(value, exclude_properties)


def _owned_by_this(value, cc: ContractContext) -> bool:
    owner = cc.object_owner(value)
    while owner is not None:
        if owner is cc.this:
            return True
        owner = cc.object_owner(owner)
    return False


def owned(value, cc: ContractContext):
    if cc.mode == FINALIZE or value is None or isinstance(value, ObjectReference):
        return value
    if not cc.is_object(value):
        raise ContractViolationException(f"Value {value} is not an object")
    if _owned_by_this(value, cc):
        return value
    raise ContractViolationException(f"Object {value} violates owned() contract")


def not_owned(value, cc: ContractContext):
    if cc.mode == FINALIZE or value is None or isinstance(value, ObjectReference):
        return value
    if not cc.is_object(value):
        raise ContractViolationException(f"Value {value} is not an object")
    if _owned_by_this(value, cc):
        raise ContractViolationException(f"Object {value} violates notOwned() contract")
    return value


# ---------------------------------------------------------------------------------------------
# Structural contracts: lists, dicts, constants
# ---------------------------------------------------------------------------------------------

def list_of(value, cc: ContractContext, item_validators, min_length, max_length):
    """``[spec, ..., min, max]``: item ``i`` checked by ``item_validators[i]`` or the last one.

    ``item_validators`` None (the spec ``[]``) accepts any value unchanged, as the reference;
    an empty tuple (bounds only, ``[0]``) has no contract for any item.
    """
    if type(value) is tuple or type(value) is list:
        pass
    elif isinstance(value, collections.abc.Iterator):
        value = list(value)
    elif not isinstance(value, collections.abc.Sequence) or isinstance(value, str):
        value = [] if value is None else [value]
    if item_validators is None:
        return value
    length = len(value)
    if max_length is not None and not min_length <= length <= max_length:
        raise ContractViolationException(
            f"Array length {length} is not within [{min_length}..{max_length}] range", path=None)
    if length < min_length:
        raise ContractViolationException(
            f"Array length {length} must not be less than {min_length}", path=None)
    if not item_validators:
        if value:
            # The reference indexes its spec for the item's contract and finds none.
            raise IndexError("list index out of range")
        return tuple(value)
    last = len(item_validators) - 1
    result = []
    for index, item in enumerate(value):
        validator = item_validators[index] if index < last else item_validators[last]
        try:
            result.append(validator(item, cc))
        except ContractViolationException as error:
            if error.path is not None:
                error.path = f"[{index}]{error.path}"
            raise
    return tuple(result)


def dict_of(value, cc: ContractContext, fixed, key_validator, value_validator,
            second_expression_key=False):
    """``{key: spec, ..., <expression key>: spec}``; ``fixed`` is ((key, validator), ...).

    ``second_expression_key``: the spec has more than one expression key, which the reference
    accepts when loading and rejects when the contract runs, after mapping the literal keys.
    """
    if value is None:
        value = {}
    if not isinstance(value, collections.abc.Mapping):
        raise ContractViolationException(
            f"Value {format_scalar(value)} is not of a dictionary type", path=None)
    if not fixed and key_validator is None:
        return value
    result = {}
    for key, validator in fixed:
        result[key] = _dict_item(validator, value.get(key), cc, key)
    if second_expression_key:
        raise DslContractSyntaxError("Dictionary contract cannot have more than one expression key")
    if key_validator is not None:
        for key, item in value.items():
            if key in result:
                continue
            key = key_validator(key, cc)
            result[key] = _dict_item(value_validator, item, cc, key)
    return yaql_utils.FrozenDict(result)


def _dict_item(validator, item, cc, key):
    try:
        return validator(item, cc)
    except ContractViolationException as error:
        if error.path is not None:
            error.path = f"[{format_scalar(key)}]{error.path}"
        raise


def constant(value, cc: ContractContext, expected):
    if value != expected:
        raise ContractViolationException(
            f"Value {format_scalar(value)} is not equal to {expected}", path=None)
    return value


# ---------------------------------------------------------------------------------------------
# Contract expressions evaluated as yaql
# ---------------------------------------------------------------------------------------------

def evaluate_contract(expression, value, cc: ContractContext):
    """Evaluate a whole contract expression as yaql, with the contract functions in scope."""
    context = yaql_contexts.LinkedContext(cc.context, _CONTRACT_FUNCTIONS).create_child_context()
    context["$"] = value
    context[CONTEXT_KEY] = cc
    return cc.evaluate(expression, context)


_ANY = yaqltypes.PythonType(object, nullable=True)


def _contract_method(name, *parameters):
    """Register ``implementation(cc, value, ...)`` as the yaql method ``name`` of any receiver."""
    def register(implementation):
        def method(context, receiver, *args):
            return implementation(context[CONTEXT_KEY], receiver, *args)

        definition = yaql_specs.FunctionDefinition(name, method, is_function=False,
                                                   is_method=True)
        definition.set_parameter(yaql_specs.ParameterDefinition(
            "context", yaqltypes.Context(), 0))
        definition.set_parameter(yaql_specs.ParameterDefinition("receiver", _ANY, 1))
        for position, (parameter, value_type, default) in enumerate(parameters, start=2):
            definition.set_parameter(yaql_specs.ParameterDefinition(
                parameter, value_type, position, default=default))
        _CONTRACT_FUNCTIONS.register_function(definition)
        return implementation

    return register


_CONTRACT_FUNCTIONS = yaql_contexts.Context(convention=yaql_conventions.CamelCaseConvention())

_REQUIRED = yaql_specs.NO_DEFAULT
_TYPE = yaqltypes.PythonType(object, nullable=False)
_OPTIONAL_TYPE = yaqltypes.PythonType(object, nullable=True)
_OPTIONAL_STRING = yaqltypes.String(nullable=True)


@_contract_method("string")
def _string_method(cc, value):
    return string(value, cc)


@_contract_method("int")
def _int_method(cc, value):
    return integer(value, cc)


@_contract_method("bool")
def _bool_method(cc, value):
    return boolean(value, cc)


@_contract_method("notNull")
def _not_null_method(cc, value):
    return not_null(value, cc)


@_contract_method("owned")
def _owned_method(cc, value):
    return owned(value, cc)


@_contract_method("notOwned")
def _not_owned_method(cc, value):
    return not_owned(value, cc)


@_contract_method("check", ("predicate", yaqltypes.Lambda(with_context=True), _REQUIRED),
                  ("msg", _OPTIONAL_STRING, None))
def _check_method(cc, value, predicate, msg=None):
    if cc.mode == FINALIZE or isinstance(value, ObjectReference):
        return value
    return _checked(value, predicate(cc.context.create_child_context(), value), msg)


@_contract_method("class", ("name", _TYPE, _REQUIRED), ("defaultName", _OPTIONAL_TYPE, None),
                  ("versionSpec", _OPTIONAL_STRING, None))
def _class_method(cc, value, name, defaultName=None, versionSpec=None):  # noqa: N803
    return class_instance(value, cc, name, defaultName, versionSpec)


@_contract_method("template", ("type", _TYPE, _REQUIRED), ("defaultType", _OPTIONAL_TYPE, None),
                  ("versionSpec", _OPTIONAL_STRING, None),
                  ("excludeProperties", yaqltypes.Sequence(nullable=True), None))
def _template_method(cc, value, type, defaultType=None, versionSpec=None,  # noqa: A002,N803
                     excludeProperties=None):  # noqa: N803
    return template(value, cc, type, defaultType, versionSpec, excludeProperties)
