"""Class configuration (the executor's ``class_configs`` directory) as the reference's
test_config_properties pins it: a Config property takes the configured value (its Default
without one) and ignores the model; a configured value of any other property replaces its
Default, while a value the model gives still wins."""

import json
import textwrap

import pytest

import mplc

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.config
    Name: Configured
    Properties:
      fromConfig: {Usage: Config, Contract: $.int(), Default: 123}
      plain: {Contract: $.string(), Default: DEFAULT}
    Methods:
      show:
        Body:
          - Return: [$.fromConfig, $.plain]
""")


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    root = tmp_path_factory.mktemp("config")
    (root / "Classes").mkdir()
    (root / "Classes" / "case.yaml").write_text(CLASSES)
    (root / "manifest.yaml").write_text(
        "Format: 1.0\nType: Library\nFullName: tests.config\n"
        "Classes:\n  tests.config.Configured: case.yaml\n")
    return str(root), str(tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("configured, model_properties, expected", [
    (None, {}, [123, "DEFAULT"]),
    ({"fromConfig": "987"}, {}, [987, "DEFAULT"]),
    (None, {"fromConfig": 555}, [123, "DEFAULT"]),
    ({"plain": "custom"}, {}, [123, "custom"]),
    ({"plain": "custom"}, {"plain": "qq"}, [123, "qq"]),
])
def test_config_values(package, tmp_path, configured, model_properties, expected):
    path, cache_dir = package
    runtime = mplc.Runtime([path], cache_dir=cache_dir)
    if configured is not None:
        (tmp_path / "tests.config.Configured.json").write_text(json.dumps(configured))
        runtime.executor.class_configs = str(tmp_path)
    root = runtime.load({"?": {"id": "root", "type": "tests.config.Configured"}, **model_properties})
    assert runtime.render(runtime.call(root, "show")) == expected
