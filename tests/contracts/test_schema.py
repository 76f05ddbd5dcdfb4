"""Contract -> json-schema fragments as the reference's schema generator produces them
(every row checked against it; the rows marked "the reference:" are differences
docs/fidelity.md lists)."""

from __future__ import annotations

import jsonschema
import pytest

from contract_harness import NAMESPACES, contract_ir
from mplc.contracts.schema import contract_schema
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.namespaces import Namespaces
from mplc.ir import NO_POS, TypeName

NULLABLE_STRING = {"type": ["string", "null"]}

SCHEMAS = [
    ("$.string()", NULLABLE_STRING),
    ("$.string().notNull()", {"type": "string"}),
    ("$.notNull().string()", {"type": "string"}),
    ("$.int()", {"type": ["integer", "null"]}),
    ("$.int().notNull()", {"type": "integer"}),
    ("$.bool()", {"type": ["boolean", "null"]}),
    ("$.bool().notNull()", {"type": "boolean"}),
    ("$", {}),
    ("$.notNull()", {}),
    ("[$.string().notNull()]", {"type": "array", "items": {"type": "string"}}),
    ("[$.string(), $.int(), 1, 3]", {"type": "array", "items": [NULLABLE_STRING,
                                                                  {"type": ["integer", "null"]}],
                                     "additionalItems": {"type": ["integer", "null"]}}),
    ("[]", {"type": "array"}),
    ("{key1: $.string().notNull(), $.string().notNull(): $.int()}",
     {"type": "object", "properties": {"key1": {"type": "string"}},
      "additionalProperties": {"type": ["integer", "null"]}}),
    ("{$.string(): [$.int().notNull()]}",
     {"type": "object", "properties": {},
      "additionalProperties": {"type": "array", "items": {"type": "integer"}}}),
    ("{}", {"type": "object"}),  # any dict; the reference allows only {}
    ("$.int().notNull().check($ >= 5)", {"type": "integer", "minimum": 5,
                                         "exclusiveMinimum": False}),
    ("$.int().notNull().check($ < 15)", {"type": "integer", "maximum": 15,
                                         "exclusiveMaximum": True}),
    ("$.int().notNull().check($ > 0 and $ <= 10)",
     {"type": "integer", "minimum": 0, "exclusiveMinimum": True, "maximum": 10,
      "exclusiveMaximum": False}),
    ("$.int().notNull().check($ > 0).check($ <= 10)",
     {"type": "integer", "minimum": 0, "exclusiveMinimum": True, "maximum": 10,
      "exclusiveMaximum": False}),
    ("$.int().check($ > -3)", {"type": ["integer", "null"], "minimum": -3,
                               "exclusiveMinimum": True}),
    ("$.int().check(10 > $)", {"type": ["integer", "null"], "maximum": 10,
                               "exclusiveMaximum": True}),  # the reference mirrors it to <=
    ("$.int().check(10 <= $)", {"type": ["integer", "null"], "minimum": 10,
                                "exclusiveMinimum": False}),  # the reference: > 10
    # (A and B) and C: the reference reads the terms (A and B), which states nothing, and C
    ("$.int().check($ > 0 and $ < 10 and $ != 5)", {"type": ["integer", "null"]}),
    ("$.int().check($ > 0 and $ < 10 and $ > 5)", {"type": ["integer", "null"], "minimum": 5,
                                                   "exclusiveMinimum": True}),
    # A and (B and C): A, then the parenthesised term, which states nothing
    ("$.int().check($ > 0 and ($ < 10 and $ > 5))", {"type": ["integer", "null"], "minimum": 0,
                                                     "exclusiveMinimum": True}),
    ("$.int().check(($) > 0)", {"type": ["integer", "null"]}),
    ("$.string().check($ > 'a')", NULLABLE_STRING),  # the reference: minimum "a"
    ("$.string().notNull().check($.matches('\\d+'))", {"type": "string", "pattern": "\\d+"}),
    ("$.string().notNull().check($ in [a, b])", {"type": "string", "enum": ["a", "b"]}),
    ("$.string().check($ in list(x, 'y'))", {"type": ["string", "null"], "enum": ["x", "y"]}),
    ("$.string().check($ in $this.values())", NULLABLE_STRING),
    ("$.string().check(len($) > 2)", NULLABLE_STRING),
    ("$.string().check(matches($, '\\d+'))", NULLABLE_STRING),
]


@pytest.mark.parametrize("contract, expected", SCHEMAS, ids=[row[0] for row in SCHEMAS])
def test_schema(contract, expected):
    schema = contract_schema(contract_ir(contract))
    assert schema == expected
    jsonschema.Draft4Validator.check_schema(schema)


def full_name(written):
    if isinstance(written, TypeName):
        return written.full_name
    return Namespaces(NAMESPACES, DiagnosticSink()).resolve(written, NO_POS)


OBJECT_SCHEMAS = [
    ("$.class(SampleClass1)", {"type": ["muranoObject", "null"],
                               "muranoType": "test.SampleClass1"}),
    ("$.class(std:Object).notNull()", {"type": "muranoObject", "muranoType": "io.murano.Object"}),
    ("$.class(Foo, versionSpec => '1.0')", {"type": ["muranoObject", "null"],
                                            "muranoType": "test.Foo"}),
    ("$.class(Foo).owned()", {"type": ["muranoObject", "null"], "muranoType": "test.Foo",
                              "owned": True}),
    ("$.class(Foo).notOwned()", {"type": ["muranoObject", "null"], "muranoType": "test.Foo",
                                 "owned": False}),
    ("$.template(SampleClass1, excludeProperties => [stringProperty])",
     {"type": ["muranoObject", "null"], "muranoType": "test.SampleClass1", "owned": True,
      "excludedProperties": ["stringProperty"]}),
    ("[$.class(Foo).notNull()]", {"type": "array", "items": {"type": "muranoObject",
                                                             "muranoType": "test.Foo"}}),
]


@pytest.mark.parametrize("contract, expected", OBJECT_SCHEMAS, ids=[r[0] for r in OBJECT_SCHEMAS])
def test_object_schema(contract, expected):
    """``muranoObject`` is the reference's own type name, outside draft-04's simple types."""
    assert contract_schema(contract_ir(contract), full_name) == expected


def test_scalar_constant_is_an_enum_of_itself():  # the reference emits null (not a schema)
    assert contract_schema(contract_ir("fixed")) == {"enum": ["fixed"]}
