"""Which query lambdas ``FastPaths.context_free`` lets run as item functions (``$`` a parameter,
no per-item context): yaql text -> whether it qualifies.

A lambda wrongly admitted would hand a lazy argument or a method call the parent context, where
``$`` is not the item; ``tests/cases/expressions.yaml`` runs both kinds against the reference's
results and ``tests/fast_paths/test_differential.py`` against plain yaql.
"""

import pytest

from mplc import ir
from mplc.codegen.expressions import ModuleBuilder
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.yaql_syntax import ExpressionBuilder
from mplc.runtime import expressions as bridge

POS = ir.Pos("<test>", 1, 1, 1, 1)

CASES = [
    ("$", True), ("$ * 2 + $k", True), ("$.name", True), ("[$.name, $.weight]", True),
    ("dict(id => $, name => format('item-{0}', $))", True), ("dict($)", True), ("len($)", True),
    ("$.a > 1 and $.b", True), ("not $ in $list", True), ("$[0]", True), ("range($)", True),
    ("-$ mod 3", True), ("$ = null", True),
    ("$.method()", False), ("$.items.select($ * 2)", False), ("let(x => $) -> $x", False),
    ("new(Foo, value => $)", False), ("str($)", True), ("$ + 'a'", True),
    ("concat('a', str($))", True), ("concat()", False), ("range(0, $)", True), ("str($, 1)", False), ("null + $", False),
    ("$a and let(x => 1) -> $x", False), ("format(f => $)", False), ("dict($, $)", False),
    ("$?.name", False),
]


@pytest.mark.parametrize("text, expected", CASES, ids=[case[0] for case in CASES])
def test_context_free(text, expected):
    engine = bridge.engine_for((1, 4))
    tree = ExpressionBuilder(lambda written, pos: ir.TypeName(pos, written, written), DiagnosticSink()).tree(
        engine(text).expression, POS)
    assert ModuleBuilder(fast_paths=True).fast.context_free(tree) is expected
