"""YAQL as MuranoPL reads it: murano's operator set, the expression rule, and yaql tree -> IR.

Murano's engine is yaql's default grammar plus ``is`` (binary, ``>`` precedence group), binary
``:`` (left associative, highest precedence) and prefix ``:``. The grammar is the same for every
Format; only evaluation differs, which is not the front end's concern.
"""

from __future__ import annotations

import functools
import re

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded first)
from yaql.language import exceptions as yaql_exceptions
from yaql.language import expressions as yaql_expressions
from yaql.language import utils as yaql_utils

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.yaql_grammar import murano_engine

PLAIN_WORD_TEXT = re.compile(r"^[\s\w\d.]*$")
MAX_EXPRESSION_LENGTH = 65536


_ENGINE = murano_engine()


def is_plain_word_text(text: str) -> bool:
    """Text of only whitespace, word characters and dots is never YAQL (``deploy``, ``a.b``)."""
    return PLAIN_WORD_TEXT.match(text) is not None


@functools.lru_cache(maxsize=16384)
def _parse(text: str):
    """The parsed yaql statement, or the parse error message."""
    try:
        return _ENGINE(text)
    except yaql_exceptions.YaqlParsingException as error:
        return str(error) or type(error).__name__
    except (RecursionError, ValueError, TypeError, IndexError) as error:
        return f"{type(error).__name__}: {error}"


def parse_statement(text: str):
    """Parse ``text`` with murano's grammar: the yaql statement, or None when it does not parse."""
    if len(text) > MAX_EXPRESSION_LENGTH:
        return None
    result = _parse(text)
    return None if isinstance(result, str) else result


def parse_error_message(text: str) -> str:
    if len(text) > MAX_EXPRESSION_LENGTH:
        return f"longer than {MAX_EXPRESSION_LENGTH} characters"
    result = _parse(text)
    return result if isinstance(result, str) else ""


def murano_expression(text: str):
    """The expression rule for a plain scalar no standard YAML resolver claimed."""
    if is_plain_word_text(text):
        return None
    return parse_statement(text)


class ExpressionBuilder:
    """Converts yaql trees into IR, resolving ``ns:Name`` / ``:Name`` with the class namespaces.

    ``resolve_type(written, pos)`` returns the full name (recording a diagnostic when the
    prefix is unknown).
    """

    def __init__(self, resolve_type, sink: DiagnosticSink):
        self.resolve_type = resolve_type
        self.sink = sink

    def expression(self, source: str, statement, pos: ir.Pos) -> ir.Expression:
        try:
            tree = self.tree(statement.expression, pos)
        except RecursionError:
            self.sink.error("E-YAQL-DEPTH", "expression is nested too deeply", pos)
            tree = ir.Constant(None, pos)
        return ir.Expression(source, tree, pos)

    def tree(self, node, pos: ir.Pos, type_names: bool = True) -> ir.Expr:
        """``type_names`` False inside a ':' that cannot name a type: nothing there resolves."""
        if node is yaql_utils.NO_VALUE:
            return ir.SkippedArgument(pos)
        if isinstance(node, yaql_expressions.GetContextValue):
            return ir.GetContextValue(node.path.value, pos)
        if isinstance(node, yaql_expressions.KeywordConstant):
            return ir.KeywordConstant(node.value, pos)
        if isinstance(node, yaql_expressions.Constant):
            return ir.Constant(node.value, pos)
        if isinstance(node, yaql_expressions.Wrap):
            return ir.Wrap(self.tree(node.expr, pos, type_names), pos)
        if isinstance(node, yaql_expressions.MappingRuleExpression):
            return ir.MappingRule(self.tree(node.source, pos, type_names),
                                  self.tree(node.destination, pos, type_names), pos)
        if isinstance(node, yaql_expressions.Function):
            if type_names and node.name in ("#operator_:", "#unary_operator_:"):
                type_name = self._type_name(node, pos)
                if type_name is not None:
                    return type_name
                type_names = False
            return ir.Function(node.name,
                               tuple(self.tree(arg, pos, type_names) for arg in node.args),
                               node.uses_receiver, pos)
        raise TypeError(f"unexpected yaql node {type(node).__name__}")

    def _type_name(self, node, pos: ir.Pos) -> ir.TypeName | None:
        keywords = all(isinstance(arg, yaql_expressions.KeywordConstant) for arg in node.args)
        if node.name == "#operator_:":
            if not keywords:
                self.sink.warning(
                    "W-COLON-NOT-TYPE",
                    f"'{_source_of(node)}' parses as a ':' type-name operator that no one can "
                    "evaluate; quote it?", pos)
                return None
            written = f"{node.args[0].value}:{node.args[1].value}"
        elif node.name == "#unary_operator_:" and keywords:
            written = f":{node.args[0].value}"
        else:
            return None
        return ir.TypeName(self.resolve_type(written, pos), written, pos)


def _source_of(node) -> str:
    if isinstance(node, yaql_expressions.KeywordConstant):
        return node.value
    if isinstance(node, yaql_expressions.Function) and node.name == "#operator_:":
        return f"{_source_of(node.args[0])}:{_source_of(node.args[1])}"
    if isinstance(node, yaql_expressions.Function) and node.name == "#unary_operator_:":
        return f":{_source_of(node.args[0])}"
    return str(node)
