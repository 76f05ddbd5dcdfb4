"""``mplc check`` as a user runs it: a subprocess, its stderr format and its exit codes."""

import os
import re
import subprocess
import sys

GOOD = os.path.join(os.path.dirname(__file__), "..", "data", "frontend", "good")


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mplc.cli", "check", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def test_clean_set_exits_zero():
    """The set is clean MuranoPL; as packages for a catalog it lacks what murano-pkg-check's
    packaging checks want (tests/toolchain/test_pkg_check.py has those)."""
    result = run("--ignore", "W-NO-LICENSE,W-MANIFEST,W-LOGO-MISSING,W-FORMAT-FEATURE,"
                 "W-CONTRACT-EXPRESSION", GOOD)
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


def test_errors_exit_one_with_all_diagnostics(tmp_path):
    (tmp_path / "Bad.yaml").write_text(
        "Name: Bad\nMethods:\n  m:\n    Body:\n      - Retrun: 1\n      - $x: OS::Nova::Server\n"
        "      - Return: nope:Thing\n      - Break: 1\n")
    result = run(str(tmp_path))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    path = os.path.join(str(tmp_path), "Bad.yaml")
    assert lines[0] == (f"{path}:5:9: error: unknown key 'Retrun' in a block construct; "
                        "did you mean 'Return'? [E-UNKNOWN-KEY]")
    assert lines[1] == "          - Retrun: 1"
    assert lines[2] == "            ^"
    headlines = [line for line in lines if re.match(r"^\S+:\d+:\d+: (error|warning): ", line)]
    assert [re.search(r"\[(\S+)\]$", line).group(1) for line in headlines] == \
        ["E-UNKNOWN-KEY", "W-COLON-NOT-TYPE", "W-UNKNOWN-NAMESPACE", "E-CONSTRUCT-VALUE"]
    assert lines[-1] == "2 error(s), 2 warning(s)"


def test_warnings_only_exit_zero(tmp_path):
    (tmp_path / "W.yaml").write_text("Name: W\nDescription: ignored\n")
    result = run(str(tmp_path))
    assert result.returncode == 0
    assert "warning: unknown key 'Description' in a class is ignored [W-UNKNOWN-KEY]" in result.stderr


def test_usage_errors_exit_two(tmp_path):
    no_path = run()
    assert (no_path.returncode, no_path.stderr) == (2, "mplc check: error: no PATH given\n")
    missing = run(str(tmp_path / "nowhere"))
    assert missing.returncode == 1
    assert "no such file or directory [E-PATH]" in missing.stderr


def test_format_option_applies_to_loose_files(tmp_path):
    (tmp_path / "T.yaml").write_text("Name: T\n")
    assert run(str(tmp_path), "--format", "9.0").returncode == 1
    assert run(str(tmp_path), "--format", "1.4").returncode == 0



def test_output_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    from mplc.cli import main
    taken = tmp_path / "taken"
    taken.write_text("")
    assert main(["compile", GOOD, "-o", str(taken)]) == 2
    assert capsys.readouterr().err == f"mplc compile: error: {taken}: File exists\n"
    assert main(["run", "--path", GOOD, "--model", "T", "--cache-dir", str(taken)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"mplc run: error: {taken}/") and error.endswith(": Not a directory\n")


def test_run_of_a_model_without_objects_calls_nothing(tmp_path, capsys):
    """As the engine: no root object, no call, no error."""
    import json
    from mplc.cli import main
    model = tmp_path / "model.json"
    model.write_text('{"Objects": null}')
    assert main(["run", "--path", GOOD, "--model", str(model), "--cache-dir", str(tmp_path / "cache")]) == 0
    output = json.loads(capsys.readouterr().out)
    assert (output["result"], output["error"], output["model"]["Objects"]) == (None, None, None)
