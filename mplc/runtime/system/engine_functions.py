"""The engine's yaql functions the runtime's core set lacks (murano/engine/system/yaql_functions.py
and murano/dsl/reflection.py): config, logger, bind, pselect, patch, Format <= 1.1 legacy
functions, and reflection on types, methods, properties, arguments and packages."""

from __future__ import annotations

import re
from collections.abc import Mapping

import jsonpatch
import jsonpointer
import semantic_version
from yaql import yaqlization
from yaql.language import exceptions as yaql_exceptions
from yaql.language import specs, utils, yaqltypes

from mplc.runtime import expressions, statements
from mplc.runtime.activation import current_executor
from mplc.runtime.objects import (MuranoArgument, MuranoMethod, MuranoProperty, MuranoType,
                                ObjectParameter, Package)
from mplc.runtime.value_types import SCALAR_CLASSES

ENGINE_SETTINGS = {
    "home_region": None, "file_server": "",
    "engine": {"agent_timeout": 3600, "agent_source": "murano-agent"},
    "rabbitmq": {"host": "localhost", "port": 5672, "login": "guest", "password": "guest",
                 "virtual_host": "/", "ssl": False, "ca_certs": "", "insecure": False},
}
"""Engine configuration ``config()`` reads (the reference's oslo.config options), for the
simulated cloud; tests and embedders may change it."""


_executor = current_executor


class NoSuchOptError(AttributeError):
    """An engine setting that does not exist, named and worded as the reference's oslo.config
    error (MuranoPL code catches ``oslo_config.cfg.NoSuchOptError``; no mplc module shows)."""

    __module__ = "oslo_config.cfg"

    def __init__(self, name: str, group: str | None = None):
        super().__init__(f"no such option {name} in group [{group or 'DEFAULT'}]")


def _setting(group, name):
    """``CONF[name]``, or ``CONF[group][name]`` as oslo.config reads it: an unknown group is an
    unknown option of DEFAULT; a group that is an option is indexed as its value is."""
    if group is None:
        if name not in ENGINE_SETTINGS:
            raise NoSuchOptError(name)
        return ENGINE_SETTINGS[name]
    if group not in ENGINE_SETTINGS:
        raise NoSuchOptError(group)
    settings = ENGINE_SETTINGS[group]
    if not isinstance(settings, dict):
        return settings[name]  # an option's value, not a group: a TypeError as in the reference
    if name not in settings:
        raise NoSuchOptError(name, group)
    return settings[name]


@specs.parameter("group", yaqltypes.String())
@specs.parameter("setting", yaqltypes.String())
@specs.parameter("read_as_file", bool)
def config(group, setting, read_as_file=False):
    value = _setting(group, setting)
    if read_as_file:
        with open(value, encoding="utf-8") as handle:
            return handle.read()
    return value


@specs.parameter("setting", yaqltypes.String())
@specs.name("config")
def config_default(setting):
    return _setting(None, setting)


@specs.parameter("logger_name", yaqltypes.String(True))
def logger(context, logger_name):
    executor = _executor()
    logger_type = executor.find_class("io.murano.system.Logger")
    return executor.load_object({logger_type.reference: {"loggerName": logger_name}}, None,
                                context=context)


@specs.parameter("mappings", Mapping)
@specs.extension_method
def bind(obj, mappings):
    """Replace ``$name`` strings (and ``{name}`` fields inside them) by values of ``mappings``."""
    if isinstance(obj, str) and obj.startswith("$"):
        value = _macro(obj[1:], mappings)
        return obj if value is None else value
    if utils.is_sequence(obj):
        return [bind(item, mappings) for item in obj]
    if isinstance(obj, Mapping):
        result = {}
        for key, value in obj.items():
            bound = bind(value, mappings)  # the value first: a failing key and value report the value's
            result[bind(key, mappings)] = bound
        return result
    return obj


def _macro(macro, mappings):
    replaced = False

    def replace(match):
        nonlocal replaced
        replaced = True
        return str(mappings.get(match.group(1)))

    result = re.sub(r"{(\w+?)}", replace, macro)
    return result if replaced else mappings[macro]


@specs.parameter("collection", yaqltypes.Iterable())
@specs.parameter("composer", yaqltypes.Lambda())
@specs.extension_method
def pselect(context, collection, composer):
    """An iterator, as the reference's (a list() around it takes its items)."""
    items = list(collection)
    return iter(statements.parallel_select(context, [lambda _, item=item: composer(item) for item in items]))


# --- JSON patch (RFC 6902) ---------------------------------------------------------------------

class _Held:
    """A value jsonpatch must not deep-copy (a MuranoPL object, a type): the patched document
    holds the value itself (docs/fidelity.md). Compares as the value, for ``test``."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, _Held) else other)

    def __hash__(self):
        return hash(self.value)




def _mutable(value):
    """A fresh copy of a value's lists and dicts (a set becomes a list, as the reference's
    to_mutable makes it), other non-JSON values held as themselves."""
    if isinstance(value, Mapping):
        return {_mutable(k): _mutable(v) for k, v in value.items()}
    if utils.is_sequence(value) or isinstance(value, utils.SetType):
        return [_mutable(item) for item in value]
    if isinstance(value, SCALAR_CLASSES):
        return value
    return _Held(value)


def _released(value):
    """``value`` with what ``_mutable`` held given back (in place: the lists and dicts are ours)."""
    if isinstance(value, _Held):
        return value.value
    if isinstance(value, dict):
        for key in list(value):
            item = value.pop(key)
            value[_released(key)] = _released(item)
    elif isinstance(value, list):
        value[:] = [_released(item) for item in value]
    return value


@specs.name("patch")
@specs.extension_method
def patch_(obj, patch):
    """Apply a JSON patch (one operation or a list of them) with the jsonpatch library, as the
    reference does: a malformed patch fails before anything is applied; where a pointer stops
    resolving, the document as far as it was patched in place."""
    operations = _mutable(patch) if isinstance(patch, tuple) else [_mutable(patch)]
    json_patch = jsonpatch.JsonPatch(operations)
    document = _mutable(obj)
    try:
        return _released(json_patch.apply(document, in_place=True))
    except jsonpointer.JsonPointerException:
        return _released(document)


# --- Format <= 1.1 ------------------------------------------------------------------------------

@specs.parameter("string", yaqltypes.String())
@specs.parameter("start", int)
@specs.parameter("length", int)
@specs.inject("delegate", yaqltypes.Delegate("substring", method=True))
@specs.extension_method
def substr(delegate, string, start, length=-1):
    return delegate(string, start, length)


@specs.parameter("collection", yaqltypes.Iterable())
@specs.parameter("default", nullable=True)
@specs.extension_method
def first_or_default(collection, default=None):
    return next(iter(collection), default)


LEGACY_EXTENSION_METHODS = ("to_lower", "to_upper", "trim", "join", "split", "starts_with",
                            "ends_with", "matches", "replace", "flatten")


# --- reflection ---------------------------------------------------------------------------------

@specs.yaql_property(MuranoType)
@specs.name("name")
def type_name(murano_type):
    return murano_type.name


@specs.yaql_property(MuranoType)
@specs.name("usage")
def type_usage(murano_type):
    return murano_type.usage


@specs.yaql_property(MuranoType)
@specs.name("version")
def type_version(murano_type):
    return murano_type.version


@specs.yaql_property(MuranoType)
@specs.name("type")
def type_to_reference(murano_type):
    return murano_type.reference


@specs.yaql_property(MuranoType)
def methods(murano_type):
    return tuple(method for name in murano_type.all_method_names()
                 if not name.startswith(("__", "."))
                 for method in murano_type.find_method(name))


@specs.yaql_property(MuranoType)
def properties(murano_type):
    names = set(murano_type.properties)
    for ancestor in murano_type.ancestors():
        names.update(ancestor.properties)
    return tuple(prop for name in sorted(names) if not name.startswith(("__", "."))
                 for prop in murano_type.choose_symbol(lambda t: t.properties.get(name)))


@specs.yaql_property(MuranoType)
def ancestors(murano_type):
    return tuple(murano_type.ancestors())


@specs.yaql_property(MuranoType)
def package(murano_type):
    return murano_type.package


@specs.yaql_property(MuranoProperty)
@specs.name("name")
def property_name(murano_property):
    return murano_property.name


@specs.yaql_property(MuranoProperty)
@specs.name("has_default")
def property_has_default(murano_property):
    return murano_property.has_default


@specs.yaql_property(MuranoProperty)
@specs.name("usage")
def property_usage(murano_property):
    return murano_property.usage


@specs.yaql_property(MuranoProperty)
@specs.name("declaring_type")
def property_declaring_type(murano_property):
    return murano_property.declaring_type


@specs.name("get_value")
@specs.parameter("property_", MuranoProperty)
@specs.parameter("object_", ObjectParameter(nullable=True))
@specs.method
def property_get_value(context, property_, object_):
    if object_ is None:
        return _executor().get_static_property(property_.declaring_type, property_.name, context)
    return object_.cast(property_.declaring_type).get_property(property_.name, context)


@specs.name("set_value")
@specs.parameter("property_", MuranoProperty)
@specs.parameter("object_", ObjectParameter(nullable=True))
@specs.method
def property_set_value(context, property_, object_, value):
    if object_ is None:
        _executor().set_static_property(property_.declaring_type, property_.name, value, context)
    else:
        object_.cast(property_.declaring_type).set_property(property_.name, value, context)


@specs.yaql_property(MuranoMethod)
@specs.name("name")
def method_name(murano_method):
    return murano_method.name


@specs.yaql_property(MuranoMethod)
def arguments(murano_method):
    if murano_method.native is not None:
        return None
    return tuple(murano_method.arguments.values())


@specs.yaql_property(MuranoMethod)
@specs.name("declaring_type")
def method_declaring_type(murano_method):
    return murano_method.declaring_type


@specs.parameter("method", MuranoMethod)
@specs.parameter("__object", ObjectParameter(nullable=True))
@specs.name("invoke")
@specs.method
def method_invoke(context, method, __object, *args, **kwargs):
    target = method.declaring_type if __object is None else __object
    return _executor().call_method(method, target, args, kwargs, context)


@specs.yaql_property(Package)
def types(murano_package):
    return tuple(murano_package.executor.type_of(murano_package, name)
                 for name in sorted(murano_package.class_specs))


@specs.yaql_property(Package)
@specs.name("name")
def package_name(murano_package):
    return murano_package.name


@specs.yaql_property(Package)
@specs.name("version")
def package_version(murano_package):
    return murano_package.version


@specs.yaql_property(MuranoArgument)
@specs.name("name")
def argument_name(argument):
    return argument.name


@specs.yaql_property(MuranoArgument)
@specs.name("has_default")
def argument_has_default(argument):
    return argument.spec.has_default


@specs.yaql_property(MuranoArgument)
@specs.name("usage")
def argument_usage(argument):
    return argument.usage


@specs.yaql_property(MuranoArgument)
@specs.name("declaring_method")
def argument_declaring_method(argument):
    return argument.method


def meta_objects(context, meta_specs, declaring_type):
    """Objects of the Meta entries of a class, method, property or argument."""
    executor = _executor()
    type_context = executor.object_context(declaring_type)
    result = []
    for entry in meta_specs:
        meta_type = executor.find_class(entry.type_name, declaring_type)
        values = entry.values(type_context) if entry.values is not None else {}
        result.append(executor.load_object({meta_type.reference: dict(values or {})}, None,
                                           context=context))
    return tuple(result)


def _cardinality_one(meta_type):
    return (meta_type.spec.cardinality or "One") == "One"


def merged_meta(context, initial_type, meta_specs_of):
    """Meta of a class, method or property together with what its ancestors pass down, as the
    reference merges it: an ancestor's entry counts only if its meta class is Inherited and no
    nearer class on that path already has a Cardinality One entry of that meta class; one meta
    class with Cardinality One reached from two different classes is an error."""
    own_meta = {}

    def meta_of(murano_type):
        if murano_type not in own_meta:
            own_meta[murano_type] = meta_objects(context, meta_specs_of(murano_type), murano_type)
        return own_meta[murano_type]

    def merge(types, skipped):
        collected = []
        for murano_type in types:
            skipped_here = set(skipped)
            for item in meta_of(murano_type):
                meta_type = item.type
                if murano_type is not initial_type and (
                        not meta_type.spec.inherited or meta_type in skipped):
                    continue
                if _cardinality_one(meta_type):
                    skipped_here.add(meta_type)
                collected.append((murano_type, item))
            collected.extend(merge(murano_type.parents, skipped_here))
        single_sources = {}
        result = []
        for murano_type, item in collected:
            source = single_sources.get(item.type)
            if source is not None:
                if source is not murano_type:
                    raise ValueError(f"Found more than one instance of Meta {item.type.name} "
                                     "with Cardinality One")
                continue
            if _cardinality_one(item.type):
                single_sources[item.type] = murano_type
            if not any(t is murano_type and i is item for t, i in result):
                result.append((murano_type, item))
        return result

    return tuple(item for _, item in merge([initial_type], set()))


def _member_meta_specs(collection, name):
    def meta_specs_of(murano_type):
        member = getattr(murano_type, collection).get(name)
        return () if member is None else member.spec.meta
    return meta_specs_of


def member_meta(declaring_type, collection, name):
    """The merged meta objects of a declared property (``collection`` "properties") or method."""
    context = _executor().object_context(declaring_type)
    return merged_meta(context, declaring_type, _member_meta_specs(collection, name))


@specs.name("#property#meta")
def get_meta(context, provider):
    if isinstance(provider, MuranoType):
        return merged_meta(context, provider, lambda murano_type: murano_type.spec.meta)
    if isinstance(provider, MuranoMethod):
        return merged_meta(context, provider.declaring_type,
                           _member_meta_specs("methods", provider.name))
    if isinstance(provider, MuranoProperty):
        return merged_meta(context, provider.declaring_type,
                           _member_meta_specs("properties", provider.name))
    if isinstance(provider, MuranoArgument):
        return meta_objects(context, provider.spec.meta, provider.method.declaring_type)
    if isinstance(provider, Package):
        return ()
    raise yaql_exceptions.NoMatchingFunctionException("#property#meta")


@specs.yaql_property(MuranoType)
def cardinality(murano_type):
    return murano_type.spec.cardinality or "One"


@specs.yaql_property(MuranoType)
def targets(murano_type):
    return tuple(murano_type.spec.applies or ())


@specs.yaql_property(MuranoType)
def inherited(murano_type):
    return murano_type.spec.inherited


REFLECTION = (type_name, type_usage, type_version, type_to_reference, methods, properties,
              ancestors, package, property_name, property_has_default, property_usage,
              property_declaring_type, property_get_value, property_set_value, method_name,
              arguments, method_declaring_type, method_invoke, types, package_name,
              package_version, argument_name, argument_has_default, argument_usage,
              argument_declaring_method, get_meta, cardinality, targets, inherited)

yaqlization.yaqlize(semantic_version.Version,
                    whitelist=["major", "minor", "patch", "prerelease", "build"])


_core_library_context = None


def core_library_context():
    """The functions only the core library's code may call (``config``): the reference links
    them into the io.murano package's context alone, so elsewhere the name is unknown."""
    global _core_library_context
    if _core_library_context is None:
        _core_library_context = expressions.empty_context()
        _core_library_context.register_function(config)
        _core_library_context.register_function(config_default)
    return _core_library_context


def register(context, version):
    """Add these functions to a Format's root context (after the core set)."""
    for function in (logger, bind, pselect, patch_) + REFLECTION:
        context.register_function(function)
    if expressions.is_legacy(version):
        context.register_function(substr)
        context.register_function(first_or_default)
        for name in LEGACY_EXTENSION_METHODS:
            for spec in utils.to_extension_method(name, context):
                context.register_function(spec)
    return context
