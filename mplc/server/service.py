"""What the routes of ``mplc serve`` share: the service, its errors, bounded JSON in and out."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from mplc.contracts.forms import FormsGenerator, SchemaError
from mplc.diagnostics import DiagnosticSink
from mplc.server import jsonio
from mplc.server.builders import BuilderPool

MAX_BODY = 1 << 20
BODY_SECONDS = 30.0


class ApiError(Exception):
    def __init__(self, status: int, error_type: str, message: str):
        super().__init__(message)
        self.status = status
        self.error_type = error_type


@dataclass
class ServeService:
    """What the routes answer with: schemas from the packages' IR, calls run by the pool."""

    packages: Any
    builders: BuilderPool
    max_body: int = MAX_BODY
    body_seconds: float = BODY_SECONDS

    def forms(self) -> FormsGenerator:
        """A generator of the request's own (its warnings stay with the request)."""
        return FormsGenerator(self.packages, DiagnosticSink())


def json_response(status: int, body: Any) -> Response:
    try:
        data = jsonio.encode(body)
    except jsonio.JsonOutputError as error:
        status, data = 422, jsonio.encode(error_body("InvalidResult", str(error)))
    return Response(data, status_code=status, media_type="application/json; charset=utf-8")


def error_body(error_type: str, message: str) -> dict[str, Any]:
    return {"error": {"type": error_type, "message": message}}


def schema_error(error: SchemaError) -> ApiError:
    message = str(error) if error.pos is None else f"{error.pos}: {error}"
    return ApiError(404 if error.not_found else 400, error.type, message)


async def read_body(request: Request, service: ServeService) -> bytes:
    """The request body: at most ``max_body`` bytes, sent within ``body_seconds``."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise ApiError(400, "BadRequest", "Content-Length is not a number")
        if int(length) > service.max_body:
            raise ApiError(413, "RequestTooLarge", f"the body is larger than {service.max_body} bytes")
    chunks, size = [], 0
    try:
        async with asyncio.timeout(service.body_seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > service.max_body:
                    raise ApiError(413, "RequestTooLarge",
                                   f"the body is larger than {service.max_body} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, "RequestTimeout", f"the body did not arrive within "
                                              f"{service.body_seconds:g} s") from None
    return b"".join(chunks)


async def read_json(request: Request, service: ServeService) -> Any:
    """The request body as JSON (``read_body``'s bounds)."""
    try:
        return jsonio.decode(await read_body(request, service))
    except jsonio.JsonInputError as error:
        raise ApiError(400, "BadRequest", str(error)) from None
