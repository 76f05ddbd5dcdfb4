"""Hostile command lines: every one ends with a plain one-line error and its exit code, never a
traceback or an "internal error" (the CLI's last resort for bugs of ours)."""

import os

import pytest

from mplc.cli import main

HELLO = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hello")
HELLO_MODEL = os.path.join(HELLO, "object-model.json")


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("argv, code, message", [
    (["run", "--path", HELLO, "--model", HELLO_MODEL, "--args", "[" * 100000],
     2, "mplc run: error: --args: JSON nested too deeply\n"),
    (["run", "--path", HELLO, "--model", HELLO_MODEL, "--kwargs", '{"a": [1,}'],
     2, "mplc run: error: --kwargs:1:10: not valid JSON: Expecting value\n"),
    (["run", "--path", HELLO, "--model", "{tmp}/model.json"],
     2, "mplc run: error: cannot read model {tmp}/model.json:2:3: not valid JSON: Expecting property name enclosed in double quotes\n"),
    (["run", "--path", HELLO, "--model", "{tmp}/deep.json"],
     2, "mplc run: error: cannot read model {tmp}/deep.json: JSON nested too deeply\n"),
    (["run", "--path", HELLO, "--model", HELLO_MODEL, "--cloud", "{tmp}/model.json"],
     2, "mplc run: error: cannot read cloud {tmp}/model.json:2:3: not valid JSON: Expecting property name enclosed in double quotes\n"),
    (["run", "--path", HELLO, "--model", "{tmp}/digits.json"],
     2, "mplc run: error: cannot read model {tmp}/digits.json: a JSON number has more than 4300 digits\n"),
    (["serve", HELLO, "--port", "99999"],
     2, "mplc serve: error: --port 99999 is not a port number (0 to 65535)\n"),
    (["serve", HELLO, "--port", "-1"],
     2, "mplc serve: error: --port -1 is not a port number (0 to 65535)\n"),
    (["fetch", "com.example.App", "--repo", "http://[::1", "-o", "{tmp}/out"],
     1, "mplc fetch: error: invalid repository URL 'http://[::1': Invalid IPv6 URL\n"),
    (["bundle", "b", "--repo", "http://[::1", "-o", "{tmp}/out"],
     1, "mplc bundle: error: invalid repository URL 'http://[::1': Invalid IPv6 URL\n"),
])
def test_bad_arguments_are_one_line_errors(argv, code, message, tmp_path, capsys):
    write(tmp_path, "model.json", '{\n  ,\n}')
    write(tmp_path, "deep.json", "[" * 100000)
    write(tmp_path, "digits.json", '{"?": {"id": "a", "type": "T"}, "n": 1%s}' % ("0" * 5000))
    tmp = str(tmp_path)
    argv = [argument.replace("{tmp}", tmp) for argument in argv]
    if argv[0] == "run":
        argv += ["--cache-dir", os.path.join(tmp, "cache")]
    assert main(argv) == code
    captured = capsys.readouterr()
    assert (captured.err, captured.out) == (message.replace("{tmp}", tmp), "")


def test_a_result_of_any_size_is_written_whole(tmp_path, capsys):
    """Python will not turn an int of over 4300 digits into text by default: the output was cut
    off after ``"result": `` with an internal error."""
    import json
    classes = tmp_path / "classes"
    classes.mkdir()
    write(classes, "Big.yaml", "Name: Big\nMethods:\n  deploy:\n    Body:\n      - Return: pow(10, 5000)\n")
    assert main(["run", "--path", str(classes), "--model", "Big", "--cache-dir", str(tmp_path / "cache")]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.count(" 1" + "0" * 5000 + ",\n") == 1
    assert json.loads(captured.out.replace("1" + "0" * 5000, "1"))["result"] == 1


@pytest.mark.parametrize("output", ["{hello}", "{hello}/", "{hello}/Classes/.."])
def test_compile_into_the_package_path_itself_is_a_usage_error(output, tmp_path, capsys):
    import shutil
    package = str(tmp_path / "hello")
    shutil.copytree(HELLO, package)
    output = output.replace("{hello}", package)
    assert main(["compile", package, "-o", output]) == 2
    assert capsys.readouterr().err == (f"mplc compile: error: -o {output} is the package path {package}: compiled "
                                       "packages would be mixed into their sources (choose another directory)\n")
    assert sorted(os.listdir(package)) == sorted(os.listdir(HELLO))


@pytest.mark.parametrize("command, given", [("compile", "{out}"), ("compile", "{package}"),
                                            ("check", "{package}")])
def test_compiled_output_given_as_sources_is_a_warning(command, given, tmp_path, capsys):
    """Compiled output is never read as sources: saying so keeps exit 0 with nothing written
    from being mistaken for success."""
    out = tmp_path / "out"
    assert main(["compile", HELLO, "-o", str(out)]) == 0
    [package] = os.listdir(out)
    capsys.readouterr()
    path = given.format(out=out, package=out / package)
    argv = [command, path] + (["-o", str(tmp_path / "again")] if command == "compile" else [])
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"{out / package}:1:1: warning: this is compiled output (mplc compile wrote it), not a source " \
           "package: it is not read; give the package's sources [W-COMPILED-INPUT]\n" in err
    assert not os.path.exists(tmp_path / "again")
