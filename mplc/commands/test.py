"""``mplc test``: run a package's MuranoPL unit tests as murano-test-runner does (mplc.testrunner).

Human output like pytest's: on a terminal a line per test with its outcome, otherwise a
progress line per class (``.`` pass, ``F`` fail, ``E`` error); then each failure and error with
its MuranoPL stack trace, and the summary line ``N passed, N failed, N errors in S s``.
``--json`` prints one document instead, ``{"tests": [...], "summary": {...}}``; ``--junit-xml
FILE`` also writes JUnit XML. Exit 0 when every test passed, 1 on any failure or error (or no
test to run), 2 on usage or compile errors.
"""

from __future__ import annotations

import json
import os
import sys
import time
import xml.etree.ElementTree as ElementTree

from mplc.commands import UsageError
from mplc.diagnostics import CompileError, render
from mplc.runtime.errors import MuranoError
from mplc.testrunner import SelectionError, TestSession, summary, summary_line

_LABELS = {"pass": "PASSED", "fail": "FAILED", "error": "ERROR"}
_PROGRESS = {"pass": ".", "fail": "F", "error": "E"}
_COLOURS = {"pass": "\033[32m", "fail": "\033[31m", "error": "\033[31m"}
_RESET = "\033[0m"


def main(args) -> int:
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    if args.jobs < 0:
        raise UsageError("-j must be 0 (one per core) or more")
    jobs = args.jobs or os.cpu_count() or 1
    paths = args.all_paths or ["."]
    started = time.perf_counter()
    try:
        session = TestSession(paths, args.package, cache_dir=args.cache_dir, default_format=args.format)
        cases = session.select(args.tests, args.keyword)
    except CompileError as error:
        render(error.diagnostics, sys.stderr)
        return 2
    except SelectionError as error:
        raise UsageError(str(error)) from None
    except MuranoError as error:  # no such package, or its classes do not load
        raise UsageError(f"{args.package}: {error}") from None
    terminal = not args.json and sys.stdout.isatty()
    reporter = _Progress(sys.stdout, terminal) if not args.json else None
    results = session.run_all(cases, timeout=args.timeout, jobs=jobs,
                              report=reporter.add if reporter else None)
    counts = summary(results, time.perf_counter() - started)
    if args.junit_xml:
        write_junit_xml(args.junit_xml, session.package.name, results, counts)
    if args.json:
        document = {"tests": [result.as_json() for result in results], "summary": counts}
        sys.stdout.write(json.dumps(document, indent=1) + "\n")
    else:
        reporter.finish(results, counts)
    return 0 if results and counts["passed"] == counts["total"] else 1


class _Progress:
    """pytest-like lines: per test on a terminal, per class otherwise."""

    def __init__(self, stream, terminal: bool):
        self.stream = stream
        self.terminal = terminal
        self.current_class = None

    def add(self, result) -> None:
        if self.terminal:
            label = f"{_COLOURS[result.outcome]}{_LABELS[result.outcome]}{_RESET}"
            self.stream.write(f"{result.name} {label}\n")
        else:
            if result.class_name != self.current_class:
                if self.current_class is not None:
                    self.stream.write("\n")
                self.current_class = result.class_name
                self.stream.write(f"{result.class_name} ")
            self.stream.write(_PROGRESS[result.outcome])
        self.stream.flush()

    def finish(self, results, counts) -> None:
        if not self.terminal and self.current_class is not None:
            self.stream.write("\n")
        if not results:
            self.stream.write("no tests ran\n")
        problems = [r for r in results if r.outcome != "pass"]
        if problems:
            self.stream.write(_banner("FAILURES"))
            for result in problems:
                self.stream.write(_banner(result.name, "_"))
                self.stream.write((result.traceback or f"{result.error_type}: {result.message}") + "\n")
            self.stream.write(_banner("short test summary info"))
            for result in problems:
                self.stream.write(f"{_LABELS[result.outcome]} {result.name} - "
                                  f"{result.error_type}: {_first_line(result.message)}\n")
        self.stream.write(summary_line(counts) + "\n")


def _banner(title: str, fill: str = "=") -> str:
    return f" {title} ".center(78, fill) + "\n"


def _first_line(text) -> str:
    return (text or "").splitlines()[0] if text else ""


def write_junit_xml(path: str, package_name: str, results, counts) -> None:
    """JUnit XML (one testsuite named after the package) for CI systems."""
    suite = ElementTree.Element("testsuite", {
        "name": package_name, "tests": str(counts["total"]), "failures": str(counts["failed"]),
        "errors": str(counts["errors"]), "skipped": "0", "time": f"{counts['seconds']:.3f}"})
    for result in results:
        case = ElementTree.SubElement(suite, "testcase", {
            "classname": result.class_name, "name": result.method, "time": f"{result.seconds:.3f}"})
        if result.outcome != "pass":
            problem = ElementTree.SubElement(case, "failure" if result.outcome == "fail" else "error", {
                "type": result.error_type or "", "message": result.message or ""})
            problem.text = result.traceback or f"{result.error_type}: {result.message}"
    document = ElementTree.ElementTree(ElementTree.Element("testsuites"))
    document.getroot().append(suite)
    ElementTree.indent(document)
    document.write(path, encoding="utf-8", xml_declaration=True)
