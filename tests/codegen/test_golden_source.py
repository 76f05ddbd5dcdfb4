"""Golden files of generated source: each package below compiles to the Python text under
golden/outputs/<package>/ (what ``mplc compile --emit-source`` writes: ``__init__.py`` for the
package module, one file per class named by the class), reviewed as text when codegen changes.
Paths of the package are written ``<package>``.

Run with MPLC_UPDATE_GOLDEN=1 to rewrite the outputs after a deliberate change, then review
the diff."""

import ast
import copy
import os

import pytest

from mplc.codegen.output import compile_package
from mplc.codegen import readable
from mplc.codegen.readable import readable_source
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.packages import load_packages

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
PACKAGES = {
    "com.example.Hello": os.path.join(REPOSITORY, "examples", "hello"),
    "com.example.WebServer": os.path.join(GOLDEN, "inputs", "com.example.WebServer"),
    "com.example.legacy.Tools": os.path.join(GOLDEN, "inputs", "com.example.legacy.Tools"),
}
UPDATE = os.environ.get("MPLC_UPDATE_GOLDEN") == "1"
pytestmark = pytest.mark.skipif(readable.astor is None, reason="astor cannot run on this Python (no markers)")


def generated_sources(root: str) -> dict[str, str]:
    """File name -> generated Python text of every module of the package at ``root``."""
    sink = DiagnosticSink()
    [package] = load_packages([root], sink)
    assert not sink.has_errors, sink.diagnostics
    class_names = {f"c{index:04d}": cls.name
                   for index, cls in enumerate(sorted(package.classes, key=lambda cls: cls.name))}
    sources = {}
    for module in compile_package(package):
        text = readable_source(_without_path(module.tree, os.path.abspath(root)), module.code.co_filename)
        sources[class_names.get(module.name, module.name) + ".py"] = text.replace(os.path.abspath(root), "<package>")
    return sources


def _without_path(tree: ast.Module, root: str) -> ast.Module:
    """A copy of ``tree`` whose constants name the package's files ``<package>/...``: astor
    wraps lines by their length, so the checkout's path must not decide the text."""
    def replaced(value):
        if isinstance(value, str):
            return value.replace(root, "<package>")
        if isinstance(value, tuple):
            return tuple(replaced(item) for item in value)
        return value

    tree = copy.deepcopy(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.value = replaced(node.value)
    return tree


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_generated_source_matches_its_golden_file(name):
    directory = os.path.join(GOLDEN, "outputs", name)
    sources = generated_sources(PACKAGES[name])
    if UPDATE:
        os.makedirs(directory, exist_ok=True)
        for stale in set(os.listdir(directory)) - set(sources):
            os.remove(os.path.join(directory, stale))
        for file_name, text in sources.items():
            with open(os.path.join(directory, file_name), "w", encoding="utf-8") as handle:
                handle.write(text)
    assert sorted(os.listdir(directory)) == sorted(sources), "MPLC_UPDATE_GOLDEN=1 writes the outputs"
    for file_name, text in sources.items():
        with open(os.path.join(directory, file_name), encoding="utf-8") as handle:
            assert text == handle.read(), f"{name}/{file_name} differs; MPLC_UPDATE_GOLDEN=1 rewrites it"


def test_every_statement_of_a_body_has_its_yaml_line_above_it():
    text = generated_sources(PACKAGES["com.example.Hello"])["com.example.Hello.py"]
    assert "# Hello.yaml:43  - $template: new(sys:Resources).string('greeting.txt').trim()\n" in text
    assert "# Hello.yaml:70  - $.steps: $.steps + list($step)\n" in text
