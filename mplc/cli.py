"""The ``mplc`` command line (DESIGN.md, "Stable interfaces").

Exit codes: 0 ok, 1 errors (compile diagnostics, or a MuranoPL error for ``run``), 2 usage.
No Python traceback ever reaches the user: anything unexpected is reported as an internal
error with exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from mplc import __version__
from mplc.commands import UsageError
from mplc.versioning import VersionError, parse_format


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 too; keep its message short and plain
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mplc: error: {message}\n")
        raise SystemExit(2)


def _loose_format(text: str) -> str:
    """``--format``'s value: a package Format, never an output format (that is ``--output``)."""
    if text.strip().lower() in ("json", "sarif", "text"):
        raise argparse.ArgumentTypeError(f"{text!r} is no package Format: --format is the Format of "
                                         f"loose class files (e.g. MuranoPL/1.4); for {text} output "
                                         f"use --output {text.strip().lower()}")
    try:
        parse_format(text)
    except VersionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _codes(text: str) -> frozenset[str]:
    return frozenset(code.strip().upper() for code in text.split(",") if code.strip())


def _add_paths(parser: argparse.ArgumentParser, positional: bool) -> None:
    if positional:
        parser.add_argument("paths", nargs="*", metavar="PATH",
                            help="package directory, .zip, directory of packages, or compiled output")
    parser.add_argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                        help="a package location (repeatable)")
    parser.add_argument("--format", default=None, type=_loose_format, metavar="FORMAT",
                        help="the Format of a directory of loose class files, e.g. MuranoPL/1.4 "
                             "(default MuranoPL/1.0); packages say theirs in manifest.yaml")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also show diagnostics of packages the command does not need")
    parser.add_argument("-q", "--quiet", action="store_true", help="show errors only, no warnings")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mplc", description="Compile and run MuranoPL packages.")
    parser.add_argument("--version", action="version", version=f"mplc {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = commands.add_parser("check", help="static checks; diagnostics on stderr")
    _add_paths(check, positional=True)
    check.add_argument("--select", type=_codes, default=frozenset(), metavar="CODES",
                       help="report only these codes (comma-separated, e.g. E-YAML,W-UI-FIELD-TYPE; "
                            "a prefix such as W-UI- selects all codes it starts)")
    check.add_argument("--ignore", type=_codes, default=frozenset(), metavar="CODES",
                       help="do not report these codes (comma-separated; prefixes as --select)")
    check.add_argument("--output", choices=("text", "json", "sarif"), default="text",
                       help="text (default, on stderr), json or sarif (SARIF 2.1.0, on stdout)")

    compile_ = commands.add_parser("compile", help="compile packages to Python bytecode modules")
    _add_paths(compile_, positional=True)
    compile_.add_argument("-o", "--output", required=True, metavar="OUT",
                          help="the directory compiled packages are written to")
    compile_.add_argument("--emit-source", action="store_true",
                          help="also write readable .py files (never imported)")

    run = commands.add_parser("run", help="load an object model and call a method")
    _add_paths(run, positional=False)
    run.add_argument("--model", required=True, help="JSON object model, Objects document, or class name")
    run.add_argument("--method", default="deploy", help="the method called on the root object "
                                                         "(default deploy)")
    run.add_argument("--args", default=None, metavar="JSON_LIST", help="positional arguments of the call")
    run.add_argument("--kwargs", default=None, metavar="JSON_OBJECT", help="keyword arguments of the call")
    run.add_argument("--trace", action="store_true",
                     help="define a global trace(value): records value under traces, returns null")
    run.add_argument("--cloud", default=None, metavar="JSON_FILE",
                     help="start the simulated cloud with the Heat stacks of a previous run's output "
                          "and the agent answers of its agentResults (README)")
    run.add_argument("--repeat", type=int, default=1, metavar="N",
                     help="call N times and report the median seconds per call")
    run.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                     help="stop the run (loading, the call, the end-of-run destruction) after this "
                          "many seconds with a TimeLimitExceeded error; what was deployed is kept")
    run.add_argument("--cache-dir", default=None, help="where packages compiled on demand are kept")

    schema = commands.add_parser("schema", help="json-schema of a class's forms specification")
    _add_paths(schema, positional=False)
    schema.add_argument("class_name", metavar="CLASS", help="the class's full name")
    schema.add_argument("--method", action="append", default=[], dest="methods",
                        help="a model builder's schema only (repeatable; '' is the class's)")
    schema.add_argument("--class-version", default=None, metavar="SPEC",
                        help="version spec of the class's package (default: the newest)")
    schema.add_argument("--package", default=None, metavar="FQN",
                        help="the package that holds the class")

    test = commands.add_parser("test", help="run a package's MuranoPL unit tests (TestFixture classes)")
    test.add_argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                      help="a package location (repeatable; default: the current directory)")
    test.add_argument("--format", default=None,
                      help="Format of a directory of loose class files (default MuranoPL/1.0)")
    test.add_argument("package", metavar="PACKAGE_FQN", help="the package whose tests run (name[/version])")
    test.add_argument("tests", nargs="*", metavar="TEST",
                      help="Class.method, Class, or method (default: every test of the package)")
    test.add_argument("--json", action="store_true", help="print one JSON document of the results")
    test.add_argument("--junit-xml", default=None, metavar="FILE", help="also write JUnit XML to FILE")
    test.add_argument("-k", dest="keyword", default=None, metavar="PATTERN",
                      help="only tests whose Class.method matches (words, and/or/not, as pytest's -k)")
    test.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                      help="a test running longer is an error")
    test.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                      help="run tests in N processes (0: one per core)")
    test.add_argument("--cache-dir", default=None, help="where packages compiled on demand are kept")

    serve = commands.add_parser("serve", help="serve forms json-schemas and model builders over HTTP")
    _add_paths(serve, positional=True)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    serve.add_argument("--cache-dir", default=None, help="where packages compiled on demand are kept")
    serve.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                       help="time limit of one model builder call; its worker is stopped after it")
    serve.add_argument("--workers", type=int, default=2, metavar="N",
                       help="worker processes running model builders (calls beyond N wait)")
    serve.add_argument("--idle-timeout", type=float, default=5.0, metavar="SECONDS",
                       help="close connections that send no complete request for this long")
    serve.add_argument("--body-timeout", type=float, default=30.0, metavar="SECONDS",
                       help="answer 408 when a request body takes longer than this to arrive")

    model = commands.add_parser("model", help="object model the dashboard sends for answers to "
                                "a package's dynamic UI (UI/ui.yaml)")
    model.add_argument("positionals", nargs="+", metavar="PACKAGE_FQN",
                       help="the package's full name (package locations may come before it)")
    model.add_argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                       help="a package location (repeatable)")
    model.add_argument("--format", default=None,
                       help="Format of a directory of loose class files (default MuranoPL/1.0)")
    model.add_argument("--answers", required=True, metavar="ANSWERS.json",
                       help="{formName: {fieldName: value}, workflowManagement: {application_name}}")
    model.add_argument("--cloud", default=None, metavar="CLOUD.json",
                       help="the flavors, keypairs, images, networks, ... fields choose from")
    model.add_argument("--environment", action="store_true",
                       help="print an io.murano.Environment holding the application (for mplc run)")
    model.add_argument("--seed", type=int, default=None,
                       help="generate ids and host names from this seed (repeatable output)")

    for declaring_its_own in ("fetch", "package", "save"):  # these modules declare their commands
        _command_module(declaring_its_own).add_arguments(commands)
    return parser


# command name -> module under mplc.commands with a ``main(args) -> int``
_COMMANDS = {"check": "check", "compile": "compile", "run": "run", "schema": "schema",
             "serve": "serve", "fetch": "fetch", "bundle": "fetch", "package": "package",
             "save": "save", "model": "model", "test": "test"}


def _command_module(command: str):
    """The module of a command, imported when the command runs (a check never loads the runtime)."""
    return importlib.import_module(f"mplc.commands.{_COMMANDS[command]}")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    args.all_paths = list(getattr(args, "paths", []) or []) + list(getattr(args, "path_options", []))
    try:
        return _command_module(args.command).main(args)
    except UsageError as error:
        sys.stderr.write(f"mplc {args.command}: error: {error}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``mplc run ... | head``): nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:  # the file system refused: an unwritable -o or --cache-dir, a full disk
        where = f"{error.filename}: " if error.filename else ""
        sys.stderr.write(f"mplc {args.command}: error: {where}{error.strerror or error}\n")
        return 2
    except Exception as error:  # the user gets one line, never a traceback
        sys.stderr.write(f"mplc {args.command}: internal error: {type(error).__name__}: {error}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
