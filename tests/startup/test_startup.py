"""What a short command loads: yaql's parser tables come from the user cache, built once."""

import json
import os

import pytest

from mplc import yaql_grammar

EXPRESSIONS = [
    "$x.where($ > 1 and not $y is ns:Foo).select($.a[1]) + :Bar",
    "range(0, $n).select(dict(id => $, name => concat('item', str($))))",
    "let(a => 1, b => [2, 3]) -> $a + len($b) * -2 mod 3",
    "$.items.orderBy($.name).first(default => null)?.value",
    "{a => 1, 'b' => {c => [1, 2]}}.get(a)",
    "$x in list(1, 2) or #comment",
    "a(b(c(d))) = e[1][2] != f",
    "1 +",
    "')unbalanced(",
]


def parse_all(engine):
    results = []
    for text in EXPRESSIONS:
        try:
            results.append(str(engine(text).expression))
        except Exception as error:  # noqa: BLE001 - the parse error is the result compared
            results.append(f"{type(error).__name__}: {error}")
    return results


@pytest.fixture(scope="module")
def reference_parses():
    return parse_all(yaql_grammar.murano_yaql_factory().create())


def cache_files(directory):
    return sorted(name for name in os.listdir(directory) if name.startswith("yaql-parser-"))


def cached_engine():
    return yaql_grammar._engine_with_cached_tables(yaql_grammar.murano_yaql_factory())


def test_tables_are_computed_once_then_read_from_the_cache(tmp_path, monkeypatch, reference_parses):
    monkeypatch.setenv("MPLC_CACHE_DIR", str(tmp_path))
    assert parse_all(cached_engine()) == reference_parses
    [name] = cache_files(tmp_path)
    stored = (tmp_path / name).read_text()
    assert parse_all(cached_engine()) == reference_parses
    assert cache_files(tmp_path) == [name] and (tmp_path / name).read_text() == stored


def _truncated(text):
    return text[: len(text) // 2]


def _other_grammar(text):
    return text.replace('"signature": "', '"signature": "other ', 1)


def _state_out_of_range(text):
    document = json.loads(text)
    document["goto"]["0"] = {symbol: 10 ** 6 for symbol in document["goto"]["0"]}
    return json.dumps(document)


def _wrong_types(text):
    document = json.loads(text)
    document["action"] = ["not", "a", "table"]
    return json.dumps(document)


@pytest.mark.parametrize("damage", [_truncated, _other_grammar, _state_out_of_range, _wrong_types,
                                    lambda text: "", lambda text: "\x00\xff garbage"])
def test_a_damaged_cache_file_is_rebuilt(tmp_path, monkeypatch, reference_parses, damage):
    monkeypatch.setenv("MPLC_CACHE_DIR", str(tmp_path))
    cached_engine()
    [name] = cache_files(tmp_path)
    good = (tmp_path / name).read_text()
    (tmp_path / name).write_text(damage(good))
    assert parse_all(cached_engine()) == reference_parses
    assert (tmp_path / name).read_text() == good


def test_a_cache_directory_that_cannot_be_written_costs_nothing_but_time(tmp_path, monkeypatch,
                                                                         reference_parses):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("MPLC_CACHE_DIR", str(blocker / "cache"))
    assert parse_all(cached_engine()) == reference_parses
