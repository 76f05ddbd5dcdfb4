"""The compile cache: keyed on everything compiled output depends on, safe to share between
processes (``mplc serve`` workers, ``-j`` workers, two ``mplc run``s at once)."""

import multiprocessing
import os
import shutil
import sys

import pytest
import yaml
import yaql

from mplc import buildrecord
from mplc.build import compile_packages, compile_sources
from mplc.codegen import output

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from test_cases import write_package  # noqa: E402

CLASSES = """\
Name: Test
Methods:
  run:
    Arguments:
      - n: {Contract: $.int().notNull()}
    Body:
      - Return: $n * 2
"""


@pytest.fixture()
def source(tmp_path):
    return write_package(tmp_path / "src", "tests.cache", CLASSES)


def _directories(outcomes) -> list[str]:
    return sorted(outcome.directory for outcome in outcomes if outcome.directory)


@pytest.mark.parametrize("dependency, refuses_compiled_output", [
    (yaql, True),    # compiled code holds yaql's parse trees and calls yaql's functions
    (yaml, False),   # the front end reads the sources with it; what it compiled runs anywhere
], ids=["yaql", "PyYAML"])
def test_another_version_of_a_dependency_compiles_again(tmp_path, monkeypatch, source, dependency,
                                                        refuses_compiled_output):
    cache = str(tmp_path / "cache")
    before = _directories(compile_sources(source, cache))
    [compiled] = compile_packages([source], str(tmp_path / "out"))
    monkeypatch.setattr(dependency, "__version__", f"{dependency.__version__}.post999")
    after = _directories(compile_sources(source, cache))
    assert len(before) == len(after) == 1 and before != after
    buildrecord.verify(after[0])
    if refuses_compiled_output:
        with pytest.raises(buildrecord.BuildRecordError) as refused:
            buildrecord.verify(compiled)
        assert refused.value.code == "E-STALE-BUILD" and "yaql" in refused.value.message
    else:
        buildrecord.verify(compiled)


def _ours(tmp_path, source) -> tuple[str, str]:
    """(a finished build of ``source`` as ``write_package`` stages it, the place it goes)."""
    [built] = compile_packages([source], str(tmp_path / "built"))
    staging = str(tmp_path / "out" / ".build-ours")
    shutil.copytree(built, staging)
    return staging, str(tmp_path / "out" / os.path.basename(built))


def _same_build_finished_first(staging, place):
    shutil.copytree(staging, place)


def _other_build(staging, place):
    shutil.copytree(staging, place)
    with open(os.path.join(place, buildrecord.BUILD_FILE), "r+", encoding="utf-8") as handle:
        record = yaml.safe_load(handle)
        record["key"] = "0" * 64
        handle.seek(0)
        handle.truncate()
        handle.write(yaml.safe_dump(buildrecord.sign(record)))


def _changed_build(staging, place):
    shutil.copytree(staging, place)
    with open(os.path.join(place, "c0000.pyc"), "ab") as handle:
        handle.write(b"\x00")


def _a_file(staging, place):
    with open(place, "w", encoding="utf-8") as handle:
        handle.write("not a package")


@pytest.mark.parametrize("found, installed", [
    (None, True),
    (_same_build_finished_first, False),  # another process may be importing from it: kept
    (_other_build, True),
    (_changed_build, True),
    (_a_file, True),
], ids=["nothing", "same-build-finished-first", "other-build", "changed-build", "a-file"])
def test_a_finished_build_replaces_what_it_finds_whole(tmp_path, source, found, installed):
    staging, place = _ours(tmp_path, source)
    if found is not None:
        found(staging, place)
    kept = os.stat(place).st_ino if found is _same_build_finished_first else None
    key = buildrecord.read_field(staging, "key")
    assert output._install(staging, place, key, force=False) is installed
    buildrecord.verify(place)
    assert not os.path.exists(staging)
    assert sorted(os.listdir(os.path.dirname(place))) == [os.path.basename(place)]
    if kept is not None:
        assert os.stat(place).st_ino == kept


def _compile_together(barrier, source, cache, results):
    barrier.wait()
    outcomes = compile_sources(source, cache)
    for directory in _directories(outcomes):
        buildrecord.verify(directory)
    results.put(_directories(outcomes))


@pytest.mark.parametrize("processes", [4])
def test_processes_compiling_into_one_cache_at_once_all_get_a_whole_build(tmp_path, source, processes):
    """Processes started together, each compiling the same package into a fresh cache."""
    context = multiprocessing.get_context("fork")
    for attempt in range(3):
        cache = str(tmp_path / f"cache{attempt}")
        barrier, results = context.Barrier(processes), context.Queue()
        workers = [context.Process(target=_compile_together, args=(barrier, source, cache, results))
                   for _ in range(processes)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(120)
        assert [worker.exitcode for worker in workers] == [0] * processes
        found = [results.get(timeout=10) for _ in workers]
        assert all(directories == found[0] for directories in found) and len(found[0]) == 1
        entries = [name for _, folders, files in os.walk(cache) for name in folders + files]
        assert not [name for name in entries if name.startswith(".")]
