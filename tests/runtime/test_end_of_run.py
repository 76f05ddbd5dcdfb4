"""The end of a run (``Runtime.finish``, done by ``mplc run`` after its call): static
properties are forgotten, so the next run starts from their Defaults, and objects only they
held are destroyed (checked with the reference's finalisation)."""

import json
import textwrap

import pytest

import mplc
from mplc import cli

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.ending
    Name: Counter
    Properties:
      count: {Usage: Static, Contract: $.int(), Default: 0}
      mark: {Usage: Static, Contract: $.class(Mark)}
      keep: {Contract: $.class(Mark)}
    Methods:
      countUp:
        Body:
          - :Counter.count: :Counter.count + 1
          - If: :Counter.mark = null
            Then:
              - :Counter.mark: new(Mark, label => format('mark {0}', :Counter.count))
          - Return:
              - :Counter.count
              - :Counter.mark.label
    ---
    Namespaces:
      =: tests.ending
    Name: Mark
    Properties:
      label: {Contract: $.string()}
      inner: {Contract: $.class(Mark)}
    Methods:
      .destroy:
        Body:
          - trace('destroy ' + $.label)
""")

MODEL = {"?": {"id": "root", "type": "tests.ending.Counter"}}


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    root = tmp_path_factory.mktemp("ending")
    (root / "Classes").mkdir()
    (root / "Classes" / "case.yaml").write_text(CLASSES)
    (root / "manifest.yaml").write_text(
        "Format: 1.0\nType: Library\nFullName: tests.ending\n"
        "Classes:\n  tests.ending.Counter: case.yaml\n  tests.ending.Mark: case.yaml\n")
    return str(root), str(tmp_path_factory.mktemp("cache"))


def test_statics_live_until_the_run_ends(package):
    path, cache_dir = package
    runtime = mplc.Runtime([path], cache_dir=cache_dir, trace=True)
    root = runtime.load(MODEL)
    assert runtime.render(runtime.call(root, "countUp")) == [1, "mark 1"]
    assert runtime.render(runtime.call(root, "countUp")) == [2, "mark 1"]
    runtime.finish()
    assert runtime.render(runtime.traces) == ["destroy mark 1"]
    assert runtime.render(runtime.call(root, "countUp")) == [1, "mark 1"]


def test_mplc_run_ends_the_run(package, tmp_path, capsys):
    path, cache_dir = package
    model = tmp_path / "model.json"
    model.write_text(json.dumps(MODEL))
    status = cli.main(["run", "--path", path, "--model", str(model), "--method", "countUp",
                       "--trace", "--repeat", "2", "--cache-dir", cache_dir])
    output = json.loads(capsys.readouterr().out)
    assert status == 0
    assert output["result"] == [2, "mark 1"]
    assert output["traces"] == ["destroy mark 1"]


def test_model_without_objects_destroys_the_copy(package):
    """``Objects: null`` with an ObjectsCopy (a deleted deployment): the copied objects are
    destroyed when the model loads, the owned one first (traces as the reference's)."""
    path, cache_dir = package
    runtime = mplc.Runtime([path], cache_dir=cache_dir, trace=True)
    copy = {"?": {"id": "old", "type": "tests.ending.Counter"},
            "keep": {"?": {"id": "m1", "type": "tests.ending.Mark"}, "label": "outer",
                     "inner": {"?": {"id": "m2", "type": "tests.ending.Mark"}, "label": "inner"}}}
    assert runtime.executor.load({"Objects": None, "ObjectsCopy": copy}) is None
    assert runtime.render(runtime.traces) == ["destroy inner", "destroy outer"]
