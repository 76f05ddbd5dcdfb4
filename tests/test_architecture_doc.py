"""docs/architecture.md, the one page of layers and module responsibilities, stays true: it
names every module of mplc/ and no module that is gone, and lists the runtime's modules in the
layer order tests/test_import_graph.py enforces."""

import os
import re

import mplc
from tests.test_import_graph import RUNTIME_LAYERS

ROOT = os.path.dirname(os.path.abspath(mplc.__file__))
DOC = os.path.join(os.path.dirname(ROOT), "docs", "architecture.md")


def _named() -> list[str]:
    """The module paths the page names (`runtime/limits.py`), in order, relative to mplc/."""
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    return [path.removeprefix("mplc/") for path in re.findall(r"`((?:\w+/)*\w+\.py)`", text)
            if not path.startswith("tests/")]


def _modules() -> set[str]:
    found = set()
    for directory, _, files in os.walk(ROOT):
        for name in files:
            if name.endswith(".py") and name != "__init__.py":
                found.add(os.path.relpath(os.path.join(directory, name), ROOT).replace(os.sep, "/"))
    return found


def test_every_module_has_its_line():
    assert sorted(_modules() - set(_named())) == []


def test_every_module_named_exists():
    assert sorted(set(_named()) - _modules()) == []


def test_runtime_modules_are_listed_lowest_layer_first():
    layers = {name: number for number, layer in enumerate(RUNTIME_LAYERS) for name in layer}
    listed = [path.split("/")[1].removesuffix(".py") for path in _named() if path.startswith("runtime/")]
    numbers = [layers.get(name) for name in listed]
    assert None not in numbers, [name for name in listed if name not in layers]
    assert numbers == sorted(numbers), listed
