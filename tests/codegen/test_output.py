"""Compiled packages on disk: deterministic bytes, incremental rebuilds, sourceless imports."""

import os
import subprocess
import sys

import pytest

import mplc.runtime

from mplc import ir
from mplc.codegen import BUILD_FILE, SOURCE_SUFFIX, package_dir_name, write_package

from ir_builders import call, klass, method, package, pos

HERE = os.path.dirname(os.path.abspath(__file__))


def _source_package(root) -> ir.Package:
    root.mkdir(exist_ok=True)
    (root / "manifest.yaml").write_text("FullName: tests.out\n")
    (root / "Resources").mkdir(exist_ok=True)
    (root / "Resources" / "data.txt").write_bytes(b"\x00payload")
    at = pos(str(root / "Classes" / "x.yaml"), 5, 7)
    first = klass("tests.B", at, method("run", at, ir.Return(call("f", at, ir.Constant(1, at)), at)))
    second = klass("tests.A", at, method("run", at, ir.Return(ir.Literal('"""', at), at)))
    built = package(str(root), "tests.out", first, second)
    return ir.Package(built.manifest, built.classes, built.root, resources=("data.txt",))


def _tree(directory):
    return {os.path.relpath(os.path.join(base, name), directory): open(os.path.join(base, name), "rb").read()
            for base, _, names in os.walk(directory) for name in names}


def test_layout_and_names(tmp_path):
    directory, written = write_package(_source_package(tmp_path / "src"), str(tmp_path / "out"), emit_source=True)
    assert written and os.path.basename(directory) == package_dir_name("tests.out", "1.0.0")
    assert os.path.basename(directory).startswith("p_tests_out__1_0_0_")
    files = _tree(directory)
    assert {"__init__.pyc", "c0000.pyc", "c0001.pyc", "manifest.yaml", BUILD_FILE,
            "Resources/data.txt", "__init__" + SOURCE_SUFFIX} <= set(files)
    assert files["Resources/data.txt"] == b"\x00payload"
    assert b"'tests.A'" in files["c0000" + SOURCE_SUFFIX]  # sorted class-name order


def test_two_compiles_are_byte_identical(tmp_path):
    """Separate processes, so interning and reference counts cannot leak into the bytes."""
    outputs = []
    for index in range(2):
        output = tmp_path / f"out{index}"
        script = (f"import sys; sys.path.insert(0, {HERE!r}); import pathlib, test_output; "
                  f"from mplc.codegen import write_package; "
                  f"write_package(test_output._source_package(pathlib.Path({str(tmp_path / 'src')!r})), "
                  f"{str(output)!r})")
        subprocess.run([sys.executable, "-c", script], check=True)
        outputs.append(_tree(output))
    assert outputs[0] == outputs[1]


def test_unchanged_key_rewrites_nothing(tmp_path):
    source = _source_package(tmp_path / "src")
    directory, written = write_package(source, str(tmp_path / "out"))
    stamps = {path: os.stat(os.path.join(directory, path)).st_mtime_ns for path in _tree(directory)}
    assert written
    directory, written = write_package(source, str(tmp_path / "out"))
    assert not written
    assert stamps == {path: os.stat(os.path.join(directory, path)).st_mtime_ns for path in _tree(directory)}
    (tmp_path / "src" / "Resources" / "data.txt").write_bytes(b"changed")
    assert write_package(source, str(tmp_path / "out"))[1]


@pytest.mark.skipif(not hasattr(mplc.runtime, "PackageSpec"), reason="runtime exports not landed yet")
def test_compiled_package_imports_without_sources(tmp_path):
    source = _source_package(tmp_path / "src")
    directory, _ = write_package(source, str(tmp_path / "out"))
    assert not [name for name in os.listdir(directory) if name.endswith((".py", ".yaml")) and name != "manifest.yaml"]
    os.remove(os.path.join(directory, "manifest.yaml"))
    script = ("import sys, importlib; sys.path.insert(0, sys.argv[1]); "
              "package = importlib.import_module(sys.argv[2]); "
              "module = importlib.import_module(sys.argv[2] + '.c0001'); "
              "print(package.PACKAGE.full_name, module.CLASS.name, sorted(module.CLASS.methods))")
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out"), os.path.basename(directory)],
                            capture_output=True, text=True, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["tests.out", "tests.B", "['run']"]
