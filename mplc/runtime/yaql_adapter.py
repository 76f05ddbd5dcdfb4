"""yaql's private fields mplc relies on, declared and checked in one place.

yaql keeps a FrozenDict's items in ``_d`` (with its cached hash in ``_hash``) and a context's
own data and parent in ``_data`` and ``_parent_context``. Building these objects without their
constructors, and reading their fields without yaql's normalising accessors, is what makes
method calls and data access cheap; a yaql release that renames a field must fail here
(``problems``, run by tests/test_yaql_internals.py), not silently in compiled code.

The builders and accessors live here. Reads on the hottest paths (a method call, a property
read, a variable write, the locals of a generated body) stay inline where a call would cost
more than the read itself (``context._data``: 7ns; ``context_data(context)``, an attrgetter:
26ns, on a method call of ~300ns in fib(18)): each module that does so is listed in
``INLINE_READERS`` with the fields it reads, and the test fails on any other module or field."""

from __future__ import annotations

import operator

from yaql.language import contexts, utils

FROZEN_DICT_FIELDS = ("_d", "_hash")
CONTEXT_FIELDS = ("_parent_context", "_convention", "_functions", "_data", "_exclusive_funcs")

INLINE_READERS = {
    "mplc.runtime.expressions": {"_d", "_hash", "_data", "_parent_context"},
    "mplc.runtime.executor": {"_data", "_parent_context"},
    "mplc.runtime.fast_paths": {"_d", "_data", "_parent_context", "_functions"},
    "mplc.codegen.body_locals": {"_data"},
    "mplc.codegen.fast_paths": {"_d", "_hash"},
}
"""Modules besides this one that touch the fields inline (generated code included: codegen
emits ``context._data`` and FrozenDict builds)."""

_new_object = object.__new__

frozen_dict_items = operator.attrgetter("_d")
"""A FrozenDict's own dict (iterating the Mapping ABC costs a call per item)."""

context_data = operator.attrgetter("_data")
"""A plain context's own data, keys in stored form (no parents asked)."""


def frozen_dict(plain: dict) -> utils.FrozenDict:
    """``FrozenDict(plain)`` taking ``plain`` itself, without the constructor's copy."""
    frozen = _new_object(utils.FrozenDict)
    frozen._d = plain
    frozen._hash = None
    return frozen


def set_in_place(frozen: utils.FrozenDict, key, value) -> None:
    """``frozen[key] = value`` in its own dict, its cached hash dropped: only for a FrozenDict
    nothing else holds (a variable built up item by item)."""
    frozen._d[key] = value
    frozen._hash = None


def own_data(context):
    """``context_data`` of a yaql context; None for anything else."""
    return getattr(context, "_data", None)


def child_context(parent, data):
    """``parent.create_child_context()`` holding ``data``, without running yaql's constructors."""
    context = _new_object(contexts.Context)
    context._parent_context = parent  # one by one: kept in the object's inline values, no dict built
    context._convention = parent._convention
    context._functions = {}
    context._data = data
    context._exclusive_funcs = set()
    return context


def problems() -> list[str]:
    """How the installed yaql differs from what this module expects (nothing when it does not)."""
    try:
        return _problems()
    except (AttributeError, KeyError, TypeError) as error:
        return [f"yaql's objects fail where mplc reads them: {type(error).__name__}: {error}"]


def _problems() -> list[str]:
    found = []
    theirs = utils.FrozenDict({"a": 1})
    if set(vars(theirs)) != set(FROZEN_DICT_FIELDS) or vars(theirs).get("_d") != {"a": 1}:
        found.append(f"FrozenDict fields are {sorted(vars(theirs))}, expected {list(FROZEN_DICT_FIELDS)}")
    elif vars(frozen_dict({"a": 1})) != vars(theirs):
        found.append(f"FrozenDict({{'a': 1}}) holds {vars(theirs)}, frozen_dict builds {vars(frozen_dict({'a': 1}))}")
    elif hash(theirs) is not None and not isinstance(vars(theirs).get("_hash"), int):
        found.append("FrozenDict caches its hash elsewhere than _hash")
    root = contexts.Context()
    child = root.create_child_context()
    child["x"] = 1
    if set(vars(child)) != set(CONTEXT_FIELDS):
        found.append(f"Context fields are {sorted(vars(child))}, expected {sorted(CONTEXT_FIELDS)}")
    else:
        if vars(child)["_parent_context"] is not root:
            found.append("Context._parent_context is not the parent")
        if vars(child)["_data"] != {"$x": 1}:
            found.append(f"Context._data holds {vars(child)['_data']!r} for x = 1, expected {{'$x': 1}}")
        ours = child_context(root, {"$x": 1})
        if {k: v for k, v in vars(ours).items() if k != "_functions"} != \
                {k: v for k, v in vars(child).items() if k != "_functions"}:
            found.append("child_context builds other fields than Context.create_child_context")
    return found


__all__ = ["CONTEXT_FIELDS", "FROZEN_DICT_FIELDS", "INLINE_READERS", "child_context", "context_data",
           "frozen_dict", "frozen_dict_items", "own_data", "problems", "set_in_place"]
