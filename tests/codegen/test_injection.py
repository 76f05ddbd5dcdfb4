"""User text never becomes Python source or an identifier: hostile names compile into inert data."""

import ast
import re

import pytest

from mplc import ir
from mplc.codegen.classes import class_module

from ir_builders import call, klass, method, pos, variable

HOSTILE = [
    "__import__('os').system('touch /tmp/pwned')",
    "__class__",
    '"""; import os; """',
    "a\x00b",
    "x\ny = 1",
    "\\",
    "é\u2028",
]
GENERATED = ("_r", "_ENGINE", "CLASS", "_INSTRUCTIONS", "context", "receiver", "engine", "range", "type", "Exception", "_",
             "value", "cc", "_variables", "this", "caller", "caller_engine", "int", "dict", "_call_context")


GENERATED_NAME = re.compile(r"_[A-Za-z]+[0-9]+")


def _identifiers(tree: ast.Module):
    """Every identifier the module defines or reads (runtime attributes are checked separately)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.FunctionDef):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_stays_in_constants(text, tmp_path):
    at = pos(str(tmp_path / "x.yaml"), 4, 3)
    assign = ir.Assignment(
        ir.AssignmentTarget(text, ir.GetContextValue("$" + text, at),
                            (ir.AttributeStep(text, at),), at),
        ir.DictValue(((ir.Literal(text, at), ir.Literal(text, at)),), at), at)
    body = (assign,
            ir.ExpressionStatement(call(text, at, ir.Constant(text, at), ir.KeywordConstant(text, at)), at),
            ir.For(text, variable("$" + text, at), ir.Block((), at), at),
            ir.Throw((text,), ir.Literal(text, at), None, None, at))
    prop = ir.Property(text, ir.ContractConstant(text, at), "In", ir.Literal(text, at), (), at)
    cls = klass(text, at, method(text, at, *body), properties=[prop])
    tree = class_module(cls, "1.3.0")
    compile(tree, at.file, "exec")
    for identifier in _identifiers(tree):
        assert identifier in GENERATED or GENERATED_NAME.fullmatch(identifier), identifier
    constants = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert text in constants and "$" + text in constants


def test_runtime_attributes_are_only_runtime_exports(tmp_path):
    at = pos(str(tmp_path / "x.yaml"))
    tree = class_module(klass("__class__", at, method("__init__", at, ir.Return(variable("$", at), at))), "1.3.0")
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert attributes <= {"engine_for", "ClassSpec", "MethodSpec", "evaluate", "call", "constant", "lazy",
                          "fast", "variable", "NO_VALUE", "SCALARS", "result", "_data", "get",
                          # a body's direct way in (fast.enter_slowly and what it checks and builds)
                          "enter_slowly", "CallContext", "running_parallels", "METHOD_CONTEXT_KEY", "as_context",
                          "destroyed", "real_this", "quota", "QUOTA_FREE", "SMALL_RESULTS", "returned", "INLINE_BOUND",
                          "INLINE_LOWER_BOUND",
                          # every body turns Python errors into MuranoPL exceptions
                          "MuranoPlException", "to_murano_exception", "__traceback__"}
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert [alias.name for node in imports for alias in node.names] == ["mplc.runtime"]
