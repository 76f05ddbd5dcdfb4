"""MuranoPL's yaql grammar: yaql's own plus murano's operators.

``is`` (binary, in ``>``'s precedence group), binary ``:`` (left-associative, binding tightest)
and prefix ``:``, so ``$x is ns:Name`` and ``:Name`` parse. The front end parses with it; the
runtime builds its evaluation engines from it, so both agree on one operator table. A leaf
module: it imports neither side.
"""

from __future__ import annotations

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded first)
import functools

from yaql.language import factory


def murano_yaql_factory() -> factory.YaqlFactory:
    engine_factory = factory.YaqlFactory()
    engine_factory.insert_operator(
        ">", True, "is", factory.OperatorType.BINARY_LEFT_ASSOCIATIVE, False)
    engine_factory.insert_operator(
        None, True, ":", factory.OperatorType.BINARY_LEFT_ASSOCIATIVE, True)
    engine_factory.insert_operator(
        ":", True, ":", factory.OperatorType.PREFIX_UNARY, False)
    engine_factory.operators.insert(0, ())
    return engine_factory


@functools.lru_cache(maxsize=1)
def murano_engine():
    """One engine of the grammar, without options: building yaql's parser tables takes about
    0.15 s, so the front end parses with it and the runtime's engines are copies of it with
    their options (``YaqlEngine.copy`` shares the lexer and parser)."""
    return murano_yaql_factory().create()
