"""HTML forms from a class's json-schema (the forms specification), and their answers read back.

A schema becomes sections of fields (``formSections``, ``formSection``, ``formIndex``); each
field knows what the browser should check (the same rules, sent as HTML attributes) and how its
text becomes a JSON value. A ``muranoObject`` property becomes a sub-form of its class, a
nested object with ``properties`` a fieldset; what has no input of its own (dicts of anything,
lists of lists) is a JSON text area. Answers are read into an object model and validated on the
server against the schema itself (jsonschema, draft 4, with Murano's ``muranoObject`` type).
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from mplc.server import jsonio

REQUIRED_MESSAGE = "This field is required."
MAX_DEPTH = 4
_INTEGER = re.compile(r"-?[0-9]+")
_SCALAR_KINDS = {"string": "text", "integer": "integer", "number": "number", "boolean": "boolean"}


def _is_murano_object(checker, instance) -> bool:
    if isinstance(instance, str):
        return True
    header = instance.get("?") if isinstance(instance, dict) else None
    return isinstance(header, dict) and isinstance(header.get("type"), str)


_META_SCHEMA = json.loads(json.dumps(jsonschema.Draft4Validator.META_SCHEMA))
_META_SCHEMA["definitions"]["simpleTypes"]["enum"].append("muranoObject")
SchemaValidator = jsonschema.validators.extend(
    jsonschema.Draft4Validator,
    type_checker=jsonschema.Draft4Validator.TYPE_CHECKER.redefine("muranoObject",
                                                                  _is_murano_object))
SchemaValidator.META_SCHEMA = _META_SCHEMA


@dataclass
class Field:
    """One property of a form: ``name`` is its input's name (dotted through sub-forms)."""

    name: str
    key: str
    label: str
    kind: str  # text, integer, number, boolean, choice, lines, json, group
    required: bool
    schema: dict[str, Any]
    description: str | None = None
    help_text: str | None = None
    default: Any = None
    choices: list[Any] = field(default_factory=list)
    item_kind: str | None = None  # for lines: text, integer or number
    murano_type: str | None = None  # for a group that is an object of a class
    class_schema: dict[str, Any] | None = None  # that class's schema
    sections: list[Section] = field(default_factory=list)  # for a group
    visible: bool = True

    @property
    def id(self) -> str:
        return "f-" + self.name

    @property
    def attributes(self) -> dict[str, Any]:
        """The HTML attributes the browser checks the input with (the schema's own rules)."""
        schema, found = self.schema, {}
        if self.kind in ("integer", "number"):
            for key, attribute in (("minimum", "min"), ("maximum", "max")):
                if isinstance(schema.get(key), (int, float)) and not isinstance(schema[key], bool):
                    found[attribute] = schema[key]
                    if schema.get("exclusive" + key.title()):
                        found["data-exclusive-" + attribute] = "true"
            found["step"] = "1" if self.kind == "integer" else "any"
        if self.kind == "text":
            for key, attribute in (("minLength", "data-min-length"), ("maxLength", "data-max-length")):
                if isinstance(schema.get(key), int):
                    found[attribute] = schema[key]
            if isinstance(schema.get("pattern"), str):
                found["data-pattern"] = schema["pattern"]
        if self.kind == "lines":
            found["data-item-kind"] = self.item_kind
        return found

    def text(self, value: Any) -> str:
        """What the input shows for ``value``."""
        if value is None:
            return ""
        if self.kind == "lines":
            return "\n".join(str(item) for item in value) if isinstance(value, list) else ""
        if self.kind == "json":
            return json.dumps(value, indent=2, ensure_ascii=False)
        if self.kind == "choice":
            return json.dumps(value)
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


@dataclass
class Section:
    name: str
    title: str | None
    fields: list[Field]


def _types(schema: Mapping[str, Any]) -> tuple[list[str], bool]:
    """The schema's types other than null, and whether null is allowed."""
    declared = schema.get("type")
    if declared is None:
        return [], True
    names = [declared] if isinstance(declared, str) else list(declared)
    return [name for name in names if name != "null"], "null" in names


def _line_kind(schema: Mapping[str, Any]) -> str | None:
    """The kind of the items of an array one line each can hold, or None."""
    items = schema.get("items", {})
    if not isinstance(items, dict) or "enum" in items or schema.get("additionalItems"):
        return None
    types, _ = _types(items)
    return _SCALAR_KINDS.get(types[0]) if len(types) == 1 and types[0] != "boolean" else None


class FormBuilder:
    """Fields from schemas; ``class_schema(name)`` gives a class's schema for sub-forms (or
    None when it cannot: the property is then a JSON text area)."""

    def __init__(self, class_schema: Callable[[str], dict[str, Any] | None]):
        self.class_schema = class_schema

    def sections(self, schema: Mapping[str, Any], prefix: str = "",
                 types_above: tuple[str, ...] = ()) -> list[Section]:
        titles = schema.get("formSections") or {}
        by_section: dict[str, list[tuple[Any, int, Field]]] = {}
        for order, (key, property_schema) in enumerate((schema.get("properties") or {}).items()):
            if not isinstance(property_schema, dict):
                continue
            built = self.field(prefix + key, key, property_schema, types_above)
            section = property_schema.get("formSection") or ""
            index = property_schema.get("formIndex")
            sort_key = (0, index) if isinstance(index, (int, float)) else (1, 0)
            by_section.setdefault(section, []).append((sort_key, order, built))

        def section_order(name: str):
            index = (titles.get(name) or {}).get("index")
            return (name != "", 0 if isinstance(index, (int, float)) else 1,
                    index if isinstance(index, (int, float)) else 0, name)
        return [Section(name, (titles.get(name) or {}).get("title") if name else None,
                        [item[2] for item in sorted(fields, key=lambda item: item[:2])])
                for name, fields in sorted(by_section.items(), key=lambda item: section_order(item[0]))]

    def field(self, name: str, key: str, schema: dict[str, Any],
              types_above: tuple[str, ...]) -> Field:
        types, nullable = _types(schema)
        built = Field(name=name, key=key, label=schema.get("title") or key, kind="json",
                      required=not nullable and schema.get("default") is None, schema=schema,
                      description=schema.get("description"), help_text=schema.get("helpText"),
                      default=schema.get("default"), visible=schema.get("visible", True) is not False)
        if isinstance(schema.get("enum"), list):
            built.kind, built.choices = "choice", list(schema["enum"])
        elif len(types) == 1 and types[0] in _SCALAR_KINDS:
            built.kind = _SCALAR_KINDS[types[0]]
        elif types == ["array"] and _line_kind(schema):
            built.kind, built.item_kind = "lines", _line_kind(schema)
        elif types == ["object"] and isinstance(schema.get("properties"), dict) and not (
                schema.get("additionalProperties")) and len(types_above) < MAX_DEPTH:
            built.kind = "group"
            built.sections = self.sections(schema, name + ".", (*types_above, ""))
        elif types == ["muranoObject"] and isinstance(schema.get("muranoType"), str):
            murano_type = schema["muranoType"]
            class_schema = (self.class_schema(murano_type)
                            if murano_type not in types_above and len(types_above) < MAX_DEPTH
                            else None)
            if class_schema is not None:
                built.kind, built.murano_type, built.class_schema = "group", murano_type, class_schema
                built.sections = self.sections(class_schema, name + ".", (*types_above, murano_type))
                built.description = built.description or class_schema.get("description")
        return built


def all_fields(sections: list[Section]):
    for section in sections:
        for item in section.fields:
            yield item
            if item.kind == "group":
                yield from all_fields(item.sections)


class Answers:
    """A submitted form read into a model: ``model`` and ``errors`` (input name -> messages)."""

    def __init__(self, sections: list[Section], form: Mapping[str, str], class_name: str):
        self.form = form
        self.errors: dict[str, list[str]] = {}
        self.model = self._object(sections, class_name) or {"?": self._header(class_name)}

    @staticmethod
    def _header(class_name: str) -> dict[str, str]:
        return {"type": class_name, "id": uuid.uuid4().hex}

    def _error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def _object(self, sections: list[Section], class_name: str | None,
                optional: bool = False) -> dict[str, Any] | None:
        """The object the sections' fields make; None for an optional group left empty."""
        fields = [item for section in sections for item in section.fields]
        if optional and not any(self._filled(item) for item in fields):
            return None
        result: dict[str, Any] = {} if class_name is None else {"?": self._header(class_name)}
        for item in fields:
            value = self._value(item)
            if value is not _OMITTED:
                result[item.key] = value
        return result

    def _filled(self, item: Field) -> bool:
        if item.kind == "group":
            return any(self._filled(child) for child in all_fields(item.sections))
        if item.kind == "boolean" or not item.visible:
            return False
        return self.form.get(item.name, "").strip() != ""

    def _value(self, item: Field) -> Any:
        if not item.visible:
            return item.default if item.default is not None else _OMITTED
        if item.kind == "group":
            value = self._object(item.sections, item.murano_type, optional=not item.required)
            return _OMITTED if value is None else value
        if item.kind == "boolean":
            return self.form.get(item.name) in ("on", "true")
        text = self.form.get(item.name, "")
        if text.strip() == "":
            if item.kind == "lines" and item.required:
                return []
            if item.required:
                self._error(item.name, REQUIRED_MESSAGE)
            return _OMITTED
        try:
            return _parse(item, text)
        except ValueError as error:
            self._error(item.name, str(error))
            return _OMITTED


_OMITTED = object()


def _number(text: str, kind: str) -> int | float:
    text = text.strip()
    if kind == "integer":
        if not _INTEGER.fullmatch(text):
            raise ValueError("Enter a whole number.")
        return int(text)
    try:
        value = float(text)
    except ValueError:
        raise ValueError("Enter a number.") from None
    if not math.isfinite(value):
        raise ValueError("Enter a number.")
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def _parse(item: Field, text: str) -> Any:
    if item.kind in ("integer", "number"):
        return _number(text, item.kind)
    if item.kind == "choice":
        try:
            value = json.loads(text)
        except ValueError:
            raise ValueError("Choose one of the listed values.") from None
        if value not in item.choices:
            raise ValueError("Choose one of the listed values.")
        return value
    if item.kind == "lines":
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if item.item_kind == "text":
            return lines
        try:
            return [_number(line, item.item_kind) for line in lines]
        except ValueError:
            noun = "whole number" if item.item_kind == "integer" else "number"
            raise ValueError(f"Enter one {noun} a line.") from None
    if item.kind == "json":
        try:
            return jsonio.decode(text.encode("utf-8"))
        except jsonio.JsonInputError:
            raise ValueError("Enter valid JSON.") from None
    return text


def validate(answers: Answers, schema: dict[str, Any], sections: list[Section]) -> None:
    """Check the model against the schemas themselves (the class's, and each sub-form's class's
    for the objects in it); each error goes to the input it is about."""
    names = {tuple(item.name.split(".")): item.name for item in all_fields(sections)}
    _validate(answers, names, schema, answers.model, sections, ())


def _validate(answers: Answers, names: dict, schema: dict[str, Any], murano_object: dict,
              sections: list[Section], at: tuple[str, ...]) -> None:
    properties = {key: value for key, value in murano_object.items() if key != "?"}
    for error in SchemaValidator(schema).iter_errors(properties):
        path = [*at, *(str(part) for part in error.absolute_path)]
        while path and tuple(path) not in names:
            path.pop()
        name = names.get(tuple(path), "__all__")
        if name not in answers.errors:
            answers.errors.setdefault(name, []).append(_message(error))
    _validate_groups(answers, names, murano_object, sections, at)


def _validate_groups(answers, names, value: dict, sections: list[Section], at) -> None:
    """The objects of classes inside ``value``, an object or a plain nested object whose own
    schema was checked."""
    for item in (item for section in sections for item in section.fields):
        inner = value.get(item.key)
        if item.kind == "group" and isinstance(inner, dict):
            if item.class_schema is not None:
                _validate(answers, names, item.class_schema, inner, item.sections, (*at, item.key))
            else:
                _validate_groups(answers, names, inner, item.sections, (*at, item.key))


def _message(error: jsonschema.ValidationError) -> str:
    """jsonschema's message, said of the value the user typed."""
    return error.message[:1].upper() + error.message[1:] + "."
