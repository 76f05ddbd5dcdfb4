"""Whole repositories as PATHs: packages at any depth, one broken package failing alone.

A tree is laid out as real repositories are (murano-apps: APP/package/manifest.yaml, CI and doc
YAML beside them); check, compile, schema and run find every package in it, and a package with
errors stops only what needs it.
"""

from __future__ import annotations

import json
import os

import pytest

from mplc.cli import main

MANIFEST = "Format: MuranoPL/1.4\nType: {type}\nFullName: {name}\n{require}Classes:\n  {name}.{cls}: {cls}.yaml\n"
GOOD_CLASS = ("Namespaces:\n  =: {name}\n  std: io.murano\nName: {cls}\n{extends}Properties:\n"
              "  size:\n    Contract: $.int().notNull()\n    Default: 3\n"
              "Methods:\n  deploy:\n    Body:\n      - Return: $.size * 2\n")
BROKEN_CLASS = "Name: {cls}\nMethods:\n  deploy:\n    Body:\n      - Nonsense: [\n"


def _package(root, relative, name, cls, body=GOOD_CLASS, type_="Application", require=None,
             extends=""):
    directory = root / relative
    (directory / "Classes").mkdir(parents=True)
    require_text = "Require:\n" + "".join(f"  {r}:\n" for r in require) if require else ""
    (directory / "manifest.yaml").write_text(MANIFEST.format(type=type_, name=name, cls=cls,
                                                              require=require_text))
    (directory / "Classes" / f"{cls}.yaml").write_text(body.format(name=name, cls=cls, extends=extends))
    return directory


@pytest.fixture
def repository(tmp_path):
    """murano-apps' shape: packages two and three levels down, a Resources/manifest.yaml that
    is no package, CI YAML at the top, a hidden directory, and one broken package."""
    root = tmp_path / "apps"
    _package(root, "Web/package", "com.example.Web", "Web", require=["com.example.Lib"],
             extends="Extends: com.example.Lib.Base\n")
    _package(root, "Lib/package", "com.example.Lib", "Base", type_="Library")
    broken = _package(root, "Group/Broken/package", "com.example.Broken", "Broken", body=BROKEN_CLASS)
    (root / "Web/package/Resources/scripts").mkdir(parents=True)
    (root / "Web/package/Resources/scripts/manifest.yaml").write_text("not: a package\n")
    (root / ".zuul.yaml").write_text("- project:\n    check:\n      jobs: [noop]\n")
    (root / "tox.ini").write_text("[tox]\n")
    _package(root, ".git/hidden", "com.example.Hidden", "Hidden", body=BROKEN_CLASS)
    return root, broken


def run(capsys, *arguments):
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_finds_packages_at_any_depth_and_ignores_other_yaml(capsys, repository):
    root, broken = repository
    code, out, err = run(capsys, "check", str(root))
    assert code == 1
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert errors and all(line.startswith(str(broken / "Classes" / "Broken.yaml")) for line in errors)
    assert ".zuul.yaml" not in err and "Hidden" not in err and "Resources" not in err
    assert "W-MISSING-REQUIREMENT" not in err  # com.example.Lib is found two levels down


def test_compile_writes_the_good_packages_and_reports_the_broken_one(capsys, repository, tmp_path):
    root, broken = repository
    code, _, err = run(capsys, "compile", str(root), "-o", str(tmp_path / "out"))
    assert code == 1
    assert f"{broken / 'Classes' / 'Broken.yaml'}:" in err
    built = sorted(json.load(open(tmp_path / "out" / name / "mplc-build.json"))["full_name"]
                   for name in os.listdir(tmp_path / "out") if not name.startswith("."))
    assert built == ["com.example.Lib", "com.example.Web"]


def test_run_needs_only_the_packages_of_the_model(capsys, repository, tmp_path):
    root, broken = repository
    cache = str(tmp_path / "cache")
    code, out, err = run(capsys, "run", "--path", str(root), "--model", "com.example.Web.Web",
                         "--cache-dir", cache)
    assert (code, err) == (0, "")
    assert json.loads(out)["result"] == 6
    code, out, err = run(capsys, "run", "--path", str(root), "--model", "com.example.Web.Web",
                         "--cache-dir", cache, "-v")
    assert code == 0 and f"{broken / 'Classes' / 'Broken.yaml'}:6:1: warning: YAML syntax" in err
    code, out, err = run(capsys, "run", "--path", str(root), "--model", "com.example.Broken.Broken",
                         "--cache-dir", cache)
    assert code == 2 and out == "" and f"{broken / 'Classes' / 'Broken.yaml'}:6:1: error: YAML syntax" in err


def test_schema_needs_only_the_class_and_its_requirements(capsys, repository):
    root, broken = repository
    code, out, err = run(capsys, "schema", "--path", str(root), "com.example.Web.Web")
    assert (code, err) == (0, "")
    assert json.loads(out)[""]["properties"]["size"]["default"] == 3
    code, out, err = run(capsys, "schema", "--path", str(root), "com.example.Broken.Broken")
    assert code == 1 and out == "" and f"{broken / 'Classes' / 'Broken.yaml'}:6:1: error: YAML syntax" in err


def test_a_broken_requirement_is_needed(capsys, tmp_path):
    root = tmp_path / "apps"
    _package(root, "Web", "com.example.Web", "Web", require=["com.example.Lib"])
    lib = _package(root, "Lib", "com.example.Lib", "Base", body=BROKEN_CLASS, type_="Library")
    code, out, err = run(capsys, "schema", "--path", str(root), "com.example.Web.Web")
    assert code == 1 and f"{lib / 'Classes' / 'Base.yaml'}:6:1: error: YAML syntax" in err


def test_a_class_found_nowhere_is_not_blamed_on_a_broken_package_that_lists_its_classes(
        capsys, repository, tmp_path):
    root, _ = repository
    code, out, err = run(capsys, "run", "--path", str(root), "--model", "com.example.Nothere",
                         "--cache-dir", str(tmp_path / "cache"))
    assert code == 1 and err == ""
    assert json.loads(out)["error"]["type"] == "NoPackageForClassFound"
