"""HTML pages of ``mplc serve``: ``GET /forms/{className}`` renders the class's form (from its
json-schema), ``POST /forms/{className}`` reads the answers back into an object model;
``GET /ui/{packageFqn}`` renders the package's dynamic UI (every form of its wizard on one page),
``POST /ui/{packageFqn}`` answers the object model murano-dashboard would send (mplc.forms).

The answer to a submission is an HTML page with the model (or, for ``Accept:
application/json``, the model itself); answers that fail validation get the form again, 422,
with each message next to its field (or ``{"error": {"type": "ValidationError", "fields"}}``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

import jinja2
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from yaql.language import exceptions as yaql_exceptions

from mplc.contracts.forms import SchemaError
from mplc.forms import (AnswersError, Cloud, DashboardFailure, KeyManagerError, Session,
                        ValidationFailed, class_ancestors)
from mplc.server import forms_page
from mplc.server.service import ApiError, ServeService, json_response, read_body

TEMPLATES = jinja2.Environment(loader=jinja2.PackageLoader("mplc.server", "templates"),
                               autoescape=True, undefined=jinja2.StrictUndefined)


def _wants_json(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def _page(template: str, status: int = 200, **values: Any) -> HTMLResponse:
    return HTMLResponse(TEMPLATES.get_template(template).render(**values), status_code=status)


def _error_page(request: Request, error: ApiError) -> Response:
    if _wants_json(request):
        return json_response(error.status, {"error": {"type": error.error_type,
                                                      "message": str(error)}})
    return _page("error.html", error.status, title=error.error_type, message=str(error))


class ClassForm:
    """The form of one class: its schema, and the sections of fields made from it."""

    def __init__(self, service: ServeService, class_name: str, query: dict[str, str]):
        forms = service.forms()
        try:
            self.schema = forms.generate(class_name, [], query.get("classVersion"),
                                         query.get("packageName"))[""]
        except SchemaError as error:
            message = str(error) if error.pos is None else f"{error.pos}: {error}"
            raise ApiError(404 if error.not_found else 400, error.type, message) from None

        def class_schema(name: str) -> dict[str, Any] | None:
            try:
                return forms.generate(name)[""]
            except SchemaError:
                return None
        self.class_name = class_name
        self.sections = forms_page.FormBuilder(class_schema).sections(self.schema)

    def render(self, action: str, values: dict[str, str], errors: dict[str, list[str]],
               status: int = 200) -> HTMLResponse:
        return _page("form.html", status, title=self.schema.get("title") or self.class_name,
                     description=self.schema.get("description"),
                     help_text=self.schema.get("helpText"), sections=self.sections,
                     values=values, errors=errors, action=action, submit="Make the object model")


def _form_fields(body: bytes) -> dict[str, str]:
    try:
        return dict(parse_qsl(body.decode("ascii"), keep_blank_values=True, encoding="utf-8",
                              errors="strict"))
    except UnicodeError:
        raise ApiError(400, "BadRequest", "the form data is not UTF-8 text "
                                          "(application/x-www-form-urlencoded)") from None


def _query(request: Request) -> dict[str, str]:
    return dict(request.query_params.items())


async def class_form(request: Request, service: ServeService) -> Response:
    try:
        form = await run_in_threadpool(ClassForm, service, request.path_params["class_name"],
                                       _query(request))
    except ApiError as error:
        return _error_page(request, error)
    return form.render(_action(request), {}, {})


async def submit_class_form(request: Request, service: ServeService) -> Response:
    try:
        form = await run_in_threadpool(ClassForm, service, request.path_params["class_name"],
                                       _query(request))
        fields = _form_fields(await read_body(request, service))
    except ApiError as error:
        return _error_page(request, error)
    answers = forms_page.Answers(form.sections, fields, form.class_name)
    forms_page.validate(answers, form.schema, form.sections)
    if answers.errors:
        if _wants_json(request):
            return json_response(422, {"error": {"type": "ValidationError", "fields": answers.errors}})
        return form.render(_action(request), fields, answers.errors, status=422)
    if _wants_json(request):
        return json_response(200, answers.model)
    return _page("result.html", title=form.schema.get("title") or form.class_name,
                 model_json=json.dumps(answers.model, indent=2, ensure_ascii=False),
                 back=str(request.url.path))


# --- the package's dynamic UI (UI/ui.yaml), as murano-dashboard's wizard ------------------

_DASHBOARD_ERRORS = (DashboardFailure, KeyManagerError, yaql_exceptions.YaqlException,
                     TypeError, KeyError, ValueError, AttributeError, IndexError, RecursionError)
_INPUT_KINDS = {"integer": "integer", "boolean": "boolean"}


class UiWizard:
    """One run of a package's dynamic UI: its forms' fields as the first page shows them."""

    def __init__(self, service: ServeService, package_fqn: str):
        package = next((package for package in service.packages
                        if package.manifest.full_name == package_fqn), None)
        if package is None:
            raise ApiError(404, "NoPackageFound", f"package {package_fqn} not found")
        if package.ui_definition is None:
            raise ApiError(404, "NoUiDefinition", f"package {package_fqn} has no UI definition "
                                                  "(UI/ui.yaml or the manifest's UI)")
        self.package = package
        self.ancestors = class_ancestors(service.packages)
        self.forms = self.session().views()
        for form in self.forms:
            for view in form["fields"]:
                view["id"] = f"u-{form['name']}-{view['name']}"
                view["input_name"] = f"{form['name']}.{view['name']}"
                view["kind"] = _INPUT_KINDS.get(view["type"], "choice" if view["widget"] == "select"
                                                else "text")
                view["pattern"] = _browser_pattern(view.get("regexpValidator"))

    def session(self) -> Session:
        manifest = self.package.manifest
        return Session(self.package.ui_definition, manifest.full_name, manifest.name,
                       Cloud.default(), class_ancestors=self.ancestors)

    def answers(self, posted: dict[str, str]) -> dict[str, dict[str, Any]]:
        """The posted page as answers ``{form: {field: value}}``: what was sent, a checkbox as
        a boolean; hidden fields post what the page holds."""
        found: dict[str, dict[str, Any]] = {}
        for form in self.forms:
            for view in form["fields"]:
                if view["widget"] == "hidden":
                    continue
                if view["widget"] == "checkbox":
                    value = view["input_name"] in posted
                elif view["input_name"] in posted:
                    value = posted[view["input_name"]]
                else:
                    continue
                found.setdefault(form["name"], {})[view["name"]] = value
        return found

    def render(self, action: str, values: dict[str, str], errors: dict[str, list[str]],
               status: int = 200) -> HTMLResponse:
        manifest = self.package.manifest
        return _page("ui.html", status, title=manifest.name or manifest.full_name,
                     description=getattr(manifest, "description", None), forms=self.forms,
                     values=values, errors=errors, action=action, submit="Make the object model")


def _browser_pattern(regexp: Any) -> str | None:
    """A regexpValidator the browser can check too (``/pattern/flags`` is left to the server)."""
    if not isinstance(regexp, str) or (regexp.startswith("/") and regexp.rfind("/") > 0):
        return None
    return regexp


def _action(request: Request) -> str:
    return str(request.url.path) + (f"?{request.url.query}" if request.url.query else "")


async def ui_form(request: Request, service: ServeService) -> Response:
    try:
        wizard = await run_in_threadpool(UiWizard, service, request.path_params["package_fqn"])
    except ApiError as error:
        return _error_page(request, error)
    except _DASHBOARD_ERRORS as error:
        return _error_page(request, ApiError(422, type(error).__name__, str(error)))
    return wizard.render(_action(request), {}, {})


async def submit_ui_form(request: Request, service: ServeService) -> Response:
    try:
        wizard = await run_in_threadpool(UiWizard, service, request.path_params["package_fqn"])
        posted = _form_fields(await read_body(request, service))
    except ApiError as error:
        return _error_page(request, error)
    except _DASHBOARD_ERRORS as error:
        return _error_page(request, ApiError(422, type(error).__name__, str(error)))
    try:
        model = await run_in_threadpool(wizard.session().model, wizard.answers(posted))
    except ValidationFailed as failure:
        if _wants_json(request):
            return json_response(422, failure.document())
        errors = {(f"{failure.form}.{name}" if name != "__all__" else failure.form): messages
                  for name, messages in failure.fields.items()}
        return wizard.render(_action(request), posted, errors, status=422)
    except (AnswersError, *_DASHBOARD_ERRORS) as error:
        return _error_page(request, ApiError(422, type(error).__name__, str(error)))
    if _wants_json(request):
        return json_response(200, model)
    return _page("result.html", title=wizard.package.manifest.name or wizard.package.manifest.full_name,
                 model_json=json.dumps(model, indent=2, ensure_ascii=False, default=str),
                 back=str(request.url.path))
