"""What several commands share: the check of ``--format`` and the diagnostics they show."""

from mplc.commands import UsageError
from mplc.diagnostics import Diagnostic
from mplc.versioning import VersionError, parse_format


def check_loose_format(args) -> None:
    """``--format`` names a package Format (the CLI has already refused output formats). Checked
    here, not by argparse: ``mplc --help`` does not load the version parser."""
    if args.format is not None:
        try:
            parse_format(args.format)
        except VersionError as error:
            raise UsageError(f"--format: {error}") from None


def shown_diagnostics(args, asked: list, everything: list) -> list:
    """What a command that needs some classes prints: the diagnostics of the packages it
    needs (``asked``); with ``-v`` the others too, their errors as warnings (the package was
    left out; nothing asked for needed it); with ``-q`` errors only."""
    shown = list(asked)
    if getattr(args, "verbose", False):
        needed = set(asked)
        shown += [diagnostic if diagnostic.severity == "warning" else
                  Diagnostic("warning", diagnostic.code, f"{diagnostic.message} (its package is "
                             f"left out: nothing asked for needs it)", diagnostic.pos)
                  for diagnostic in everything if diagnostic not in needed]
    if getattr(args, "quiet", False):
        shown = [diagnostic for diagnostic in shown if diagnostic.severity == "error"]
    return shown
