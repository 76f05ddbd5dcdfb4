"""``mplc model`` golden cases: a UI definition and answers -> the object model the dashboard
sends, or its validation error. Every expectation here was produced by murano-dashboard's own
code (muranodashboard.dynamic_ui with Django 4.2 and yaql 3) run on the same definition, answers
and cloud; ids, which the dashboard generates at random, are compared after renaming them
``id-1``, ``id-2``... in order of appearance (references to them included).

Each ``golden/NAME.yaml`` holds ``package`` (a folder under golden/, or a path from the
repository root), ``fqn``, an optional ``cloud`` and ``cases``: ``answers`` with ``model`` or
``error``."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from contextlib import redirect_stdout

import pytest
import yaml

from mplc.cli import main
from mplc.diagnostics import DiagnosticSink
from mplc.forms import Session
from mplc.frontend.ui import read_ui_definition

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(HERE, "golden")
UUID = re.compile(r"^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$")


def _cases():
    for name in sorted(os.listdir(GOLDEN)):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(GOLDEN, name), encoding="utf-8") as handle:
            suite = yaml.safe_load(handle)
        for index, case in enumerate(suite["cases"]):
            yield pytest.param(suite, case, id=f"{name[:-5]}-{case.get('name', index)}")


def normalize_ids(document):
    """Generated ids (every '?' id, and strings equal to one) -> id-1, id-2, ... by first
    appearance; host names from generateHostname('') -> <hostname>."""
    names: dict[str, str] = {}

    def collect(value):
        if isinstance(value, dict):
            marker = value.get("?")
            if isinstance(marker, dict) and isinstance(marker.get("id"), str):
                names.setdefault(marker["id"], f"id-{len(names) + 1}")
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    def rename(value):
        if isinstance(value, dict):
            return {key: rename(item) for key, item in value.items()}
        if isinstance(value, list):
            return [rename(item) for item in value]
        if isinstance(value, str) and value in names:
            return names[value]
        return value

    collect(document)
    return rename(document)


def run_model(tmp_path, suite, answers, *extra):
    package = suite["package"]
    package = os.path.join(GOLDEN, package) if os.path.isdir(os.path.join(GOLDEN, package)) \
        else os.path.join(ROOT, package)
    answers_file = tmp_path / "answers.json"
    answers_file.write_text(json.dumps(answers))
    arguments = ["model", "--path", package, suite["fqn"], "--answers", str(answers_file), *extra]
    if "cloud" in suite:
        cloud_file = tmp_path / "cloud.json"
        cloud_file.write_text(json.dumps(suite["cloud"]))
        arguments += ["--cloud", str(cloud_file)]
    output = io.StringIO()
    with redirect_stdout(output):
        code = main(arguments)
    return code, output.getvalue()


@pytest.mark.parametrize("suite, case", list(_cases()))
def test_golden(tmp_path, suite, case):
    code, output = run_model(tmp_path, suite, case["answers"])
    document = json.loads(output)
    if "error" in case:
        assert (code, document) == (1, {"error": case["error"]})
    else:
        assert code == 0, output
        assert normalize_ids(document) == case["model"]


def test_seed_repeats_ids(tmp_path):
    suite = {"package": "examples/hello", "fqn": "com.example.Hello"}
    answers = {"greetingForm": {"people": "Ada"}}
    first = run_model(tmp_path, suite, answers, "--seed", "7")
    assert first == run_model(tmp_path, suite, answers, "--seed", "7")
    assert first != run_model(tmp_path, suite, answers, "--seed", "8")
    assert UUID.match(json.loads(first[1])["?"]["id"])


def test_example_model_deploys(tmp_path):
    """The model of examples/hello's answers deploys with mplc run, alone and in an
    environment."""
    with open(os.path.join(ROOT, "examples", "hello", "answers.json"), encoding="utf-8") as handle:
        answers = json.load(handle)
    suite = {"package": "examples/hello", "fqn": "com.example.Hello"}
    for extra in ((), ("--environment",)):
        code, output = run_model(tmp_path, suite, answers, *extra)
        assert code == 0
        model = tmp_path / "model.json"
        model.write_text(output)
        result = io.StringIO()
        with redirect_stdout(result):
            assert main(["run", "--path", os.path.join(ROOT, "examples", "hello"),
                         "--model", str(model), "--cache-dir", str(tmp_path / "cache")]) == 0
        ran = json.loads(result.getvalue())
        assert ran["error"] is None
        if not extra:
            assert ran["result"] == ["Hello, Ada!", "Hello, Grace!"]


@pytest.mark.parametrize("answers, message", [
    ({"nosuchForm": {}}, "unknown form 'nosuchForm'"),
    ({"greetingForm": {"peple": "Ada"}}, "unknown field 'peple' of form 'greetingForm'"),
    ([], "answers must be a JSON object"),
])
def test_unknown_names_are_usage_errors(tmp_path, capsys, answers, message):
    code, _ = run_model(tmp_path, {"package": "examples/hello", "fqn": "com.example.Hello"},
                        answers)
    assert code == 2
    assert message in capsys.readouterr().err


def test_invalid_definition_gets_diagnostics(tmp_path, capsys):
    package = tmp_path / "pkg"
    (package / "UI").mkdir(parents=True)
    (package / "manifest.yaml").write_text(
        "Format: 1.3\nType: Application\nFullName: com.example.Bad\nClasses: {}\n")
    (package / "UI" / "ui.yaml").write_text(
        "Version: 2.2\nApplication:\n  ?: {type: com.example.Bad}\nForms:\n  - f:\n"
        "      fields:\n        - {name: n, type: integer, maxLength: 2}\n")
    answers = tmp_path / "answers.json"
    answers.write_text("{}")
    assert main(["model", "--path", str(package), "com.example.Bad", "--answers",
                 str(answers)]) == 1
    error = capsys.readouterr().err
    assert f"{package / 'UI' / 'ui.yaml'}:7:36: error: field 'n' (integer) has no attribute " \
           "'maxLength'" in error
    assert "[E-UI-ATTRIBUTE]" in error


def test_views_show_what_the_page_renders():
    with open(os.path.join(GOLDEN, "database", "UI", "ui.yaml"), "rb") as handle:
        definition = read_ui_definition(handle.read(), "ui.yaml", DiagnosticSink())
    views = Session(definition, "com.example.golden.Database").views()
    assert [view["name"] for view in views] == ["initDatabaseConfiguration",
                                                "instanceConfiguration", "workflowManagement"]
    fields = {field["name"]: field for field in views[0]["fields"]}
    assert fields["title"]["widget"] == "hidden"
    assert (fields["password"]["widget"], fields["password-clone"]["label"]) == \
        ("password", "Confirm password")
    flavor = views[1]["fields"][0]
    assert (flavor["widget"], flavor["value"]) == ("select", "3")  # the default cloud's m1.medium
    assert flavor["choices"] == [("4", "m1.large", True), ("3", "m1.medium", True)]
    assert views[2]["fields"][0]["value"] == "Database"


FAILING_APPLICATION = "Version: 2.2\nApplication:\n  ?: {type: com.example.Fails}\n"
FORM = "Forms:\n  - f:\n      fields:\n        - {name: a, type: string, label: A%s}\n"


@pytest.mark.parametrize("ui, error_type, message", [
    # the dashboard's name() subscripts a method of yaql's context
    (FAILING_APPLICATION + "  n: name()\n" + FORM % "", "TypeError",
     "'method' object is not subscriptable"),
    (FAILING_APPLICATION + "  h: generateHostname(null, 1)\n" + FORM % "",
     "NoMatchingFunctionException", 'No function "generateHostname" matches supplied arguments'),
    # read while the dashboard builds its forms, before any is answered
    (FAILING_APPLICATION + FORM % ", maxLength: $.f.a.len()", "NoFunctionRegisteredException",
     'Unknown function "#property#a"'),
    (FAILING_APPLICATION + "  s: encryptData($.f.a)\n" + FORM % "", "KeyManagerError",
     "This Application requires encryption, please contact your administrator to configure "
     "this."),
])
def test_where_the_dashboard_fails(tmp_path, ui, error_type, message):
    """Cases checked against the dashboard's code: it fails (an error page) where these do."""
    package = tmp_path / "pkg"
    (package / "UI").mkdir(parents=True)
    (package / "manifest.yaml").write_text(
        "Format: 1.3\nType: Application\nFullName: com.example.Fails\nClasses: {}\n")
    (package / "UI" / "ui.yaml").write_text(ui)
    code, output = run_model(tmp_path, {"package": str(package), "fqn": "com.example.Fails"},
                             {"f": {"a": "x"}})
    assert (code, json.loads(output)) == (1, {"error": {"type": error_type, "message": message}})


def test_application_field_offers_inheriting_classes(tmp_path):
    """An application field lists the environment's applications of its class or of a class
    inheriting it (the dashboard asks the catalog for packages that inherit it); with one
    such application it is chosen."""
    package = tmp_path / "pkg"
    (package / "UI").mkdir(parents=True)
    (package / "Classes").mkdir()
    (package / "manifest.yaml").write_text(
        "Format: 1.3\nType: Application\nFullName: com.example.Shop\nClasses:\n"
        "  com.example.Db: Db.yaml\n  com.example.MySql: MySql.yaml\n")
    (package / "Classes" / "Db.yaml").write_text("Name: com.example.Db\n")
    (package / "Classes" / "MySql.yaml").write_text(
        "Name: com.example.MySql\nExtends: com.example.Db\n")
    (package / "UI" / "ui.yaml").write_text(
        "Version: 2.2\nApplication:\n  ?: {type: com.example.Shop}\n  db: $.f.db\n"
        "Forms:\n  - f:\n      fields:\n        - {name: db, type: com.example.Db, label: D}\n")
    services = [{"?": {"id": "m1", "type": "com.example.MySql"}, "name": "m"},
                {"?": {"id": "o1", "type": "com.example.Other"}, "name": "o"}]
    suite = {"package": str(package), "fqn": "com.example.Shop",
             "cloud": {"environment": {"id": "e", "name": "env", "services": services}}}
    code, output = run_model(tmp_path, suite, {})
    assert (code, json.loads(output)["db"]) == (0, "m1")
    code, output = run_model(tmp_path, suite, {"f": {"db": "o1"}})
    assert json.loads(output)["error"]["fields"] == {
        "db": ["Select a valid choice. o1 is not one of the available choices."]}
