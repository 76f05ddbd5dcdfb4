"""Every resource bounded (SECURITY.md): each hostile method fails with its MuranoPL error
before it builds what would exhaust the host, and a run that loops, sleeps or recurses stops
at its time limit naming the limit and the YAML line, with the model still serialized.

All cases run in one rlimited subprocess (2 GiB of address space, 60 s of CPU): a limit that
did not hold fails its case by a MemoryError, or the whole table by the time limit."""

import json
import re

import pytest

from mplc.runtime.limits import TimeBudget, TimeLimitError, TimeLimitExceeded

MAIN = "com.example.hostile.Main"
QUOTA = "MemoryQuotaExceededException"
TOO_LARGE = "ResourceTooLarge"

# (case, method body, arguments (--args), error type, message part or None for a result)
MEMORY = [
    ("format-width", ["- Return: format('{0:>3000000000}', 1)"], [], QUOTA),
    ("format-precision", ["- Return: format('{0:.900000000f}', 1.5)"], [], QUOTA),
    ("format-nested-width", ["- Return: format('{0:{1}}', 1, 3000000000)"], [], QUOTA),
    ("format-method", ["- $f: '{0:>3000000000}'", "- Return: $f.format(1)"], [], QUOTA),
    ("format-many-fields", ["- $s: str(x) * 400000", "- Return: format('{0}{0}{0}{0}{0}{0}{0}{0}', $s)"],
     [], QUOTA),
    ("pow", ["- Return: pow(2, 10000000000)"], [], QUOTA),
    ("pow-modular", ["- $m: pow(7, 300000)", "- Return: pow(3, $m, $m + 2)"], [], QUOTA),
    ("pow-in-arithmetic", ["- Return: 2 * pow(3, 100000000) + 1"], [], QUOTA),
    ("string-repeat", ["- Return: str(ab) * 1000000000"], [], QUOTA),
    ("string-repeat-argument", ["- Return: str(ab) * $n"], [1000000000], QUOTA),
    ("list-repeat", ["- Return: list(1, 2) * 1000000000"], [], QUOTA),
    ("int-by-list", ["- Return: 1000000000 * list(1, 2)"], [], QUOTA),
    ("join-long-strings", ["- $s: str(x) * 400000", "- Return: range(2000).select($s).join('')"], [], QUOTA),
    ("join-function", ["- $s: str(x) * 400000", "- $sep: ''", "- Return: $sep.join(range(2000).select($s))"], [], QUOTA),
    ("replace-growth", ["- $s: str(a) * 400000", "- Return: $s.replace(a, $s)"], [], QUOTA),
    ("str-of-shared-list", ["- $s: str(x) * 400000", "- Return: str(list(range(1500).select($s)))"], [], QUOTA),
    ("str-of-huge-int", ["- Return: str(pow(10, 100000))"], [], "ValueError"),
    ("range-growth", ["- Return: list(range(100000000))"], [], "CollectionTooLargeException"),
    ("legacy-range-growth", ["- Return: range(0, 1000000000000)"], [], QUOTA),
    ("legacy-range-of-huge-ints", ["- Return: range(0, pow(2, 200))"], [], QUOTA),
    ("list-doubling", ["- $l: list(1, 2, 3, 4, 5, 6, 7, 8)", "- For: i", "  In: range(40)", "  Do:",
                       "    - $l: $l + $l", "- Return: len($l)"], [], "CollectionTooLargeException"),
    ("resource-yaml-alias-bomb", ["- Return: len(str(sys:Resources.yaml('bomb.yaml')))"], [], TOO_LARGE),
    ("resource-yaml-depth", ["- Return: sys:Resources.yaml('deep.yaml')"], [], TOO_LARGE),
    ("resource-json-depth", ["- Return: sys:Resources.json('deep.json')"], [], TOO_LARGE),
    ("resource-json-shallow-depth", ["- Return: sys:Resources.json('deep300.json')"], [], TOO_LARGE),
    ("resource-size", ["- Return: len(sys:Resources.string('huge.txt'))"], [], TOO_LARGE),
]

# cases that must work: the limits leave ordinary values alone
ORDINARY = [
    ("format-ordinary", ["- Return: format('{0:>8}|{1:.3f}|{2}', 1, 2.5, abc)"], [], "       1|2.500|abc"),
    ("pow-ordinary", ["- Return: pow(2, 100)"], [], 2 ** 100),
    ("pow-modular-ordinary", ["- Return: pow(3, 1000, 7)"], [], pow(3, 1000, 7)),
    ("join-ordinary", ["- Return: range(3).select(str($)).join(',')"], [], "0,1,2"),
    ("legacy-range-ordinary", ["- Return: range(2, 5)"], [], [2, 3, 4]),
    ("resource-yaml-aliases", ["- Return: sys:Resources.yaml('aliases.yaml')"], [], {"a": [1, 2], "b": [1, 2]}),
    ("dict-key-by-key", ["- $d: {}", "- $i: 0", "- While: $i < $n", "  Do:", "    - $d[str($i)]: $i",
                         "    - $i: $i + 1", "- Return: len($d)"], [20000], 20000),
    ("dict-copies-stay-apart", ["- $d: {a: 1}", "- $e: $d", "- $d[b]: 2", "- $d.c: 3",
                                "- Return: [$d, $e]"], [], [{"a": 1, "b": 2, "c": 3}, {"a": 1}]),
]

TIMEOUT = 1.5
# (case, method body, what the run leaves in the model)
TIME = [
    ("while-loop", ["- $.progress: started", "- While: 1 = 1", "  Do:", "    - $spin: 1"]),
    ("sleep", ["- $.progress: started", "- sleep(1000000000)"]),
    ("recursion", ["- $.progress: started", "- sleep(0.01)", "- $this.run()"]),
    ("parallel-sleeps", ["- $.progress: started", "- Parallel:", "    - sleep(1000000000)",
                         "    - While: 1 = 1", "      Do:", "        - $spin: 1"]),
    ("catch-all-and-finally", ["- $.progress: started", "- Try:", "    - While: 1 = 1",
                               "      Do:", "        - $spin: 1",
                               "  Catch:", "    - Do:", "        - $.progress: caught",
                               "  Finally:", "    - While: 1 = 1", "      Do:", "        - $spin: 2"]),
]

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8))
RESOURCES = {
    "bomb.yaml": BOMB,
    "deep.yaml": "[" * 5000 + "]" * 5000,
    "deep.json": "[" * 100000 + "]" * 100000,
    "deep300.json": "[" * 300 + "]" * 300,
    "huge.txt": "x" * (32 * 1024 * 1024 + 1),
    "aliases.yaml": "a: &a [1, 2]\nb: *a\n",
}


def _package(sandbox, name, body):
    """Cases named legacy-... are Format 1.0 packages."""
    package = sandbox.package(name, body=body, resources=RESOURCES if name.startswith("resource") else None,
                              format_version="1.0" if name.startswith("legacy-") else "1.3")
    main = package / "Classes" / "Main.yaml"
    main.write_text(main.read_text().replace("Methods:", "Properties:\n  progress:\n    Contract: "
                                             "$.string()\n    Usage: InOut\nMethods:"))
    return package


@pytest.fixture(scope="module")
def exhausted(sandbox):
    """Every case in one batch: {case: (package, result)}."""
    before = sandbox.outside_state()
    packages, commands = {}, {}
    for case, body, arguments, _ in MEMORY + ORDINARY:
        packages[case] = package = _package(sandbox, case, body)
        argument_list = ["--args", json.dumps(arguments)] if arguments else []
        if arguments:
            text = (package / "Classes" / "Main.yaml").read_text()
            (package / "Classes" / "Main.yaml").write_text(text.replace(
                "  run:\n", "  run:\n    Arguments:\n      - n:\n          Contract: $.int()\n"))
        commands[case] = [{"argv": ["run", "--path", str(package), "--model", MAIN, "--method", "run",
                                    *argument_list]}]
    for case, body in TIME:
        packages[case] = package = _package(sandbox, case, body)
        commands[case] = [{"argv": ["run", "--path", str(package), "--model", MAIN, "--method", "run",
                                    "--timeout", str(TIMEOUT)]}]
    results = sandbox.batch(commands)
    yield {case: (packages[case], results[case][0]) for case in packages}
    assert sandbox.outside_state() == before


@pytest.mark.parametrize("case, error_type", [(case, error_type) for case, _, _, error_type in MEMORY],
                         ids=[case for case, *_ in MEMORY])
def test_exhaustion_fails_before_the_value_is_built(case, error_type, exhausted):
    _, run = exhausted[case]
    assert run["returncode"] == 1, run["stderr"]
    error = json.loads(run["stdout"])["error"]
    assert error["type"] == error_type, error


@pytest.mark.parametrize("case, expected", [(case, expected) for case, _, _, expected in ORDINARY],
                         ids=[case for case, *_ in ORDINARY])
def test_ordinary_values_pass_the_limits(case, expected, exhausted):
    _, run = exhausted[case]
    assert run["returncode"] == 0, run["stdout"][-2000:] + run["stderr"]
    assert json.loads(run["stdout"])["result"] == expected


@pytest.mark.parametrize("case", [case for case, _ in TIME])
def test_a_run_out_of_time_stops_naming_the_limit_and_line_and_keeps_the_model(case, exhausted):
    package, run = exhausted[case]
    assert run["returncode"] == 1, run["stderr"]
    output = json.loads(run["stdout"])
    error = output["error"]
    assert error["type"] == "TimeLimitExceeded"
    main = package / "Classes" / "Main.yaml"
    found = re.fullmatch(rf"the run took longer than its time limit \(--timeout\) of {TIMEOUT:g} seconds; "
                         rf"stopped at {re.escape(str(main))}:(\d+)", error["message"])
    assert found, error["message"]
    lines = main.read_text().splitlines()
    body_start = lines.index("  run:")
    assert body_start < int(found.group(1)) <= len(lines)
    assert output["model"]["Objects"]["progress"] in ("started", "caught")


def _stop():
    raise TimeLimitExceeded()


def _stopped_then_stopped_again_on_the_way_out(body):
    try:
        body(_stop)
    finally:
        raise TimeLimitExceeded()  # as a watchdog refire landing in a handler past the YAML frame


def test_a_stop_replaced_on_the_way_out_keeps_the_yaml_line_it_was_at():
    """A second TimeLimitExceeded raised in a handler above the compiled frame (no YAML frame in
    its traceback) replaces the first: the stop is still reported at the first one's line."""
    compiled = {}
    exec(compile("def body(stop):\n    stop()\n", "Main.yaml", "exec"), compiled)
    with pytest.raises(TimeLimitError, match=r"of 3600 seconds; stopped at Main\.yaml:2$"):
        with TimeBudget(3600, "the test's limit"):
            _stopped_then_stopped_again_on_the_way_out(compiled["body"])
