"""``mplc model``: the object model the dashboard would send for answers to a package's dynamic UI.

``mplc model --path PATH... PACKAGE_FQN --answers ANSWERS.json [--cloud CLOUD.json]
[--environment] [--seed N]``: exit 0 and the model on stdout; exit 1 with
``{"error": {"type": "ValidationError", "form", "fields"}}`` on stdout when answers fail a form's
validation (or ``{"error": {"type", "message"}}`` when evaluating the definition fails, as the
dashboard would); exit 1 with diagnostics on stderr when the UI definition is invalid; exit 2
for usage (unknown form or field names in the answers, unreadable files).
"""

from __future__ import annotations

import json
import os
import sys

from mplc.commands import UsageError
from mplc.diagnostics import DiagnosticSink, render
from mplc.forms import (AnswersError, Cloud, CloudError, DashboardFailure, KeyManagerError,
                        ValidationFailed, package_session)
from mplc.forms.environment import environment_document
from mplc.frontend import load_packages
from yaql.language import exceptions as yaql_exceptions


def _read_json(path: str, what: str):
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise UsageError(f"{what} {path}: {error.strerror or error}") from None
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path}: not UTF-8") from None
    except json.JSONDecodeError as error:
        raise UsageError(f"{what} {path}:{error.lineno}:{error.colno}: not valid JSON: "
                         f"{error.msg}") from None
    except (ValueError, RecursionError) as error:
        raise UsageError(f"{what} {path}: not valid JSON: {error}") from None


def _print(document) -> None:
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False, default=_jsonable) + "\n")


def _jsonable(value):
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def main(args) -> int:
    positional = list(args.positionals)
    package_fqn = positional[-1]
    paths = positional[:-1] + list(args.path_options)
    if not paths:
        raise UsageError("no --path given")
    answers = _read_json(args.answers, "--answers")
    try:
        cloud = Cloud.from_file(args.cloud) if args.cloud else Cloud.default()
    except CloudError as error:
        raise UsageError(f"--cloud {error}") from None
    except OSError as error:
        raise UsageError(f"--cloud {args.cloud}: {error.strerror or error}") from None
    sink = DiagnosticSink()
    sources: dict[str, str] = {}
    packages = load_packages(paths, sink, default_format=args.format, sources=sources)
    package = next((package for package in packages
                    if package.manifest.full_name == package_fqn), None)
    if package is None:
        render([d for d in sink.diagnostics if d.severity == "error"], sys.stderr, sources)
        sys.stderr.write(f"mplc model: error: no package {package_fqn!r} among "
                         f"{', '.join(p.manifest.full_name for p in packages) or 'none'}\n")
        return 1
    ui_folder = os.path.join(package.root, "UI") + os.sep
    ui_diagnostics = [d for d in sink.diagnostics if d.pos.file.startswith(ui_folder)]
    render(ui_diagnostics, sys.stderr, sources)
    if package.ui_definition is None:
        if not ui_diagnostics:
            sys.stderr.write(f"mplc model: error: package {package_fqn!r} has no UI definition "
                             "(UI/ui.yaml or the manifest's UI)\n")
        return 1
    try:
        session = package_session(packages, package_fqn, cloud, seed=args.seed)
        model = session.model(answers)
    except AnswersError as error:
        raise UsageError(f"--answers {args.answers}: {error}") from None
    except ValidationFailed as failure:
        _print(failure.document())
        return 1
    except (DashboardFailure, KeyManagerError, yaql_exceptions.YaqlException, TypeError,
            KeyError, ValueError, AttributeError, IndexError, RecursionError) as error:
        _print({"error": {"type": type(error).__name__, "message": str(error)}})
        return 1
    if args.environment:
        model = environment_document(model, cloud, session.randomness)
    _print(model)
    return 0

