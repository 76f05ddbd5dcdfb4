"""Key checks for YAML mappings, with "did you mean" suggestions."""

from __future__ import annotations

import datetime
import difflib

from mplc.diagnostics import DiagnosticSink
from mplc.frontend.yaml_source import Mapping, Scalar, Sequence


def suggestion(word: object, allowed) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(allowed), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def described(node) -> str:
    """A YAML node as a message quotes it: a scalar's value, or what kind of collection it is."""
    if isinstance(node, Mapping):
        return "a mapping"
    if isinstance(node, Sequence):
        return "a list"
    value = node.value if isinstance(node, Scalar) else None
    return f"'{value}'" if isinstance(value, str) else _as_written(value)


def _as_written(value) -> str:
    """A scalar that is no string in YAML's words (a key ``2001-01-01:`` is a date, ``~`` is
    null), not Python's."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and value != value:
        return ".nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    if isinstance(value, bytes):
        return "a binary value"
    return str(value)


def mapping_entries(mapping: Mapping, allowed: frozenset[str], where: str,
                    sink: DiagnosticSink) -> dict:
    """The entries whose key is allowed, by key text; the rest get a warning.

    The reference ignores unknown keys here, so they are warnings, with a "did you mean" when
    one looks like a misspelled allowed key. Duplicate keys keep the last value, as YAML does.
    """
    entries: dict = {}
    for key, value in mapping.items:
        text = key.value if isinstance(key, Scalar) else None
        if isinstance(text, str) and text in allowed:
            if text in entries:
                sink.warning("W-DUPLICATE-KEY", f"duplicate key '{text}' in {where}; the last "
                             "one wins", key.pos)
            entries[text] = (key, value)
            continue
        sink.warning("W-UNKNOWN-KEY", f"unknown key {described(key)} in {where} is ignored"
                     f"{suggestion(text, allowed)}", key.pos)
    return entries
