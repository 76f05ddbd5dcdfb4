"""Resource limits of running MuranoPL: memory checked before a value is built, and a time budget.

Packages are untrusted (SECURITY.md). yaql checks a result's size against the engine's memory
quota (512 KiB, the reference's) only after the result exists; a format width of 3e9, a string
or list repeated 1e9 times, ``pow(2, 10**10)`` or a join of 2000 long strings would take
gigabytes or hours first. Every operation whose result can be far larger than its operands
asks one of the ``check_*`` helpers here first, on every path (yaql functions, fast paths),
and fails with the reference's MemoryQuotaExceededException.

``TimeBudget`` stops MuranoPL code that runs too long (loops, sleeps, recursion): a watchdog
thread raises ``TimeLimitExceeded`` in the running thread at the deadline (and again every
``REFIRE_SECONDS`` until the budget is left, so a Finally that loops ends too); a sleep wakes
at the deadline and takes the watchdog's exception there. MuranoPL's Catch never takes it;
leaving the budget turns it into ``TimeLimitError``, naming the limit and the YAML line the
code was at.
"""

from __future__ import annotations

import ctypes
import math
import re
import string
import sys
import threading
import time

from yaql.language import exceptions as yaql_exceptions, specs, utils
from yaql.standard_library import collections as yaql_collections, math as yaql_math, strings as yaql_strings

from mplc.runtime import expressions
from mplc.runtime.errors import MuranoError

REFIRE_SECONDS = 0.05
_POINTER_BYTES = 8  # what a list or tuple item costs, at least
_FLOAT_TEXT = 32  # what a float's text takes at most without a precision


def _quota(engine) -> int:
    """The memory quota of ``engine`` (None: mplc's engines' quota); 0 for none."""
    quota = expressions.MEMORY_QUOTA if engine is None else expressions.MEMORY_QUOTAS[engine]
    return 0 if quota >= sys.maxsize else quota


def check_bytes(engine, estimate: int) -> None:
    """Fail before building a value of about ``estimate`` bytes over the engine's quota."""
    quota = _quota(engine)
    if quota and estimate > quota:
        raise yaql_exceptions.MemoryQuotaExceededException()


def check_repeat(engine, item, count) -> None:
    """``item * count`` for a string or sequence ``item``."""
    if type(count) is bool or not isinstance(count, int) or count <= 0:
        return
    per_item = 1 if isinstance(item, str) else _POINTER_BYTES
    try:
        length = len(item)
    except TypeError:
        return
    check_bytes(engine, length * per_item * count)


def check_power(engine, base, exponent, modulo=None) -> None:
    """``pow(base, exponent[, modulo])`` of integers: the result has about exponent * bits(base)
    bits; a modular power stays below its modulus but costs about bits(exponent) multiplications
    of numbers as long as the modulus (done in C, where no time limit reaches it)."""
    if type(base) is not int or type(exponent) is not int or exponent <= 0:
        return
    if modulo is not None:
        if type(modulo) is int and exponent.bit_length() * max(abs(modulo).bit_length(), 64) > MAX_MODULAR_WORK:
            raise yaql_exceptions.MemoryQuotaExceededException()
        return
    bits = abs(base).bit_length()
    if bits <= 1:
        return  # 0, 1 and -1 stay small
    check_bytes(engine, (bits - 1) * exponent // 8)


MAX_MODULAR_WORK = 1 << 26  # bits(exponent) * bits(modulus): 8192-bit RSA is 2**26


def check_text(engine, value) -> None:
    """``str(value)``: its text, estimated without building it (a list holding one long
    string 2000 times has a small shallow size and a huge text)."""
    quota = _quota(engine)
    if quota and text_size(value, quota) > quota:
        raise yaql_exceptions.MemoryQuotaExceededException()


def text_size(value, budget: int) -> int:
    """About how many characters ``str(value)`` writes, counted up to ``budget`` (a shared
    structure is walked at most until the count passes it)."""
    total = 0
    pending = [value]
    while pending and total <= budget:
        item = pending.pop()
        item_type = type(item)
        if item_type is str:
            total += len(item) + 2
        elif item_type is int:
            total += 2 + item.bit_length() * 30103 // 100000 if item.bit_length() > 64 else 8
        elif item_type in (float, bool) or item is None:
            total += _FLOAT_TEXT
        elif isinstance(item, (utils.MappingType, dict)):
            total += 2 + 4 * len(item)
            for key, entry in item.items():
                pending.append(key)
                pending.append(entry)
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2 + 2 * len(item)
            pending.extend(item)
        else:
            total += 64
    return total


_FORMAT_NUMBERS = re.compile(r"\d+")
_FORMATTER_PARSE = string.Formatter().parse


def check_format(engine, format_: str, args, kwargs) -> None:
    """``format_.format(*args, **kwargs)``: every field writes at most its width and precision
    plus its value's text (the widths and precisions are read from the specs, once per format
    string), a nested field (``{0:{1}}``) at most the largest int argument more."""
    quota = _quota(engine)
    if not quota or type(format_) is not str:
        return
    shape = _FORMAT_SHAPES.get(format_)
    if shape is None:
        shape = _format_shape(format_)
        if len(_FORMAT_SHAPES) < 4096:
            _FORMAT_SHAPES[format_] = shape
    fixed, fields, nested = shape
    if not fields:
        return
    values = (*args, *kwargs.values())
    largest = max((text_size(value, quota) for value in values), default=0)
    widest = max((abs(value) for value in values if type(value) is int), default=0) if nested else 0
    if fixed + fields * largest + nested * widest > quota:
        raise yaql_exceptions.MemoryQuotaExceededException()


_FORMAT_SHAPES: dict = {}


def _format_shape(format_: str) -> tuple[int, int, int]:
    """(literal text plus every width and precision, number of fields, number of nested
    fields) of a format string; a number too long to be a width counts as over any quota."""
    fixed, fields, nested = len(format_), 0, 0
    try:
        parsed = list(_FORMATTER_PARSE(format_))
    except ValueError:
        return fixed, 0, 0  # str.format reports the error itself
    for _, field, spec, _ in parsed:
        if field is None:
            continue
        fields += 1
        for number in _FORMAT_NUMBERS.findall(spec or ""):
            fixed += int(number) if len(number) <= 18 else sys.maxsize
        nested += (spec or "").count("{")
    return fixed, fields, nested


def check_replace(engine, text: str, old: str, new: str, count: int = -1) -> None:
    """``text.replace(old, new, count)``: each replaced occurrence adds len(new) - len(old)."""
    grow = len(new) - len(old)
    if grow <= 0:
        return
    occurrences = text.count(old) if old else len(text) + 1
    if count is not None and count >= 0:
        occurrences = min(occurrences, count)
    check_bytes(engine, len(text) + occurrences * grow)


def check_join(engine, separator: str, texts) -> None:
    """``separator.join(texts)`` of texts already built (each within the quota)."""
    check_bytes(engine, sum(map(len, texts)) + len(separator) * max(len(texts) - 1, 0))


# -- yaql's functions, bounded --------------------------------------------------------------

def _join(sequence, separator, str_delegate):
    texts = []
    for item in sequence:
        check_text(None, item)
        texts.append(str_delegate(item))
    check_join(None, separator, texts)
    return separator.join(texts)


def _str(original):
    def bounded(value):
        check_text(None, value)
        return original(value)
    return bounded


def _checked(original, check):
    def bounded(*args, **kwargs):
        check(*args, **kwargs)
        return original(*args, **kwargs)
    return bounded


_BOUNDED = (
    (yaql_math.pow_, _checked(yaql_math.pow_, lambda a, b, c=None: check_power(None, a, b, c))),
    (yaql_collections.list_by_int, _checked(yaql_collections.list_by_int,
                                            lambda left, right, engine: check_repeat(engine, left, right))),
    (yaql_collections.int_by_list, _checked(yaql_collections.int_by_list,
                                            lambda left, right, engine: check_repeat(engine, right, left))),
    (yaql_strings.replace, _checked(yaql_strings.replace, lambda text, old, new, count=-1:
                                    check_replace(None, text, old, new, count))),
    (yaql_strings.join, _join),
    (yaql_strings.join_, lambda separator, sequence, str_delegate: _join(sequence, separator, str_delegate)),
    (yaql_strings.str_, _str(yaql_strings.str_)),
)


def register(context):
    """Bound, in ``context`` and the contexts above it (yaql's library), the functions whose
    result can be far larger than their arguments: each definition of yaql's keeps its name,
    parameters and layer (legacy formats turn some into extension methods, which needs them
    in one layer) and gets a payload that checks the result's size before building it."""
    bounded = {original: replacement for original, replacement in _BOUNDED}
    names = {specs.get_function_definition(original, convention=expressions.CONVENTION).name
             for original in bounded}
    scope = context
    while scope is not None:
        for name in names:
            for definition in scope.get_functions(name)[0]:
                replacement = bounded.get(definition.payload)
                if replacement is not None:
                    definition.payload = replacement
        scope = scope.parent
    return context


# -- time ---------------------------------------------------------------------------------------

class TimeLimitExceeded(BaseException):
    """Raised in the thread whose time budget ran out. A BaseException: no MuranoPL Catch (nor
    the runtime's conversion of Python errors) takes it."""


class TimeLimitError(MuranoError):
    """A run stopped by its time budget: names the limit and the YAML line it was at."""

    @property
    def type_name(self) -> str:
        return "TimeLimitExceeded"


_local = threading.local()
_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)


def deadline() -> float | None:
    """The running thread's deadline (``time.monotonic()``), or None."""
    budget = getattr(_local, "budget", None)
    return None if budget is None else budget.deadline


def sleep(seconds: float) -> None:
    """``time.sleep`` that ends with the budget's TimeLimitExceeded when the deadline comes first.

    A thread sleeping in C is not reached by the watchdog's exception until it wakes, so a long
    sleep wakes at the deadline; it then waits, in short sleeps, for the watchdog's exception
    instead of raising one of its own: two stops fired at once (its own and the watchdog's)
    meant the second could land on the way out, past the YAML frame, and lose the stop's line."""
    budget = getattr(_local, "budget", None)
    if budget is None:
        time.sleep(seconds)
        return
    remaining = budget.deadline - time.monotonic()
    if seconds < remaining:
        time.sleep(seconds)
        return
    time.sleep(max(remaining, 0.0))
    while True:  # the watchdog's exception is raised here, in this frame, once it fires
        time.sleep(REFIRE_SECONDS)


class TimeBudget:
    """``with TimeBudget(seconds):`` runs its block with at most ``seconds`` of wall-clock time
    from the budget's creation (entering again keeps the same deadline). None: no limit."""

    def __init__(self, seconds: float | None, what: str = "the time limit"):
        if seconds is not None and not (isinstance(seconds, (int, float)) and math.isfinite(seconds)
                                        and seconds > 0):
            raise ValueError(f"a time limit is a positive number of seconds, not {seconds!r}")
        self.seconds = seconds
        self.what = what
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self._stop = None
        self._watchdog = None
        self._thread_id = None
        self._outer = None

    def __enter__(self):
        outer = getattr(_local, "budget", None)
        self._nested = self.seconds is None or (outer is not None and outer.deadline <= self.deadline)
        if self._nested:
            return self  # no limit, or an outer budget ends first: that one stops the run
        if time.monotonic() >= self.deadline:
            raise TimeLimitError(self.message(None))
        self._outer = outer
        _local.budget = self
        self._thread_id = threading.get_ident()
        self._stop = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name="mplc-time-limit", daemon=True)
        self._watchdog.start()
        return self

    def _watch(self):
        if self._stop.wait(max(self.deadline - time.monotonic(), 0.0)):
            return
        while not self._stop.is_set():
            _set_async_exc(self._thread_id, TimeLimitExceeded)
            self._stop.wait(REFIRE_SECONDS)

    def __exit__(self, exc_type, error, traceback):
        if self._nested:
            return False
        while True:
            try:
                self._stop.set()
                self._watchdog.join()
                _set_async_exc(self._thread_id, ctypes.py_object())  # NULL: one raised, not yet delivered
                _local.budget = self._outer
                break
            except TimeLimitExceeded:
                exc_type = TimeLimitExceeded
        if exc_type is not None and issubclass(exc_type, TimeLimitExceeded):
            raise TimeLimitError(self.message(stop_location(error, traceback))) from None
        return False

    def message(self, where: str | None) -> str:
        return (f"the run took longer than {self.what} of {self.seconds:g} seconds" +
                (f"; stopped at {where}" if where else ""))


def stop_location(error, traceback) -> str | None:
    """``file:line`` where a run out of time stopped: in the traceback of the TimeLimitExceeded
    that left the budget or, if that one was raised outside compiled MuranoPL (a refire landing
    in a handler on the way out), in the one it replaced (its ``__context__``, as Python chains
    an exception raised while another is handled)."""
    seen = set()
    while True:
        where = yaml_location(traceback)
        if where is not None:
            return where
        seen.add(id(error))
        error = getattr(error, "__context__", None)
        if not isinstance(error, TimeLimitExceeded) or id(error) in seen:
            return None
        traceback = error.__traceback__


def yaml_location(traceback) -> str | None:
    """``file:line`` of the innermost frame of compiled MuranoPL (code compiled with the
    YAML file as its file name) in ``traceback``."""
    found = None
    while traceback is not None:
        file_name = traceback.tb_frame.f_code.co_filename
        if file_name.endswith((".yaml", ".yml")):
            found = f"{file_name}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    return found
