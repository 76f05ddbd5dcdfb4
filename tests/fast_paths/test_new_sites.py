"""A ``new()`` site with a constant class name remembers the class per names scope: code of
classes in two packages, where the name means two classes, each gets its own, every time."""

import pytest

import mplc
from mplc.runtime import expressions as bridge, fast_paths as fast
from tests.test_cases import write_package

CASE_CLASSES = """\
Namespaces: {=: case}
Name: Node
---
Namespaces: {=: case}
Name: Holder
"""
OTHER_CLASSES = """\
Namespaces: {=: lib}
Name: Node
---
Namespaces: {=: lib}
Name: Runner
"""


@pytest.fixture
def executor(tmp_path):
    paths = [write_package(tmp_path / "case", "tests.case", CASE_CLASSES),
             write_package(tmp_path / "other", "lib.other", OTHER_CLASSES,
                           require={"io.murano": None, "tests.case": None})]
    return mplc.Runtime(paths, cache_dir=str(tmp_path / "cache")).executor


@pytest.mark.parametrize("scopes, classes", [
    (("case.Holder", "lib.Runner", "case.Holder", "lib.Runner"), ("case.Node", "lib.Node", "case.Node", "lib.Node")),
    (("lib.Runner", "lib.Runner", "case.Holder"), ("lib.Node", "lib.Node", "case.Node")),
])
def test_new_site_resolves_its_name_per_names_scope(executor, scopes, classes):
    site = fast.NewObject("Node")
    engine = bridge.engine_for((1, 3))
    with executor.active():
        made = [site.new(executor.object_context(executor.find_class(scope)), engine).type.name for scope in scopes]
    assert made == list(classes)
