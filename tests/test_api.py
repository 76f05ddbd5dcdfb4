"""The thin layer above front end, codegen and runtime: check, compile and Runtime agree."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import mplc
from mplc.api import compile_packages
from mplc.diagnostics import CompileError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELLO = os.path.join(ROOT, "examples", "hello")

UNRESOLVED_PARENT = {
    "manifest.yaml": "Format: MuranoPL/1.3\nType: Library\nFullName: tests.unresolved\n"
                     "Classes:\n  tests.unresolved.App: App.yaml\n",
    "Classes/App.yaml": "Namespaces:\n  =: tests.unresolved\nName: App\nExtends: other.package.Base\n",
}


def _write(directory, files):
    for relative, text in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(directory)


def _mplc(*args):
    return subprocess.run([sys.executable, "-m", "mplc.cli", *args], capture_output=True, text=True)


def test_compile_rejects_what_check_rejects(tmp_path):
    package = _write(tmp_path / "pkg", UNRESOLVED_PARENT)
    check = _mplc("check", package)
    compiled = _mplc("compile", package, "-o", str(tmp_path / "out"))
    assert check.returncode == compiled.returncode == 1
    assert "App.yaml:4:10: error:" in compiled.stderr and "[E-UNKNOWN-CLASS]" in compiled.stderr
    assert not (tmp_path / "out").exists()
    with pytest.raises(CompileError) as raised:
        compile_packages([package], str(tmp_path / "out"))
    assert [d.code for d in raised.value.diagnostics if d.severity == "error"] == ["E-UNKNOWN-CLASS"]


def test_runtime_schema_is_what_mplc_schema_prints(tmp_path):
    runtime = mplc.Runtime([HELLO], cache_dir=str(tmp_path / "cache"))
    printed = _mplc("schema", "--path", HELLO, "com.example.Hello")
    assert printed.returncode == 0, printed.stderr
    assert runtime.schema("com.example.Hello") == json.loads(printed.stdout)
