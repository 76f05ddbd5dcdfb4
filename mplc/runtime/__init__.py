"""The runtime compiled modules call: ``import mplc.runtime as _r`` reaches exactly the names the
ABI declares (``mplc.abi.NAMES``; ``_r.fast`` and ``_r.contracts`` are namespaces of their own).

Never imports mplc.frontend, mplc.codegen or mplc.contracts. Everything else (the Executor,
objects, errors, natives) is imported from the module that defines it (docs/architecture.md).
"""

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded)

from mplc import abi
from mplc.runtime import contract_primitives as contracts
from mplc.runtime import fast_paths as fast
from mplc.runtime.expressions import (call, constant, constant_default, engine_for, freeze_dict, freeze_list,
                                      keyword, lazy, result, rule)
from mplc.runtime.loading import built_data
from mplc.runtime.objects import type_reference
from mplc.runtime.specs import ArgumentSpec, ClassSpec, MetaSpec, MethodSpec, PackageSpec, PropertySpec
from mplc.runtime.statements import (ParallelReturn, assign, catch_matches, deferred, evaluate, exception_cause,
                                     exception_value, failure, iterate, match_equals, misplaced, parallel,
                                     repeat_count, target, throw, variable)

__all__ = sorted(abi.NAMES)
