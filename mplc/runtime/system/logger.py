"""io.murano.system.Logger: MuranoPL logging into Python's ``logging`` (and the run's records).

The Python logger of ``logger(name)`` is ``applications.<name>``, as the reference's."""

from __future__ import annotations

import logging

from mplc.runtime import expressions, yaql_functions
from mplc.runtime.objects import MuranoObject
from mplc.runtime.natives import as_received, native
from mplc.runtime.system.cloud import records

TRACE = 5
logging.addLevelName(TRACE, "TRACE")


@native("io.murano.system.Logger")
class Logger:
    """The parameters are class-private (``__message``), so Python names them
    ``_Logger__message`` as it does the reference's: a message that is not a string fails with
    that name in its ArgumentException."""

    def __init__(self, logger_name):
        """Any name, null included, as the reference's (its constructor has no parameter spec)."""
        self.name = logger_name
        self.logger = logging.getLogger(f"applications.{logger_name}")

    def _emit(self, executor, level, text):
        self.logger.log(level, text)
        records(executor)["log"].append(
            {"logger": self.name, "level": logging.getLevelName(level), "message": text})

    def _format(self, executor, message, args, kwargs):
        """The formatted message; a message whose fields the arguments do not fill is logged
        as written, after a warning (other format errors fail the call, as the reference's)."""
        try:
            # the arguments as the reference's native gets them: lists and dicts
            return yaql_functions.format_(message, *map(expressions.thaw, args),
                                     **{key: expressions.thaw(value) for key, value in kwargs.items()})
        except (IndexError, KeyError):
            self._emit(executor, logging.WARNING, f"Can not format string: {message}")
            return message

    def _log(self, executor, level, message, args, kwargs):
        self._emit(executor, level, self._format(executor, message, args, kwargs))

    def trace(self, executor, __message: str, *args, **kwargs):
        self._log(executor, TRACE, __message, args, kwargs)

    def debug(self, executor, __message: str, *args, **kwargs):
        self._log(executor, logging.DEBUG, __message, args, kwargs)

    def info(self, executor, __message: str, *args, **kwargs):
        self._log(executor, logging.INFO, __message, args, kwargs)

    def warning(self, executor, __message: str, *args, **kwargs):
        self._log(executor, logging.WARNING, __message, args, kwargs)

    def error(self, executor, __message: str, *args, **kwargs):
        self._log(executor, logging.ERROR, __message, args, kwargs)

    def critical(self, executor, __message: str, *args, **kwargs):
        self._log(executor, logging.CRITICAL, __message, args, kwargs)

    def exception(self, executor, __exc, __message: str, *args, **kwargs):
        """The message, then the caught exception's stack trace as its toString writes it. The
        reference's ``__exc`` is untyped and indexed by ``stackTrace`` after the message is
        formatted: a value other than an object fails there as Python's indexing fails on it."""
        text = self._format(executor, __message, args, kwargs)
        if isinstance(__exc, MuranoObject):
            stack_trace = __exc.real_this.properties.get("stackTrace")
        else:
            stack_trace = as_received(__exc)["stackTrace"]
        text += "\n" + executor.call(stack_trace, "toString")
        self._emit(executor, logging.ERROR, text)
