"""``mplc save``: offline copies of packages and bundles from a real served repository."""

from __future__ import annotations

import json
import os
import zipfile

import yaml

from mplc.cli import main

IMAGES = "Images:\n  - Name: ubuntu-14.04.qcow2\n    DiskFormat: qcow2\n    ContainerFormat: bare\n"


def run(capsys, *arguments):
    code = main([str(argument) for argument in arguments])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_package_is_saved_with_what_it_requires_and_its_images_listed(capsys, repository, tmp_path):
    repository.add_package("com.example.App", "1.0.0", require={"com.example.Lib": "1.0"},
                           extra_files={"images.lst": IMAGES})
    repository.add_package("com.example.Lib", "1.0.2")
    output = tmp_path / "offline"
    code, out, err = run(capsys, "save", "com.example.App", "--repo", repository.url, "-o", output)
    assert (code, err) == (0, "")
    assert sorted(os.listdir(output)) == ["com.example.App.zip", "com.example.Lib.zip", "images.lst"]
    served = (repository.root / "apps" / "com.example.App.zip").read_bytes()
    assert (output / "com.example.App.zip").read_bytes() == served
    assert yaml.safe_load((output / "images.lst").read_text())["Images"][0]["Name"] == "ubuntu-14.04.qcow2"
    assert "image ubuntu-14.04.qcow2" in out
    assert run(capsys, "compile", output, "-o", tmp_path / "compiled")[0] == 0


def test_a_bundle_is_saved_with_its_bundle_file(capsys, repository, tmp_path):
    repository.add_package("com.example.A", "1.0.0")
    repository.add_package("com.example.B", "2.0.0")
    repository.add_file("bundles/pair.bundle", json.dumps(
        {"Packages": [{"Name": "com.example.A"}, {"Name": "com.example.B", "Version": "2.0.0"}]}).encode())
    output = tmp_path / "offline"
    code, _, err = run(capsys, "save", "--bundle", "pair", "--repo", repository.url, "-o", output)
    assert (code, err) == (0, "")
    assert sorted(os.listdir(output)) == ["com.example.A.zip", "com.example.B.zip", "pair.bundle"]
    assert json.loads((output / "pair.bundle").read_text()) == {
        "Packages": [{"Name": "com.example.A"}, {"Name": "com.example.B", "Version": "2.0.0"}]}


def test_a_local_package_is_zipped_and_its_requirements_fetched(capsys, repository, tmp_path):
    repository.add_package("com.example.Lib", "1.0.0")
    local = tmp_path / "app"
    (local / "Classes").mkdir(parents=True)
    (local / "manifest.yaml").write_text("Format: 1.3\nType: Application\nFullName: com.example.Local\n"
                                         "Require:\n  com.example.Lib:\nClasses:\n  com.example.Local: L.yaml\n")
    (local / "Classes" / "L.yaml").write_text("Name: com.example.Local\n")
    output = tmp_path / "offline"
    code, _, err = run(capsys, "save", local, "--repo", repository.url, "-o", output)
    assert (code, err) == (0, "")
    with zipfile.ZipFile(output / "com.example.Local.zip") as archive:
        assert sorted(archive.namelist()) == ["Classes/L.yaml", "manifest.yaml"]
    assert (output / "com.example.Lib.zip").exists()


def test_a_missing_requirement_fails_and_writes_nothing(capsys, repository, tmp_path):
    repository.add_package("com.example.App", "1.0.0", require={"com.example.Gone": None})
    output = tmp_path / "offline"
    code, out, err = run(capsys, "save", "com.example.App", "--repo", repository.url, "-o", output)
    assert code == 1 and "com.example.Gone" in err and not output.exists()
