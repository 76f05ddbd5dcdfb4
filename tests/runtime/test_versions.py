"""Versioned class loading through real compiled packages (tests/runtime/data/versions):
com.example.lib in versions 1.0.0, 1.2.0, 1.2.5 and 2.0.0 loaded side by side, applications
requiring different versions of it, a diamond over two of its versions, and classVersion."""

import glob
import os

import pytest

import mplc.runtime as r
from mplc.runtime.errors import MuranoError
from mplc.runtime.executor import Executor
from mplc.api import resolve_packages
from mplc.versioning import parse_version

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "versions")
LIB = "com.example.lib"


@pytest.fixture(scope="module")
def package_dirs(tmp_path_factory):
    cache = str(tmp_path_factory.mktemp("versions-cache"))
    return resolve_packages(sorted(glob.glob(os.path.join(DATA, "*"))), cache).directories


@pytest.fixture
def executor(package_dirs):
    return Executor(package_dirs)


ENVIRONMENT = {"?": {"id": "env", "type": "com.example.env.Env"},
               "one": {"?": {"id": "one", "type": "com.example.app.one.App"}},
               "two": {"?": {"id": "two", "type": "com.example.app.two.App"}}}


def test_two_applications_use_two_versions_of_one_package_at_once(executor):
    environment = executor.load(ENVIRONMENT)
    assert executor.call(environment, "greetings") == ("lib 1.2.5", "lib 2.0.0")


@pytest.mark.parametrize("method, error_type, message", [
    ("acceptOwn", None, "lib 1.2.5"),
    ("acceptOther", "ContractViolationException", "is not compatible with requested type"),
    ("foreign", "NoClassFound", 'Class "com.example.app.two.App" is not found in '
                                "io.murano/0.0.0, com.example.lib/1.2.5, com.example.app.one/1.0.0"),
])
def test_class_names_resolve_in_required_packages_only(executor, method, error_type, message):
    environment = executor.load(ENVIRONMENT)
    if error_type is None:
        assert executor.call(environment, method) == message
        return
    with pytest.raises(MuranoError) as raised:
        executor.call(environment, method)
    assert raised.value.type_name == error_type
    assert message in str(raised.value)


def test_diamond_takes_one_version_that_satisfies_both_sides(executor):
    """Left requires lib 1.2.0 exactly, Right any lib 1: Both sees one Base, of lib 1.2.0."""
    both = executor.load({"?": {"id": "b", "type": "com.example.diamond.Both"}})
    right = executor.load({"?": {"id": "r", "type": "com.example.right.Right"}})
    assert executor.call(both, "baseVersion") == "1.2.0"
    assert executor.call(right, "baseVersion") == "1.2.5"
    assert [t.version for t in both.type.ancestors() if t.name == f"{LIB}.Base"] == [
        parse_version("1.2.0")]


def test_diamond_without_a_common_version_is_an_error(executor):
    """Left requires lib 1.2.0, the other Right lib 2: no version satisfies both."""
    with pytest.raises(MuranoError) as raised:
        executor.load({"?": {"id": "c", "type": "com.example.diamond.Clash"}})
    assert raised.value.type_name == "InvalidInheritanceError"
    assert "no loaded version of com.example.lib satisfies all their requirements" in str(raised.value)


@pytest.mark.parametrize("class_version, expected", [
    (None, "lib 2.0.0"),
    ("1.2.0", "lib 1.2.0"),
    ("1.2.3", "lib 1.2.5"),
    ("1.2", "lib 1.2.5"),
    ("1.7.1", "lib 1.2.5"),
    ("1", "lib 1.2.5"),
    ("1.0.0", "lib 1.0.0"),
    ("2.1.0", "lib 2.0.0"),
    (">=1.0,<1.2", "lib 1.0.0"),
    ("3.0.0", "NoPackageForClassFound"),
])
def test_class_version_fallback(executor, class_version, expected):
    header = {"id": "g", "type": f"{LIB}.Greeter"}
    if class_version is not None:
        header["classVersion"] = class_version
    try:
        result = executor.call(executor.load({"?": header}), "greet")
    except MuranoError as error:
        result = error.type_name
    assert result == expected


@pytest.mark.parametrize("type_string, expected", [
    (f"{LIB}.Greeter/1.2.0@{LIB}", "lib 1.2.0"),
    (f"{LIB}.Greeter/1@{LIB}", "lib 1.2.5"),
    (f"{LIB}.Greeter", "lib 2.0.0"),
])
def test_type_string_with_version_and_package(executor, type_string, expected):
    assert executor.call(executor.load({"?": {"id": "g", "type": type_string}}), "greet") == expected


def test_format_newer_than_supported_is_rejected():
    package = r.PackageSpec("com.example.future", "1.0.0", "MuranoPL/1.9", "Library")
    with pytest.raises(MuranoError) as raised:
        Executor([package])
    assert raised.value.type_name == "PackageFormatError"
    assert "Format MuranoPL/1.9.0; this mplc runs MuranoPL/1.0 to MuranoPL/1.4" in str(raised.value)
