"""Runtime: objects, object store, class loading, natives, yaql bridge.

Never imports mplc.frontend, mplc.codegen or mplc.contracts. The names generated modules use
are listed in docs/compiled-modules.md.
"""

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded)

from mplc.runtime import contract_primitives as contracts  # noqa: F401  (``_r.contracts.*``, the contracts engineer's)
from mplc.runtime import fast_paths as fast  # noqa: F401  (``_r.fast.*``, expression fast paths)

from mplc.runtime.expressions import (call, constant, constant_default, engine_for, evaluate, freeze_dict,
                                 freeze_list, keyword, lazy, result, rule)
from mplc.runtime.contract_context import ContractContext
from mplc.runtime.errors import (AmbiguousMethodName, AmbiguousPropertyNameError, ContractViolation,
                                 ContractViolationException, MuranoError, MuranoPlException,
                                 NoClassFound, NoMethodFound, NoPropertyFound, NoWriteAccessError,
                                 PropertyReadError, PropertyWriteError,
                                 UninitializedPropertyAccessError)
from mplc.runtime.executor import Executor
from mplc.runtime.statements import (ParallelReturn, assign, catch_matches, condition, deferred,
                               exception_cause, exception_value, failure, iterate, match_equals, misplaced, parallel, repeat_count,
                               target, throw, variable)
from mplc.runtime.loading import built_data
from mplc.runtime.objects import MuranoObject, MuranoType, TypeReference
from mplc.runtime.natives import native
from mplc.runtime.specs import (ArgumentSpec, ClassSpec, MetaSpec, MethodSpec, PackageSpec,
                                PropertySpec)


def type_reference(context, full_name):
    """``ns:Name`` resolved at compile time: the class as a value, seen from the running class."""
    from mplc.runtime.expressions import NAMES_SCOPE
    return Executor.current().find_class(full_name, None if context is None else context[NAMES_SCOPE]).reference

