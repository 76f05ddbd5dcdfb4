"""Compile-time diagnostics: what `mplc check` and `mplc compile` print.

Format (DESIGN.md): ``path:line:col: error|warning: message [CODE]``, then the source line and
a caret under the column. Every diagnostic has a stable code so tests and tools can match it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, TextIO

from mplc.ir import Pos


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: str  # "error" | "warning"
    code: str  # stable, e.g. "E-YAML", "E-UNKNOWN-KEY"; see docs/diagnostics.md
    message: str
    pos: Pos
    quote: bool = True  # whether the file may be read to show the line: never one outside a package

    def headline(self) -> str:
        """One line, whatever the user's text holds: control and line-separator characters of
        names quoted in the message (or of the path) are escaped."""
        return _one_line(f"{self.pos.file}:{self.pos.line}:{self.pos.col}: {self.severity}: "
                         f"{self.message} [{self.code}]")


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(character if character.isprintable() or character == " "
                   else character.encode("unicode_escape").decode("ascii") for character in text)


@dataclass
class DiagnosticSink:
    """Collects every diagnostic of a run; nothing stops at the first error."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, pos: Pos, quote: bool = True) -> None:
        self.diagnostics.append(Diagnostic("error", code, message, pos, quote))

    def warning(self, code: str, message: str, pos: Pos) -> None:
        self.diagnostics.append(Diagnostic("warning", code, message, pos))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(other)


class CompileError(Exception):
    """Raised by an API entry point when compilation produced errors; carries them all."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        errors = [d for d in diagnostics if d.severity == "error"]
        first = errors[0].headline() if errors else "compilation failed"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(first + more)


_MAX_SOURCE_BYTES = 32 * 1024 * 1024


def _source_lines(path: str) -> list[str] | None:
    """The lines of a regular file small enough to be source. A FIFO or device named by a
    diagnostic is never opened: reading one can block forever or never end."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_SOURCE_BYTES:
            return None
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    # a binary file (a zip, a .pyc) has no source line worth showing
    return None if b"\x00" in data else data.decode("utf-8", "replace").splitlines()


def _source_line(path: str, line: int, cache: dict[str, list[str] | None]) -> str | None:
    if path not in cache:
        cache[path] = _source_lines(path)
    lines = cache[path]
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


def render(diagnostics: Iterable[Diagnostic], stream: TextIO,
           sources: dict[str, str] | None = None) -> None:
    """Write diagnostics with their source line and a caret.

    ``sources`` maps a diagnostic path to text already in memory (e.g. a file inside a zip).
    """
    cache: dict[str, list[str] | None] = {}
    if sources:
        cache.update({path: text.splitlines() for path, text in sources.items()})
    for diagnostic in sorted(diagnostics, key=lambda d: (d.pos.file, d.pos.line, d.pos.col)):
        stream.write(diagnostic.headline() + "\n")
        text = _source_line(diagnostic.pos.file, diagnostic.pos.line, cache) if diagnostic.quote else None
        if text is not None:
            text = text.replace("\t", " ")
            if len(text) > 200:
                text = text[:200] + "..."
            stream.write("    " + text + "\n")
            stream.write("    " + " " * max(diagnostic.pos.col - 1, 0) + "^\n")
