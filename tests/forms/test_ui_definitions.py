"""UI definitions the dashboard cannot build a wizard from: diagnostics with their positions, as
``mplc check`` and ``mplc model`` report them."""

import pytest

from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages
from mplc.frontend.ui import read_ui_definition

MANIFEST = "Format: 1.3\nType: Application\nFullName: com.example.App\nClasses: {}\n"
APP = "Application:\n  ?: {type: com.example.App}\n"


def diagnostics(text: str):
    sink = DiagnosticSink()
    definition = read_ui_definition(text.encode("utf-8"), "ui.yaml", sink)
    return definition, [(d.code, d.pos.line, d.pos.col) for d in sink.diagnostics]


@pytest.mark.parametrize("text, expected", [
    # Version: 2.x only, not newer than 2.4 (2 alone is 2.0)
    ("Version: 3\n" + APP, [("E-UI-VERSION", 1, 10)]),
    ("Version: 2.5\n" + APP, [("E-UI-VERSION", 1, 10)]),
    ("Version: x\n" + APP, [("E-UI-VERSION", 1, 10)]),
    ("Version: 2\nForms: []\n", [("E-UI", 1, 1)]),                      # no Application
    ("Version: 2.2\nApplication: {a: 1}\n", [("E-UI", 2, 14)]),          # 2.2 needs '?'
    ("Version: 2.1\nApplication: {a: 1}\n", []),
    ("Version: 2\n" + APP + "Forms: {a: 1}\n", [("E-UI", 4, 8)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1: {}\n", [("E-UI", 5, 9)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n        - {type: string}\n",
     [("E-UI", 7, 11)]),
    # a password field cannot be built without a label
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n        - {name: p, type: password}\n",
     [("E-UI", 7, 11)]),
    # an attribute the field class does not take
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - name: n\n          type: integer\n          maxLength: 3\n",
     [("E-UI-ATTRIBUTE", 9, 11)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - name: n\n          type: string\n          regexpValidator: '[a-'\n",
     [("E-UI-ATTRIBUTE", 9, 28)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - name: n\n          type: network\n          murano_networks: maybe\n",
     [("E-UI-ATTRIBUTE", 9, 28)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - name: n\n          type: flavor\n          requirements: {minCpus: 2}\n",
     [("E-UI-ATTRIBUTE", 9, 25)]),
    # an expression is accepted for any attribute (the dashboard makes it a property)
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - name: n\n          type: string\n          enabled: $.f1.x != null\n", []),
    # a typo of a field type is read as an application class name
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n        - {name: n, type: strnig}\n",
     [("W-UI-FIELD-TYPE", 7, 27)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - {name: n, type: com.example.Db}\n", []),
    # YAQL that does not parse (tagged: the plain-scalar rule never makes such text YAQL)
    ("Version: 2\nApplication:\n  ?: {type: a.B}\n  x: !yaql '$.f1.('\n", [("E-UI-YAQL", 4, 6)]),
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields: []\n      validators:\n"
     "        - {expr: true, message: m}\n", [("E-UI", 8, 18)]),
    # the dashboard decamelizes keys at every depth: they must be strings
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - {name: n, type: choice, choices: {1: One}}\n", [("E-UI-ATTRIBUTE", 7, 44)]),
    ("Version: 2\n" + APP + "Colour: blue\n", [("W-UI-KEY", 4, 1)]),
    # a field validator whose expr is plain text is dropped by the dashboard
    ("Version: 2\n" + APP + "Forms:\n  - f1:\n      fields:\n"
     "        - name: n\n          type: string\n          validators: [{expr: abc}]\n",
     [("W-UI-VALIDATOR", 9, 23)]),
])
def test_definition_diagnostics(text, expected):
    definition, found = diagnostics(text)
    assert found == expected
    assert (definition is None) == any(code.startswith("E-") for code, _, _ in expected)


def test_check_reports_ui_diagnostics(tmp_path):
    (tmp_path / "manifest.yaml").write_text(MANIFEST)
    (tmp_path / "UI").mkdir()
    (tmp_path / "UI" / "ui.yaml").write_text("Version: 2.9\n" + APP)
    sink = DiagnosticSink()
    packages = load_packages([str(tmp_path)], sink)
    assert [(d.code, d.pos.line, d.pos.file.endswith("ui.yaml")) for d in sink.diagnostics] == \
        [("E-UI-VERSION", 1, True)]
    assert packages[0].ui_definition is None


def test_definition_structure():
    definition, found = diagnostics(
        "Version: 2.3\nTemplates: {t: {a: $.f1.n}}\n" + APP + "Forms:\n  - f1:\n      fields:\n"
        "        - name: n\n          type: string\n          maxLength: 3\n"
        "          helpText: Help\n          errorMessages: {invalidChoice: x}\n")
    assert found == []
    assert definition.version == (2, 3, 0)
    (form,) = definition.forms
    (field,) = form.fields
    assert (form.name, field.name, field.kind) == ("f1", "n", "string")
    assert field.attributes == {"max_length": 3, "help_text": "Help",
                                "error_messages": {"invalid_choice": "x"}}
    assert field.pos.line == 8
