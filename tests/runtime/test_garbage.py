"""GC.collect() in the middle of a method: objects held only by variables, arguments or ``this``
of running methods stay alive, as under the reference's Python collector (traces checked with
the reference)."""

import textwrap

import pytest

import mplc

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.garbage
      sys: io.murano.system
    Name: Test
    Properties:
      kept:
        Contract: $
        Usage: Runtime
    Methods:
      locals:
        Body:
          - $local: new(Item, value => 1)
          - $.kept: new(Item, value => 2)
          - new(Item, value => 3)
          - sys:GC.collect()
          - trace(collected)
          - Return: [$local.value, $.kept.value]
      arguments:
        Body:
          - Return: $this.collectWhileHolding(new(Item, value => 4))
      collectWhileHolding:
        Arguments:
          - item:
              Contract: $
        Body:
          - sys:GC.collect()
          - trace(collected)
          - Return: $item.value
      callee:
        Body:
          - Return: new(Item, value => 5).collectInside()
    ---
    Namespaces:
      =: tests.garbage
      sys: io.murano.system
    Name: Item
    Properties:
      value:
        Contract: $.int()
    Methods:
      collectInside:
        Body:
          - sys:GC.collect()
          - trace(collected)
          - Return: $.value
      .destroy:
        Body:
          - trace(format('destroy {0}', $.value))
""")


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    root = tmp_path_factory.mktemp("garbage")
    (root / "Classes").mkdir()
    (root / "Classes" / "case.yaml").write_text(CLASSES)
    (root / "manifest.yaml").write_text(
        "Format: 1.3\nType: Library\nFullName: tests.garbage\n"
        "Classes:\n  tests.garbage.Test: case.yaml\n  tests.garbage.Item: case.yaml\n")
    return str(root), str(tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("method, result, traces", [
    ("locals", [1, 2], ["destroy 3", "collected"]),
    ("arguments", 4, ["collected"]),
    ("callee", 5, ["collected"]),
])
def test_collect_keeps_what_running_methods_hold(package, method, result, traces):
    path, cache_dir = package
    runtime = mplc.Runtime([path], cache_dir=cache_dir, trace=True)
    root = runtime.load({"?": {"id": "root", "type": "tests.garbage.Test"}})
    assert runtime.render(runtime.call(root, method)) == result
    assert runtime.render(runtime.traces) == traces
