"""UI forms: the dashboard's expression rule, and YAML errors of ui.yaml reported by check."""

import pytest

from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages
from mplc.frontend.ui import UiExpression, is_ui_expression, read_ui_form


@pytest.mark.parametrize("text, expected", [
    ("$.appConfiguration.name", True),
    ("generateHostname($.instance.unitNamingPattern, 1)", True),
    ("io.murano.resources.LinuxMuranoInstance", False),
    ("ns:Name", False),        # plain by the dashboard's regex, which allows ':'
    ("a is b", False),         # no 'is' operator in the dashboard's engine
    ("http://x", False),       # does not parse
    ("Hello, world!", False),
])
def test_ui_expression_rule(text, expected):
    assert is_ui_expression(text) is expected


def test_form_data():
    sink = DiagnosticSink()
    form = read_ui_form(b"Version: 2.2\nApplication:\n  name: $.appConfiguration.name\n"
                        b"  '?': {type: io.murano.App}\n  tag: !yaql \"'x'\"\n", "ui.yaml", sink)
    assert sink.diagnostics == []
    assert form["Version"] == 2.2
    assert isinstance(form["Application"]["name"], UiExpression)
    tag = form["Application"]["tag"]
    assert tag == "'x'" and isinstance(tag, UiExpression)
    assert not isinstance(form["Application"]["?"]["type"], UiExpression)


MANIFEST = "Format: 1.3\nType: Application\nFullName: p\nClasses: {}\n"


@pytest.mark.parametrize("manifest, name, text, expected", [
    (MANIFEST, "ui.yaml", "Version: 2\nForms: [\n", [("E-YAML", 3, 1)]),
    (MANIFEST, "ui.yaml", "- a\n", [("E-UI", 1, 1)]),
    (MANIFEST, "ui.yaml", "Version: !!timestamp x\n", [("E-YAML", 1, 10)]),
    (MANIFEST, "ui.yaml", "Forms: [{a: !!bool x}]\n", [("E-YAML", 1, 13)]),
    (MANIFEST + "UI: form.yaml\n", "form.yaml", "a: b\n  c: d\n", [("E-YAML", 2, 4)]),
    (MANIFEST + "UI: form.yaml\n", "ui.yaml", "- a\n", []),
    (MANIFEST, "ui.yaml", "Version: 2\n", [("E-UI", 1, 1)]),  # no Application
    (MANIFEST, "ui.yaml", "Version: 2\nApplication: {?: {type: p}}\n", []),
])
def test_check_reads_the_form(tmp_path, manifest, name, text, expected):
    (tmp_path / "manifest.yaml").write_text(manifest)
    (tmp_path / "Classes").mkdir()
    (tmp_path / "UI").mkdir()
    (tmp_path / "UI" / name).write_text(text)
    sink = DiagnosticSink()
    load_packages([str(tmp_path)], sink)
    assert [(d.code, d.pos.line, d.pos.col) for d in sink.diagnostics] == expected
    assert all(d.pos.file.endswith(name) for d in sink.diagnostics)
