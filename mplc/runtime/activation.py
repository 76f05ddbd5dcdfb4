"""The executor whose MuranoPL code runs now, found through a context-local as the reference's
``dsl.helpers.get_executor`` finds it: every layer reaches it without importing the executor.

A green thread of a Parallel runs in a copy of the context that started it (``statements``)."""

import contextlib
import contextvars

_RUNNING = contextvars.ContextVar("mplc_executor")

current_executor = _RUNNING.get
"""The running executor; LookupError when none runs."""


def running_executor():
    """The running executor, or None."""
    return _RUNNING.get(None)


@contextlib.contextmanager
def running(executor):
    """``executor`` is the current one inside the block (nesting restores the outer one)."""
    token = _RUNNING.set(executor)
    try:
        yield executor
    finally:
        _RUNNING.reset(token)


__all__ = ["current_executor", "running", "running_executor"]
