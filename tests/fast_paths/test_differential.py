"""Fast paths against plain yaql evaluation on generated data: same values, same exceptions.

Each expression runs three ways in MuranoPL's root yaql context (Format 1.3 and, for the
legacy library, 1.0): yaql's own evaluator, mplc compiled with fast paths, mplc compiled with
every fast path off.
"""

import math

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from yaql.language import utils

import compiled_yaql
from mplc.runtime import expressions as bridge, library

EXPRESSIONS = [
    "$a + $b", "$a - $b", "$a * $b", "$a / $b", "$a mod $b", "-$a", "not $a",
    "$a < $b", "$a <= $b", "$a > $b", "$a >= $b", "$a = $b", "$a != $b",
    "$a and $b", "$a or $b", "$a in $b", "$a[$b]", "$a.b", "($a + $b) * $a",
    "$a = 1 or $b > 2", "$a != null and $a < $b", "[$a, $b][1]", "{a => $a}.a",
    "$b.where($ > $a)", "$a.len()", "let(x => $a) -> $x and $b", "[$a, [$b], a]", "[$a => $b]",
    "{b => $a}.b", "{c => $a}.b", "dict(b => $a).b",
    "dict(b => $a, c => $b)", "dict($a => $b, b => 1)", "dict()", "dict($b)",
    "format('{0}-{1}', $a, $b)", "format($a, $b)", "format('{0}', 'x')", "format('{}')",
    "len($a)", "len($b)", "len('abc')", "$a.len()", "$b.select(len($))", "$a.dict(x => $b)",
    "$b.select($)", "$b.where($ != null)", "$b.select([$, $a]).where($[0] = $a)",
    "$b.where($ > 0).select($ * 2)", "$b.select(let(x => $) -> $x)", "$b.select(1)",
    "$b.sum()", "$b.where($ != null).sum()", "$b.keys()", "$b.values()", "$b.len()",
    "$b.values().sum()", "$b.keys().select($ + $a)", "range($a)", "range($a).select($ * 2)",
    "$b.first()", "$b.first($a)", "$b.where($ = $a).first(null)", "$b.select($.first()).first(0)",
    "$b.join($a)", "$b.join(', ')", "$b.select($ * 2).join('-')",
    "$a.format($b)", "'{0}+{1}'.format($a, $b)", "'x'.format()",
    "$b.select(dict(k => $, v => $a))", "$b.select(format('{0}', $))", "$b.select($.a)",
    "$b.where($.a > 0 or $ = $a)", "$b.select(dict($))", "dict($b.select([$, $a]))",
    "$b.select(-$ mod 3)", "$b.select($[0])", "$b.select(range($))", "$b.select($ in $a)",
    "str($a)", "str($b)", "str(null)", "str(true)", "str(1.5)", "str(-7)", "concat($a, $b)", "concat($a)",
    "concat()", "concat('x', str($a))", "concat(str($a), '-', str($b))", "$b.select(concat('i', str($)))",
    "range($a, $b)", "range(0, $a)", "range($a, 3).select($ * 2)", "range(0, 5).select(str($))",
    "range(0, 5).where($ > $a).select(concat('item', str($)))",
    "range(0, 4).select(dict(id => $, name => concat('item', str($)), odd => $ mod 2 = 1))",
    "concat('a', 1)", "concat($a, '', $a)", "str('x')", "str([$a])", "concat('abc' * 30, $a)",
    "concat($a, $b, $a, $b, $a, $b, $a, $b, $a)", "$b.select(str($))", "$b.select(concat($, $))",
    "range($a, 4).where($ > 1).select(str($))", "range(1, 4).select($b)", "$b.select($.a).where($ != null)",
    "$b.where($.a = null).select(dict(k => $.b))",
    "$b[0]", "$b[-1]", "$b[$a]", "$b[$ = $a]", "$b[$a + 1]", "$b.select($)[0]", "$b[1 => 2]", "$b[k]",
    "$a.get($b)", "$b.get($a)", "$b.get($a, 0)", "$b.get(a, $a)", "$a.replace($b, 'x')", "$a.replace('a', $a)",
    "$a.split($b)", "$a.split(',')", "$a.toLower()", "$b.take($a)", "$b.take(2)", "$b.select($).take(1)",
    "$b.append($a)", "$b.append($a, 1)", "$a.require()", "$b.require()", "$a.bind($b)", "$b.bind({x => $a})",
    "switch($a => 1, true => 2)", "switch($a > 0 => $b, $b => $a)", "switch(false => 1)", "switch($b => [$a])",
    "$a is $b", "null is $a",
]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(-2**200, 2**200),
    st.floats(allow_nan=False, width=32), st.text(max_size=4), st.just(0), st.just(""),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(st.text(max_size=2), inner, max_size=3).map(utils.FrozenDict),
), max_leaves=6)

VERSIONS = {"1.3": (1, 3), "1.0": (1, 0)}


def _outcome(run):
    try:
        return "value", _comparable(run())
    except Exception as error:  # the exception itself is what is compared
        return "error", type(error).__name__, str(error)


def _comparable(value):
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, (list, tuple)):
        return type(value).__name__, tuple(_comparable(item) for item in value)
    return type(value).__name__, value


def _context(version, a, b):
    context = library.root_context(version).create_child_context()
    context["$a"] = a
    context["$b"] = b
    return context


@pytest.mark.parametrize("format_version", sorted(VERSIONS))
@pytest.mark.parametrize("text", EXPRESSIONS)
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(a=values, b=values)
@example(a=2 ** 200, b=-2 ** 200)  # legacy range(0, $a) is checked before it is built
@example(a=-2 ** 200, b=2 ** 200)
def test_fast_paths_match_yaql(text, format_version, a, b):
    version = VERSIONS[format_version]
    engine = bridge.engine_for(version)
    legacy = bridge.is_legacy(version)
    expected = _outcome(lambda: engine(text).evaluate(context=_context(version, a, b)))
    for fast_paths in (True, False):
        compiled = _outcome(lambda: compiled_yaql.evaluate(
            engine, text, context=_context(version, a, b), fast_paths=fast_paths, legacy=legacy))
        assert compiled == expected, (text, a, b, fast_paths)


@pytest.mark.parametrize("text, expected", [
    ("7 / 2", 3), ("-7 / 2", -4), ("7.0 / 2", 3.5), ("1 = true", True),
    ("null < 1", True), ("2 + 3 * 4", 14), ("'a' + 'b'", "ab"), ("[1, 2][-1]", 2),
])
def test_known_results(text, expected):
    engine = bridge.engine_for((1, 3))
    result = compiled_yaql.evaluate(engine, text, context=_context((1, 3), None, None))
    assert result == expected and type(result) is type(expected)
