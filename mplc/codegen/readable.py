"""Python text for people (``mplc compile --emit-source``), written from the same ast that is
compiled, never compiled itself: each statement whose YAML line differs from the one before
it is preceded by a ``# File.yaml:LINE  source line`` marker, the line read from the
statement's stamped position and its text from the YAML file when there is one."""

from __future__ import annotations

import ast
import os

try:
    import astor
    from astor.code_gen import SourceGenerator
except Exception:  # astor lags behind new Python versions: ast.unparse, without markers, then
    astor = None
    SourceGenerator = object


class _MarkedSource(SourceGenerator):
    """astor's source generator with position markers before statements."""

    def __init__(self, *args, file_name: str, lines: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.file_name = file_name
        self.lines = lines
        self.marked_line: int | None = None

    def mark(self, node: ast.AST) -> None:
        line = getattr(node, "lineno", None)
        if isinstance(node, ast.stmt) and line is not None and line != self.marked_line:
            self.marked_line = line
            text = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
            self.write(f"# {self.file_name}:{line}  {text}".rstrip())
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


def readable_source(tree: ast.Module, yaml_path: str) -> str:
    """``tree``, compiled from the YAML file ``yaml_path``, as Python text with markers; without
    them (``ast.unparse``) when astor cannot write a node kind newer than it."""
    if astor is not None:
        try:
            return astor.to_source(tree, source_generator_class=_generator_for(yaml_path))
        except Exception:  # astor lags behind new ast node kinds
            pass
    return ast.unparse(tree) + "\n"


def _generator_for(yaml_path: str) -> type[SourceGenerator]:
    file_name, lines = os.path.basename(yaml_path), _source_lines(yaml_path)

    class Generator(_MarkedSource):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, file_name=file_name, lines=lines, **kwargs)
    return Generator


def _source_lines(yaml_path: str) -> list[str]:
    """The lines of the class file; none for a file inside a zip or no longer there."""
    if not os.path.isfile(yaml_path):
        return []
    with open(yaml_path, encoding="utf-8", errors="replace") as handle:
        return handle.read().splitlines()
