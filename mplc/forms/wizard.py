"""A run of the dashboard's "Add Application" wizard over a dynamic UI definition: forms shown
one after the other, answers validated form by form, and the object model assembled from the
cleaned data as the dashboard's ``Service`` and wizard do.

Answers are ``{formName: {fieldName: value}}`` plus ``workflowManagement`` (the dashboard's last
step: ``application_name``, ``stay_at_the_catalog``). A field not answered takes what the rendered
form would post.
"""

from __future__ import annotations

import copy
from collections import defaultdict

from mplc.forms.cloud import Cloud
from mplc.forms.expressions import (SERVICE_KEY, ObjectId, Randomness, bare_context, create_context,
                                    evaluate, evaluate_expression)
from mplc.forms.fields import ABSENT, BooleanField, FieldError, PasswordField, build_field
from mplc.frontend.ui import (APP_NAME_FIELD, APP_NAME_SINCE, STAY_FIELD, WORKFLOW_FORM,
                              UiDefinition, UiExpression, UiField, UiForm)

DASHBOARD_ATTRS_KEY = "_26411a1861294160833743e45d0eaad9"
_CHOICES = ("choices",)
_LENGTHS = ("min_length", "max_length")
# attributes the dashboard's field classes read while being built (widget attributes, choices)
BUILD_TIME_ATTRIBUTES = {"string": _LENGTHS, "text": _LENGTHS, "password": _LENGTHS,
                         "databaselist": _LENGTHS, "integer": ("min_value", "max_value"),
                         "choice": _CHOICES, "flavor": _CHOICES, "image": _CHOICES,
                         "network": _CHOICES, "azone": _CHOICES, "volume": _CHOICES,
                         "zone": _CHOICES}
VALIDATION_FAILED = "Validation Error occurred"
PASSWORDS_DIFFER = "{0}{1} don't match"


class AnswersError(Exception):
    """The answers name a form or field the definition does not have, or are no mapping."""


class ValidationFailed(Exception):
    """A form's answers failed validation: every field in error, ``__all__`` for the form's own
    validators."""

    def __init__(self, form: str, fields: dict[str, list[str]]):
        super().__init__(f"form {form!r} failed validation")
        self.form = form
        self.fields = fields

    def document(self) -> dict:
        return {"error": {"type": "ValidationError", "form": self.form, "fields": self.fields}}


def _workflow_form(version: tuple[int, int, int], package_fqn: str) -> UiForm:
    from_pos = None
    fields = [UiField(STAY_FIELD, "boolean", (), {
        "initial": False, "required": False, "label": "Continue application adding",
        "description": "If checked, you will be returned to the Catalog page. If not - to the "
                       "Environment page, where you can deploy the application."}, (), from_pos)]
    if version >= APP_NAME_SINCE + (0,):
        fields.insert(0, UiField(APP_NAME_FIELD, "string", (), {
            "description": "Enter a desired name for the application. Just A-Z, a-z, 0-9, dash "
                           "and underline are allowed",
            "label": "Application Name", "regexp_validator": r"^[-\w]+$",
            "initial": package_fqn.split(".")[-1]}, (), from_pos))
    return UiForm(WORKFLOW_FORM, tuple(fields), (), None, from_pos)


class Form:
    """One form of the wizard as a page shows it (fields built, choices fetched)."""

    def __init__(self, spec: UiForm, session: "Session"):
        self.spec = spec
        self.name = spec.name
        self.session = session
        self.fields = [field for field_spec in spec.fields for field in build_field(field_spec, self)]
        self.fields_by_name = {field.name: field for field in self.fields}
        self.cleaned_data: dict = {}
        for field in self.fields:
            field.update()

    def share_cleaned_data(self) -> None:
        """What each field's clean does first: the form's data so far becomes visible to
        expressions as ``$.formName`` (once it has any)."""
        if self.cleaned_data:
            self.session.cleaned_data[self.name] = self.cleaned_data

    def posted(self, answers: dict) -> dict:
        """The data the page posts: the answers, and for every field not answered what the
        rendered field posts."""
        data = {}
        for field in self.fields:
            if field.name in answers:
                data[field.name] = field.raw_from_answer(answers[field.name])
            elif isinstance(field, PasswordField) and not field.original \
                    and field.name[:-len("-clone")] in answers:
                original = self.fields_by_name[field.name[:-len("-clone")]]
                data[field.name] = original.raw_from_answer(answers[original.name])
            else:
                value = field.default_post()
                if value is not ABSENT:
                    data[field.name] = value
        return data

    def clean(self, data: dict) -> dict:
        """Django's full_clean of the form, then the dashboard's form clean; raises
        ValidationFailed with every field in error."""
        self.cleaned_data = {}
        errors: dict[str, list[str]] = {}
        for field in self.fields:
            raw = data.get(field.name, ABSENT)
            if isinstance(field, BooleanField):
                raw = field.read_posted(raw)
            elif raw is ABSENT:
                raw = None
            try:
                self.cleaned_data[field.name] = field.clean(raw)
            except FieldError as error:
                errors[field.name] = error.messages
        if errors:
            raise ValidationFailed(self.name, errors)
        cleaned = self.cleaned_data
        all_data = self.session.update_cleaned_data(self.name, cleaned)
        messages = []
        for validator in self.spec.validators:
            if not evaluate_expression(validator["expr"], all_data, self.session.form_context()):
                messages.append(str(validator.get("message", VALIDATION_FAILED)))
        if messages:
            raise ValidationFailed(self.name, {"__all__": messages})
        for field in self.fields:
            if isinstance(field, PasswordField) and field.enabled and field.confirm_input \
                    and field.original and field.required:
                if cleaned.get(field.name) != cleaned.get(f"{field.name}-clone"):
                    raise ValidationFailed(self.name, {"__all__": [
                        PASSWORDS_DIFFER.format(field.label, "s")]})
        self.session.update_cleaned_data(self.name, cleaned)
        return cleaned

    def view(self) -> dict:
        return {"name": self.name, "fields": [field.view() for field in self.fields]}


class Session:
    """One wizard run: the forms' cleaned data so far, the expression contexts, the cloud."""

    def __init__(self, definition: UiDefinition, package_fqn: str, package_name: str | None = None,
                 cloud: Cloud | None = None, seed: int | None = None,
                 class_ancestors: dict[str, set[str]] | None = None):
        self.definition = definition
        self.package_fqn = package_fqn
        self.package_name = package_name or package_fqn
        self.cloud = cloud if cloud is not None else Cloud.default()
        self.randomness = Randomness(seed)
        self.class_ancestors = class_ancestors or {}
        self.cleaned_data: dict = {}
        self.templates = definition.templates
        self.context = create_context(self.randomness)
        self.context[SERVICE_KEY] = self
        self.parameters: dict = {}
        for key, value in definition.parameters.items():
            if not isinstance(key, str) or not key or not key[0].isalpha():
                continue
            value = evaluate(value, self.context)
            self.parameters[key] = value
            self.context[key] = value
        self.form_specs = list(definition.forms) + [_workflow_form(definition.version, package_fqn)]
        self.build_fields()

    def build_fields(self) -> None:
        """The dashboard builds every form's field classes before it shows the first page; a
        few attributes written as YAQL are read then, with no form answered yet (an
        expression failing there fails the dashboard)."""
        for spec in self.form_specs:
            for field in spec.fields:
                for attribute in BUILD_TIME_ATTRIBUTES.get(field.kind, ()):
                    if attribute in ("min_value", "max_value") and field.attributes.get("hidden"):
                        continue
                    value = field.attributes.get(attribute)
                    if isinstance(value, UiExpression):
                        evaluate_expression(value, self.cleaned_data, self.context)

    # -- what fields and forms evaluate -----------------------------------------------------

    def field_property(self, form_name: str, expression):
        return evaluate_expression(expression, self.cleaned_data, self.context)

    def field_validator(self, expression, value):
        context = bare_context()
        context["$"] = value
        return evaluate_expression(expression, value, context)

    def form_context(self):
        return create_context(self.randomness)

    def update_cleaned_data(self, form_name: str, data: dict) -> dict:
        if data:
            self.cleaned_data[form_name] = data
        return self.cleaned_data

    def matching_types(self, app_types: tuple[str, ...]) -> set[str]:
        """Class names an application field accepts: its classes and, among the packages
        given, the classes that inherit one of them."""
        types = set(app_types)
        types.update(name for name, ancestors in self.class_ancestors.items()
                     if ancestors & set(app_types))
        return types

    # -- the wizard -----------------------------------------------------------------------

    @property
    def form_names(self) -> list[str]:
        return [spec.name for spec in self.form_specs]

    def form(self, name: str) -> Form:
        """The form as its page is built now (after the forms before it were cleaned)."""
        for spec in self.form_specs:
            if spec.name == name:
                return Form(spec, self)
        raise AnswersError(f"no form named {name!r}")

    def views(self) -> list[dict]:
        """Every form as its page shows it before anything is answered (name, fields with
        widget, label, description, help text, required, rendered value, choices)."""
        return [Form(spec, self).view() for spec in self.form_specs]

    def check_answers(self, answers) -> None:
        if not isinstance(answers, dict):
            raise AnswersError("answers must be a JSON object {formName: {fieldName: value}}")
        forms = {spec.name: spec for spec in self.form_specs}
        for form_name, values in answers.items():
            if form_name not in forms:
                raise AnswersError(f"unknown form {form_name!r}; the forms are "
                                   f"{', '.join(forms)}")
            if not isinstance(values, dict):
                raise AnswersError(f"answers of form {form_name!r} must be a JSON object")
            names = set()
            for field in forms[form_name].fields:
                names.add(field.name)
                if field.kind == "password":
                    names.add(f"{field.name}-clone")
            if form_name == WORKFLOW_FORM:
                names.add(APP_NAME_FIELD)  # accepted (and unused) before Version 2.2
            for field_name in values:
                if field_name not in names:
                    raise AnswersError(f"unknown field {field_name!r} of form {form_name!r}; "
                                       f"its fields are {', '.join(sorted(names))}")

    def submit_all(self, answers: dict) -> list[Form]:
        """Every form posted in turn, then all validated again as the wizard does when it is
        done; raises ValidationFailed for the first form that fails."""
        self.check_answers(answers)
        posted = []
        for spec in self.form_specs:
            form = Form(spec, self)
            data = form.posted(answers.get(spec.name, {}))
            form.clean(data)
            posted.append((spec, data))
        forms = []
        for spec, data in posted:
            form = Form(spec, self)
            form.clean(data)
            forms.append(form)
        return forms

    def model(self, answers: dict) -> dict:
        """The object model the dashboard sends to Murano for these answers."""
        forms = self.submit_all(answers)
        context = self.context.create_child_context()
        context["$"] = self.cleaned_data
        context["$forms"] = self.cleaned_data
        for name, template in self.templates.items():
            context[name] = template
        application = copy.deepcopy(self.definition.application)
        if self.definition.version >= APP_NAME_SINCE + (0,):
            application["?"]["name"] = self.cleaned_data[WORKFLOW_FORM][APP_NAME_FIELD]
        model = self.with_ids(evaluate(application, context))
        if not isinstance(model, dict):
            raise AnswersError("the Application section does not evaluate to an object")
        marker = model.setdefault("?", {})
        marker[DASHBOARD_ATTRS_KEY] = {"name": self.package_name}
        marker["resourceUsages"] = self.resource_usages(forms)
        return model

    def with_ids(self, value):
        """Every ``?`` mapping gets a fresh id, except objects ref() named (they keep theirs)."""
        if isinstance(value, dict):
            result = {}
            for key, item in value.items():
                if key == "?" and isinstance(item, dict) and not isinstance(item.get("id"), ObjectId):
                    item = dict(item)
                    item["id"] = self.randomness.object_id()
                    result[key] = item
                else:
                    result[self.with_ids(key)] = self.with_ids(item)
            return result
        if isinstance(value, list):
            return [self.with_ids(item) for item in value]
        if isinstance(value, ObjectId):
            return value.object_id
        return value

    def resource_usages(self, forms: list[Form]) -> dict:
        usages: dict = defaultdict(dict)
        for form in forms:
            # a form's region never reaches the dashboard's form (it is passed on as the form's
            # step title): every step counts in the user's region
            region = self.cloud.region
            step = {"ram": 0, "vcpus": 0, "instances": 0}
            if "flavor" in form.cleaned_data:
                flavor = next((flavor for flavor in self.cloud.flavors
                               if flavor["name"] == form.cleaned_data["flavor"]), None)
                if flavor is not None:
                    step = {"ram": flavor.get("ram", 0), "vcpus": flavor.get("vcpus", 0),
                            "instances": 1}
            for metric, value in step.items():
                usages[region][metric] = usages[region].get(metric, 0) + value
        return dict(usages)


def class_ancestors(packages) -> dict[str, set[str]]:
    """Every class of the packages with all the classes it inherits (application fields offer
    applications of a class that inherits the field's type)."""
    parents = {cls.name: {ref.full_name for ref in cls.extends}
               for package in packages for cls in package.classes}
    result: dict[str, set[str]] = {}
    for name in parents:
        seen: set[str] = set()
        stack = list(parents[name])
        while stack:
            parent = stack.pop()
            if parent not in seen:
                seen.add(parent)
                stack.extend(parents.get(parent, ()))
        result[name] = seen
    return result


def package_session(packages, package_fqn: str, cloud: Cloud | None = None,
                    seed: int | None = None) -> Session | None:
    """A wizard run of the package ``package_fqn`` among the front end's ``packages`` (None
    when it is not there or has no valid UI definition)."""
    package = next((package for package in packages
                    if package.manifest.full_name == package_fqn), None)
    if package is None or package.ui_definition is None:
        return None
    return Session(package.ui_definition, package_fqn, package.manifest.name, cloud, seed=seed,
                   class_ancestors=class_ancestors(packages))
