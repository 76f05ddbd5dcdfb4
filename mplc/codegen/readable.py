"""Python text for people (``mplc compile --emit-source``), written from the same ast that is
compiled, never compiled itself: each statement whose YAML line differs from the one before
it is preceded by a ``# File.yaml:LINE`` marker read from the statement's stamped position."""

from __future__ import annotations

import ast

import astor
from astor.code_gen import SourceGenerator


class _MarkedSource(SourceGenerator):
    """astor's source generator with position markers before statements."""

    def __init__(self, *args, file_name: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.file_name = file_name
        self.marked_line: int | None = None

    def mark(self, node: ast.AST) -> None:
        line = getattr(node, "lineno", None)
        if isinstance(node, ast.stmt) and line is not None and line != self.marked_line:
            self.marked_line = line
            self.write(f"# {self.file_name}:{line}")
            self.new_lines = 1

    def newline(self, node: ast.AST | None = None, extra: int = 0) -> None:
        self.new_lines = max(self.new_lines, 1 + extra)
        if node is not None:
            self.mark(node)

    def decorators(self, node: ast.AST, extra: int) -> None:
        """The marker of a decorated definition goes above its decorators."""
        self.newline(extra=extra)
        self.mark(node)
        for decorator in node.decorator_list:
            self.statement(decorator, "@", decorator)


def readable_source(tree: ast.Module, file_name: str) -> str:
    """``tree`` as Python text with ``# file_name:LINE`` markers; without them (``ast.unparse``)
    when astor cannot write a node kind newer than it."""
    try:
        return astor.to_source(tree, source_generator_class=_generator_for(file_name))
    except Exception:  # astor lags behind new ast node kinds
        return ast.unparse(tree) + "\n"


def _generator_for(file_name: str) -> type[SourceGenerator]:
    class Generator(_MarkedSource):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, file_name=file_name, **kwargs)
    return Generator
