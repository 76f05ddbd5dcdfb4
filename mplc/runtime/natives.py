"""Natives: Python implementations of MuranoPL classes' methods, registered by class name.

``@native('io.murano.Object')`` on a Python class makes its public methods methods of that
MuranoPL class. A native method is ``fn(call, context, *arguments)``: ``call`` gives the
executor, the object (``call.this``) and its native extension state; yaql maps the arguments.
"""

from __future__ import annotations

import inspect

from mplc.runtime import bridge
from mplc.runtime.specs import ClassSpec, MethodSpec, PackageSpec, PropertySpec

_registry: dict = {}


def native(class_name: str):
    def register(cls):
        _registry[class_name] = cls
        return cls
    return register


class NativeCall:
    __slots__ = ("executor", "this", "context", "extension")

    def __init__(self, executor, this, context, extension):
        self.executor = executor
        self.this = this
        self.context = context
        self.extension = extension


def _muranopl_name(python_name: str) -> str:
    head, *rest = python_name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def attach(murano_type) -> None:
    """Add the native methods registered for this class's name (MuranoPL ones take precedence)."""
    cls = _registry.get(murano_type.name)
    if cls is None:
        return
    for python_name, function in inspect.getmembers(cls, inspect.isfunction):
        if python_name.startswith("_"):
            continue
        name = getattr(function, "muranopl_name", _muranopl_name(python_name))
        if name in murano_type.methods:
            continue
        usage = getattr(function, "muranopl_usage", "Runtime")
        murano_type.add_method(MethodSpec(name, usage=usage), native=function)


def _caller_type(context):
    caller = context[bridge.CALLER_CONTEXT]
    return None if caller is None else caller[bridge.TYPE]


@native("io.murano.Object")
class SysObject:
    def set_attr(call, context, name, value, owner=None):
        owner_name = _owner_name(call, context, owner)
        call.executor.attributes[(call.this.object_id, owner_name, name)] = value

    def get_attr(call, context, name, default=None, owner=None):
        owner_name = _owner_name(call, context, owner)
        result = call.executor.attributes.get((call.this.object_id, owner_name, name))
        return default if result is None else result


def _owner_name(call, context, owner):
    if owner is None:
        owner_type = _caller_type(context)
        return None if owner_type is None else owner_type.name
    if isinstance(owner, str):
        return call.executor.find_class(owner, context[bridge.NAMES_SCOPE]).name
    return owner.type.name


@native("io.murano.Exception")
class ExceptionObject:
    def to_string(call, context):
        return call.this.real_this.properties["nativeException"].format()


@native("io.murano.StackTrace")
class StackTrace:
    def to_string(call, context, prefix=""):
        frames = call.this.real_this.properties.get("frames") or ()
        return "\n".join(f"{prefix}{frame['location']}" for frame in frames)


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
