"""Forms json-schemas of the classes under tests/data/schema: golden files, draft-04 validity,
sample object models against them, and the errors of bad requests."""

from __future__ import annotations

import json
import os

import jsonschema
import pytest

from schema_harness import DATA, MuranoDraft4Validator
from mplc.commands.schema import load_forms
from mplc.contracts.forms import FormsGenerator, SchemaError
from mplc.diagnostics import DiagnosticSink

GOLDEN = os.path.join(DATA, "golden")
CLASSES = ["forms.app.Contracts", "forms.app.Checks", "forms.app.Server", "forms.app.Builders",
           "forms.library.Named"]


def _golden_path(class_name: str) -> str:
    return os.path.join(GOLDEN, class_name + ".json")


@pytest.mark.parametrize("class_name", CLASSES)
def test_golden(forms, class_name):
    """Set MPLC_UPDATE_GOLDEN=1 to rewrite the golden files (then review the diff)."""
    generated = forms.generate(class_name)
    if os.environ.get("MPLC_UPDATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(_golden_path(class_name), "w", encoding="utf-8") as handle:
            json.dump(generated, handle, indent=2, sort_keys=True)
            handle.write("\n")
    with open(_golden_path(class_name), encoding="utf-8") as handle:
        assert generated == json.load(handle)


@pytest.mark.parametrize("class_name", CLASSES)
def test_every_schema_is_draft04(forms, class_name):
    for name, schema in forms.generate(class_name).items():
        MuranoDraft4Validator.check_schema(schema)
        assert schema["$schema"] == "http://json-schema.org/draft-04/schema#", name


def test_custom_type_is_what_plain_draft04_rejects(forms):
    """The extended meta-schema is needed: stock draft-04 refuses ``muranoObject``."""
    schema = forms.generate("forms.app.Contracts")[""]
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.Draft4Validator.check_schema(schema)


DISK = {"?": {"id": "d1", "type": "forms.library.Disk"}, "size": 10}

# (class, schema, instance, the validator that rejects it or None when valid)
SAMPLES = [
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": DISK}, None),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True}, None),  # no "required", as the reference
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": 5}, "type"),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1", "text": None,
                                 "disk": None, "sharedDisk": "d2"}, None),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1", "unknown": 1},
     "additionalProperties"),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": None, "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1"}, "type"),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1", "constant": "other"},
     "enum"),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1",
                                 "pair": ["a", 1, 2]}, None),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1",
                                 "pair": ["a", 1, "x"]}, "type"),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1",
                                 "endpoint": {"host": "h", "extra": 1}}, "additionalProperties"),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1",
                                 "tagged": {"primary": "p", "more": [1, 2]},
                                 "anyDict": {"any": "thing"}}, None),
    ("forms.app.Contracts", "", {"anyNotNull": 1, "textRequired": "a", "numberRequired": 1,
                                 "flagRequired": True, "diskRequired": "d1",
                                 "tagged": {"primary": "p", "more": ["x"]}}, "type"),
    ("forms.app.Checks", "", {"atLeast": 5, "below": 14, "range": 10, "chained": 1,
                              "shortText": "abcdefgh", "longText": "abcd", "fewItems": [1, 2],
                              "digits": "123", "size": "small"}, None),
    ("forms.app.Checks", "", {"atLeast": 4, "below": 14, "range": 10, "chained": 1,
                              "shortText": "a", "longText": "abcd", "fewItems": [],
                              "digits": "1", "size": "small"}, "minimum"),
    ("forms.app.Checks", "", {"atLeast": 5, "below": 15, "range": 10, "chained": 1,
                              "shortText": "a", "longText": "abcd", "fewItems": [],
                              "digits": "1", "size": "small"}, "maximum"),
    ("forms.app.Checks", "", {"atLeast": 5, "below": 1, "range": 0, "chained": 1,
                              "shortText": "a", "longText": "abcd", "fewItems": [],
                              "digits": "1", "size": "small"}, "minimum"),
    ("forms.app.Checks", "", {"atLeast": 5, "below": 1, "range": 1, "chained": 1,
                              "shortText": "a", "longText": "abcd", "fewItems": [],
                              "digits": "1a", "size": "small"}, "pattern"),
    ("forms.app.Checks", "", {"atLeast": 5, "below": 1, "range": 1, "chained": 1,
                              "shortText": "a", "longText": "abcd", "fewItems": [],
                              "digits": "1", "size": "huge"}, "enum"),
    ("forms.app.Checks", "", {"atLeast": 5, "below": 1, "range": 1, "chained": 1,
                              "shortText": "a", "longText": "abcd", "fewItems": [],
                              "digits": "1", "size": "small", "mirrored": 10}, "maximum"),
    ("forms.app.Server", "", {"name": "ab", "port": 80, "disk": DISK}, None),
    ("forms.app.Server", "", {"name": "ab", "port": 65536}, "maximum"),
    ("forms.app.Server", "", {"name": "ab", "cache": 1}, "additionalProperties"),
    ("forms.app.Server", "withPort", {"port": 8080}, None),
    ("forms.app.Server", "withPort", {"port": 0, "host": "h"}, "minimum"),
    ("forms.app.Server", "withPort", {"port": 1, "cache": 1}, "additionalProperties"),
    ("forms.app.Builders", "build", {"model": {"a": 1}, "count": 1, "options": "red"}, None),
    ("forms.app.Builders", "build", {"count": 1, "options": 5}, "type"),
    ("forms.app.Builders", "build", {"count": 1, "colour": "red"}, "additionalProperties"),
]


@pytest.mark.parametrize("class_name, method, instance, rejected_by", SAMPLES)
def test_samples(forms, class_name, method, instance, rejected_by):
    schema = forms.generate(class_name, [method])[method]
    errors = list(MuranoDraft4Validator(schema).iter_errors(instance))
    if rejected_by is None:
        assert errors == []
    else:
        assert [error.validator for error in errors] == [rejected_by], errors


def test_inherited_contracts_resolve_in_the_declaring_class(forms):
    """Named says ``$.class(Disk)``; in Server (default namespace forms.app) it is still the
    library's Disk, and ``lib:`` (which only Named and Server declare) resolves too."""
    properties = forms.generate("forms.app.Server")[""]["properties"]
    assert properties["spare"]["muranoType"] == "forms.library.Disk"
    assert properties["disk"]["muranoType"] == "forms.library.Disk"


def test_form_indexes_weigh_the_index_by_the_distance_of_the_declaring_class(forms):
    """(index + 1) * classes in the hierarchy - distance of the class declaring the Position,
    as the reference computes it: equal indexes stay equal (Server's 3 classes: Named's index 0
    and Server's index 0 give 2 and 3)."""
    properties = forms.generate("forms.app.Server")[""]["properties"]
    ordered = sorted((p["formIndex"], name) for name, p in properties.items() if "formIndex" in p)
    assert ordered == [(2, "disk"), (2, "name"), (3, "flavor"), (3, "port"), (5, "spare")]


def test_sections_redefined_by_a_child(forms):
    sections = forms.generate("forms.app.Server")[""]["formSections"]
    assert sections == {"basics": {"title": "Basics", "index": 0},
                        "network": {"title": "Network", "index": 1},
                        "storage": {"title": "Storage", "index": 2},
                        "notes": {"title": "notes"}}
    assert forms.generate("forms.library.Named")[""]["formSections"]["storage"] \
        == {"title": "Storage (base)", "index": 1}


def test_model_builders(forms):
    assert sorted(forms.generate("forms.app.Builders")) == ["", "build", "buildMany", "reject"]
    assert sorted(forms.generate("forms.app.Server")) == ["", "fromName", "withPort"]
    assert list(forms.generate("forms.app.Server", ["withPort"])) == ["withPort"]
    assert list(forms.generate("forms.app.Server", ["", "fromName"])) == ["", "fromName"]


def test_non_constant_default_is_reported_once(forms):
    sink = DiagnosticSink()
    generator = FormsGenerator(forms.packages, sink)
    generator.generate("forms.app.Contracts")
    generator.generate("forms.app.Contracts")
    found = [(d.code, os.path.basename(d.pos.file), d.pos.line, d.pos.col)
             for d in sink.diagnostics]
    assert found == [("W-SCHEMA-NOT-CONSTANT", "Contracts.yaml", 71, 14)]


ERRORS = [
    (("forms.app.Missing",), {}, "NoClassFound", "class forms.app.Missing not found"),
    (("forms.app.Server", ["notThere"]), {}, "NoMethodFound",
     "class forms.app.Server has no model builder 'notThere' (model builders: fromName, withPort)"),
    (("forms.app.Builders", ["notStatic"]), {}, "NoMethodFound", None),
    (("forms.app.Builders", ["notPublic"]), {}, "NoMethodFound", None),
    (("forms.app.Builders", ["disabled"]), {}, "NoMethodFound", None),
    (("forms.app.Builders", ["plain"]), {}, "NoMethodFound", None),
    (("forms.app.Server",), {"class_version": "1"}, "NoClassFound",
     "no version of class forms.app.Server matches '1' (available: 2.0.0)"),
    (("forms.app.Server",), {"class_version": ">>1"}, "InvalidVersionSpec", None),
    (("forms.app.Server",), {"package_name": "no.such"}, "NoPackageFound",
     "package no.such not found"),
    (("forms.app.Server",), {"package_name": "forms.library"}, "NoClassFound",
     "class forms.app.Server not found in package forms.library"),
]


@pytest.mark.parametrize("arguments, options, error_type, message", ERRORS)
def test_errors(forms, arguments, options, error_type, message):
    with pytest.raises(SchemaError) as caught:
        forms.generate(*arguments, **options)
    assert caught.value.type == error_type
    if message is not None:
        assert str(caught.value) == message


def test_version_and_package_select_the_class(forms):
    assert forms.generate("forms.app.Server", class_version="2", package_name="forms.app") \
        == forms.generate("forms.app.Server")


UNREACHABLE = """\
Namespaces:
  =: forms.unreachable
  app: forms.app
Name: Holder
Properties:
  server:
    Contract: $.class(app:Server)
"""


@pytest.mark.parametrize("require, message", [
    ("", "class forms.app.Server (named in a contract of forms.unreachable.Holder) not found in "
         "forms.unreachable, io.murano"),
    ("Require:\n  forms.app: 2.0.0\n", "class forms.library.Named (used by forms.app.Server) "
                                       "not found"),
])
def test_a_contract_naming_a_class_the_package_cannot_load_is_no_class_found(
        tmp_path, require, message):
    """As in the reference: the class must be in the package, a required package or io.murano,
    and so must its ancestors (forms.app without forms.library lacks Server's parent)."""
    package = tmp_path / "forms.unreachable"
    (package / "Classes").mkdir(parents=True)
    (package / "Classes" / "Holder.yaml").write_text(UNREACHABLE)
    (package / "manifest.yaml").write_text(
        "Format: 1.4\nType: Library\nFullName: forms.unreachable\n"
        "Classes:\n  forms.unreachable.Holder: Holder.yaml\n" + require)
    sink = DiagnosticSink()
    generator = load_forms([str(package), os.path.join(DATA, "forms.app")], None, sink)
    with pytest.raises(SchemaError) as caught:
        generator.generate("forms.unreachable.Holder")
    assert (caught.value.type, str(caught.value)) == ("NoClassFound", message)
    pos = caught.value.pos
    assert (os.path.basename(pos.file), pos.line, pos.col) == ("Holder.yaml", 7, 15)
