"""Parsing YAQL text given directly (tests, other layers), outside any YAML file."""

from __future__ import annotations

from mplc import ir
from mplc.diagnostics import CompileError, Diagnostic, DiagnosticSink
from mplc.frontend.namespaces import Namespaces
from mplc.frontend.yaql_syntax import ExpressionBuilder, parse_error_message, parse_statement


def parse_expression_text(text: str, pos: ir.Pos = ir.NO_POS, sink: DiagnosticSink | None = None,
                          namespaces: dict[str, str] | None = None) -> ir.Expression | None:
    """``text`` as an IR expression, parsed with murano's YAQL grammar.

    Bad YAQL is recorded in ``sink`` (and None returned) when one is given, else raised as a
    ``CompileError``. ``namespaces`` (prefix -> namespace) resolves ``ns:Name``.
    """
    own_sink = sink if sink is not None else DiagnosticSink()
    statement = parse_statement(text)
    if statement is None:
        diagnostic = Diagnostic("error", "E-YAQL-SYNTAX",
                                f"not a valid YAQL expression: {parse_error_message(text)}", pos)
        if sink is None:
            raise CompileError([diagnostic])
        sink.extend([diagnostic])
        return None
    resolver = Namespaces(namespaces or {}, own_sink)
    builder = ExpressionBuilder(resolver.resolve_when_run, own_sink)
    expression = builder.expression(text, statement, pos)
    if sink is None and own_sink.has_errors:
        raise CompileError(own_sink.diagnostics)
    return expression
