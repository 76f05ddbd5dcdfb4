"""``ir.Node.children()`` / ``walk()`` / ``relocated()``: the one generic traversal of the IR."""

import dataclasses
import re

import pytest

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.expressions import parse_expression_text
from mplc.frontend.packages import load_packages

WALKS = [
    ("$x", ["Expression", "GetContextValue"]),
    ("$.f($x, k => 1)", ["Expression", "Function", "GetContextValue", "Function", "GetContextValue",
                         "MappingRule", "KeywordConstant", "Constant"]),
    ("[1, {a => $}]", ["Expression", "Function", "Constant", "Function", "MappingRule", "KeywordConstant",
                       "GetContextValue"]),
    ("f(, 2)", ["Expression", "Function", "SkippedArgument", "Constant"]),
]


@pytest.mark.parametrize("source, expected", WALKS)
def test_walk_visits_each_node_before_its_children_in_field_order(source, expected):
    assert [type(node).__name__ for node in parse_expression_text(source).walk()] == expected


def test_children_of_a_call_are_its_arguments():
    call = parse_expression_text("f($a, 2)").tree
    assert call.children() == list(call.args)


def test_every_ir_class_but_pos_is_a_node():
    classes = [value for value in vars(ir).values() if isinstance(value, type) and dataclasses.is_dataclass(value)]
    assert {cls.__name__ for cls in classes if not issubclass(cls, ir.Node)} == {"Pos"}


def test_walk_reaches_statements_in_nested_blocks():
    [package] = load_packages(["examples/hello"], DiagnosticSink())
    hello = next(cls for cls in package.classes if cls.name == "com.example.Hello")
    kinds = {type(node).__name__ for node in hello.walk()}
    assert {"Try", "Catch", "If", "Throw", "For", "Assignment", "ContractList", "TypeName"} <= kinds


def test_relocated_moves_every_position():
    [package] = load_packages(["examples/hello"], DiagnosticSink())
    moved = package.relocated(lambda pos: dataclasses.replace(pos, file="moved"))
    assert "Pos(file='moved'" in repr(moved) and not re.search(r"Pos\(file='(?!moved')", repr(moved))
    assert [type(node) for node in moved.walk()] == [type(node) for node in package.walk()]
