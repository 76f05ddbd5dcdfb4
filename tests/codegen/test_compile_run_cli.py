"""``mplc compile`` and ``mplc run`` as users run them: subprocesses, JSON on stdout, exit codes."""

import json
import os
import subprocess
import sys
import traceback

import pytest

import mplc
from mplc import buildrecord
from mplc.runtime.errors import MuranoError
from mplc.diagnostics import CompileError

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from test_cases import write_package  # noqa: E402

CLASSES = """\
Name: Test
Methods:
  run:
    Arguments: [{n: {Contract: $.int()}}]
    Body:
      - trace($n)
      - Return: $n * 2
  fail:
    Body:
      - $x: 1
      - Return: $x / 0
"""


@pytest.fixture()
def package(tmp_path):
    return write_package(tmp_path / "pkg", "tests.cli", CLASSES)


def _mplc(*args, cache_dir, cwd=None):
    """``mplc`` in a fresh process; its compile cache (and yaql's parser tables) in ``cache_dir``,
    never in a directory named after a missing value."""
    env = dict(os.environ, MPLC_CACHE_DIR=str(cache_dir))
    return subprocess.run([sys.executable, "-m", "mplc.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env)


@pytest.mark.parametrize("extra, method, exit_code, result, error_type, traces", [
    (["--args", "[21]", "--trace"], "run", 0, 42, None, [21]),
    (["--kwargs", '{"n": 2}'], "run", 0, 4, None, []),
    (["--args", '["x"]'], "run", 1, None, "ContractViolationException", []),
    ([], "fail", 1, None, "ZeroDivisionError", []),
    ([], "missing", 1, None, "NoMethodFound", []),
])
def test_run_prints_one_json_document(package, tmp_path, extra, method, exit_code, result, error_type, traces):
    completed = _mplc("run", "--path", package, "--model", "Test", "--method", method, *extra,
                      cache_dir=tmp_path / "cache")
    assert completed.returncode == exit_code, completed.stderr
    document = json.loads(completed.stdout)
    assert set(document) == {"result", "error", "traces", "model"}
    assert document["result"] == result and document["traces"] == traces
    assert (document["error"] or {}).get("type") == error_type
    assert "Traceback" not in completed.stderr


def test_run_repeat_reports_seconds_per_call(package, tmp_path):
    completed = _mplc("run", "--path", package, "--model", "Test", "--method", "run", "--args", "[1]",
                      "--repeat", "3", cache_dir=tmp_path / "cache")
    document = json.loads(completed.stdout)
    assert completed.returncode == 0 and document["seconds_per_call"] > 0


@pytest.mark.parametrize("extra", [["--args", "{"], ["--args", "{}"], ["--kwargs", "[]"], ["--repeat", "0"]])
def test_run_usage_errors_exit_2(package, tmp_path, extra):
    completed = _mplc("run", "--path", package, "--model", "Test", *extra, cache_dir=tmp_path / "cache")
    assert completed.returncode == 2 and completed.stdout == "" and "Traceback" not in completed.stderr


def test_run_compile_error_exits_2_with_diagnostic(tmp_path):
    broken = write_package(tmp_path / "broken", "tests.broken", "Name: Test\nMethods:\n  run:\n    Body:\n      - If: true\n")
    completed = _mplc("run", "--path", broken, "--model", "Test", cache_dir=tmp_path / "cache")
    assert completed.returncode == 2
    assert "case.yaml:5:" in completed.stderr and "Traceback" not in completed.stderr


BAD_MODEL = """\
{"?": {"type": "Missing", "id": "root"},
 "n": 1,
 "peers": [
   {"?": {"type": "tests.cli.Missing"}},
   {"?": 3}
 ]
}
"""


@pytest.mark.parametrize("model, problems", [
    (BAD_MODEL, [(1, 16, "NoPackageForClassFound", "$.?.type: "),
                 (4, 19, "NoPackageForClassFound", "$.peers[0].?.type: "),
                 (5, 10, "AttributeError", "$.peers[1].?: a mapping with type and id, not 3")]),
    ('{"Objects": {"?": {"type": "Test", "id": [7]}}}',
     [(1, 42, "TypeError", "Objects.?.id: unhashable type: 'list'")]),
    ('{"?": {"id": "x"}}', [(1, 7, "ValueError", "$.?.type: a class name is required")]),
])
def test_run_bad_model_names_file_line_and_column(package, tmp_path, model, problems):
    """Each problem of a model file is a diagnostic at the value it is about (the enclosing
    value where the file lacks it), in stderr with the source line and in the JSON message."""
    path = tmp_path / "model.json"
    path.write_text(model)
    completed = _mplc("run", "--path", package, "--model", str(path), cache_dir=tmp_path / "cache")
    assert completed.returncode == 1 and "Traceback" not in completed.stderr
    document = json.loads(completed.stdout)
    assert document["model"] == (json.loads(model) if "Objects" in model else
                                 {"Objects": json.loads(model), "ObjectsCopy": None, "Attributes": []})
    message = document["error"]["message"]
    for line, column, type_name, text in problems:
        assert f"{path}:{line}:{column}: error: {text}" in completed.stderr
        assert f"[{type_name}]" in completed.stderr
        assert f"  {path}:{line}:{column}: {text}" in message


def test_run_model_naming_a_missing_object_points_at_the_reference(tmp_path):
    linked = write_package(tmp_path / "linked", "tests.linked",
                           "Name: Test\nProperties:\n  peers: {Contract: [$.class(Test)]}\n"
                           "Methods:\n  run:\n    Body:\n      - Return: 1\n")
    path = tmp_path / "model.json"
    path.write_text('{"?": {"type": "Test", "id": "r"},\n "peers": ["r",\n   "gone"]}\n')
    completed = _mplc("run", "--path", linked, "--model", str(path), "--method", "run",
                      cache_dir=tmp_path / "cache")
    assert completed.returncode == 1 and "Traceback" not in completed.stderr
    assert json.loads(completed.stdout)["error"]["type"] == "NoObjectFoundError"
    assert f"{path}:3:4: error: $.peers[1]: no object has id 'gone' [NoObjectFoundError]" \
        in completed.stderr


def test_compile_writes_package_and_exits_0(package, tmp_path):
    completed = _mplc("compile", package, "-o", str(tmp_path / "out"), "--emit-source",
                      cache_dir=tmp_path / "cache")
    assert completed.returncode == 0, completed.stderr
    (directory,) = os.listdir(tmp_path / "out")
    assert {"__init__.pyc", "c0000.pyc", "c0000.src.py", "mplc-build.json"} <= set(os.listdir(tmp_path / "out" / directory))
    run = _mplc("run", "--path", str(tmp_path / "out"), "--model", "Test", "--method", "run", "--args", "[5]",
                cache_dir=tmp_path / "cache")
    assert json.loads(run.stdout)["result"] == 10


@pytest.mark.parametrize("compiler", ["0" * 64, None])
def test_output_of_another_mplc_is_refused(package, tmp_path, compiler):
    """A compiled package whose build file names another compiler (or none: an older mplc)
    calls the runtime as that mplc did: running it is an error naming the build file."""
    compiled = _mplc("compile", package, "-o", str(tmp_path / "out"), cache_dir=tmp_path / "cache")
    assert compiled.returncode == 0, compiled.stderr
    (directory,) = os.listdir(tmp_path / "out")
    build_file = tmp_path / "out" / directory / "mplc-build.json"
    build = json.loads(build_file.read_text())
    build["compiler"] = compiler
    build_file.write_text(json.dumps(buildrecord.sign(build)))  # as another mplc of this user signs
    run = _mplc("run", "--path", str(tmp_path / "out"), "--model", "Test", "--method", "run", "--args", "[5]",
                cache_dir=tmp_path / "cache")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"{build_file}:1:1: error: compiled by another mplc" in run.stderr and "[E-STALE-BUILD]" in run.stderr
    with pytest.raises(CompileError, match="E-STALE-BUILD"):
        mplc.Runtime([str(tmp_path / "out")], cache_dir=str(tmp_path / "cache"))


def test_python_error_traceback_names_yaml_line(package, tmp_path):
    runtime = mplc.Runtime([package], cache_dir=str(tmp_path / "cache"))
    root = runtime.load({"?": {"type": "Test", "id": "root"}})
    with pytest.raises(MuranoError) as caught:
        runtime.call(root, "fail")
    frames = [(frame.filename, frame.lineno) for error in _chain(caught.value)
              for frame in traceback.extract_tb(error.__traceback__)]
    assert (os.path.join(package, "Classes", "case.yaml"), 11) in frames


def _chain(error):
    while error is not None:
        yield error
        error = error.__cause__ or error.__context__ or getattr(error, "original_exception", None)
