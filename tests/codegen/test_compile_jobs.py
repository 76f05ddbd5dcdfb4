"""``mplc compile -j N``: modules compiled by N processes, the same bytes as by one; a progress
bar on a terminal, nothing on a pipe."""

import os
import pty
import select
import subprocess
import sys
import time

import pytest

from mplc.build import CORE_LIBRARY_PATH

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from test_cases import write_package  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def _classes(count: int) -> str:
    return "\n---\n".join(f"""\
Name: C{index}
Properties:
  items: {{Contract: [$.int()], Default: [1, 2]}}
Methods:
  run:
    Arguments:
      - n: {{Contract: $.int().notNull()}}
    Body:
      - $total: 0
      - For: item
        In: $.items.where($ > $n).select($ * {index})
        Do:
          - $total: $total + $item
      - Return:
          - $total
          - format('{{0}}-{index}', $n)
""" for index in range(count))


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    root = tmp_path_factory.mktemp("sources")
    return [CORE_LIBRARY_PATH, os.path.join(EXAMPLES, "hello"),
            write_package(root / "many", "tests.many", _classes(24)),
            write_package(root / "legacy", "tests.legacy", _classes(5), format_version="1.0")]


def _compile(sources, output, jobs, tmp_path, **options):
    return subprocess.run([sys.executable, "-m", "mplc.cli", "compile", *sources, "-o", str(output),
                           "-j", str(jobs), "--emit-source"], capture_output=True, text=True,
                          env=dict(os.environ, MPLC_CACHE_DIR=str(tmp_path / "cache")), **options)


def _tree(directory) -> dict:
    return {os.path.relpath(os.path.join(base, name), directory): open(os.path.join(base, name), "rb").read()
            for base, _, names in os.walk(directory) for name in names}


@pytest.mark.parametrize("jobs", [2, 3, 0])
def test_any_number_of_jobs_writes_the_bytes_one_job_writes(tmp_path, sources, jobs):
    one = _compile(sources, tmp_path / "one", 1, tmp_path)
    many = _compile(sources, tmp_path / "many", jobs, tmp_path)
    assert one.returncode == many.returncode == 0, one.stderr + many.stderr
    assert one.stderr == many.stderr == ""  # piped: no progress bar
    written = _tree(tmp_path / "one")
    assert len(written) > 100 and _tree(tmp_path / "many") == written


def test_a_negative_job_count_is_a_usage_error(tmp_path, sources):
    completed = _compile(sources[1:2], tmp_path / "out", -1, tmp_path)
    assert completed.returncode == 2 and "-j must be 0 (one process per core) or more" in completed.stderr
    assert not os.path.exists(tmp_path / "out")


def _stderr_on_a_terminal(command, environment) -> bytes:
    """What ``command`` writes to its stderr, a pseudo-terminal (stdout is a pipe)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=terminal, env=environment)
    os.close(terminal)
    shown, deadline = b"", time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            if select.select([controller], [], [], 1.0)[0]:
                try:
                    chunk = os.read(controller, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                shown += chunk
            elif process.poll() is not None:
                break
    finally:
        os.close(controller)
        process.kill()
        process.wait()
    return shown


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_terminal_shows_the_modules_written_then_erases_the_bar(tmp_path, sources, jobs):
    command = [sys.executable, "-m", "mplc.cli", "compile", *sources, "-o", str(tmp_path / "out"),
               "-j", str(jobs)]
    shown = _stderr_on_a_terminal(command, dict(os.environ, MPLC_CACHE_DIR=str(tmp_path / "cache")))
    modules = sum(1 for _, _, names in os.walk(tmp_path / "out") for name in names if name.endswith(".pyc"))
    assert modules > 30
    assert shown.startswith(b"\rcompiling [")
    assert f"] {modules}/{modules} modules".encode() in shown and shown.endswith(b"\r\x1b[K")
