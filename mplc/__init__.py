"""mplc: an ahead-of-time compiler from MuranoPL to Python bytecode modules, and its runtime."""

# yaql 3.x uses collections.abc without importing it; make sure it is loaded first.
import collections.abc  # noqa: F401

__version__ = "0.1.0"


def __getattr__(name):
    # Runtime pulls in the front end and codegen; load it only when asked for.
    if name == "Runtime":
        from mplc.api import Runtime
        return Runtime
    raise AttributeError(name)
