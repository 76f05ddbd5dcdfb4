"""The ``mplc`` command line (DESIGN.md, "Stable interfaces").

Exit codes: 0 ok, 1 errors (compile diagnostics, or a MuranoPL error for ``run``), 2 usage.
No Python traceback ever reaches the user: anything unexpected is reported as an internal
error with exit 2.

Every command's arguments are declared here, in ``COMMANDS``; the command's module (under
``mplc.commands``, with a ``main(args) -> int``) is imported only when that command runs, so
``mplc --help`` loads neither the front end nor the runtime, and ``mplc check`` no runtime.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from mplc import __version__
from mplc.commands import UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 too; keep its message short and plain
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mplc: error: {message}\n")
        raise SystemExit(2)


def _loose_format(text: str) -> str:
    """``--format``'s value: a package Format, never an output format (that is ``--output``).
    The commands parse it (``mplc.commands.shared``): the version parser is no part of ``--help``."""
    if text.strip().lower() in ("json", "sarif", "text"):
        raise argparse.ArgumentTypeError(f"{text!r} is no package Format: --format is the Format of "
                                         f"loose class files (e.g. MuranoPL/1.4); for {text} output "
                                         f"use --output {text.strip().lower()}")
    return text


def _codes(text: str) -> frozenset[str]:
    return frozenset(code.strip().upper() for code in text.split(",") if code.strip())


def _argument(*flags: str, **options) -> tuple[tuple[str, ...], dict]:
    """One ``add_argument`` call. ``env=NAME`` makes $NAME the default, read when the parser
    is built; with ``required_without_env=True`` the argument is required when $NAME is unset."""
    return flags, options


def _command(module: str, help: str, *arguments: tuple[tuple[str, ...], dict]) -> tuple:
    return module, help, arguments


_PATHS = _argument("paths", nargs="*", metavar="PATH",
                   help="package directory, .zip, directory of packages, or compiled output")
_PATH_OPTIONS = (
    _argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
              help="a package location (repeatable)"),
    _argument("--format", default=None, type=_loose_format, metavar="FORMAT",
              help="the Format of a directory of loose class files, e.g. MuranoPL/1.4 "
                   "(default MuranoPL/1.0); packages say theirs in manifest.yaml"),
    _argument("-v", "--verbose", action="store_true",
              help="also show diagnostics of packages the command does not need"),
    _argument("-q", "--quiet", action="store_true", help="show errors only, no warnings"),
)
_CACHE_DIR = _argument("--cache-dir", default=None, help="where packages compiled on demand are kept")
_REPOSITORY_OPTIONS = (
    _argument("--repo", env="MURANO_REPO_URL", required_without_env=True, metavar="URL",
              help="repository URL (default: $MURANO_REPO_URL)"),
    _argument("-o", "--output", required=True, metavar="DIR",
              help="where packages are unpacked (DIR/FullName-Version)"),
    _argument("--timeout", type=float, default=30.0, metavar="SECONDS",
              help="network timeout of each request (default 30)"),
)

COMMANDS = {
    "check": _command(
        "check", "static checks; diagnostics on stderr", _PATHS, *_PATH_OPTIONS,
        _argument("--select", type=_codes, default=frozenset(), metavar="CODES",
                  help="report only these codes (comma-separated, e.g. E-YAML,W-UI-FIELD-TYPE; "
                       "a prefix such as W-UI- selects all codes it starts)"),
        _argument("--ignore", type=_codes, default=frozenset(), metavar="CODES",
                  help="do not report these codes (comma-separated; prefixes as --select)"),
        _argument("--output", choices=("text", "json", "sarif"), default="text",
                  help="text (default, on stderr), json or sarif (SARIF 2.1.0, on stdout)")),
    "compile": _command(
        "compile", "compile packages to Python bytecode modules", _PATHS, *_PATH_OPTIONS,
        _argument("-o", "--output", required=True, metavar="OUT",
                  help="the directory compiled packages are written to"),
        _argument("--emit-source", action="store_true",
                  help="also write readable .py files (never imported)"),
        _argument("-j", "--jobs", type=int, default=0, metavar="N",
                  help="compile in N processes (default 0: one per core)")),
    "run": _command(
        "run", "load an object model and call a method", *_PATH_OPTIONS,
        _argument("--model", required=True, help="JSON object model, Objects document, or class name"),
        _argument("--method", default="deploy", help="the method called on the root object "
                                                     "(default deploy)"),
        _argument("--args", default=None, metavar="JSON_LIST", help="positional arguments of the call"),
        _argument("--kwargs", default=None, metavar="JSON_OBJECT", help="keyword arguments of the call"),
        _argument("--trace", action="store_true",
                  help="define a global trace(value): records value under traces, returns null"),
        _argument("--cloud", default=None, metavar="JSON_FILE",
                  help="start the simulated cloud with the Heat stacks of a previous run's output "
                       "and the agent answers of its agentResults (README)"),
        _argument("--repeat", type=int, default=1, metavar="N",
                  help="call N times and report the median seconds per call"),
        _argument("--timeout", type=float, default=None, metavar="SECONDS",
                  help="stop the run (loading, the call, the end-of-run destruction) after this "
                       "many seconds with a TimeLimitExceeded error; what was deployed is kept"),
        _CACHE_DIR),
    "schema": _command(
        "schema", "json-schema of a class's forms specification", *_PATH_OPTIONS,
        _argument("class_name", metavar="CLASS", help="the class's full name"),
        _argument("--method", action="append", default=[], dest="methods",
                  help="a model builder's schema only (repeatable; '' is the class's)"),
        _argument("--class-version", default=None, metavar="SPEC",
                  help="version spec of the class's package (default: the newest)"),
        _argument("--package", default=None, metavar="FQN", help="the package that holds the class")),
    "test": _command(
        "test", "run a package's MuranoPL unit tests (TestFixture classes)",
        _argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                  help="a package location (repeatable; default: the current directory)"),
        _argument("--format", default=None,
                  help="Format of a directory of loose class files (default MuranoPL/1.0)"),
        _argument("package", metavar="PACKAGE_FQN", help="the package whose tests run (name[/version])"),
        _argument("tests", nargs="*", metavar="TEST",
                  help="Class.method, Class, or method (default: every test of the package)"),
        _argument("--json", action="store_true", help="print one JSON document of the results"),
        _argument("--junit-xml", default=None, metavar="FILE", help="also write JUnit XML to FILE"),
        _argument("-k", dest="keyword", default=None, metavar="PATTERN",
                  help="only tests whose Class.method matches (words, and/or/not, as pytest's -k)"),
        _argument("--timeout", type=float, default=None, metavar="SECONDS",
                  help="a test running longer is an error"),
        _argument("-j", "--jobs", type=int, default=1, metavar="N",
                  help="run tests in N processes (0: one per core)"),
        _CACHE_DIR),
    "serve": _command(
        "serve", "serve forms json-schemas and model builders over HTTP", _PATHS, *_PATH_OPTIONS,
        _argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"),
        _argument("--port", type=int, default=8080, help="0 picks a free port"),
        _CACHE_DIR,
        _argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                  help="time limit of one model builder call; its worker is stopped after it"),
        _argument("--workers", type=int, default=2, metavar="N",
                  help="worker processes running model builders (calls beyond N wait)"),
        _argument("--idle-timeout", type=float, default=5.0, metavar="SECONDS",
                  help="close connections that send no complete request for this long"),
        _argument("--body-timeout", type=float, default=30.0, metavar="SECONDS",
                  help="answer 408 when a request body takes longer than this to arrive")),
    "model": _command(
        "model", "object model the dashboard sends for answers to a package's dynamic UI (UI/ui.yaml)",
        _argument("positionals", nargs="+", metavar="PACKAGE_FQN",
                  help="the package's full name (package locations may come before it)"),
        _argument("--path", action="append", default=[], dest="path_options", metavar="PATH",
                  help="a package location (repeatable)"),
        _argument("--format", default=None,
                  help="Format of a directory of loose class files (default MuranoPL/1.0)"),
        _argument("--answers", required=True, metavar="ANSWERS.json",
                  help="{formName: {fieldName: value}, workflowManagement: {application_name}}"),
        _argument("--cloud", default=None, metavar="CLOUD.json",
                  help="the flavors, keypairs, images, networks, ... fields choose from"),
        _argument("--environment", action="store_true",
                  help="print an io.murano.Environment holding the application (for mplc run)"),
        _argument("--seed", type=int, default=None,
                  help="generate ids and host names from this seed (repeatable output)")),
    "fetch": _command(
        "fetch", "import a package and its requirements from a repository",
        _argument("name", metavar="NAME", help="the package's FullName"),
        _argument("--version", default=None, metavar="SPEC",
                  help="version spec (default: the newest version)"),
        *_REPOSITORY_OPTIONS),
    "bundle": _command(
        "fetch", "import a bundle of packages from a repository",
        _argument("name", metavar="NAME", help="the bundle's name (bundles/NAME.bundle)"),
        *_REPOSITORY_OPTIONS),
    "package": _command(
        "package", "build a package .zip (as murano package-create)",
        _argument("directory", nargs="?", metavar="DIR", help="the package directory to zip"),
        _argument("-o", "--output", metavar="NAME.zip",
                  help="the zip to write (default: the template's name with .zip; required for DIR)"),
        _argument("-t", "--template", metavar="HOT.yaml",
                  help="build a Heat.HOT/1.0 package from this Heat template instead of DIR"),
        _argument("-n", "--name", help="display name (with --template; default: the "
                                       "template's file name)"),
        _argument("-f", "--full-name", help="FullName (with --template; default: "
                                            "io.murano.apps.generated.<Name>)"),
        _argument("-a", "--author", help="Author (with --template; default: $OS_USERNAME)"),
        _argument("--tags", nargs="*", metavar="TAG",
                  help="Tags (with --template; default: Heat-generated)"),
        _argument("-d", "--description", help="Description (with --template; default: the "
                                              "template's description)"),
        _argument("-r", "--resources-dir", metavar="DIR",
                  help="a directory copied as Resources/ (with --template)"),
        _argument("-l", "--logo", metavar="PNG", help="a logo copied as logo.png (with --template)"),
        _argument("-q", "--quiet", action="store_true", help="show errors only, no warnings")),
    "save": _command(
        "save", "save packages (or a bundle) and what they require as zips, with their images listed",
        _argument("names", nargs="+", metavar="NAME",
                  help="a package FullName in the repository, a local package directory or "
                       ".zip, or with --bundle a bundle name"),
        _argument("--bundle", action="store_true", help="NAME is a bundle (bundles/NAME.bundle)"),
        _argument("--version", default=None, metavar="SPEC",
                  help="version spec of a single NAME (default: the newest)"),
        _argument("--repo", env="MURANO_REPO_URL", metavar="URL",
                  help="repository URL (default: $MURANO_REPO_URL)"),
        _argument("-o", "--output", required=True, metavar="DIR", help="where the zips are written"),
        _argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                  help="network timeout of each request (default 30)")),
}
"""command name -> (module under ``mplc.commands``, help, its ``add_argument`` calls)."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mplc", description="Compile and run MuranoPL packages.")
    parser.add_argument("--version", action="version", version=f"mplc {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_, help_text, arguments) in COMMANDS.items():
        command = commands.add_parser(name, help=help_text)
        for flags, options in arguments:
            options = dict(options)
            if "env" in options:
                variable = options.pop("env")
                options["default"] = os.environ.get(variable)
                if options.pop("required_without_env", False):
                    options["required"] = variable not in os.environ
            command.add_argument(*flags, **options)
    return parser


def _command_module(command: str):
    """The module of a command, imported when the command runs (a check never loads the runtime)."""
    return importlib.import_module(f"mplc.commands.{COMMANDS[command][0]}")


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
