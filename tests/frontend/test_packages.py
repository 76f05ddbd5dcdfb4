"""The test package set: every construct and key, read into IR and checked clean."""

import io
import os
import shutil
import zipfile

import pytest

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import check_packages, load_packages

GOOD = os.path.join(os.path.dirname(__file__), "..", "data", "frontend", "good")


@pytest.fixture(scope="module")
def good():
    sink = DiagnosticSink()
    packages = load_packages([GOOD], sink)
    check_packages(packages, sink)
    return {p.manifest.full_name: p for p in packages}, sink


def find(packages, name):
    return next(c for p in packages.values() for c in p.classes if c.name == name)


def test_checks_clean(good):
    _, sink = good
    assert sink.diagnostics == []


def test_manifests(good):
    packages, _ = good
    app = packages["com.example.app"].manifest
    assert (app.format_name, app.format_version, app.type, app.version) == \
        ("MuranoPL", "1.4.0", "Application", "1.0.0")
    assert [(r.package, r.spec) for r in app.requirements] == \
        [("com.example.lib", ">=2.0,<3.0,!=2.0.5"), ("io.murano", None)]
    assert app.tags == ("example", "test") and app.ui == "ui.yaml" and app.logo == "logo.png"
    assert app.supplier == {"Name": "Example Supplier", "Logo": "supplier.png"}
    assert app.meta[0].type.full_name == "io.murano.metadata.Title"
    assert packages["com.example.app"].resources == ("setup.sh",)
    lib = packages["com.example.lib"].manifest
    assert (lib.format_version, lib.version) == ("1.2.0", "2.1.0-beta.1+build.5")
    assert packages["io.murano"].manifest.version == "0.0.0"


def test_class_structure(good):
    packages, _ = good
    app = find(packages, "com.example.app.App")
    assert [e.full_name for e in app.extends] == ["io.murano.Application", "com.example.app.Helper"]
    assert dict(app.namespaces)["std"] == "io.murano"
    assert [(m.type.full_name, dict(m.values)) for m in app.meta][1][0] == "com.example.lib.Tag"
    usages = {p.name: p.usage for p in app.properties}
    assert usages == {"name": "In", "server": "InOut", "ports": "Out", "settings": "Runtime",
                      "limits": "Const", "shared": "Static", "fromConfig": "Config", "plain": "In"}
    props = {p.name: p for p in app.properties}
    assert props["ports"].contract.min_length == 1 and props["ports"].contract.max_length is None
    assert props["settings"].contract.expression_key is not None
    assert props["plain"].contract == ir.ContractConstant(True, props["plain"].contract.pos)
    assert props["fromConfig"].default.value is True
    assert props["server"].default is None
    methods = {m.name: m for m in app.methods}
    assert set(methods) == {".init", ".destroy", "deploy", "actionMethod", "noBody", "literalKey"}
    assert (methods["deploy"].scope, methods["actionMethod"].scope) == ("Public", "Public")
    assert methods["actionMethod"].usage == "Action"
    assert methods["deploy"].arguments[0].default.value == 2
    helper = find(packages, "com.example.app.Helper")
    compute = {m.name: m for m in helper.methods}["compute"]
    assert [a.usage for a in compute.arguments] == ["Standard", "VarArgs", "KwArgs"]
    assert compute.arguments[0].contract.min_length == 1
    assert compute.arguments[0].contract.max_length == 5
    assert helper.imports[0].full_name == "com.example.lib.Base"
    base = find(packages, "com.example.lib.Base")
    assert [m.name for m in base.methods] == [".init", "setUp", ".destroy"]
    assert base.methods[0].written_name == "initialize"
    tag = find(packages, "com.example.lib.Tag")
    assert (tag.usage, tag.cardinality, tag.inherited) == ("Meta", "Many", False)
    assert set(tag.applies) == {"Package", "Type", "Property", "Method", "Argument"}
    unnamed = find(packages, "com.example.app.Unnamed")
    assert unnamed.extends[0].full_name == "io.murano.Application"
    assert find(packages, "io.murano.Application").extends[0].full_name == "io.murano.Object"


def test_statement_kinds(good):
    packages, _ = good
    deploy = {m.name: m for m in find(packages, "com.example.app.App").methods}["deploy"]
    kinds = [type(s).__name__ for s in deploy.body.statements]
    assert kinds == (["Assignment"] * 11 + ["ExpressionStatement", "Assignment", "Do", "Do", "If",
                     "If", "While", "For", "For", "Repeat", "Repeat", "Match", "Match", "Switch",
                     "Switch", "Parallel", "Parallel", "Try", "Try", "Try", "Throw", "Return"])
    statements = deploy.body.statements
    else_if = statements[16].otherwise.statements[0]
    assert isinstance(else_if, ir.If) and else_if.otherwise is None
    loop = statements[17]
    assert isinstance(loop.body.statements[1].then.statements[0], ir.Continue)
    try_ = statements[28]
    assert [c.names for c in try_.catches] == [("MyError",), ("std:Exception", "Other"), ()]
    assert try_.catches[0].variable == "e"
    assert try_.otherwise is not None and try_.finally_ is not None
    throw = statements[31]
    assert throw.names == ("lib:Failure", "Plain") and throw.message is None
    ret = statements[32].value
    assert isinstance(ret, ir.DictValue) and isinstance(ret.items[1][0], ir.Literal)
    assert isinstance(ret.items[0][1], ir.Expression)
    match = statements[22]
    assert [c.key.value for c in match.cases] == [1, "two"] and match.default is not None


def test_zip_and_directory_of_packages(tmp_path):
    archive = tmp_path / "app.zip"
    source = os.path.join(GOOD, "com.example.lib")
    with zipfile.ZipFile(archive, "w") as handle:
        for folder, _, files in os.walk(source):
            for name in files:
                path = os.path.join(folder, name)
                handle.write(path, os.path.relpath(path, source))
    sink = DiagnosticSink()
    [package] = load_packages([str(archive)], sink)
    assert sink.diagnostics == []
    assert [c.name for c in package.classes] == ["com.example.lib.Base", "com.example.lib.Tag"]
    assert package.classes[0].pos.file.startswith(str(archive))
    shutil.copytree(GOOD, tmp_path / "many")
    assert len(load_packages([str(tmp_path / "many")], sink)) == 3



LIBRARY = {"manifest.yaml": b"Format: 1.0\nType: Library\nFullName: x\nClasses:\n  x.A: a.yaml\n",
           "Classes/a.yaml": b"Name: x.A\n" * 20, "Resources/r.txt": b"resource\n" * 20}


def _library_zip() -> tuple[bytearray, dict[str, zipfile.ZipInfo]]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as handle:
        for name, data in LIBRARY.items():
            handle.writestr(name, data)
        infos = {info.filename: info for info in handle.infolist()}
    return bytearray(buffer.getvalue()), infos


def _needs_version_9_5(data, infos):
    data[data.index(b"PK\x01\x02") + 6] = 95  # the manifest's central record: version to extract


def _unknown_method(data, infos):
    data[data.index(b"PK\x01\x02") + 10] = 99  # its compression method


def _garbled_resource(data, infos):
    info = infos["Resources/r.txt"]
    data[info.header_offset + 30 + len(info.filename) + 2] ^= 0xFF


def _encrypted_manifest(data, infos):
    data[data.index(b"PK\x01\x02") + 8] |= 0x1  # the manifest's central record: encrypted


def _expands_past_a_gigabyte(data, infos):
    record = data.index(b"PK\x01\x02")  # the manifest's central record: its uncompressed size
    data[record + 24:record + 28] = (0xFFFFFFF0).to_bytes(4, "little")


@pytest.mark.parametrize("damage, expected", [
    (_needs_version_9_5, [("E-ZIP", "x.zip")]),
    (_expands_past_a_gigabyte, [("E-ZIP", "x.zip")]),
    (_unknown_method, [("E-IO", "x.zip/manifest.yaml", "archive member is compressed with a method "
                                                        "mplc cannot read (zip method 99); use deflate")]),
    (_garbled_resource, [("E-IO", "x.zip/Resources/r.txt", "archive member is damaged: it does not "
                                                           "unpack to the data its checksum and size describe")]),
    (_encrypted_manifest, [("E-IO", "x.zip/manifest.yaml", "archive member is encrypted; mplc reads no "
                                                           "password-protected archives")]),
])
def test_damaged_zip_is_a_diagnostic(tmp_path, damage, expected):
    """zipfile's every failure on a damaged archive (a version or method it does not support,
    a garbled stream in a member nobody parses, a password) is a diagnostic naming the member
    in the user's terms; the package is not loaded."""
    data, infos = _library_zip()
    damage(data, infos)
    archive = tmp_path / "x.zip"
    archive.write_bytes(bytes(data))
    sink = DiagnosticSink()
    assert load_packages([str(archive)], sink) == []
    found = [(d.code, os.path.relpath(d.pos.file, tmp_path), d.message) for d in sink.diagnostics]
    assert [item[:len(wanted)] for item, wanted in zip(found, expected)] == expected
    assert len(found) == len(expected)
