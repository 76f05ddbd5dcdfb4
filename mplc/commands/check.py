"""``mplc check PATH...``: load packages, run the static and packaging checks, report.

``--select`` / ``--ignore`` filter by code (a code ending in ``-`` is a prefix: ``W-UI-``);
``--output json`` and ``--output sarif`` (SARIF 2.1.0, for code-scanning UIs) print one
document on stdout instead of the text on stderr. The exit code counts the errors reported.
"""

from __future__ import annotations

import json
import os
import sys

from mplc import __version__
from mplc.build import load_checked
from mplc.commands import UsageError
from mplc.commands.shared import check_loose_format
from mplc.diagnostics import Diagnostic, DiagnosticSink, render

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _matches(code: str, patterns: frozenset[str]) -> bool:
    return any(code == pattern or pattern.endswith("-") and code.startswith(pattern)
               for pattern in patterns)


def selected(diagnostics: list[Diagnostic], select: frozenset[str],
             ignore: frozenset[str]) -> list[Diagnostic]:
    return [diagnostic for diagnostic in diagnostics
            if (not select or _matches(diagnostic.code, select)) and not _matches(diagnostic.code, ignore)]


def _ordered(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=lambda d: (d.pos.file, d.pos.line, d.pos.col, d.code))


def json_document(diagnostics: list[Diagnostic]) -> dict:
    errors = sum(1 for diagnostic in diagnostics if diagnostic.severity == "error")
    return {"diagnostics": [{"file": d.pos.file, "line": d.pos.line, "column": d.pos.col,
                             "end_line": d.pos.end_line, "end_column": d.pos.end_col,
                             "severity": d.severity, "code": d.code, "message": d.message}
                            for d in _ordered(diagnostics)],
            "summary": {"errors": errors, "warnings": len(diagnostics) - errors}}


def sarif_document(diagnostics: list[Diagnostic]) -> dict:
    """SARIF 2.1.0: one run of the tool ``mplc``, a rule per code, a result per diagnostic
    with its file (relative to the working directory when inside it) and region."""
    codes = sorted({diagnostic.code for diagnostic in diagnostics})
    rules = [{"id": code, "defaultConfiguration": {"level": "error" if code.startswith("E-") else "warning"}}
             for code in codes]
    results = []
    for diagnostic in _ordered(diagnostics):
        pos = diagnostic.pos
        relative = os.path.relpath(pos.file)
        uri = pos.file if relative.startswith("..") else relative
        results.append({
            "ruleId": diagnostic.code, "ruleIndex": codes.index(diagnostic.code),
            "level": diagnostic.severity, "message": {"text": diagnostic.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri.replace(os.sep, "/")},
                "region": {"startLine": pos.line, "startColumn": pos.col,
                           "endLine": max(pos.end_line, pos.line),
                           "endColumn": max(pos.end_col, pos.col + 1) if pos.end_line <= pos.line
                           else pos.end_col}}}]})
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "mplc", "version": __version__,
                                          "rules": rules}},
                      "results": results}]}


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no PATH given")
    check_loose_format(args)
    sink = DiagnosticSink()
    sources: dict[str, str] = {}
    load_checked(args.all_paths, sink, default_format=args.format, sources=sources, lint=True)
    diagnostics = selected(sink.diagnostics, args.select, args.ignore)
    if args.quiet:
        diagnostics = [diagnostic for diagnostic in diagnostics if diagnostic.severity == "error"]
    errors = sum(1 for diagnostic in diagnostics if diagnostic.severity == "error")
    if args.output == "json":
        json.dump(json_document(diagnostics), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.output == "sarif":
        json.dump(sarif_document(diagnostics), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        render(diagnostics, sys.stderr, sources)
        if diagnostics:
            sys.stderr.write(f"{errors} error(s), {len(diagnostics) - errors} warning(s)\n")
    return 1 if errors else 0
