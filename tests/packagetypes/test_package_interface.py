"""The Package interface of the built-in MuranoPL type: manifest fields, classes, UI, images."""

from __future__ import annotations

import pytest

from mplc.packagetypes import MuranoPlPackage, PackageTypeError
from mplc.versioning import Version

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


def _package(tmp_path, **manifest):
    data = {"Format": "MuranoPL/1.3", "Type": "Library", "FullName": "com.example.Lib",
            "Classes": {"com.example.Lib": "Lib.yaml"}, **manifest}
    return MuranoPlPackage("MuranoPL", Version("1.3.0"), str(tmp_path), data)


def test_manifest_fields_and_defaults(tmp_path):
    package = _package(tmp_path, Require={"io.murano": None}, Supplier={"Name": "S"})
    assert (package.full_name, package.display_name, str(package.version)) == (
        "com.example.Lib", "com.example.Lib", "0.0.0")
    assert package.classes == ("com.example.Lib",) and package.requirements == {"io.murano": None}
    assert package.supplier == {"Name": "S"} and package.tags == [] and package.description is None
    assert package.logo is None and package.supplier_logo is None and package.ui is None


def test_classes_ui_and_images_are_read_from_the_package(tmp_path):
    (tmp_path / "Classes").mkdir()
    (tmp_path / "Classes" / "Lib.yaml").write_text("Name: com.example.Lib\n")
    (tmp_path / "UI").mkdir()
    (tmp_path / "UI" / "form.yaml").write_text("Version: 2\n")
    (tmp_path / "logo.png").write_bytes(PNG)
    (tmp_path / "s.png").write_bytes(PNG)
    package = _package(tmp_path, UI="form.yaml", Supplier={"Logo": "s.png"})
    assert package.get_class("com.example.Lib") == (b"Name: com.example.Lib\n",
                                                     str(tmp_path / "Classes" / "Lib.yaml"))
    assert package.ui == b"Version: 2\n"
    assert package.logo == PNG and package.supplier_logo == PNG
    assert package.get_resource("a/b.txt") == str(tmp_path / "Resources" / "a" / "b.txt")


@pytest.mark.parametrize("manifest, call, message", [
    ({"FullName": "bad..name"}, None, "invalid FullName 'bad..name'"),
    ({"Type": "Service"}, None, "invalid package Type 'Service'"),
    ({"Version": "one"}, None, "invalid version 'one'"),
    ({"Logo": "missing.png"}, "logo", "logo missing.png does not exist"),
    ({"Logo": "manifest.txt"}, "logo", "only png, jpeg and gif images are allowed"),
    ({}, "resource", "outside the package"),
    ({}, "class", "class com.example.Other is not defined"),
    ({}, "missing class", "file Classes/Lib.yaml does not exist"),
])
def test_bad_packages(tmp_path, manifest, call, message):
    (tmp_path / "manifest.txt").write_text("not an image")
    with pytest.raises(PackageTypeError, match=message.replace("(", r"\(").replace(".", r"\.")):
        package = _package(tmp_path, **manifest)
        if call == "logo":
            package.logo
        elif call == "resource":
            package.get_resource("../../etc/passwd")
        elif call == "class":
            package.get_class("com.example.Other")
        elif call == "missing class":
            package.get_class("com.example.Lib")
