"""Packages compiled by several processes (``mplc compile -j``).

The modules of every package are spread over forked workers, each compiling whole modules
into its package's staging directory; this process then adds the build records and installs
the packages. A module's bytes do not depend on which process compiled it or what it compiled
before (``codegen.output.compile_module``), so the output is the same for any number of jobs.
"""

from __future__ import annotations

import concurrent.futures
import gc
import math
import multiprocessing
import os
import signal
from typing import Callable

from mplc import ir
from mplc.codegen import (PackageBuild, abandon_build, finish_build, package_directory, start_build,
                          write_modules)

MIN_PARALLEL_MODULES = 16
"""Fewer modules are compiled in this process: starting workers costs more than they save."""

_CHUNKS_PER_JOB = 4
"""Work is handed out in about this many pieces per worker, so that one large class does not
leave the other workers idle at the end."""

_builds: list[PackageBuild] = []
"""In a worker: the builds of the compile that forked it (inherited, never pickled)."""


def available_cores() -> int:
    """The cores this process may run on (fewer than the machine's in a container or under taskset)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def write_packages(packages: list[ir.Package], output: str, *, jobs: int = 1, emit_source: bool = False,
                   fast_paths: bool = True, force: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> list[str]:
    """``codegen.write_package`` for each package, the modules compiled by ``jobs`` processes;
    the packages' directories in order. ``progress(done, total)`` counts the modules written."""
    builds = [start_build(package, output, emit_source, fast_paths, force) for package in packages]
    pending = [build for build in builds if build is not None]
    parallel = (jobs > 1 and "fork" in multiprocessing.get_all_start_methods()
                and sum(build.module_count for build in pending) >= MIN_PARALLEL_MODULES)
    pieces = _pieces(pending, jobs if parallel else 0)
    report = progress or (lambda done, total: None)
    total = sum(len(modules) for _, modules in pieces)
    try:
        if parallel:
            _write_in_workers(pending, pieces, jobs, report, total)
        else:
            done = 0
            for build_index, modules in pieces:
                write_modules(pending[build_index], modules)
                done += len(modules)
                report(done, total)
        for build in pending:
            finish_build(build, force)
    except BaseException:
        for build in pending:
            abandon_build(build)
        raise
    return [package_directory(package, output) for package in packages]


def _pieces(builds: list[PackageBuild], jobs: int) -> list[tuple[int, range]]:
    """(build index, module indices) of each piece of work: one module each when this process
    does them all (the progress shows each), else about ``_CHUNKS_PER_JOB`` pieces per job."""
    total = sum(build.module_count for build in builds)
    size = max(1, math.ceil(total / (jobs * _CHUNKS_PER_JOB))) if jobs else 1
    return [(index, range(start, min(start + size, build.module_count)))
            for index, build in enumerate(builds) for start in range(0, build.module_count, size)]


def _write_in_workers(builds: list[PackageBuild], pieces: list[tuple[int, range]], jobs: int,
                      report: Callable[[int, int], None], total: int) -> None:
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(jobs, len(pieces)), mp_context=multiprocessing.get_context("fork"),
        initializer=_receive, initargs=(builds,))
    gc.freeze()  # the workers (forked at the first submit) share this process's objects:
    try:         # a collection in one would touch, and so copy, every one of them
        with pool:
            futures = [pool.submit(_write_piece, build_index, modules) for build_index, modules in pieces]
            try:
                done = 0
                for future in concurrent.futures.as_completed(futures):
                    done += future.result()
                    report(done, total)
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        gc.unfreeze()


def _receive(builds: list[PackageBuild]) -> None:
    """A worker's start: it keeps the builds, and leaves Ctrl-C to the parent, which stops the
    pool and removes the unfinished builds (a worker would print a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _builds[:] = builds


def _write_piece(build_index: int, modules: range) -> int:
    write_modules(_builds[build_index], modules)
    return len(modules)
