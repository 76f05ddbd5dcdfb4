"""The dashboard's form fields: their choices, what a rendered form posts for them, and how a
posted value is cleaned and validated (Django's forms semantics, with the dashboard's own field
classes and quirks).

A field attribute written as a YAQL expression is evaluated when the form uses it, over the
data of the forms cleaned so far, except where the dashboard's field class assigns the
attribute itself when built: then it keeps that value (``required`` stays true; see
``_ASSIGNED_WHEN_BUILT``).
"""

from __future__ import annotations

import ast
import html
import ipaddress
import re
from dataclasses import dataclass

from mplc.frontend.ui import UiExpression, UiField

REQUIRED = "This field is required."
INVALID_CHOICE = "Select a valid choice. %(value)s is not one of the available choices."
ENTER_VALID_VALUE = "Enter a valid value."
WHOLE_NUMBER = "Enter a whole number."
IPV4 = "Enter a valid IPv4 address."
IPV6 = "This is not a valid IPv6 address."
NULL_CHARACTERS = "Null characters are not allowed."
MIN_LENGTH = ("Ensure this value has at least %(limit_value)d character (it has %(show_value)d).",
              "Ensure this value has at least %(limit_value)d characters (it has %(show_value)d).")
MAX_LENGTH = ("Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
              "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).")
MAX_VALUE = "Ensure this value is less than or equal to %(limit_value)s."
MIN_VALUE = "Ensure this value is greater than or equal to %(limit_value)s."
STEP_VALUE = "Ensure this value is a multiple of step size %(limit_value)s."
PASSWORD_INVALID = ("The password must contain at least one letter, one" + " " * 34
                    + "number and one special character")  # a line continuation in the dashboard
PASSWORD_HELP = "Enter a complex password with at least one letter, one number and one special character"
CONFIRM_PASSWORD = "Please confirm your password"
DATABASE_NAME = ("First symbol should be latin letter or underscore. Subsequent symbols can be "
                 "latin letter, numeric, underscore, at sign, number sign or dollar sign")
_PASSWORD_SPECIALS = "!@#$%^&*()_+|\\/.,~?><:{}-"
_PASSWORD = re.compile(r"^.*(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[%s]).*$" % _PASSWORD_SPECIALS)
_DATABASE_NAME = re.compile(r"^[a-zA-z_][a-zA-Z0-9_$#@]*$")
_DECIMAL_TAIL = re.compile(r"\.0*\s*$")
EMPTY_VALUES = (None, "", [], (), {})
ABSENT = object()  # a posted form without this name

# attributes the dashboard's field classes assign when built: an expression given for one of
# them is replaced by this value for good (its property remembers the first value set)
_ASSIGNED_WHEN_BUILT = {"required": True, "help_text": "", "disabled": False,
                        "show_hidden_initial": False, "localize": False, "image_type": None,
                        "allow_auto": True, "include_volumes": True, "include_snapshots": True,
                        "confirm_input": True, "empty_value_message": "Select Application",
                        "validators": (), "error_messages": {}}


class FieldError(Exception):
    """A value failed validation: Django's ValidationError, with every message."""

    def __init__(self, messages: list[str]):
        super().__init__("; ".join(messages))
        self.messages = messages


class _Invalid(Exception):
    """One validator's failure before the field's error messages apply (code, params)."""

    def __init__(self, message: str, code: str | None = None, params: dict | None = None):
        super().__init__(message)
        self.message, self.code, self.params = message, code, params


def _render_message(message: str, params: dict | None) -> str:
    if params:
        try:
            return message % params
        except (TypeError, ValueError, KeyError):
            return message
    return message


def _plural(forms: tuple[str, str], count) -> str:
    return forms[0] if count == 1 else forms[1]


def prepare_regexp(text: str) -> re.Pattern:
    """A regexpValidator: a pattern, or ``/pattern/flags`` with flag letters of ``re``."""
    flags = 0
    if text.startswith("/"):
        text, letters = re.match(r"^/(.*)/([A-Za-z]*)$", text, re.S).groups()
        for letter in letters.upper():
            flag = getattr(re, letter, None)
            if isinstance(flag, int):
                flags |= flag
    return re.compile(text, flags)


def _regex_validator(pattern: re.Pattern, message: str = ENTER_VALID_VALUE):
    def validate(value):
        if not pattern.search(str(value)):
            raise _Invalid(message, "invalid", {"value": value})
    return validate


@dataclass(frozen=True)
class Choice:
    """One option of a select: its value, title and whether it can be chosen."""

    value: object
    title: str
    enabled: bool = True

    @property
    def option_value(self) -> str:
        """The option's value attribute as the page renders it."""
        return "" if self.value is None else str(self.value)


class FormField:
    """A field of one form of one wizard run (the dashboard builds its fields anew for every
    page; ``update`` is its step that fetches choices from the cloud)."""

    widget = "text"
    default_error_messages: dict = {}

    def __init__(self, spec: UiField, form, name: str | None = None):
        self.spec = spec
        self.form = form
        self.name = name or spec.name
        self.attributes = dict(spec.attributes)
        self.assigned: dict = {}  # what update() or the class set, as the dashboard's fields do
        hidden = self.attributes.get("hidden")
        self.hidden = bool(hidden) and not isinstance(hidden, UiExpression)
        if self.hidden:
            self.widget = "hidden"
        self.error_messages = {"required": REQUIRED, **self.default_error_messages}
        messages = self.attributes.get("error_messages")
        if isinstance(messages, dict):
            self.error_messages.update(messages)
        self.validators = self.build_validators()

    # -- attributes ---------------------------------------------------------------------

    def attr(self, name: str, default=None):
        if name in self.assigned:
            return self.assigned[name]
        if name not in self.attributes:
            return default
        value = self.attributes[name]
        if isinstance(value, UiExpression):
            if name in _ASSIGNED_WHEN_BUILT:
                return self.stuck_value(name)
            return self.form.session.field_property(self.form.name, value)
        return value

    def stuck_value(self, name: str):
        return _ASSIGNED_WHEN_BUILT[name]

    def literal(self, name: str, default=None):
        """An attribute as the field class saw it when built (expressions are not values)."""
        value = self.attributes.get(name, default)
        return default if isinstance(value, UiExpression) else value

    @property
    def required(self) -> bool:
        return bool(self.attr("required", True))

    @property
    def label(self):
        label = self.attr("label")
        return None if label is None else html.escape(str(label))

    @property
    def enabled(self) -> bool:
        return bool(self.attr("enabled", True))

    def initial(self):
        return self.attr("initial")

    # -- validators ---------------------------------------------------------------------

    def custom_validators(self) -> list:
        """The field's regexpValidator or validators: the dashboard passes both on as one
        keyword argument, so of the two the one written later wins."""
        found = []
        written = [key for key in self.attributes if key in ("regexp_validator", "validators")]
        if not written:
            return found
        if written[-1] == "regexp_validator":
            regexp = self.literal("regexp_validator")
            return [_regex_validator(prepare_regexp(regexp))] if isinstance(regexp, str) else []
        for validator in self.literal("validators") or ():
            if not isinstance(validator, dict):
                continue
            expr = validator.get("expr")
            message = validator.get("message", "")
            if isinstance(expr, UiExpression):
                found.append(self._yaql_validator(expr, message))
            elif isinstance(expr, dict):
                pattern = expr.get("regexp_validator")
                if isinstance(pattern, str):
                    found.append(self._message_regex_validator(prepare_regexp(pattern), message))
        return found

    def _yaql_validator(self, expression: UiExpression, message):
        def validate(value):
            if not self.form.session.field_validator(expression, value):
                raise _Invalid(str(message))
        return validate

    @staticmethod
    def _message_regex_validator(pattern: re.Pattern, message):
        def validate(value):
            if not pattern.search(str(value)):
                raise _Invalid(str(message))
        return validate

    def build_validators(self) -> list:
        return self.custom_validators()

    # -- rendering: what the page shows and posts -----------------------------------------

    def choices(self) -> list[Choice]:
        return []

    def update(self) -> None:
        """Fetch what the field shows (choices from the cloud), as the page is built."""

    def rendered_value(self):
        """The value attribute of the rendered input, or None for none."""
        value = self.initial()
        if value == "" or value is None:
            return None
        return str(value)

    def default_post(self):
        """What the rendered page posts when the user leaves the field as it is."""
        value = self.rendered_value()
        return "" if value is None else value

    # -- cleaning -------------------------------------------------------------------------

    def to_python(self, raw):
        return raw

    def validate(self, value) -> None:
        if value in EMPTY_VALUES and self.required:
            raise _Invalid(self.error_messages["required"], "required")

    def run_validators(self, value) -> list[str]:
        if value in EMPTY_VALUES:
            return []
        messages = []
        for validator in self.validators:
            try:
                validator(value)
            except _Invalid as error:
                message = error.message
                if error.code is not None and error.code in self.error_messages:
                    message = self.error_messages[error.code]
                messages.append(_render_message(str(message), error.params))
        return messages

    def clean(self, raw):
        self.form.share_cleaned_data()
        if not self.enabled:
            return self.convert(raw)
        return self.full_clean(raw)

    def convert(self, raw):
        try:
            return self.to_python(raw)
        except _Invalid as error:
            raise FieldError([_render_message(str(error.message), error.params)]) from None

    def full_clean(self, raw):
        try:
            value = self.to_python(raw)
            self.validate(value)
        except _Invalid as error:
            raise FieldError([_render_message(str(error.message), error.params)]) from None
        messages = self.run_validators(value)
        if messages:
            raise FieldError(messages)
        return value

    def raw_from_answer(self, answer):
        """What a client posts for this JSON answer: the value itself (Django reads it as
        posted data)."""
        return answer

    def view(self) -> dict:
        """What a page shows for the field (for HTML rendering)."""
        return {"name": self.name, "type": self.spec.kind, "widget": self.widget,
                "label": self.attr("label"), "description": self.attr("description"),
                "descriptionTitle": self.attr("description_title"),
                "helpText": self.attr("help_text", ""), "required": self.required,
                "value": self.rendered_value(),
                "choices": [(choice.option_value, choice.title, choice.enabled)
                            for choice in self.choices()],
                "maxLength": self.literal("max_length"), "minLength": self.literal("min_length"),
                "minValue": self.literal("min_value"), "maxValue": self.literal("max_value"),
                "regexpValidator": self.literal("regexp_validator")}


class TextField(FormField):
    def build_validators(self) -> list:
        found = self.custom_validators()
        return found + self.length_validators(self.literal("min_length"),
                                              self.literal("max_length"))

    def length_validators(self, min_length, max_length) -> list:
        found = []
        if min_length is not None:
            limit = int(min_length)

            def at_least(value):
                if len(value) < limit:
                    raise _Invalid(_plural(MIN_LENGTH, limit), "min_length",
                                   {"limit_value": limit, "show_value": len(value), "value": value})
            found.append(at_least)
        if max_length is not None:
            most = int(max_length)

            def at_most(value):
                if len(value) > most:
                    raise _Invalid(_plural(MAX_LENGTH, most), "max_length",
                                   {"limit_value": most, "show_value": len(value), "value": value})
            found.append(at_most)

        def no_null_characters(value):
            if "\x00" in str(value):
                raise _Invalid(NULL_CHARACTERS, "null_characters_not_allowed", {"value": value})
        found.append(no_null_characters)
        return found

    def to_python(self, raw):
        value = raw
        if value not in EMPTY_VALUES:
            value = str(value)
            if self.literal("strip", True):
                value = value.strip()
        if value in EMPTY_VALUES:
            return self.literal("empty_value", "")
        return value


class TextAreaField(TextField):
    widget = "textarea"


class PasswordField(TextField):
    widget = "password"

    def __init__(self, spec: UiField, form, name: str | None = None, original: bool = True):
        self.original = original
        super().__init__(spec, form, name)
        if not self.custom_validators():
            self.error_messages.setdefault("invalid", PASSWORD_INVALID)
        if not original:
            self.error_messages["required"] = CONFIRM_PASSWORD

    def build_validators(self) -> list:
        found = self.custom_validators()
        if found:
            return found + self.length_validators(self.literal("min_length"),
                                                  self.literal("max_length"))
        return [_regex_validator(_PASSWORD, PASSWORD_INVALID)] + self.length_validators(
            self.literal("min_length", 7), self.literal("max_length", 255))

    @property
    def confirm_input(self) -> bool:
        return bool(self.attr("confirm_input", True))

    @property
    def label(self):
        if not self.original:
            return "Confirm password"
        return super().label

    def view(self) -> dict:
        view = super().view()
        if not self.original:
            view.update(label="Confirm password", helpText="Retype your password")
        elif not view["helpText"]:
            view["helpText"] = "Enter a password" if self.custom_validators() else PASSWORD_HELP
        return view


class DatabaseListField(TextField):
    default_error_messages = {"invalid": DATABASE_NAME}

    def to_python(self, raw):
        if not raw:
            return []
        return [name.strip() for name in raw.split(",")]

    def validate(self, value) -> None:
        super().validate(value)
        for name in value:
            if not _DATABASE_NAME.search(str(name)):
                raise _Invalid(DATABASE_NAME, "invalid", {"value": name})


class IntegerField(FormField):
    default_error_messages = {"invalid": WHOLE_NUMBER}

    def build_validators(self) -> list:
        found = self.custom_validators()
        most, least = self.literal("max_value"), self.literal("min_value")
        step = self.literal("step_size")
        if most is not None:
            def at_most(value):
                if value > most:
                    raise _Invalid(MAX_VALUE, "max_value", {"limit_value": most, "value": value})
            found.append(at_most)
        if least is not None:
            def at_least(value):
                if value < least:
                    raise _Invalid(MIN_VALUE, "min_value", {"limit_value": least, "value": value})
            found.append(at_least)
        if step is not None:
            def multiple(value):
                if value % step:
                    raise _Invalid(STEP_VALUE, "step_size", {"limit_value": step, "value": value})
            found.append(multiple)
        return found

    def to_python(self, raw):
        if raw in EMPTY_VALUES:
            return None
        try:
            return int(_DECIMAL_TAIL.sub("", str(raw)))
        except (ValueError, TypeError):
            raise _Invalid(self.error_messages["invalid"], "invalid") from None


class BooleanField(FormField):
    widget = "checkbox"

    @property
    def required(self) -> bool:
        return False

    def rendered_value(self):
        value = self.initial()
        if self.hidden:
            return super().rendered_value()
        if value is True or value is False or value is None or value == "":
            return None
        return str(value)

    @property
    def checked(self) -> bool:
        value = self.initial()
        return not (value is False or value is None or value == "")

    def default_post(self):
        if self.hidden:
            return super().default_post()
        if not self.checked:
            return ABSENT
        value = self.rendered_value()
        return "on" if value is None else value

    def read_posted(self, raw):
        """The checkbox widget's reading of posted data: absent is false, 'true'/'false' are
        read as such, anything else by truth."""
        if self.hidden:
            return None if raw is ABSENT else raw
        if raw is ABSENT:
            return False
        if isinstance(raw, str):
            raw = {"true": True, "false": False}.get(raw.lower(), raw)
        return bool(raw)

    def to_python(self, raw):
        if isinstance(raw, str) and raw.lower() in ("false", "0"):
            return False
        return bool(raw)

    def validate(self, value) -> None:
        if not value and self.required:
            raise _Invalid(self.error_messages["required"], "required")

    def view(self) -> dict:
        view = super().view()
        view["checked"] = self.checked
        return view


class ClusterIpField(FormField):
    def build_validators(self) -> list:
        def ipv4(value):
            try:
                ipaddress.IPv4Address(value)
            except ValueError:
                raise _Invalid(IPV4, "invalid", {"value": value}) from None
        return [ipv4] + self.custom_validators()

    def to_python(self, raw):
        if raw in EMPTY_VALUES:
            return ""
        value = str(raw).strip()
        if value and ":" in value:
            try:
                address = ipaddress.IPv6Address(value)
            except ValueError:
                raise _Invalid(IPV6, "invalid") from None
            if address.ipv4_mapped and self.literal("unpack_ipv4"):
                return str(address.ipv4_mapped)
            return str(address)
        return value


class ChoiceField(FormField):
    widget = "select"
    default_error_messages = {"invalid_choice": INVALID_CHOICE}

    def __init__(self, spec: UiField, form, name: str | None = None):
        super().__init__(spec, form, name)
        self._choices: list[Choice] | None = None

    def choices(self) -> list[Choice]:
        if self._choices is None:
            self._choices = self.declared_choices()
        return self._choices

    def declared_choices(self) -> list[Choice]:
        choices = self.attr("choices")
        if not choices:
            return []
        if isinstance(choices, dict):
            choices = list(choices.items())
        return [Choice(value, title) for value, title in
                (tuple(choice) for choice in choices)]

    def set_choices(self, choices: list[Choice]) -> None:
        self._choices = choices

    def rendered_values(self) -> list[str]:
        value = self.initial()
        if not isinstance(value, (tuple, list)):
            value = [value]
        return ["" if item is None else str(item) for item in value]

    def selected(self) -> Choice | None:
        """The option a browser submits: the first one rendered as selected, else the first
        one that can be chosen."""
        wanted = self.rendered_values()
        for choice in self.choices():
            if choice.option_value in wanted:
                return choice
        return next((choice for choice in self.choices() if choice.enabled), None)

    def default_post(self):
        if self.hidden:
            return super().default_post()
        choice = self.selected()
        if choice is None or not choice.enabled:
            return ABSENT
        return choice.option_value

    def rendered_value(self):
        if self.hidden:
            return super().rendered_value()
        choice = self.selected()
        return None if choice is None else choice.option_value

    def to_python(self, raw):
        if raw in EMPTY_VALUES:
            return ""
        return str(raw)

    def valid_value(self, value) -> bool:
        text = str(value)
        for choice in self.choices():
            if isinstance(choice.title, (list, tuple)):
                for key, _title in choice.title:
                    if value == key or text == str(key):
                        return True
            elif value == choice.value or text == str(choice.value):
                return True
        return False

    def validate(self, value) -> None:
        super().validate(value)
        if value and not self.valid_value(value):
            raise _Invalid(self.error_messages["invalid_choice"], "invalid_choice",
                           {"value": value})


class FlavorField(ChoiceField):
    """Flavors meeting the field's requirements, sorted by name; the choice posts the flavor's
    id and cleans to its name. Nothing else is checked: a value not in the list is kept."""

    def update(self) -> None:
        requirements = self.attr("requirements")
        choices = []
        for flavor in self.form.session.cloud.flavors:
            if isinstance(requirements, dict) and not _meets(flavor, requirements):
                continue
            choices.append(Choice(flavor["id"], flavor["name"]))
        choices.sort(key=lambda choice: choice.title)
        self.set_choices(choices)
        # the dashboard also means to keep a form's own 'flavor' value here, but its request
        # decorator never passes the form on: the first flavor named like '*medium*' it is
        for choice in choices:
            if "medium" in choice.title:
                self.assigned["initial"] = choice.value
                break

    def clean(self, raw):
        for choice in self.choices():
            if choice.value == raw:
                return choice.title
        return raw


def _meets(flavor: dict, requirements: dict) -> bool:
    vcpus, disk, ram = flavor.get("vcpus", 0), flavor.get("disk", 0), flavor.get("ram", 0)
    if vcpus < requirements.get("min_vcpus", 0) or disk < requirements.get("min_disk", 0):
        return False
    if ram < requirements.get("min_memory_mb", 0):
        return False
    for key, actual in (("max_vcpus", vcpus), ("max_disk", disk), ("max_memory_mb", ram)):
        if key in requirements and actual > requirements[key]:
            return False
    return True


class KeypairField(ChoiceField):
    def update(self) -> None:
        keypairs = sorted(self.form.session.cloud.keypairs, key=lambda keypair: keypair["name"])
        self.set_choices([Choice("", "No keypair")] + [Choice(keypair["name"], keypair["name"])
                                                       for keypair in keypairs])
        if len(keypairs) == 1:
            self.assigned["initial"] = keypairs[0]["name"]


class SecurityGroupField(ChoiceField):
    def update(self) -> None:
        names = sorted(group.get("name") or group.get("id", "")
                       for group in self.form.session.cloud.security_groups)
        self.set_choices([Choice("", "Application default security group")]
                         + [Choice(name, name) for name in names
                            if not name.startswith("murano--")])


class ImageField(ChoiceField):
    def update(self) -> None:
        cloud = self.form.session.cloud
        image_type = self.literal("image_type") if not isinstance(
            self.attributes.get("image_type"), UiExpression) else None
        titles: dict = {}
        for image in cloud.images:
            if image.get("image_type", "") == "snapshot":
                continue
            info = cloud.image_info(image)
            if info is None:
                continue
            title = info.get("title", image["name"])
            status = image.get("status", "active")
            choice = (Choice(image["id"], title) if status == "active"
                      else Choice(image["id"], f"{title} ({status})", enabled=False))
            if image_type is not None:
                kind = info.get("type")
                if not image_type and kind is None:
                    continue
                if kind is None:
                    raise DashboardFailure(f"image {image['id']!r} has no murano_image_info type: "
                                           "the dashboard fails listing images for a field "
                                           "with imageType")
                if not str(kind).startswith(f"{image_type}.") and image_type != kind:
                    continue
            titles[image["id"]] = choice
        choices = sorted(titles.values(), key=lambda choice: str(choice.title))
        if not choices:
            choices.insert(0, Choice("", "No images available"))
        elif len(choices) != 1:
            choices.insert(0, Choice("", "Select Image"))
        self.set_choices(choices)


class AZoneField(ChoiceField):
    def update(self) -> None:
        zones = [zone["zoneName"] for zone in self.form.session.cloud.availability_zones
                 if (zone.get("zoneState") or {}).get("available", True)]
        choices = [Choice(name, name) for name in zones]
        if not choices:
            choices.insert(0, Choice("", "No availability zones available"))
        choices.sort(key=lambda choice: choice.title)
        self.set_choices(choices)


class NetworkField(ChoiceField):
    """Networks as (network id, subnet id) pairs, posted as the pair's Python text."""

    def update(self) -> None:
        session = self.form.session
        pattern = self.attr("filter")
        translate = self.attr("murano_networks")
        if translate is not None and str(translate).lower() not in ("exclude", "translate"):
            raise DashboardFailure("Invalid value of 'murano_nets' option")
        choices = []
        for network in session.cloud.networks:
            if network.get("external", False) is not False:
                continue
            name = network.get("name") or network["id"]
            if pattern and re.match(pattern, network.get("name", "")) is None:
                continue
            subnets = network.get("subnets", [])
            environment = None
            if translate and len(subnets) == 1:
                environment = next((env for env in session.cloud.environment_names
                                    if str(network.get("name", "")).startswith(env + "-network")),
                                   None)
            title = None
            if environment:
                if str(translate).lower() == "exclude":
                    continue
                title = f"Network of '{environment}'"
            for subnet in subnets:
                label = title or "%s: %s %s" % (name, subnet.get("cidr"),
                                                 subnet.get("name") or subnet["id"])
                choices.append(Choice((network["id"], subnet["id"]), label))
            choices.append(Choice((network["id"], None), f"{title or name}: random subnet"))
        if self.attr("allow_auto", True):
            choices.insert(0, Choice((None, None), "Auto"))
        self.set_choices(choices)

    def raw_from_answer(self, answer):
        if isinstance(answer, list):
            return repr(tuple(answer))
        return answer

    def to_python(self, raw):
        if raw:
            try:
                return ast.literal_eval(raw)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise _Invalid(INVALID_CHOICE, "invalid_choice", {"value": raw}) from None
        return None, None


class VolumeField(ChoiceField):
    def update(self) -> None:
        cloud = self.form.session.cloud
        choices = []
        sources = []
        if self.attr("include_volumes", True):
            sources.append(cloud.volumes)
        if self.attr("include_snapshots", True):
            sources.append(cloud.volume_snapshots)
        for items in sources:
            choices.extend(Choice(item["id"], item["name"]) for item in items
                           if item.get("status", "available") == "available")
        if choices:
            choices.sort(key=lambda choice: choice.title)
            choices.insert(0, Choice("", "Select volume"))
        else:
            choices.insert(0, Choice("", "No volumes available"))
        self.set_choices(choices)


class ZoneField(ChoiceField):
    def update(self) -> None:
        zones = self.form.session.cloud.zones
        choices = sorted((Choice(zone["name"], zone["name"]) for zone in zones),
                         key=lambda choice: choice.title)
        choices.insert(0, Choice("", "No DNS zone" if zones else "No DNS zones available"))
        self.set_choices(choices)


class ApplicationField(ChoiceField):
    """Applications already in the environment whose type is one of the field's classes (or
    inherits one); with exactly one, it is pre-selected. Cleans '' to null."""

    def update(self) -> None:
        session = self.form.session
        types = session.matching_types(self.spec.app_types)
        choices = [Choice("", self.literal("empty_value_message") or "Select Application")]
        for service in session.cloud.services:
            marker = service.get("?") if isinstance(service, dict) else None
            if not isinstance(marker, dict):
                continue
            if str(marker.get("type", "")).split("/")[0] in types:
                choices.append(Choice(marker.get("id"),
                                      html.escape(str(service.get("name", marker.get("id"))))))
        self.set_choices(choices)
        if len(choices) == 2:
            self.assigned["initial"] = choices[1].value

    def full_clean(self, raw):
        value = super().full_clean(raw)
        return None if value == "" else value


class DashboardFailure(Exception):
    """The dashboard itself fails here (an error page, no form): the message says why."""


FIELD_CLASSES = {
    "string": TextField, "text": TextAreaField, "password": PasswordField,
    "databaselist": DatabaseListField, "integer": IntegerField, "boolean": BooleanField,
    "floatingip": BooleanField, "clusterip": ClusterIpField, "choice": ChoiceField,
    "flavor": FlavorField, "keypair": KeypairField, "securitygroup": SecurityGroupField,
    "image": ImageField, "azone": AZoneField, "network": NetworkField, "volume": VolumeField,
    "zone": ZoneField, "application": ApplicationField,
}


def build_field(spec: UiField, form) -> list[FormField]:
    """The fields the page shows for ``spec``: a password asks twice (``name-clone``) unless
    its confirmInput is false."""
    field = FIELD_CLASSES[spec.kind](spec, form)
    if isinstance(field, PasswordField) and field.confirm_input:
        return [field, PasswordField(spec, form, f"{spec.name}-clone", original=False)]
    return [field]

