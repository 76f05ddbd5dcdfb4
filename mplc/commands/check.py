"""``mplc check PATH...``: load packages, run the static checks, print every diagnostic."""

from __future__ import annotations

import sys

from mplc.build import load_checked
from mplc.commands import UsageError
from mplc.diagnostics import DiagnosticSink, render


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no PATH given")
    sink = DiagnosticSink()
    sources: dict[str, str] = {}
    load_checked(args.all_paths, sink, default_format=args.format, sources=sources)
    render(sink.diagnostics, sys.stderr, sources)
    errors = sum(1 for diagnostic in sink.diagnostics if diagnostic.severity == "error")
    warnings = len(sink.diagnostics) - errors
    if sink.diagnostics:
        sys.stderr.write(f"{errors} error(s), {warnings} warning(s)\n")
    return 1 if errors else 0
