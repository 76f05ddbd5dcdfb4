"""Runtime helpers of the expression fast paths codegen emits (``_r.fast.*``).

Each helper computes what yaql would for the operand types its guard admits and hands every
other case to yaql's own resolution (``expressions.call``) with the already evaluated operands, which
is what yaql's runner passes a non-lazy parameter. Guards are exact types: a subclass, a bool
where a number is wanted, or anything unusual takes the expressions.
"""

from __future__ import annotations

import collections.abc
import functools
import itertools
import sys
import types
import weakref

from yaql.language import contexts, exceptions as yaql_exceptions, utils
from yaql.language.expressions import Constant
from yaql.standard_library import collections as yaql_collections, queries as yaql_queries, strings as yaql_strings

from mplc.runtime import expressions, errors, library, limits, statements, value_types, yaql_functions
from mplc.runtime.activation import current_executor
from mplc.runtime.executor import DirectCall, child_context
from mplc.runtime.loading import AcceptedNew, load_plan
from mplc.runtime.objects import (NO_VALUE, MuranoObject, MuranoType, TypeReference, argument_acceptance,
                                  resolve_class)
from mplc.runtime.system import engine_functions

# Runtime keys as yaql's contexts store them (``Context._normalize_name`` prefixes ``$``).
_ARGUMENT_OWNER_KEY = expressions.stored_key(expressions.ARGUMENT_OWNER)
_TYPE_KEY = expressions.TYPE_KEY
_NAMES_SCOPE_KEY = expressions.stored_key(expressions.NAMES_SCOPE)
_CURRENT_METHOD_KEY = expressions.stored_key(expressions.CURRENT_METHOD)
METHOD_CONTEXT_KEY = expressions.METHOD_CONTEXT_KEY
as_context = expressions.as_context
_NUMBERS = value_types.NUMBERS
FrozenDict = utils.FrozenDict
SHORT = value_types.SHORT
SHORT_SIZED = value_types.SHORT_SIZED
ALWAYS_SMALL = value_types.ALWAYS_SMALL
_NO_KEYWORDS = utils.FrozenDict()
_SEQUENCES = value_types.SEQUENCES
_SMALL = expressions.SMALL_INT
quota = expressions.quota
_MINUS_SMALL = expressions.MINUS_SMALL_INT
INLINE_BOUND = (1 << 30) - 1
"""Inline integer arithmetic in bodies keeps results strictly within this bound (else the
helper, which gives the same int). CPython compares ints of one 30-bit digit without a call
(``COMPARE_OP_INT_JUMP``): the bound is the largest such int, so the tests themselves stay
cheap, and everything within it is far below any memory quota (``expressions.SMALL_INT``)."""
INLINE_LOWER_BOUND = -INLINE_BOUND


def _call(name, context, engine, *values):
    """yaql's ``name(*values)`` resolved in ``context`` (which may be a caller token: the
    helpers whose slow path this is get one from bodies, ``expressions.as_context``)."""
    context = as_context(context)
    return context(name, engine, NO_VALUE, context)(*values)


def _numbers(left, right) -> bool:
    return type(left) in _NUMBERS and type(right) in _NUMBERS


def add(left, right, context, engine):
    if type(left) is int and type(right) is int:
        result = left + right
        return result if _MINUS_SMALL < result < _SMALL else quota(engine, result)
    if _numbers(left, right):
        return quota(engine, left + right)
    return _call("#operator_+", context, engine, left, right)


def subtract(left, right, context, engine):
    if type(left) is int and type(right) is int:
        result = left - right
        return result if _MINUS_SMALL < result < _SMALL else quota(engine, result)
    if _numbers(left, right):
        return quota(engine, left - right)
    return _call("#operator_-", context, engine, left, right)


def multiply(left, right, context, engine):
    if type(left) is int and type(right) is int:
        result = left * right
        return result if _MINUS_SMALL < result < _SMALL else quota(engine, result)
    if _numbers(left, right):
        return quota(engine, left * right)
    return _call("#operator_*", context, engine, left, right)


def divide(left, right, context, engine):
    """yaql divides two integers with ``//``."""
    if type(left) is int and type(right) is int:
        return quota(engine, left // right)
    if _numbers(left, right):
        return quota(engine, left / right)
    return _call("#operator_/", context, engine, left, right)


def modulo(left, right, context, engine):
    if type(left) is int and type(right) is int and right:
        return left % right
    if _numbers(left, right):
        return quota(engine, left % right)
    return _call("#operator_mod", context, engine, left, right)


def negate(operand, context, engine):
    if type(operand) in _NUMBERS:
        return quota(engine, -operand)
    return _call("#unary_operator_-", context, engine, operand)


def _comparable(left, right) -> bool:
    return _numbers(left, right) or (type(left) is str and type(right) is str)


def less(left, right, context, engine):
    if (type(left) is int and type(right) is int) or _comparable(left, right):
        return left < right
    return _call("#operator_<", context, engine, left, right)


def less_or_equal(left, right, context, engine):
    if (type(left) is int and type(right) is int) or _comparable(left, right):
        return left <= right
    return _call("#operator_<=", context, engine, left, right)


def greater(left, right, context, engine):
    if (type(left) is int and type(right) is int) or _comparable(left, right):
        return left > right
    return _call("#operator_>", context, engine, left, right)


def greater_or_equal(left, right, context, engine):
    if (type(left) is int and type(right) is int) or _comparable(left, right):
        return left >= right
    return _call("#operator_>=", context, engine, left, right)


def contains(value, collection, context, engine):
    """``value in collection`` for lists and tuples, and substring tests of two strings."""
    if type(collection) in _SEQUENCES or (type(value) is str and type(collection) is str):
        return value in collection
    return _call("#operator_in", context, engine, value, collection)


def index(collection, key, context, engine):
    """``collection[key]``: an integer index into a list or tuple, a key of a dict (Format >= 1.2)."""
    if type(collection) in _SEQUENCES and type(key) is int:
        return collection[key]
    if type(collection) is utils.FrozenDict or type(collection) is dict:
        return collection[key]
    return _call("#indexer", context, engine, collection, key)


def is_instance(value, reference, context, engine):
    """murano's ``value is class``: an object of the class (or a descendant); null is none. A
    class name is resolved first, as yaql checks the class parameter before the object's."""
    if type(reference) is str:
        reference = resolve_class(reference, as_context(context)).reference
    if type(reference) is TypeReference:
        if value is None:
            return False
        if type(value) is MuranoObject:
            return reference.type.is_compatible(value)
    return _call("#operator_is", context, engine, value, reference)


def legacy_index(collection, index, context, engine):
    """``collection[index]`` under yaql's legacy library, whose ``#indexer`` takes the index as
    a lambda over an iterable: on a list or tuple (quota-checked, within the iterator limit)
    the index is evaluated once, in a child context; an int picks an item, anything else
    filters the items with the index expression (``$`` each item). Every other collection
    goes through yaql with the index unevaluated."""
    if type(collection) is tuple or type(collection) is list:
        quota(engine, collection)
        if _counted_within_limit(collection, engine):
            position = index(NO_VALUE, context.create_child_context(), engine)
            if type(position) is int:
                return quota(engine, collection[position])
            return quota(engine, filter(_per_item(index, context, engine), collection))
    return _call("#indexer", context, engine, collection, index)


_PLAIN_CONTEXTS = expressions.PLAIN_CONTEXTS
CallContext = expressions.CallContext
_CALL_CONTEXTS = expressions.CALL_CONTEXTS
variable = expressions.lookup  # ``$x`` as generated code names it: already in stored form
_lookup = expressions.lookup


def set_variable(context, name, value):
    """``$name: value`` (``name`` normalised, never ``$`` or ``$this``): stored in the method's
    variable scope, the nearest call context (``expressions.CallContext``), as ``statements.assign`` does."""
    scope = context
    while scope is not None:
        if type(scope) in _CALL_CONTEXTS:
            scope._data[name] = value
            return
        scope = scope.parent
    context[name] = value


def child(context):
    """A child context: what yaql's ``Lambda`` gives an ``and``/``or`` operand that may write one."""
    return context.create_child_context()


def build_dict(*pairs):
    """``dict(k => v, ...)`` as modules compiled before ``frozen_dict`` build it."""
    return expressions.frozen_dict(dict(pairs))


frozen_dict = expressions.frozen_dict
"""``dict(k => v, ...)``: yaql's ``dict`` of mapping rules, the generated dict display frozen
(``final_dict`` when every key is a string constant)."""
final_dict = expressions.final_dict
SCALARS = expressions.SCALARS
new_instance = object.__new__
"""An item function's ``dict(k => v)`` builds its FrozenDict as ``final_dict`` does, inline;
a body taken its direct way in builds its call context with it."""

# --- a method body's direct way in (MethodSpec.direct_entry, docs/compiled-modules.md) ---------
MuranoPlException = errors.MuranoPlException
to_murano_exception = statements.to_murano_exception
running_parallels = statements.running_parallels


SMALL_RESULTS = ALWAYS_SMALL - {FrozenDict} | {MuranoObject}
"""Values a Return hands back as they are: ``result`` keeps them, and any memory quota admits
them whatever their value."""
QUOTA_FREE = ALWAYS_SMALL | {MuranoObject}
"""Frozen values any memory quota admits (an object's shallow size is a few words)."""


def returned(value, caller, engine):
    """A Return's value: within ``engine``'s memory quota when a call site called the body
    directly (``caller`` set), as ``DirectCall`` applies it."""
    return value if caller is None else quota(engine, value)


def enter_slowly(parent, receiver, caller, engine, *values):
    """A call a method body's direct way in turned away (an argument its contract must see,
    a destroyed receiver, a caller that is no method body's ``CallContext``, a running
    Parallel): made as ``DirectCall`` makes it. ``parent``: the method's context
    (``CallPlan.parent``)."""
    method = parent._data[_CURRENT_METHOD_KEY]
    direct = method.direct_call
    if direct is None:
        direct = method.direct_call = DirectCall(method)
    return direct.call(receiver, caller, engine, *values)


_dict_size = dict.__sizeof__
_DICT_GC_HEADER = sys.getsizeof({}) - {}.__sizeof__()  # what sys.getsizeof adds to a dict's own size
_DICTS_WITHIN_QUOTA = expressions.DICTS_WITHIN_QUOTA


def dict_of_pairs(items, context, engine):
    """``dict(pairs)``: the one overload that takes a positional argument, yaql's
    ``dict(items)``, for what its ``Iterable`` parameter admits (no string, no mapping). Its
    result, a FrozenDict, needs no quota check."""
    if isinstance(items, collections.abc.Iterable) and not isinstance(items, (str, utils.MappingType)):
        limit = -1 if _DICTS_WITHIN_QUOTA[engine] else expressions.MEMORY_QUOTAS[engine] - _DICT_GC_HEADER
        result = {}
        try:
            for pair in _limit_iterable(quota(engine, items), engine):
                if type(pair) is tuple and len(pair) > 1:
                    result[pair[0]] = pair[1]
                else:
                    pair = iter(pair)
                    key = next(pair)
                    result[key] = next(pair)
                if limit >= 0 and _dict_size(result) > limit:  # yaql checks getsizeof after each pair
                    raise yaql_exceptions.MemoryQuotaExceededException()
        except StopIteration as error:  # a pair too short: yaql's runner wraps it
            raise yaql_exceptions.WrappedException(error) from None
        return expressions.frozen_dict(result)
    return _call("dict", context, engine, items)


def dict_of_selected(receiver, site, loop, context, engine, *values):
    """``dict(receiver.select([k, v]))`` (``site`` the ``select`` call) in one pass over the
    receiver where the site would run yaql's ``select``: ``loop``, generated, computes per
    item ``k``, then ``v``, checks the pair's quota (``[k, v]``), inserts it and checks yaql's
    ``dict`` size, with no pair built; ``values``, the loop's other parameters: the current
    values of the body's variables it reads. Other receivers: the site, then ``dict_of_pairs``."""
    if type(receiver) not in site.query_receivers or site.query is not _select \
            or not site.library(context):
        context = as_context(context)
        return dict_of_pairs(site(receiver, context, engine), context, engine)
    limit = -1 if _DICTS_WITHIN_QUOTA[engine] else expressions.MEMORY_QUOTAS[engine] - _DICT_GC_HEADER
    return expressions.frozen_dict(loop(_iterable(receiver, engine), context, engine, limit, *values))


def pair_quota(engine, key, value) -> None:
    """The quota check of ``[key, value]`` (a generated ``dict_of_selected`` loop's pair)."""
    expressions.quota_all(engine, (key, value))


def dict_size_quota(result: dict, limit: int) -> None:
    """yaql's ``dict`` check of the dict it builds, after each insertion."""
    if _dict_size(result) > limit:
        raise yaql_exceptions.MemoryQuotaExceededException()


finalize = expressions.finalize
_MAP_SIZE = sys.getsizeof(map(len, ()))  # what yaql's quota check of the lazy map select returns measures
_FILTER_SIZE = sys.getsizeof(filter(None, ()))  # and of the lazy filter where returns


class _LoopsApply(dict):
    """Per engine (whose options never change): whether a statement's query loop may stand
    for the lazy queries ``result`` reads: the receiver's iterator limit
    (``yaql.limitIterators``, at most finalize's) stops the items first, and the memory quota
    admits the lazy objects yaql would build."""

    def __missing__(self, engine) -> bool:
        value = self[engine] = (0 <= utils.get_max_collection_size(engine) <= expressions.ITERATORS_LIMIT
                                and expressions.MEMORY_QUOTAS[engine] >= max(_MAP_SIZE, _FILTER_SIZE))
        return value


_LOOPS_APPLY = _LoopsApply()


class _IteratorLimits(dict):
    """Per engine: its ``yaql.limitIterators`` (options never change)."""

    def __missing__(self, engine) -> int:
        value = self[engine] = utils.get_max_collection_size(engine)
        return value


_ITERATOR_LIMITS = _IteratorLimits()


def selected_result(receiver, site, loop, context, engine, *values):
    """A statement's value ``r.select(f)`` (``site`` the call) as ``result`` freezes it: where
    the site would run yaql's ``select`` with an item function, ``loop`` (generated: ``f``
    inline per item, each value finalized as ``finalize`` reads the lazy map, before the next
    item is taken; ``values``: the body's variables it reads), with no map and no second
    iterator limit. Other receivers: the site, then ``result``."""
    if site.item_query is _select and type(receiver) in site.query_receivers and _LOOPS_APPLY[engine] \
            and site.library(context):
        return loop(_iterable(receiver, engine), context, engine, *values)
    return expressions.result(site(receiver, as_context(context), engine))


def selected_range(stop, site, loop, context, engine, *values):
    """``range(n).select(f)`` as ``selected_result`` runs it on ``range_of(n)``: for an int
    ``n`` within the inline bound and the iterator limit, whose iterator the quota admits,
    ``loop`` over ``range(n)`` itself, with no iterator to make and measure."""
    if type(stop) is int and _MINUS_SMALL < stop < _SMALL and site.item_query is _select \
            and _RANGE_ITERATOR in site.query_receivers and _LOOPS_APPLY[engine] \
            and _RANGE_ITERATOR_SIZE <= expressions.MEMORY_QUOTAS[engine] and site.library(context):
        limit = _ITERATOR_LIMITS[engine]
        if limit < 0 or stop <= limit:
            return loop(range(stop), context, engine, *values)
    return selected_result(range_of(stop, context, engine), site, loop, context, engine, *values)


def selected_where(receiver, where_site, select_site, loop, context, engine, *values):
    """A statement's value ``r.where(p).select(f)`` as ``result`` freezes it: where both
    sites would run yaql's queries with item functions, ``loop`` (generated: per item ``p``,
    then for those it is true of ``f``, finalized; ``values``: the body's variables it reads) in
    one pass, with no filter, no map and no second iterator limit (the filtered items never
    outnumber the receiver's). Otherwise the ``where`` site, then the ``select`` site, then
    ``result``."""
    if where_site.item_query is _where and select_site.item_query is _select \
            and type(receiver) in where_site.query_receivers and _LOOPS_APPLY[engine] \
            and where_site.library(context) and select_site.library(context):
        return loop(_iterable(receiver, engine), context, engine, *values)
    context = as_context(context)
    return expressions.result(select_site(where_site(receiver, context, engine), context, engine))


KEPT = SCALARS | {MuranoObject}
"""What ``finalize`` returns as it is (tuples of them included)."""
EMPTY_TUPLE = ()
"""The one empty tuple (CPython keeps one): ``value is EMPTY_TUPLE`` costs no call."""


def collection(value):
    """A For's ``In`` value (in a body with locals) as ``iterate(result(value))`` makes it:
    a tuple of objects and scalars (a property holding objects, say) as it is, without
    walking it twice."""
    if type(value) is tuple:
        for item in value:
            if type(item) not in KEPT:
                return statements.iterate(expressions.result(value))
        return value
    return statements.iterate(expressions.result(value))


def format_string(context, engine, format_, *args):
    """``format(f, args...)``: mplc's safe ``format`` when ``f`` is a string, as yaql checks
    and converts each argument (its size against the memory quota) before the call."""
    if type(format_) is not str:
        return _call("format", context, engine, format_, *args)
    quota(engine, format_)
    for value in args:
        quota(engine, value)
    return quota(engine, yaql_functions.format_(format_, *args))


_SIZED = value_types.SIZED


def length(value, context, engine):
    """``len(x)`` of a string, list or dictionary (one overload of yaql's ``len`` takes each)."""
    if type(value) in _SIZED:
        return len(quota(engine, value))
    return _call("len", context, engine, value)


def new_object(context, engine, type_name, *properties):
    """``new(Type, name => value, ...)``: murano's ``new`` for a class reference or class name
    (resolved where the code runs, as its ``TypeParameter`` does), properties as keywords."""
    executor = current_executor()
    scope, caller_type = _names_scope_and_type(context)
    if type(type_name) is TypeReference:
        reference = type_name
    elif type(type_name) is str:
        reference = executor.find_class(type_name, scope).reference
    else:
        return context("new", engine, NO_VALUE, context)(type_name, **dict(properties))
    return _created(executor, context, engine, scope, caller_type, reference, properties)


_NEW_SITE_NUMBERS = itertools.count()


class NewObject:
    """``new(Name, name => value, ...)`` with a constant class name at one call site, the
    property names (``names``) given in order and their values passed positionally: the class
    the name resolves to is remembered per names scope (kept by the scope's class in its
    ``call_sites``: another package's class may see another class under the name), as an
    ``AcceptedNew`` for the first caller class when that builds the class's objects; that
    ``AcceptedNew`` is also kept in the data of each method context it serves (the parent of a
    body's call context, or the one its caller token holds), under the site's
    own ``site_key`` (a ``?`` key: no variable, so the garbage collector's walk of running
    bodies' variables passes it by), where a method body's call finds it in one lookup, when
    the engine's memory quota admits an object (the site's engine is its module's: every call
    through that method context has it) and the executor reads no class configs (each object
    then reads its own). Its value is frozen (an object: ``result`` leaves it
    as it is). Generated code binds the site's ``new`` once: calling a bound method costs about
    half what calling an instance through a Python ``__call__`` does."""

    __slots__ = ("class_name", "names", "site_key")

    def __init__(self, class_name: str, names: tuple = ()):
        self.class_name = class_name
        self.names = names
        self.site_key = f"?newSite{next(_NEW_SITE_NUMBERS)}"

    def new(self, context, engine, *values):
        context_type = type(context)
        if context_type is dict:
            site = context[METHOD_CONTEXT_KEY]._data.get(self.site_key)
        elif context_type is CallContext:
            site = context._parent_context._data.get(self.site_key)
        else:
            site = None
        if site is not None:
            if not site.covers_values:
                for value in values:
                    if not (type(value) is int and _MINUS_SMALL < value < _SMALL
                            or type(value) is tuple and len(value) < SHORT):
                        quota(engine, value)
            executor = current_executor()
            if executor.loading is None and not executor.dry_run:
                properties = site.template
                if properties is None:
                    properties = site.filled_template()
                if properties is not None:
                    properties = properties.copy()
                    for name, position, accepted_types, prop in site.given:
                        value = values[position]
                        value_type = type(value)
                        if not (value_type is int and _MINUS_SMALL < value < _SMALL
                                or value_type is tuple and len(value) < SHORT):
                            quota(engine, value)
                        if value_type not in accepted_types:
                            value = prop.accepted_value(value)
                            if value is NO_VALUE:
                                break
                        properties[name] = value
                    else:
                        created = _built_whole(site.murano_type, properties, site.extension)
                        executor.objects.ordered[created] = None
                        return created
        executor = current_executor()
        context = as_context(context)
        properties = tuple(zip(self.names, values))
        scope, caller_type = _names_scope_and_type(context)
        if type(scope) is MuranoType:
            site = scope.call_sites.get(self)
            if site is None:
                reference = executor.find_class(self.class_name, scope).reference
                site = scope.call_sites[self] = load_plan(reference.type).accepted_new(
                    reference, caller_type, self.names) or reference
            if type(site) is TypeReference:
                reference = site
            else:
                reference = site.reference
                if type(context) is CallContext and site.caller_type is caller_type \
                        and _OBJECT_SIZE <= _MEMORY_QUOTAS[engine] and executor.class_configs is None:
                    context._parent_context._data[self.site_key] = site
        else:
            reference = executor.find_class(self.class_name, scope).reference
        return _created(executor, context, engine, scope, caller_type, reference, properties)


_OBJECT_SIZE = sys.getsizeof(object.__new__(MuranoObject))  # every object's: its slots are fixed
_MEMORY_QUOTAS = expressions.MEMORY_QUOTAS
_built_whole = MuranoObject.built_whole


def _created(executor, context, engine, scope, caller_type, reference, properties):
    """The object ``new()`` makes of the class ``reference`` for code running in ``context``
    (of names scope ``scope`` and class ``caller_type``), ``properties`` its (name, value) pairs."""
    parameters = {}
    for name, value in properties:
        if not (type(value) is int and _MINUS_SMALL < value < _SMALL
                or type(value) is tuple and len(value) < SHORT):
            quota(engine, value)
        parameters[name] = value
    created = executor.new_object(reference.type, parameters, context, caller_type)
    if created is None:
        created = yaql_functions.instantiate(executor, context.create_child_context(), scope, reference,
                                        parameters)
    elif type(created) is MuranoObject and _OBJECT_SIZE <= expressions.MEMORY_QUOTAS[engine]:
        return created
    return quota(engine, expressions.result(created))


def _names_scope_and_type(context):
    """``(context[names scope], context[type])`` as two ``expressions.lookup`` calls find them, in
    one walk up the context chain. A method body's own context (a ``CallContext``) holds
    neither: its parent, the method's context, holds both (``executor.CallPlan``)."""
    if type(context) is CallContext:
        method_data = context._parent_context._data
        scope = method_data.get(_NAMES_SCOPE_KEY, NO_VALUE)
        caller_type = method_data.get(_TYPE_KEY, NO_VALUE)
        if scope is not NO_VALUE and caller_type is not NO_VALUE:
            return scope, caller_type
    scope = caller_type = NO_VALUE
    layer = context
    while layer is not None:
        if type(layer) in _PLAIN_CONTEXTS:
            data = layer._data
            if scope is NO_VALUE:
                scope = data.get(_NAMES_SCOPE_KEY, NO_VALUE)
            if caller_type is NO_VALUE:
                caller_type = data.get(_TYPE_KEY, NO_VALUE)
        else:
            if scope is NO_VALUE:
                scope = layer.get_data(_NAMES_SCOPE_KEY, NO_VALUE, False)
            if caller_type is NO_VALUE:
                caller_type = layer.get_data(_TYPE_KEY, NO_VALUE, False)
        if scope is not NO_VALUE and caller_type is not NO_VALUE:
            return scope, caller_type
        layer = layer.parent
    return (None if scope is NO_VALUE else scope), (None if caller_type is NO_VALUE else caller_type)


_STRING_CONVERSIONS = {type(None): lambda value: "null", bool: lambda value: "true" if value else "false",
                       int: str, float: str, str: str}


def to_string(value, context, engine):
    """``str(x)``: yaql's ``str`` (null, true and false as yaql writes them) of a scalar, the
    argument and result quota-checked as yaql's runner checks them; other values (collections,
    objects: their text is yaql's business) take the expressions."""
    convert = _STRING_CONVERSIONS.get(type(value))
    if convert is None:
        return _call("str", context, engine, value)
    limits.check_text(engine, quota(engine, value))  # as the bounded ``str`` checks it (limits._str)
    return quota(engine, convert(value))


def concat_strings(context, engine, *values):
    """``concat(a, b, ...)`` (one argument at least): yaql's ``concat`` of strings, each quota-checked in order as
    its ``String`` parameters convert them, then the result; anything but a string: the
    bridge (no overload takes it: yaql's error)."""
    for value in values:
        if type(value) is not str:
            return _call("concat", context, engine, *values)
    for value in values:
        quota(engine, value)
    return quota(engine, "".join(values))


def range_between(start, stop, context, engine):
    """``range(a, b)``: yaql's two-argument ``range`` (an iterator) for int bounds."""
    if type(start) is int and type(stop) is int:
        return iter(range(quota(engine, start), quota(engine, stop)))
    return _call("range", context, engine, start, stop)


def legacy_range_between(start, stop, context, engine):
    """``range(a, b)`` under yaql's legacy library: its ``range`` extension method (a range,
    not an iterator) for int bounds."""
    if type(start) is int and type(stop) is int:
        return range(quota(engine, start), quota(engine, stop))
    return _call("range", context, engine, start, stop)


def range_of(stop, context, engine):
    """``range(n)``: yaql's one-argument ``range`` (an iterator) for an integer ``n``."""
    if type(stop) is int:
        return iter(range(stop if _MINUS_SMALL < stop < _SMALL else quota(engine, stop)))
    return _call("range", context, engine, stop)


def build_list(engine, *items):
    """``[a, b]``: yaql's own ``#list``, called without resolving it (nothing else has the name)."""
    expressions.quota_all(engine, items)
    return items


class PropertyRead:
    """``receiver.name`` at one call site: a MuranoPL object's property, a dictionary's key, or
    yaql's ``#operator_.``. ``legacy``: yaql's legacy library reads a missing key as null.
    Per receiver class, the site remembers the caller class for which it reads a whole
    object's own value (``MuranoType.own_reads``, kept by the class), and then reads it
    directly."""

    __slots__ = ("name", "keyword", "legacy")

    def __init__(self, name: str, legacy: bool = False):
        self.name = name
        self.keyword = expressions.keyword(name)
        self.legacy = legacy

    def __call__(self, receiver, context, engine):
        if type(receiver) is MuranoObject:
            # the caller's class: a method body's own context holds none, its parent does
            caller_type = (type(context) is CallContext and context._parent_context._data.get(_TYPE_KEY)
                           or _lookup(context, _TYPE_KEY))
            own_reads = receiver.type.own_reads
            if own_reads.get(self, NO_VALUE) is caller_type and receiver.this is None:
                try:
                    result = receiver.properties[self.name]
                except KeyError:
                    result = receiver.read_value(self.name)
                if type(result) is int and _MINUS_SMALL < result < _SMALL or type(result) is tuple \
                        and len(result) < SHORT:
                    return result
            else:
                result = receiver.read_property(self.name, caller_type, context)
                if receiver.reads_own_value(self.name, caller_type):
                    own_reads[self] = caller_type
                    if caller_type is receiver.type and self.name in caller_type.properties:
                        caller_type.self_reads.add(self)
        elif type(receiver) is utils.FrozenDict:
            result = receiver._d.get(self.name) if self.legacy else receiver._d[self.name]
        elif type(receiver) is dict:
            result = receiver.get(self.name) if self.legacy else receiver[self.name]
        else:
            return _call("#operator_.", context, engine, receiver, self.keyword)
        return quota(engine, result)


def _defines(layer, name) -> bool:
    """Whether one layer of a context chain may hold a function called ``name``."""
    if type(layer) in _PLAIN_CONTEXTS:
        return name in layer._functions
    if type(layer) is contexts.LinkedContext:
        return _defines(layer.linked_context, name)
    return True


def _is_method(definition, context) -> bool:
    return definition.is_method


def _other_method(definition) -> bool:
    """Whether a yaql method is other than the stub of a MuranoPL instance or static method."""
    method = definition.meta.get("muranoMethod")
    return method is None or method.usage == "Extension"


def _no_parent():
    """The ``MethodCall.library_parent`` of a site that remembers no context (a dead weak reference)."""
    return None


def library_method(context, name) -> bool:
    """Whether ``receiver.name(...)`` resolves in ``context`` among the standard root's methods
    alone: no layer between (a class's methods and the extension methods it imports, contract
    functions) holds a function of that name."""
    scope = context
    while scope is not None:
        if library.is_standard_root(scope):
            return True
        if _defines(scope, name):
            return False
        scope = scope.parent
    return False


_RANGE_ITERATOR = type(iter(range(0)))
_RANGE_ITERATOR_SIZE = sys.getsizeof(iter(range(0)))  # every range iterator's
_FROZEN_DICT_VIEWS = {collections.abc.KeysView: dict.keys, collections.abc.ValuesView: dict.values,
                      collections.abc.ItemsView: dict.items}


def _iterable(receiver, engine):
    """What yaql's ``Iterable`` parameter makes of a receiver: quota-checked, length-limited."""
    if type(receiver) is _RANGE_ITERATOR and _RANGE_ITERATOR_SIZE <= expressions.MEMORY_QUOTAS[engine]:
        limit = _ITERATOR_LIMITS[engine]
        if limit < 0 or receiver.__length_hint__() <= limit:
            return receiver
    quota(engine, receiver)
    if _counted_within_limit(receiver, engine):
        return receiver
    return _limit_iterable(_view(receiver), engine)


def _unlimited(receiver, engine):
    """The receiver quota-checked; a view of a FrozenDict (``keys()``, ``values()``) as the
    same view of its dict: the same items in the same order, without the ABC's Python-level
    iteration."""
    quota(engine, receiver)
    if _counted_within_limit(receiver, engine):
        return receiver
    return _view(receiver)


def _counted_within_limit(receiver, engine) -> bool:
    """Whether ``limit_iterable`` gives the receiver back as it is: a tuple, list, range (the
    legacy library's ``range(a, b)``) or range iterator (whose length hint is its exact length)
    of at most the iterator limit's items."""
    receiver_type = type(receiver)
    if receiver_type is tuple or receiver_type is list or receiver_type is range or receiver_type is _RANGE_ITERATOR:
        limit = _ITERATOR_LIMITS[engine]
        return limit < 0 or (len(receiver) if receiver_type is not _RANGE_ITERATOR
                             else receiver.__length_hint__()) <= limit
    return False


def _view(receiver):
    """A view of a FrozenDict (``keys()``, ``values()``) as the same view of its dict; any
    other receiver as it is."""
    view = _FROZEN_DICT_VIEWS.get(type(receiver))
    if view is not None and type(receiver._mapping) is FrozenDict:
        return view(receiver._mapping._d)
    return receiver


def _limit_iterable(iterable, engine):
    return expressions.limit_iterable(iterable, utils.get_max_collection_size(engine))


def _per_item(function, context, engine):
    """``function`` as yaql's queries call a lambda: ``$`` bound to each item in its own context
    (the queries call a lazy argument's ``item_function`` instead, with none)."""
    scope = context.create_child_context()
    return lambda item: function(NO_VALUE, _item_context(scope, item), engine)


def _item_context(scope, item):
    """The context yaql's lambda runs in for one item: a child of ``scope`` holding ``$``."""
    if type(scope) in _PLAIN_CONTEXTS:
        return child_context(scope, {"$1": item})
    item_context = scope.create_child_context()
    item_context["$1"] = item
    return item_context


def per_item_call(site, receiver, item, context, engine):
    """The method call an item function makes (``receiver`` evaluated) when it takes no direct
    path: the site called in the context yaql's lambda would run in for the item."""
    return site(receiver, _item_context(context.create_child_context(), item), engine)


def _select(receiver, arguments, context, engine):
    """yaql's ``collection.select(selector)``: a lazy map."""
    item_function = getattr(arguments[0], "item_function", None)
    if item_function is not None:
        return map(item_function, _iterable(receiver, engine), itertools.repeat(context), itertools.repeat(engine))
    return map(_per_item(arguments[0], context, engine), _iterable(receiver, engine))


def _where(receiver, arguments, context, engine):
    """yaql's ``collection.where(predicate)``: a lazy filter. With an item function, the items
    are selected as ``filter`` would (each item taken, then tested) by ``compress`` over the
    item function's results on a ``tee`` copy, with no Python call per item but its own."""
    item_function = getattr(arguments[0], "item_function", None)
    if item_function is not None:
        items, copy = itertools.tee(_iterable(receiver, engine))
        return itertools.compress(items, map(item_function, copy, itertools.repeat(context),
                                             itertools.repeat(engine)))
    return filter(_per_item(arguments[0], context, engine), _iterable(receiver, engine))


_COUNTED = frozenset((tuple, list, type({}.values())))
_INT_ONLY = {int}


def _small_ints(values, engine) -> bool:
    """Whether ``values`` (a tuple, list or dict's values) are ints, at least one and no more
    than the iterator limit, whose every partial sum stays within the quota's inline bound:
    then summing them cannot fail, nor differ from yaql's fold, and may run at once."""
    if type(values) not in _COUNTED:
        return False
    count, limit = len(values), utils.get_max_collection_size(engine)
    if not 0 < count <= (count if limit < 0 else limit) or set(map(type, values)) != _INT_ONLY:
        return False
    bound = _SMALL // count
    return -bound < min(values) and max(values) < bound


def _sum(receiver, arguments, context, engine):
    """yaql's ``collection.sum()``: the items folded with ``+`` as ``#operator_+`` resolves it
    (``functools.reduce``: no item is reduce's TypeError); ints added inline, small ints of a
    collection by ``sum``."""
    values = _unlimited(receiver, engine)
    if _small_ints(values, engine):
        return sum(values)
    items = iter(_limit_iterable(values, engine))
    for total in items:
        break
    else:
        return functools.reduce(add, ())
    for item in items:
        if type(total) is int and type(item) is int:
            total += item
            if not _MINUS_SMALL < total < _SMALL:
                quota(engine, total)
        else:
            total = add(total, item, context, engine)
    return total


def _first(receiver, arguments, context, engine):
    """yaql's ``collection.first(default)``: an empty collection without a default is an error
    (StopIteration, wrapped as yaql's runner wraps it)."""
    default = arguments[0](NO_VALUE, context.create_child_context(), engine) if arguments else NO_VALUE
    collection = _iterable(receiver, engine)
    for item in collection:
        return item
    if default is NO_VALUE:
        raise yaql_exceptions.WrappedException(StopIteration())
    return quota(engine, default)


def _text(value) -> str:
    """yaql's ``str(value)``."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _join(receiver, arguments, context, engine):
    """yaql's ``collection.join(separator)``: each item as yaql's ``str`` writes it."""
    separator = arguments[0](NO_VALUE, context.create_child_context(), engine)
    if type(separator) is not str:
        return context("join", engine, receiver, context)(separator)
    collection = _iterable(receiver, engine)
    quota(engine, separator)
    texts = []
    for item in collection:
        limits.check_text(engine, quota(engine, item))
        texts.append(quota(engine, _text(item)))
    limits.check_join(engine, separator, texts)
    return separator.join(texts)


def _format(receiver, arguments, context, engine):
    """``'...'.format(args...)``: mplc's safe ``format`` with the string receiver."""
    scope = context.create_child_context()
    return format_string(context, engine, receiver, *[argument(NO_VALUE, scope, engine) for argument in arguments])


def _keys(receiver, arguments, context, engine):
    return quota(engine, receiver).keys()


def _values(receiver, arguments, context, engine):
    return quota(engine, receiver).values()


def _length(receiver, arguments, context, engine):
    return len(quota(engine, receiver))


def object_id(value, context, engine):
    """murano's ``id(object)``."""
    if type(value) is MuranoObject:
        return value.object_id
    return _call("id", context, engine, value)


def object_name(value, context, engine):
    """murano's ``name(object)`` (null for null)."""
    if type(value) is MuranoObject:
        return value.real_this.name
    if value is None:
        return None
    return _call("name", context, engine, value)


def object_type(value, context, engine):
    """murano's ``typeinfo(object)``: the class of the object (a class reference or name goes
    through yaql)."""
    if type(value) is MuranoObject:
        return value.real_this.type
    return _call("typeinfo", context, engine, value)


def trace_value(value, context, engine):
    """``trace(value)``."""
    return yaql_functions.trace(quota(engine, value))


def random_name(context, engine):
    """murano's ``randomName()``."""
    return yaql_functions.random_name()


def _argument(arguments, position, context, engine):
    """A non-lazy argument as yaql's method call evaluates it (in the child context the
    method-style lambda runs in) and its parameter type checks it (the memory quota)."""
    return quota(engine, arguments[position](NO_VALUE, context.create_child_context(), engine))


def _require(receiver, arguments, context, engine):
    """murano's ``value.require()``: null is an error."""
    return yaql_functions.require(quota(engine, receiver))


def _bind(receiver, arguments, context, engine):
    """murano's ``template.bind(mappings)`` with a dictionary of mappings (any other argument
    through yaql, which refuses it as the reference's does)."""
    mappings = _argument(arguments, 0, context, engine)
    if type(mappings) in _MAPPINGS:
        return engine_functions.bind(quota(engine, receiver), mappings)
    return context("bind", engine, receiver, context)(mappings)


def _pselect(receiver, arguments, context, engine):
    """murano's ``collection.pselect(composer)``: the composer run for each item in parallel
    branches, as yaql's lambda runs it (``$`` the item, in a child of the call's context)."""
    composer = arguments[0]

    def compose(item):
        item_context = context.create_child_context()
        item_context["$1"] = item
        return composer(NO_VALUE, item_context, engine)

    return engine_functions.pselect(context, _iterable(receiver, engine), compose)


def _get(receiver, arguments, context, engine):
    """yaql's ``dict.get(key, default)``."""
    key = _argument(arguments, 0, context, engine)
    default = _argument(arguments, 1, context, engine) if len(arguments) > 1 else None
    return yaql_collections.dict_get(quota(engine, receiver), key, default)


def _replace(receiver, arguments, context, engine):
    """yaql's ``string.replace(old, new)``, bounded as ``limits`` bounds it."""
    old, new = _argument(arguments, 0, context, engine), _argument(arguments, 1, context, engine)
    if type(old) is not str or type(new) is not str:
        return context("replace", engine, receiver, context)(old, new)
    limits.check_replace(None, quota(engine, receiver), old, new, -1)
    return receiver.replace(old, new, -1)


def _split(receiver, arguments, context, engine):
    """yaql's ``string.split(separator)``."""
    separator = _argument(arguments, 0, context, engine)
    if type(separator) is not str:
        return context("split", engine, receiver, context)(separator)
    return yaql_strings.split(quota(engine, receiver), separator)


def _to_lower(receiver, arguments, context, engine):
    return yaql_strings.to_lower(quota(engine, receiver))


def _take(receiver, arguments, context, engine):
    """yaql's ``collection.take(count)`` (its ``limit``): a lazy slice."""
    count = _argument(arguments, 0, context, engine)
    if type(count) is not int:
        return context("take", engine, receiver, context)(count)
    return yaql_queries.limit(_iterable(receiver, engine), count)


def _append(receiver, arguments, context, engine):
    """yaql's ``collection.append(items...)``."""
    values = [_argument(arguments, position, context, engine) for position in range(len(arguments))]
    return yaql_queries.append(_iterable(receiver, engine), *values)


def _linked_call(name, receiver, caller, engine, values):
    """``receiver.name(values...)`` on an object resolved by yaql as murano's ``#operator_.``
    resolves it: in the caller's context linked with the receiver class's."""
    context = expressions.link(as_context(caller), receiver.type.context)
    return quota(engine, context(name, engine, receiver, context)(*values))


def _find_owner(receiver, caller, engine, reference):
    """murano's ``object.find(class)`` with a class reference or name (resolved as yaql's
    parameter type resolves it, in the context the call runs in)."""
    if type(reference) is str:
        linked = expressions.link(as_context(caller), receiver.type.context)
        reference = resolve_class(quota(engine, reference), linked).reference
    if type(reference) is TypeReference:
        return yaql_functions.find(receiver, reference)
    return _linked_call("find", receiver, caller, engine, (reference,))


def _require_object(receiver, caller, engine):
    return receiver


def _cast_object(receiver, caller, engine, reference):
    """murano's ``object.cast(class)`` with a class reference or name."""
    if type(reference) is str:
        linked = expressions.link(as_context(caller), receiver.type.context)
        reference = resolve_class(quota(engine, reference), linked).reference
    if type(reference) is TypeReference:
        return yaql_functions.cast(None, receiver, reference)
    return _linked_call("cast", receiver, caller, engine, (reference,))


OBJECT_FUNCTIONS = {("find", 1): _find_owner, ("require", 0): _require_object, ("cast", 1): _cast_object}
"""murano's functions a method-call site calls directly on an object whose class has no
method of the name, by (name, number of arguments): ``(receiver, caller, engine, *values)``
with the arguments evaluated (``MethodCall._resolve``)."""

_ITERABLES = frozenset((tuple, list, range, map, filter, itertools.compress, types.GeneratorType,
                        type(iter(range(0))), type(iter(())), type(iter([])),
                        type({}.keys()), type({}.values()), type({}.items()),
                        collections.abc.KeysView, collections.abc.ValuesView, collections.abc.ItemsView))
_MAPPINGS = frozenset((utils.FrozenDict, dict))
_TEXT = frozenset((str,))
_VALUES = SCALARS | {tuple, list, utils.FrozenDict, dict}
"""Data (no objects or classes, whose classes' methods a call sees too)."""

QUERIES = {
    ("select", 1): (_select, _ITERABLES), ("where", 1): (_where, _ITERABLES),
    ("sum", 0): (_sum, _ITERABLES), ("keys", 0): (_keys, _MAPPINGS),
    ("values", 0): (_values, _MAPPINGS), ("len", 0): (_length, _SIZED),
    ("first", 0): (_first, _ITERABLES), ("first", 1): (_first, _ITERABLES),
    ("join", 1): (_join, _ITERABLES), ("format", None): (_format, frozenset((str,))),
    ("require", 0): (_require, _VALUES), ("bind", 1): (_bind, _VALUES),
    ("pselect", 1): (_pselect, _ITERABLES), ("get", 1): (_get, _MAPPINGS), ("get", 2): (_get, _MAPPINGS),
    ("replace", 2): (_replace, _TEXT), ("split", 1): (_split, _TEXT), ("toLower", 0): (_to_lower, _TEXT),
    ("take", 1): (_take, _ITERABLES), ("append", None): (_append, _ITERABLES),
}
"""Methods of the standard root run directly, by (name, number of arguments or None for any): the
function ``(receiver, argument objects, context, engine)`` and the receiver types for which
that method is the only one of the name that accepts the receiver (dictionaries are iterable
only under the legacy library, which keeps the bridge)."""


NATIVE_USAGES = frozenset(("Runtime", "Action", "Static"))


class NativeMethodCall:
    """How a method-call site calls a native (Python-backed) method that one receiver class
    resolves: what its yaql stub does once yaql has picked it (each argument quota-checked as
    yaql's parameter types check it, ``Executor.invoke`` with the context yaql's ``#operator_.``
    calls the stub in, the caller's linked with the receiver class's, and the result
    quota-checked as yaql's runner checks it), without yaql's overload resolution."""

    __slots__ = ("method", "invoke")

    def __init__(self, method):
        self.method = method
        self.invoke = method.declaring_type.executor.invoke

    def call(self, receiver, caller, engine, *values):
        for value in values:
            quota(engine, value)
        caller = expressions.link(as_context(caller), receiver.type.context)
        return quota(engine, self.invoke(self.method, receiver, values, _NO_KEYWORDS, caller))


class MethodCall:
    """``receiver.name(args...)`` at one call site: MuranoPL methods resolved once per receiver
    class (kept by the class, so a dropped runtime's types are not held by compiled modules).

    The arguments are plain positional ones (codegen checks); ``lazy_expression`` is the lazy
    ``name(args...)`` node the bridge gets for every other receiver, and ``arguments`` compiled
    functions of the arguments, evaluated in order only when the fast path is taken.
    ``queries``: the module's Format has yaql's standard library, so the methods ``QUERIES``
    lists run directly on their receiver types where nothing else defines the name.
    ``item_query``: that query when its one argument has an item function (a generated query
    loop may stand for it), else None.
    ``argument_methods``: the names of the methods the arguments call (``x.name(...)``).
    """

    __slots__ = ("name", "lazy_expression", "arguments", "literal_nulls", "query", "query_receivers",
                 "item_query", "library_parent", "argument_methods")

    def __init__(self, name: str, lazy_expression, arguments: tuple, queries: bool = False,
                 argument_methods: tuple = ()):
        self.name = name
        self.argument_methods = argument_methods
        self.lazy_expression = lazy_expression
        self.arguments = arguments
        # yaql hands a literal ``null`` to the stub as a constant its contract never sees.
        self.literal_nulls = tuple(isinstance(argument, Constant) and argument.value is None
                                   for argument in arguments)
        query = QUERIES.get((name, len(arguments))) or QUERIES.get((name, None))
        self.query, self.query_receivers = query if queries and query else (None, ())
        self.item_query = self.query if len(arguments) == 1 and getattr(
            arguments[0], "item_function", None) is not None else None
        self.library_parent = _no_parent

    def library(self, context) -> bool:
        """``library_method(context, name)``, remembered for the last parent of a method
        body's call context (or caller token) it was true for (held weakly): a call context
        holds no functions and a context's parents and functions never change once it is
        built, so every call context of one method (of one class, under one Format: one
        parent) gets that answer."""
        if type(context) is dict:
            parent = context[METHOD_CONTEXT_KEY]
        elif type(context) is CallContext:
            parent = context._parent_context
        else:
            return library_method(context, self.name)
        if self.library_parent() is parent:
            return True
        if library_method(parent, self.name):
            self.library_parent = weakref.ref(parent)
            return True
        return False

    def _resolve(self, murano_type, context):
        """How this site, in code running in ``context``, calls the plain MuranoPL method yaql's
        resolution would pick for receivers of ``murano_type``: ``direct_entry`` of its body,
        unless the site leaves arguments to Defaults or hands a literal null (whose contract
        never runs) or the method locks, else its ``DirectCall.call``. None for other methods;
        when the class imports extension methods or the arguments call a method of the class
        the calling code does not have: the arguments then see them (yaql evaluates them in the
        calling context linked with the receiver class's); and when the calling context has
        another method of the name (a library method, such as dict's ``set``): yaql may find
        the call ambiguous."""
        found = murano_type.find_method(self.name)
        if not found:
            return self._object_function(murano_type, context)
        if len(found) != 1 or murano_type.imports or murano_type.name in murano_type.executor.mocks:
            return None
        method = found[0]
        native = method.native is not None
        if native:
            if method.usage not in NATIVE_USAGES:
                return None
        elif (method.usage not in ("Runtime", "Action") or len(self.arguments) > len(method.arguments)
                or any(a.usage in ("VarArgs", "KwArgs") for a in method.arguments.values())):
            return None
        if type(context) is dict:
            context = context[METHOD_CONTEXT_KEY]
        if self.argument_methods:
            caller_type = expressions.lookup(context, _TYPE_KEY)
            if caller_type is not murano_type and any(
                    murano_type.find_method(name) and not (
                        isinstance(caller_type, MuranoType) and caller_type.find_method(name))
                    for name in self.argument_methods):
                return None
        if any(_other_method(definition) for level in context.collect_functions(self.name, _is_method)
               for definition in level):
            return None
        if native:
            return NativeMethodCall(method).call
        plan = method.declaring_type.executor.call_plan(method)
        if (method.spec.direct_entry and len(self.arguments) == len(method.arguments)
                and not any(self.literal_nulls) and plan.synchronize is None):
            return types.MethodType(method.spec.body, plan.parent)
        return DirectCall(method, self.literal_nulls).call

    def _object_function(self, murano_type, context):
        """The ``OBJECT_FUNCTIONS`` entry of this site's name and arity when yaql would call
        murano's function of the name on objects of ``murano_type`` (no method of the class, no
        import, mock or calling code defines one), else None."""
        function = OBJECT_FUNCTIONS.get((self.name, len(self.arguments)))
        if function is None or murano_type.imports or murano_type.name in murano_type.executor.mocks:
            return None
        if type(context) is dict:
            context = context[METHOD_CONTEXT_KEY]
        if any(murano_type.find_method(name) for name in self.argument_methods):
            return None
        if not library_method(context, self.name) or not any(context.collect_functions(self.name, _is_method)):
            return None  # a function that is no method where the code runs (Format 1.3's cast)
        return function

    def direct(self, receiver, context):
        """How this site calls on ``receiver`` from code running in ``context`` (``_resolve``:
        once per class, kept by the class; the code of one site runs in contexts of one class),
        or None when the call does not take the direct path: generated bodies ask this first,
        then evaluate the arguments inline and call it; otherwise they call the site."""
        if type(receiver) is not MuranoObject:
            return None
        call_sites = receiver.type.call_sites
        found = call_sites.get(self, NO_VALUE)
        if found is NO_VALUE:
            found = call_sites[self] = self._resolve(receiver.type, context)
        return found

    def __call__(self, receiver, context, engine):
        direct = self.direct(receiver, context)
        if direct is not None:
            return direct(receiver, context, engine,
                          *[argument(NO_VALUE, context, engine) for argument in self.arguments])
        if type(receiver) in self.query_receivers and self.library(context):
            return quota(engine, self.query(receiver, self.arguments, context, engine))
        return _call("#operator_.", context, engine, receiver, self.lazy_expression)
