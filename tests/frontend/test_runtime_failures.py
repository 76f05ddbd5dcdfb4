"""Statements the reference reads when it loads the class but that fail when they run: a warning
at compile time, then, when the statement runs, the reference's error (after what ran before it),
and nothing at all while it does not run."""

import pytest

import mplc
from mplc.runtime.errors import MuranoError

CASES = [
    # (statements of run, warning code, error type, message part, traces before the error)
    ("- $: trace(5)", "W-ASSIGNMENT-TARGET", "ValueError", "Cannot assign to $", [5]),
    ("- $this: 1", "W-ASSIGNMENT-TARGET", "ValueError", "Cannot assign to $this", []),
    ("- len($x): trace(5)", "W-ASSIGNMENT-TARGET", "NoFunctionRegisteredException",
     'Unknown function "len"', [5]),
    ("- $x.len(): 1", "W-ASSIGNMENT-TARGET", "NoMatchingFunctionException",
     'No function "#operator_." matches', []),
    ("- type($this).counter: 1", "W-ASSIGNMENT-TARGET", "NoMatchingFunctionException",
     'No function "type" matches', []),
    ("- :Test: 1", "W-ASSIGNMENT-TARGET", "InvalidLhsTargetError",
     'Invalid assignment target ":Test"', []),
    ("- (1).a: 1", "W-ASSIGNMENT-TARGET", "NoMatchingFunctionException",
     'No function "#operator_." matches', []),
    ("- Break:", "W-OUTSIDE-LOOP", "DslInvalidOperationError",
     "Break cannot be used on method level", []),
    ("- Continue:", "W-OUTSIDE-LOOP", "DslInvalidOperationError",
     "Continue cannot be used on method level", []),
    ("- Return: nope:Thing", "W-UNKNOWN-NAMESPACE", "KeyError", "Unknown namespace prefix nope",
     []),
    ("- Throw: [E, 5]", "W-THROW-NAME", "ValueError", 'Invalid type name "5"', []),
    ("- Match: {1: [Break: 1], 2: [trace(2)]}\n  Value: 1", "W-CONSTRUCT-VALUE",
     "DslSyntaxError", "Break cannot have value", []),
    ("- Switch: {true: [trace(3), {For: $i, In: [], Do: []}]}", "W-CONSTRUCT-VALUE",
     "DslSyntaxError", "For value must be of string type", []),
    ("- Switch: {true: [trace(3), Retrun: 1]}", "W-UNKNOWN-KEY", "SyntaxError",
     "Syntax is incorrect in expression: {'Retrun': 1}", []),
    ("- Match: {1: [{$x: 1, $y: 2}]}\n  Value: 1", "W-ASSIGNMENT-KEYS", "SyntaxError", "",
     []),
]


def runtime_for(tmp_path, statements: str) -> mplc.Runtime:
    body = "\n".join("      " + line for line in f"- trace(1)\n{statements}".splitlines())
    (tmp_path / "Test.yaml").write_text(
        "Name: Test\nMethods:\n  run:\n    Body:\n" + body + "\n      - trace(2)\n"
        "  other:\n    Body:\n      - Return: 7\n")
    return mplc.Runtime([str(tmp_path)], cache_dir=str(tmp_path / "cache"),
                        default_format="1.3", trace=True)


@pytest.mark.parametrize("statements, code, error_type, message, traces", CASES)
def test_fails_when_it_runs(tmp_path, statements, code, error_type, message, traces):
    runtime = runtime_for(tmp_path, statements)
    assert [d.code for d in runtime.warnings] == [code]
    obj = runtime.load({"?": {"type": "Test", "id": "root"}})
    assert runtime.call(obj, "other") == 7
    with pytest.raises(MuranoError) as raised:
        runtime.call(obj, "run")
    assert raised.value.type_name == error_type
    assert message in str(raised.value)
    assert runtime.render(runtime.traces) == [1] + traces


def test_match_case_that_does_not_run_is_harmless(tmp_path):
    runtime = runtime_for(tmp_path, "- Match: {1: [Break: 1], 2: [trace(2)]}\n  Value: 2")
    obj = runtime.load({"?": {"type": "Test", "id": "root"}})
    runtime.call(obj, "run")
    assert runtime.render(runtime.traces) == [1, 2, 2]
