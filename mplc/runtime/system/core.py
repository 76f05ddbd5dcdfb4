"""Natives of io.murano.Object, io.murano.Exception and io.murano.StackTrace."""

from __future__ import annotations

from mplc.runtime import bridge
from mplc.runtime.model import MuranoObject, TypeReference
from mplc.runtime.natives import native


def caller_context(context):
    return context[bridge.CALLER_CONTEXT]


def caller_type(context):
    """The class whose code called the native method (the reference's ``get_caller_context``)."""
    caller = caller_context(context)
    return None if caller is None else caller[bridge.TYPE]


def _attribute_owner(executor, context, owner):
    if owner is None:
        owner_type = caller_type(context)
        return None if owner_type is None else owner_type.name
    if isinstance(owner, str):
        caller = caller_context(context)
        scope = None if caller is None else caller[bridge.NAMES_SCOPE]
        return executor.find_class(owner, scope).name
    return owner.type.name


@native("io.murano.Object")
class SysObject:
    """Attributes: values kept per (object, owning class, name), persisted in the model."""

    def set_attr(self, this, context, executor, name: str, value,
                 owner: str | TypeReference | MuranoObject | None = None):
        owner_name = _attribute_owner(executor, context, owner)
        executor.attributes[(this.object_id, owner_name, name)] = value

    def get_attr(self, this, context, executor, name: str, default=None,
                 owner: str | TypeReference | MuranoObject | None = None):
        owner_name = _attribute_owner(executor, context, owner)
        result = executor.attributes.get((this.object_id, owner_name, name))
        return default if result is None else result


@native("io.murano.Exception")
class ExceptionObject:
    def to_string(self, this):
        error = this.properties.get("nativeException")
        if error is None:
            return f"{this.properties.get('name')}: {this.properties.get('message')}"
        return error.format()


def format_frames(frames, prefix=""):
    lines = []
    for frame in frames or ():
        lines.append(f'{prefix}File "{frame.get("file")}", line {frame.get("line")} in method '
                     f'{frame.get("method")} of type {frame.get("class")}')
        if frame.get("instruction"):
            lines.append(f"{prefix}    {frame['instruction']}")
    return "\n".join(lines)


@native("io.murano.StackTrace")
class StackTrace:
    def to_string(self, this, prefix: str = ""):
        return format_frames(this.properties.get("frames"), prefix)
