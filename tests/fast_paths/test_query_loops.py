"""Assumptions the generated query loops rest on, checked against the runtime they run in."""

from mplc.codegen.body_locals import RANGE_ITEM_BITS
from mplc.runtime import expressions as bridge, fast_paths as fast


def test_range_items_of_a_loop_fit_their_bits():
    """Loops over ``range(n)`` compute with ``$`` as an int below 2**RANGE_ITEM_BITS: the
    runtime runs them only under iterator limits that keep it there."""
    assert 0 <= bridge.ITERATORS_LIMIT < 2 ** RANGE_ITEM_BITS
    engine = bridge.engine_for((1, 3))
    assert fast._LOOPS_APPLY[engine]


def test_loops_keep_the_bridge_without_an_iterator_limit():
    unlimited = bridge.engine_for((1, 3)).copy({"yaql.limitIterators": -1})
    assert not fast._LOOPS_APPLY[unlimited]
