"""UI forms (``UI/ui.yaml``) as the dashboard reads them, into plain data.

The dashboard has its own expression rule: a plain scalar is YAQL when it does not fully match
``^[\\s\\w\\d.:]*$`` and parses with yaql's standard engine (no ``:`` or ``is`` operators), or
when it is tagged ``!yaql``. Forms are not IR: other layers (forms, schemas) take the data.
"""

from __future__ import annotations

import functools
import re

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded first)
import yaml
from yaql.language import exceptions as yaql_exceptions
from yaql.language import factory as yaql_factory

from mplc.diagnostics import DiagnosticSink
from mplc.ir import Pos

UI_PLAIN_TEXT = re.compile(r"^[\s\w\d.:]*$")
YAQL_TAG = "!yaql"


class UiExpression(str):
    """The text of a YAQL expression of a form (the dashboard evaluates it)."""


@functools.lru_cache(maxsize=1)
def _engine():
    return yaql_factory.YaqlFactory().create()


def is_ui_expression(text: str) -> bool:
    if UI_PLAIN_TEXT.match(text):
        return False
    try:
        _engine()(text)
    except (yaql_exceptions.YaqlException, RecursionError, ValueError, TypeError, IndexError):
        return False
    return True


class _UiMatcher:
    @staticmethod
    def match(text: str) -> bool:
        return is_ui_expression(text)


class _UiLoader(yaml.SafeLoader):
    def construct_object(self, node, deep=False):
        """PyYAML's bool and timestamp constructors fail on other text with plain Python errors;
        they become YAML errors at the node."""
        try:
            return super().construct_object(node, deep)
        except (AttributeError, LookupError, ValueError, TypeError, OverflowError) as error:
            text = f" {node.value[:40]!r}" if isinstance(node, yaml.ScalarNode) else ""
            detail = f": {error}" if isinstance(error, ValueError) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {node.tag} value{text}{detail}", node.start_mark) from None


_UiLoader.add_implicit_resolver(YAQL_TAG, _UiMatcher, None)
_UiLoader.add_constructor(YAQL_TAG, lambda loader, node: UiExpression(loader.construct_scalar(node)))


def read_ui_form(data: bytes, path: str, sink: DiagnosticSink) -> dict | None:
    """The form definition of a ui.yaml file, or None (with a diagnostic) when it is no YAML
    mapping."""
    try:
        document = yaml.load(data.decode("utf-8-sig"), Loader=_UiLoader)
    except UnicodeDecodeError as error:
        sink.error("E-ENCODING", f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})",
                   Pos(path, 1, 1, 1, 1))
        return None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(part for part in (error.context, error.problem) if part)
        sink.error("E-YAML", f"YAML syntax: {message}", Pos(path, line, column, line, column + 1))
        return None
    except yaml.YAMLError as error:
        sink.error("E-YAML", f"YAML syntax: {error}", Pos(path, 1, 1, 1, 1))
        return None
    except RecursionError:
        sink.error("E-YAML-DEPTH", "YAML nesting too deep", Pos(path, 1, 1, 1, 1))
        return None
    if not isinstance(document, dict):
        sink.error("E-UI", "a UI form file must be one YAML mapping (Version, Forms, ...)",
                   Pos(path, 1, 1, 1, 1))
        return None
    return document
