"""A query site remembers, per parent of a method body's call context, that nothing between it
and yaql's library defines the query's name; another parent, or a layer defining the name, is
asked again."""

import pytest
from yaql.language import specs

from mplc.runtime import expressions as bridge, fast_paths as fast, library
from mplc.runtime.executor import call_context_of, child_context


@specs.name("select")
def _own_select(receiver):
    return receiver


def _parents():
    root = library.root_context((1, 3))
    plain = child_context(root, {})
    defining = child_context(root, {})
    defining.register_function(_own_select)
    return {"plain": plain, "defining": defining, "below-defining": child_context(defining, {})}


@pytest.mark.parametrize("calls, answers", [
    (("plain", "plain", "defining", "plain"), (True, True, False, True)),
    (("defining", "plain", "below-defining", "plain"), (False, True, False, True)),
    (("plain", "lambda-of-defining", "plain"), (True, False, True)),
])
def test_query_site_asks_again_for_another_parent(calls, answers):
    parents = _parents()
    site = fast.MethodCall("select", None, (None,), True)
    contexts = {name: call_context_of(parent, {}) for name, parent in parents.items()}
    contexts["lambda-of-defining"] = child_context(parents["defining"], {})  # no call context: walked
    assert tuple(site.library(contexts[name]) for name in calls) == answers
