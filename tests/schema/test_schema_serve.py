"""``mplc serve`` over a real socket: every endpoint, every status code, concurrency, garbage."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from schema_harness import PACKAGE_PATHS
from mplc.commands.serve import MAX_BODY, FormsService, make_server

SERVER = "forms.app.Server"


@pytest.fixture(scope="module")
def address(forms, tmp_path_factory):
    service = FormsService(PACKAGE_PATHS, None, str(tmp_path_factory.mktemp("cache")),
                           forms.packages)
    server = make_server(service, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[:2]
    server.shutdown()
    server.server_close()


def request(address, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection(*address, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        assert response.getheader("Content-Type") == "application/json; charset=utf-8"
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def test_class_schema(address, forms):
    assert request(address, "GET", f"/schemas/{SERVER}") == (200, forms.generate(SERVER))


def test_method_schemas(address, forms):
    status, body = request(address, "GET", f"/schemas/{SERVER}/withPort,%20fromName")
    assert (status, body) == (200, forms.generate(SERVER, ["withPort", "fromName"]))


def test_version_and_package_query(address, forms):
    status, body = request(address, "GET",
                           f"/schemas/{SERVER}/withPort?classVersion=2&packageName=forms.app")
    assert (status, body) == (200, forms.generate(SERVER, ["withPort"]))


ERRORS = [
    ("GET", "/schemas/forms.app.Missing", None, {}, 404, "NoClassFound"),
    ("GET", f"/schemas/{SERVER}/nope", None, {}, 404, "NoMethodFound"),
    ("GET", f"/schemas/{SERVER}?packageName=no.such", None, {}, 404, "NoPackageFound"),
    ("GET", f"/schemas/{SERVER}?classVersion=9", None, {}, 404, "NoClassFound"),
    ("GET", f"/schemas/{SERVER}?classVersion=%3E%3E", None, {}, 400, "InvalidVersionSpec"),
    ("GET", "/", None, {}, 404, "NotFound"),
    ("GET", f"/schemas/{SERVER}/withPort/more", None, {}, 404, "NotFound"),
    ("GET", "/actions/x/y", None, {}, 404, "NotFound"),
    ("PUT", f"/schemas/{SERVER}", b"", {}, 405, "MethodNotAllowed"),
    ("DELETE", f"/schemas/{SERVER}", None, {}, 405, "MethodNotAllowed"),
    ("POST", f"/schemas/{SERVER}", b"{}", {}, 404, "NotFound"),
    ("POST", f"/actions/{SERVER}/withPort", b"{", {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", b"\xff\xfe", {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", b"[1]", {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", b"[" * 100000, {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", None, {"Content-Length": "x"}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", None, {"Content-Length": str(MAX_BODY + 1)},
     413, "RequestTooLarge"),
    ("POST", "/actions/forms.app.Missing/build", b"{}", {}, 404, "NoClassFound"),
    ("POST", f"/actions/{SERVER}/nope", b"{}", {}, 404, "NoMethodFound"),
    ("POST", "/actions/forms.app.Builders/notStatic", b"{}", {}, 404, "NoMethodFound"),
]


@pytest.mark.parametrize("method, path, body, headers, status, error_type", ERRORS,
                         ids=[f"{row[0]} {row[1]} {row[4]}" for row in ERRORS])
def test_errors(address, method, path, body, headers, status, error_type):
    answered, answer = request(address, method, path, body, headers)
    assert (answered, answer["error"]["type"]) == (status, error_type), answer
    assert answer["error"]["message"]


def raw_request(address, data: bytes) -> tuple[bytes, dict]:
    with socket.create_connection(address, timeout=30) as connection:
        connection.sendall(data)
        reply = connection.makefile("rb").read()
    head, _, body = reply.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], json.loads(body)


def test_garbage_request_line_gets_a_json_400(address):
    status_line, body = raw_request(address, b"NOT HTTP AT ALL\r\n\r\n")
    assert (status_line, body["error"]["type"]) == (b"HTTP/1.0 400 Bad Request", "BadRequest")


def test_post_without_length_is_411(address):
    status_line, body = raw_request(
        address, f"POST /actions/{SERVER}/withPort HTTP/1.0\r\n\r\n".encode())
    assert (status_line, body["error"]["type"]) == (b"HTTP/1.0 411 Length Required",
                                                    "LengthRequired")


def test_fifty_concurrent_requests(address, forms):
    expected = {path: forms.generate(SERVER, [method] if method else [])
                for path, method in ((f"/schemas/{SERVER}", None),
                                     (f"/schemas/{SERVER}/withPort", "withPort"))}
    paths = list(expected) * 25
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda path: request(address, "GET", path), paths))
    assert answers == [(200, expected[path]) for path in paths]


def _run_builder(address, path, arguments):
    status, body = request(address, "POST", path, json.dumps(arguments).encode())
    if status == 500:
        pytest.xfail(f"the runtime cannot run model builders yet: {body['error']['message']}")
    return status, body


def test_action_runs_a_model_builder(address):
    assert _run_builder(address, f"/actions/{SERVER}/withPort",
                        {"model": {"name": "web"}, "port": 80}) \
        == (200, {"name": "web", "port": 80, "host": "localhost"})


def test_action_contract_violation_is_400(address):
    status, body = _run_builder(address, f"/actions/{SERVER}/withPort",
                                {"model": {}, "port": "eighty"})
    assert (status, body["error"]["type"]) == (400, "ContractViolationException")


def test_action_that_throws_is_422(address):
    status, body = _run_builder(address, "/actions/forms.app.Builders/reject", {"model": {}})
    assert (status, body["error"]) == (422, {"type": "forms.app.Rejected",
                                             "message": "[forms.app.Rejected]: "
                                                        "no model is good enough"})


def test_the_command_listens_and_answers(tmp_path, forms):
    environment = dict(os.environ, MPLC_CACHE_DIR=str(tmp_path))
    process = subprocess.Popen(
        [sys.executable, "-m", "mplc.cli", "serve", *PACKAGE_PATHS, "--port", "0"],
        stderr=subprocess.PIPE, env=environment)
    try:
        line = process.stderr.readline().decode()
        assert line.startswith("mplc serve: listening on http://127.0.0.1:"), line
        port = int(line.rsplit(":", 1)[1])
        assert request(("127.0.0.1", port), "GET", f"/schemas/{SERVER}") \
            == (200, forms.generate(SERVER))
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize("body, message", [
    (b"{", "the body is not JSON: expecting property name enclosed in double quotes at line 1, column 2"),
    (b'{"a": 1,\n}', "the body is not JSON: expecting property name enclosed in double quotes at line 2, column 1"),
    (b"\xff\xfe", "the body is not UTF-8 text (byte 1 is no UTF-8)"),
    (b'{"a": "\xc3"}', "the body is not UTF-8 text (byte 8 is no UTF-8)"),
    (b"[" * 100000, "the body is not JSON this service reads: it nests lists and objects too deeply"),
    (b'{"a": ' + b"1" * 5000 + b"}", "the body is not JSON this service reads: a number has more "
                                     "than 4300 digits"),
    (b"[1]", "the body must be a JSON object of keyword arguments"),
])
def test_bad_bodies_are_said_in_json_terms(address, body, message):
    assert request(address, "POST", f"/actions/{SERVER}/withPort", body) == (
        400, {"error": {"type": "BadRequest", "message": message}})


@pytest.mark.parametrize("data, status_line, message", [
    (b"NOT HTTP AT ALL\r\n\r\n", b"HTTP/1.0 400 Bad Request", "the request line is not HTTP"),
    (b"GET / HTTP/1.1\xe9\r\n\r\n", b"HTTP/1.0 400 Bad Request", "the request line is not HTTP"),
    (b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 101 + b"\r\n", b"HTTP/1.0 431 Request Header Fields Too Large",
     "the request has too many header lines"),
])
def test_bad_request_lines_are_said_in_http_terms(address, data, status_line, message):
    answered, body = raw_request(address, data)
    assert (answered, body["error"]["message"][:len(message)]) == (status_line, message)
    assert "(" not in body["error"]["message"].split(";")[0]


@pytest.mark.parametrize("target, status, message", [
    ("/caf\u00e9".encode(), 404, "no such resource /caf\u00e9;"),
    (b"/caf%C3%A9", 404, "no such resource /caf%C3%A9;"),
    ("/caf\u00e9?x=\u00e9".encode(), 404, "no such resource /caf\u00e9?x=\u00e9;"),
    (b"/schemas/forms.app.S%C3%A9rver", 404, "forms.app.S\u00e9rver"),
    ("/schemas/forms.app.S\u00e9rver".encode(), 404, "forms.app.S\u00e9rver"),
    (b"/caf\xe9", 400, "the request path is not UTF-8 text"),
    (b"/caf%E9", 400, "the request path or query percent-encodes bytes that are no UTF-8 text"),
    (b"/schemas/x?packageName=%ff", 400, "the request path or query percent-encodes bytes"),
])
def test_paths_are_utf8(address, target, status, message):
    status_line, body = raw_request(address, b"GET " + target + b" HTTP/1.0\r\n\r\n")
    assert int(status_line.split()[1]) == status
    assert message in body["error"]["message"], body
