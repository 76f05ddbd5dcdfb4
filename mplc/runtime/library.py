"""The root yaql context of each Format: yaql's standard (or legacy) library, Murano's functions
(``yaql_functions``), the engine's (``system.engine_functions``) and ``dump``. Above every
module that defines functions, so none of them imports another's registrations."""

import yaql
from yaql import legacy

from mplc.runtime import expressions, serialization, yaql_functions
from mplc.runtime.system import engine_functions

_root_contexts: dict = {}


def root_context(version: tuple[int, int]):
    """The shared root context of a Format: yaql's library, murano's functions, the engine."""
    generation = expressions.function_generation(version)
    context = _root_contexts.get(generation)
    if context is None:
        if generation == 0:
            base = legacy.create_context(convention=expressions.CONVENTION,
                                         finalizer=expressions.finalize_function)
        else:
            base = yaql.create_context(convention=expressions.CONVENTION,
                                       finalizer=expressions.finalize_function)
        context = base.create_child_context()
        context = yaql_functions.register(context, version)
        context.register_function(serialization.dump)
        context = engine_functions.register(context, version)
        context[expressions.ENGINE] = expressions.engine_for(version)
        _root_contexts[generation] = context
    return context


def is_standard_root(context) -> bool:
    """Whether ``context`` is the root context of a Format (yaql's standard or legacy library
    and murano's functions, nothing a package defines). The legacy library registers the
    standard queries the fast paths run (``select``, ``where``, ``sum``, ``join``) as extension
    methods: the same functions, found first, with the same result."""
    return context is not None and (context is _root_contexts.get(1) or context is _root_contexts.get(2)
                                    or context is _root_contexts.get(0))
