"""The reference's rule for "is this scalar YAQL?", on real YAML through the real loader."""

import pytest

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import parse_expression_text
from mplc.frontend.yaml_source import Mapping, read_documents


def first_value(yaml_text: str):
    sink = DiagnosticSink()
    documents = read_documents(yaml_text.encode(), "t.yaml", sink)
    assert not sink.diagnostics
    return documents[0].items[0]


@pytest.mark.parametrize("source, is_yaql, value", [
    ("deploy", False, "deploy"),
    ("io.murano.Object", False, "io.murano.Object"),
    ("Hello world", False, "Hello world"),
    ("foo-bar", True, "foo-bar"),
    ("a+b", True, "a+b"),
    ("std:Application", True, "std:Application"),
    (":Name", True, ":Name"),
    ("$x is ns:T", True, "$x is ns:T"),
    ("OS::Nova::Server", True, "OS::Nova::Server"),
    ("http://x", False, "http://x"),
    ("'$.x'", False, "$.x"),
    ('"$.x"', False, "$.x"),
    ("|\n    $.x", False, "$.x\n"),
    ("yes", False, True),
    ("off", False, False),
    ("Hello, World!", False, "Hello, World!"),
    ("~", False, None),
    ("12", False, 12),
    ("1.5", False, 1.5),
    ("0x1f", False, 31),
    ("2020-01-02", False, __import__("datetime").date(2020, 1, 2)),
    ("$", True, "$"),
    ("$.name", True, "$.name"),
    ("$x.f(a => 1)", True, "$x.f(a => 1)"),
    ("!yaql 'abc'", True, "abc"),
    ("!yaql deploy", True, "deploy"),
    ("! $.x", False, "$.x"),
    ("not valid (", False, "not valid ("),
])
def test_value_classification(source, is_yaql, value):
    _, node = first_value(f"key: {source}\n")
    assert (node.expression is not None) is is_yaql
    assert node.value == value


@pytest.mark.parametrize("source, is_yaql", [
    ("$x: 1", True),
    ("$.a.b: 1", True),
    ("Return: 1", False),
    ("If: 1", False),
    ("'$x': 1", False),
    ("=: io.murano", False),
    ("$.string(): $.int()", True),
])
def test_key_classification(source, is_yaql):
    key, _ = first_value(source + "\n")
    assert (key.expression is not None) is is_yaql


def test_multiline_plain_expression_is_folded():
    _, node = first_value("key: $.a.select(\n    $.b)\n")
    assert node.value == "$.a.select( $.b)"
    assert node.expression is not None


POS = ir.Pos("e.yaql", 3, 4, 3, 20)


@pytest.mark.parametrize("text, expected", [
    ("$", ir.GetContextValue("$", POS)),
    ("$x", ir.GetContextValue("$x", POS)),
    ("$1", ir.GetContextValue("$1", POS)),
    ("'s'", ir.Constant("s", POS)),
    ("null", ir.Constant(None, POS)),
    ("true", ir.Constant(True, POS)),
    ("12", ir.Constant(12, POS)),
    ("($x)", ir.Wrap(ir.GetContextValue("$x", POS), POS)),
    ("std:App", ir.TypeName("io.murano.App", "std:App", POS)),
    (":App", ir.TypeName("com.example.App", ":App", POS)),
    ("$.a", ir.Function("#operator_.", (ir.GetContextValue("$", POS), ir.KeywordConstant("a", POS)),
                        False, POS)),
    ("f(a => 1)", ir.Function("f", (ir.MappingRule(ir.KeywordConstant("a", POS), ir.Constant(1, POS),
                                                    POS),), True, POS)),
    ("$x is std:App", ir.Function("#operator_is", (ir.GetContextValue("$x", POS),
                                                   ir.TypeName("io.murano.App", "std:App", POS)),
                                  False, POS)),
    ("not $x", ir.Function("#unary_operator_not", (ir.GetContextValue("$x", POS),), False, POS)),
    ("$x[1]", ir.Function("#indexer", (ir.GetContextValue("$x", POS), ir.Constant(1, POS)), False,
                          POS)),
    ("[1]", ir.Function("#list", (ir.Constant(1, POS),), False, POS)),
    ("{a => 1}", ir.Function("#map", (ir.MappingRule(ir.KeywordConstant("a", POS),
                                                     ir.Constant(1, POS), POS),), False, POS)),
    ("$x?.a", ir.Function("#operator_?.",
                          (ir.GetContextValue("$x", POS), ir.KeywordConstant("a", POS)), False,
                          POS)),
    ("f(, 1)", ir.Function("f", (ir.SkippedArgument(POS), ir.Constant(1, POS)), True, POS)),
])
def test_expression_trees(text, expected):
    namespaces = {"=": "com.example", "std": "io.murano"}
    expression = parse_expression_text(text, POS, namespaces=namespaces)
    assert expression.source == text
    assert expression.pos == POS
    assert expression.tree == expected


def test_bad_yaql_is_recorded():
    sink = DiagnosticSink()
    assert parse_expression_text("$x +", POS, sink=sink) is None
    assert [(d.code, d.pos) for d in sink.diagnostics] == [("E-YAQL-SYNTAX", POS)]


def test_unknown_prefix_in_expression_is_left_to_the_runtime():
    sink = DiagnosticSink()
    expression = parse_expression_text("nope:Thing", POS, sink=sink)
    assert [d.code for d in sink.diagnostics] == ["W-UNKNOWN-NAMESPACE"]
    assert expression.tree == ir.TypeName("nope:Thing", "nope:Thing", POS)


def test_colon_chain_warns_and_resolves_nothing():
    sink = DiagnosticSink()
    expression = parse_expression_text("OS::Nova::Server", POS, sink=sink)
    assert [d.code for d in sink.diagnostics] == ["W-COLON-NOT-TYPE"]
    assert expression.tree.name == "#operator_:"


def test_mapping_node_positions():
    sink = DiagnosticSink()
    [document] = read_documents(b"a:\n  b: $x\n", "p.yaml", sink)
    assert isinstance(document, Mapping)
    _, inner = document.items[0]
    key, value = inner.items[0]
    assert (key.pos.line, key.pos.col, value.pos.line, value.pos.col, value.pos.end_col) == \
        (2, 3, 2, 6, 8)
