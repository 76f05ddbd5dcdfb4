"""Evaluate yaql expressions through mplc: yaql's parser -> front end IR -> codegen -> code object.

The expression is parsed by the caller's yaql engine, converted by the front end's tree
converter, compiled by codegen's expression compiler, and run against a yaql context exactly as
``yaql.language.expressions.Statement.evaluate`` runs a parsed tree.
"""

from __future__ import annotations

import sys

import mplc  # noqa: F401  (imports collections.abc before yaql)
from yaql.language import exceptions as yaql_exceptions
from yaql.language import utils

from mplc import ir
from mplc.codegen.expressions import expression_module
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.yaql_syntax import ExpressionBuilder
from mplc.runtime import expressions as bridge

POS = ir.Pos("<yaql>", 1, 1, 1, 1)
_compiled: dict = {}


def _no_type_names(written, pos):
    raise AssertionError(f"yaql's grammar has no ':' operator, got {written}")


def compile_text(engine, text: str, fast_paths: bool = True, legacy: bool = False):
    """The parsed statement and the compiled function ``(receiver, context, engine)`` of ``text``."""
    key = (id(engine), text, fast_paths, legacy)
    compiled = _compiled.get(key)
    if compiled is None:
        statement = engine(text)
        tree = ExpressionBuilder(_no_type_names, DiagnosticSink()).tree(statement.expression, POS)
        module, name = expression_module(tree, fast_paths, legacy)
        namespace: dict = {}
        exec(compile(module, "<yaql>", "exec"), namespace)
        compiled = _compiled[key] = (statement, namespace[name])
    return compiled


def evaluate(engine, text: str, data=utils.NO_VALUE, context=None, fast_paths: bool = True,
             legacy: bool = False):
    """``engine(text).evaluate(data, context)`` with the expression compiled by mplc."""
    _, function = compile_text(engine, text, fast_paths, legacy)
    if data is not utils.NO_VALUE:
        if engine.options.get("yaql.convertInputData", True):
            context["$"] = utils.convert_input_data(data)
        else:
            context["$"] = data
    if not context.collect_functions("#finalize"):
        context = context.create_child_context()
        context.register_function(lambda x: x, name="#finalize")
    try:
        return bridge.call("#finalize", utils.NO_VALUE, context, engine, (bridge.lazy(function),))
    except yaql_exceptions.WrappedException as wrapped:
        raise wrapped.wrapped.with_traceback(sys.exc_info()[2])
