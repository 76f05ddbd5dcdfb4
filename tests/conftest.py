"""Murano's own core library for the tests, fetched as a user gets it (never committed).

``murano_meta`` is the ``meta`` directory of Murano's source distribution on the package index
(``pip download --no-deps --no-binary :all: murano==16.0.0``): ``io.murano`` and
``io.murano.applications``. It is fetched once into ``$MPLC_TEST_CACHE`` (default
``~/.cache/mplc-tests``) and reused while there; a machine that cannot reach the index fails
these tests loudly instead of skipping them.
"""

import os
import subprocess
import sys
import tarfile
import tempfile

import pytest

pytest_plugins = ["pytester"]  # the pytest plugin's tests run pytest

MURANO_VERSION = "16.0.0"
META_PACKAGES = ("io.murano", "io.murano.applications")


def _cache_root() -> str:
    return os.environ.get("MPLC_TEST_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                             "mplc-tests")


def _fetch_murano_meta(target: str) -> None:
    """Download Murano's sdist and unpack its meta/ packages into ``target`` (atomically)."""
    parent = os.path.dirname(target)
    os.makedirs(parent, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=parent) as work:
        completed = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
             f"murano=={MURANO_VERSION}", "--dest", work],
            capture_output=True, text=True)
        archives = [name for name in os.listdir(work) if name.endswith(".tar.gz")]
        if completed.returncode != 0 or not archives:
            pytest.fail(f"could not download Murano {MURANO_VERSION}'s source distribution from the "
                        f"package index (needed for its core library):\n{completed.stderr}",
                        pytrace=False)
        unpacked = os.path.join(work, "meta")
        prefix = f"murano-{MURANO_VERSION}/meta/"
        with tarfile.open(os.path.join(work, archives[0])) as archive:
            members = [m for m in archive.getmembers() if m.name.startswith(prefix)
                       and m.name[len(prefix):].split("/", 1)[0] in META_PACKAGES
                       and (m.isfile() or m.isdir())]
            for member in members:
                member.name = member.name[len(prefix):]
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            archive.extractall(unpacked, members=members, **safe)
        try:
            os.replace(unpacked, target)
        except OSError:  # another session unpacked it meanwhile
            if not os.path.isdir(target):
                raise


@pytest.fixture(scope="session")
def murano_meta() -> str:
    """The directory holding Murano's io.murano and io.murano.applications packages."""
    target = os.path.join(_cache_root(), f"murano-{MURANO_VERSION}-meta")
    if not all(os.path.isfile(os.path.join(target, name, "manifest.yaml")) for name in META_PACKAGES):
        _fetch_murano_meta(target)
    return target



@pytest.fixture(scope="session", autouse=True)
def no_directory_named_after_a_missing_value():
    """A test that hands a subprocess ``MPLC_CACHE_DIR=str(None)`` (an unset option) makes mplc
    keep its cache in ./None: the session fails when such a directory appears."""
    places = {os.getcwd(), os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    before = {place for place in places if os.path.lexists(os.path.join(place, "None"))}
    yield
    appeared = sorted(place for place in places - before if os.path.lexists(os.path.join(place, "None")))
    assert appeared == [], f"a test wrote into {appeared[0]}/None: some value was None where a path belongs"
