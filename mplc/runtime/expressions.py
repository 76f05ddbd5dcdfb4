"""The yaql bridge: engines, root contexts, and the expression entry points generated code uses.

Generated code evaluates an expression tree against yaql's triple (receiver, context, engine),
exactly as yaql evaluates its own trees: ``call`` resolves a function the way
``yaql.language.expressions.Function`` does, and argument objects are real yaql expression
objects, so yaql's overload resolution (lazy parameters, keywords, mapping rules) sees what it
would see for a parsed tree.
"""

from __future__ import annotations

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded)
import itertools
import operator
import sys
import types

from yaql.language import contexts, conventions, exceptions as yaql_exceptions
from yaql.language import expressions, specs, utils

from mplc.runtime.value_types import ALWAYS_SMALL, MINUS_SMALL_INT, SCALARS, SHORT, SHORT_SIZED, SMALL_INT
from mplc.runtime.yaql_adapter import frozen_dict
from mplc.versioning import is_legacy_format, parse_format_version
from mplc.yaql_grammar import murano_engine

NO_VALUE = utils.NO_VALUE
CONVENTION = conventions.CamelCaseConvention()
ITERATORS_LIMIT = 2000
MEMORY_QUOTA = 512 * 1024

# Keys the runtime keeps in yaql contexts (never valid MuranoPL variable names).
ENGINE = "?engine"
EXECUTOR = "?executor"
TYPE = "?type"
NAMES_SCOPE = "?namesScope"
CURRENT_METHOD = "?currentMethod"
CALLER_CONTEXT = "?callerContext"
ALLOW_PROPERTY_WRITES = "?allowPropertyWrites"
ARGUMENT_OWNER = "?argumentOwner"
SKIP_FRAME = "?skipFrame"
METHOD_CONTEXT = "?methodContext"


def _create_engine(legacy_format: bool):
    options = {
        "yaql.limitIterators": ITERATORS_LIMIT,
        "yaql.memoryQuota": MEMORY_QUOTA,
        "yaql.convertSetsToLists": True,
        "yaql.convertTuplesToLists": True,
    }
    if legacy_format:
        options["yaql.iterableDicts"] = True
    return murano_engine().copy(options)


_ENGINES = {True: _create_engine(True), False: _create_engine(False)}


is_legacy = is_legacy_format


def engine_for(format_version) -> object:
    """The yaql engine of a Format (``'1.3.0'``, ``'MuranoPL/1.0'`` or a (major, minor) tuple)."""
    version = format_version if isinstance(format_version, tuple) else parse_format_version(format_version)
    return _ENGINES[is_legacy(version)]


# What ``finalize`` does with a value, by its type (the ABC tests below are by type too).
_KEEP, _PLAIN_MAPPING, _PLAIN_SEQUENCE, _MAPPING, _SEQUENCE, _SET, _ITERABLE, _DEFERRED = range(8)
_FINALIZE_KINDS = {**dict.fromkeys(SCALARS | {bytes}, _KEEP), dict: _PLAIN_MAPPING, utils.FrozenDict: _PLAIN_MAPPING,
                   list: _PLAIN_SEQUENCE, tuple: _PLAIN_SEQUENCE}


# A list of this many values, each far below the quota, is far below it too (8 KiB each at most).
SHORT_LIST = 32


class _MemoryQuotas(dict):
    """Each engine's ``yaql.memoryQuota`` (none: the largest size), read once per engine."""

    def __missing__(self, engine):
        limit = utils.get_memory_quota(engine)
        value = self[engine] = limit if limit > 0 else sys.maxsize
        return value


MEMORY_QUOTAS = _MemoryQuotas()


class _DictsWithinQuota(dict):
    """Per engine: whether no dict its queries may build (at most ``yaql.limitIterators``
    entries) can exceed its memory quota, so a ``getsizeof`` check per insertion cannot fail:
    twice the size of a dict grown to that many int keys (24-byte entries, the larger kind)
    fits it. No iterator limit: False."""

    def __missing__(self, engine):
        limit = utils.get_max_collection_size(engine)
        grown = {}
        for key in range(max(limit, 0)):
            grown[key] = None
        value = self[engine] = limit >= 0 and 2 * _size(grown) <= MEMORY_QUOTAS[engine]
        return value


DICTS_WITHIN_QUOTA = _DictsWithinQuota()
_size = sys.getsizeof
_ZEROS = itertools.repeat(0)


def quota(engine, result):
    """yaql's memory quota check of a result (``utils.limit_memory_usage``), skipped for values
    far below any quota."""
    result_type = type(result)
    if result_type in ALWAYS_SMALL or (result_type is int and MINUS_SMALL_INT < result < SMALL_INT) or (
            result_type in SHORT_SIZED and len(result) < SHORT) or _size(result, 0) <= MEMORY_QUOTAS[engine]:
        return result
    raise yaql_exceptions.MemoryQuotaExceededException()


def quota_all(engine, values: tuple) -> None:
    """yaql's memory quota check of several values at once (their shallow sizes summed),
    skipped for a few values far below any quota."""
    if len(values) <= SHORT_LIST:
        for value in values:
            value_type = type(value)
            if not (value_type in ALWAYS_SMALL or (value_type is int and MINUS_SMALL_INT < value < SMALL_INT)
                    or (value_type in SHORT_SIZED and len(value) < SHORT)):
                break
        else:
            return
    if sum(map(_size, values, _ZEROS)) > MEMORY_QUOTAS[engine]:
        raise yaql_exceptions.MemoryQuotaExceededException()


class Deferred:
    """A value ``finalize`` replaces by what ``evaluate()`` returns: the reference's
    ``#finalize`` evaluates the YAQL expressions it finds inside a result."""

    __slots__ = ()

    def evaluate(self):
        raise NotImplementedError


def _new_finalize_kind(value_type) -> int:
    """What ``finalize`` and ``thaw`` do with values of a type met for the first time (kept)."""
    kind = _FINALIZE_KINDS[value_type] = _finalize_kind(value_type)
    return kind


def _finalize_kind(value_type) -> int:
    if issubclass(value_type, Deferred):
        return _DEFERRED
    if issubclass(value_type, (str, bytes, int, float, bool)):
        return _KEEP
    if issubclass(value_type, utils.MappingType):
        return _MAPPING
    if issubclass(value_type, utils.SequenceType):
        return _SEQUENCE
    if issubclass(value_type, utils.SetType):
        return _SET
    if issubclass(value_type, utils.IterableType):
        return _ITERABLE
    return _KEEP


_RANGE_ITERATOR = type(iter(range(0)))  # yaql's range(): ints, kept as they are


def limit_iterable(iterable, limit: int = ITERATORS_LIMIT):
    """yaql's ``utils.limit_iterable``: a sequence, mapping or set longer than ``limit`` fails at
    once, any other iterable when its item past the limit is taken; made of C iterators, with
    no Python frame per item."""
    if isinstance(iterable, (utils.SequenceType, utils.MappingType, utils.SetType)):
        if 0 <= limit < len(iterable):
            raise yaql_exceptions.CollectionTooLargeException(limit)
        return iterable
    source = iter(iterable)
    if limit < 0 or (type(source) is _RANGE_ITERATOR and operator.length_hint(source) <= limit):
        return source  # a range iterator that ends within the limit: nothing to count
    return itertools.chain(map(operator.itemgetter(1), zip(range(limit), source)), _nothing_more(source, limit))


def _nothing_more(source, limit: int):
    for _ in source:
        raise yaql_exceptions.CollectionTooLargeException(limit)
    yield from ()


FINAL = "_mplc_final"
"""A FrozenDict with this attribute true is final (``finalize`` returns it as it is):
``finalize`` marks those it found so, ``final_dict`` those built from scalars. An attribute, not
a key of ``__dict__``: reading ``__dict__`` would give each object a dict of its own."""
_FROZEN_DICT = utils.FrozenDict


def finalize(value):
    """Freeze a result as the reference's ``#finalize`` does: lists to tuples, dicts to FrozenDict."""
    value_type = type(value)
    kind = _FINALIZE_KINDS.get(value_type)
    if kind is None:
        kind = _new_finalize_kind(value_type)
    if kind == _KEEP:
        return value
    if kind == _PLAIN_MAPPING:
        if value_type is dict:
            return frozen_dict({finalize(k): finalize(v) for k, v in value.items()})
        if getattr(value, FINAL, False):
            return value
        plain = value._d  # a FrozenDict's own dict: iterating the Mapping ABC costs a call per item
        if not (SCALARS.issuperset(map(type, plain.values())) and SCALARS.issuperset(map(type, plain))):
            keys = [finalize(k) for k in plain]
            values = [finalize(v) for v in plain.values()]
            if not (all(map(operator.is_, keys, plain)) and all(map(operator.is_, values, plain.values()))):
                return frozen_dict(dict(zip(keys, values)))
        setattr(value, FINAL, True)
        return value
    if kind == _PLAIN_SEQUENCE:
        if value_type is tuple and SCALARS.issuperset(map(type, value)):
            return value
        items = _finalized_items(value)
        if value_type is tuple and all(map(operator.is_, items, value)):
            return value
        return tuple(items)
    if kind == _MAPPING:
        return utils.FrozenDict((finalize(k), finalize(v)) for k, v in value.items())
    if kind == _SEQUENCE:
        if value_type is range:
            _check_range_size(value)
        return tuple(finalize(item) for item in value)
    if kind == _SET:
        return frozenset(finalize(item) for item in value)
    if kind == _DEFERRED:
        return value.evaluate()
    if value_type is _RANGE_ITERATOR:
        return tuple(limit_iterable(value))
    return tuple(_finalized_items(limit_iterable(value)))


def _check_range_size(value: range) -> None:
    """Legacy ``range(a, b)`` is a Python range, which the reference turns into a list whole:
    ``range(0, 10**12)`` would take the host's memory first. Its list is checked against the
    memory quota before it is built."""
    try:
        length = len(value)
    except OverflowError:
        length = sys.maxsize
    if length * 8 > MEMORY_QUOTA:  # a pointer per item, at least
        raise yaql_exceptions.MemoryQuotaExceededException()


def _finalized_items(items) -> list:
    """``finalize`` of each item in order; scalars and final FrozenDicts (the usual items)
    without a call."""
    return [item if type(item) in SCALARS or (type(item) is _FROZEN_DICT and getattr(item, FINAL, False))
            else finalize(item) for item in items]


def final_dict(plain: dict, *unchecked) -> utils.FrozenDict:
    """``frozen_dict(plain)`` for a dict whose keys are strings and whose values are scalars
    but for ``unchecked`` (generated code knows the others): marked final when those are
    scalars too."""
    frozen = _new_object(_FROZEN_DICT)
    frozen._d = plain
    frozen._hash = None
    for value in unchecked:
        if type(value) not in SCALARS:
            return frozen
    frozen._mplc_final = True
    return frozen



def thaw(value):
    """Data as the reference's object loads from code (``new()``, class() of a mapping) hand
    it to contracts: murano's evaluate with freeze=False makes tuples lists, FrozenDicts dicts,
    frozensets sets and reads iterators, so a violation shows ``Value [1, 2]``."""
    value_type = type(value)
    kind = _FINALIZE_KINDS.get(value_type)
    if kind is None:
        kind = _new_finalize_kind(value_type)
    if kind == _KEEP:
        return value
    if kind == _PLAIN_MAPPING or kind == _MAPPING:
        return {thaw(key): thaw(item) for key, item in value.items()}
    if kind == _PLAIN_SEQUENCE or kind == _SEQUENCE:
        if value_type is range:
            _check_range_size(value)
        return [thaw(item) for item in value]
    if kind == _SET:
        return {thaw(item) for item in value}
    if kind == _DEFERRED:
        return thaw(value.evaluate())
    return [thaw(item) for item in limit_iterable(value)]


@specs.name("#finalize")
def finalize_function(obj):
    return finalize(obj)


def function_generation(version: tuple[int, int]) -> int:
    """Formats differ in which murano functions exist: <=1.1, 1.2-1.3, >=1.4."""
    if is_legacy(version):
        return 0
    return 1 if version <= (1, 3) else 2


def empty_context():
    context = contexts.Context(convention=CONVENTION)
    context.register_function(finalize_function)
    return context


def link(parent, child):
    return parent if child is None else contexts.LinkedContext(parent, child)


def stored_key(name: str) -> str:
    """The key a yaql context stores ``name`` under (``$x``; ``$`` is ``$1``)."""
    return contexts.Context._normalize_name(name)


TYPE_KEY = stored_key(TYPE)
ALLOW_PROPERTY_WRITES_KEY = stored_key(ALLOW_PROPERTY_WRITES)


class CallContext(contexts.Context):
    """The context one call of a MuranoPL method body runs in (its variable scope): a yaql
    ``Context`` whose empty function tables are shared by all, as no function is ever
    registered in a call's context (registering raises); built without a constructor
    (``executor.call_context_of``), it costs two allocations instead of four."""

    _functions = types.MappingProxyType({})
    _exclusive_funcs = frozenset()
    _convention = CONVENTION  # every context of MuranoPL code has it: a call context sets none

    def create_child_context(self):
        return contexts.Context(self)


class WritingCallContext(CallContext):
    """The call context of code that may write what only initialization writes: its data has
    ``?allowPropertyWrites`` (not None; ``.init`` and what it calls). A class of its own, so the
    direct way into a method body (``MethodSpec.direct_entry``), which takes no such caller,
    tells it by type alone."""


CALL_CONTEXTS = frozenset((CallContext, WritingCallContext))
"""The context classes of method bodies' calls: each one is its body's variable scope."""
METHOD_CONTEXT_KEY = stored_key(METHOD_CONTEXT)


def as_context(scope):
    """The call context a caller token stands for. A method body taken the direct way in
    builds no call context unless code that needs one runs: its variables dictionary, which
    holds the method's context under ``METHOD_CONTEXT_KEY``, is the token it hands the methods
    it calls directly, the query loops and ``new()`` sites; the context built from it shares
    that dictionary, so every context made of one token sees the same variables. Any other
    context is its own."""
    if type(scope) is dict:
        context = _new_object(CallContext)
        context._parent_context = scope[METHOD_CONTEXT_KEY]
        context._data = scope
        return context
    return scope
PLAIN_CONTEXTS = frozenset((contexts.Context, CallContext, WritingCallContext))
"""The context classes whose data is their own ``_data`` dictionary."""


def lookup(context, key):
    """``context[name]`` for ``key = stored_key(name)``: the same walk up the parents, without
    normalising the key again at every level. None when no context has it."""
    scope = context
    while scope is not None:
        if type(scope) in PLAIN_CONTEXTS:
            value = scope._data.get(key, NO_VALUE)
        else:
            value = scope.get_data(key, NO_VALUE, False)
        if value is not NO_VALUE:
            return value
        scope = scope.parent
    return None


# --- argument objects for generated code ------------------------------------------------------

class Lazy(expressions.Expression):
    """A compiled sub-expression handed to a yaql function as an unevaluated argument.

    ``item_function``: when the sub-expression reads ``$`` only as a value and nothing in it
    reads the context for ``$`` (codegen proves it), its twin ``(item, context, engine)`` that
    takes ``$`` as ``item`` and runs in the lambda's parent context: queries call it per item
    without building a context."""

    __slots__ = ("function", "uses_receiver", "item_function")

    def __init__(self, function, uses_receiver=False, item_function=None):
        self.function = function
        self.uses_receiver = uses_receiver
        self.item_function = item_function

    def __call__(self, receiver, context, engine):
        return self.function(receiver, context, engine)

    def __str__(self):
        return getattr(self.function, "__name__", "<expression>")


def lazy(function, uses_receiver=False, item_function=None) -> Lazy:
    """``uses_receiver`` is yaql's flag of the wrapped node: True for a plain ``name(...)`` call."""
    return Lazy(function, uses_receiver, item_function)


def constant(value) -> expressions.Constant:
    return expressions.Constant(value)


def keyword(name: str) -> expressions.KeywordConstant:
    return expressions.KeywordConstant(name)


def rule(source, destination) -> expressions.MappingRuleExpression:
    return expressions.MappingRuleExpression(source, destination)


def call(name, receiver, context, engine, args):
    """Resolve and call a yaql function exactly as ``yaql.language.expressions.Function`` does."""
    return context(name, engine, receiver, context)(*args)


def result(value):
    """A statement's value frozen as yaql's ``#finalize`` freezes it (inline expressions)."""
    return value if type(value) in SCALARS else finalize(value)


def freeze_list(items) -> tuple:
    return tuple(items)


def freeze_dict(pairs) -> utils.FrozenDict:
    return frozen_dict(dict(pairs))




_new_object = object.__new__


class ConstantDefault:
    """A Default written without expressions (``Default: []``): its value, frozen once. Called
    like a compiled Default; ``apply_contract`` takes ``value`` without building the context."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = finalize(value)

    def __call__(self, context):
        return self.value


constant_default = ConstantDefault
