"""Multi-tier deployments give what Murano's engine gives, on Murano's core library and on the
bundled one.

Each ``data/deployments/NAME.json`` is an Environment (web-without-database: the next session of
web-and-database, its database application removed, on the stacks the first session left;
two-tier-unanswered: two-tier with agents that answer nothing, so its configuration fails);
``NAME.expected.json`` is what Murano
16.0.0's engine did deploying it with Murano's meta/io.murano and meta/io.murano.applications
(recorded locally, on a recording cloud that answers Heat, Neutron, Keystone and the agents as
mplc's simulated cloud does, with the agent answers of ``NAME.cloud.json``): the deploy call's
error (its type and message) and result, the final object model, and the cloud's records (Heat stacks as pushed, agent
plans, status reports, instance notifications, log lines). The ids the engine makes up are
numbered by the order a walk of the document meets them (see ``canonical``), so the files are
deterministic and the comparison does not depend on random values.

On the bundled core library everything is the same except each instance's boot configuration
(cloud-init settings and the agent's boot script), which each library writes its own way.
"""

import base64
import json
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DEPLOYMENTS = os.path.join(HERE, "data", "deployments")
MULTITIER = os.path.join(HERE, "data", "multitier")
DEPLOY_APPS = os.path.join(os.path.dirname(HERE), "natives", "data", "deploy_apps")
PACKAGES = {"two-tier": [MULTITIER], "two-tier-unanswered": [MULTITIER],
            "web-and-database": [DEPLOY_APPS], "web-without-database": [DEPLOY_APPS]}
PARTS = ("error", "result", "model", "cloud")

_GENERATED_ID = re.compile(r"[0-9a-f]{32}|(?<![0-9a-z])(?=[0-9]*[a-z])(?=[a-z]*[0-9])[a-z0-9]{14}\b")
_NUMBERED = re.compile(r"<generated (\d+)>")
_AGENT_CONFIG = re.compile(r"AgentConfigBase64='([A-Za-z0-9+/=]*)'")


def _mask(text: str) -> str:
    return _GENERATED_ID.sub("#", text)


def canonical(document):
    """``document`` with every generated id (object ids, random names) replaced by
    ``<generated N>``: N counts the ids in the order a walk meets them, the walk visiting a
    dict's keys sorted with their ids masked (ties by their masked values), so random values
    never decide N. The agent's config inside the boot script is decoded first (it names the
    environment's queues), and a list of ids alone (``orderBy`` over random ids) is sorted."""
    text = _AGENT_CONFIG.sub(
        lambda m: "AgentConfig=" + json.dumps(base64.b64decode(m.group(1)).decode())[1:-1],
        json.dumps(document))
    document = json.loads(text)
    numbers = {}

    def number(text):
        for found in _GENERATED_ID.finditer(text):
            numbers.setdefault(found.group(0), f"<generated {len(numbers)}>")

    def walk(value):
        if isinstance(value, dict):
            for key in sorted(value, key=lambda k: (_mask(str(k)),
                                                    _mask(json.dumps(value[k], sort_keys=True)))):
                number(str(key))
                walk(value[key])
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            number(value)

    walk(document)
    numbered = json.loads(_GENERATED_ID.sub(lambda m: numbers[m.group(0)],
                                            json.dumps(document, sort_keys=True)))
    return _sorted_id_lists(numbered)


def _sorted_id_lists(value):
    if isinstance(value, dict):
        return {key: _sorted_id_lists(item) for key, item in value.items()}
    if isinstance(value, list):
        value = [_sorted_id_lists(item) for item in value]
        ids = [item for item in value if isinstance(item, str) and _NUMBERED.fullmatch(item)]
        if len(ids) > 1:
            in_order = iter(sorted(ids, key=lambda item: int(_NUMBERED.fullmatch(item).group(1))))
            value = [next(in_order) if item in ids else item for item in value]
        return value
    return value


def without_boot_configuration(document):
    """The document without the instances' cloud-init config and boot script."""
    for stack in document["cloud"]["stacks"]:
        for resource in stack["template"]["resources"].values():
            if resource["type"] == "OS::Heat::CloudConfig":
                resource["properties"].pop("cloud_config")
            elif (resource["type"] == "OS::Heat::SoftwareConfig"
                  and resource["properties"].get("group") == "ungrouped"):
                resource["properties"].pop("config")
    return document


def mplc_deploy(paths, name, cache_dir):
    command = [sys.executable, "-m", "mplc.cli", "run", "--model",
               os.path.join(DEPLOYMENTS, f"{name}.json")]
    cloud = os.path.join(DEPLOYMENTS, f"{name}.cloud.json")
    if os.path.exists(cloud):
        command += ["--cloud", cloud]
    for path in paths:
        command += ["--path", path]
    completed = subprocess.run(command, capture_output=True, text=True,
                               env=dict(os.environ, MPLC_CACHE_DIR=str(cache_dir)))
    assert completed.returncode in (0, 1), completed.stdout[-3000:] + completed.stderr[-3000:]
    output = json.loads(completed.stdout)
    output["cloud"]["stacks"] = list(output["cloud"]["stacks"].values())
    if output["error"] is not None:  # its details are a stack trace with this machine's paths
        output["error"] = {key: output["error"][key] for key in ("type", "message")}
    return {part: output[part] for part in PARTS}


@pytest.fixture(scope="module")
def deployments(murano_meta, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    applications = os.path.join(murano_meta, "io.murano.applications")
    runs = {}
    for name, packages in PACKAGES.items():
        runs[name, "murano"] = mplc_deploy([os.path.join(murano_meta, "io.murano"), applications]
                                           + packages, name, cache)
        runs[name, "bundled"] = mplc_deploy([applications] + packages, name, cache)
    return runs


def expected(name):
    with open(os.path.join(DEPLOYMENTS, f"{name}.expected.json"), encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_deployment_on_muranos_core_library_is_the_references(deployments, name, part):
    assert canonical(deployments[name, "murano"])[part] == expected(name)[part]


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_deployment_on_the_bundled_core_library_is_the_references_but_boot_config(
        deployments, name, part):
    mine = without_boot_configuration(canonical(deployments[name, "bundled"]))
    assert mine[part] == without_boot_configuration(expected(name))[part]


def test_the_recorded_deployments_did_deploy():
    """The expectations are of complete deployments: every tier reported, plans were sent."""
    two_tier, web_and_database = expected("two-tier"), expected("web-and-database")
    assert two_tier["error"] is None and web_and_database["error"] is None
    assert expected("two-tier-unanswered")["error"] == {
        "type": "io.murano.applications.TooManyConfigurationErrors",
        "message": "[io.murano.applications.TooManyConfigurationErrors]: "
                   "Too many errors (None) encountered while configuring Web tier"}
    assert [report["text"] for report in two_tier["cloud"]["reports"]][-2:] == [
        "shop is served at http://172.24.4.18/shop, http://172.24.4.18/shop",
        "Finished configuring Web tier (no errors encountered)"]
    assert [plan["plan"]["Name"] for plan in two_tier["cloud"]["agentPlans"]].count(
        "Create database") == 1
    assert two_tier["model"]["Objects"]["applications"][0]["database"]["version"] == "9.6"
    assert len(web_and_database["cloud"]["agentPlans"]) == 2


def test_a_removed_application_keeps_its_server_in_the_stack_as_in_the_reference():
    """Murano's Instance.releaseResources pushes with ``push(async => true)``, which fails in the
    reference (its parameter is ``is_async``) and is muted inside destruction: nothing pushes
    the stack without the database's server, only the notifier hears of it."""
    removed = expected("web-without-database")
    assert removed["cloud"]["agentPlans"] == [] and removed["cloud"]["reports"] == []
    assert [(n["event"], n["instance"]) for n in removed["cloud"]["notifications"]] == [
        ("untrackCloudInstance", "db-vm")]
    (stack,) = removed["cloud"]["stacks"]
    assert {"db-vm", "web-vm"} <= set(stack["template"]["resources"])
    assert stack["pushes"] == expected("web-and-database")["cloud"]["stacks"][0]["pushes"]


def test_canonical_ids_do_not_depend_on_the_random_values():
    first = {"resources": {"a1b2c3d4e5f60718293a4b5c6d7e8f90": {"name": "x"},
                           "port-0123456789abcdef0123456789abcdef": {"sg": "a1b2c3d4e5f60718293a4b5c6d7e8f90"}},
             "key": ["ffffffffffffffffffffffffffffffff", "00000000000000000000000000000000"]}
    second = json.loads(json.dumps(first).replace("a1b2c3d4e5f60718293a4b5c6d7e8f90", "f" * 31 + "e")
                        .replace("0123456789abcdef0123456789abcdef", "0" * 31 + "1"))
    assert canonical(first) == canonical(second)
    assert canonical(first) == {
        "key": ["<generated 0>", "<generated 1>"],
        "resources": {"<generated 2>": {"name": "x"}, "port-<generated 3>": {"sg": "<generated 2>"}}}
