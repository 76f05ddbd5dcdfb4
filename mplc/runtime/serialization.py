"""Object model out: serialising objects, rendering results, destroying unreachable objects."""

from __future__ import annotations

from yaql.language import utils

from mplc.runtime.model import MuranoObject, MuranoType, TypeReference

HIDDEN_USAGES = ("Runtime", "Config")


def type_string(murano_type) -> str:
    return f"{murano_type.name}/{murano_type.version}@{murano_type.package.name}"


def object_to_dict(obj, serialization_type="Serializable", seen=None):
    """The reference's object dump: properties of every class part (Runtime/Config hidden),
    objects owned by ``obj`` inline, other objects as their ids."""
    obj = obj.real_this
    seen = set() if seen is None else seen
    seen.add(obj)
    result = {}
    for part in reversed(list(obj.parts())):
        for name, prop in part.type.properties.items():
            if name in obj.properties and prop.usage not in HIDDEN_USAGES:
                result[name] = _value(obj.properties[name], obj, serialization_type, seen)
    if serialization_type == "Inline":
        return {obj.type.reference: result, "id": obj.object_id, "name": obj.name,
                "metadata": obj.metadata}
    header = {"type": type_string(obj.type) if serialization_type != "Mixed" else obj.type.reference,
              "id": obj.object_id, "name": obj.name}
    if obj.metadata is not None:
        header["metadata"] = obj.metadata
    if obj.destroyed:
        header["destroyed"] = True
    result["?"] = header
    return result


def _value(value, container, serialization_type, seen):
    if isinstance(value, MuranoObject):
        value = value.real_this
        if value.owner is container and value not in seen:
            return object_to_dict(value, serialization_type, seen)
        return value.object_id
    if isinstance(value, TypeReference):
        return value.type.name
    if isinstance(value, MuranoType):
        return value.name
    if isinstance(value, utils.MappingType):
        return {_value(k, container, serialization_type, seen): _value(v, container, serialization_type, seen)
                for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_value(v, container, serialization_type, seen) for v in value]
    return value


def render(value, seen=None):
    """JSON-able form of a result: objects in object-model form, type references as names."""
    if isinstance(value, MuranoObject):
        return object_to_dict(value)
    if isinstance(value, TypeReference):
        return value.type.name
    if isinstance(value, MuranoType):
        return value.name
    if isinstance(value, utils.MappingType):
        return {str(render(k)) if not isinstance(k, (str, int, float, bool)) and k is not None
                else k: render(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [render(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def serialize_model(executor) -> dict:
    attributes = [[object_id, owner, name, value]
                  for (object_id, owner, name), value in executor.attributes.items()
                  if object_id in executor.objects]
    objects = None if executor.root is None else object_to_dict(executor.root)
    return {"Objects": objects, "Attributes": attributes}


def _referenced(value):
    if isinstance(value, MuranoObject):
        yield value.real_this
    elif isinstance(value, utils.MappingType):
        for key, item in value.items():
            yield from _referenced(key)
            yield from _referenced(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _referenced(item)


def reachable(executor):
    roots = [executor.root] if executor.root is not None else []
    for value in executor.static_values.values():
        roots.extend(_referenced(value))
    found = set()
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if obj in found:
            continue
        found.add(obj)
        if obj.owner is not None:
            stack.append(obj.owner.real_this)
        for part in obj.parts():
            for value in part.properties.values():
                stack.extend(_referenced(value))
    return found


def collect_garbage(executor) -> int:
    """Destroy objects nothing reachable refers to, owned objects before their owners,
    running every ``.destroy`` (own class first, then ancestors); errors in them are muted."""
    alive = reachable(executor)
    doomed = [obj for obj in executor.objects.values() if obj not in alive and not obj.destroyed]
    depth = {}

    def owner_depth(obj):
        if obj not in depth:
            owner = obj.owner
            depth[obj] = 0 if owner is None or owner.real_this not in doomed else owner_depth(owner.real_this) + 1
        return depth[obj]

    for obj in sorted(doomed, key=owner_depth, reverse=True):
        for method in obj.type.find_methods(lambda m: m.name == ".destroy"):
            try:
                executor.call_method(method, obj.cast(method.declaring_type))
            except Exception:  # noqa: BLE001 - the reference mutes (and logs) these
                pass
        obj.destroyed = True
        for part in obj.parts():
            part.destroyed = True
        del executor.objects[obj.object_id]
    return len(doomed)
