"""The conformance run really evaluates through compiled code."""

import yaql.tests.test_math

import compiled_yaql


def test_yaql_test_case_evaluates_compiled_code():
    compiled_yaql._compiled.clear()
    result = yaql.tests.test_math.TestMath("test_binary_plus_int").run()
    assert result.wasSuccessful()
    assert [text for _, text, _, _ in compiled_yaql._compiled] == ["2 + 3"]
