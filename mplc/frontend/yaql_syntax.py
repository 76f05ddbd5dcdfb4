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
MAX_EXPRESSION_DEPTH = 128


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
        return ir.Expression(source, self.tree(statement.expression, pos), pos)

    def tree(self, node, pos: ir.Pos) -> ir.Expr:
        """The IR of a parsed yaql expression; one nested deeper than the reference's engine
        can evaluate is an error (the conversion, code generation and yaql all recurse)."""
        if _depth(node) > MAX_EXPRESSION_DEPTH:
            self.sink.error("E-YAQL-DEPTH", f"expression nested deeper than {MAX_EXPRESSION_DEPTH} "
                            "levels; Murano's engine cannot evaluate it either", pos)
            return ir.Constant(None, pos)
        return self._tree(node, pos)

    def _tree(self, node, pos: ir.Pos, type_names: bool = True) -> ir.Expr:
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
            return ir.Wrap(self._tree(node.expr, pos, type_names), pos)
        if isinstance(node, yaql_expressions.MappingRuleExpression):
            return ir.MappingRule(self._tree(node.source, pos, type_names),
                                  self._tree(node.destination, pos, type_names), pos)
        if isinstance(node, yaql_expressions.Function):
            if type_names and node.name in ("#operator_:", "#unary_operator_:"):
                type_name = self._type_name(node, pos)
                if type_name is not None:
                    return type_name
                type_names = False
            return ir.Function(node.name,
                               tuple(self._tree(arg, pos, type_names) for arg in node.args),
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


def _depth(root) -> int:
    """How deeply a yaql tree nests, counted without recursion."""
    deepest = 0
    pending = [(root, 1)]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        if isinstance(node, yaql_expressions.Function):
            pending.extend((arg, depth + 1) for arg in node.args)
        elif isinstance(node, yaql_expressions.Wrap):
            pending.append((node.expr, depth + 1))
        elif isinstance(node, yaql_expressions.MappingRuleExpression):
            pending.extend(((node.source, depth + 1), (node.destination, depth + 1)))
    return deepest


def _source_of(node) -> str:
    if isinstance(node, yaql_expressions.KeywordConstant):
        return node.value
    if isinstance(node, yaql_expressions.Function) and node.name == "#operator_:":
        return f"{_source_of(node.args[0])}:{_source_of(node.args[1])}"
    if isinstance(node, yaql_expressions.Function) and node.name == "#unary_operator_:":
        return f":{_source_of(node.args[0])}"
    return str(node)
