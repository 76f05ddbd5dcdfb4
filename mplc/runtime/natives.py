"""Natives: Python classes that implement MuranoPL classes' methods, registered by class name.

``@native('io.murano.system.HeatStack')`` on a Python class makes it the implementation of that
MuranoPL class, as the reference's ``@dsl.name`` classes are:

- ``__init__`` is the constructor: it receives the properties of the object's model (or of
  ``new()``) whose names match its parameters, and its instance is the object's native state.
- each public method is a MuranoPL method (``snake_case`` -> ``camelCase``; a trailing ``_``
  dropped, so ``async_`` is ``async``; ``@muranopl_name`` overrides); ``@staticmethod`` ones are
  Static (their ``this`` is the receiver when called on an object, else None).
- parameters named ``this`` (the MuranoPL object), ``context`` (the yaql context of the call) and
  ``executor`` are supplied by the runtime and are not MuranoPL arguments.
- annotations are checked with typeguard when MuranoPL calls in; a mismatch is a
  ContractViolationException that names the method and the argument.

MuranoPL methods of the same name take precedence. Third-party natives are found through the
``io.murano.extensions`` entry point group (each entry point a module or class to import).
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Mapping, Sequence, Set
from importlib import metadata as importlib_metadata

import typeguard
from yaql.language import conventions as yaql_conventions
from yaql.language import exceptions as yaql_exceptions
from yaql.language import specs as yaql_specs

from mplc.runtime import expressions
from mplc.runtime.objects import MuranoObject
from mplc.runtime.specs import ArgumentSpec, ClassSpec, MethodSpec, PackageSpec, PropertySpec

EXTENSIONS_GROUP = "io.murano.extensions"
# The classes the reference's engine registers in Python on whatever package is the core library
# (io.murano): its principal objects and its system objects. A core library that declares one
# in YAML gets the native methods on top; one that does not (Murano's has no GC class) gets the
# class from the native alone, extending io.murano.Object.
CORE_LIBRARY_NATIVES = (
    "io.murano.Object", "io.murano.StackTrace", "io.murano.Exception", "io.murano.system.GC",
    "io.murano.system.Agent", "io.murano.system.AgentListener", "io.murano.system.HeatStack",
    "io.murano.system.Resources", "io.murano.system.InstanceNotifier",
    "io.murano.system.StatusReporter", "io.murano.system.NetworkExplorer",
    "io.murano.system.Logger", "io.murano.test.TestFixture", "io.murano.system.MistralClient",
    "io.murano.system.MetadefBrowser", "io.murano.User", "io.murano.Project",
)
_PARAMETER_CONVENTION = yaql_conventions.CamelCaseConvention()
INJECTED = ("this", "context", "executor")

_registry: dict = {}


def native(class_name: str):
    """Register a Python class as the implementation of MuranoPL class ``class_name``."""
    def register(cls):
        _registry[class_name] = NativeClass(class_name, cls)
        return cls
    return register


def muranopl_name(name: str):
    """Give a native method an explicit MuranoPL name."""
    def mark(function):
        target = function.__func__ if isinstance(function, staticmethod) else function
        target.muranopl_name = name
        return function
    return mark


def checked_first(*python_names: str):
    """Bind and check these parameters of a native, in this order, before the others: the
    reference's yaql checks the parameters its ``@specs.parameter`` decorators declare first,
    innermost decorator first, so a call with two bad arguments names the one checked first."""
    def mark(function):
        target = function.__func__ if isinstance(function, staticmethod) else function
        target.checked_first = python_names
        return function
    return mark


def camel_case(python_name: str) -> str:
    head, *rest = python_name.rstrip("_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def parameter_name(python_name: str) -> str:
    """The keyword a MuranoPL call names a native's parameter by, as yaql names a Python
    function's parameter: trailing underscores dropped (``object_`` is ``object``), then
    camelCase past a leading underscore (``__message`` in class Logger, ``_Logger__message``,
    is ``_Logger_message``, so a message is given by position only)."""
    return yaql_specs.convert_parameter_name(python_name, _PARAMETER_CONVENTION)


def check_iterator_limit(value) -> None:
    """The reference hands natives copies of their arguments made under its iterator limit: a
    list, dict or set of more than 2000 items, at any depth, fails the call
    (CollectionTooLargeException). Objects and strings are not looked into."""
    if isinstance(value, (str, bytes, MuranoObject)):
        return
    if isinstance(value, Mapping):
        for key, item in expressions.limit_iterable(value).items():
            check_iterator_limit(key)
            check_iterator_limit(item)
    elif isinstance(value, (Sequence, Set)):
        for item in expressions.limit_iterable(value):
            check_iterator_limit(item)


def as_received(value):
    """An untyped argument as the reference's native receives it (yaql's output conversion:
    lists, dicts, a set as a list), for a native that fails on it as the reference's does."""
    received = expressions.thaw(value)
    return list(received) if isinstance(received, set) else received


class NativeCall:
    __slots__ = ("executor", "this", "context", "extension")

    def __init__(self, executor, this, context, extension):
        self.executor = executor
        self.this = this
        self.context = context
        self.extension = extension


def _exact_types(hint) -> frozenset:
    """The plain classes a parameter hint names (``str | None``: str and NoneType), whose exact
    instances typeguard always accepts; empty for ``Any`` and generic hints."""
    members = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    return frozenset(type(None) if member is None else member for member in members
                     if member is None or (isinstance(member, type) and not typing.get_args(member)
                                           and member is not typing.Any))


class NativeFunction:
    """A Python function seen as a MuranoPL method: its MuranoPL parameter names, defaults and
    annotations (checked with typeguard on every call from MuranoPL)."""

    def __init__(self, class_name, python_name, function, bound):
        self.class_name = class_name
        self.name = getattr(function, "muranopl_name", None) or (
            python_name if python_name.startswith("__") else camel_case(python_name))
        self.function = function
        self.python_name = python_name
        self.signature = list(inspect.signature(function).parameters.values())[1 if bound else 0:]
        kinds = inspect.Parameter
        exposed = [p for p in self.signature if p.name not in INJECTED]
        self.muranopl_names = {p.name: parameter_name(p.name) for p in exposed
                               if p.kind not in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD)}
        self.python_names = {name: python_name for python_name, name in self.muranopl_names.items()}
        positional = [p for p in exposed
                      if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
        self.parameters = [parameter_name(p.name) for p in positional]
        self.positions = {p.name: index for index, p in enumerate(positional)}
        first = getattr(function, "checked_first", ())
        self.binding_order = sorted(self.signature, key=lambda p: (
            first.index(p.name) if p.name in first else len(first)))
        self.defaults = {parameter_name(p.name): p.default for p in exposed
                         if p.default is not kinds.empty}
        self.varargs = next((p.name for p in exposed if p.kind is kinds.VAR_POSITIONAL), None)
        self.kwargs = next((p.name for p in exposed if p.kind is kinds.VAR_KEYWORD), None)
        self._hints = None
        self._exact_types = {}
        # (python name, injected?, default) per parameter when every one is positional (no
        # keyword-only, no * or **): ``arguments``' way for calls that pass no keywords
        self._positional_plan = None if any(p.kind not in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)
                                            for p in self.signature) else tuple(
            (p.name, p.name in INJECTED, p.default) for p in self.signature)

    @property
    def hints(self):
        if self._hints is None:
            self._hints = typing.get_type_hints(self.function)
            self._hints.pop("return", None)
        return self._hints

    def check(self, python_name, value):
        """A value its Python parameter's type does not take fails as yaql fails the native's
        typed parameter in the reference: ArgumentException "Invalid argument <parameter>".
        A value of exactly one of the plain classes the hint names passes without typeguard."""
        hint = self.hints.get(python_name)
        if hint is None:
            return
        exact = self._exact_types.get(python_name)
        if exact is None:
            exact = self._exact_types[python_name] = _exact_types(hint)
        if type(value) in exact:
            return
        try:
            typeguard.check_type(value, hint)
        except typeguard.TypeCheckError:
            raise yaql_exceptions.ArgumentException(python_name) from None

    def arguments(self, args, kwargs, injected):
        """Python (args, kwargs) for MuranoPL arguments and injected values, bound as yaql binds
        the reference's native method: each parameter in turn takes its positional argument,
        its keyword argument or its default and is checked; a parameter given both ways or not
        at all, an argument no parameter takes (``*``) or a keyword no parameter has (``**``)
        fail with ArgumentException naming the Python parameter."""
        plan = self._positional_plan
        if plan is not None and not kwargs and len(args) <= len(self.positions):
            bound = self._bound_positionally(plan, args, injected)
            if bound is not None:
                return bound, {}
        kinds = inspect.Parameter
        kwargs = dict(kwargs)
        values = {}
        for parameter in self.binding_order:
            if parameter.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD):
                continue
            if parameter.name in INJECTED:
                values[parameter.name] = injected[parameter.name]
                continue
            name = self.muranopl_names[parameter.name]
            position = self.positions.get(parameter.name, len(args))
            if position < len(args):
                if name in kwargs:
                    raise yaql_exceptions.ArgumentException(parameter.name)
                value = args[position]
            elif name in kwargs:
                value = kwargs.pop(name)
            elif parameter.default is not kinds.empty:
                value = parameter.default
            else:
                raise yaql_exceptions.ArgumentException(parameter.name)
            self.check(parameter.name, value)
            values[parameter.name] = value
        positional, python_kwargs = [], {}
        for parameter in self.signature:
            if parameter.kind is kinds.KEYWORD_ONLY:
                python_kwargs[parameter.name] = values[parameter.name]
            elif parameter.name in values:
                positional.append(values[parameter.name])
        extra = args[len(self.positions):]
        if extra:
            if self.varargs is None:
                raise yaql_exceptions.ArgumentException("*")
            for value in extra:
                self.check(self.varargs, value)
            positional.extend(extra)
        if kwargs:
            if self.kwargs is None:
                raise yaql_exceptions.ArgumentException("**")
            for name, value in kwargs.items():
                self.check(self.kwargs, value)
                python_kwargs[name] = value
        return positional, python_kwargs


    def _bound_positionally(self, plan, args, injected):
        """The Python arguments of a call with positional MuranoPL arguments only, when each
        parameter gets a value its type takes; None otherwise (``arguments`` then binds them in
        its order and reports the first failure)."""
        positional = []
        position = 0
        for python_name, is_injected, default in plan:
            if is_injected:
                positional.append(injected[python_name])
                continue
            if position < len(args):
                value = args[position]
                position += 1
            elif default is not inspect.Parameter.empty:
                value = default
            else:
                return None
            try:
                self.check(python_name, value)
            except yaql_exceptions.ArgumentException:
                return None
            positional.append(value)
        return positional


class NativeMethod(NativeFunction):
    """The callable the executor runs for a native method: ``method(call, context, *a, **kw)``."""

    def __init__(self, native_class, python_name, function, is_static):
        super().__init__(native_class.name, python_name, function, bound=not is_static)
        self.native_class = native_class
        self.is_static = is_static

    def __call__(self, call, context, *args, **kwargs):
        if self.is_static:
            this = call.this.real_this if isinstance(call.this, MuranoObject) else None
        else:
            this = call.this.real_this
        injected = {"this": this, "context": context, "executor": call.executor}
        for value in (*args, *kwargs.values()):
            check_iterator_limit(value)
        positional, python_kwargs = self.arguments(args, kwargs, injected)
        if self.is_static:
            return expressions.finalize(self.function(*positional, **python_kwargs))
        state = self.native_class.state(call.this, context, call.executor)
        return expressions.finalize(self.function(state, *positional, **python_kwargs))


class NativeClass:
    """A registered Python class: its constructor and its methods, ready to attach to a type.

    ``shared_state``: the one instance every object's part gets, for a class that can hold no
    state (no ``__init__``, ``__slots__ = ()``): a model's objects need not each allocate one."""

    def __init__(self, name, cls):
        self.name = name
        self.cls = cls
        self.constructor = NativeFunction(name, "__init__", cls.__init__, bound=True) \
            if "__init__" in vars(cls) else None
        self.shared_state = cls() if self.constructor is None and vars(cls).get("__slots__") == () \
            else None
        self.methods = []
        for python_name, member in vars(cls).items():
            if python_name.startswith("_"):
                continue
            if isinstance(member, (staticmethod, classmethod)):
                function = member.__get__(None, cls)
                self.methods.append(NativeMethod(self, python_name, function, is_static=True))
            elif inspect.isfunction(member):
                self.methods.append(NativeMethod(self, python_name, member, is_static=False))

    def construct(self, part, params, context, executor):
        """Create the native state of ``part`` from the model's properties it names."""
        if self.constructor is None:
            part.extension = self.cls() if self.shared_state is None else self.shared_state
            return
        known = {name: params[name] for name in self.constructor.python_names if name in params}
        for value in known.values():
            check_iterator_limit(value)
        for name in self.constructor.parameters:
            if name not in known and name not in self.constructor.defaults:
                raise yaql_exceptions.ArgumentException(self.constructor.python_names[name])
        injected = {"this": part.real_this, "context": context, "executor": executor}
        positional, kwargs = self.constructor.arguments((), known, injected)
        part.extension = self.cls(*positional, **kwargs)

    def state(self, part, context, executor):
        if part.extension is None:
            self.construct(part, {}, context, executor)
        return part.extension


def registered_classes() -> tuple:
    """Every registered native class (the core library's and the extensions' found so far)."""
    return tuple(_registry.values())


def _method_spec(method: NativeMethod) -> MethodSpec:
    arguments = tuple(ArgumentSpec(name, has_default=name in method.defaults)
                      for name in method.parameters)
    return MethodSpec(method.name, usage="Static" if method.is_static else "Runtime",
                      arguments=arguments)


def attach(murano_type) -> None:
    """Add the native methods registered for this class's name (MuranoPL ones take precedence)."""
    load_extensions()
    native_class = _registry.get(murano_type.name)
    if native_class is None:
        return
    murano_type.native_class = native_class
    for method in native_class.methods:
        if method.name not in murano_type.methods:
            murano_type.add_method(_method_spec(method), native=method)


def constructor(part, params, context):
    """The step that creates ``part``'s native state during object initialisation, or None."""
    native_class = getattr(part.type, "native_class", None)
    if native_class is None or part.extension is not None:
        return None
    executor = part.type.executor
    return functools.partial(native_class.construct, part, params, context, executor)


@functools.lru_cache(maxsize=None)
def load_extensions() -> tuple:
    """Import the natives and packages other distributions declare (``io.murano.extensions``).

    The natives mplc ships (``mplc.runtime.system``) are registered when the runtime package
    loads. An entry point's value is a module (importing it registers its ``@native`` classes) or an
    object with a ``package_paths`` attribute: directories of MuranoPL packages it ships."""
    loaded = []
    for entry_point in importlib_metadata.entry_points(group=EXTENSIONS_GROUP):
        loaded.append(entry_point.load())
    return tuple(loaded)


def extension_package_paths() -> list:
    """Package directories shipped by ``io.murano.extensions`` plugins."""
    paths = []
    for plugin in load_extensions():
        paths.extend(getattr(plugin, "package_paths", ()) or ())
    return paths


def native_only_classes(package: PackageSpec, class_specs: dict) -> dict:
    """ClassSpecs for the core-library natives ``package`` (an io.murano) declares no class for,
    as the reference registers a native class with no MuranoPL part."""
    added = {}
    for name in CORE_LIBRARY_NATIVES:
        if name not in class_specs:
            namespace = name.rpartition(".")[0]
            added[name] = ClassSpec(name, package=package, namespaces={"=": namespace})
    return added


def core_package() -> PackageSpec:
    """A minimal io.murano for runs that bring no core library: Object, Exception, StackTrace."""
    def properties(*names):
        return {n: PropertySpec(n, usage="Out") for n in names}

    classes = {
        "io.murano.Object": ClassSpec("io.murano.Object", namespaces={"=": "io.murano"}),
        "io.murano.Exception": ClassSpec(
            "io.murano.Exception", extends=("io.murano.Object",), namespaces={"=": "io.murano"},
            properties=properties("name", "message", "stackTrace", "extra", "nativeException",
                                  "cause")),
        "io.murano.StackTrace": ClassSpec(
            "io.murano.StackTrace", extends=("io.murano.Object",), namespaces={"=": "io.murano"},
            properties=properties("frames")),
    }
    return PackageSpec("io.murano", "0.0.0", "MuranoPL/1.4.0", "Library", classes=classes)
