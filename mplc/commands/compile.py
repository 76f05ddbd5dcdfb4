"""``mplc compile PATH... -o OUT [--emit-source] [-j N]``: front end and checks, diagnostics,
codegen over N processes (default: one per core), output; a progress bar on a terminal."""

from __future__ import annotations

import os
import sys
import time

from mplc.build import compile_packages
from mplc.commands import UsageError
from mplc.commands.shared import check_loose_format
from mplc.diagnostics import CompileError, DiagnosticSink, render
from mplc.parallel import available_cores


class ProgressBar:
    """``compiling [#######.......] 150/301 modules`` on one line of a terminal, redrawn in
    place at most ten times a second and erased at the end (the diagnostics follow)."""

    WIDTH = 30
    INTERVAL = 0.1

    def __init__(self, stream):
        self.stream = stream
        self.drawn_at: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.drawn_at is not None and now - self.drawn_at < self.INTERVAL and done < total:
            return
        self.drawn_at = now
        filled = self.WIDTH * done // max(total, 1)
        self.stream.write(f"\rcompiling [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} modules")
        self.stream.flush()

    def close(self) -> None:
        if self.drawn_at is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no package path given")
    check_loose_format(args)
    if args.jobs < 0:
        raise UsageError("-j must be 0 (one process per core) or more")
    for path in args.all_paths:
        if os.path.isdir(path) and os.path.realpath(path) == os.path.realpath(args.output):
            raise UsageError(f"-o {args.output} is the package path {path}: compiled packages "
                             f"would be mixed into their sources (choose another directory)")
    sink = DiagnosticSink()
    progress = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        compile_packages(args.all_paths, args.output, emit_source=args.emit_source,
                         default_format=args.format, sink=sink, jobs=args.jobs or available_cores(),
                         progress=progress)
    except CompileError:
        return 1
    finally:
        if progress is not None:
            progress.close()
        render(sink.diagnostics, sys.stderr)
    return 0
