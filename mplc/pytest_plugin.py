"""pytest plugin (entry point ``mplc`` in ``pytest11``): MuranoPL unit tests as pytest items.

A package repository's CI runs ``pytest`` and sees each test method of its TestFixture classes
as an item, run as ``mplc test`` runs it (mplc.testrunner). In pytest's configuration::

    [tool.pytest.ini_options]          # or [pytest] in pytest.ini / tox.ini
    mplc_packages = ["com.example.apache"]        # packages whose tests are collected
    mplc_paths = ["../murano/meta/io.murano"]     # other packages they need (rootdir-relative)
    mplc_timeout = 60                             # seconds per test (optional)

Each package is collected from its ``manifest.yaml`` wherever pytest's collection finds it; its
items are ``<manifest path>::<Class>::<method>``.
"""

from __future__ import annotations

import io
import os

import pytest
import yaml

from mplc.diagnostics import CompileError, render
from mplc.runtime.errors import MuranoError
from mplc.testrunner import TestSession


def pytest_addoption(parser) -> None:
    parser.addini("mplc_packages", type="linelist", default=[],
                  help="MuranoPL packages (full names) whose unit tests pytest collects")
    parser.addini("mplc_paths", type="linelist", default=[],
                  help="other MuranoPL package locations the tested packages need, relative to the rootdir")
    parser.addini("mplc_timeout", default="", help="seconds a MuranoPL test may run (default: no limit)")


def pytest_collect_file(file_path, parent):
    if file_path.name != "manifest.yaml":
        return None
    wanted = parent.config.getini("mplc_packages")
    if not wanted:
        return None
    name = _full_name(str(file_path))
    if name is None or name not in wanted:
        return None
    return MuranoPLPackage.from_parent(parent, path=file_path, package_name=name)


def _full_name(manifest: str) -> str | None:
    try:
        with open(manifest, encoding="utf-8") as handle:
            document = yaml.safe_load(handle)
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return None
    return str(document.get("FullName")) if isinstance(document, dict) and document.get("FullName") else None


class MuranoPLPackage(pytest.File):
    """A package's tests: compiled once, one item per test method."""

    def __init__(self, *, package_name: str, **kwargs):
        super().__init__(**kwargs)
        self.package_name = package_name

    def collect(self):
        config = self.config
        paths = [os.path.dirname(str(self.path))] + [
            os.path.join(str(config.rootpath), path) for path in config.getini("mplc_paths")]
        timeout = config.getini("mplc_timeout")
        try:
            session = TestSession(paths, self.package_name)
        except CompileError as error:
            text = io.StringIO()
            render(error.diagnostics, text)
            raise self.CollectError(text.getvalue().rstrip("\n")) from None
        except MuranoError as error:
            raise self.CollectError(f"{self.package_name}: {error}") from None
        for case in session.select():
            item = MuranoPLTestItem.from_parent(self, name=f"{case.class_name}::{case.method}")
            item.setup_test(session, case, float(timeout) if timeout else None)
            yield item


class MuranoPLTestFailed(Exception):
    """A MuranoPL test that failed or errored (its result carries the MuranoPL stack trace)."""

    def __init__(self, result):
        super().__init__(result.message)
        self.result = result


class MuranoPLTestItem(pytest.Item):
    def setup_test(self, session, case, timeout) -> None:
        self.session_of_tests = session
        self.case = case
        self.timeout = timeout

    def runtest(self) -> None:
        result = self.session_of_tests.run(self.case, self.timeout)
        if result.outcome != "pass":
            raise MuranoPLTestFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, MuranoPLTestFailed):
            result = excinfo.value.result
            return (f"{result.outcome}: {result.error_type}: {result.message}\n"
                    + (result.traceback or ""))
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, self.case.name
