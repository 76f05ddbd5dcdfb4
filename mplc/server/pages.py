"""HTML pages of ``mplc serve``: ``GET /forms/{className}`` renders the class's form (from its
json-schema), ``POST /forms/{className}`` reads the answers back into an object model.

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

from mplc.contracts.forms import SchemaError
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
    return form.render(str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""),
                       {}, {})


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
        action = str(request.url.path) + (f"?{request.url.query}" if request.url.query else "")
        return form.render(action, fields, answers.errors, status=422)
    if _wants_json(request):
        return json_response(200, answers.model)
    return _page("result.html", title=form.schema.get("title") or form.class_name,
                 model_json=json.dumps(answers.model, indent=2, ensure_ascii=False),
                 back=str(request.url.path))
