"""One module per CLI command, each with ``main(args) -> int``; see mplc/cli.py."""

from mplc.diagnostics import Diagnostic


class UsageError(Exception):
    """A command was called with arguments it cannot use (exit 2). Defined here, not in
    ``mplc.cli``: run as ``python -m mplc.cli`` that module is ``__main__``, a second copy."""


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
