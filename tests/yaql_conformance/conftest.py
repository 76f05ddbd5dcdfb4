"""Run yaql's own test suite (``yaql/tests`` in the installed wheel) against mplc's expression
compiler: ``TestCase.eval`` and ``legacy_eval`` evaluate through compiled code."""

import pytest
import yaql.tests

import compiled_yaql


def _eval(self, expression, data=None, context=None):
    context = context or self.context
    context["data"] = data
    return compiled_yaql.evaluate(self.engine, expression, data, context)


def _legacy_eval(self, expression, data=None, context=None):
    return compiled_yaql.evaluate(self.legacy_engine, expression, data, context or self.legacy_context,
                                  legacy=True)


def _legacy_eval_new_engine(self, expression, data=None, context=None):
    return compiled_yaql.evaluate(self.engine, expression, data, context or self.legacy_context,
                                  legacy=True)


@pytest.fixture(autouse=True)
def compiled_evaluation(monkeypatch):
    monkeypatch.setattr(yaql.tests.TestCase, "eval", _eval)
    monkeypatch.setattr(yaql.tests.TestCase, "legacy_eval", _legacy_eval)
    monkeypatch.setattr(yaql.tests.TestCase, "legacy_eval_new_engine", _legacy_eval_new_engine)


SKIPPED_ARGUMENT = ("a skipped argument (f(,,1)) parses to yaql's NO_VALUE marker, which the "
                    "front end's tree converter has no IR node for")
INSPECTS_FUNCTION_NODE = ("yaqlized objects' '.' reads the parsed Function node (expr.name, "
                          "expr.args): yaql engine internals compiled code does not keep")
NEEDS_ENGINE_INTERNALS = {
    **{f"TestYaqlization::{name}": INSPECTS_FUNCTION_NODE for name in (
        "test_auto_yaqlization", "test_method_call_blacklist_callable",
        "test_method_call_blacklist_regexp", "test_method_call_blacklist_string",
        "test_method_call_whitelist_callable", "test_method_call_whitelist_regexp",
        "test_method_call_whitelist_string", "test_method_call_yaqlized_class",
        "test_method_call_yaqlized_object")},
}


def pytest_collection_modifyitems(items):
    """Tests that need yaql engine internals are expected to fail (strictly: a pass is news)."""
    for item in items:
        reason = NEEDS_ENGINE_INTERNALS.get(f"{item.parent.name}::{item.name}")
        if reason is not None and "yaql_conformance" in str(item.fspath):
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
