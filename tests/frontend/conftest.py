"""Helpers: write MuranoPL source to a temporary loose-class directory and load it for real."""

from __future__ import annotations

import os

import pytest

from mplc.diagnostics import DiagnosticSink
from mplc.frontend import check_packages, load_packages


CORE_STAND_IN = os.path.join(os.path.dirname(__file__), "..", "data", "frontend", "good",
                             "io.murano")


class Loaded:
    def __init__(self, packages, sink: DiagnosticSink):
        self.packages = packages
        self.sink = sink

    @property
    def classes(self):
        return {cls.name: cls for package in self.packages for cls in package.classes}

    def codes(self):
        return [(d.code, d.pos.line, d.pos.col) for d in self.sink.diagnostics]


@pytest.fixture
def load_source(tmp_path):
    """``load_source(text, name='Test.yaml', check=False)`` -> Loaded (one loose package).

    With ``check``, the test core library stand-in is loaded too, so names resolve for certain.
    """
    def load(text: str | bytes, name: str = "Test.yaml", check: bool = False,
             default_format: str | None = None) -> Loaded:
        folder = tmp_path / "pkg"
        folder.mkdir(exist_ok=True)
        data = text.encode("utf-8") if isinstance(text, str) else text
        (folder / name).write_bytes(data)
        sink = DiagnosticSink()
        packages = load_packages([str(folder)], sink, default_format=default_format)
        if check:
            check_packages(packages + load_packages([CORE_STAND_IN], sink), sink)
        return Loaded(packages, sink)
    return load
