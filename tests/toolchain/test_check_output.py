"""``mplc check``'s selection and machine-readable output."""

from __future__ import annotations

import json

import pytest

from mplc.cli import main

MANIFEST = ("Format: MuranoPL/1.4\nType: Library\nFullName: com.example.Out\nDescription: d\n"
            "Tags: notalist\nClasses:\n  com.example.Out: Out.yaml\n")
CLASS = "Name: com.example.Out\nMethods:\n  run:\n    Body:\n      - Retrun: 1\n"


def _package(tmp_path):
    root = tmp_path / "pkg"
    (root / "Classes").mkdir(parents=True)
    (root / "manifest.yaml").write_text(MANIFEST)
    (root / "Classes" / "Out.yaml").write_text(CLASS)
    (root / "LICENSE").write_text("x\n")
    return root


def run(capsys, *arguments):
    code = main(["check", *map(str, arguments)])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lists_every_diagnostic_with_its_position(capsys, tmp_path):
    root = _package(tmp_path)
    code, out, err = run(capsys, root, "--output", "json")
    assert (code, err) == (1, "")
    document = json.loads(out)
    assert [(d["code"], d["file"], d["line"], d["column"], d["severity"]) for d in document["diagnostics"]] == [
        ("E-UNKNOWN-KEY", str(root / "Classes" / "Out.yaml"), 5, 9, "error"),
        ("W-MANIFEST", str(root / "manifest.yaml"), 5, 7, "warning")]
    assert document["summary"] == {"errors": 1, "warnings": 1}


def test_select_and_ignore_take_codes_and_prefixes(capsys, tmp_path):
    root = _package(tmp_path)
    code, out, _ = run(capsys, root, "--output", "json", "--select", "W-")
    assert code == 0 and [d["code"] for d in json.loads(out)["diagnostics"]] == ["W-MANIFEST"]
    code, out, _ = run(capsys, root, "--output", "json", "--ignore", "e-unknown-key,W-MANIFEST")
    assert code == 0 and json.loads(out)["diagnostics"] == []
    code, _, err = run(capsys, root, "--ignore", "W-MANIFEST")
    assert code == 1 and "[W-MANIFEST]" not in err and "[E-UNKNOWN-KEY]" in err


def test_sarif_is_a_sarif_2_1_0_log(capsys, tmp_path, monkeypatch):
    root = _package(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "pkg", "--output", "sarif")
    log = json.loads(out)
    assert code == 1 and log["version"] == "2.1.0"
    (sarif_run,) = log["runs"]
    assert [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]] == ["E-UNKNOWN-KEY", "W-MANIFEST"]
    first = sarif_run["results"][0]
    assert (first["ruleId"], first["level"]) == ("E-UNKNOWN-KEY", "error")
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "pkg/Classes/Out.yaml"
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (5, 9)


def test_format_json_is_no_output_format(capsys, tmp_path):
    with pytest.raises(SystemExit) as exited:
        main(["check", str(_package(tmp_path)), "--format", "json"])
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == "" and "use --output json" in err
