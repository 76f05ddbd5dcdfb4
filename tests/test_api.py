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
from mplc.runtime.errors import MuranoPlException

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


COUNTER = {
    "manifest.yaml": "Format: MuranoPL/1.3\nType: Library\nFullName: tests.counter\n"
                     "Classes:\n  tests.counter.Counter: Counter.yaml\n",
    "Classes/Counter.yaml": "Namespaces:\n  =: tests.counter\nName: Counter\nMethods:\n"
                            "  down:\n    Arguments:\n      - n: {Contract: $.int().notNull()}\n"
                            "    Body:\n      - If: $n <= 0\n        Then:\n          Return: 0\n"
                            "      - Return: 1 + $this.down($n - 1)\n",
}


def test_a_dropped_runtime_is_freed_after_direct_method_calls(tmp_path):
    """Compiled modules outlive runtimes: what their call sites resolve is kept by the classes."""
    import gc
    import weakref
    runtime = mplc.Runtime([_write(tmp_path / "pkg", COUNTER)], cache_dir=str(tmp_path / "cache"))
    obj = runtime.new("tests.counter.Counter")
    assert runtime.render(runtime.call(obj, "down", 5)) == 5
    executor = weakref.ref(runtime.executor)
    del runtime, obj
    gc.collect()
    assert executor() is None


KEYED = {
    "manifest.yaml": "Format: 1.3\nType: Library\nFullName: tests.keyed\n"
                     "Classes:\n  tests.keyed.Keyed: Keyed.yaml\n",
    "Classes/Keyed.yaml": "Namespaces:\n  =: tests.keyed\nName: Keyed\nMethods:\n"
                          "  run:\n    Body:\n      - $other: new(Keyed)\n"
                          "      - Return: [$other, dict($other => 1), dict($this => 2)]\n",
}


def test_render_of_a_dict_keyed_by_objects_already_written(tmp_path):
    """A key cannot hold an object model: it is the object's text, even after the object was
    written in full earlier in the same value."""
    runtime = mplc.Runtime([_write(tmp_path / "pkg", KEYED)], cache_dir=str(tmp_path / "cache"))
    obj = runtime.new("tests.keyed.Keyed")
    other, by_other, by_this = runtime.render(runtime.call(obj, "run"))
    other_id = other["?"]["id"]
    assert by_other == {f"<tests.keyed.Keyed/0.0.0 {other_id}>": 1}
    assert list(by_this.values()) == [2] and list(by_this)[0].startswith("<tests.keyed.Keyed/0.0.0 ")



MISSING_RESOURCE = {
    "manifest.yaml": "Format: MuranoPL/1.3\nType: Application\nFullName: tests.missing\n"
                     "Classes:\n  tests.missing.App: App.yaml\n",
    "Classes/App.yaml": "Namespaces:\n  =: tests.missing\n  sys: io.murano.system\nName: App\nMethods:\n"
                        "  deploy:\n    Body:\n      - Return: new(sys:Resources).string('absent.txt')\n",
}


def test_compiled_code_names_its_package_files_by_absolute_path(tmp_path, monkeypatch):
    """A stack trace and a missing resource name the package's files by absolute path, however
    the run spells the package's directory and whichever spelling compiled into the shared cache
    first (a relative one read from another directory would name the wrong file)."""
    _write(tmp_path / "pkg", MISSING_RESOURCE)
    monkeypatch.chdir(tmp_path)
    cache = str(tmp_path / "cache")
    for path in ("pkg", str(tmp_path / "pkg")):
        runtime = mplc.Runtime([path], cache_dir=cache)
        with pytest.raises(MuranoPlException) as raised:
            runtime.call(runtime.new("tests.missing.App"), "deploy")
        assert raised.value.stack_trace[-1]["file"] == str(tmp_path / "pkg" / "Classes" / "App.yaml")
        assert str(tmp_path / "pkg" / "Resources" / "absent.txt") in str(raised.value)
