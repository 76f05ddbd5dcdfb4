"""The Python API given arguments of the wrong type or value: a TypeError or mplc's own error
that says what was expected, never a misleading error from deep inside."""

import os

import pytest

from mplc import Runtime
from mplc.contracts.forms import SchemaError

HELLO = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hello")


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    return Runtime(os.fsencode(HELLO), cache_dir=str(tmp_path_factory.mktemp("cache")))


def test_a_path_given_as_bytes_is_one_path(runtime):
    assert any(os.path.basename(path).startswith("p_com_example_Hello") for path in runtime.package_dirs)


@pytest.mark.parametrize("target", [None, 5, "com.example.Hello", {"?": {}}])
def test_call_on_what_is_no_object_or_type_is_a_type_error(runtime, target):
    with pytest.raises(TypeError, match=f"^call needs a MuranoPL object or type, not {type(target).__name__}$"):
        runtime.call(target, "deploy")


@pytest.mark.parametrize("methods, expected", [
    ("deploy", "class com.example.Hello has no model builder 'deploy' (model builders: none)"),
    (["deploy"], "class com.example.Hello has no model builder 'deploy' (model builders: none)"),
])
def test_schema_methods_given_as_one_name(runtime, methods, expected):
    with pytest.raises(SchemaError) as raised:
        runtime.schema("com.example.Hello", methods)
    assert str(raised.value) == expected
