"""The engine settings the core library reads with config(): an unknown one fails as the
reference's oslo.config does (``oslo_config.cfg.NoSuchOptError``, worded as oslo words it),
never showing a module of mplc's own."""

from __future__ import annotations

import pytest

import mplc
from mplc.runtime.errors import MuranoPlException
from mplc.runtime.system import engine_functions

PACKAGE = {
    "manifest.yaml": "Format: MuranoPL/1.3\nType: Library\nFullName: tests.settings\n"
                     "Classes:\n  tests.settings.Test: Test.yaml\n",
    "Classes/Test.yaml": """Namespaces:
  =: tests.settings
  std: io.murano
Name: Test
Methods:
  caught:
    Body:
      - Try:
          - new(std:Environment, name => e1)
        Catch:
          - As: e
            Do:
              - Return: [$e.name, $e.message]
  uncaught:
    Body:
      - new(std:Environment, name => e1)
""",
}

# (settings path removed: a top-level option, a group, or an option of a group; the message)
MISSING = [
    (("home_region",), "no such option home_region in group [DEFAULT]"),
    (("rabbitmq",), "no such option rabbitmq in group [DEFAULT]"),
    (("rabbitmq", "host"), "no such option host in group [rabbitmq]"),
]


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    root = tmp_path_factory.mktemp("settings")
    for relative, text in PACKAGE.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return mplc.Runtime([str(root)], cache_dir=str(tmp_path_factory.mktemp("cache")))


def _without(monkeypatch, path):
    settings = engine_functions.ENGINE_SETTINGS
    if len(path) == 2:
        monkeypatch.setitem(settings, path[0], dict(settings[path[0]]))
        settings = settings[path[0]]
    monkeypatch.delitem(settings, path[-1])


@pytest.mark.parametrize("path, message", MISSING, ids=[".".join(path) for path, _ in MISSING])
def test_an_unknown_setting_is_the_reference_s_no_such_opt_error(runtime, monkeypatch, path, message):
    _without(monkeypatch, path)
    test = runtime.new("tests.settings.Test")
    assert runtime.render(runtime.call(test, "caught")) == ["oslo_config.cfg.NoSuchOptError", message]
    with pytest.raises(MuranoPlException) as raised:
        runtime.call(test, "uncaught")
    assert str(raised.value) == f"[oslo_config.cfg.NoSuchOptError]: {message}"
    assert "mplc" not in raised.value.format().split("Traceback")[0]


def test_known_settings_are_read(runtime):
    assert runtime.call(runtime.new("tests.settings.Test"), "caught") is None
