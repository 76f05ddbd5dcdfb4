"""``mplc schema``: print the forms json-schema of a class, ``{"": ..., "<builder>": ...}``.

Exit 0 ok; 1 when the packages have errors or the class or a method is not found; 2 for usage
(no --path, a bad --class-version).
"""

from __future__ import annotations

import json
import sys

from mplc.build import PackageSet, lazy_forms, load_source_packages
from mplc.commands import UsageError
from mplc.commands.shared import check_loose_format, shown_diagnostics
from mplc.contracts.forms import FormsGenerator, SchemaError
from mplc.diagnostics import CompileError, DiagnosticSink, render


def load_forms(paths: list[str], default_format: str | None, sink: DiagnosticSink) -> FormsGenerator:
    """The schema generator over the source packages at ``paths`` (plus the bundled core
    library when no io.murano is given); errors and warnings go to ``sink``."""
    return FormsGenerator(load_source_packages(paths, sink, default_format), sink)


def load_needed_forms(paths: list[str], default_format: str | None,
                      sink: DiagnosticSink) -> tuple[FormsGenerator, PackageSet]:
    """The schema generator over the packages at ``paths`` that have no errors, and the set
    that says which packages a class needs (``PackageSet.require``); diagnostics go to ``sink``."""
    return lazy_forms(load_source_packages(paths, sink, default_format), sink)


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no --path given")
    check_loose_format(args)
    sink = DiagnosticSink()
    try:
        forms, package_set = load_needed_forms(args.all_paths, args.format, sink)
    except CompileError as error:
        render(error.diagnostics, sys.stderr)
        return 1
    needed = ([args.class_name], [args.package] if args.package else [])
    errors = package_set.errors_for(*needed)
    if errors:
        render(shown_diagnostics(args, package_set.diagnostics_for(*needed), sink.diagnostics),
               sys.stderr)
        return 1
    sink.diagnostics = shown_diagnostics(args, package_set.diagnostics_for(*needed), sink.diagnostics)
    try:
        result = forms.generate(args.class_name, args.methods, args.class_version, args.package)
    except SchemaError as error:
        if not error.not_found:
            raise UsageError(str(error)) from None
        if error.pos is None:
            sys.stderr.write(f"mplc schema: error: {error}\n")
        else:
            sink.error(error.type, str(error), error.pos)
        return 1
    finally:
        render(sink.diagnostics, sys.stderr)
    json.dump(result, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
