"""Block YAML for generated MuranoPL, with the source span each output line was made from.

Every scalar is double-quoted (as the reference dumps generated classes, so no string is taken
for an expression by accident); expressions carry the ``!yaql`` tag. Mappings whose keys are all
strings are written in sorted order, as PyYAML's dump writes them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mplc.packagetypes.base import Span


@dataclass(frozen=True)
class Yaql:
    """A YAQL expression in generated MuranoPL."""

    expr: str


@dataclass(frozen=True)
class Traced:
    """A value whose lines (and its key's line) come from ``origin`` in the source file."""

    value: Any
    origin: Span


def dump(value: Any, origin: Span) -> tuple[str, tuple[Span, ...]]:
    """The YAML text of ``value`` and, per line, its origin (``origin`` unless traced)."""
    lines = _block(value, origin)
    return "".join(text + "\n" for text, _ in lines), tuple(span for _, span in lines)


def _untraced(value: Any, origin: Span) -> tuple[Any, Span]:
    if isinstance(value, Traced):
        return value.value, value.origin
    return value, origin


def _is_block(value: Any) -> bool:
    return isinstance(value, (dict, list)) and bool(value)


def _entries(mapping: dict) -> list:
    items = list(mapping.items())
    if all(isinstance(key, str) for key, _ in items):
        items.sort(key=lambda item: item[0])
    return items


def _block(value: Any, origin: Span) -> list[tuple[str, Span]]:
    value, origin = _untraced(value, origin)
    if not _is_block(value):
        return [(_scalar(value), origin)]
    lines: list[tuple[str, Span]] = []
    if isinstance(value, dict):
        for key, item in _entries(value):
            inner, item_origin = _untraced(item, origin)
            if _is_block(inner):
                lines.append((_scalar(key) + ":", item_origin))
                lines.extend(("  " + text, span) for text, span in _block(inner, item_origin))
            else:
                lines.append((f"{_scalar(key)}: {_scalar(inner)}", item_origin))
        return lines
    for item in value:
        (first, first_span), *rest = _block(item, origin)
        lines.append(("- " + first, first_span))
        lines.extend(("  " + text, span) for text, span in rest)
    return lines


def _scalar(value: Any) -> str:
    if isinstance(value, Yaql):
        return "!yaql " + quote(value.expr)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return quote(str(value))


def quote(text: str) -> str:
    """A YAML double-quoted scalar holding exactly ``text``."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= code < 0x7F or (code >= 0xA0 and not 0xD800 <= code < 0xE000
                                      and char not in "\u2028\u2029\ufeff\ufffe\uffff"):
            out.append(char)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)
