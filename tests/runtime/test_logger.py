"""io.murano.system.Logger as the reference's test_logger pins it, and what the reference logs
for the same calls (checked with it): Python logger ``applications.<name>``, every level, a
warning before a message whose fields the arguments do not fill, format errors that fail the
call, and ``exception()`` writing the caught exception's stack trace after the message (the
reference's frames also carry their instruction text, which compiled code does not keep)."""

import logging
import textwrap

import pytest

import mplc
from mplc.runtime.errors import MuranoError

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.logging
    Name: Test
    Methods:
      levels:
        Body:
          - $log: logger(journal)
          - $log.trace('at {0}', trace)
          - $log.debug('at {level}', level => debug)
          - $log.info('plain')
          - $log.info('ключ {0}', 'значение')
          - $log.warning('one {0}', 1, 2)
          - $log.error('at {0}', error)
          - $log.critical('at {0}', critical)
      unfilled:
        Body:
          - $log: logger(journal)
          - $log.info('needs {name} and {0}')
          - Return: after
      malformed:
        Body:
          - logger(journal).info('open {')
      failure:
        Body:
          - Try:
              - $.explode()
            Catch:
              As: caught
              Do:
                - logger(journal).exception($caught, 'failed in {0}', failure)
      explode:
        Body:
          - Throw: Broken
            Message: down here
""")


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    root = tmp_path_factory.mktemp("logging")
    (root / "Classes").mkdir()
    (root / "Classes" / "case.yaml").write_text(CLASSES, encoding="utf-8")
    (root / "manifest.yaml").write_text(
        "Format: 1.0\nType: Library\nFullName: tests.logging\n"
        "Classes:\n  tests.logging.Test: case.yaml\n")
    return root, str(tmp_path_factory.mktemp("cache"))


def run(package, method, caplog):
    root, cache_dir = package
    runtime = mplc.Runtime([str(root)], cache_dir=cache_dir)
    obj = runtime.load({"?": {"id": "root", "type": "tests.logging.Test"}})
    caplog.clear()
    with caplog.at_level(1, logger="applications"):
        result = runtime.call(obj, method)
    return result, [(r.name, r.levelname, r.getMessage()) for r in caplog.records]


def test_every_level_logs_the_formatted_message_to_applications_name(package, caplog):
    assert run(package, "levels", caplog)[1] == [
        ("applications.journal", "TRACE", "at trace"),
        ("applications.journal", "DEBUG", "at debug"),
        ("applications.journal", "INFO", "plain"),
        ("applications.journal", "INFO", "ключ значение"),
        ("applications.journal", "WARNING", "one 1"),
        ("applications.journal", "ERROR", "at error"),
        ("applications.journal", "CRITICAL", "at critical")]


def test_a_message_the_arguments_do_not_fill_is_logged_as_written_after_a_warning(package, caplog):
    assert run(package, "unfilled", caplog) == ("after", [
        ("applications.journal", "WARNING", "Can not format string: needs {name} and {0}"),
        ("applications.journal", "INFO", "needs {name} and {0}")])


def test_a_malformed_message_fails_the_call(package, caplog):
    with pytest.raises(MuranoError) as caught:
        run(package, "malformed", caplog)
    assert caught.value.type_name == "ValueError"
    assert "Single '{' encountered in format string" in str(caught.value)


def test_exception_logs_the_message_then_the_stack_trace(package, caplog):
    root, _ = package
    path = root / "Classes" / "case.yaml"
    assert run(package, "failure", caplog)[1] == [(
        "applications.journal", "ERROR",
        f'failed in failure\n'
        f'File "{path}", line 26:13 in method failure of type tests.logging.Test\n'
        f'    $.explode()\n'
        f'File "{path}", line 33:9 in method explode of type tests.logging.Test\n'
        f'    block construct')]
