"""Parallel as green threads over a compiled package (tests/runtime/data/parallel): sleep()
really waits while the other branches run, Limit, and method locks (orders checked with the
reference: a method locks on its object even without the Synchronize meta)."""

import os
import time

import pytest

import mplc

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "parallel")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("parallel-cache"))


def run(cache_dir, method):
    runtime = mplc.Runtime([PACKAGE], cache_dir=cache_dir, trace=True)
    root = runtime.load({"?": {"id": "s", "type": "com.example.parallel.Sleepers"}})
    started = time.monotonic()
    runtime.call(root, method)
    return runtime.traces, time.monotonic() - started


def test_sleeping_branches_wait_together(cache_dir):
    """Naps of 0.5 s and 0.3 s take 0.8 s one after the other; together, the longer one's 0.5 s
    (the bound leaves 0.25 s for the rest of the call, on a loaded machine)."""
    traces, elapsed = run(cache_dir, "sleepers")
    assert traces == ["slow starts", "fast starts", "fast ends", "slow ends"]
    assert 0.5 <= elapsed < 0.75


def test_limit_runs_one_branch_at_a_time(cache_dir):
    traces, elapsed = run(cache_dir, "limited")
    assert traces == ["first starts", "first ends", "second starts", "second ends"]
    assert elapsed >= 0.1


@pytest.mark.parametrize("method, expected", [
    ("unsynchronized", ["a in", "b in", "a out", "b out"]),
    ("sameObject", ["a in", "a out", "b in", "b out"]),
    ("synchronized", ["a in", "a out", "b in", "b out"]),
])
def test_synchronize_serialises_calls_on_this(cache_dir, method, expected):
    assert run(cache_dir, method)[0] == expected


def test_synchronize_on_arguments_serialises_equal_values_only(cache_dir):
    """a and b lock key x, c key y, and each then calls step on the same object: b waits for
    a's argumentStep, c only for a's step."""
    assert run(cache_dir, "onArguments")[0] == ["a in", "a out", "c in", "c out", "b in", "b out"]


@pytest.mark.parametrize("method", ["sameObject", "synchronized", "onArguments"])
def test_method_locks_are_forgotten_once_released(cache_dir, method):
    runtime = mplc.Runtime([PACKAGE], cache_dir=cache_dir, trace=True)
    root = runtime.load({"?": {"id": "s", "type": "com.example.parallel.Sleepers"}})
    runtime.call(root, method)
    assert runtime.executor._locks == {}
