"""Scripted agent answers (``agentResults`` of ``mplc run --cloud``), through ``mplc run``.

Expected answers: the reference engine deploying the same model with its agent answering from
the same file (verified with the comparison driver's fakes)."""

import json
import os
import subprocess
import sys

import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
APPS = os.path.join(DATA, "agent_answers")
MODEL = os.path.join(DATA, "agent_answers_environment.json")
CLOUD = os.path.join(DATA, "agent_answers_cloud.json")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def mplc_run(cloud, cache_dir):
    env = dict(os.environ, MPLC_CACHE_DIR=str(cache_dir))
    return subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", APPS, "--model", MODEL,
         "--cloud", str(cloud)], capture_output=True, text=True, env=env)


def answers(completed):
    assert completed.returncode == 0, completed.stdout + completed.stderr
    output = json.loads(completed.stdout)
    return output["model"]["Objects"]["applications"][0]["answers"], output["cloud"]["agentPlans"]


def test_rules_answer_by_plan_name_and_host_in_order(cache_dir):
    """First matching rule answers: by host's ``name`` property (alpha) or object id (second-*);
    ``results`` one per call (across hosts) then falls through; ``send`` consumes nothing; an
    unmatched plan answers null; a runCommand answer's ``.stdout`` is read by the core library."""
    got, plans = answers(mplc_run(CLOUD, cache_dir))
    assert got == ["red", 1, 2, None, {"rgb": [0, 0, 255]}, 3, "fallback", "alpha.local\n"]
    assert [(plan["host"], plan["wait"]) for plan in plans][:4] == [
        ("first-vm", True), ("first-vm", True), ("first-vm", False), ("first-vm", True)]


def test_a_cloud_file_with_stacks_only_answers_null(tmp_path, cache_dir):
    cloud = tmp_path / "cloud.json"
    cloud.write_text('{"stacks": {}}')
    completed = mplc_run(cloud, cache_dir)
    output = json.loads(completed.stdout)
    assert output["error"]["message"].endswith('Unknown function "#property#stdout"')
    assert output["model"]["Objects"]["applications"][0]["answers"] == [None] * 7


def test_answers_in_a_previous_runs_cloud_object(tmp_path, cache_dir):
    cloud = tmp_path / "previous.json"
    with open(CLOUD) as handle:
        cloud.write_text(json.dumps({"result": None, "cloud": {"stacks": {}, **json.load(handle)}}))
    assert answers(mplc_run(cloud, cache_dir))[0][0] == "red"


@pytest.mark.parametrize("rules, message", [
    ('{"plan": "x", "result": 1}', "'agentResults' must be a list of rules"),
    ('[7]', "agentResults[0] must be an object with plan, host, and result or results"),
    ('[{"result": 1}, {"plan": "x"}]', "agentResults[1]: give exactly one of 'result' and 'results'"),
    ('[{"result": 1, "results": [1]}]', "agentResults[0]: give exactly one of 'result' and 'results'"),
    ('[{"plan": "x", "reslt": 1}]', "agentResults[0]: unknown key 'reslt'"),
    ('[{"host": 3, "result": 1}]', "agentResults[0]: 'host' must be a string (a glob pattern)"),
    ('[{"plan": ["x"], "result": 1}]', "agentResults[0]: 'plan' must be a string (a glob pattern)"),
    ('[{"results": "abc"}]', "agentResults[0]: 'results' must be a list (one answer per call)"),
])
def test_bad_rules_are_a_usage_error_naming_the_file(rules, message, tmp_path, cache_dir):
    cloud = tmp_path / "cloud.json"
    cloud.write_text('{"agentResults": %s}' % rules)
    completed = mplc_run(cloud, cache_dir)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith(f"mplc run: error: cloud {cloud}: {message}")
    assert "Traceback" not in completed.stderr


def test_ready_checks_call_a_raw_plan_that_only_returns(cache_dir):
    """isReady and waitReady call (and so record) the reference's raw plan; answers are dropped."""
    env = dict(os.environ, MPLC_CACHE_DIR=str(cache_dir))
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", APPS, "--model",
         os.path.join(DATA, "agent_answers_waiter.json"), "--cloud", CLOUD],
        capture_output=True, text=True, env=env)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    output = json.loads(completed.stdout)
    assert output["model"]["Objects"]["applications"][0]["ready"] == [True, None]
    assert [(plan["host"], plan["wait"], plan["plan"]) for plan in output["cloud"]["agentPlans"]] == [
        ("waiter-vm", True, {"Body": "return", "FormatVersion": "2.0.0", "Scripts": {}})] * 2
