"""The ASGI application of ``mplc serve`` (Starlette): Murano's API routes and mplc's own.

- ``GET /v1/schemas/{className}[/{methodNames}]`` (query ``classVersion``, ``packageName``) and
  ``POST /v1/actions`` with ``{"className", "methodName", "parameters", "packageName",
  "classVersion"}``: as Murano's API answers them (python-muranoclient's ``schemas.get`` and
  ``static_actions.call``). A static action must be an action (Public or Usage Action), and
  ``classVersion`` defaults to ``=0`` there, as in Murano.
- ``GET /schemas/{className}[/{methods}]`` and ``POST /actions/{className}/{method}`` (a JSON
  object of keyword arguments; model builders only): mplc's first routes, kept.

Every answer is JSON; errors are ``{"error": {"type", "message"}}`` (the shape Murano's clients
read ``message`` from) with 400, 404, 405, 408, 413, 422 (the MuranoPL code threw or its result
is no JSON), 503 (a builder ran out of time, or every worker stayed busy).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mplc.contracts.forms import SchemaError
from mplc.server import pages
from mplc.server.builders import BuilderCall, BuilderError
from mplc.server.service import (ApiError, ServeService, error_body, json_response, read_json,
                                 schema_error)

_ROUTES_HINT = ("use GET /v1/schemas/{className}[/{methodNames}], POST /v1/actions, "
                "GET /schemas/{className}[/{methods}], POST /actions/{className}/{method} "
                "or GET /forms/{className}")


def _query(request: Request) -> dict[str, str]:
    return {key: value for key, value in request.query_params.items()}


def _methods(text: str | None) -> list[str]:
    return [name.strip() for name in text.split(",")] if text else []


async def _schemas(request: Request, service: ServeService) -> Any:
    params, query = request.path_params, _query(request)
    methods = _methods(params.get("methods"))

    def generate():
        try:
            return service.forms().generate(params["class_name"], methods,
                                            query.get("classVersion"), query.get("packageName"))
        except SchemaError as error:
            raise schema_error(error) from None
    return await run_in_threadpool(generate)


async def _run(service: ServeService, call: BuilderCall) -> Any:
    try:
        return await run_in_threadpool(service.builders.call, call)
    except BuilderError as error:
        raise ApiError(error.status, error.error_type, str(error)) from None


async def _model_builder(request: Request, service: ServeService) -> Any:
    """mplc's ``POST /actions/{className}/{method}``: a model builder's keyword arguments."""
    arguments = await read_json(request, service)
    if not isinstance(arguments, dict):
        raise ApiError(400, "BadRequest", "the body must be a JSON object of keyword arguments")
    class_name, method = request.path_params["class_name"], request.path_params["method"]
    query = _query(request)

    def find() -> BuilderCall:
        forms = service.forms()
        try:
            declared = forms.find(class_name, query.get("classVersion"), query.get("packageName"))
            if method not in forms.model_builders(declared):
                raise SchemaError(f"class {class_name} has no model builder '{method}'",
                                  "NoMethodFound")
        except SchemaError as error:
            raise schema_error(error) from None
        manifest = declared.package.manifest
        return BuilderCall(manifest.full_name, str(manifest.version), class_name, method,
                           arguments, actions_only=False)
    return await _run(service, await run_in_threadpool(find))


async def _static_action(request: Request, service: ServeService) -> Any:
    """Murano's ``POST /v1/actions``."""
    body = await read_json(request, service)
    if not isinstance(body, dict):
        raise ApiError(400, "BadRequest", "the body must be a JSON object with className, "
                                          "methodName and parameters")
    class_name, method = body.get("className"), body.get("methodName")
    if not class_name or not method:
        raise ApiError(400, "BadRequest",
                       "Class name and method name must be specified for static action")
    if not isinstance(class_name, str) or not isinstance(method, str):
        raise ApiError(400, "BadRequest", "className and methodName must be strings")
    arguments = body.get("parameters") or {}
    if not isinstance(arguments, dict):
        raise ApiError(400, "BadRequest", "parameters must be a JSON object of keyword arguments")
    package_name = body.get("packageName")
    class_version = body.get("classVersion", "=0")
    for name, value in (("packageName", package_name), ("classVersion", class_version)):
        if value is not None and not isinstance(value, str):
            raise ApiError(400, "BadRequest", f"{name} must be a string")

    def find() -> BuilderCall:
        try:
            declared = service.forms().find(class_name, class_version, package_name)
        except SchemaError as error:
            raise schema_error(error) from None
        manifest = declared.package.manifest
        return BuilderCall(manifest.full_name, str(manifest.version), class_name, method,
                           arguments, actions_only=True)
    return await _run(service, await run_in_threadpool(find))


def _endpoint(handler, service: ServeService):
    async def endpoint(request: Request) -> Response:
        try:
            return json_response(200, await handler(request, service))
        except ApiError as error:
            return json_response(error.status, error_body(error.error_type, str(error)))
    return endpoint


async def _http_error(request: Request, error: HTTPException) -> Response:
    if error.status_code == 404:
        return json_response(404, error_body("NotFound", f"no such resource {request.url.path}; "
                                                     f"{_ROUTES_HINT}"))
    if error.status_code == 405:
        return json_response(405, error_body("MethodNotAllowed",
                                         f"{request.method} is not supported here; {_ROUTES_HINT}"))
    return json_response(error.status_code, error_body("HttpError", str(error.detail)))


async def _internal_error(request: Request, error: Exception) -> Response:
    """A bug of ours: reported as JSON, never a dropped connection."""
    return json_response(500, error_body("InternalError", f"{type(error).__name__}: {error}"))


def _target_problem(scope) -> str | None:
    """Why the request's path or query is no UTF-8 text (raw or percent-encoded), or None. The
    server stack would decode such bytes with replacement characters, losing them."""
    try:
        unquote_to_bytes(scope.get("raw_path") or b"").decode("utf-8")
    except UnicodeDecodeError:
        return "the request path percent-encodes bytes that are no UTF-8 text"
    try:
        unquote_to_bytes(scope.get("query_string", b"").replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return "the request query percent-encodes bytes that are no UTF-8 text"
    return None


class Utf8Targets:
    """ASGI middleware: a 400 for a request target that is no UTF-8 text."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        problem = _target_problem(scope) if scope["type"] == "http" else None
        if problem is None:
            await self.app(scope, receive, send)
        else:
            await json_response(400, error_body("BadRequest", problem))(scope, receive, send)


def _page(handler, service: ServeService):
    """An HTML page's endpoint (it answers errors itself, as pages or JSON)."""
    async def endpoint(request: Request) -> Response:
        return await handler(request, service)
    return endpoint


def create_app(service: ServeService) -> Starlette:
    def route(path, handler, method):
        return Route(path, _endpoint(handler, service), methods=[method])
    routes = [
        route("/v1/schemas/{class_name}", _schemas, "GET"),
        route("/v1/schemas/{class_name}/{methods}", _schemas, "GET"),
        route("/v1/actions", _static_action, "POST"),
        route("/schemas/{class_name}", _schemas, "GET"),
        route("/schemas/{class_name}/{methods}", _schemas, "GET"),
        route("/actions/{class_name}/{method}", _model_builder, "POST"),
        Route("/forms/{class_name}", _page(pages.class_form, service), methods=["GET"]),
        Route("/forms/{class_name}", _page(pages.submit_class_form, service), methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(Utf8Targets)],
                     exception_handlers={HTTPException: _http_error, Exception: _internal_error})
