"""``mplc serve``: the forms json-schemas and model builders over HTTP (stdlib, one thread a request).

- ``GET /schemas/{className}`` and ``GET /schemas/{className}/{methods}`` (comma-separated;
  query ``classVersion``, ``packageName``): what ``mplc schema`` prints, as the engine's API
  answers it.
- ``POST /actions/{className}/{method}`` with a JSON object of keyword arguments (query
  ``classVersion``, ``packageName``): calls the model builder, answers its result as JSON.

Every answer is JSON; errors are ``{"error": {"type", "message"}}`` with 400 (bad request,
contract violation), 404 (no such class, method or path), 405, 411, 413, 422 (the MuranoPL
code threw). Model builders run one at a time, each on a fresh object store.
"""

from __future__ import annotations

import json
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import semantic_version

from mplc.api import Runtime
from mplc.commands import UsageError
from mplc.commands.schema import load_forms
from mplc.contracts.forms import FormsGenerator, SchemaError
from mplc.diagnostics import DiagnosticSink, render
from mplc.runtime.errors import MuranoError

MAX_BODY = 1 << 20
_NOT_FOUND_ERRORS = ("NoClassFound", "NoMethodFound", "NoPackageFound", "MethodNotExposed")


class HttpError(Exception):
    def __init__(self, status: HTTPStatus, error_type: str, message: str):
        super().__init__(message)
        self.status = status
        self.error_type = error_type


class FormsService:
    """What the handler answers with: schemas from the packages' IR, builders run by the runtime."""

    def __init__(self, paths: list[str], default_format: str | None, cache_dir: str | None,
                 packages):
        self.paths = paths
        self.default_format = default_format
        self.cache_dir = cache_dir
        self.packages = packages
        self._runtime = None
        self._run_lock = threading.Lock()

    def schemas(self, class_name: str, methods: list[str], query: dict[str, str]) -> Any:
        return self._call(lambda forms: forms.generate(
            class_name, methods, query.get("classVersion"), query.get("packageName")))

    def run_builder(self, class_name: str, method: str, query: dict[str, str],
                    arguments: dict[str, Any]) -> Any:
        def find(forms: FormsGenerator):
            declared = forms.find(class_name, query.get("classVersion"), query.get("packageName"))
            if method not in forms.model_builders(declared):
                raise SchemaError(f"class {class_name} has no model builder '{method}'",
                                  "NoMethodFound")
            return declared.package.manifest
        manifest = self._call(find)
        with self._run_lock:
            return self._run(manifest, class_name, method, arguments)

    def _call(self, action):
        """Run ``action`` on a generator of its own (its warnings stay with the request)."""
        try:
            return action(FormsGenerator(self.packages, DiagnosticSink()))
        except SchemaError as error:
            status = HTTPStatus.NOT_FOUND if error.not_found else HTTPStatus.BAD_REQUEST
            message = str(error) if error.pos is None else f"{error.pos}: {error}"
            raise HttpError(status, error.type, message) from None

    def _run(self, manifest, class_name: str, method: str, arguments: dict[str, Any]) -> Any:
        if self._runtime is None:
            self._runtime = Runtime(self.paths, cache_dir=self.cache_dir,
                                    default_format=self.default_format)
        executor = self._runtime.new_executor()
        try:
            with executor.active():
                package = executor.find_package(
                    manifest.full_name, semantic_version.SimpleSpec(f"=={manifest.version}"))
                murano_type = executor.type_of(package, class_name)
                return executor.render(executor.call(murano_type, method, (), arguments))
        except MuranoError as error:
            if error.type_name == "ContractViolationException":
                status = HTTPStatus.BAD_REQUEST
            elif error.type_name in _NOT_FOUND_ERRORS:
                status = HTTPStatus.NOT_FOUND
            else:
                status = HTTPStatus.UNPROCESSABLE_ENTITY
            raise HttpError(status, error.type_name, str(error)) from None


class FormsHandler(BaseHTTPRequestHandler):
    server_version = "mplc-serve"
    service: FormsService  # set on the subclass made per server
    target = ""  # the request's path and query, decoded as UTF-8

    def do_GET(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def do_PUT(self) -> None:
        self._answer(self._not_allowed)

    do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_PUT

    def _not_allowed(self, path, query) -> Any:
        raise HttpError(HTTPStatus.METHOD_NOT_ALLOWED, "MethodNotAllowed",
                        f"{self.command} is not supported; use GET /schemas/... or POST /actions/...")

    def _get(self, path: list[str], query: dict[str, str]) -> Any:
        if len(path) not in (2, 3) or path[0] != "schemas" or not path[1]:
            raise _no_route(self.target)
        methods = [name.strip() for name in path[2].split(",")] if len(path) == 3 else []
        return self.service.schemas(path[1], methods, query)

    def _post(self, path: list[str], query: dict[str, str]) -> Any:
        if len(path) != 3 or path[0] != "actions" or not path[1] or not path[2]:
            raise _no_route(self.target)
        arguments = self._json_body()
        if not isinstance(arguments, dict):
            raise _bad_request("the body must be a JSON object of keyword arguments")
        return self.service.run_builder(path[1], path[2], query, arguments)

    def _json_body(self) -> Any:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raise HttpError(HTTPStatus.LENGTH_REQUIRED, "LengthRequired",
                            "chunked bodies are not supported; send Content-Length")
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            raise HttpError(HTTPStatus.LENGTH_REQUIRED, "LengthRequired", "Content-Length is required")
        if not length_text.strip().isdigit():
            raise _bad_request("Content-Length is not a number")
        length = int(length_text)
        if length > MAX_BODY:
            raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "RequestTooLarge",
                            f"the body is larger than {MAX_BODY} bytes")
        return _json(self.rfile.read(length))

    def _answer(self, route) -> None:
        try:
            self.target = _request_target(self.path)
            parts = urlsplit(self.target)
            try:
                path = [unquote(segment, errors="strict") for segment in parts.path.strip("/").split("/")]
                query = {key: values[-1] for key, values in
                         parse_qs(parts.query, keep_blank_values=True, errors="strict").items()}
            except UnicodeDecodeError:
                raise _bad_request("the request path or query percent-encodes bytes that are no "
                                   "UTF-8 text") from None
            status, body = HTTPStatus.OK, route(path, query)
        except HttpError as error:
            status, body = error.status, _error(error.error_type, str(error))
        except Exception as error:  # a bug of ours: reported, never a dropped connection
            status = HTTPStatus.INTERNAL_SERVER_ERROR
            body = _error("InternalError", f"{type(error).__name__}: {error}")
        self._send(status, body)

    def _send(self, status: HTTPStatus, body: Any) -> None:
        data = json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_error(self, code, message=None, explain=None) -> None:
        """http.server's own errors (bad request line, headers too long) as JSON too, said in
        HTTP's terms (http.server's messages quote the request line as a Python repr)."""
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # unparsable request line: answer with headers
            self.request_version = "HTTP/1.0"
        status = HTTPStatus(code)
        self._send(status, _error(status.phrase.replace(" ", ""),
                                  _SERVER_ERROR_MESSAGES.get(status, status.description)))

    def log_message(self, format, *args) -> None:
        pass


_SERVER_ERROR_MESSAGES = {
    HTTPStatus.BAD_REQUEST: "the request line is not HTTP; expected a method, a path and "
                            "HTTP/1.0 or HTTP/1.1, as in GET /schemas/{className} HTTP/1.1",
    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE: "the request has too many header lines or one "
                                                "longer than 65536 bytes",
    HTTPStatus.REQUEST_URI_TOO_LONG: "the request line is longer than 65536 bytes",
}


def _request_target(path: str) -> str:
    """The request path as browsers send it, UTF-8 (http.server read the request line as
    latin-1, which turns every byte into one character)."""
    try:
        return path.encode("latin-1").decode("utf-8")
    except UnicodeError:
        raise _bad_request("the request path is not UTF-8 text") from None


def _json(body: bytes) -> Any:
    """A request body as JSON, or a 400 saying what is wrong with it in JSON's terms."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _bad_request(f"the body is not UTF-8 text (byte {error.start + 1} is no UTF-8)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _bad_request(f"the body is not JSON: {error.msg.lower()} at line {error.lineno}, "
                           f"column {error.colno}") from None
    except RecursionError:
        raise _bad_request("the body is not JSON this service reads: it nests lists and "
                           "objects too deeply") from None
    except ValueError:
        raise _bad_request(f"the body is not JSON this service reads: a number has more than "
                           f"{sys.get_int_max_str_digits()} digits") from None


def _bad_request(message: str) -> HttpError:
    return HttpError(HTTPStatus.BAD_REQUEST, "BadRequest", message)


def _no_route(path: str) -> HttpError:
    return HttpError(HTTPStatus.NOT_FOUND, "NotFound",
                     f"no such resource {path}; use GET /schemas/{{className}}[/{{methods}}] "
                     f"or POST /actions/{{className}}/{{method}}")


def _error(error_type: str, message: str) -> dict[str, Any]:
    return {"error": {"type": error_type, "message": message}}


def make_server(service: FormsService, host: str, port: int) -> ThreadingHTTPServer:
    handler = type("BoundFormsHandler", (FormsHandler,), {"service": service})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no PATH given")
    sink = DiagnosticSink()
    forms = load_forms(args.all_paths, args.format, sink)
    render(sink.diagnostics, sys.stderr)
    if sink.has_errors:
        return 1
    service = FormsService(args.all_paths, args.format, args.cache_dir, forms.packages)
    try:
        server = make_server(service, args.host, args.port)
    except OSError as error:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    except OverflowError:
        raise UsageError(f"--port {args.port} is not a port number (0 to 65535)") from None
    host, port = server.server_address[:2]
    sys.stderr.write(f"mplc serve: listening on http://{host}:{port}\n")
    sys.stderr.flush()
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
