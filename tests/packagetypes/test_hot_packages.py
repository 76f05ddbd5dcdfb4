"""Heat.HOT packages: the generated class and form (golden), contracts from parameters, positions
in template.yaml, diagnostics for bad templates, and a deployment on the simulated cloud."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
import yaml

from mplc.api import Runtime, compile_packages
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages
from mplc.packagetypes import HotPackage, PackageTypeError
from mplc.repository import Repository, fetch
from mplc.versioning import Version

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data", "packagetypes")
HOT_APP = os.path.normpath(os.path.join(DATA, "hot_app"))
GOLDEN = os.path.normpath(os.path.join(DATA, "golden"))
CLASS_NAME = "com.example.hot.WebServer"
PARAMETERS = {"flavor": "m1.medium", "image": "ubuntu-22", "instance_count": 2,
              "monitoring": True, "public_net": "ext"}


def _golden(name: str, generated: str) -> None:
    """Set MPLC_UPDATE_GOLDEN=1 to rewrite the golden files (then review the diff)."""
    path = os.path.join(GOLDEN, name)
    if os.environ.get("MPLC_UPDATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(generated)
    with open(path, encoding="utf-8") as handle:
        assert generated == handle.read()


def _hot_package(directory: str, **manifest) -> HotPackage:
    data = {"Format": "Heat.HOT/1.0", "Type": "Application", "FullName": CLASS_NAME, **manifest}
    return HotPackage("Heat.HOT", Version("1.0.0"), directory, data)


def _write_package(root, template: str, manifest: str | None = None) -> str:
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "manifest.yaml"), "w") as handle:
        handle.write(manifest or f"Format: Heat.HOT/1.0\nType: Application\nFullName: {CLASS_NAME}\n")
    if template is not None:
        with open(os.path.join(root, "template.yaml"), "w") as handle:
            handle.write(template)
    return str(root)


def _load(path):
    sink = DiagnosticSink()
    packages = load_packages([path], sink)
    return packages, sink.diagnostics


# --- the generated class and form -------------------------------------------------------------

def test_generated_class_is_golden():
    source = _hot_package(HOT_APP).get_class(CLASS_NAME)
    assert source.file == "template.yaml"
    assert len(source.origins) == len(source.text.splitlines())
    _golden("hot_app.class.yaml", source.text)


def test_generated_form_is_golden():
    _golden("hot_app.ui.yaml", _hot_package(HOT_APP, Description="A server").ui)


def test_generated_text_reads_as_the_reference_dump_would():
    """Everything double-quoted and !yaql-tagged: plain YAML sees strings and tagged scalars."""
    class YaqlLoader(yaml.SafeLoader):
        pass

    YaqlLoader.add_constructor("!yaql", lambda loader, node: ("yaql", loader.construct_scalar(node)))
    data = yaml.load(_hot_package(HOT_APP).get_class(CLASS_NAME).text, Loader=YaqlLoader)
    assert data["Extends"] == "io.murano.Application"
    assert data["Properties"]["templateParameters"]["Contract"]["flavor"] == (
        "yaql", "$.string().check($ in list('m1.small', 'm1.medium'))")
    assert data["Methods"]["deploy"]["Body"][0] == {
        ("yaql", "$environment"): ("yaql", "$.find('io.murano.Environment').require()")}


@pytest.mark.parametrize("spec, contract", [
    ({"type": "string"}, "$.string()"),
    ({"type": "json"}, "$.string()"),
    ({"type": "comma_delimited_list"}, "$.string()"),
    ({"type": "number"}, "$.int()"),
    ({"type": "boolean", "constraints": [{"allowed_values": [True, False]}]},
     "$.bool().check($ in list(True, False))"),
    ({"type": "string", "constraints": [{"allowed_values": ["bar"]}, {"length": {"max": 50}},
                                        {"length": {"min": 0}}, {"allowed_pattern": "[A-Z]"}]},
     "$.string().check($ in list('bar')).check(len($) <= 50).check(len($) >= 0)"
     ".check(matches($, '[A-Z]'))"),
    ({"type": "number", "constraints": [{"allowed_values": [0, 1, 2]},
                                        {"length": {"min": 0, "max": 5}},
                                        {"range": {"min": 0, "max": 4}}]},
     "$.int().check($ in list(0, 1, 2)).check(len($) >= 0 and len($) <= 5)"
     ".check($ >= 0 and $ <= 4)"),
    ({"type": "number", "constraints": [{"range": {"min": -1000}}, {"range": {"max": "1000"}}]},
     "$.int().check($ >= -1000).check($ <= 1000)"),
    ({"type": "string", "constraints": [{"custom_constraint": "nova.keypair"}, {"length": {}}]},
     "$.string()"),
])
def test_parameter_contracts(tmp_path, spec, contract):
    template = yaml.safe_dump({"resources": {}, "parameters": {"p": spec}})
    package = _hot_package(_write_package(tmp_path / "pkg", template))
    expected = f'      "p": !yaql "{contract}"\n'
    assert expected in package.get_class(CLASS_NAME).text


def test_hot_environments_turn_parameter_contracts_off(tmp_path):
    root = _write_package(tmp_path / "pkg", "resources: {}\nparameters:\n  p: {type: number}\n")
    os.makedirs(os.path.join(root, "Resources", "HotEnvironments"))
    package = _hot_package(root)
    assert '"p"' in package.get_class(CLASS_NAME).text
    with open(os.path.join(root, "Resources", "HotEnvironments", "prod.yaml"), "w") as handle:
        handle.write("parameters: {p: 1}\n")
    package = _hot_package(root)
    text = package.get_class(CLASS_NAME).text
    assert '"p"' not in text and '"templateParameters":\n    "Contract": {}\n' in text


def test_package_interface_of_a_hot_package():
    package = _hot_package(HOT_APP, Name="Web", Tags=["Heat"], Version="2.1")
    assert (package.full_name, str(package.version), package.display_name) == (CLASS_NAME, "2.1.0", "Web")
    assert package.classes == (CLASS_NAME,) and package.requirements == {}
    assert (package.format_name, package.runtime_version) == ("Heat.HOT", Version("1.0.0"))
    assert package.tags == ["Heat"] and package.supplier == {} and package.logo is None
    with pytest.raises(PackageTypeError, match="not defined in package"):
        package.get_class("com.example.Other")
    with zipfile.ZipFile(__import__("io").BytesIO(package.blob)) as blob:
        assert {"manifest.yaml", "template.yaml", "Resources/HotFiles/boot.sh"} <= set(blob.namelist())


# --- through the front end ----------------------------------------------------------------------

def test_front_end_reads_the_generated_class_with_template_positions():
    (package,), diagnostics = _load(HOT_APP)
    assert diagnostics == []
    assert package.manifest.format_name == "Heat.HOT" and package.manifest.format_version == "1.0.0"
    (cls,) = package.classes
    template = os.path.join(HOT_APP, "template.yaml")
    assert cls.name == CLASS_NAME and cls.source_file == template
    properties = {prop.name: prop for prop in cls.properties}
    contract_positions = {key: (value.pos.file, value.pos.line)
                          for key, value in properties["templateParameters"].contract.fixed}
    assert contract_positions["image"] == (template, 16)
    assert contract_positions["flavor"] == (template, 9)
    methods = {method.name: method for method in cls.methods}
    assert {statement.pos.line for statement in methods["deploy"].body.statements} == {34}
    generated = dict(package.generated_files)
    with open(template, "rb") as handle:
        assert generated[f"Resources/{CLASS_NAME}"] == handle.read()
    assert generated["UI/ui.yaml"].startswith(b'"Application":')


@pytest.mark.parametrize("template, code, line, message", [
    (None, "E-HOT", 1, "template.yaml with the Heat template is missing"),
    ("heat_template_version: 2015-10-15\nparameters: {}\n", "E-HOT", 1, "Not a HOT template"),
    ("resources: {}\nparameters:\n  size:\n    type: list\n", "E-HOT-PARAMETER", 3,
     "template parameter size has unsupported type 'list'"),
    ("resources: {}\nparameters:\n  a: {type: string}\n  size: {default: 1}\n", "E-HOT-PARAMETER",
     4, "template parameter size has no type"),
    ("resources: {}\nparameters:\n  n:\n    type: number\n    constraints: [{range: 5}]\n",
     "E-HOT-PARAMETER", 3, "bad constraint"),
    ("resources: {}\nparameters: [a, b]\n", "E-HOT", 2, "parameters must be a mapping"),
    ("resources: {\n  bad\n", "E-YAML", 3, "invalid YAML"),
])
def test_bad_templates(tmp_path, template, code, line, message):
    root = _write_package(tmp_path / "pkg", template)
    packages, diagnostics = _load(root)
    assert packages == []
    (diagnostic,) = [d for d in diagnostics if d.severity == "error"]
    expected_file = "manifest.yaml" if template is None else "template.yaml"
    assert (diagnostic.code, os.path.basename(diagnostic.pos.file), diagnostic.pos.line) == (
        code, expected_file, line)
    assert message in diagnostic.message


def test_every_bad_parameter_is_reported(tmp_path):
    template = "resources: {}\nparameters:\n  a: {type: list}\n  b: {type: map}\n"
    _, diagnostics = _load(_write_package(tmp_path / "pkg", template))
    assert [(d.code, d.pos.line) for d in diagnostics] == [("E-HOT-PARAMETER", 3),
                                                         ("E-HOT-PARAMETER", 4)]


def test_a_broken_yaql_constraint_points_at_its_parameter(tmp_path):
    template = ("resources: {}\nparameters:\n  ok: {type: string}\n  name:\n    type: string\n"
                "    constraints:\n      - allowed_pattern: \"it's\"\n")
    packages, diagnostics = _load(_write_package(tmp_path / "pkg", template))
    errors = [d for d in diagnostics if d.severity == "error"]
    assert errors and all(os.path.basename(d.pos.file) == "template.yaml" and d.pos.line == 4
                          for d in errors), errors


def test_unknown_format_names_the_installed_package_types(tmp_path):
    root = _write_package(tmp_path / "pkg", "resources: {}\n",
                          "Format: Cloudify.TOSCA/1.0\nType: Application\nFullName: a.B\n")
    _, diagnostics = _load(root)
    (diagnostic,) = [d for d in diagnostics if d.code == "E-FORMAT"]
    assert diagnostic.pos.line == 1 and diagnostic.pos.file.endswith("manifest.yaml")
    assert diagnostic.message.startswith("unknown package format Cloudify.TOSCA/1.0.0; installed "
                                         "package types: Heat.HOT/1.0, MuranoPL/1.0, MuranoPL/1.1")


# --- compiled and deployed ----------------------------------------------------------------------

def _environment(tmp_path, parameters) -> str:
    model = {"?": {"id": "env", "type": "io.murano.Environment"}, "name": "hot-env",
             "applications": [{"?": {"id": "web", "type": CLASS_NAME}, "name": "web",
                               "templateParameters": parameters}]}
    path = tmp_path / "environment.json"
    path.write_text(json.dumps(model))
    return str(path)


def _mplc_run(package_path, model_path, cache_dir):
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", package_path, "--model", model_path],
        capture_output=True, text=True, env=dict(os.environ, MPLC_CACHE_DIR=str(cache_dir)))
    assert completed.returncode in (0, 1), completed.stdout + completed.stderr
    return json.loads(completed.stdout)


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("deploy")
    return _mplc_run(HOT_APP, _environment(tmp_path, PARAMETERS), tmp_path / "cache")


def test_deploy_pushes_the_template_with_parameters_and_files(deployed):
    assert deployed["error"] is None
    (stack_name, stack), = deployed["cloud"]["stacks"].items()
    assert stack_name.endswith("_env")
    assert ["web", CLASS_NAME, "generatedHeatStackName", stack_name] in deployed["model"]["Attributes"]
    _golden("hot_app.stack.json", json.dumps(stack, indent=1, sort_keys=True) + "\n")


def test_deploy_reports_and_fills_outputs(deployed):
    assert [r["text"] for r in deployed["cloud"]["reports"]] == [
        "Application deployment has started", "Stack creation has started",
        "Stack was successfully created", "Application deployment has finished"]
    (application,) = deployed["model"]["Objects"]["applications"]
    outputs = application["templateOutputs"]
    assert sorted(outputs) == ["public_ip", "server_id"] and outputs["public_ip"] == "172.24.4.11"
    assert len(outputs["server_id"]) == 32
    assert application["templateParameters"] == PARAMETERS


@pytest.mark.parametrize("parameters, message", [
    ({**PARAMETERS, "flavor": "m1.huge"}, "templateParameters['flavor']"),
    ({**PARAMETERS, "instance_count": 7}, "templateParameters['instance_count']"),
    ({key: value for key, value in PARAMETERS.items() if key != "flavor"},
     "templateParameters['flavor']"),
])
def test_parameters_breaking_constraints_fail_as_contract_violations(tmp_path, parameters, message):
    result = _mplc_run(HOT_APP, _environment(tmp_path, parameters), tmp_path / "cache")
    assert result["error"]["type"] == "ContractViolationException"
    assert message in result["error"]["message"]


def test_zip_package_compiles_with_the_template_resource_and_form(tmp_path):
    archive = tmp_path / f"{CLASS_NAME}.zip"
    with zipfile.ZipFile(archive, "w") as package_zip:
        for directory, _, files in os.walk(HOT_APP):
            for name in files:
                path = os.path.join(directory, name)
                package_zip.write(path, os.path.relpath(path, HOT_APP))
    (output,) = compile_packages([str(archive)], str(tmp_path / "out"))
    with open(os.path.join(output, "Resources", CLASS_NAME), "rb") as compiled, \
            open(os.path.join(HOT_APP, "template.yaml"), "rb") as source:
        assert compiled.read() == source.read()
    assert os.path.isfile(os.path.join(output, "UI", "ui.yaml"))
    assert os.path.isfile(os.path.join(output, "Resources", "HotFiles", "nested", "extra.txt"))
    runtime = Runtime([output], cache_dir=str(tmp_path / "cache"))
    with open(_environment(tmp_path, PARAMETERS)) as handle:
        environment = runtime.load(json.load(handle))
    assert runtime.call(environment, "deploy") is None
    (application,) = runtime.serialize()["Objects"]["applications"]
    assert application["templateOutputs"]["public_ip"] == "172.24.4.11"


def test_repository_fetches_hot_packages(tmp_path):
    apps = tmp_path / "repo" / "apps"
    apps.mkdir(parents=True)
    with zipfile.ZipFile(apps / f"{CLASS_NAME}.zip", "w") as package_zip:
        for name in ("manifest.yaml", "template.yaml"):
            package_zip.write(os.path.join(HOT_APP, name), name)
    (archive,) = fetch(Repository(str(tmp_path / "repo")), [(CLASS_NAME, None)], str(tmp_path / "out"))
    assert archive.name == CLASS_NAME and archive.require == {}
    assert os.path.isfile(tmp_path / "out" / archive.directory_name / "template.yaml")
