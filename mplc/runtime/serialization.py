"""Object models in and out: checking a model before it loads, serialising objects, rendering
results, destroying unreachable objects.

Serialisation follows the reference's passes: an object is written inline under the object
that owns it; an object met elsewhere first is a reference, and one that no owner chain wrote
is moved inline to its first reference; what is left becomes the referenced object's id.
"""

from __future__ import annotations

import collections.abc
import math

from yaql.language import specs, utils, yaqltypes

from mplc.runtime import expressions, errors, statements
from mplc.runtime.loading import collector_paused, header_text
from mplc.runtime.objects import MuranoObject, MuranoType, ObjectParameter, TypeReference
from mplc.runtime.system.engine_functions import get_meta, member_meta
from mplc.runtime.value_types import FINITE_SCALARS, SCALARS

HIDDEN_USAGES = ("Runtime", "Config")
UNLOADED_USAGES = ("Runtime", "Config", "Static")
SERIALIZE = "io.murano.metadata.engine.Serialize"
DUMP_TYPES = ("Serializable", "Inline", "Mixed")


class InvalidObjectModel(errors.MuranoError):
    """A model that cannot load as written; the message names every problem with its path.

    ``problems`` are ``(type name, text, location)``: the type is the exception the reference
    raises on that problem (``ValueError``, ``NoPackageForClassFound``, ...), or
    InvalidObjectModel where the reference loads such a model but not as written (an id used
    twice); ``location`` the keys and indices from the document's top to the
    value at fault (a reader of the model's text can point at it). The error's ``type_name``
    is its first problem's."""

    def __init__(self, problems):
        super().__init__("Invalid object model:\n" + "\n".join(f"  {text}" for _, text, _ in problems))
        self.problems = list(problems)

    @property
    def type_name(self) -> str:
        return self.problems[0][0]


DOCUMENT_KEYS = ("Objects", "ObjectsCopy", "Attributes")
MODEL_ERROR = "InvalidObjectModel"


class _ModelChecker:
    """Finds what would make a model fail or load differently than written: a malformed
    ``?``, a class that cannot be loaded, an id used twice; and, as warnings, what the
    reference ignores: keys that no class of the object declares as a property or ``.init``
    argument (what they hold is never loaded, so not checked), unknown document entries.
    Only values whose contract calls class() or template() load ``?`` mappings as objects;
    under any other contract they are plain data, not checked.

    A value's place is a ``_place`` chain, spelled out (``_spelled``) only for a problem or
    warning: most models have none."""

    def __init__(self, executor):
        self.executor = executor
        self.problems = []
        self.warnings = []
        self.ids = {}
        self.declared = {}
        self.usual = {}
        self.names = {}

    def problem(self, type_name, text, location):
        self.problems.append((type_name, text, location))

    def document(self, model):
        if not isinstance(model, dict):
            self.problem("ValueError", f"$: an object model is a mapping, not {type(model).__name__}", ())
        elif any(key in model for key in DOCUMENT_KEYS):
            for key in model:
                if key not in DOCUMENT_KEYS:
                    self.warnings.append(f"$.{key}: unknown document entry; ignored")
            for key in ("Objects", "ObjectsCopy"):
                if model.get(key) is not None:
                    self.ids = {}
                    self.object(model[key], (None, key, True))
            self.attributes(model.get("Attributes") or [])
        else:
            self.object(model, _DOCUMENT_TOP)
        for path, location, value in non_finite_numbers(model):
            self.problem("ValueError", f"{path}: {value!r} is no JSON number (NaN and infinities are "
                         "refused)", location)
        return self.problems

    def attributes(self, records):
        if not isinstance(records, list):
            self.problem("TypeError", "Attributes: a list of [id, class, name, value] records",
                         ("Attributes",))
            return
        for index, record in enumerate(records):
            if not (isinstance(record, list) and len(record) == 4 and isinstance(record[0], str)):
                self.problem("IndexError" if isinstance(record, list) and len(record) < 4 else MODEL_ERROR,
                             f"Attributes[{index}]: not an [id, class, name, value] record",
                             ("Attributes", index))

    def object(self, data, place):
        if type(data) is dict and type(header := data.get("?")) is dict and type(
                type_name := header.get("type")) is str and type_name:
            pass  # the usual object: the checks of ``header_of`` pass
        else:
            header = self.header_of(data, place)
            if header is None:
                return
            type_name = header.get("type")
            if not type_name:
                return  # its class is the contract's default: the load checks it
        object_id = header.get("id")
        if isinstance(object_id, (list, dict)):
            path, location = _spelled(place)
            self.problem("TypeError", f"{path}.?.id: unhashable type: {type(object_id).__name__!r}",
                         location + ("?", "id"))
        elif object_id is not None:
            if object_id in self.ids:
                path, location = _spelled(place)
                self.problem(MODEL_ERROR, f"{path}: id {object_id!r} is already used at "
                             f"{_spelled(self.ids[object_id])[0]}", location + ("?", "id"))
            else:
                self.ids[object_id] = place
        if "classVersion" in header or "package" in header:
            found = self.declared_names(header, place)
        else:
            found = self.usual.get(type_name) or self.declared_names(header, place)
        declared, verdicts, plain = found or _UNKNOWN_CLASS
        if plain.issuperset(data):
            return  # every key a property that loads no objects
        for key, value in data.items():
            loads_objects = verdicts.get(key)
            if loads_objects is None:
                if type(key) is not str:
                    path, location = _spelled(place)
                    self.problem("TypeError", f"{path}[{key!r}]: a property name is a string", location)
                    continue
                is_name = self.names.get(key)
                if is_name is None:
                    is_name = self.names[key] = utils.is_keyword(key)
                if not is_name:
                    path, location = _spelled(place)
                    self.problem("RuntimeError", f"{path}.{key}: not a property name (a letter or _ first)",
                                 location + (key,))
                    continue
                if declared is not None:
                    self.warnings.append(f"{_spelled(place)[0]}.{key}: {type_name.partition('/')[0]} has no "
                                         f"property or .init argument {key!r}; ignored")
                    continue
            elif not loads_objects:
                continue
            if isinstance(value, (dict, list)):
                self.value(value, (place, key, True))

    def header_of(self, data, place):
        """The ``?`` mapping of an object with a class name, or without one in a property (whose
        contract gives the class), else None (a problem recorded)."""
        if not isinstance(data, dict):
            path, location = _spelled(place)
            self.problem("ValueError", f"{path}: an object is a mapping, not {type(data).__name__}",
                         location)
            return None
        if "?" not in data:
            path, location = _spelled(place)
            self.problem("ValueError", f"{path}: no '?' header with the object's type", location)
            return None
        header = data["?"]
        if not isinstance(header, dict):
            path, location = _spelled(place)
            self.problem("AttributeError", f"{path}.?: a mapping with type and id, not {header!r}",
                         location + ("?",))
            return None
        type_name = header.get("type")
        if not type_name and place[0] is not None:
            return header  # a property's object: the class() or template() contract names a class
        if not type_name:
            path, location = _spelled(place)
            self.problem("ValueError", f"{path}.?.type: a class name is required",
                         location + ("?", "type") if "type" in header else location + ("?",))
            return None
        if not isinstance(type_name, str):
            path, location = _spelled(place)
            self.problem("TypeError", f"{path}.?.type: a class name, not {type_name!r}",
                         location + ("?", "type"))
            return None
        return header

    def value(self, value, place):
        """Objects inside a dict or list value (places are made only for containers)."""
        if isinstance(value, dict):
            if "?" in value:
                self.object(value, place)
            else:
                for key, item in value.items():
                    if isinstance(item, (dict, list)):
                        self.value(item, (place, key, False))
        else:
            for index, item in enumerate(value):
                if type(item) is dict and "?" in item:
                    self.object(item, (place, index, False))
                elif isinstance(item, (dict, list)):
                    self.value(item, (place, index, False))

    def declared_names(self, header, place):
        """(property and ``.init`` argument names of the object's classes -> whether a contract
        of that name loads objects, the verdict on each key of the object: the same for those
        names that are property names, and skip ``?``, the keys whose verdict is to skip them);
        None (a problem recorded) when the class cannot be loaded. The classes of headers without classVersion and package are also kept by
        type name (``usual``)."""
        key = (header["type"], header_text(header.get("classVersion")),
               header_text(header.get("package")))
        found = self.declared.get(key)
        if found is None:
            name, _, rest = key[0].partition("/")
            version_text, _, package_name = rest.partition("@")
            try:
                murano_type = self.executor.class_version(name, version_text or key[1],
                                                          package_name or key[2])
            except (errors.MuranoError, ValueError) as error:
                found = error
            else:
                declared = _declared_names(murano_type)
                verdicts = {name: loads for name, loads in declared.items() if utils.is_keyword(name)}
                verdicts["?"] = False
                found = (declared, verdicts,
                         frozenset(name for name, loads in verdicts.items() if not loads))
            self.declared[key] = found
        if isinstance(found, Exception):
            path, location = _spelled(place)
            self.problem(getattr(found, "type_name", type(found).__name__), f"{path}.?.type: {found}",
                         location + ("?", "type"))
            return None
        if key[1] is None and key[2] is None:
            self.usual[key[0]] = found
        return found


# ``declared_names`` of an object whose class is not known
_UNKNOWN_CLASS = (None, {"?": False}, frozenset("?"))
_DOCUMENT_TOP = (None, "$", False)  # a bare object model: ``$``, at no location


def _spelled(place):
    """(path text, location) of a checker's place: ``(None, top, named)`` for the document's
    object (a ``named`` top is the first key of the location), else ``(container's place, key,
    is a property)``; a property is written ``.key``, an item ``[key]``."""
    links = []
    while place[0] is not None:
        links.append(place)
        place = place[0]
    _, top, named = place
    path = [top]
    location = [top] if named else []
    for _, key, is_property in reversed(links):
        path.append(f".{key}" if is_property else f"[{key!r}]")
        location.append(key)
    return "".join(path), tuple(location)


def _declared_names(murano_type):
    """Property and ``.init`` argument names -> whether a contract of that name loads objects
    (a Runtime, Config or Static property's model value is never loaded, so it loads none)."""
    names = {}

    def declare(name, loads_objects):
        names[name] = names.get(name, False) or loads_objects

    for part_type in (murano_type, *murano_type.ancestors()):
        for name, prop in part_type.properties.items():
            declare(name, prop.spec.loads_objects and prop.usage not in UNLOADED_USAGES)
        init = part_type.methods.get(".init")
        if init is not None:
            for name, argument in init.arguments.items():
                declare(name, argument.spec.loads_objects)
        if part_type.native_class is not None and part_type.native_class.constructor:
            for name in part_type.native_class.constructor.python_names:
                declare(name, True)
    return names


def check_model(executor, model) -> None:
    """Raise InvalidObjectModel listing every problem of ``model`` (see ``_ModelChecker``);
    what the reference ignores is added to ``executor.warnings``."""
    checker = _ModelChecker(executor)
    problems = checker.document(model)
    executor.warnings.extend(checker.warnings)
    if problems:
        raise InvalidObjectModel(problems)


def non_finite_numbers(data, top="$"):
    """``(path, location, value)`` of every NaN or infinite float in ``data`` (JSON has none:
    such a value never comes in nor goes out), in the model checker's path style."""
    if not _has_non_finite(data):  # paths are built only when there is one to report
        return []
    stack = [(data, top, ())]
    found = []
    while stack:
        value, path, location = stack.pop()
        if type(value) is float:
            if not math.isfinite(value):
                found.append((path, location, value))
        elif isinstance(value, dict):
            is_object = "?" in value
            stack.extend((item, f"{path}.{key}" if is_object else f"{path}[{key!r}]", location + (key,))
                         for key, item in value.items())
        elif isinstance(value, (list, tuple)):
            stack.extend((item, f"{path}[{index}]", location + (index,)) for index, item in enumerate(value))
    return sorted(found, key=lambda entry: entry[0])


def _has_non_finite(data) -> bool:
    """``non_finite_numbers(data) != []``, without the paths: the containers are walked, their
    plain items skipped (a model's load checks a large model with it; 60,000 values, 3.5ms)."""
    stack = [(data,)]
    pop, push, isfinite = stack.pop, stack.append, math.isfinite
    while stack:
        container = pop()
        for item in container.values() if isinstance(container, dict) else container:
            kind = type(item)
            if kind in FINITE_SCALARS:
                continue
            if kind is float:
                if not isfinite(item):
                    return True
            elif isinstance(item, (dict, list, tuple)):
                push(item)
    return False



def reference_paths(model, object_id) -> list:
    """Model paths (as the checker writes them) of the property values equal to ``object_id``."""
    return [path for path, _ in reference_locations(model, object_id)]


def reference_locations(model, object_id) -> list:
    """``(path, location)`` of the property values of ``model`` equal to ``object_id``, by path:
    the checker's text and the keys and indices from the document's top."""
    if isinstance(model, dict) and any(key in model for key in DOCUMENT_KEYS):
        stack = [(model[key], key, (key,)) for key in ("Objects", "ObjectsCopy") if key in model]
    else:
        stack = [(model, "$", ())]
    found = []
    while stack:
        value, path, location = stack.pop()
        if isinstance(value, dict):
            is_object = "?" in value
            stack.extend((item, f"{path}.{key}" if is_object else f"{path}[{key!r}]", location + (key,))
                         for key, item in value.items() if key != "?")
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{index}]", location + (index,)) for index, item in enumerate(value))
        elif value == object_id:
            found.append((path, location))
    return sorted(found)


def type_string(murano_type) -> str:
    if isinstance(murano_type, TypeReference):
        murano_type = murano_type.type
    text = murano_type.serialized_name
    if text is None:
        text = murano_type.serialized_name = (
            f"{murano_type.name}/{murano_type.version}@{murano_type.package.name}")
    return text


class _Writer:
    """Writes one tree (``dump()``, ``render``): objects under their owners, references
    resolved once the tree is built (see the module's docstring).

    A reference met in a container is recorded as ``(containers, key, obj)``: ``containers``
    the output containers that hold a place for it, one per tree the writer writes."""

    def __init__(self, serialization_type="Serializable", allow_refs=False):
        if serialization_type not in DUMP_TYPES:
            raise ValueError("Invalid Serialization Type")
        self.serialization_type = serialization_type
        self.allow_refs = allow_refs
        self.written = set()
        self.references = []

    def tree(self, root):
        """The tree of ``root``: an object, or a class part of one (``dump()`` honouring an
        upcast writes the properties that class and its ancestors declare, under its type)."""
        result = self.object(root)
        self.resolve_references()
        return result

    def resolve_references(self):
        """Write each object referenced but not written, that can move, in full where it was
        first referenced (pass after pass, as its properties may reference more); then the
        references left become ids."""
        while self.references:
            pending, self.references = self.references, []
            moved = False
            for entry in pending:
                containers, key, obj = entry
                if obj.object_id in self.written or (self.allow_refs and obj.owner is not None):
                    self.references.append(entry)
                    continue
                self.place(containers, key, self.object(obj))
                moved = True
            if not moved:
                break
        self._finish_references()

    @staticmethod
    def place(containers, key, written):
        containers[0][key] = written

    def _finish_references(self):
        """Every reference left is to an object written somewhere (the tree moved the others
        inline) or, where references are allowed, to any object: its id."""
        for containers, key, obj in self.references:
            for container in containers:
                container[key] = obj.object_id
        self.references = []

    def object(self, obj):
        object_id = obj.drawn_id or obj.object_id
        self.written.add(object_id)
        murano_type = obj.type
        names = murano_type.written_property_names
        if names is None:
            names = murano_type.written_property_names = _written_property_names(obj)
        real = obj.real_this
        values = real.properties
        serialization_type = self.serialization_type
        if serialization_type == "Inline":
            result = {}
        else:
            header = {"type": murano_type if serialization_type == "Mixed" else (
                          murano_type.serialized_name or type_string(murano_type)),
                      "id": object_id, "name": obj.name, "metadata": obj.metadata}
            if obj.destroyed:
                header["destroyed"] = True
            result = {"?": header}
        for name in names:
            if name in values:
                value = values[name]
                value_type = type(value)
                if value_type in SCALARS:
                    result[name] = value
                elif value_type is tuple:
                    result[name] = self.sequence(value, real) if value else []
                elif self.allow_refs and isinstance(value, MuranoObject) and _by_reference(obj, name):
                    result[name] = value.object_id
                else:
                    result[name] = self.value(value, real, (result,), name)
        if serialization_type == "Inline":
            header = {murano_type: result, "id": object_id, "name": obj.name, "metadata": obj.metadata}
            if obj.destroyed:
                header["destroyed"] = True
            return header
        return result

    def value(self, value, parent, containers, key):
        """What ``value`` (not a scalar) is written as, in each tree; ``containers`` are the
        output containers that will hold it at ``key``."""
        value_type = type(value)
        if value_type is MuranoObject:
            return self.object_value(value, parent, containers, key)
        if value_type is tuple or value_type is list:
            return self.sequence(value, parent)
        if isinstance(value, (str, int, float, bool)):
            return self.leaf(value)
        if isinstance(value, MuranoObject):
            return self.object_value(value, parent, containers, key)
        if isinstance(value, (MuranoType, TypeReference)):
            return self.leaf(type_string(value))
        if isinstance(value, utils.MappingType):
            return self.mapping(value, parent)
        if isinstance(value, (list, tuple, set, frozenset)):
            return self.sequence(value, parent)
        return self.leaf(value)

    @staticmethod
    def leaf(value):
        return value

    def object_value(self, value, parent, containers, key):
        """An object inline where ``parent`` owns it (and it is not written yet), else a
        reference resolved when the tree is done. A class part (a cast) is written as that
        class, as the reference writes it."""
        if value.real_this._owner is parent and (value.drawn_id or value.object_id) not in self.written:
            return self.object(value)
        self.references.append((containers, key, value))
        return self.leaf(None)

    def mapping(self, value, parent):
        result = {}
        containers = (result,)
        for item_key, item in value.items():
            if isinstance(item_key, (MuranoType, TypeReference)):
                item_key = type_string(item_key)
            result[item_key] = item if type(item) in SCALARS else self.value(
                item, parent, containers, item_key)
        return result

    def sequence(self, value, parent):
        result = []
        for index, item in enumerate(value):
            item_type = type(item)
            if item_type in SCALARS:
                result.append(item)
            elif item_type is MuranoObject:
                if item.real_this._owner is parent and (item.drawn_id or item.object_id) not in self.written:
                    result.append(self.object(item))
                else:
                    result.append(None)
                    self.references.append(((result,), index, item))
            else:
                result.append(self.value(item, parent, (result,), index))
        return result


class _ModelWriter(_Writer):
    """Writes a deployment's stored model and its copy in one walk: the same tree twice, every
    container built once for each, the stored model's headers with ``_actions``; headers carry
    ``dependencies.onDestruction``. ``tree`` and ``value`` give ``(model, copy)`` pairs."""

    @staticmethod
    def place(containers, key, written):
        containers[0][key], containers[1][key] = written

    @staticmethod
    def leaf(value):
        return value, value

    def object(self, obj):
        object_id = obj.drawn_id or obj.object_id
        self.written.add(object_id)
        murano_type = obj.type
        names = murano_type.written_property_names
        if names is None:
            names = murano_type.written_property_names = _written_property_names(obj)
        entries = murano_type.action_entries
        if entries is None:
            entries = _action_entries(murano_type)
        copy_header = {"type": murano_type.serialized_name or type_string(murano_type),
                       "id": object_id, "name": obj.name, "metadata": obj.metadata}
        if obj.destroyed or obj.destruction_dependencies:
            _header_state(obj, copy_header)
        header = copy_header.copy()
        header["_actions"] = {f"{object_id}_{name}": dict(entry)
                              for name, entry in entries.items()} if entries else {}
        result = {"?": header}
        copy = {"?": copy_header}
        real = obj.real_this
        values = real.properties
        for name in names:
            if name in values:
                value = values[name]
                value_type = type(value)
                if value_type in SCALARS:
                    result[name] = copy[name] = value
                elif value_type is tuple:
                    if value:
                        result[name], copy[name] = self.sequence(value, real)
                    else:
                        result[name] = []
                        copy[name] = []
                else:
                    result[name], copy[name] = self.value(value, real, (result, copy), name)
        return result, copy

    def mapping(self, value, parent):
        result = {}
        copy = {}
        containers = (result, copy)
        for item_key, item in value.items():
            if isinstance(item_key, (MuranoType, TypeReference)):
                item_key = type_string(item_key)
            if type(item) in SCALARS:
                result[item_key] = copy[item_key] = item
            else:
                result[item_key], copy[item_key] = self.value(item, parent, containers, item_key)
        return result, copy

    def sequence(self, value, parent):
        result = []
        copy = []
        for index, item in enumerate(value):
            item_type = type(item)
            if item_type in SCALARS:
                result.append(item)
                copy.append(item)
            else:
                if item_type is MuranoObject:
                    if item.real_this._owner is parent and (item.drawn_id or item.object_id) not in self.written:
                        written, written_copy = self.object(item)
                    else:
                        written = written_copy = None
                        self.references.append(((result, copy), index, item))
                else:
                    written, written_copy = self.value(item, parent, (result, copy), index)
                result.append(written)
                copy.append(written_copy)
        return result, copy


def _header_state(obj, header):
    """The header keys of a stored model's object after its id, name and metadata: destroyed,
    and the destruction dependencies on subscribers that live on."""
    if obj.destroyed:
        header["destroyed"] = True
    dependencies = [{"subscriber": subscriber.object_id, "handler": handler}
                    for subscriber, handler in obj.destruction_dependencies
                    if not (subscriber.destroyed or subscriber.doomed)]
    if dependencies:
        header["dependencies"] = {"onDestruction": dependencies}



def _written_property_names(obj):
    """Names of the properties objects of ``obj``'s class write, in the reference's order:
    class parts parents first, each part's declarations in order (Runtime and Config hidden)."""
    names = {}
    for part in _parts_parents_first(obj):
        for name, prop in part.type.properties.items():
            if prop.usage not in HIDDEN_USAGES:
                names.setdefault(name, None)
    return tuple(names)


def _by_reference(obj, name):
    """Whether ``dump()`` writes the object in property ``name`` as its id, as the reference
    decides when it writes an object value: each class part declaring the property, parents
    first, builds its merged meta objects (so an ``io.murano.metadata.engine.Serialize``
    without a valid ``as`` fails its contract here), and the nearest one with Serialize says
    ``as: reference``."""
    decided = obj.type.referenced_property_names
    if decided is None:
        decided = obj.type.referenced_property_names = {}
    if name not in decided:
        by_reference = False
        for part in _parts_parents_first(obj):
            if name in part.type.properties:
                meta = [item for item in member_meta(part.type, "properties", name)
                        if item.type.name == SERIALIZE]
                by_reference = bool(meta) and meta[0].real_this.properties.get("as") == "reference"
        decided[name] = by_reference
    return decided[name]


def _parts_parents_first(obj):
    """Class parts in the order the reference writes their properties: parents first."""
    order = []
    seen = set()

    def visit(part):
        for parent in part.parents.values():
            if parent.type not in seen:
                visit(parent)
        if part.type not in seen:
            seen.add(part.type)
            order.append(part)

    visit(obj)
    return order


def object_to_dict(obj, serialization_type="Serializable", allow_refs=True):
    """``dump()``: the object and what it owns; other objects as their ids."""
    return _Writer(serialization_type, allow_refs=allow_refs).tree(obj)


def render(value):
    """JSON-able form of a result, as the reference's ``serialize()`` writes it: an object in
    object-model form; inside a list or dict, an object no one owns in that form where first
    met, any other as its id; classes as ``name/version@package``."""
    if isinstance(value, MuranoObject):
        return object_to_dict(value)
    writer = _Writer(allow_refs=True)
    result = _render_value(value, writer, None, None)
    writer.resolve_references()
    return result


def _render_value(value, writer, container, key):
    if isinstance(value, MuranoObject):
        return writer.object_value(value, None, (container,), key)
    if isinstance(value, (MuranoType, TypeReference)):
        return type_string(value)
    if isinstance(value, utils.MappingType):
        result = {}
        for item_key, item in value.items():
            if isinstance(item_key, MuranoObject):  # a key as the reference's is: the object
                item_key = repr(item_key)
            elif not isinstance(item_key, (str, int, float, bool)) and item_key is not None:
                item_key = str(_render_value(item_key, writer, None, None))
            result[item_key] = None
            result[item_key] = _render_value(item, writer, result, item_key)
        return result
    if isinstance(value, (list, tuple, set, frozenset)):
        result = [None] * len(value)
        for index, item in enumerate(value):
            result[index] = _render_value(item, writer, result, index)
        return result
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, collections.abc.Iterable):
        return _render_value(_items_of_lazy(value), writer, container, key)
    return str(value)


def _items_of_lazy(value):
    """A lazy collection (a dict's keys view, a ``map``, an ``orderBy`` result) as the items a
    reader expects, not its Python repr; one that fails while producing them keeps its text."""
    try:
        return list(value)
    except Exception:  # noqa: BLE001 - a rendering never fails on a value's own error
        return str(value)


def serialize_model(executor) -> dict:
    """``{"Objects", "ObjectsCopy", "Attributes"}`` as the engine writes a deployment's result
    back: ``ObjectsCopy`` is the same tree without ``_actions``. Designer (``_``-prefixed)
    header entries of the loaded model are not written, nor are its ``_actions`` flags: the
    reference keeps them in a store that its loads discard."""
    if executor.root is None:
        return {"Objects": None, "ObjectsCopy": None, "Attributes": []}
    writer = _ModelWriter()
    with collector_paused():
        objects, objects_copy = writer.tree(executor.root)
    attributes = [[object_id, owner, name, render(value)]
                  for (object_id, owner, name), value in executor.attributes.items()
                  if object_id in writer.written]
    return {"Objects": objects, "ObjectsCopy": objects_copy, "Attributes": attributes}


ACTION_TEXTS = (("io.murano.metadata.Description", "description"),
                ("io.murano.metadata.HelpText", "helpText"))
TITLE = "io.murano.metadata.Title"


def _action_entries(murano_type) -> dict:
    """Per action method name (``find_methods`` order) its ``_actions`` entry: enabled, name,
    title (the method name without a Title meta), description and helpText from its meta.
    Where an ancestor also declares an action of that name, the ancestor's entry is kept at
    the first one's place, as the reference overwrites it."""
    entries = murano_type.action_entries
    if entries is None:
        entries = {}
        for method in murano_type.find_methods(lambda m: m.is_action):
            texts = _meta_texts(method)
            entry = {"enabled": True, "name": method.name, "title": texts.get(TITLE, method.name)}
            entry.update((key, texts[meta_class]) for meta_class, key in ACTION_TEXTS
                         if meta_class in texts)
            entries[method.name] = entry
        murano_type.action_entries = entries
    return entries


def _meta_texts(method) -> dict:
    """``text`` of each meta object of the method (its own and inherited ones), by meta class
    name. The meta objects are built as the reference builds them, outside the object store."""
    executor = method.declaring_type.executor
    known = set(executor.objects.ordered)
    try:
        meta = get_meta(executor.object_context(method.declaring_type), method)
    finally:
        for obj in executor.objects.values():
            if obj not in known:
                executor.objects.discard(obj)
    return {item.type.name: item.properties.get("text") for item in meta}


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


def _held_by_running_methods(executor):
    """Objects the variables, arguments and ``$this`` of running method bodies refer to: the
    reference's collector never frees what a live Python frame holds."""
    for context, local_values in statements.running_bodies(executor):
        for value in local_values:
            yield from _referenced(value)
        while context is not None:
            for name in list(context.keys()):
                if name.startswith("$"):
                    yield from _referenced(context.get_data(name, None, False))
            context = context.parent


def reachable(executor):
    roots = [executor.root] if executor.root is not None else []
    for value in executor.static_values.values():
        roots.extend(_referenced(value))
    roots.extend(_held_by_running_methods(executor))
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


def destruction_order(doomed):
    """Groups of doomed objects, earliest first: an object comes after its owner and after the
    objects subscribed to its destruction (the reference's topological order)."""
    doomed_set = set(doomed)
    level = {}

    def depth(obj, visiting=()):
        if obj in level:
            return level[obj]
        if obj in visiting:
            return 0
        owner = obj.owner
        if owner is None and not obj.destruction_dependencies:
            level[obj] = 1
            return 1
        subscribers = [owner.real_this] if owner is not None else []
        subscribers += [s for s, _ in obj.destruction_dependencies if s not in subscribers]
        result = 1 + max((depth(s, visiting + (obj,)) for s in subscribers if s in doomed_set),
                         default=0)
        level[obj] = result
        return result

    groups = collections.defaultdict(list)
    for obj in doomed:
        groups[depth(obj)].append(obj)
    return [groups[key] for key in sorted(groups)]


def model_objects(root):
    """What the run's result keeps when the run ends: the root and the objects its serialisable
    properties (not Runtime or Config ones, wherever in the class's ancestry they are declared)
    refer to, directly or further on; neither static
    properties nor owners count, as in the reference's finalisation."""
    found = set()
    stack = [root] if root is not None else []
    while stack:
        obj = stack.pop()
        if obj in found:
            continue
        found.add(obj)
        for part in obj.parts():
            for name, value in part.properties.items():
                declarations = part.type.find_properties(name)
                if not declarations or declarations[0].usage not in HIDDEN_USAGES:
                    stack.extend(_referenced(value))
    return found


def finish_run(executor) -> int:
    """The end of a run: destroy every object the model no longer keeps (``model_objects``),
    then forget static property values (the next run starts from their Defaults)."""
    count, _ = _destroy_all_but(executor, model_objects(executor.root), at_end=True)
    executor.static_values.clear()
    return count


def collect_garbage(executor) -> int:
    """Destroy objects nothing reachable refers to, again while a pass ran MuranoPL code
    (``.destroy`` methods, destruction handlers, Parallel branches running meanwhile), as the
    reference's collection repeats while it destroys: what that code let go of goes in the
    same collection."""
    count = 0
    while True:
        destroyed, ran_code = _destroy_all_but(executor, reachable(executor))
        count += destroyed
        if not ran_code:
            return count


def _destroy_all_but(executor, alive, at_end=False) -> tuple[int, bool]:
    """Destroy the objects not in ``alive``: destruction handlers of subscribers run first
    (publishers earliest), then every ``.destroy`` (own class first, then ancestors), objects
    owned by doomed objects before their owners; errors in them are muted, as in the
    reference. A collection marks each group destroyed once the group's ``.destroy`` methods
    have run; the end of a run (``at_end``) marks them all only after every one has run, as the
    reference's finalisation does (a doomed object's ``.destroy`` may still call another doomed
    object, such as a client it made in ``.init``). Returns how many it destroyed and whether
    MuranoPL code could run meanwhile."""
    doomed = [obj for obj in executor.objects.values() if obj not in alive and not obj.destroyed]
    for obj in doomed:
        obj.doomed = True
    groups = destruction_order(doomed)
    ran_code = False
    for group in groups:
        ran_code |= _each(executor, group, _signal_subscribers, _has_destruction_handlers)
    for group in reversed(groups):
        ran_code |= _each(executor, group, _destroy, destroy_methods)
        if not at_end:
            for obj in group:
                _mark_destroyed(executor, obj)
    if at_end:
        for obj in doomed:
            _mark_destroyed(executor, obj)
    return len(doomed), ran_code


def _each(executor, group, action, has_work) -> bool:
    """``action(executor, obj)`` for every object of a destruction group; for several, as green
    threads, as the reference's parallel_select runs them: other green threads (Parallel
    branches) run meanwhile. While no Parallel runs there are no other green threads to run
    meanwhile, so the objects ``has_work`` says the action does nothing for (most objects of a
    big collection: no handlers, no ``.destroy``) get no green thread of their own. Returns
    whether MuranoPL code could run meanwhile."""
    others_run = bool(statements.running_parallels)
    if not others_run:
        group = [obj for obj in group if has_work(obj)]
    if len(group) == 1:
        action(executor, group[0])
    elif group:
        statements.parallel_select(expressions.empty_context(),
                                   [lambda _, obj=obj: action(executor, obj) for obj in group])
    return others_run or bool(group)


def _has_destruction_handlers(obj) -> bool:
    return bool(obj.destruction_dependencies)


def destroy_methods(obj) -> list:
    """The ``.destroy`` methods of the object's class and its ancestors (own class first),
    found once per class: a class's methods never change once it is loaded."""
    murano_type = obj.type
    found = murano_type.destroy_methods
    if found is None:
        found = murano_type.destroy_methods = murano_type.find_methods(lambda m: m.name == ".destroy")
    return found


def _signal_subscribers(executor, obj):
    for subscriber, handler in list(obj.destruction_dependencies):
        if handler and subscriber.initialized and not subscriber.destroyed:
            try:
                method = subscriber.type.find_single_method(handler)
                executor.call_method(method, subscriber.cast(method.declaring_type), (obj,))
            except Exception:  # noqa: BLE001 - the reference mutes (and logs) these
                pass
    obj.destruction_dependencies = ()


def _destroy(executor, obj):
    for method in destroy_methods(obj):
        try:
            executor.call_method(method, obj.cast(method.declaring_type))
        except Exception:  # noqa: BLE001 - the reference mutes (and logs) these
            pass


def _mark_destroyed(executor, obj):
    obj.destroyed = True
    if obj._parents is not None:  # parts made later copy the whole object's destroyed
        for part in obj.parts():
            part.destroyed = True
    executor.objects.discard(obj)


@specs.parameter("obj", ObjectParameter())
@specs.parameter("serialization_type", yaqltypes.String())
@specs.parameter("ignore_upcasts", bool)
def dump(obj, serialization_type="Serializable", ignore_upcasts=True):
    if serialization_type not in ("Serializable", "Inline", "Mixed"):
        raise ValueError("Invalid Serialization Type")
    return object_to_dict(obj.real_this if ignore_upcasts else obj, serialization_type)
