"""The collection fast paths at their edges: inline ``format``, inline ``$.key`` reads of
FrozenDicts, ``where`` over item functions, ``sum``, ``dict(pairs)``, ``[a, b]`` and ``dict(k =>
v)``, each with the values that take their fallbacks (other types, bounds, memory quota,
iterator limit, laziness).

Each row runs three ways in MuranoPL's root context (Format 1.3): yaql's own evaluator, mplc
with fast paths, mplc without; all three must give the row's outcome, and the same message.
"""

import pytest
from yaql.language import utils

import compiled_yaql
from mplc.codegen import fast_paths
from mplc.runtime import expressions as bridge, library

BIG = "x" * 300000  # within the 512 KiB quota alone, over it twice over
HUGE = "x" * 600000  # over the quota
ITEM = utils.FrozenDict

CASES = [
    # format with a constant plain format: inline for short strings and ints of <= 18 digits
    ("format('item-{0}', $a)", 5, None, "item-5"),
    ("format('item-{0}', $a)", -(10 ** 18) + 1, None, "item--999999999999999999"),
    ("format('item-{0}', $a)", 10 ** 18, None, "item-1000000000000000000"),
    ("format('item-{0}', $a)", "y" * 64, None, "item-" + "y" * 64),
    ("format('item-{0}', $a)", True, None, "item-True"),
    ("format('item-{0}', $a)", None, None, "item-None"),
    ("format('item-{0}', $a)", 2 ** 20000, None, ("error", "ValueError")),
    ("format('{0}{1}', $a, $b)", 1, "x", "1x"),
    ("format('{}-{}', $a, $b)", 1, (2,), "1-(2,)"),
    ("format('{1}', $a)", 1, None, ("error", "IndexError")),
    ("format('{a}', $a)", 1, None, ("error", "KeyError")),
    ("format('{0:>3}', $a)", 5, None, "  5"),
    ("format('{0}{0}', $a)", BIG, None, ("error", "MemoryQuotaExceededException")),
    ("format('{0}', $a)", HUGE, None, ("error", "MemoryQuotaExceededException")),
    ("$b.select(format('{0}:{1}', $, $a))", 7, (1, "z"), ("1:7", "z:7")),
    # $.key: a FrozenDict's key inline in a query's item function, the site for everything else
    ("$a.b", ITEM({"b": 1}), None, 1),
    ("$a.b", ITEM({"c": 1}), None, ("error", "KeyError")),
    ("$a.b", ITEM({"b": HUGE}), None, ("error", "MemoryQuotaExceededException")),
    ("$a.b", None, None, ("error", "NoFunctionRegisteredException")),
    ("$a.b", (1,), None, ("error", "NoFunctionRegisteredException")),
    ("$b.select($.k)", None, (ITEM({"k": 1}), ITEM({"k": HUGE})), ("error", "MemoryQuotaExceededException")),
    ("$b.select($.k.k)", None, (ITEM({"k": ITEM({"k": "v"})}),), ("v",)),
    ("$b.select($.k)", None, (ITEM({"c": 1}),), ("error", "KeyError")),
    ("$b.select($.k)", None, (None,), ("error", "NoFunctionRegisteredException")),
    ("$b.select($.k)", None, ((1,),), ("error", "NoFunctionRegisteredException")),
    ("$b.select($.k)", None, (ITEM({"k": "s"}), ITEM({"k": 2.5}), ITEM({"k": None})), ("s", 2.5, None)),
    # where: lazy, in order, chained, limited
    ("$b.where($ > 1)", None, (1, 2, 3), (2, 3)),
    ("$b.where($.k)", None, (ITEM({"k": True}), ITEM({"k": 0})), (ITEM({"k": True}),)),
    ("$b.where(1 / $ > 0).first()", None, (1, 0), 1),
    ("$b.where(1 / $ > 0)", None, (1, 0), ("error", "ZeroDivisionError")),
    ("$b.where($ > 0).where($ < 3).select($ * 10)", None, (0, 1, 2, 3), (10, 20)),
    ("range(3000).where($ >= 0).first()", None, None, 0),
    ("range(3000).where($ >= 0)", None, None, ("error", "CollectionTooLargeException")),
    ("$b.where($ > 1)", None, (1, "a"), ("error", "NoMatchingFunctionException")),
    # sum
    ("$b.sum()", None, (), ("error", "TypeError")),
    ("$b.sum()", None, (1, 2.5), 3.5),
    ("$b.sum()", None, (2 ** 4095, 2 ** 4095, -1), 2 ** 4096 - 1),
    ("$b.sum()", None, ("a", "b"), "ab"),
    ("$b.sum()", None, (1, "a"), ("error", "NoMatchingFunctionException")),
    ("$b.where($ > 0).sum()", None, (True, 2), ("error", "NoMatchingFunctionException")),
    # dict(pairs)
    ("dict($b)", None, ((1, 2, 3), (4, 5)), {1: 2, 4: 5}),
    ("dict($b)", None, ((1,),), ("error", "StopIteration")),
    ("dict($b)", None, ("ab",), {"a": "b"}),
    ("dict($b.select([$, $a]))", 0, ("k", "l"), {"k": 0, "l": 0}),
    # dict(r.select([k, v])) in one pass: key, then value, per item; other receivers via the site
    ("dict($b.select([$.k, $.v]))", None, (ITEM({"k": "a", "v": 1}), ITEM({"k": "a", "v": 2})), {"a": 2}),
    ("dict($b.select([$.k, 1 / $.v]))", None, (ITEM({"v": 0}),), ("error", "KeyError")),
    ("dict($b.select([$.k, 1 / $.v]))", None, (ITEM({"k": 1, "v": 0}),), ("error", "ZeroDivisionError")),
    ("dict($b.select([$, 1 / $]))", None, (1, 0, [2]), ("error", "ZeroDivisionError")),
    ("dict($b.select([$, 1]))", None, (1, [2]), ("error", "TypeError")),
    ("dict($b.select([$, $a]))", BIG, (BIG,), ("error", "MemoryQuotaExceededException")),
    ("dict($b.select([$, $a]))", HUGE, ("k",), ("error", "MemoryQuotaExceededException")),
    ("dict($b.select([$, $a]))", (1, 2), ("k",), {"k": (1, 2)}),
    ("dict($b.select([$, [$a]]))", 2.5, (ITEM({"k": 1}), None, True), {ITEM({"k": 1}): (2.5,), None: (2.5,), True: (2.5,)}),
    ("dict(range(3000).select([$, 1]))", None, None, ("error", "CollectionTooLargeException")),
    ("dict(range(2000).select([$, 1])).len()", None, None, 2000),
    ("dict($b.where($ > 1).select([$, $ * 2]))", None, (1, 2, 3), {2: 4, 3: 6}),
    ("dict($b.select([$, 1]))", None, None, ("error", "NoMatchingMethodException")),
    ("dict($b.select([$, 1]))", None, ITEM({"k": 1}), ("error", "NoMatchingMethodException")),
    ("dict($b.select([$, 1]))", None, "ab", ("error", "NoMatchingMethodException")),
    ("dict($b.select([$, 1, 2]))", None, ("k",), {"k": 1}),
    ("dict($b.select([$]))", None, ("k",), ("error", "StopIteration")),
    # keys(), values() of a FrozenDict iterated as its dict's views: order, limits (keys are a set)
    ("$b.values().sum()", None, ITEM({"a": 1, "b": 2}), 3),
    ("$b.keys().select($ + 'x')", None, ITEM({"a": 1, "b": 2}), ("ax", "bx")),
    ("$b.values().select($.k)", None, ITEM({"a": ITEM({"k": 1}), "b": ITEM({})}), ("error", "KeyError")),
    ("$b.values().first()", None, ITEM({i: i for i in range(2001)}), 0),
    ("$b.values().sum()", None, ITEM({i: i for i in range(2001)}), ("error", "CollectionTooLargeException")),
    ("$b.keys().first()", None, ITEM({i: i for i in range(2001)}), ("error", "CollectionTooLargeException")),
    # [a, b]: yaql sums the items' sizes
    ("[$a, $b]", BIG, "x", (BIG, "x")),
    ("[$a, $a]", BIG, None, ("error", "MemoryQuotaExceededException")),
    # dict(k => v): final when its values are scalars, finalized otherwise
    ("$b.select(dict(k => $, n => $a))", 1, ((1, 2), 3), ({"k": (1, 2), "n": 1}, {"k": 3, "n": 1})),
    ("dict(k => $b.select($ * 2))", None, (1, 2), {"k": (2, 4)}),
    ("$b.select(dict(k => $.select($ * 2), n => len($), m => $ = 1, f => format('{0}', 1)))", None, ((1, 2),),
     ({"k": (2, 4), "n": 2, "m": False, "f": "1"},)),
    ("$b.select(dict($ => 1, k => [$]))", None, ("a",), ({"a": 1, "k": ("a",)},)),
    # an item function that is one dict(k => v) builds its FrozenDict in statements
    ("$b.select(dict(k => 1))", None, (1, 2), ({"k": 1}, {"k": 1})),
    ("$b.select(dict(k => $, n => $a, m => len($)))", (1,), ("ab", (2,)),
     ({"k": "ab", "n": (1,), "m": 2}, {"k": (2,), "n": (1,), "m": 1})),
    ("$b.select(dict(k => 1 / $))", None, (1, 0), ("error", "ZeroDivisionError")),
]


def _outcome(run):
    try:
        return "value", run()
    except Exception as error:  # the exception itself is what is compared
        return "error", type(error).__name__, str(error)


def _context(a, b):
    context = library.root_context((1, 3)).create_child_context()
    context["$a"] = a
    context["$b"] = b
    return context


@pytest.mark.parametrize("text, a, b, expected", CASES, ids=[f"{case[0]}-{i}" for i, case in enumerate(CASES)])
def test_collection_paths(text, a, b, expected):
    engine = bridge.engine_for((1, 3))
    outcomes = [_outcome(lambda: engine(text).evaluate(context=_context(a, b)))]
    for fast_paths in (True, False):
        outcomes.append(_outcome(lambda: compiled_yaql.evaluate(engine, text, context=_context(a, b),
                                                                 fast_paths=fast_paths)))
    assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0]
    if isinstance(expected, tuple) and expected[:1] == ("error",):
        assert outcomes[0][:2] == expected
    else:
        assert outcomes[0] == ("value", expected)


UNLIMITED_SMALL_QUOTA = {"yaql.limitIterators": -1, "yaql.memoryQuota": 20000}
LIMIT_PAST_QUOTA = {"yaql.limitIterators": 30000, "yaql.memoryQuota": 600000}


@pytest.mark.parametrize("options, within, text, expected", [
    ({}, True, "dict(range(2000).select([$, 1])).len()", 2000),
    (UNLIMITED_SMALL_QUOTA, False, "dict(range(3000).select([$, 1])).len()", ("error", "MemoryQuotaExceededException")),
    (UNLIMITED_SMALL_QUOTA, False, "dict(range(3000).select([$, 1]).select($)).len()",
     ("error", "MemoryQuotaExceededException")),
    (UNLIMITED_SMALL_QUOTA, False, "dict(range(300).select([$, 1])).len()", 300),
    (LIMIT_PAST_QUOTA, False, "dict(range(30000).select([$, 1])).len()", ("error", "MemoryQuotaExceededException")),
])
def test_dict_size_checks(options, within, text, expected):
    """``dict`` of pairs checks its size per pair unless no dict within the iterator limit can
    reach the quota (``bridge.DICTS_WITHIN_QUOTA``)."""
    engine = bridge.engine_for((1, 3)).copy(options) if options else bridge.engine_for((1, 3))
    assert bridge.DICTS_WITHIN_QUOTA[engine] is within
    outcomes = [_outcome(lambda: engine(text).evaluate(context=_context(None, None)))]
    for fast_paths in (True, False):
        outcomes.append(_outcome(lambda: compiled_yaql.evaluate(engine, text, context=_context(None, None),
                                                                 fast_paths=fast_paths)))
    assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0]
    if isinstance(expected, tuple):
        assert outcomes[0][:2] == expected
    else:
        assert outcomes[0] == ("value", expected)


def test_item_functions_mark_final_as_the_runtime_reads():
    """Item functions set the attribute ``finalize`` reads to skip a final FrozenDict."""
    assert fast_paths.FINAL == bridge.FINAL
