"""Class name resolution against a class's ``Namespaces`` (the reference's rules).

``ns:Name`` uses prefix ``ns``; ``:Name`` and a bare ``Name`` use the default namespace ``=``;
a dotted name without a colon is already full.
"""

from __future__ import annotations

import re

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.keys import described
from mplc.frontend.yaml_source import Scalar
from mplc.versioning import TYPE_NAME

NAMESPACE = re.compile(r"^([a-zA-Z_]\w*(\.[a-zA-Z_]\w*)*)?$")
PREFIX = re.compile(r"^([a-zA-Z_]\w*|=)$")


class Namespaces:
    def __init__(self, mapping: dict[str, str], sink: DiagnosticSink):
        self.mapping = dict(mapping)
        self.mapping.setdefault("=", "")
        self.mapping[""] = ""
        self.sink = sink

    def pairs(self) -> tuple[tuple[str, str], ...]:
        return tuple((prefix, namespace) for prefix, namespace in self.mapping.items() if prefix)

    def resolve(self, written: str, pos: ir.Pos) -> str:
        """The full class name of a name the reference resolves when it loads the class
        (Extends, Import, Meta, Name); a diagnostic, and ``written`` back, when it cannot."""
        return self._resolve(written, pos, self.sink.error, "E-")

    def resolve_when_run(self, written: str, pos: ir.Pos) -> str:
        """The same for a name the reference resolves only when the code naming it runs
        (``ns:Name`` in expressions, Throw, Catch With): a bad name is a warning, and the
        runtime, resolving ``written`` again, raises the reference's error."""
        return self._resolve(written, pos, self.sink.warning, "W-")

    def _resolve(self, written: str, pos: ir.Pos, report, severity: str) -> str:
        if not TYPE_NAME.match(written):
            report(severity + "TYPE-NAME", f"'{written}' is not a valid class name", pos)
            return written
        if ":" not in written:
            prefix, name = ("", written) if "." in written else ("=", written)
        else:
            prefix, name = written.split(":", 1)
            prefix = prefix or "="
        namespace = self.mapping.get(prefix)
        if namespace is None:
            known = ", ".join(sorted(p for p in self.mapping if p and p != "=")) or "none"
            report(severity + "UNKNOWN-NAMESPACE", f"unknown namespace prefix '{prefix}' in "
                   f"'{written}' (declared prefixes: {known})", pos)
            return written
        return f"{namespace}.{name}" if namespace else name


def check_declarations(entries, sink: DiagnosticSink) -> dict[str, str]:
    """Validate ``Namespaces`` entries given as (prefix node, namespace node, pos); returns the
    mapping."""
    mapping: dict[str, str] = {}
    for prefix_node, namespace_node, pos in entries:
        prefix = prefix_node.value if isinstance(prefix_node, Scalar) else None
        namespace = namespace_node.value if isinstance(namespace_node, Scalar) else namespace_node
        namespace = "" if namespace is None else namespace
        if not isinstance(prefix, str) or not PREFIX.match(prefix):
            sink.error("E-NAMESPACE", f"invalid namespace prefix {described(prefix_node)}", pos)
            continue
        if not isinstance(namespace, str) or not NAMESPACE.match(namespace):
            sink.error("E-NAMESPACE", f"invalid namespace {described(namespace_node)}", pos)
            continue
        mapping[prefix] = namespace
    return mapping
