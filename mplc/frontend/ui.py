"""UI forms (``UI/ui.yaml``) as the dashboard reads them, into plain data.

The dashboard has its own expression rule: a plain scalar is YAQL when it does not fully match
``^[\\s\\w\\d.:]*$`` and parses with yaql's standard engine (no ``:`` or ``is`` operators), or
when it is tagged ``!yaql``. Forms are not IR: other layers (forms, schemas) take the data.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded first)
import semantic_version
import yaml
from yaql.language import exceptions as yaql_exceptions
from yaql.language import factory as yaql_factory

from mplc.diagnostics import DiagnosticSink
from mplc.ir import Node, Pos

UI_PLAIN_TEXT = re.compile(r"^[\s\w\d.:]*$")
YAQL_TAG = "!yaql"


class UiExpression(str):
    """The text of a YAQL expression of a form (the dashboard evaluates it)."""


@functools.lru_cache(maxsize=1)
def _engine():
    return yaql_factory.YaqlFactory().create()


def is_ui_expression(text: str) -> bool:
    if UI_PLAIN_TEXT.match(text):
        return False
    try:
        _engine()(text)
    except (yaql_exceptions.YaqlException, RecursionError, ValueError, TypeError, IndexError):
        return False
    return True


class _UiMatcher:
    @staticmethod
    def match(text: str) -> bool:
        return is_ui_expression(text)


class _UiLoader(yaml.SafeLoader):
    def construct_object(self, node, deep=False):
        """PyYAML's bool and timestamp constructors fail on other text with plain Python errors;
        they become YAML errors at the node."""
        try:
            return super().construct_object(node, deep)
        except (AttributeError, LookupError, ValueError, TypeError, OverflowError) as error:
            text = f" {node.value[:40]!r}" if isinstance(node, yaml.ScalarNode) else ""
            detail = f": {error}" if isinstance(error, ValueError) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {node.tag} value{text}{detail}", node.start_mark) from None


_UiLoader.add_implicit_resolver(YAQL_TAG, _UiMatcher, None)
_UiLoader.add_constructor(YAQL_TAG, lambda loader, node: UiExpression(loader.construct_scalar(node)))


class UiMapping(dict):
    """A YAML mapping of a form file that remembers where its keys and values are."""

    __slots__ = ("pos", "key_pos", "value_pos")

    def position(self, key) -> Pos:
        return self.value_pos.get(key) or self.key_pos.get(key) or self.pos


class UiSequence(list):
    """A YAML sequence of a form file that remembers where its items are."""

    __slots__ = ("pos", "item_pos")

    def position(self, index: int) -> Pos:
        return self.item_pos[index] if 0 <= index < len(self.item_pos) else self.pos


def _node_pos(loader, node) -> Pos:
    start, end = node.start_mark, node.end_mark
    return Pos(loader.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _construct_mapping(loader, node):
    data = UiMapping()
    data.pos, data.key_pos, data.value_pos = _node_pos(loader, node), {}, {}
    yield data
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a list or mapping cannot be a mapping key", key_node.start_mark) from None
        data[key] = loader.construct_object(value_node, deep=True)
        data.key_pos[key] = _node_pos(loader, key_node)
        data.value_pos[key] = _node_pos(loader, value_node)


def _construct_sequence(loader, node):
    data = UiSequence()
    data.pos, data.item_pos = _node_pos(loader, node), []
    yield data
    for item in node.value:
        data.append(loader.construct_object(item, deep=True))
        data.item_pos.append(_node_pos(loader, item))


_UiLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_UiLoader.add_constructor("tag:yaml.org,2002:seq", _construct_sequence)


def read_ui_form(data: bytes, path: str, sink: DiagnosticSink) -> dict | None:
    """The form definition of a ui.yaml file, or None (with a diagnostic) when it is no YAML
    mapping. Mappings and sequences remember their positions (UiMapping, UiSequence)."""
    try:
        loader = _UiLoader(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        sink.error("E-ENCODING", f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})",
                   Pos(path, 1, 1, 1, 1))
        return None
    loader.path = path
    try:
        document = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(part for part in (error.context, error.problem) if part)
        sink.error("E-YAML", f"YAML syntax: {message}", Pos(path, line, column, line, column + 1))
        return None
    except yaml.YAMLError as error:
        sink.error("E-YAML", f"YAML syntax: {error}", Pos(path, 1, 1, 1, 1))
        return None
    except RecursionError:
        sink.error("E-YAML-DEPTH", "YAML nesting too deep", Pos(path, 1, 1, 1, 1))
        return None
    finally:
        loader.dispose()
    if not isinstance(document, dict):
        sink.error("E-UI", "a UI form file must be one YAML mapping (Version, Forms, ...)",
                   Pos(path, 1, 1, 1, 1))
        return None
    return document


# -- the definition: what the dashboard builds its wizard from ---------------------------------

LATEST_VERSION = (2, 4)
WORKFLOW_FORM = "workflowManagement"
APP_NAME_FIELD = "application_name"
STAY_FIELD = "stay_at_the_catalog"
APP_NAME_SINCE = (2, 2)  # the dashboard asks for the application's name from this version on

# field type -> the keyword arguments its Django field class accepts (decamelized names, as the
# dashboard passes them); a key the class does not take makes the dashboard fail building the form
_FIELD_KEYWORDS = frozenset({
    "required", "widget", "label", "initial", "help_text", "error_messages", "show_hidden_initial",
    "validators", "localize", "disabled", "label_suffix", "description", "description_title"})
_TEXT_KEYWORDS = frozenset({"max_length", "min_length", "strip", "empty_value"})
_CHOICE_KEYWORDS = frozenset({"choices"})
_DYNAMIC_CHOICE_KEYWORDS = _CHOICE_KEYWORDS | {"add_item_link", "add_item_link_args"}
FIELD_TYPES: dict[str, frozenset] = {
    "string": _TEXT_KEYWORDS,
    "text": _TEXT_KEYWORDS,
    "password": _TEXT_KEYWORDS | {"confirm_input"},
    "databaselist": _TEXT_KEYWORDS,
    "integer": frozenset({"max_value", "min_value", "step_size"}),
    "boolean": frozenset(),
    "floatingip": frozenset(),
    "clusterip": frozenset({"unpack_ipv4"}),
    "choice": _CHOICE_KEYWORDS,
    "flavor": _CHOICE_KEYWORDS | {"requirements"},
    "keypair": _DYNAMIC_CHOICE_KEYWORDS,
    "securitygroup": _DYNAMIC_CHOICE_KEYWORDS,
    "image": _CHOICE_KEYWORDS | {"image_type"},
    "azone": _CHOICE_KEYWORDS,
    "network": _CHOICE_KEYWORDS | {"filter", "murano_networks", "allow_auto"},
    "volume": _CHOICE_KEYWORDS | {"include_volumes", "include_snapshots"},
    "zone": _CHOICE_KEYWORDS,
}
APP_FIELD_KEYWORDS = _DYNAMIC_CHOICE_KEYWORDS | {"empty_value_message"}
# consumed by the dashboard itself before the field class is built
_WIDGET_KEYS = frozenset({"hidden", "regexp_validator", "widget_media", "widget_attrs"})
_LOCALIZABLE = frozenset({"label", "help_text", "error_messages"})
_REQUIREMENTS = frozenset({"min_vcpus", "min_disk", "min_memory_mb", "max_vcpus", "max_disk",
                           "max_memory_mb"})
_TOP_LEVEL = frozenset({"Version", "Templates", "Application", "Forms", "Parameters",
                        "ParametersSource"})
_CAMEL_BITS = re.compile(r"([A-Z]*[^A-Z]*)(.*)", re.S)


def decamelize(name: str) -> str:
    """camelCase -> camel_case, splitting as the dashboard does (runs of capitals start a bit)."""
    bits = []
    while True:
        head, tail = _CAMEL_BITS.match(name).groups()
        bits.append(head)
        if not tail:
            break
        name = tail
    return "_".join(bit.lower() for bit in bits)


class _KeyNotText(Exception):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


def _decamelized(value):
    """A field attribute's value as the dashboard passes it on: every mapping key decamelized
    (``errorMessages: {invalidChoice: ...}`` -> ``invalid_choice``); expressions kept."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _KeyNotText(key)
            result[key if isinstance(key, UiExpression) else decamelize(key)] = _decamelized(item)
        return result
    if isinstance(value, list):
        return [_decamelized(item) for item in value]
    return value


@dataclass(frozen=True, slots=True, eq=False)
class UiField(Node):
    """One field: ``kind`` is a field type of the spec, or ``"application"`` when ``type`` names
    application classes (``app_types``). ``attributes`` are the field's other keys, decamelized
    (at every depth, as the dashboard does), values as written."""

    name: str
    kind: str
    app_types: tuple[str, ...]
    attributes: dict
    attribute_pos: tuple[tuple[str, Pos], ...]
    pos: Pos | None


@dataclass(frozen=True, slots=True, eq=False)
class UiForm(Node):
    name: str
    fields: tuple[UiField, ...]
    validators: tuple[dict, ...]  # {"expr": UiExpression, "message": str}
    region: Any
    pos: Pos | None


@dataclass(frozen=True, slots=True, eq=False)
class UiDefinition(Node):
    """A validated dynamic UI definition (Version 2.0-2.4)."""

    path: str
    version: tuple[int, int, int]
    forms: tuple[UiForm, ...]
    templates: dict
    application: Any
    parameters: dict
    pos: Pos


def _version(value) -> tuple[int, int, int] | None:
    """The dashboard's ``semantic_version.Version.coerce(str(value))``."""
    try:
        version = semantic_version.Version.coerce(str(value))
    except ValueError:
        return None
    return version.major, version.minor, version.patch


def _expressions(value, pos: Pos, found: list) -> None:
    """Every YAQL expression in ``value`` with its position."""
    if isinstance(value, UiExpression):
        found.append((value, pos))
    elif isinstance(value, dict):
        for key, item in value.items():
            where = value.position(key) if isinstance(value, UiMapping) else pos
            _expressions(key, value.key_pos.get(key, pos) if isinstance(value, UiMapping) else pos,
                         found)
            _expressions(item, where, found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _expressions(item, value.position(index) if isinstance(value, UiSequence) else pos,
                         found)


class _DefinitionReader:
    def __init__(self, document: dict, path: str, sink: DiagnosticSink):
        self.document = document
        self.path = path
        self.sink = sink
        self.ok = True

    def error(self, message: str, pos: Pos, code: str = "E-UI") -> None:
        self.sink.error(code, message, pos)
        self.ok = False

    def where(self, container, key) -> Pos:
        if isinstance(container, (UiMapping, UiSequence)):
            return container.position(key)
        return Pos(self.path, 1, 1, 1, 1)

    def key_where(self, container, key) -> Pos:
        if isinstance(container, UiMapping):
            return container.key_pos.get(key, container.pos)
        return self.where(container, key)

    def read(self) -> UiDefinition | None:
        document = self.document
        file_pos = Pos(self.path, 1, 1, 1, 1)
        for key in document:
            if key not in _TOP_LEVEL:
                self.sink.warning("W-UI-KEY", f"unknown section {key!r} of a UI definition "
                                  f"(known: {', '.join(sorted(_TOP_LEVEL))}); the dashboard "
                                  "ignores it", self.key_where(document, key))
        version = self.version(document.get("Version", "2.4"), self.where(document, "Version"))
        for expression, pos in self.all_expressions():
            self.check_expression(expression, pos)
        if "ParametersSource" in document:
            self.sink.warning("W-UI-PARAMETERS-SOURCE", "ParametersSource calls a static method "
                              "of the package through Murano's API; mplc model leaves Parameters "
                              "as written", self.key_where(document, "ParametersSource"))
        application = document.get("Application")
        if application is None:
            self.error("the UI definition has no Application section (the dashboard requires "
                       "one)", file_pos)
        elif version is not None and version >= APP_NAME_SINCE + (0,):
            marker = application.get("?") if isinstance(application, dict) else None
            if not isinstance(marker, dict):
                self.error("Application needs a '?' mapping (with its type): from Version 2.2 "
                           "the dashboard stores the application's name there",
                           self.where(document, "Application"))
        templates = self.mapping(document, "Templates")
        parameters = self.mapping(document, "Parameters")
        forms = self.forms(document.get("Forms"), self.where(document, "Forms"))
        if not self.ok or version is None:
            return None
        return UiDefinition(self.path, version, forms, templates, application, parameters,
                            file_pos)

    def all_expressions(self):
        found: list = []
        _expressions(self.document, Pos(self.path, 1, 1, 1, 1), found)
        return found

    def check_expression(self, expression: str, pos: Pos) -> None:
        try:
            _engine()(str(expression))
        except (yaql_exceptions.YaqlException, RecursionError, ValueError, TypeError,
                IndexError) as error:
            self.error(f"invalid YAQL expression {str(expression)!r}: {error}", pos, "E-UI-YAQL")

    def version(self, value, pos: Pos) -> tuple[int, int, int] | None:
        version = _version(value)
        if version is None:
            self.error(f"invalid Version {value!r} of a UI definition; 2.0 to 2.4", pos,
                       "E-UI-VERSION")
        elif version[0] != LATEST_VERSION[0] or version > LATEST_VERSION + (0,):
            self.error(f"unsupported Dynamic UI format version {value}: the dashboard reads "
                       "2.0 to 2.4", pos, "E-UI-VERSION")
            return None
        return version

    def mapping(self, document: dict, key: str) -> dict:
        value = document.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(f"{key} must be a mapping", self.where(document, key))
            return {}
        return value

    def forms(self, forms, pos: Pos) -> tuple[UiForm, ...]:
        if forms is None:
            return ()
        if not isinstance(forms, list):
            self.error("Forms must be a list of forms (- formName: {fields: [...]})", pos)
            return ()
        result: list[UiForm] = []
        seen: set = set()
        for index, entry in enumerate(forms):
            where = self.where(forms, index)
            if not isinstance(entry, dict) or not entry:
                self.error("a form must be a mapping of its name to its fields "
                           "(- formName: {fields: [...]})", where)
                continue
            name, body = next(iter(entry.items()))
            name_pos = self.key_where(entry, name)
            if len(entry) > 1:
                self.sink.warning("W-UI-KEY", "a form is one mapping entry; the dashboard "
                                  f"reads only {name!r} of this item", where)
            if not isinstance(name, str):
                self.error(f"a form name must be a string, not {name!r}", name_pos)
                continue
            if name == WORKFLOW_FORM:
                self.sink.warning("W-UI-FORM-NAME", f"form {name!r} is the dashboard's own last "
                                  "step: its answers mix with the application name's", name_pos)
            if name in seen:
                self.sink.warning("W-UI-FORM-NAME", f"a second form named {name!r}: its data "
                                  "replaces the first one's in $." + name, name_pos)
            seen.add(name)
            form = self.form(name, body, self.where(entry, name), name_pos)
            if form is not None:
                result.append(form)
        return tuple(result)

    def form(self, name: str, body, pos: Pos, name_pos: Pos) -> UiForm | None:
        if not isinstance(body, dict) or "fields" not in body:
            self.error(f"form {name!r} has no fields list", pos)
            return None
        fields = body["fields"]
        if not isinstance(fields, list):
            self.error(f"fields of form {name!r} must be a list", self.where(body, "fields"))
            return None
        for key in body:
            if key not in ("fields", "validators", "region"):
                self.sink.warning("W-UI-KEY", f"unknown key {key!r} of form {name!r} (fields, "
                                  "validators, region); the dashboard ignores it",
                                  self.key_where(body, key))
        validators = self.form_validators(name, body.get("validators") or [],
                                          self.where(body, "validators"))
        built: list[UiField] = []
        names: set = set()
        for index, spec in enumerate(fields):
            field = self.field(spec, self.where(fields, index))
            if field is None:
                continue
            if field.name in names:
                self.sink.warning("W-UI-FIELD-NAME", f"a second field named {field.name!r} in "
                                  f"form {name!r} replaces the first", field.pos)
                built = [other for other in built if other.name != field.name]
            names.add(field.name)
            built.append(field)
        return UiForm(name, tuple(built), validators, body.get("region"), name_pos)

    def form_validators(self, form: str, validators, pos: Pos) -> tuple[dict, ...]:
        if not isinstance(validators, list):
            self.error(f"validators of form {form!r} must be a list of {{expr, message}}", pos)
            return ()
        for index, validator in enumerate(validators):
            where = self.where(validators, index)
            if not isinstance(validator, dict) or "expr" not in validator:
                self.error("a form validator is a mapping with expr (YAQL over all forms' "
                           "data) and message", where)
            elif not isinstance(validator["expr"], UiExpression):
                self.error(f"the expr of a form validator must be a YAQL expression, not "
                           f"{validator['expr']!r}", self.where(validator, "expr"))
        return tuple(validators)

    def field(self, spec, pos: Pos) -> UiField | None:
        if not isinstance(spec, dict):
            self.error("a field must be a mapping with name and type", pos)
            return None
        missing = [key for key in ("name", "type") if key not in spec]
        if missing:
            self.error(f"field has no {' or '.join(missing)}", pos)
            return None
        name, field_type = spec["name"], spec["type"]
        if not isinstance(name, str) or isinstance(name, UiExpression):
            self.error(f"a field name must be a string, not {name!r}", self.where(spec, "name"))
            return None
        kind, app_types = self.field_kind(field_type, self.where(spec, "type"))
        if kind is None:
            return None
        attributes: dict = {}
        attribute_pos: dict = {}
        for key, value in spec.items():
            if key in ("name", "type"):
                continue
            if not isinstance(key, str):
                self.error(f"field attribute {key!r} must be a string", self.key_where(spec, key))
                continue
            attribute = decamelize(key)
            attribute_pos[attribute] = self.where(spec, key)
            self.attribute(name, kind, attribute, key, value, self.where(spec, key),
                           self.key_where(spec, key))
            try:
                attributes[attribute] = _decamelized(value)
            except _KeyNotText as error:
                self.error(f"field {name!r}: {key} has a key {error.key!r} that is no string "
                           "(the dashboard renames keys at every depth and fails on it)",
                           self.where(spec, key), "E-UI-ATTRIBUTE")
        if kind == "password" and "label" not in attributes:
            self.error(f"password field {name!r} needs a label (the dashboard's password field "
                       "cannot be built without one)", pos)
        return UiField(name, kind, app_types, attributes, tuple(attribute_pos.items()), pos)

    def field_kind(self, field_type, pos: Pos) -> tuple[str | None, tuple[str, ...]]:
        if isinstance(field_type, list) and field_type and all(
                isinstance(item, str) and not isinstance(item, UiExpression) for item in field_type):
            return "application", tuple(field_type)
        if not isinstance(field_type, str) or isinstance(field_type, UiExpression):
            self.error(f"a field type must be a type name or a list of application class "
                       f"names, not {field_type!r}", pos)
            return None, ()
        if field_type in FIELD_TYPES:
            return field_type, ()
        if field_type == "domain":
            return "application", ("io.murano.windows.ActiveDirectory",)
        if "." not in field_type:
            self.sink.warning("W-UI-FIELD-TYPE", f"unknown field type {field_type!r}: the "
                              "dashboard reads it as an application class name (known types: "
                              f"{', '.join(sorted(FIELD_TYPES))})", pos)
        return "application", (field_type,)

    def attribute(self, field: str, kind: str, attribute: str, key: str, value, pos: Pos,
                  key_pos: Pos) -> None:
        if isinstance(value, UiExpression):
            return  # the dashboard makes it a property evaluated when the form uses it
        accepted = (APP_FIELD_KEYWORDS if kind == "application" else FIELD_TYPES[kind])
        if attribute not in _FIELD_KEYWORDS | accepted | _WIDGET_KEYS:
            known = sorted(_FIELD_KEYWORDS | accepted | _WIDGET_KEYS)
            self.error(f"field {field!r} ({kind}) has no attribute {key!r}; the dashboard fails "
                       f"building the form (known: {', '.join(known)})", key_pos,
                       "E-UI-ATTRIBUTE")
            return
        check = getattr(self, f"check_{attribute}", None)
        self.current_pos = pos
        if check is not None:
            problem = check(value, kind)
            if problem:
                self.error(f"field {field!r}: {key} {problem}", pos, "E-UI-ATTRIBUTE")

    @staticmethod
    def _integer(value) -> bool:
        try:
            int(value)
        except (TypeError, ValueError, OverflowError):
            return False
        return not isinstance(value, bool)

    def check_max_length(self, value, kind):
        return None if value is None or self._integer(value) else f"must be an integer, not {value!r}"

    check_min_length = check_max_length

    def check_regexp_validator(self, value, kind):
        if not isinstance(value, str):
            return f"must be a regular expression string, not {value!r}"
        pattern, flags = value, 0
        if value.startswith("/"):
            match = re.match(r"^/(.*)/([A-Za-z]*)$", value, re.S)
            if match is None:
                return "written /.../ must end with / and flag letters"
            pattern = match.group(1)
            for flag in match.group(2).upper():
                flags |= getattr(re, flag, 0) if isinstance(getattr(re, flag, 0), int) else 0
        try:
            re.compile(pattern, flags)
        except (re.error, OverflowError, RecursionError) as error:
            return f"is no valid regular expression: {error}"
        return None

    def check_choices(self, value, kind):
        if isinstance(value, dict):
            return None
        if not isinstance(value, list) or not all(
                isinstance(item, list) and len(item) == 2 for item in value):
            return "must be a mapping of values to titles or a list of [value, title] pairs"
        return None

    def check_requirements(self, value, kind):
        if not isinstance(value, dict):
            return "must be a mapping (minVcpus, minDisk, minMemoryMb, max...)"
        for key, bound in value.items():
            if not isinstance(key, str) or decamelize(key) not in _REQUIREMENTS:
                return f"has unknown requirement {key!r} (known: {', '.join(sorted(_REQUIREMENTS))})"
            if not isinstance(bound, (int, float)) or isinstance(bound, bool):
                return f"{key} must be a number"
        return None

    def check_murano_networks(self, value, kind):
        if value and (not isinstance(value, str) or value.lower() not in ("exclude", "translate")):
            return f"must be exclude or translate, not {value!r}"
        return None

    def check_validators(self, value, kind):
        if not isinstance(value, list):
            return "must be a list of {expr, message}"
        for validator in value:
            if not isinstance(validator, dict) or "expr" not in validator:
                return "items must be mappings with expr and message"
            expr = validator["expr"]
            if isinstance(expr, UiExpression):
                continue
            if isinstance(expr, dict) and any(decamelize(str(key)) == "regexp_validator"
                                              for key in expr):
                continue
            self.sink.warning("W-UI-VALIDATOR", f"a field validator's expr {expr!r} is neither "
                              "a YAQL expression nor {regexpValidator: ...}: the dashboard "
                              "ignores the validator", self.current_pos)
        return None

    def check_widget_media(self, value, kind):
        return None if isinstance(value, dict) else "must be a mapping (js, css)"

    def check_widget_attrs(self, value, kind):
        return None if isinstance(value, dict) else "must be a mapping of HTML attributes"

    def check_error_messages(self, value, kind):
        return None if isinstance(value, dict) else "must be a mapping of error codes to messages"


def read_ui_definition(data: bytes, path: str, sink: DiagnosticSink) -> UiDefinition | None:
    """The validated definition of a ui.yaml file, or None with every problem in ``sink``."""
    document = read_ui_form(data, path, sink)
    if document is None:
        return None
    return _DefinitionReader(document, path, sink).read()
