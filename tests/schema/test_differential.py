"""Forms json-schemas of small generated classes, each expected value the reference's output for
the same class (found by differential fuzzing against Murano's schema generator)."""

from __future__ import annotations

import textwrap

import pytest

from mplc.commands.schema import load_forms
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
]


@pytest.mark.parametrize("body, expected", [row[1:] for row in PROPERTIES],
                         ids=[row[0] for row in PROPERTIES])
def test_property_schema(tmp_path, body, expected):
    assert generate(tmp_path, body)[""]["properties"]["p"] == expected
