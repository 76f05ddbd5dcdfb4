"""``mplc package``: the zip muranoclient's package-create writes, loadable by mplc."""

from __future__ import annotations

import json
import zipfile

import yaml

from mplc.cli import main

MANIFEST = ("Format: MuranoPL/1.4\nType: Application\nFullName: com.example.Zip\nDescription: z\n"
            "Classes:\n  com.example.Zip: Zip.yaml\n")
CLASS = ("Name: com.example.Zip\nProperties:\n  size:\n    Contract: $.int()\n    Default: 4\n"
         "Methods:\n  deploy:\n    Body:\n      - Return: $.size + 1\n")


def _package(root, class_text=CLASS):
    (root / "Classes").mkdir(parents=True)
    (root / "manifest.yaml").write_text(MANIFEST)
    (root / "Classes" / "Zip.yaml").write_text(class_text)
    (root / "Resources").mkdir()
    (root / "Resources" / "setup.sh").write_text("echo hi\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref\n")
    return root


def run(capsys, *arguments):
    code = main([str(argument) for argument in arguments])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_directory_becomes_a_zip_with_the_package_at_its_top(capsys, tmp_path):
    source = _package(tmp_path / "src")
    output = tmp_path / "com.example.Zip.zip"
    code, out, err = run(capsys, "package", source, "-o", output)
    assert (code, err) == (0, "") and str(output) in out
    with zipfile.ZipFile(output) as archive:
        assert sorted(archive.namelist()) == ["Classes/Zip.yaml", "Resources/setup.sh", "manifest.yaml"]
    code, out, err = run(capsys, "run", "--path", output, "--model", "com.example.Zip",
                         "--cache-dir", tmp_path / "cache")
    assert code == 0 and json.loads(out)["result"] == 5


def test_a_broken_package_is_reported_and_no_zip_is_written(capsys, tmp_path):
    source = _package(tmp_path / "src", CLASS.replace("Return: $.size + 1", "Retrun: 1"))
    output = tmp_path / "out.zip"
    output.write_bytes(b"an older zip")
    code, out, err = run(capsys, "package", source, "-o", output)
    assert code == 1 and out == ""
    assert f"{source / 'Classes' / 'Zip.yaml'}:9:9: error: unknown key 'Retrun'" in err
    assert output.read_bytes() == b"an older zip"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.zip", "src"]  # no scratch file left


def test_a_heat_template_becomes_a_package_as_package_create_makes_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OS_USERNAME", "alice")
    (tmp_path / "web_server-stack.yaml").write_text(
        "heat_template_version: 2013-05-23\ndescription: One server\nparameters:\n"
        "  flavor:\n    type: string\n    default: m1.small\nresources: {}\n")
    code, out, err = run(capsys, "package", "--template", "web_server-stack.yaml")
    assert (code, err) == (0, "")
    with zipfile.ZipFile(tmp_path / "web_server-stack.zip") as archive:
        assert sorted(archive.namelist()) == ["manifest.yaml", "template.yaml"]
        manifest = yaml.safe_load(archive.read("manifest.yaml"))
    assert manifest == {"Format": "Heat.HOT/1.0", "Type": "Application",
                        "FullName": "io.murano.apps.generated.WebServerStack",
                        "Name": "web_server-stack", "Description": "One server", "Author": "alice",
                        "Tags": ["Heat-generated"]}
    code, out, _ = run(capsys, "schema", "--path", "web_server-stack.zip",
                       "io.murano.apps.generated.WebServerStack")
    assert code == 0 and "flavor" in json.dumps(json.loads(out))


def test_usage_errors(capsys, tmp_path):
    assert run(capsys, "package")[0] == 2
    assert run(capsys, "package", tmp_path)[0] == 2  # no manifest.yaml
    code, _, err = run(capsys, "package", "--template", tmp_path / "nothere.yaml")
    assert code == 2 and "nothere.yaml does not exist" in err
    (tmp_path / "bad.yaml").write_text("a: [\n")
    code, _, err = run(capsys, "package", "--template", tmp_path / "bad.yaml")
    assert code == 2 and "bad.yaml:2:1: the Heat template is not valid YAML" in err
