"""One module per CLI command, each with ``main(args) -> int``; see mplc/cli.py."""
