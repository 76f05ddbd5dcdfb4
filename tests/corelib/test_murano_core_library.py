"""Murano's own core library (meta/io.murano of its source distribution) as the io.murano
package: it loads, compiles and deploys, with mplc's natives on top of its classes, and one
deployment gives the same Heat template, agent plans, reports and model on it as on mplc's
bundled library (the random ids the engine generates aside, and each library's own boot
configuration of the instances: cloud-init settings and the agent's install script)."""

import json
import os
import re
import subprocess
import sys

import pytest

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "natives", "data")
APPS = os.path.join(DATA, "deploy_apps")
ENVIRONMENT = os.path.join(DATA, "environment.json")
_GENERATED_ID = re.compile(r"[0-9a-f]{32}|(?<![0-9a-z])(?=[0-9]*[a-z])(?=[a-z]*[0-9])[a-z0-9]{14}\b")


def mplc_run(paths, model, cache_dir, method="deploy"):
    command = [sys.executable, "-m", "mplc.cli", "run", "--model", model, "--method", method]
    for path in paths:
        command += ["--path", path]
    completed = subprocess.run(command, capture_output=True, text=True,
                               env=dict(os.environ, MPLC_CACHE_DIR=str(cache_dir)))
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    return json.loads(completed.stdout)


def without_generated_ids(document):
    """The document with each id the engine made up (object ids; random names such as stack
    name suffixes, 14 letters and digits) replaced by its order of first appearance."""
    seen = {}
    text = _GENERATED_ID.sub(lambda m: seen.setdefault(m.group(0), f"<generated {len(seen)}>"),
                             json.dumps(document, sort_keys=True))
    return json.loads(text)


def without_boot_configuration(stack):
    """The stack with the instances' cloud-init config and boot script taken out: each core
    library writes its own (Murano's installs its agent from its Resources/linux-init.sh)."""
    for resource in stack["template"]["resources"].values():
        if resource["type"] == "OS::Heat::CloudConfig":
            resource["properties"].pop("cloud_config")
        elif resource["type"] == "OS::Heat::SoftwareConfig" and resource["properties"].get("group") == "ungrouped":
            resource["properties"].pop("config")
    return stack


@pytest.fixture(scope="module")
def deployments(murano_meta, tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return {
        "murano": mplc_run([os.path.join(murano_meta, "io.murano"), APPS], ENVIRONMENT, cache),
        "bundled": mplc_run([APPS], ENVIRONMENT, cache),
    }


def test_environment_with_applications_and_instances_deploys_on_muranos_core_library(deployments):
    murano = deployments["murano"]
    assert murano["error"] is None
    root = murano["model"]["Objects"]
    assert root["?"]["type"] == "io.murano.Environment/0.0.0@io.murano"
    instances = [app["instance"] for app in root["applications"]]
    assert [i["?"]["type"] for i in instances] == ["io.murano.resources.LinuxMuranoInstance/0.0.0@io.murano"] * 2
    assert [i["ipAddresses"] for i in instances] == [["10.0.0.18"], ["10.0.0.23"]]
    (stack,) = murano["cloud"]["stacks"].values()
    servers = sorted(name for name, resource in stack["template"]["resources"].items()
                     if resource["type"] == "OS::Nova::Server")
    assert servers == ["db-vm", "web-vm"]
    assert [plan["host"] for plan in murano["cloud"]["agentPlans"]] == ["web-vm", "db-vm"]


@pytest.mark.parametrize("part", ["result", "error", "traces", "model", "cloud"])
def test_same_deployment_on_bundled_and_muranos_core_library(deployments, part):
    murano, bundled = (without_generated_ids(deployments[name]) for name in ("murano", "bundled"))
    if part == "cloud":  # stack names end in generated ids: compare the stacks in order
        assert [without_boot_configuration(stack) for stack in murano["cloud"]["stacks"].values()] == [
            without_boot_configuration(stack) for stack in bundled["cloud"]["stacks"].values()]
        murano["cloud"].pop("stacks"), bundled["cloud"].pop("stacks")
    assert murano[part] == bundled[part]
