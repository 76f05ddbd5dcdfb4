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
from dataclasses import dataclass
from typing import Callable

from mplc import __version__
from mplc.commands import UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 too; keep its message short and plain
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mplc: error: {message}\n")
        raise SystemExit(2)


def _add_paths(parser: argparse.ArgumentParser, positional: bool) -> None:
    if positional:
        parser.add_argument("paths", nargs="*", metavar="PATH",
                            help="package directory, .zip, directory of packages, or compiled output")
    parser.add_argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                        help="a package location (repeatable)")
    parser.add_argument("--format", default=None,
                        help="Format of a directory of loose class files (default MuranoPL/1.0)")


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    _add_paths(parser, positional=True)


def _compile_arguments(parser: argparse.ArgumentParser) -> None:
    _add_paths(parser, positional=True)
    parser.add_argument("-o", "--output", required=True, metavar="OUT")
    parser.add_argument("--emit-source", action="store_true",
                        help="also write readable .py files (never imported)")


def _run_arguments(parser: argparse.ArgumentParser) -> None:
    _add_paths(parser, positional=False)
    parser.add_argument("--model", required=True, help="JSON object model, Objects document, or class name")
    parser.add_argument("--method", default="deploy")
    parser.add_argument("--args", default=None, metavar="JSON_LIST")
    parser.add_argument("--kwargs", default=None, metavar="JSON_OBJECT")
    parser.add_argument("--trace", action="store_true",
                        help="define a global trace(value): records value under traces, returns null")
    parser.add_argument("--cloud", default=None, metavar="JSON_FILE",
                        help="start the simulated cloud with the Heat stacks of a previous run's output "
                             "and the agent answers of its agentResults (README)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N")
    parser.add_argument("--cache-dir", default=None, help="where packages compiled on demand are kept")


def _schema_arguments(parser: argparse.ArgumentParser) -> None:
    _add_paths(parser, positional=False)
    parser.add_argument("class_name", metavar="CLASS")
    parser.add_argument("--method", action="append", default=[], dest="methods")
    parser.add_argument("--class-version", default=None, metavar="SPEC")
    parser.add_argument("--package", default=None, metavar="FQN")


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    _add_paths(parser, positional=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    parser.add_argument("--cache-dir", default=None, help="where packages compiled on demand are kept")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                        help="time limit of one model builder call; its worker is stopped after it")
    parser.add_argument("--workers", type=int, default=2, metavar="N",
                        help="worker processes running model builders (calls beyond N wait)")
    parser.add_argument("--idle-timeout", type=float, default=5.0, metavar="SECONDS",
                        help="close connections that send no complete request for this long")
    parser.add_argument("--body-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="answer 408 when a request body takes longer than this to arrive")


def _model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("positionals", nargs="+", metavar="PACKAGE_FQN",
                        help="the package's full name (package locations may come before it)")
    parser.add_argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                        help="a package location (repeatable)")
    parser.add_argument("--format", default=None,
                        help="Format of a directory of loose class files (default MuranoPL/1.0)")
    parser.add_argument("--answers", required=True, metavar="ANSWERS.json",
                        help="{formName: {fieldName: value}, workflowManagement: {application_name}}")
    parser.add_argument("--cloud", default=None, metavar="CLOUD.json",
                        help="the flavors, keypairs, images, networks, ... fields choose from")
    parser.add_argument("--environment", action="store_true",
                        help="print an io.murano.Environment holding the application (for mplc run)")
    parser.add_argument("--seed", type=int, default=None,
                        help="generate ids and host names from this seed (repeatable output)")


def _repository_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", default=os.environ.get("MURANO_REPO_URL"),
                        required="MURANO_REPO_URL" not in os.environ, metavar="URL",
                        help="repository URL (default: $MURANO_REPO_URL)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS")


def _fetch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the package's FullName")
    parser.add_argument("--version", default=None, metavar="SPEC",
                        help="version spec (default: the newest version)")
    _repository_arguments(parser)


def _bundle_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the bundle's name (bundles/NAME.bundle)")
    _repository_arguments(parser)


@dataclass(frozen=True)
class Command:
    """One ``mplc`` command: the module under ``mplc.commands`` whose ``main(args) -> int``
    runs it, loaded only when the command runs (``mplc --help`` imports none of them), its
    one-line help, and the function that declares its arguments."""
    module: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]


COMMANDS: dict[str, Command] = {
    "check": Command("check", "static checks; diagnostics on stderr", _check_arguments),
    "compile": Command("compile", "compile packages to Python bytecode modules", _compile_arguments),
    "run": Command("run", "load an object model and call a method", _run_arguments),
    "schema": Command("schema", "json-schema of a class's forms specification", _schema_arguments),
    "serve": Command("serve", "serve forms json-schemas and model builders over HTTP", _serve_arguments),
    "model": Command("model", "object model the dashboard sends for answers to a package's dynamic UI "
                     "(UI/ui.yaml)", _model_arguments),
    "fetch": Command("fetch", "import a package and its requirements from a repository", _fetch_arguments),
    "bundle": Command("fetch", "import a bundle of packages from a repository", _bundle_arguments),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mplc", description="Compile and run MuranoPL packages.")
    parser.add_argument("--version", action="version", version=f"mplc {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, command in COMMANDS.items():
        command.arguments(subparsers.add_parser(name, help=command.help))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    args.all_paths = list(getattr(args, "paths", []) or []) + list(getattr(args, "path_options", []))
    try:
        module = importlib.import_module(f"mplc.commands.{COMMANDS[args.command].module}")
        return module.main(args)
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
