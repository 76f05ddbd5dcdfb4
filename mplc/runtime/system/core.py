"""Natives of io.murano.Object, io.murano.Exception and io.murano.StackTrace."""

from __future__ import annotations

import weakref

from mplc.runtime import expressions, statements
from mplc.runtime.errors import format_frame
from mplc.runtime.objects import MuranoObject, TypeReference
from mplc.runtime.natives import as_received, checked_first, native


def caller_context(context):
    return context[expressions.CALLER_CONTEXT]


def caller_type(context):
    """The class whose code called the native method (the reference's ``get_caller_context``)."""
    caller = caller_context(context)
    return None if caller is None else caller[expressions.TYPE]


def _attribute_owner(executor, context, owner):
    if owner is None:
        owner_type = caller_type(context)
        return None if owner_type is None else owner_type.name
    if isinstance(owner, str):
        caller = caller_context(context)
        scope = None if caller is None else caller[expressions.NAMES_SCOPE]
        return executor.find_class(owner, scope).name
    return owner.type.name


_ATTRIBUTE_OBJECT_RANKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _attribute_object_rank(executor, object_id):
    """Where an object's attributes sit in the serialized model: the reference keeps them per
    object, objects in the order their attributes were first read or written (a read makes
    the object's entry), then each object's attributes in the order they were set."""
    ranks = _ATTRIBUTE_OBJECT_RANKS.get(executor)
    if ranks is None:
        ranks = _ATTRIBUTE_OBJECT_RANKS[executor] = {}
        for key in executor.attributes:
            ranks.setdefault(key[0], len(ranks))
    return ranks.setdefault(object_id, len(ranks))


@native("io.murano.Object")
class SysObject:
    """Attributes: values kept per (object, owning class, name), persisted in the model (the
    executor's store; an instance holds nothing, as the reference's holds nothing)."""

    __slots__ = ()

    @checked_first("owner")
    def set_attr(self, this, context, executor, name, value,
                 owner: str | TypeReference | None = None):
        """An object value is kept as its id and null removes the attribute, as the reference's
        attribute store does; lazy collections (``concat``, ``select``) are kept as lists. The
        owner is a class (name or reference), checked first as the reference's decorated
        parameter; the name is untyped, and one a dict key cannot be fails as there."""
        key = (this.object_id, _attribute_owner(executor, context, owner), as_received(name))
        _attribute_object_rank(executor, this.object_id)
        attributes = executor.attributes
        if value is None:
            attributes.pop(key, None)
            return
        known = key in attributes
        attributes[key] = value.object_id if isinstance(value, MuranoObject) \
            else expressions.finalize(value)
        if not known:
            ordered = sorted(attributes.items(),
                             key=lambda item: _attribute_object_rank(executor, item[0][0]))
            attributes.clear()
            attributes.update(ordered)

    @checked_first("owner")
    def get_attr(self, this, context, executor, name, default=None,
                 owner: str | TypeReference | None = None):
        owner_name = _attribute_owner(executor, context, owner)
        _attribute_object_rank(executor, this.object_id)
        result = executor.attributes.get((this.object_id, owner_name, as_received(name)))
        return default if result is None else result


@native("io.murano.Exception")
class ExceptionObject:
    def to_string(self, this):
        error = this.properties.get("nativeException")
        if error is None:
            return f"{this.properties.get('name')}: {this.properties.get('message')}"
        return error.format()


@native("io.murano.StackTrace")
class StackTrace:
    """``new(io.murano.StackTrace)`` holds the stack where it is created (the reference's
    constructor); a caught exception's holds the stack of its Throw."""

    def __init__(self, this, include_native_frames: bool = True):
        this.properties["frames"] = statements.stack_frames(statements.current_stack())

    def to_string(self, this, prefix: str = ""):
        return "\n".join(
            format_frame(frame["instruction"], *_location(frame["location"]), frame["methodName"],
                         frame["typeName"], prefix)
            for frame in this.properties.get("frames") or ())


def _location(location):
    if not location:
        return None, None, None
    return location["file"], location["line"], location["column"]
