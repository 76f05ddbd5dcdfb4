"""yaql's private fields mplc builds and reads (mplc/runtime/yaql_adapter.py): the installed
yaql must hold them as expected, and no module but the declared ones may touch them."""

import ast
import os

import pytest
from yaql.language import utils

import mplc
from mplc.runtime import yaql_adapter

ROOT = os.path.dirname(mplc.__file__)
FIELDS = set(yaql_adapter.FROZEN_DICT_FIELDS) | set(yaql_adapter.CONTEXT_FIELDS)


def test_the_installed_yaql_is_what_mplc_expects():
    assert yaql_adapter.problems() == []


def test_a_changed_field_is_reported(monkeypatch):
    original = utils.FrozenDict.__init__

    def renamed(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self._items = self.__dict__.pop("_d")

    monkeypatch.setattr(utils.FrozenDict, "__init__", renamed)
    assert any("FrozenDict fields" in problem for problem in yaql_adapter.problems())


def _field_uses():
    """(module, field) of every ``x.<field>`` outside ``self`` in mplc/, and of every string
    constant naming a field (codegen emits them as ``ast.Attribute(attr=...)``)."""
    uses = set()
    for directory, _, files in os.walk(ROOT):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            module = "mplc." + os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
            for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
                if isinstance(node, ast.Attribute) and node.attr in FIELDS and not (
                        isinstance(node.value, ast.Name) and node.value.id == "self"):
                    uses.add((module, node.attr))
                elif isinstance(node, ast.Constant) and node.value in FIELDS:
                    uses.add((module, node.value))
    return uses


def test_only_declared_modules_touch_the_fields():
    allowed = {("mplc.runtime.yaql_adapter", field) for field in FIELDS} | {
        (module, field) for module, fields in yaql_adapter.INLINE_READERS.items() for field in fields}
    uses = _field_uses()
    assert ("mplc.runtime.yaql_adapter", "_d") in uses
    assert sorted(uses - allowed) == []


@pytest.mark.parametrize("module", sorted(yaql_adapter.INLINE_READERS))
def test_declared_readers_still_read(module):
    """A module that stopped reading a field is taken off the list (it cannot fail otherwise)."""
    used = {field for reader, field in _field_uses() if reader == module}
    assert used == yaql_adapter.INLINE_READERS[module]
