"""Package-type plugins from the io.murano.plugins.packages entry points of an installed
distribution (a real dist-info written into a temporary site directory on sys.path)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from mplc.api import Runtime
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages
from mplc.packagetypes import HotPackage, installed
from mplc.versioning import Version

PLUGIN_MODULE = '''
import json
import os

from mplc.packagetypes import PackageBase


class GreetingPackage(PackageBase):
    """One class whose greet() returns greeting.txt, the Format and the runtime version."""

    initialized = 0

    @classmethod
    def init_plugin(cls):
        cls.initialized += 1

    @property
    def classes(self):
        return (self.full_name,)

    @property
    def requirements(self):
        return {}

    @property
    def ui(self):
        return None

    def get_class(self, name):
        with open(os.path.join(self.source_directory, "greeting.txt")) as handle:
            greeting = handle.read().strip()
        if greeting == "fail":
            raise RuntimeError("cannot greet")
        result = f"{greeting} from {self.format_name}/{self.runtime_version}"
        text = (f"Name: {name}\\nMethods:\\n  greet:\\n    Body:\\n"
                f"      - Return: {json.dumps(result)}\\n")
        return text, "<generated code>"
'''

ENTRY_POINTS = '''
[io.murano.plugins.packages]
Example.Greeting/1.0 = mplc_greeting_plugin:GreetingPackage
Example.Greeting/1.3 = mplc_greeting_plugin:GreetingPackage
Heat.HOT/1.0 = mplc_greeting_plugin:GreetingPackage
Broken/1.0 = mplc_greeting_plugin_missing:Nothing
'''


@pytest.fixture
def site(tmp_path):
    """A site directory holding the plugin distribution, put on sys.path for the test."""
    site = tmp_path / "site"
    dist_info = site / "mplc_greeting_plugin-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: mplc-greeting-plugin\n"
                                        "Version: 1.0\n")
    (dist_info / "entry_points.txt").write_text(ENTRY_POINTS)
    (site / "mplc_greeting_plugin.py").write_text(PLUGIN_MODULE)
    return site


@pytest.fixture
def plugin(site, monkeypatch):
    monkeypatch.syspath_prepend(str(site))
    yield site
    sys.modules.pop("mplc_greeting_plugin", None)


def _package(tmp_path, format_text="Example.Greeting/1.3", greeting="hello"):
    root = tmp_path / "greeting"
    root.mkdir(exist_ok=True)
    (root / "manifest.yaml").write_text(f"Format: {format_text}\nType: Application\n"
                                        "FullName: com.example.Greeter\n")
    (root / "greeting.txt").write_text(greeting + "\n")
    return str(root)


def _load(path):
    sink = DiagnosticSink()
    return load_packages([path], sink), sink.diagnostics


def test_entry_points_register_every_name_of_a_plugin(plugin):
    types = installed()
    plugin_class = types.find("Example.Greeting", Version("1.0.0"))
    assert plugin_class is not None and types.find("Example.Greeting", Version("1.3.0")) is plugin_class
    assert plugin_class.initialized == 3
    assert installed().find("Example.Greeting", Version("1.0.0")).initialized == 3
    assert types.find("Heat.HOT", Version("1.0.0")) is HotPackage
    (failure,) = types.failures
    assert failure.startswith("Broken/1.0 (mplc_greeting_plugin_missing:Nothing): "
                              "ModuleNotFoundError")


@pytest.mark.parametrize("format_text, expected", [
    ("Example.Greeting/1.3", "hello from Example.Greeting/1.3.0"),
    ("Example.Greeting/1.0", "hello from Example.Greeting/1.0.0"),
])
def test_plugin_package_compiles_and_runs(plugin, tmp_path, format_text, expected):
    runtime = Runtime([_package(tmp_path, format_text)], cache_dir=str(tmp_path / "cache"))
    assert runtime.new("com.example.Greeter").greet() == expected


def test_generated_class_is_reported_against_its_file_id(plugin, tmp_path):
    (package,), diagnostics = _load(_package(tmp_path))
    assert diagnostics == []
    (cls,) = package.classes
    assert cls.source_file == os.path.join(tmp_path, "greeting", "<generated com.example.Greeter>")
    assert package.manifest.format_name == "Example.Greeting"


def test_failing_plugin_is_a_diagnostic(plugin, tmp_path):
    packages, diagnostics = _load(_package(tmp_path, greeting="fail"))
    assert packages == []
    (diagnostic,) = diagnostics
    assert (diagnostic.code, diagnostic.pos.line) == ("E-PACKAGE-TYPE", 1)
    assert diagnostic.message == ("package type Example.Greeting/1.3.0 failed: RuntimeError: "
                                  "cannot greet")


def test_unknown_version_names_plugins_and_their_failures(plugin, tmp_path):
    _, diagnostics = _load(_package(tmp_path, "Example.Greeting/2.0"))
    (diagnostic,) = [d for d in diagnostics if d.code == "E-FORMAT"]
    assert "installed package types: Example.Greeting/1.0, Example.Greeting/1.3, Heat.HOT/1.0" \
        in diagnostic.message
    assert "plugins that failed to load: Broken/1.0" in diagnostic.message


def test_without_the_distribution_the_format_is_unknown(tmp_path):
    _, diagnostics = _load(_package(tmp_path))
    (diagnostic,) = [d for d in diagnostics if d.code == "E-FORMAT"]
    assert diagnostic.message.startswith("unknown package format Example.Greeting/1.3.0")


def test_cli_finds_plugins_of_its_environment(site, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(site), MPLC_CACHE_DIR=str(tmp_path / "cache"))
    model = tmp_path / "model.json"
    model.write_text('{"?": {"id": "g", "type": "com.example.Greeter"}}')
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", _package(tmp_path), "--model",
         str(model), "--method", "greet"], capture_output=True, text=True, env=env)
    assert completed.returncode == 0, completed.stderr
    assert '"result": "hello from Example.Greeting/1.3.0"' in completed.stdout
    completed = subprocess.run([sys.executable, "-m", "mplc.cli", "check", _package(tmp_path)],
                               capture_output=True, text=True,
                               env=dict(env, PYTHONPATH=""))
    assert completed.returncode == 1
    assert "unknown package format Example.Greeting/1.3.0" in completed.stderr
