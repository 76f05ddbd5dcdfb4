"""Which body variables ``int_variables`` finds certainly int: method body -> the set.

A variable wrongly in the set would skip a type guard and compute with Python's operators on
a non-int; ``tests/cases/int_variables.yaml`` runs the same shapes against the reference's
results.
"""

import textwrap

import pytest

from mplc.codegen.int_variables import int_variables
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages

INT_ARGUMENT = "- n: {Contract: $.int().notNull()}"

CASES = [
    ("int-argument-may-be-a-literal-null", [INT_ARGUMENT], ["- Return: $n + 1"], set()),
    ("int-argument-with-check", ["- n: {Contract: $.int().notNull().check($ > 0)}"],
     ["- Return: $n"], set()),
    ("nullable-int-argument", ["- n: {Contract: $.int()}"], ["- Return: $n"], set()),
    ("string-argument", ["- n: {Contract: $.string().notNull()}"], ["- Return: $n"], set()),
    ("argument-with-any-contract", ["- n: {Contract: $}"], ["- Return: $n"], set()),
    ("counter", [INT_ARGUMENT],
     ["- $total: 0", "- $i: 1", "- While: $i <= $n", "  Do:", "    - $total: $total + $i * 2",
      "    - $i: $i + 1", "- Return: $total"], {"$total", "$i"}),
    ("argument-reassigned-a-string", [INT_ARGUMENT], ["- $n: abc", "- Return: $n"], set()),
    ("assigned-in-a-branch-first", [],
     ["- If: true", "  Then:", "    - $x: 1", "- $y: $x + 1", "- Return: $y"], set()),
    ("read-before-assignment", [], ["- $y: $x", "- $x: 1", "- Return: $y"], set()),
    ("self-reading-first-assignment", [], ["- $x: $x + 1", "- Return: $x"], set()),
    ("later-non-int-assignment", [],
     ["- $x: 1", "- If: true", "  Then:", "    - $x: [1]", "- Return: $x"], set()),
    ("depends-on-non-int", [], ["- $x: 1", "- $y: 2", "- $x: $y", "- $y: abc", "- Return: $x"],
     set()),
    ("division-is-not-int", [], ["- $x: 4", "- $x: $x / 2", "- Return: $x"], set()),
    ("keyed-assignment", [], ["- $x: 1", "- $x[0]: 2", "- Return: $x"], set()),
    ("bool-literal", [], ["- $x: true", "- Return: $x"], set()),
    ("for-over-range", [INT_ARGUMENT],
     ["- $sum: 0", "- For: i", "  In: range($n)", "  Do:", "    - $sum: $sum + $i mod 3",
      "- Return: $sum"], {"$sum", "$i"}),
    ("for-variable-read-after-loop", [INT_ARGUMENT],
     ["- For: i", "  In: range($n)", "  Do: []", "- Return: $i"], set()),
    ("for-over-list", [],
     ["- $sum: 0", "- For: i", "  In: [1, 2]", "  Do:", "    - $sum: $sum + $i", "- Return: $sum"],
     set()),
    ("catch-as", [],
     ["- $e: 1", "- Try:", "    - Throw: x", "  Catch:", "    - As: e", "      Do: []",
      "- Return: $e"], set()),
    ("parallel-body", [INT_ARGUMENT],
     ["- $x: 1", "- Parallel:", "    - $x: 2", "- Return: $x + $n"], set()),
]


@pytest.mark.parametrize("arguments, body, expected", [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_int_variables(arguments, body, expected, tmp_path):
    (tmp_path / "Classes").mkdir()
    (tmp_path / "manifest.yaml").write_text(textwrap.dedent("""\
        Format: MuranoPL/1.4
        Type: Library
        FullName: test.ints
        Classes:
          test.ints.Test: Test.yaml
        """))
    lines = ["Namespaces:", "  =: test.ints", "Name: Test", "Methods:", "  run:"]
    if arguments:
        lines += ["    Arguments:"] + ["      " + line for line in arguments]
    lines += ["    Body:"] + ["      " + line for line in body]
    (tmp_path / "Classes" / "Test.yaml").write_text("\n".join(lines) + "\n")
    sink = DiagnosticSink()
    (package,) = load_packages([str(tmp_path)], sink)
    assert not sink.has_errors, sink.diagnostics
    (test_class,) = package.classes
    (method,) = test_class.methods
    assert int_variables(method) == frozenset(expected)
