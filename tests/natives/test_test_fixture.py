"""io.murano.test.TestFixture natives: load() builds a model's objects, assertions fail as the
reference's testtools assertions do (messages and exception names checked with the reference)."""

import textwrap

import pytest

import mplc
from mplc.runtime.errors import MuranoError

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.fixture
      tst: io.murano.test
      std: io.murano
    Name: Checks
    Extends: tst:TestFixture
    Properties:
      size:
        Contract: $.int()
    Methods:
      loadChild:
        Body:
          - $child: $this.load({Objects => {'?' => {type => 'tests.fixture.Checks', id => 'c1'}, size => 5}})
          - Return: [$child.size, id($child), $child = $this]
      loadByTypeKey:
        Body:
          - $model:
              Objects:
                std:Environment:
                  name: env
          - Return: typeinfo($this.load($model)).name
      passing:
        Body:
          - $this.startEnv()
          - $this.assertEqual([1, 2], [1, 2])
          - $this.assertTrue(1)
          - $this.assertFalse('')
          - $this.assertIn(2, [1, 2])
          - $this.assertNotIn(3, [1, 2])
          - $this.finishEnv()
          - Return: passed
      caught:
        Body:
          - Try:
              - $this.assertTrue(false, 'boom')
            Catch:
              - As: error
                Do:
                  - Return: [$error.name, $error.message]
""")


@pytest.fixture(scope="module")
def runtime_factory(tmp_path_factory):
    package = tmp_path_factory.mktemp("fixture")
    (package / "Classes").mkdir()
    (package / "Classes" / "Checks.yaml").write_text(CLASSES)
    (package / "manifest.yaml").write_text(
        "Format: 1.3\nType: Library\nFullName: tests.fixture\n"
        "Classes:\n  tests.fixture.Checks: Checks.yaml\n")
    cache_dir = str(tmp_path_factory.mktemp("cache"))

    def build():
        runtime = mplc.Runtime([str(package)], cache_dir=cache_dir)
        return runtime, runtime.load({"?": {"id": "root", "type": "tests.fixture.Checks"}})
    return build


def call(runtime_factory, method, *args):
    runtime, root = runtime_factory()
    return runtime.render(runtime.call(root, method, *args))


def test_load_builds_the_model_and_returns_its_root(runtime_factory):
    assert call(runtime_factory, "loadChild") == [5, "c1", False]


def test_load_accepts_type_references_as_keys(runtime_factory):
    assert call(runtime_factory, "loadByTypeKey") == "io.murano.Environment"


def test_passing_assertions_and_sessions(runtime_factory):
    assert call(runtime_factory, "passing") == "passed"


def test_failed_assertion_is_a_catchable_exception(runtime_factory):
    assert call(runtime_factory, "caught") == ["AssertionError", "False is not true : boom"]


@pytest.mark.parametrize("method, args, error_type, message", [
    ("assertEqual", (1, 2, "why"), "MismatchError", "1 != 2: why"),
    ("assertEqual", ([1], [2]), "MismatchError", "[1] != [2]"),
    ("assertTrue", (False, "boom"), "AssertionError", "False is not true : boom"),
    ("assertFalse", (1,), "AssertionError", "1 is not false"),
    ("assertIn", (3, [1, 2]), "MismatchError", "3 not in [1, 2]"),
    ("assertNotIn", (1, [1, 2], "m"), "MismatchError", "[1, 2] matches Contains(1): m"),
])
def test_failed_assertions_are_named_and_worded_as_in_the_reference(runtime_factory, method, args,
                                                                   error_type, message):
    runtime, root = runtime_factory()
    with pytest.raises(MuranoError) as caught:
        runtime.call(root, method, *args)
    assert caught.value.type_name == error_type
    assert str(caught.value).endswith(message)
