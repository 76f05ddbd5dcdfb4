"""Natives: the @native decorator (typeguard-checked arguments, constructors, static methods),
the io.murano natives, entry-point plugins, and natives bound to a user's own io.murano."""

import os
import textwrap

import pytest

import mplc
from mplc.runtime import natives
from mplc.runtime.errors import MuranoError
from mplc.runtime.objects import MuranoObject
from mplc.runtime.natives import native
from mplc.runtime.system import cloud

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
USER_PACKAGE = os.path.join(DATA, "native_user")
REPLACEMENT_CORE = os.path.join(DATA, "replacement_core")


@native("tests.natives.Counter")
class Counter:
    """Registered by this test module for the MuranoPL class tests.natives.Counter."""

    def __init__(self, this, start: int = 0):
        self.this = this
        self.count = start

    def add(self, amount: int) -> int:
        self.count += amount
        return self.count

    def label(self, this: MuranoObject, context):
        return f"{this.type.name} called from {context['$this'].type.name}"

    @staticmethod
    def double(value: int):
        return value * 2


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cache"))


def run(cache_dir, method, *args, paths=(USER_PACKAGE,)):
    runtime = mplc.Runtime(list(paths), cache_dir=cache_dir, trace=True)
    root = runtime.load({"?": {"id": "root", "type": "tests.natives.User"}})
    return runtime, runtime.render(runtime.call(root, method, *args))


def test_native_methods_constructor_and_injected_arguments(cache_dir):
    _, result = run(cache_dir, "counted", 10, 5)
    assert result[:2] == [15, 20]
    assert result[2] == "tests.natives.Counter called from tests.natives.Counter"


class _Stateless:
    __slots__ = ()

    def ping(self):
        return "pong"


class _NoConstructor:
    def ping(self):
        self.calls = getattr(self, "calls", 0) + 1
        return self.calls


class _SlotsAndConstructor:
    __slots__ = ()

    def __init__(self, this):
        pass


@pytest.mark.parametrize("cls, shared", [
    (_Stateless, True),  # no __init__, no slots: nothing an instance could hold
    (_NoConstructor, False),  # methods may keep state on the instance
    (_SlotsAndConstructor, False),  # a constructor runs per object
])
def test_one_instance_serves_every_object_of_a_stateless_native(cache_dir, cls, shared):
    native_class = natives.NativeClass("tests.natives.Shape", cls)
    runtime = mplc.Runtime([USER_PACKAGE], cache_dir=cache_dir)
    first = runtime.executor.load({"?": {"id": "a", "type": "tests.natives.User"}})
    second = runtime.executor.load({"?": {"id": "b", "type": "tests.natives.User"}})
    for part in (first, second):
        native_class.construct(part, {}, None, runtime.executor)
    assert (first.extension is second.extension) is shared
    assert type(first.extension) is cls


def test_objects_share_the_io_murano_object_native_state(cache_dir):
    runtime = mplc.Runtime([USER_PACKAGE], cache_dir=cache_dir)
    executor = runtime.executor
    root = executor.load({"?": {"id": "root", "type": "tests.natives.User"}})
    other = executor.load({"?": {"id": "other", "type": "tests.natives.User"}})
    core_object = executor.find_class("io.murano.Object")
    assert root.cast(core_object).extension is other.cast(core_object).extension is not None


def test_static_native_method(cache_dir):
    assert run(cache_dir, "static")[1] == 42


def test_argument_of_the_wrong_type_names_the_python_parameter(cache_dir):
    """As yaql fails a native's typed parameter in the reference (sys:GC.isDoomed(null):
    ArgumentException "Invalid argument object_")."""
    with pytest.raises(MuranoError) as caught:
        run(cache_dir, "wrongType")
    assert str(caught.value).endswith("Invalid argument amount")
    assert caught.value.type_name == "ArgumentException"


def test_constructor_arguments_are_checked_too(cache_dir):
    with pytest.raises(MuranoError, match=r"Invalid argument start"):
        run(cache_dir, "counted", "ten", 1)


def test_resources_of_the_calling_package(cache_dir):
    assert run(cache_dir, "resources")[1] == [
        "a note\n", {"k": [1, 2]}, {"when": "2013-05-23", "list": ["a", "b"]}]


def test_resources_methods_are_static_and_read_the_callers_package(cache_dir):
    """As the reference's (real packages call ``sys:Resources.string('x.sh')`` on the class)."""
    assert run(cache_dir, "staticResources")[1] == ["a note\n", {"k": [1, 2]}]


def test_resources_cannot_leave_the_resources_folder(cache_dir):
    with pytest.raises(MuranoError, match="outside the package's Resources folder"):
        run(cache_dir, "escape")


def test_logger_formats_and_records(cache_dir):
    runtime, _ = run(cache_dir, "logs")
    assert cloud.records(runtime.executor)["log"] == [
        {"logger": "tests.natives", "level": "INFO", "message": "one and two"},
        {"logger": "tests.natives", "level": "ERROR", "message": "plain"}]


def test_destruction_subscription_calls_the_handler_before_destroying(cache_dir):
    runtime, result = run(cache_dir, "watch")
    assert result is False
    assert runtime.traces == ["destroyed temp"]


def test_attributes_per_owner_class_and_in_the_model(cache_dir):
    runtime, result = run(cache_dir, "attributes")
    assert result == [[1, 2], "other", "fallback"]
    assert runtime.serialize()["Attributes"] == [
        ["root", "tests.natives.User", "k", [1, 2]], ["root", "tests.natives.Watcher", "k", "other"]]


def test_attributes_are_written_per_object_in_the_order_objects_were_first_touched(cache_dir):
    """The reference's store keeps attributes per object; reading one makes the object's entry
    (verified with the reference engine)."""
    runtime, _ = run(cache_dir, "attributeOrder")
    watcher = runtime.serialize()["Objects"]["watcher"]["?"]["id"]
    assert runtime.serialize()["Attributes"] == [
        ["root", "tests.natives.User", "own", 4], [watcher, "tests.natives.User", "mark", 1],
        [watcher, "tests.natives.User", "other", 3]]


def test_exception_to_string(cache_dir):
    text = run(cache_dir, "failure")[1]
    assert text.startswith("tests.natives.Oops: it broke\nTraceback (most recent call last):")
    assert "User.yaml" in text


@pytest.mark.parametrize("paths, expected", [
    ((USER_PACKAGE,), None),
    ((USER_PACKAGE, REPLACEMENT_CORE), "replacement core"),
])
def test_a_users_io_murano_replaces_the_bundled_one_and_natives_bind_to_it(cache_dir, paths, expected):
    runtime = mplc.Runtime(list(paths), cache_dir=cache_dir)
    core_versions = [str(p.version) for p in runtime.executor.packages["io.murano"]]
    assert core_versions == (["0.1.0"] if expected else ["0.0.0"])
    root = runtime.load({"?": {"id": "root", "type": "tests.natives.User"}})
    assert runtime.render(runtime.call(root, "attributes"))[0] == [1, 2]
    if expected:
        assert runtime.call(root, "describeCore") == expected


def test_plugins_found_through_entry_points(tmp_path, monkeypatch):
    plugin = tmp_path / "mplc_test_plugin.py"
    plugin.write_text(textwrap.dedent("""\
        from mplc.runtime.natives import native
        package_paths = ['/plugin/packages']

        @native('tests.plugin.Thing')
        class Thing:
            def hello(self):
                return 'hi'
        """))
    dist_info = tmp_path / "mplc_test_plugin-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: mplc-test-plugin\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text(
        "[io.murano.extensions]\nthing = mplc_test_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    natives.load_extensions.cache_clear()
    try:
        assert natives.extension_package_paths() == ["/plugin/packages"]
        assert "tests.plugin.Thing" in natives._registry
    finally:
        natives.load_extensions.cache_clear()
        natives._registry.pop("tests.plugin.Thing", None)


def test_classes_the_engine_implements_exist_on_a_core_library_that_declares_none(cache_dir):
    """Murano's own io.murano declares no GC class: the natives are the whole class."""
    minimal = os.path.join(DATA, "minimal_core")
    runtime = mplc.Runtime([os.path.join(minimal, "io.murano"), os.path.join(minimal, "tests.minimal")],
                           cache_dir=cache_dir)
    root = runtime.load({"?": {"id": "root", "type": "tests.minimal.User"}})
    assert runtime.render(runtime.call(root, "run")) == [
        False, [], "io.murano.system.NetworkExplorer", None]
