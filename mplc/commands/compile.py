"""``mplc compile PATH... -o OUT [--emit-source]``: front end, diagnostics, codegen, output."""

from __future__ import annotations

import sys

from mplc.cli import UsageError
from mplc.codegen import write_package
from mplc.diagnostics import DiagnosticSink, render
from mplc.frontend import load_packages


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no package path given")
    sink = DiagnosticSink()
    packages = load_packages(args.all_paths, sink, default_format=args.format)
    render(sink.diagnostics, sys.stderr)
    if sink.has_errors:
        return 1
    for package in packages:
        write_package(package, args.output, emit_source=args.emit_source)
    return 0
