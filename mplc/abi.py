"""The ABI between generated modules and the runtime: its version and every name compiled code
may use. Generated code starts with ``import mplc.runtime as _r`` and reads only
``_r.<NAMES>``, ``_r.fast.<FAST_NAMES>`` and ``_r.contracts.<CONTRACT_NAMES>``;
``mplc.runtime`` exports exactly ``NAMES`` (tests/test_abi.py checks both sides).

Bump ``VERSION`` whenever a name goes, or what one takes, returns or means changes: compiled
packages and the compile cache are keyed on it (``compatibility_key``), not on mplc's source.
A leaf module: codegen, the runtime and the build all read it."""

import importlib.util

import yaql

import mplc

VERSION = 4

SPECS = ("PackageSpec", "ClassSpec", "PropertySpec", "MethodSpec", "ArgumentSpec", "MetaSpec")
"""What a module hands the loader (``PACKAGE``, ``CLASS``): docs/compiled-modules.md."""

EXPRESSIONS = ("engine_for", "call", "constant", "constant_default", "keyword", "rule", "lazy",
               "type_reference", "evaluate", "result", "freeze_list", "freeze_dict", "built_data")
"""Evaluating yaql expression trees the way yaql does (runtime.expressions, runtime.statements)."""

STATEMENTS = ("assign", "target", "variable", "iterate", "repeat_count", "match_equals", "parallel",
              "ParallelReturn", "throw", "catch_matches", "exception_value", "exception_cause",
              "failure", "deferred", "misplaced")
"""MuranoPL statements' semantics (runtime.statements)."""

NAMESPACES = ("fast", "contracts")

NAMES = frozenset(SPECS + EXPRESSIONS + STATEMENTS + NAMESPACES)
"""Everything ``_r.<name>`` may read: ``mplc.runtime.__all__``."""

FAST_NAMES = frozenset((
    # values and types guards compare with
    "ALWAYS_SMALL", "CallContext", "EMPTY_TUPLE", "FrozenDict", "INLINE_BOUND", "INLINE_LOWER_BOUND",
    "KEPT", "METHOD_CONTEXT_KEY", "MuranoObject", "MuranoPlException", "NO_VALUE", "QUOTA_FREE",
    "SCALARS", "SHORT", "SHORT_SIZED", "SMALL_RESULTS",
    # call sites
    "MethodCall", "NewObject", "PropertyRead", "argument_acceptance", "as_context", "enter_slowly",
    "new_instance", "new_object", "per_item_call", "returned", "running_parallels",
    "to_murano_exception", "set_variable", "variable", "child",
    # operators and collections
    "add", "subtract", "multiply", "divide", "modulo", "negate", "greater", "greater_or_equal",
    "less", "less_or_equal", "contains", "index", "legacy_index", "length", "format_string", "build_list",
    "collection", "range_of", "range_between", "legacy_range_between", "to_string", "concat_strings",
    "dict_of_pairs", "dict_of_selected", "dict_size_quota", "final_dict",
    "finalize", "frozen_dict", "pair_quota", "quota", "selected_range", "selected_result",
    "selected_where",
    # murano's functions
    "object_id", "object_name", "object_type", "trace_value", "random_name", "is_instance",
))
"""``_r.fast.<name>``: the expression fast paths' helpers (runtime.fast_paths)."""

CONTRACT_NAMES = frozenset((
    "PASSKEY", "freeze", "evaluate_contract", "passes_objects", "passes_unchanged", "constant",
    "string", "integer", "boolean", "not_null", "check", "class_instance", "template", "owned",
    "not_owned", "list_of", "dict_of",
))
"""``_r.contracts.<name>``: validator primitives (runtime.contract_primitives)."""


def compatibility_key() -> str:
    """What compiled output must match to run here: mplc's version, the ABI version, the
    bytecode magic and yaql's version (the expression trees in compiled code are yaql's parser's
    output, and the runtime evaluates them with yaql's functions). Build records and the compile
    cache are keyed on it."""
    return (f"mplc-{mplc.__version__}+abi-{VERSION}+magic-{importlib.util.MAGIC_NUMBER.hex()}"
            f"+yaql-{yaql.__version__}")
