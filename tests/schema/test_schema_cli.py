"""``mplc schema`` end to end through the CLI entry point: output, exit codes, one-line errors."""

from __future__ import annotations

import json

import pytest

from schema_harness import PACKAGE_PATHS
from mplc.cli import main

PATH_OPTIONS = [option for path in PACKAGE_PATHS for option in ("--path", path)]


def run(capsys, *arguments):
    code = main(["schema", *arguments])
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_the_class_and_its_builders(capsys, forms):
    code, out, err = run(capsys, *PATH_OPTIONS, "forms.app.Server")
    assert (code, err) == (0, "")
    assert json.loads(out) == forms.generate("forms.app.Server")


def test_methods_version_and_package(capsys, forms):
    code, out, _ = run(capsys, *PATH_OPTIONS, "forms.app.Server", "--method", "withPort",
                       "--class-version", "2.0", "--package", "forms.app")
    assert code == 0
    assert json.loads(out) == forms.generate("forms.app.Server", ["withPort"])


def test_warnings_go_to_stderr(capsys):
    code, out, err = run(capsys, *PATH_OPTIONS, "forms.app.Contracts")
    assert code == 0 and json.loads(out)
    assert "Contracts.yaml:71:14: warning: the Default of computedDefault is left out" in err
    assert "[W-SCHEMA-NOT-CONSTANT]" in err


@pytest.mark.parametrize("arguments, code, message", [
    (["forms.app.Missing"], 1, "mplc schema: error: class forms.app.Missing not found\n"),
    (["forms.app.Server", "--method", "nope"], 1,
     "mplc schema: error: class forms.app.Server has no model builder 'nope' "
     "(model builders: fromName, withPort)\n"),
    (["forms.app.Server", "--class-version", "3"], 1,
     "mplc schema: error: no version of class forms.app.Server matches '3' (available: 2.0.0)\n"),
    (["forms.app.Server", "--class-version", "~~"], 2,
     "mplc schema: error: invalid version spec '~~': expected a version such as 1, 1.2 or "
     "1.2.3, '*', or comparisons such as '>=1.2,<2.0,!=1.5.0'\n"),
])
def test_errors_are_one_line(capsys, arguments, code, message):
    assert run(capsys, *PATH_OPTIONS, *arguments) == (code, "", message)


def test_no_path_is_usage(capsys):
    assert run(capsys, "forms.app.Server") == (2, "", "mplc schema: error: no --path given\n")


def test_package_errors_are_diagnostics(capsys, tmp_path):
    (tmp_path / "Broken.yaml").write_text("Name: Broken\nProperties:\n  a: [\n")
    code, out, err = run(capsys, "--path", str(tmp_path), "Broken")
    assert (code, out) == (1, "")
    assert f"{tmp_path / 'Broken.yaml'}:" in err and "[E-YAML]" in err


def test_a_contract_naming_a_missing_class_is_a_diagnostic_at_the_contract(capsys, tmp_path):
    (tmp_path / "Holder.yaml").write_text(
        "Name: Holder\nProperties:\n  peer:\n    Contract: $.class(Missing)\n")
    code, out, err = run(capsys, "--path", str(tmp_path), "Holder")
    assert (code, out) == (1, "")
    assert err.startswith(f"{tmp_path / 'Holder.yaml'}:4:15: error: class Missing (named in a "
                          "contract of Holder) not found in ")
    assert "[NoClassFound]" in err and "$.class(Missing)" in err


@pytest.mark.parametrize("meta, line, message", [
    ("      - Solo\n      - Solo\n", 7, "meta class Solo has Cardinality One and is attached twice"),
    ("      - Elsewhere\n", 6, "meta class Elsewhere does not apply to a property (Applies: Method)"),
])
def test_a_class_the_reference_cannot_load_for_its_meta_is_an_error(capsys, tmp_path, meta, line,
                                                                    message):
    """The reference builds every Meta entry of a class when it loads it; entries their meta
    class refuses fail the load, so there is no schema (and ``mplc compile`` refuses them too)."""
    (tmp_path / "Solo.yaml").write_text("Name: Solo\nUsage: Meta\nCardinality: One\n")
    (tmp_path / "Elsewhere.yaml").write_text("Name: Elsewhere\nUsage: Meta\nApplies: Method\n")
    (tmp_path / "Holder.yaml").write_text(
        "Name: Holder\nProperties:\n  size:\n    Contract: $.int()\n    Meta:\n" + meta)
    code, out, err = run(capsys, "--path", str(tmp_path), "Holder")
    assert (code, out) == (1, "")
    assert f"{tmp_path / 'Holder.yaml'}:{line}:9: error: {message} [E-META]" in err
