"""python-muranoclient, Murano's own client library, against a running ``mplc serve``: its
schema and static-action calls, as a dashboard or the murano CLI makes them."""

from __future__ import annotations

import pytest
from muranoclient.common import exceptions as client_errors
from muranoclient.v1 import client as murano_client

from schema_harness import ACTIONS, PACKAGE_PATHS, SERVE_APP, SERVER, ServeProcess


@pytest.fixture(scope="module")
def murano(tmp_path_factory):
    serve = ServeProcess([*PACKAGE_PATHS, SERVE_APP, "--timeout", "10"],
                         str(tmp_path_factory.mktemp("cache")))
    host, port = serve.address
    yield murano_client.Client(endpoint=f"http://{host}:{port}", token="no-keystone-here")
    assert serve.stop() == 0


def test_class_schema(murano, forms):
    assert murano.schemas.get(SERVER).data == forms.generate(SERVER)


def test_method_schemas_with_version_and_package(murano, forms):
    schema = murano.schemas.get(SERVER, ["withPort", "fromName"], class_version="2",
                                package_name="forms.app")
    assert schema.data == forms.generate(SERVER, ["withPort", "fromName"])


def test_missing_class_schema_is_not_found(murano):
    with pytest.raises(client_errors.HTTPNotFound) as raised:
        murano.schemas.get("forms.app.Missing")
    assert "forms.app.Missing" in str(raised.value)


def test_static_action(murano):
    result = murano.static_actions.call({
        "className": ACTIONS, "methodName": "greet", "packageName": "serve.app",
        "classVersion": "=0", "parameters": {"name": "Murano"}})
    assert result.get_result() == "Hello, Murano!"


def test_static_action_of_a_model_builder(murano):
    result = murano.static_actions.call({
        "className": SERVER, "methodName": "withPort", "classVersion": "2",
        "parameters": {"model": {"name": "web"}, "port": 80}})
    assert result.get_result() == {"name": "web", "port": 80, "host": "localhost"}


@pytest.mark.parametrize("arguments, error", [
    ({"className": ACTIONS, "methodName": "greet", "parameters": {"name": None}},
     client_errors.HTTPBadRequest),
    ({"className": ACTIONS, "methodName": "private"}, client_errors.HTTPNotFound),
    ({"className": ACTIONS}, client_errors.HTTPBadRequest),
])
def test_static_action_errors_are_the_clients_exceptions(murano, arguments, error):
    result = murano.static_actions.call(arguments)
    with pytest.raises(error):
        result.get_result()
