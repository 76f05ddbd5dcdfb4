"""Key checks for YAML mappings, with "did you mean" suggestions."""

from __future__ import annotations

import difflib

from mplc.diagnostics import DiagnosticSink
from mplc.frontend.yaml_source import Mapping, Scalar


def suggestion(word: object, allowed) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(allowed), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def described(node) -> str:
    value = node.value if isinstance(node, Scalar) else None
    return repr(value) if not isinstance(value, str) else f"'{value}'"


def mapping_entries(mapping: Mapping, allowed: frozenset[str], where: str,
                    sink: DiagnosticSink, strict: bool = True) -> dict:
    """The entries whose key is allowed, by key text; the rest get a diagnostic.

    A key that looks like a misspelling of an allowed key is an error when ``strict`` (the
    reference would silently ignore it and lose what it meant); any other unknown key is a
    warning, as the reference ignores it too. Duplicate keys keep the last value, as YAML does.
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
        hint = suggestion(text, allowed)
        if strict and hint:
            sink.error("E-UNKNOWN-KEY", f"unknown key {described(key)} in {where}{hint}", key.pos)
        else:
            sink.warning("W-UNKNOWN-KEY", f"unknown key {described(key)} in {where} is ignored"
                         f"{hint}", key.pos)
    return entries
