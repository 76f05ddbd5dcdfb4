"""The MuranoPL case tables in tests/cases/*.yaml, one file a topic (contracts, statements,
methods, ...): each case is a package compiled and run; its test id is ``topic:case name``.

A case (see the file headers) gives class documents, resource files (``resources``: path under
Resources/ -> text), the model, the method to call with its arguments, and the expected
rendered result, error, traces, or compile-time diagnostic.
"""

from __future__ import annotations

import glob
import os

import pytest
import yaml

import mplc
from mplc.runtime.errors import MuranoError
from tests.abi_scan import compiled_package_names, undeclared
from mplc.api import model_class_names
from mplc.diagnostics import CompileError

CASES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
CASE_PACKAGE = "tests.case"


class _TolerantLoader(yaml.SafeLoader):
    """Reads class documents only to learn class names; ``!yaql`` values stay strings."""


_TolerantLoader.add_constructor("!yaql", lambda loader, node: loader.construct_scalar(node))


def _load_cases():
    for path in sorted(glob.glob(os.path.join(CASES_DIR, "*.yaml"))):
        with open(path, encoding="utf-8") as handle:
            document = yaml.safe_load(handle) or {}
        names = set()
        for case in document.get("cases") or ():
            if case["name"] in names:  # the test id is file:name, so a second one would hide
                raise ValueError(f"{path}: two cases are named {case['name']!r}")
            names.add(case["name"])
            # ``known_bug``: a reference-verified case mplc does not pass yet (strict: once it
            # passes, the marker must go).
            marks = [pytest.mark.xfail(strict=True, reason=case["known_bug"])] if "known_bug" in case else []
            yield pytest.param(case, id=f"{os.path.basename(path)[:-5]}:{case['name']}", marks=marks)


def class_names(classes_text: str) -> list[str]:
    """Full names of the class documents, resolving ``Name`` with the carried-over Namespaces."""
    names = []
    namespaces: dict = {}
    for document in yaml.load_all(classes_text, Loader=_TolerantLoader):
        if not isinstance(document, dict):
            continue
        namespaces = document.get("Namespaces") or namespaces
        name = document.get("Name")
        if name is None:
            continue
        name = str(name)
        if ":" in name:
            prefix, _, short = name.partition(":")
            name = f"{namespaces.get(prefix or '=', prefix)}.{short}"
        elif "." not in name and "=" in namespaces:
            name = f"{namespaces['=']}.{name}"
        names.append(name)
    return names


def write_package(root, full_name: str, classes_text: str, format_version="1.3", version="0.0.0",
                  require=None) -> str:
    """A package directory holding every class document in one file, Classes/case.yaml."""
    os.makedirs(os.path.join(root, "Classes"), exist_ok=True)
    with open(os.path.join(root, "Classes", "case.yaml"), "w", encoding="utf-8") as handle:
        handle.write(classes_text)
    manifest = {"Format": str(format_version), "Type": "Library", "FullName": full_name,
                "Version": str(version), "Require": require or {"io.murano": None},
                "Classes": {name: "case.yaml" for name in class_names(classes_text)}}
    with open(os.path.join(root, "manifest.yaml"), "w", encoding="utf-8") as handle:
        yaml.safe_dump(manifest, handle, sort_keys=False)
    return str(root)


def write_resource(root, name: str, text: str) -> None:
    """A case's ``resources`` entry (path under Resources/ -> text) as a file of its package."""
    path = os.path.join(root, "Resources", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


_scanned: set = set()


def _undeclared_runtime_names(package_dirs) -> set:
    """Names the case's compiled modules read from the runtime that the ABI (mplc/abi.py) does
    not declare; each compiled directory is scanned once (the core library by test_abi.py)."""
    names = set()
    for directory in package_dirs:
        if directory not in _scanned and not os.path.basename(directory).startswith("p_io_murano__"):
            _scanned.add(directory)
            names |= compiled_package_names(directory)
    return undeclared(names)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mplc-cache"))


@pytest.mark.parametrize("case", list(_load_cases()))
def test_case(case, tmp_path, cache_dir):
    paths = [write_package(tmp_path / "case", CASE_PACKAGE, case["classes"], case.get("format", "1.3"))]
    for name, text in (case.get("resources") or {}).items():
        write_resource(tmp_path / "case", name, text)
    for index, (name, extra) in enumerate(sorted((case.get("extra_packages") or {}).items())):
        paths.append(write_package(tmp_path / f"extra{index}", name, extra["classes"],
                                   extra.get("format", "1.3"), extra.get("version", "0.0.0"),
                                   extra.get("require")))
    expected_compile_error = case.get("compile_error")
    model = case.get("model", "Test")
    if isinstance(model, str):
        model = {"?": {"type": model, "id": "root"}}
    try:
        runtime = mplc.Runtime(paths, cache_dir=cache_dir, trace=True)
        runtime.require(model_class_names(model))
    except CompileError as error:
        found = [(d.code, d.pos.line) for d in error.diagnostics if d.severity == "error"]
        assert expected_compile_error, f"unexpected compile errors: {error}"
        wanted = (expected_compile_error["code"], expected_compile_error.get("line"))
        assert any(code == wanted[0] and wanted[1] in (None, line) for code, line in found), found
        return
    assert not expected_compile_error, "compiled, but a compile error was expected"
    assert _undeclared_runtime_names(runtime.package_dirs) == set()

    outcome = None
    try:
        root = runtime.load(model)
        outcome = ("result", runtime.render(runtime.call(root, case.get("call", "run"),
                                                         *case.get("args", ()), **case.get("kwargs", {}))))
    except MuranoError as error:
        outcome = ("error", error)
    runtime.finish()

    if "error" in case:
        assert outcome[0] == "error", f"expected an error, got result {outcome[1]!r}"
        expected = case["error"]
        assert outcome[1].type_name == expected["type"], str(outcome[1])
        assert expected.get("message_contains", "") in str(outcome[1])
    else:
        assert outcome[0] == "result", f"{outcome[1].type_name}: {outcome[1]}"
        assert outcome[1] == case.get("result")
    if "traces" in case:
        assert runtime.render(runtime.traces) == case["traces"]
