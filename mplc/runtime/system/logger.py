"""io.murano.system.Logger: MuranoPL logging into Python's ``logging`` (and the run's records)."""

from __future__ import annotations

import logging

from mplc.runtime import functions
from mplc.runtime.natives import native
from mplc.runtime.system.cloud import records

TRACE = 5


def _format(message, args, kwargs):
    try:
        return functions.format_(message, *args, **kwargs)
    except (ValueError, LookupError):
        return message


@native("io.murano.system.Logger")
class Logger:
    def __init__(self, logger_name: str):
        self.name = logger_name
        self.logger = logging.getLogger(logger_name)

    def _log(self, executor, level, message, args, kwargs, details=""):
        text = _format(message, args, kwargs) + details
        self.logger.log(level, text)
        records(executor)["log"].append(
            {"logger": self.name, "level": logging.getLevelName(level), "message": text})

    def trace(self, executor, message: str, *args, **kwargs):
        self._log(executor, TRACE, message, args, kwargs)

    def debug(self, executor, message: str, *args, **kwargs):
        self._log(executor, logging.DEBUG, message, args, kwargs)

    def info(self, executor, message: str, *args, **kwargs):
        self._log(executor, logging.INFO, message, args, kwargs)

    def warning(self, executor, message: str, *args, **kwargs):
        self._log(executor, logging.WARNING, message, args, kwargs)

    def error(self, executor, message: str, *args, **kwargs):
        self._log(executor, logging.ERROR, message, args, kwargs)

    def critical(self, executor, message: str, *args, **kwargs):
        self._log(executor, logging.CRITICAL, message, args, kwargs)

    def exception(self, executor, exc, message: str, *args, **kwargs):
        error = getattr(exc, "real_this", exc)
        native_error = error.properties.get("nativeException") if hasattr(error, "properties") else None
        details = native_error.format() if native_error is not None else str(exc)
        self._log(executor, logging.ERROR, message, args, kwargs, "\n" + details)
