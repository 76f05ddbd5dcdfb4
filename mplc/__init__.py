"""mplc: an ahead-of-time compiler from MuranoPL to Python bytecode modules, and its runtime."""

# yaql 3.x uses collections.abc without importing it; make sure it is loaded first.
import collections.abc  # noqa: F401
import importlib

__version__ = "0.1.0"


_LAZY = {"Runtime": "mplc.api"}
"""Attributes imported when first read: ``mplc.Runtime`` pulls in the front end, codegen and the
runtime, which ``mplc check`` never needs."""


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(name)
