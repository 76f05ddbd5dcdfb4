"""``mplc check`` reports every check murano-pkg-check makes: one row per check.

Each row breaks one thing in a clean package and names the code and where it must be reported:
the position is found from a text in the file (the first occurrence of ``at``, or 1:1 for a
file as a whole), so a row states what is wrong, not a line number copied from the output.
The murano-pkg-check code each row corresponds to is in the row id (docs/diagnostics.md).
"""

from __future__ import annotations

import json

import pytest

from mplc.cli import main

MANIFEST = """\
Format: MuranoPL/1.4
Type: Application
FullName: com.example.App
Name: App
Description: An application.
Author: Someone
Tags: [web]
Classes:
  com.example.App: App.yaml
"""
CLASS = """\
Namespaces:
  =: com.example
  std: io.murano
Name: App
Extends: std:Application
Properties:
  name:
    Contract: $.string()
Methods:
  deploy:
    Arguments:
      - force:
          Contract: $.bool()
    Body:
      - Return: $.name
"""
UI = """\
Version: 2.4
Application:
  ?:
    type: com.example.App
  name: $.appConfiguration.name
Forms:
  - appConfiguration:
      fields:
        - name: name
          type: string
          label: Name
          required: true
          minLength: 2
"""
CLEAN = {"manifest.yaml": MANIFEST, "Classes/App.yaml": CLASS, "UI/ui.yaml": UI,
         "LICENSE": "Apache 2.0\n", "logo.png": "\x89PNG\n"}


def _edit(name: str, old: str, new: str):
    def change(files):
        assert old in files[name], old
        files[name] = files[name].replace(old, new, 1)
    return change


def _set(name: str, text: str | None):
    def change(files):
        files[name] = text
    return change


CHECKS = [
    # UI forms
    ("W100-field-type-typo", _edit("UI/ui.yaml", "type: string", "type: strnig"),
     "W-UI-FIELD-TYPE", "UI/ui.yaml", "strnig"),  # from mplc.forms
    ("E100-field-type-not-a-name", _edit("UI/ui.yaml", "type: string", "type: 'not a type'"),
     "W-UI-FIELD-TYPE", "UI/ui.yaml", "'not a type'"),
    ("E081-required-not-bool", _edit("UI/ui.yaml", "required: true", 'required: "nope"'),
     "W-UI-VALUE", "UI/ui.yaml", '"nope"'),
    ("E040-label-not-text", _edit("UI/ui.yaml", "label: Name", "label: [Name]"),
     "W-UI-VALUE", "UI/ui.yaml", "[Name]"),
    ("E082-min-length-not-int", _edit("UI/ui.yaml", "minLength: 2", "minLength: two"),
     "E-UI-ATTRIBUTE", "UI/ui.yaml", "two"),
    ("E082-min-value-not-int", _edit("UI/ui.yaml", "minLength: 2", "minValue: two"),
     "W-UI-VALUE", "UI/ui.yaml", "two"),
    ("E081-hidden-not-bool", _edit("UI/ui.yaml", "required: true", "hidden: 3"),
     "W-UI-VALUE", "UI/ui.yaml", "3"),
    ("W082-ui-version", _edit("UI/ui.yaml", "Version: 2.4", "Version: 2.9"),
     "E-UI-VERSION", "UI/ui.yaml", "2.9"),
    ("E084-application-not-a-mapping", _edit("UI/ui.yaml", "Application:\n  ?:\n    type: com.example.App\n"
                                             "  name: $.appConfiguration.name\n", "Application: [1]\n"),
     "W-UI-APPLICATION", "UI/ui.yaml", "[1]"),
    ("E083-application-property-name", _edit("UI/ui.yaml", "  name: $.app", "  2name: $.app"),
     "W-UI-APPLICATION", "UI/ui.yaml", "2name"),
    ("E021-form-key", _edit("UI/ui.yaml", "      fields:", "      validator: []\n      fields:"),
     "W-UI-KEY", "UI/ui.yaml", "validator:"),
    ("W010-ui-key", _edit("UI/ui.yaml", "Forms:", "Templates: {}\nFrom: 1\nForms:"),
     "W-UI-KEY", "UI/ui.yaml", "From:"),
    ("E005-ui-two-documents", _edit("UI/ui.yaml", "Version: 2.4", "Version: 2.4\n---\nVersion: 2.4"),
     "E-YAML", "UI/ui.yaml", "---"),
    # manifest
    ("E070-tags-not-a-list", _edit("manifest.yaml", "Tags: [web]", "Tags: notalist"),
     "W-MANIFEST", "manifest.yaml", "notalist"),
    ("E040-author-not-text", _edit("manifest.yaml", "Author: Someone", "Author: [a, b]"),
     "W-MANIFEST", "manifest.yaml", "[a, b]"),
    ("E020-no-description", _edit("manifest.yaml", "Description: An application.\n", ""),
     "W-MANIFEST", "manifest.yaml", "Format"),
    ("E072-ui-not-text", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nUI: [a]"),
     "W-MANIFEST", "manifest.yaml", "[a]"),
    ("E074-logo-not-text", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nLogo: {a: 1}"),
     "W-MANIFEST", "manifest.yaml", "{a: 1}"),
    ("E005-require-key", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nRequire:\n  not-a-name: 1.0"),
     "W-MANIFEST", "manifest.yaml", "not-a-name"),
    ("W074-logo-absent", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nLogo: nothere.png"),
     "W-LOGO-MISSING", "manifest.yaml", "nothere.png"),
    ("W074-default-logo-absent", _set("logo.png", None), "W-LOGO-MISSING", "manifest.yaml", "Format"),
    ("W073-ui-absent", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nUI: nothere.yaml"),
     "W-UI-MISSING", "manifest.yaml", "nothere.yaml"),
    ("W030-format", _edit("manifest.yaml", "MuranoPL/1.4", "MuranoPL/1.9"),
     "E-FORMAT", "manifest.yaml", "MuranoPL/1.9"),
    ("E071-version", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nVersion: abc"),
     "E-VERSION", "manifest.yaml", "abc"),
    ("E071-type", _edit("manifest.yaml", "Type: Application", "Type: App"),
     "E-MANIFEST", "manifest.yaml", "App\n"),
    ("E073-full-name", _edit("manifest.yaml", "FullName: com.example.App", "FullName: com..App"),
     "E-MANIFEST", "manifest.yaml", "com..App"),
    ("E050-class-file-absent", _edit("manifest.yaml", "App.yaml", "Nothere.yaml"),
     "E-MISSING-CLASS-FILE", "manifest.yaml", "com.example.App:"),
    ("W010-manifest-key", _edit("manifest.yaml", "Tags: [web]", "Tags: [web]\nTgas: []"),
     "W-UNKNOWN-KEY", "manifest.yaml", "Tgas"),
    # files of the package
    ("W020-orphan-class-file", _set("Classes/Extra.yaml", "Name: Extra\n"),
     "W-ORPHAN-CLASS-FILE", "Classes/Extra.yaml", None),
    ("W121-no-license", _set("LICENSE", None), "W-NO-LICENSE", "manifest.yaml", "Format"),
    ("W120-unknown-file", _set("notes.txt", "x\n"), "W-UNKNOWN-FILE", "notes.txt", None),
    ("images-lst", _set("images.lst", "Images:\n  - Name: ubuntu.qcow2\n    DiskFormat: qcow2\n"),
     "W-IMAGES", "images.lst", "Name: ubuntu"),
    ("images-lst-no-list", _set("images.lst", "Images: ubuntu\n"), "W-IMAGES", "images.lst", "ubuntu"),
    ("E002-yaml", _edit("Classes/App.yaml", "Name: App", "Name: [App"), "E-YAML", "Classes/App.yaml", ": std:Application"),
    # classes
    ("W010-class-key", _edit("Classes/App.yaml", "Properties:", "Methods2: 1\nProperties:"),
     "W-UNKNOWN-KEY", "Classes/App.yaml", "Methods2"),
    ("W011-camel-case", lambda files: (_edit("Classes/App.yaml", "Name: App", "Name: appServer")(files),
                                       _edit("manifest.yaml", "com.example.App: App.yaml",
                                             "com.example.appServer: App.yaml")(files)),
     "W-CLASS-NAME-STYLE", "Classes/App.yaml", "appServer"),
    ("W011-all-capitals", lambda files: (_edit("Classes/App.yaml", "Name: App", "Name: HTTPD")(files),
                                         _edit("manifest.yaml", "com.example.App: App.yaml",
                                               "com.example.HTTPD: App.yaml")(files)),
     "W-CLASS-NAME-STYLE", "Classes/App.yaml", "HTTPD"),
    ("W048-contract-text", _edit("Classes/App.yaml", "Contract: $.string()", "Contract: '$.string()'"),
     "W-CONTRACT-EXPRESSION", "Classes/App.yaml", "'$.string()'"),
    ("W048-contract-not-on-dollar", _edit("Classes/App.yaml", "Contract: $.bool()", "Contract: [bool(), 1, x]"),
     "W-CONTRACT-EXPRESSION", "Classes/App.yaml", "bool()"),
    ("E040-contract-key", _edit("Classes/App.yaml", "Contract: $.string()", "Contract: {5: $.string()}"),
     "W-CONTRACT-EXPRESSION", "Classes/App.yaml", "5:"),
    ("E054-method-name", _edit("Classes/App.yaml", "  deploy:", "  my-method:\n    Body: []\n  deploy:"),
     "W-METHOD-NAME", "Classes/App.yaml", "my-method"),
    ("E054-argument-name", _edit("Classes/App.yaml", "      - force:", "      - 2force:"),
     "W-METHOD-NAME", "Classes/App.yaml", "2force"),
    ("E044-scope-before-1.4", lambda files: (_edit("manifest.yaml", "MuranoPL/1.4", "MuranoPL/1.3")(files),
                                             _edit("Classes/App.yaml", "    Body:", "    Scope: Public\n    Body:")(files)),
     "W-FORMAT-FEATURE", "Classes/App.yaml", "Scope"),
    ("E052-argument-usage-before-1.4", lambda files: (
        _edit("manifest.yaml", "MuranoPL/1.4", "MuranoPL/1.3")(files),
        _edit("Classes/App.yaml", "Contract: $.bool()", "Contract: $.bool()\n          Usage: Standard")(files)),
     "W-FORMAT-FEATURE", "Classes/App.yaml", "Usage: Standard"),
    ("W045-action-deprecated", _edit("Classes/App.yaml", "    Body:", "    Usage: Action\n    Body:"),
     "W-FORMAT-FEATURE", "Classes/App.yaml", "Action"),
    ("W045-static-before-1.3", lambda files: (
        _edit("manifest.yaml", "MuranoPL/1.4", "MuranoPL/1.2")(files),
        _edit("Classes/App.yaml", "  deploy:", "  make:\n    Usage: Static\n    Body: []\n  deploy:")(files)),
     "W-FORMAT-FEATURE", "Classes/App.yaml", "Static"),
    ("E047-no-contract", _edit("Classes/App.yaml", "    Contract: $.string()", "    Default: x"),
     "E-MISSING-CONTRACT", "Classes/App.yaml", "name:\n    Default"),
    ("E042-property-usage", _edit("Classes/App.yaml", "    Contract: $.string()", "    Contract: $.string()\n    Usage: Outt"),
     "E-USAGE", "Classes/App.yaml", "Outt"),
    ("E048-arguments-mapping", _edit("Classes/App.yaml", "      - force:\n          Contract: $.bool()",
                                     "      force:\n        Contract: $.bool()\n      other:\n        Contract: $"),
     "E-ARGUMENT", "Classes/App.yaml", "force:"),
    ("E204-construct-keys", _edit("Classes/App.yaml", "      - Return: $.name", "      - If: true\n        Than: []"),
     "E-UNKNOWN-KEY", "Classes/App.yaml", "Than"),
    ("W202-yaql", _edit("Classes/App.yaml", "      - Return: $.name", "      - Return: !yaql '$.name +'"),
     "E-YAQL-SYNTAX", "Classes/App.yaml", "!yaql"),
    ("E011-class-name", _edit("Classes/App.yaml", "Name: App", "Name: 5"), "E-CLASS-NAME", "Classes/App.yaml", "5"),
]


def _package(tmp_path, change=None):
    files = dict(CLEAN)
    if change is not None:
        change(files)
    root = tmp_path / "pkg"
    for name, text in files.items():
        if text is not None:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
    return root, files


def _position(text: str | None, needle: str | None) -> tuple[int, int]:
    if needle is None:
        return 1, 1
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _check(capsys, *arguments):
    code = main(["check", "--output", "json", *map(str, arguments)])
    out, err = capsys.readouterr()
    return code, json.loads(out)


def test_the_clean_package_has_no_finding(capsys, tmp_path):
    root, _ = _package(tmp_path)
    assert _check(capsys, root) == (0, {"diagnostics": [], "summary": {"errors": 0, "warnings": 0}})


@pytest.mark.parametrize("change, code, file, at", [row[1:] for row in CHECKS],
                         ids=[row[0] for row in CHECKS])
def test_check(capsys, tmp_path, change, code, file, at):
    root, files = _package(tmp_path, change)
    exit_code, document = _check(capsys, root)
    line, column = _position(files.get(file), at)
    found = [(d["code"], d["file"], d["line"], d["column"]) for d in document["diagnostics"]]
    assert (code, str(root / file), line, column) in found, found
    assert exit_code == (1 if any(d["severity"] == "error" for d in document["diagnostics"]) else 0)
