"""``mplc run`` reports an uncaught MuranoPL exception with the reference engine's formatted
stack trace (``error.details``). The golden texts are the reference engine's output for the
same classes (golden/classes.yaml), with ``{file}`` standing for the class file's path."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from test_cases import write_package  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
PYTHON_FRAME = re.compile(r'  File "[^"]+\.py", line \d+ in method \S+\n      \S.*')


def _golden(name: str) -> str:
    with open(os.path.join(GOLDEN, name), encoding="utf-8") as handle:
        return handle.read().rstrip("\n")


@pytest.fixture()
def package(tmp_path):
    return write_package(tmp_path / "pkg", "tests.traces", _golden("classes.yaml") + "\n")


def _run(path, method, cache):
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", path, "--model", "Test", "--method", method],
        capture_output=True, text=True, env=dict(os.environ, MPLC_CACHE_DIR=str(cache)))
    assert completed.returncode == 1, completed.stderr
    return json.loads(completed.stdout)["error"]


def test_a_throw_with_a_cause_is_reported_as_the_reference_formats_it(package, tmp_path):
    error = _run(package, "run", tmp_path / "cache")
    class_file = os.path.join(package, "Classes", "case.yaml")
    assert (error["type"], error["message"]) == ("Wrapped", "[Wrapped, Other]: wrapped down here")
    assert error["details"] == _golden("throw_with_cause.txt").format(file=class_file)


def test_a_python_error_lists_its_python_frames_after_the_muranopl_ones(package, tmp_path):
    error = _run(package, "divide", tmp_path / "cache")
    muranopl = _golden("python_error.txt").format(file=os.path.join(package, "Classes", "case.yaml"))
    assert error["details"].startswith(muranopl + "\n")
    python_frames = error["details"][len(muranopl) + 1:].split("\n")
    assert python_frames and len(python_frames) % 2 == 0
    for index in range(0, len(python_frames), 2):
        assert PYTHON_FRAME.fullmatch("\n".join(python_frames[index:index + 2]))


def test_compiled_packages_keep_their_instructions_without_the_sources(package, tmp_path):
    class_file = os.path.join(package, "Classes", "case.yaml")
    compiled = tmp_path / "compiled"
    completed = subprocess.run([sys.executable, "-m", "mplc.cli", "compile", package, "-o", str(compiled)],
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    moved = tmp_path / "elsewhere"
    shutil.move(str(compiled), str(moved))
    shutil.rmtree(package)
    error = _run(str(moved), "run", tmp_path / "cache")
    assert error["details"] == _golden("throw_with_cause.txt").format(file=class_file)
