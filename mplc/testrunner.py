"""MuranoPL unit tests (``mplc test``, the pytest plugin): murano-test-runner's behaviour.

A package's tests are the methods named ``test...`` (``test`` not followed by a lower-case
letter) that classes extending ``io.murano.test.TestFixture`` declare themselves, in classes of
that package only. Each test runs as murano-test-runner runs it (murano/cmd/test_runner.py):
in a fresh executor whose code has the mocking functions (``inject``, ``withOriginal``), on a
new object of its class loaded from an empty model (its ``.init`` runs), then ``setUp`` if the
class has one, the test, and ``tearDown`` once the test passed. Outcomes: ``pass``; ``fail``
when an assertion failed (AssertionError, testtools' MismatchError; in ``setUp`` and
``tearDown`` too); ``error`` for any other exception, and for a test over its time limit.

Packages are compiled as for deploys (expression fast paths on, the same compiled code and
cache); ``withOriginal`` reads the variables the calling body keeps as Python locals through
its method's record (``MethodSpec.variable_names``).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import re
import signal
import threading
import time
import uuid

from mplc import versioning
from mplc.api import Runtime
from mplc.runtime.errors import MuranoError, MuranoPlException
from mplc.runtime.system.testing import mock_functions

TEST_FIXTURE = "io.murano.test.TestFixture"
TEST_NAME = re.compile(r"^test(?![a-z])")
ASSERTION_NAMES = frozenset(("AssertionError", "testtools.matchers._impl.MismatchError"))
OUTCOMES = ("pass", "fail", "error")
TRACEBACK_HEADER = "Traceback (most recent call last):"


class SelectionError(ValueError):
    """A test selection or ``-k`` expression that names nothing or does not parse (a usage error)."""


@dataclasses.dataclass(frozen=True)
class TestCase:
    __test__ = False  # not pytest's
    class_name: str
    method: str

    @property
    def name(self) -> str:
        return f"{self.class_name}.{self.method}"


@dataclasses.dataclass
class TestResult:
    """One test's outcome; ``traceback`` is the MuranoPL stack trace (YAML file and line of
    each frame) of a failure or error, as Murano's engine formats it."""

    __test__ = False  # not pytest's
    class_name: str
    method: str
    outcome: str
    error_type: str | None = None
    message: str | None = None
    seconds: float = 0.0
    traceback: str | None = None

    @property
    def name(self) -> str:
        return f"{self.class_name}.{self.method}"

    def as_json(self) -> dict:
        """A row of ``--json``: exactly the documented keys; ``message`` carries the MuranoPL
        stack trace after the message itself (a line ``Traceback (most recent call last):``,
        then the frames), as Murano's engine prints them."""
        message = self.message
        if self.traceback and TRACEBACK_HEADER in self.traceback:
            message = f"{message}\n{self.traceback[self.traceback.index(TRACEBACK_HEADER):]}"
        return {"class": self.class_name, "method": self.method, "outcome": self.outcome,
                "error_type": self.error_type, "message": message,
                "seconds": round(self.seconds, 6)}


class TestTimeout(BaseException):
    """Raised into a test that ran past ``--timeout`` (a BaseException: MuranoPL ``Catch``
    clauses, which take Python's ``Exception``, never swallow it)."""


def summary(results, seconds: float) -> dict:
    counts = {outcome: sum(1 for r in results if r.outcome == outcome) for outcome in OUTCOMES}
    return {"passed": counts["pass"], "failed": counts["fail"], "errors": counts["error"],
            "total": len(results), "seconds": round(seconds, 6)}


def summary_line(counts: dict) -> str:
    return (f"{counts['passed']} passed, {counts['failed']} failed, {counts['errors']} errors "
            f"in {counts['seconds']:.2f} s")


class TestSession:
    """The packages at ``paths`` compiled once; the tests of package ``package_name``
    (``name`` or ``name/version-spec``) found, selected and run."""

    __test__ = False  # not pytest's

    def __init__(self, paths, package_name: str, cache_dir: str | None = None,
                 default_format: str | None = None):
        self.paths = list(paths)
        self.package_name = package_name
        self.cache_dir = cache_dir
        self.default_format = default_format
        self.runtime = Runtime(self.paths, cache_dir=cache_dir, default_format=default_format)
        name, _, version = package_name.partition("/")
        self.runtime.require(package_names=[name])
        executor = self.runtime.executor
        with executor.active():
            spec = versioning.parse_requirement(version) if version else None
            self.package = executor.find_package(name, spec)
            self.tests = self._discover(executor)

    def _discover(self, executor) -> dict[str, list[str]]:
        """Test classes of the package (manifest order) -> their own test methods (as declared)."""
        package = self.package
        fixture = executor.find_class(TEST_FIXTURE)
        listed = list((package.spec.manifest.get("Classes") or {}) if isinstance(
            package.spec.manifest.get("Classes"), dict) else ())
        names = [n for n in listed if n in package.class_specs]
        names += sorted(n for n in package.class_specs if n not in names)
        tests = {}
        for class_name in names:
            murano_type = executor.type_of(package, class_name)
            if murano_type is fixture or not fixture.is_compatible(murano_type):
                continue
            tests[class_name] = [m for m in murano_type.methods if TEST_NAME.match(m)]
        return tests

    def select(self, selectors=(), keyword: str | None = None) -> list[TestCase]:
        """The tests ``selectors`` name (``Class.method``, ``Class``, or a method name of any
        class; a class by its full or its short name), all when none, then those whose
        ``Class.method`` matches the ``-k`` expression. A selector that names no test is a
        SelectionError."""
        every = [TestCase(c, m) for c, methods in self.tests.items() for m in methods]
        if selectors:
            chosen = set()
            for selector in selectors:
                found = _selected(every, self.tests, selector)
                if not found:
                    raise SelectionError(f"no test of {self.package.name} matches {selector!r}")
                chosen.update(found)
            every = [case for case in every if case in chosen]
        if keyword:
            matches = keyword_matcher(keyword)
            every = [case for case in every if matches(case.name)]
        return every

    def run(self, case: TestCase, timeout: float | None = None) -> TestResult:
        """Run one test as murano-test-runner does, in an executor of its own."""
        executor = self.runtime.new_executor(functions=mock_functions())
        started = time.perf_counter()
        stage = "setUp"
        try:
            with _time_limit(timeout), executor.active():
                murano_type = executor.class_version(case.class_name, None, self.package.name)
                version = str(self.package.version)
                test_object = executor.load({"?": {"id": uuid.uuid4().hex, "type": (
                    f"{case.class_name}/{version}@{self.package.name}")}})
                methods = murano_type.all_method_names()
                if "setUp" in methods:
                    executor.call(test_object, "setUp")
                stage = "test"
                executor.call(test_object, case.method)
                stage = "tearDown"
                if "tearDown" in methods:
                    executor.call(test_object, "tearDown")
            outcome = TestResult(case.class_name, case.method, "pass")
        except TestTimeout:
            outcome = TestResult(case.class_name, case.method, "error", "TimeoutError",
                                 f"the test ran longer than {timeout:g} s (in {stage})")
        except MuranoPlException as error:
            failed = any(str(name) in ASSERTION_NAMES for name in error.names)
            outcome = TestResult(case.class_name, case.method, "fail" if failed else "error",
                                 str(error.names[0]) if error.names else error.type_name,
                                 str(error.message), traceback=error.format())
        except MuranoError as error:
            outcome = TestResult(case.class_name, case.method, "error", error.type_name, str(error))
        except Exception as error:  # noqa: BLE001  (the engine reports a Python error alike)
            outcome = TestResult(case.class_name, case.method, "error", type(error).__name__,
                                 str(error))
        outcome.seconds = time.perf_counter() - started
        return outcome

    def run_all(self, cases, timeout: float | None = None, jobs: int = 1, report=None) -> list:
        """Every case's result, in order; ``jobs`` > 1 spreads them over that many processes
        (each test has its own executor either way, so outcomes do not change). ``report`` is
        called with each result as it comes."""
        cases = list(cases)
        if jobs <= 1 or len(cases) <= 1:
            results = []
            for case in cases:
                results.append(self.run(case, timeout))
                if report is not None:
                    report(results[-1])
            return results
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=min(jobs, len(cases)), mp_context=context, initializer=_start_worker,
                initargs=(self.paths, self.package_name, self.cache_dir, self.default_format)) as pool:
            results = []
            for result in pool.map(_run_in_worker, cases, [timeout] * len(cases)):
                results.append(result)
                if report is not None:
                    report(result)
            return results


def _selected(every, tests, selector: str) -> set:
    if "." not in selector:
        classes = _classes_named(tests, selector)
        return {case for case in every if case.method == selector or case.class_name in classes}
    classes = _classes_named(tests, selector)
    if classes:
        return {case for case in every if case.class_name in classes}
    class_part, _, method = selector.rpartition(".")
    classes = _classes_named(tests, class_part)
    return {case for case in every if case.class_name in classes and case.method == method}


def _classes_named(tests, name: str) -> set:
    if name in tests:
        return {name}
    return {class_name for class_name in tests if class_name.rpartition(".")[2] == name}


_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def keyword_matcher(expression: str):
    """pytest's ``-k``: words matched case-insensitively as substrings of a test's
    ``Class.method``, combined with ``and``, ``or``, ``not`` and parentheses."""
    tokens = _TOKEN.findall(expression)
    if not tokens or "".join(tokens) != re.sub(r"\s+", "", expression):
        raise SelectionError(f"-k: cannot read the expression {expression!r}")
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def either():
        terms = [both()]
        while peek() == "or":
            take()
            terms.append(both())
        return lambda name: any(term(name) for term in terms)

    def both():
        terms = [negation()]
        while peek() == "and":
            take()
            terms.append(negation())
        return lambda name: all(term(name) for term in terms)

    def negation():
        token = peek()
        if token == "not":
            take()
            inner = negation()
            return lambda name: not inner(name)
        if token == "(":
            take()
            inner = either()
            if peek() != ")":
                raise SelectionError(f"-k: missing ')' in {expression!r}")
            take()
            return inner
        if token is None or token in (")", "and", "or"):
            raise SelectionError(f"-k: expected a word in {expression!r}")
        word = take().lower()
        return lambda name: word in name.lower()

    matcher = either()
    if position != len(tokens):
        raise SelectionError(f"-k: unexpected {tokens[position]!r} in {expression!r}")
    return matcher


class _time_limit:
    """SIGALRM raises TestTimeout into the test after ``seconds`` (main thread only: elsewhere,
    and without a limit, nothing is armed)."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.armed = bool(seconds) and threading.current_thread() is threading.main_thread() \
            and hasattr(signal, "setitimer")

    def __enter__(self):
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc_info):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def _raise_timeout(signum, frame):
    raise TestTimeout()


_worker_session: TestSession | None = None


def _start_worker(paths, package_name, cache_dir, default_format):
    global _worker_session
    _worker_session = TestSession(paths, package_name, cache_dir, default_format)


def _run_in_worker(case, timeout):
    return _worker_session.run(case, timeout)
