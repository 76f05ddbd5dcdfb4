"""One module per CLI command, each with ``main(args) -> int``; see mplc/cli.py. This package
imports nothing: ``mplc --help`` loads it for ``UsageError`` alone."""


class UsageError(Exception):
    """A command was called with arguments it cannot use (exit 2). Defined here, not in
    ``mplc.cli``: run as ``python -m mplc.cli`` that module is ``__main__``, a second copy."""
