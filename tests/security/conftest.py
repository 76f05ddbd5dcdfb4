"""Fixtures of the hostile cases: one sandbox per session (hostile_sandbox.py)."""

import pytest

from hostile_sandbox import Sandbox


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory):
    return Sandbox(tmp_path_factory.mktemp("sandbox"))


@pytest.fixture
def contained(sandbox):
    """Checks after the test that nothing under ``outside`` changed; the test calls
    ``sandbox.leaked`` itself with the outputs it saw."""
    before = sandbox.outside_state()
    yield sandbox
    assert sandbox.outside_state() == before
