"""io.murano.test.TestFixture: the base of MuranoPL unit tests (load, sessions, assertions).

Failed assertions raise what the reference's (testtools) assertions raise: AssertionError for
assertTrue/assertFalse, MismatchError (an AssertionError) for the others, with their messages.
"""

from __future__ import annotations

from yaql.language import utils

from mplc.runtime.natives import native


class MismatchError(AssertionError):
    """A failed assertEqual/assertIn/assertNotIn, named as the reference's testtools names it."""


def _shown(value):
    """A value as Python shows it, with yaql's frozen lists and dicts shown as lists and dicts."""
    if isinstance(value, utils.MappingType):
        return {_shown(k): _shown(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_shown(item) for item in value]
    return value


def _mismatch(text, message):
    raise MismatchError(text if message is None else f"{text}: {message}")


@native("io.murano.test.TestFixture")
class TestFixture:
    def load(self, executor, model):
        """The root object of an object model (``Objects``/``Attributes`` document or object)."""
        return executor.load_document(model)

    def start_env(self):
        """Begin a deployment session (the simulated cloud keeps no session state)."""

    def finish_env(self):
        """End a deployment session."""

    def assert_equal(self, expected, observed, message=None):
        if expected != observed:
            _mismatch(f"{_shown(expected)!r} != {_shown(observed)!r}", message)

    def assert_true(self, expr, message=None):
        if not expr:
            text = f"{_shown(expr)!r} is not true"
            raise AssertionError(text if message is None else f"{text} : {message}")

    def assert_false(self, expr, message=None):
        if expr:
            text = f"{_shown(expr)!r} is not false"
            raise AssertionError(text if message is None else f"{text} : {message}")

    def assert_in(self, needle, haystack, message=None):
        if needle not in haystack:
            _mismatch(f"{_shown(needle)!r} not in {_shown(haystack)!r}", message)

    def assert_not_in(self, needle, haystack, message=None):
        if needle in haystack:
            _mismatch(f"{_shown(haystack)!r} matches Contains({_shown(needle)!r})", message)
