"""A whole deployment with the bundled core library and the simulated cloud, through ``mplc run``."""

import base64
import json
import os
import subprocess
import sys

import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
APPS = os.path.join(DATA, "deploy_apps")
ENVIRONMENT = os.path.join(DATA, "environment.json")


def mplc_run(model_path, cache_dir):
    env = dict(os.environ, MPLC_CACHE_DIR=str(cache_dir))
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", APPS, "--model", model_path,
         "--method", "deploy"], capture_output=True, text=True, env=env)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads(completed.stdout)


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    return mplc_run(ENVIRONMENT, tmp_path_factory.mktemp("cache"))


def test_deploy_succeeds(deployed):
    assert deployed["error"] is None


def test_heat_template_holds_both_instances_and_the_network(deployed):
    (stack,) = deployed["cloud"]["stacks"].values()
    resources = stack["template"]["resources"]
    servers = {name: r["properties"] for name, r in resources.items() if r["type"] == "OS::Nova::Server"}
    assert sorted(servers) == ["db-vm", "web-vm"]
    assert servers["web-vm"]["flavor"] == "m1.small"
    assert servers["web-vm"]["user_data"] == {"get_resource": "user_data-web-vm"}
    assert servers["web-vm"]["user_data_format"] == "RAW"
    assert [part["config"] for part in resources["user_data-web-vm"]["properties"]["parts"]] == [
        {"get_resource": "boot_config-web-vm"}, {"get_resource": "boot_script_web-vm"}]
    boot_script = resources["boot_script_web-vm"]["properties"]["config"]
    (config_line,) = [line for line in boot_script.splitlines() if "/etc/murano/agent.conf" in line
                      and line.startswith("echo")]
    agent_config = base64.b64decode(config_line.split('"')[1]).decode()
    assert "input_queue = eenv-hweb-vm" in agent_config
    assert resources["boot_config-web-vm"]["properties"]["cloud_config"]["hostname"] == "web-vm"
    types = sorted(r["type"] for r in resources.values())
    assert "OS::Neutron::Net" in types and "OS::Neutron::SecurityGroup" in types
    assert stack["pushes"] >= 2 and not stack["deleted"]


def test_agent_plans_are_recorded_with_resource_files(deployed):
    plans = deployed["cloud"]["agentPlans"]
    assert [p["host"] for p in plans] == ["web-vm", "db-vm"]
    web_plan = plans[0]["plan"]
    assert web_plan["Parameters"] == {"port": 8080}
    (entry_file,) = web_plan["Files"].values()
    assert entry_file == {"Name": "deployWeb.sh", "BodyType": "Text",
                          "Body": '#!/bin/sh\necho "serving on port $1"\n'}
    assert web_plan["Scripts"]["deploy"]["EntryPoint"] in web_plan["Files"]
    db_plan = plans[1]["plan"]
    assert db_plan["Name"] == "Execute createdb orders"
    assert db_plan["Body"] == "return runCommand()"
    (script_file,) = db_plan["Files"].values()
    assert script_file == {"Name": "scriptFile.sh", "BodyType": "Text", "Body": "createdb orders"}
    assert db_plan["Scripts"]["runCommand"]["EntryPoint"] == "scriptFile"
    assert db_plan["Scripts"]["runCommand"]["Options"] == {
        "captureStdout": True, "captureStderr": True, "verifyExitcode": True}


def test_reports_notifications_and_log(deployed):
    cloud = deployed["cloud"]
    assert [r["text"] for r in cloud["reports"]] == [
        "Creating the web server VM", "Web server is at 10.0.0.18:8080", "Database is ready"]
    assert {"logger": "com.example.deploy", "level": "INFO",
            "message": "Deploying database orders"} in cloud["log"]
    events = [(n["event"], n["instance"]) for n in cloud["notifications"]]
    assert ("trackCloudInstance", "web-vm") in events


def test_model_after_deploy_keeps_ids_outputs_and_attributes_but_not_designer_data(deployed):
    """As the reference: designer (``_``) header entries are not written back; ``_actions``
    lists the object's actions; ``ObjectsCopy`` is the same tree without ``_actions``."""
    model = deployed["model"]
    root = model["Objects"]
    assert "_26411a1861294160833743e45d0eaad9" not in root["?"]
    assert "_actions" in root["?"] and "_actions" not in model["ObjectsCopy"]["?"]
    web, db = root["applications"]
    assert (web["?"]["id"], db["?"]["id"]) == ("web", "db")
    assert web["database"] == "db"
    assert web["instance"]["ipAddresses"] == ["10.0.0.18"]
    assert ["web", "com.example.deploy.WebServer", "deployed", True] in model["Attributes"]


def test_redeploy_of_the_written_model_sees_its_attributes(deployed, tmp_path):
    model_path = tmp_path / "model.json"
    model_path.write_text(json.dumps(deployed["model"]))
    again = mplc_run(str(model_path), tmp_path / "cache")
    assert again["error"] is None
    assert "Creating the web server VM" not in [r["text"] for r in again["cloud"]["reports"]]
    assert again["model"]["Objects"]["applications"][0]["?"] == deployed["model"]["Objects"]["applications"][0]["?"]


def next_session(deployed, tmp_path, drop_application=None):
    """The dashboard's next session on a deployed environment: Objects the stored model (less an
    application removed), ObjectsCopy the stored model, run with the stacks the deploy left."""
    stored = deployed["model"]
    objects = json.loads(json.dumps(stored["Objects"]))
    objects["applications"] = [a for a in objects["applications"] if a["?"]["id"] != drop_application]
    model_path, cloud_path = tmp_path / "model.json", tmp_path / "previous.json"
    model_path.write_text(json.dumps({"Objects": objects, "ObjectsCopy": stored["Objects"],
                                      "Attributes": stored["Attributes"]}))
    cloud_path.write_text(json.dumps(deployed))
    env = dict(os.environ, MPLC_CACHE_DIR=str(tmp_path / "cache"))
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", APPS, "--model", str(model_path),
         "--cloud", str(cloud_path)], capture_output=True, text=True, env=env)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads(completed.stdout)


# Expected values below: the reference engine on the same sessions (its Heat fake holding the
# stacks of the first deployment). The removed web server's release (push(async => true)) fails
# and is muted as in the reference; the database's deploy pushes the released template.
def test_second_deploy_of_an_unchanged_environment_pushes_nothing(deployed, tmp_path):
    again = next_session(deployed, tmp_path)
    assert again["error"] is None
    assert again["cloud"]["stacks"] == deployed["cloud"]["stacks"]
    assert [r["text"] for r in again["cloud"]["reports"]] == ["Database is ready"]
    assert [p["host"] for p in again["cloud"]["agentPlans"]] == ["db-vm"]


def test_removing_an_application_releases_its_instance_resources_from_the_stack(deployed, tmp_path):
    removed = next_session(deployed, tmp_path, drop_application="web")
    assert removed["error"] is None
    (before,), (after,) = deployed["cloud"]["stacks"].values(), removed["cloud"]["stacks"].values()
    assert after["pushes"] == before["pushes"] + 1 and not after["deleted"]
    gone = sorted(set(before["template"]["resources"]) - set(after["template"]["resources"]))
    assert [name for name in gone if "web-vm" not in name] == []
    assert sorted(gone) == sorted(name for name in before["template"]["resources"] if "web-vm" in name)
    assert not [name for name in after["template"]["outputs"] if "web-vm" in name]
    assert [(n["event"], n["instance"]) for n in removed["cloud"]["notifications"]] == [
        ("untrackCloudInstance", "web-vm"), ("trackCloudInstance", "db-vm")]
    assert [a["?"]["id"] for a in removed["model"]["Objects"]["applications"]] == ["db"]


@pytest.mark.parametrize("content, message", [
    ("not json", "cannot read cloud"),
    ("[1]", "'stacks' must map stack names to objects with a 'template' object"),
    ('{"cloud": {"stacks": {"s": {"template": 3}}}}',
     "'stacks' must map stack names to objects with a 'template' object"),
])
def test_bad_cloud_file_is_a_usage_error(content, message, tmp_path):
    cloud = tmp_path / "cloud.json"
    cloud.write_text(content)
    env = dict(os.environ, MPLC_CACHE_DIR=str(tmp_path / "cache"))
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", APPS, "--model", ENVIRONMENT,
         "--method", "deploy", "--cloud", str(cloud)], capture_output=True, text=True, env=env)
    assert completed.returncode == 2
    assert completed.stderr.startswith("mplc run: error: ") and message in completed.stderr
    assert "Traceback" not in completed.stderr and completed.stdout == ""
