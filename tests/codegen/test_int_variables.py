"""Which body variables ``int_variables`` finds certainly int: method body -> the set.

A variable wrongly in the set would skip a type guard and compute with Python's operators on
a non-int; ``tests/cases/expressions.yaml`` runs the same shapes against the reference's
results.
"""

import textwrap

import pytest

from mplc.codegen.int_variables import INLINE_BOUND_BITS, int_bit_bounds, int_variables
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages
from mplc.runtime import expressions as bridge

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


# Body -> the int variables whose size int_bit_bounds proves small (no bound test needed).
BOUND_CASES = [
    ("counter-and-sum", [INT_ARGUMENT],
     ["- $total: 0", "- $i: 1", "- While: $i <= $n", "  Do:", "    - $total: $total + $i * 2",
      "    - $i: $i + 1"], {"$total", "$i"}),
    ("range-variable-and-accumulator", [INT_ARGUMENT],
     ["- $sum: 0", "- For: i", "  In: range($n)", "  Do:", "    - $sum: $sum - $i mod 3 + $i"],
     {"$sum", "$i"}),
    ("range-from-an-argument", [INT_ARGUMENT],
     ["- For: i", "  In: range($n, 10)", "  Do:", "    - $x: $i + 1"], set()),
    ("doubling", [], ["- $x: 1", "- While: $x = $x", "  Do:", "    - $x: $x + $x"], set()),
    ("scaling", [], ["- $x: 1", "- While: $x = $x", "  Do:", "    - $x: $x * 3"], set()),
    ("mutual-growth", [],
     ["- $a: 1", "- $b: 1", "- While: $a > 0", "  Do:", "    - $c: $a + $b", "    - $a: $b", "    - $b: $c"],
     set()),
    ("product-of-counters", [],
     ["- $i: 0", "- $j: 0", "- $p: 0", "- While: $i >= 0", "  Do:", "    - $i: $i + 1", "    - $j: $j + 2",
      "    - $p: $i * $j - 1"], {"$i", "$j", "$p"}),
    ("huge-constant", [], ["- $x: " + str(2 ** 5000)], set()),
    ("accumulating-a-square", [],
     ["- $i: 0", "- $s: 0", "- While: $i >= 0", "  Do:", "    - $i: $i + 1", "    - $s: $s + $i * $i"],
     {"$i", "$s"}),
]


def _method(arguments, body, tmp_path):
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
    return method


@pytest.mark.parametrize("arguments, body, expected", [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_int_variables(arguments, body, expected, tmp_path):
    assert int_variables(_method(arguments, body, tmp_path)) == frozenset(expected)


@pytest.mark.parametrize("arguments, body, expected", [case[1:] for case in BOUND_CASES],
                         ids=[case[0] for case in BOUND_CASES])
def test_int_bit_bounds(arguments, body, expected, tmp_path):
    method = _method(arguments, body, tmp_path)
    bounds = int_bit_bounds(method, int_variables(method))
    assert set(bounds) == expected
    assert all(bits < INLINE_BOUND_BITS for bits in bounds.values())


def test_inline_bound_is_the_runtime_bound():
    assert 1 << INLINE_BOUND_BITS == bridge.SMALL_INT
