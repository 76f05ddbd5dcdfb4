"""``mplc compile PATH... -o OUT [--emit-source]``: front end and checks, diagnostics, codegen, output."""

from __future__ import annotations

import os
import sys

from mplc.build import compile_packages
from mplc.commands import UsageError
from mplc.commands.shared import check_loose_format
from mplc.diagnostics import CompileError, DiagnosticSink, render


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no package path given")
    check_loose_format(args)
    for path in args.all_paths:
        if os.path.isdir(path) and os.path.realpath(path) == os.path.realpath(args.output):
            raise UsageError(f"-o {args.output} is the package path {path}: compiled packages "
                             f"would be mixed into their sources (choose another directory)")
    sink = DiagnosticSink()
    try:
        compile_packages(args.all_paths, args.output, emit_source=args.emit_source,
                         default_format=args.format, sink=sink)
    except CompileError:
        return 1
    finally:
        render(sink.diagnostics, sys.stderr)
    return 0
