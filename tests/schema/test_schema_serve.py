"""``mplc serve`` as a real process on a real port of 127.0.0.1: every route, every status code,
time limits, bounded bodies, strict JSON, garbage, and load (bounded loops, loopback only)."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from schema_harness import ACTIONS, PACKAGE_PATHS, SERVE_APP, SERVER

MAX_BODY = 1 << 20


@pytest.fixture(scope="module")
def address(server):
    return server.address


def request(address, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection(*address, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        assert response.getheader("Content-Type") == "application/json; charset=utf-8"
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def action(address, body):
    return request(address, "POST", "/v1/actions", json.dumps(body).encode())


@pytest.mark.parametrize("prefix", ["", "/v1"])
def test_class_schema(address, forms, prefix):
    assert request(address, "GET", f"{prefix}/schemas/{SERVER}") == (200, forms.generate(SERVER))


@pytest.mark.parametrize("prefix", ["", "/v1"])
def test_method_schemas(address, forms, prefix):
    status, body = request(address, "GET", f"{prefix}/schemas/{SERVER}/withPort,%20fromName")
    assert (status, body) == (200, forms.generate(SERVER, ["withPort", "fromName"]))


def test_version_and_package_query(address, forms):
    status, body = request(address, "GET",
                           f"/v1/schemas/{SERVER}/withPort?classVersion=2&packageName=forms.app")
    assert (status, body) == (200, forms.generate(SERVER, ["withPort"]))


ERRORS = [
    ("GET", "/v1/schemas/forms.app.Missing", None, {}, 404, "NoClassFound"),
    ("GET", f"/v1/schemas/{SERVER}/nope", None, {}, 404, "NoMethodFound"),
    ("GET", f"/schemas/{SERVER}?packageName=no.such", None, {}, 404, "NoPackageFound"),
    ("GET", f"/schemas/{SERVER}?classVersion=9", None, {}, 404, "NoClassFound"),
    ("GET", f"/schemas/{SERVER}?classVersion=%3E%3E", None, {}, 400, "InvalidVersionSpec"),
    ("GET", "/", None, {}, 404, "NotFound"),
    ("GET", f"/schemas/{SERVER}/withPort/more", None, {}, 404, "NotFound"),
    ("GET", "/actions/x/y", None, {}, 405, "MethodNotAllowed"),
    ("GET", "/v1/actions", None, {}, 405, "MethodNotAllowed"),
    ("PUT", f"/schemas/{SERVER}", b"", {}, 405, "MethodNotAllowed"),
    ("DELETE", f"/v1/schemas/{SERVER}", None, {}, 405, "MethodNotAllowed"),
    ("POST", f"/schemas/{SERVER}", b"{}", {}, 405, "MethodNotAllowed"),
    ("POST", f"/actions/{SERVER}/withPort", b"{", {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", b"\xff\xfe", {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", b"[1]", {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", b"[" * 100000, {}, 400, "BadRequest"),
    ("POST", f"/actions/{SERVER}/withPort", None, {"Content-Length": str(MAX_BODY + 1)},
     413, "RequestTooLarge"),
    ("POST", "/actions/forms.app.Missing/build", b"{}", {}, 404, "NoClassFound"),
    ("POST", f"/actions/{SERVER}/nope", b"{}", {}, 404, "NoMethodFound"),
    ("POST", "/actions/forms.app.Builders/notStatic", b"{}", {}, 404, "NoMethodFound"),
    ("GET", "/caf%E9", None, {}, 400, "BadRequest"),
    ("GET", "/v1/schemas/x?packageName=%ff", None, {}, 400, "BadRequest"),
]


@pytest.mark.parametrize("method, path, body, headers, status, error_type", ERRORS,
                         ids=[f"{row[0]} {row[1][:40]} {row[4]}" for row in ERRORS])
def test_errors(address, method, path, body, headers, status, error_type):
    answered, answer = request(address, method, path, body, headers)
    assert (answered, answer["error"]["type"]) == (status, error_type), answer
    assert answer["error"]["message"]


STATIC_ACTIONS = [
    ({"className": ACTIONS, "methodName": "greet", "parameters": {"name": "caf\u00e9"}},
     200, "Hello, caf\u00e9!"),
    ({"className": ACTIONS, "methodName": "greet", "parameters": {"name": "x"},
      "packageName": "serve.app", "classVersion": "0.2"}, 200, "Hello, x!"),
    ({"className": ACTIONS, "methodName": "echo", "parameters": {"value": [1, {"a": None}]}},
     200, [1, {"a": None}]),
    ({"className": ACTIONS, "methodName": "echo", "parameters": {"value": "\ud800"}},
     200, "\ud800"),
    ({"className": ACTIONS, "methodName": "greet", "parameters": {"name": None}},
     400, "ContractViolationException"),
    ({"className": ACTIONS, "methodName": "greet", "parameters": {"name": "x"},
      "classVersion": "1"}, 404, "NoClassFound"),
    ({"className": ACTIONS, "methodName": "nope"}, 404, "NoMethodFound"),
    ({"className": "serve.app.Missing", "methodName": "greet"}, 404, "NoClassFound"),
    ({"className": ACTIONS, "methodName": "greet", "packageName": "no.such"}, 404, "NoPackageFound"),
    ({"className": ACTIONS, "methodName": "private"}, 404, "MethodNotExposed"),
    ({"className": ACTIONS, "methodName": "instance"}, 400, "MethodNotStatic"),
    ({"className": ACTIONS, "methodName": "fail"}, 422, "serve.app.Refused"),
    ({"className": ACTIONS, "methodName": "notANumber"}, 422, "InvalidResult"),
    ({"className": ACTIONS}, 400, "BadRequest"),
    ({"methodName": "greet"}, 400, "BadRequest"),
    ({"className": ACTIONS, "methodName": "greet", "parameters": [1]}, 400, "BadRequest"),
    ({"className": ACTIONS, "methodName": 5}, 400, "BadRequest"),
    ({"className": ACTIONS, "methodName": "greet", "classVersion": 1}, 400, "BadRequest"),
]


@pytest.mark.parametrize("body, status, expected", STATIC_ACTIONS,
                         ids=[f"{row[0].get('methodName')}-{row[1]}" for row in STATIC_ACTIONS])
def test_static_actions(address, body, status, expected):
    answered, answer = action(address, body)
    got = answer if status == 200 else answer["error"]["type"]
    assert (answered, got) == (status, expected), answer


def test_a_lone_surrogate_is_answered_as_its_escape(address):
    connection = http.client.HTTPConnection(*address, timeout=60)
    connection.request("POST", "/v1/actions", body=json.dumps(
        {"className": ACTIONS, "methodName": "echo", "parameters": {"value": "\ud800\u00e9"}}))
    assert connection.getresponse().read() == b'"\\ud800\\u00e9"'
    connection.close()


def test_a_looping_builder_is_stopped_and_blocks_nobody(address):
    """Two workers: a loop stopped at its limit while other calls keep being answered."""
    greet = {"className": ACTIONS, "methodName": "greet", "parameters": {"name": "n"}}
    with ThreadPoolExecutor(max_workers=4) as pool:
        spinning = pool.submit(action, address, {"className": ACTIONS, "methodName": "spin"})
        greetings = [pool.submit(action, address, greet) for _ in range(6)]
        assert [future.result() for future in greetings] == [(200, "Hello, n!")] * 6
        status, answer = spinning.result()
    assert (status, answer["error"]["type"]) == (503, "Timeout")
    assert "spin ran longer than 3 s and was stopped" in answer["error"]["message"]
    assert action(address, greet) == (200, "Hello, n!")


@pytest.mark.parametrize("body, message", [
    (b"{", "the body is not JSON: expecting property name enclosed in double quotes at line 1, column 2"),
    (b'{"a": 1,\n}', "the body is not JSON: expecting property name enclosed in double quotes at line 2, column 1"),
    (b"\xff\xfe", "the body is not UTF-8 text (byte 1 is no UTF-8)"),
    (b'{"a": "\xc3"}', "the body is not UTF-8 text (byte 8 is no UTF-8)"),
    (b"[" * 100000, "the body is not JSON this service reads: it nests lists and objects too deeply"),
    (b'{"a": ' + b"1" * 5000 + b"}", "the body is not JSON this service reads: a number has more "
                                     "than 4300 digits"),
    (b'{"a": NaN}', "the body is not JSON: NaN is no JSON value (JSON has no NaN or infinities)"),
    (b'{"a": -Infinity}', "the body is not JSON: -Infinity is no JSON value (JSON has no NaN or "
                          "infinities)"),
    (b'{"a": 1e999}', "the body is not JSON this service reads: the number 1e999 is too large "
                      "for a float"),
    (b"[1]", "the body must be a JSON object of keyword arguments"),
])
def test_bad_bodies_are_said_in_json_terms(address, body, message):
    assert request(address, "POST", f"/actions/{SERVER}/withPort", body) == (
        400, {"error": {"type": "BadRequest", "message": message}})


def raw_request(address, data: bytes) -> bytes:
    """What the server sends back until it closes the connection."""
    with socket.create_connection(address, timeout=60) as connection:
        connection.sendall(data)
        return connection.makefile("rb").read()


@pytest.mark.parametrize("data, status", [
    (b"NOT HTTP AT ALL\r\n\r\n", 400),
    (b"GET / HTTP/1.1\xe9\r\n\r\n", 400),
    (b"GET /caf\xe9 HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    (b"POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n{}", 400),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Long: " + b"y" * 200000 + b"\r\n\r\n", 431),
])
def test_garbage_is_refused_and_the_connection_closed(address, data, status):
    assert raw_request(address, data).startswith(b"HTTP/1.1 %d " % status)


def test_a_stalled_connection_is_closed(address):
    """A client that never finishes its request line is let go (--idle-timeout)."""
    assert raw_request(address, b"GET /v1/sch") == b""


def test_a_stalled_body_is_a_408(address):
    reply = raw_request(address, b"POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n"
                                 b"Connection: close\r\n\r\n{")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert json.loads(body)["error"]["type"] == "RequestTimeout"


def test_a_chunked_body_is_read(address):
    body = json.dumps({"className": ACTIONS, "methodName": "greet", "parameters": {"name": "c"}})
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part.encode())
                      for part in (body[:10], body[10:])) + b"0\r\n\r\n"
    reply = raw_request(address, b"POST /v1/actions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                                 b"Transfer-Encoding: chunked\r\n\r\n" + chunks)
    assert reply.startswith(b"HTTP/1.1 200 ") and reply.endswith(b'"Hello, c!"')


def test_load_of_schemas_and_actions(address, forms):
    """200 requests from 50 threads: schemas and static actions, every answer right."""
    schema_paths = {f"/v1/schemas/{SERVER}": forms.generate(SERVER),
                    f"/schemas/{SERVER}/withPort": forms.generate(SERVER, ["withPort"])}
    jobs = [("GET", path, None, (200, expected)) for path, expected in schema_paths.items()] * 50
    jobs += [("POST", "/v1/actions", json.dumps(
        {"className": ACTIONS, "methodName": "greet", "parameters": {"name": str(n)}}).encode(),
        (200, f"Hello, {n}!")) for n in range(100)]
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda job: request(address, *job[:3]), jobs))
    assert answers == [job[3] for job in jobs]


def _run_builder(address, path, arguments):
    return request(address, "POST", path, json.dumps(arguments).encode())


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


@pytest.mark.parametrize("arguments, message", [
    (["--timeout", "0"], "--timeout, --idle-timeout and --body-timeout must be positive"),
    (["--workers", "0"], "--workers at least 1"),
    (["--port", "70000"], "--port 70000 is not a port number"),
])
def test_bad_options_are_usage_errors(arguments, message):
    result = subprocess.run([sys.executable, "-m", "mplc.cli", "serve", SERVE_APP, *arguments],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and message in result.stderr, result.stderr
