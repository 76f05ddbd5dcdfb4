"""MuranoPL's yaql grammar: yaql's own plus murano's operators.

``is`` (binary, in ``>``'s precedence group), binary ``:`` (left-associative, binding tightest)
and prefix ``:``, so ``$x is ns:Name`` and ``:Name`` parse. The front end parses with it; the
runtime builds its evaluation engines from it, so both agree on one operator table. A leaf
module: it imports neither side.

Building yaql's LALR tables takes 0.15-0.6 s, most of a short command's run, so the tables are
kept in the user's cache directory, keyed by the grammar's full text (ply's own signature of
start symbol, precedence, tokens and rules) and the yaql version. A cache file that is missing,
unreadable, corrupt or of another grammar is rebuilt; one that cannot be written is skipped.
Anything unexpected about yaql's internals falls back to yaql's own ``factory.create()``.
"""

from __future__ import annotations

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded first)
import functools
import hashlib
import json
import os
import re
import tempfile

import yaql
from yaql.language import factory
try:
    from yaql._ply import lex, yacc  # yaql >= 3.1 carries its own copy of ply
except ImportError:
    from ply import lex, yacc  # yaql 3.0 depends on the ply package instead

CACHE_FORMAT = 1


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
    """One engine of the grammar, without options: the front end parses with it and the
    runtime's engines are copies of it with their options (``YaqlEngine.copy`` shares the
    lexer and parser)."""
    engine_factory = murano_yaql_factory()
    try:
        return _engine_with_cached_tables(engine_factory)
    except (AttributeError, TypeError, KeyError, ValueError, yacc.YaccError):
        return engine_factory.create()  # yaql's internals changed: build it yaql's own way


def parser_cache_dir() -> str:
    """The same directory as compiled packages' cache (``mplc.api.default_cache_dir``)."""
    return os.environ.get("MPLC_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "mplc")


def _engine_with_cached_tables(engine_factory: factory.YaqlFactory) -> factory.YaqlEngine:
    """What ``factory.create()`` builds, with the LALR tables read from the cache when the
    grammar is the same, else computed by ply and written there."""
    operators = engine_factory._build_operator_table(engine_factory._name_generator())
    lexer_rules = engine_factory._create_lexer(operators)
    ply_lexer = lex.lex(object=lexer_rules, reflags=re.UNICODE | re.VERBOSE)
    parser_rules = engine_factory._create_parser(lexer_rules, operators)

    reflection = yacc.ParserReflect({name: getattr(parser_rules, name) for name in dir(parser_rules)},
                                    log=yacc.NullLogger())
    reflection.get_all()
    reflection.validate_precedence()
    reflection.validate_pfunctions()
    if reflection.error:
        raise yacc.YaccError("yaql's parser rules do not validate")
    grammar = yacc.Grammar(reflection.tokens)
    for terminal, associativity, level in reflection.preclist:
        grammar.set_precedence(terminal, associativity, level)
    for function_name, (file, line, rule_name, symbols) in reflection.grammar:
        grammar.add_production(rule_name, symbols, function_name, file, line)
    grammar.set_start(reflection.start)

    signature = f"{CACHE_FORMAT}\n{getattr(yaql, '__version__', '')}\n{reflection.signature()}"
    path = os.path.join(parser_cache_dir(),
                        f"yaql-parser-{hashlib.sha256(signature.encode()).hexdigest()[:24]}.json")
    tables = _read_tables(path, signature, len(grammar.Productions))
    if tables is None:
        computed = yacc.LRTable(grammar, yacc.NullLogger())
        tables = computed.lr_action, computed.lr_goto
        _write_tables(path, signature, *tables)
    table = yacc.LRTable.__new__(yacc.LRTable)  # the computed tables, without computing them
    table.lr_productions = grammar.Productions
    table.lr_action, table.lr_goto = tables
    table.bind_callables(reflection.pdict)
    return factory.YaqlEngine(ply_lexer, yacc.LRParser(table, reflection.error_func), None,
                              engine_factory)


def _read_tables(path: str, signature: str, production_count: int):
    """The (action, goto) tables stored for ``signature``, or None when the file is missing
    or anything about it is wrong."""
    try:
        with open(path, encoding="utf-8") as stream:
            stored = json.load(stream)
        if stored["signature"] != signature:
            return None
        action = {int(state): {token: int(step) for token, step in steps.items()}
                  for state, steps in stored["action"].items()}
        goto = {int(state): {symbol: int(target) for symbol, target in targets.items()}
                for state, targets in stored["goto"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    states = len(action)
    if (sorted(action) != list(range(states)) or not set(goto) <= set(action)
            or any(not -production_count < step < states for steps in action.values()
                   for step in steps.values())
            or any(not 0 <= target < states for targets in goto.values() for target in targets.values())):
        return None
    return action, goto


def _write_tables(path: str, signature: str, action: dict, goto: dict) -> None:
    """Store the tables atomically (a concurrent reader sees the old file or the new one)."""
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(prefix=".yaql-parser-", dir=directory)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
                json.dump({"signature": signature, "action": action, "goto": goto}, stream)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass  # a read-only or full cache directory costs the next run the build, nothing more
