"""Forms json-schemas of small generated classes, each expected value the reference's output for
the same class (found by differential fuzzing against Murano's schema generator)."""

from __future__ import annotations

import textwrap

import pytest

from mplc.cli import main
from mplc.commands.schema import load_forms
from mplc.contracts.forms import SchemaError
from mplc.diagnostics import DiagnosticSink

MANIFEST = """\
Format: MuranoPL/1.4
Type: Library
FullName: rows
Version: 1.0.0
Classes:
  rows.Row: Row.yaml
"""
HEADER = "Namespaces: {=: rows, m: io.murano.metadata, f: io.murano.metadata.forms}\nName: Row\n"


def generate(tmp_path, body: str) -> dict:
    package = tmp_path / "rows"
    (package / "Classes").mkdir(parents=True)
    (package / "manifest.yaml").write_text(MANIFEST)
    (package / "Classes" / "Row.yaml").write_text(HEADER + textwrap.dedent(body))
    sink = DiagnosticSink()
    forms = load_forms([str(package)], None, sink)
    assert not sink.has_errors, sink.diagnostics
    return forms.generate("rows.Row")


# (case, class body, the property's schema as the reference generates it)
PROPERTIES = [
    ("dict keys spelled as JSON spells them", """
        Properties:
          p:
            Contract: {true: $.int(), null: $.string(), 2.5: $.bool(), 3: $}
            Default: {true: 1, false: 2, null: 3}
        """,
     {"type": "object", "additionalProperties": False,
      "properties": {"true": {"type": ["integer", "null"]}, "null": {"type": ["string", "null"]},
                     "2.5": {"type": ["boolean", "null"]}, "3": {}},
      "default": {"true": 1, "false": 2, "null": 3}}),
    ("bounds computed from constants", """
        Properties:
          p:
            Contract: $.int().check($ >= 1 + 2 and $ < 2 * 3).check($ > 7 / 2 and $ <= 7.0 / 2)
        """,
     {"type": ["integer", "null"], "minimum": 3, "exclusiveMinimum": True, "maximum": 3.5,
      "exclusiveMaximum": False}),
    ("more bounds computed from constants", """
        Properties:
          p:
            Contract: $.int().check($ > 7 mod 3 and $ < 1 - 4).check($ > +3 and $ < 1 + 'a')
        """,
     {"type": ["integer", "null"], "minimum": 3, "exclusiveMinimum": True, "maximum": -3,
      "exclusiveMaximum": True}),
    ("a pattern and an enum computed from constants", """
        Properties:
          p:
            Contract: $.string().check($.matches('^a' + 'b$')).check($ in ['a'] + ['b'])
        """,
     {"type": ["string", "null"], "pattern": "^ab$", "enum": ["a", "b"]}),
    ("a list of integers only", "Properties: {p: {Contract: [5, 0, 3]}}", {"type": "array"}),
    ("integers and booleans among list items state nothing", """
        Properties:
          p:
            Contract: [true, $.int(), 7, $.string(), 1]
        """,
     {"type": "array", "items": [{"type": ["integer", "null"]}, {"type": ["string", "null"]}],
      "additionalItems": {"type": ["string", "null"]}}),
]


# (case, class body, the class schema as the reference generates it, "$schema" left out)
CLASSES = [
    ("meta values pass through the meta classes' contracts", """
        Meta:
          - f:Section: {name: 5, title: 7, index: '1'}
          - f:Section: {name: s2, index: 2.7}
        Properties:
          p:
            Contract: $.string()
            Meta:
              - m:Title: {text: 5}
              - m:Description: {text: true}
              - f:Hidden: {visible: 'yes'}
              - f:Position: {index: '3', section: 4}
        """,
     {"type": "object", "additionalProperties": False,
      "formSections": {"5": {"index": 0, "title": "7"}, "s2": {"index": 1, "title": "s2"}},
      "properties": {"p": {"type": ["string", "null"], "title": "5", "description": "True",
                           "visible": True, "formIndex": 8, "formSection": "4"}}}),
]


@pytest.mark.parametrize("body, expected", [row[1:] for row in CLASSES],
                         ids=[row[0] for row in CLASSES])
def test_class_schema(tmp_path, body, expected):
    schema = generate(tmp_path, body)[""]
    assert schema.pop("$schema") == "http://json-schema.org/draft-04/schema#"
    assert schema == expected


@pytest.mark.parametrize("body, expected", [row[1:] for row in PROPERTIES],
                         ids=[row[0] for row in PROPERTIES])
def test_property_schema(tmp_path, body, expected):
    assert generate(tmp_path, body)[""]["properties"]["p"] == expected


# (case, class body, the engine's error type, mplc's message, line of the cause in Row.yaml)
ERRORS = [
    ("a meta value its contract refuses", """
        Properties:
          p:
            Contract: $.string()
            Meta:
              - m:Title: {text: null}
        """, "ContractViolation",
     "[io.murano.metadata.Title.text] null value violates notNull() contract", 8),
    ("a meta value int() cannot read", """
        Meta:
          - f:Section: {name: s, index: x}
        """, "ContractViolation",
     "[io.murano.metadata.forms.Section.index] Value 'x' violates int() contract", 5),
]


@pytest.mark.parametrize("body, error_type, message, line", [row[1:] for row in ERRORS],
                         ids=[row[0] for row in ERRORS])
def test_errors_name_the_line(tmp_path, capsys, body, error_type, message, line):
    with pytest.raises(SchemaError) as caught:
        generate(tmp_path, body)
    assert (caught.value.type, str(caught.value), caught.value.pos.line) == (error_type, message,
                                                                            line)
    assert main(["schema", "--path", str(tmp_path / "rows"), "rows.Row"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"Row.yaml:{line}:" in err and message in err and "Traceback" not in err


def test_a_method_whose_meta_cannot_load_is_no_model_builder(tmp_path):
    """The reference's answer for this class has the keys "" and "fine"."""
    schemas = generate(tmp_path, """
        Methods:
          broken:
            Usage: Static
            Scope: Public
            Meta:
              - m:ModelBuilder: {enabled: null}
            Body: [Return: $]
          fine:
            Usage: Static
            Scope: Public
            Meta: [m:ModelBuilder]
            Body: [Return: $]
        """)
    assert sorted(schemas) == ["", "fine"]


def generate_hierarchy(tmp_path, classes: dict[str, str]):
    """Schemas of rows.Row in a package of several classes (name -> body after ``Name:``)."""
    package = tmp_path / "rows"
    (package / "Classes").mkdir(parents=True)
    (package / "manifest.yaml").write_text(
        MANIFEST.replace("  rows.Row: Row.yaml\n",
                         "".join(f"  rows.{name}: {name}.yaml\n" for name in classes)))
    for name, body in classes.items():
        (package / "Classes" / f"{name}.yaml").write_text(
            f"Namespaces: {{=: rows}}\nName: {name}\n" + textwrap.dedent(body))
    sink = DiagnosticSink()
    forms = load_forms([str(package)], None, sink)
    assert not sink.has_errors, sink.diagnostics
    return forms.generate("rows.Row")


BUILDER = """
          Usage: Static
          Scope: Public
          Meta: [io.murano.metadata.ModelBuilder]
          Body: [Return: 1]
"""


def test_a_property_declared_on_two_unrelated_paths_is_ambiguous(tmp_path):
    """Row extends A (whose parent Base declares p) and B (which declares p): neither path's
    declaration overrides the other's, and the reference fails with this error."""
    with pytest.raises(SchemaError) as caught:
        generate_hierarchy(tmp_path, {
            "Row": "Extends: [A, B]\n",
            "A": "Extends: Base\n",
            "Base": "Properties:\n  p:\n    Contract: $.int()\n",
            "B": "Properties:\n  p:\n    Contract: $.string()\n    Usage: Out\n",
        })
    assert (caught.value.type, str(caught.value)) == ("AmbiguousPropertyNameError",
                                                      'Found more than one property "p"')
    assert main(["schema", "--path", str(tmp_path / "rows"), "rows.Row"]) == 1


def test_a_redeclaration_overrides_the_shared_parent_and_ambiguous_builders_are_left_out(tmp_path):
    """Row extends A (redeclaring Base's p) and B (extending Base); build is declared by A and
    by B. The reference's answer: p is A's string, and the builders are "" and "other"."""
    schemas = generate_hierarchy(tmp_path, {
        "Row": "Extends: [A, B]\n",
        "A": "Extends: Base\nProperties:\n  p:\n    Contract: $.string()\nMethods:\n  build:"
             + BUILDER + "  other:\n    Arguments:\n      - x:\n          Contract: $.int()"
             + BUILDER.replace("\n          ", "\n    "),
        "Base": "Properties:\n  p:\n    Contract: $.int()\n",
        "B": "Extends: Base\nMethods:\n  build:" + BUILDER,
    })
    assert sorted(schemas) == ["", "other"]
    assert schemas[""]["properties"] == {"p": {"type": ["string", "null"]}}
    assert schemas["other"]["properties"] == {"x": {"type": ["integer", "null"]}}
