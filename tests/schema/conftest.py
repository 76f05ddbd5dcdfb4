"""The schema generator over tests/data/schema, loaded by the real front end with the bundled
core library, as ``mplc schema`` loads it."""

from __future__ import annotations

import pytest

from mplc.commands.schema import load_forms
from mplc.diagnostics import DiagnosticSink
from schema_harness import PACKAGE_PATHS, SERVE_APP, ServeProcess



@pytest.fixture(scope="session")
def forms():
    """The schema generator over the test packages."""
    sink = DiagnosticSink()
    generator = load_forms(PACKAGE_PATHS, None, sink)
    assert not sink.has_errors, sink.diagnostics
    return generator


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """One ``mplc serve`` for the session: short limits, so the tests of them are quick."""
    serve = ServeProcess([*PACKAGE_PATHS, SERVE_APP, "--timeout", "3", "--workers", "2",
                          "--idle-timeout", "2", "--body-timeout", "2"],
                         str(tmp_path_factory.mktemp("cache")))
    yield serve
    assert serve.stop() == 0
