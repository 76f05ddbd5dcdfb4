"""``mplc test`` and its pytest plugin: the outcomes Murano's test runner gives (outcomes.yaml,
recorded with it), inject in both forms, withOriginal, originalMethod, every assertion,
setUp/.init/tearDown order (the test package tests.runner checks those itself), selection, the
three output forms, the exit codes, parallel runs and time limits."""

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest
import yaml

from mplc import Runtime, cli
from mplc.testrunner import SelectionError, TestSession, keyword_matcher

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_PACKAGE = os.path.join(HERE, "data", "tests.runner")
HANG_PACKAGE = os.path.join(HERE, "data", "tests.hang")
with open(os.path.join(HERE, "outcomes.yaml"), encoding="utf-8") as _handle:
    OUTCOMES = yaml.safe_load(_handle)["packages"]
SUMMARY_LINE = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) errors in \d+\.\d\d s$", re.M)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def runner_session(cache_dir):
    """tests.runner on mplc's bundled core library."""
    return TestSession([RUNNER_PACKAGE], "tests.runner", cache_dir=cache_dir)


def _outcome_rows(session):
    return {result.name: {key: value for key, value in (
        ("outcome", result.outcome), ("error_type", result.error_type), ("message", result.message))
        if value is not None}
        for result in session.run_all(session.select())}


def _expected_rows(package):
    return {row["test"]: {key: value for key, value in row.items() if key != "test"}
            for row in OUTCOMES[package]}


@pytest.mark.parametrize("core", ["bundled", "murano"])
def test_outcomes_of_the_test_package_are_those_of_muranos_runner(core, murano_meta, cache_dir):
    paths = [RUNNER_PACKAGE] + ([os.path.join(murano_meta, "io.murano")] if core == "murano" else [])
    session = TestSession(paths, "tests.runner", cache_dir=cache_dir)
    assert _outcome_rows(session) == _expected_rows("tests.runner")


def test_io_murano_applications_tests_give_the_outcomes_of_muranos_runner(murano_meta, cache_dir):
    session = TestSession([os.path.join(murano_meta, "io.murano"),
                           os.path.join(murano_meta, "io.murano.applications")],
                          "io.murano.applications", cache_dir=cache_dir)
    assert _outcome_rows(session) == _expected_rows("io.murano.applications")


def _compiled_outputs(cache):
    return sorted(os.path.relpath(os.path.join(root, name), cache)
                  for root, names, _ in os.walk(cache) for name in names)


def test_test_runs_use_the_compiled_code_of_deploys(tmp_path):
    """A test session compiles nothing a deploy's Runtime has not compiled already (same code,
    fast paths on, same cache entries), and withOriginal still reads the calling code's
    variables (tests.runner.Mocks.testWithOriginal passes, in the outcomes tests)."""
    cache = str(tmp_path / "cache")
    Runtime([RUNNER_PACKAGE], cache_dir=cache).require(package_names=["tests.runner"])
    compiled = _compiled_outputs(cache)
    assert compiled
    session = TestSession([RUNNER_PACKAGE], "tests.runner", cache_dir=cache)
    assert _compiled_outputs(cache) == compiled
    (result,) = session.run_all(session.select(["Mocks.testWithOriginal"]))
    assert result.outcome == "pass", result.message


def test_failures_carry_the_muranopl_stack_trace_at_the_yaml_line(runner_session):
    (result,) = runner_session.run_all(runner_session.select(["Assertions.testAssertTrueFails"]))
    assert result.traceback.startswith("AssertionError: 0 is not true\nTraceback (most recent call last):\n")
    assert (f'File "{os.path.join(RUNNER_PACKAGE, "Classes", "Assertions.yaml")}", line 20:9 in method '
            f"testAssertTrueFails of type tests.runner.Assertions") in result.traceback


ORDER = ["tests.runner.Order.testRunsBetweenSetUpAndTearDown",
         "tests.runner.Order.testEachTestHasAFreshObject", "tests.runner.Order.testFailureSkipsTearDown"]
MOCKS_WITH_EXPRESSIONS = ["tests.runner.Mocks.testInjectExpression",
                          "tests.runner.Mocks.testInjectExpressionDollarIsTheFixture",
                          "tests.runner.Mocks.testInjectExpressionKeywordArgument"]


@pytest.mark.parametrize("selectors, keyword, expected", [
    (["tests.runner.Order"], None, ORDER),
    (["Order"], None, ORDER),
    (["tests.runner.Order.testEachTestHasAFreshObject"], None, ORDER[1:2]),
    (["Order.testEachTestHasAFreshObject"], None, ORDER[1:2]),
    (["test2"], None, ["tests.runner.Assertions.test2"]),
    (["testNeverRuns", "Order.testFailureSkipsTearDown"], None,
     ["tests.runner.BrokenSetUp.testNeverRuns", ORDER[2]]),
    ([], "InjectExpression", MOCKS_WITH_EXPRESSIONS),
    ([], "injectexpression and not keyword", MOCKS_WITH_EXPRESSIONS[:2]),
    ([], "broken or (order and fresh)", [ORDER[1], "tests.runner.BrokenSetUp.testNeverRuns",
                                         "tests.runner.BrokenTearDown.testPassesButTearDownFails"]),
    (["Order"], "skips", ORDER[2:]),
])
def test_selection(runner_session, selectors, keyword, expected):
    assert sorted(case.name for case in runner_session.select(selectors, keyword)) == sorted(expected)


def test_discovery_takes_test_methods_of_fixture_classes_only(runner_session):
    names = [case.name for case in runner_session.select()]
    assert len(names) == len(OUTCOMES["tests.runner"])
    assert "tests.runner.Assertions.testing" not in names  # test + lower-case letter
    assert not any(name.startswith("tests.runner.NotAFixture.") for name in names)


@pytest.mark.parametrize("selectors, keyword", [
    (["Nope"], None), (["Order.testNope"], None), (["tests.runner.NotAFixture.testNotCollected"], None),
    (["testing"], None), ([], "and"), ([], "(order"), ([], "order)"), ([], "not"),
])
def test_selection_naming_nothing_is_an_error(runner_session, selectors, keyword):
    with pytest.raises(SelectionError):
        runner_session.select(selectors, keyword)


def test_keyword_words_match_parts_of_the_name_case_insensitively():
    matches = keyword_matcher("order and not SKIPS")
    assert matches("tests.runner.Order.testEachTestHasAFreshObject")
    assert not matches("tests.runner.Order.testFailureSkipsTearDown")


def mplc_test(*arguments, cache_dir, cwd=None):
    """``mplc test`` in its own process (what a user runs)."""
    return subprocess.run([sys.executable, "-m", "mplc.cli", "test", "--cache-dir", cache_dir, *arguments],
                          capture_output=True, text=True, cwd=cwd)


class _Completed:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def mplc_test_here(capsys, cache_dir):
    """``mplc test`` through the CLI's entry point in this process (fast; not a terminal)."""
    def run(*arguments):
        capsys.readouterr()
        try:
            code = cli.main(["test", "--cache-dir", cache_dir, *arguments])
        except SystemExit as usage:  # argparse's usage errors
            code = usage.code
        captured = capsys.readouterr()
        return _Completed(code, captured.out, captured.err)
    return run


@pytest.mark.parametrize("arguments, exit_code", [
    (["--path", RUNNER_PACKAGE, "tests.runner", "Order.testRunsBetweenSetUpAndTearDown"], 0),
    (["--path", RUNNER_PACKAGE, "tests.runner", "-k", "fresh or between"], 0),
    (["--path", RUNNER_PACKAGE, "tests.runner", "Order"], 1),
    (["--path", RUNNER_PACKAGE, "tests.runner", "testThrowIsAnError"], 1),
    (["--path", RUNNER_PACKAGE, "tests.nothing"], 2),
    (["--path", RUNNER_PACKAGE, "tests.runner", "Order.testNope"], 2),
    (["--path", RUNNER_PACKAGE, "tests.runner", "-k", "(order"], 2),
    (["--path", RUNNER_PACKAGE, "tests.runner", "--timeout", "0"], 2),
    (["--path", RUNNER_PACKAGE, "tests.runner", "-j", "-1"], 2),
    (["--path", os.path.join(HERE, "missing"), "tests.runner"], 2),
    ([], 2),
])
def test_exit_codes(mplc_test_here, arguments, exit_code):
    completed = mplc_test_here(*arguments)
    assert completed.returncode == exit_code, completed.stdout + completed.stderr
    assert "Traceback (most recent call last)" not in completed.stderr


def test_human_output_is_pytest_like(cache_dir):
    completed = mplc_test("--path", RUNNER_PACKAGE, "tests.runner", "Order", "Assertions.test2",
                          cache_dir=cache_dir)
    lines = completed.stdout.splitlines()
    assert lines[:2] == ["tests.runner.Assertions .", "tests.runner.Order ..F"]
    assert "_ tests.runner.Order.testFailureSkipsTearDown _" in completed.stdout
    assert "MismatchError: [] != ['init', 'setUp']\nTraceback (most recent call last):\n" in completed.stdout
    assert ("FAILED tests.runner.Order.testFailureSkipsTearDown - "
            "testtools.matchers._impl.MismatchError: [] != ['init', 'setUp']") in lines
    assert SUMMARY_LINE.fullmatch(lines[-1]).groups() == ("3", "1", "0")


def test_json_document(mplc_test_here):
    completed = mplc_test_here("--path", RUNNER_PACKAGE, "tests.runner", "Assertions", "--json")
    document = json.loads(completed.stdout)
    assert set(document) == {"tests", "summary"}
    rows = {t["method"]: t for t in document["tests"]}
    assert all(set(t) == {"class", "method", "outcome", "error_type", "message", "seconds"}
               for t in document["tests"])
    failed = rows["testAssertInFails"]
    assert {key: failed[key] for key in ("class", "outcome", "error_type")} == {
        "class": "tests.runner.Assertions", "outcome": "fail",
        "error_type": "testtools.matchers._impl.MismatchError"}
    message, trace = failed["message"].split("\n", 1)
    assert message == "'c' not in ['a', 'b']"
    assert trace.startswith("Traceback (most recent call last):\n  File ")
    assert "Assertions.yaml\", line " in trace and "testAssertInFails of type tests.runner.Assertions" in trace
    assert rows["test2"]["message"] is None
    assert rows["test2"]["outcome"] == "pass" and rows["test2"]["error_type"] is None
    assert all(isinstance(t["seconds"], float) for t in document["tests"])
    summary = dict(document["summary"], seconds=None)
    assert summary == {"passed": 3, "failed": 5, "errors": 2, "total": 10, "seconds": None}
    assert completed.returncode == 1


def test_junit_xml(mplc_test_here, tmp_path):
    report = tmp_path / "report.xml"
    completed = mplc_test_here("--path", RUNNER_PACKAGE, "tests.runner", "Assertions", "BrokenSetUp",
                               "--junit-xml", str(report))
    assert SUMMARY_LINE.search(completed.stdout).groups() == ("3", "5", "3")
    (suite,) = ElementTree.parse(report).getroot()
    assert (suite.tag, suite.get("name"), suite.get("tests"), suite.get("failures"), suite.get("errors")) == (
        "testsuite", "tests.runner", "11", "5", "3")
    cases = {case.get("name"): case for case in suite}
    assert cases["test2"].get("classname") == "tests.runner.Assertions" and len(cases["test2"]) == 0
    (failure,) = cases["testAssertEqualFails"]
    assert (failure.tag, failure.get("type"), failure.get("message")) == (
        "failure", "testtools.matchers._impl.MismatchError", "[1, 2] != [1, 3]: lists differ")
    assert "Assertions.yaml\", line 17:9 in method testAssertEqualFails" in failure.text
    (error,) = cases["testNeverRuns"]
    assert (error.tag, error.get("type")) == ("error", "tests.runner.SetUpFailed")


def test_parallel_run_gives_the_same_outcomes(cache_dir):
    def outcomes(*extra):
        completed = mplc_test("--path", RUNNER_PACKAGE, "tests.runner", "--json", *extra, cache_dir=cache_dir)
        return [{key: value for key, value in row.items() if key != "seconds"}
                for row in json.loads(completed.stdout)["tests"]]
    assert outcomes("-j", "2") == outcomes()


def test_a_test_over_its_time_limit_is_an_error(mplc_test_here):
    completed = mplc_test_here("--path", HANG_PACKAGE, "tests.hang", "--timeout", "0.5", "--json")
    rows = {row["method"]: row for row in json.loads(completed.stdout)["tests"]}
    assert (rows["testLoopsForever"]["outcome"], rows["testLoopsForever"]["error_type"]) == ("error", "TimeoutError")
    assert rows["testQuick"]["outcome"] == "pass"
    assert completed.returncode == 1


def test_package_in_the_current_directory_by_default(cache_dir):
    completed = mplc_test("tests.runner", "test2", cache_dir=cache_dir, cwd=RUNNER_PACKAGE)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_pytest_plugin_collects_muranopl_tests_as_items(pytester, monkeypatch):
    # pytester gives the inner pytest a HOME of its own, so another user's build key: the
    # packages this module's other tests compiled are not trusted there (E-UNTRUSTED-BUILD)
    monkeypatch.setenv("MPLC_CACHE_DIR", str(pytester.path / "mplc-cache"))
    pytester.makeini("[pytest]\nmplc_packages = tests.runner\n")
    package = pytester.path / "tests.runner"
    package.mkdir()
    for name in ("manifest.yaml",):
        (package / name).write_text(open(os.path.join(RUNNER_PACKAGE, name), encoding="utf-8").read())
    (package / "Classes").mkdir()
    for name in os.listdir(os.path.join(RUNNER_PACKAGE, "Classes")):
        (package / "Classes" / name).write_text(
            open(os.path.join(RUNNER_PACKAGE, "Classes", name), encoding="utf-8").read())
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rf")
    expected = OUTCOMES["tests.runner"]
    failing = sum(1 for row in expected if row["outcome"] != "pass")
    result.assert_outcomes(passed=len(expected) - failing, failed=failing)
    result.stdout.fnmatch_lines([
        "FAILED tests.runner/manifest.yaml::tests.runner.Order::testFailureSkipsTearDown*"])


def test_the_readmes_example_tests_pass(mplc_test_here):
    examples = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples")
    completed = mplc_test_here("--path", os.path.join(examples, "hello"), "--path",
                               os.path.join(examples, "hello-tests"), "com.example.Hello.tests")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert SUMMARY_LINE.search(completed.stdout).groups() == ("3", "0", "0")
