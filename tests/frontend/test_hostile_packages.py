"""Packages with files that are no regular files: ``mplc`` reports them or leaves them out, in
bounded time (a FIFO or /dev/zero read as a file blocks forever)."""

import os
import shutil
import subprocess
import sys

import pytest

HELLO = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hello")


def mplc(*args):
    return subprocess.run([sys.executable, "-m", "mplc.cli", *args], capture_output=True, text=True,
                          timeout=120)


def make_fifo(path):
    os.mkfifo(path)


def link_to_device(path):
    os.symlink("/dev/zero", path)


def broken_link(path):
    os.symlink("nowhere", path)


def link_loop(path):
    os.symlink(path, path)


def directory(path):
    os.mkdir(path)


SPECIALS = [make_fifo, link_to_device, broken_link, link_loop, directory]


# a link to /dev/zero leads out of the package: an E-OUTSIDE-PACKAGE error (tests/security)
@pytest.mark.parametrize("special", [s for s in SPECIALS if s is not link_to_device],
                         ids=lambda special: special.__name__)
def test_resources_that_are_no_files_are_left_out(special, tmp_path):
    package = tmp_path / "hello"
    shutil.copytree(HELLO, package)
    special(str(package / "Resources" / "special"))
    compiled = mplc("compile", str(package), "-o", str(tmp_path / "out"))
    assert (compiled.returncode, compiled.stderr) == (0, "")
    [output] = os.listdir(tmp_path / "out")
    assert sorted(os.listdir(tmp_path / "out" / output / "Resources")) == ["greeting.txt"]


@pytest.mark.parametrize("special", SPECIALS, ids=lambda special: special.__name__)
def test_a_manifest_that_is_no_file_is_an_io_error(special, tmp_path):
    package = tmp_path / "hello"
    shutil.copytree(HELLO, package)
    os.remove(package / "manifest.yaml")
    special(str(package / "manifest.yaml"))
    checked = mplc("check", str(package))
    assert checked.returncode == 1
    assert checked.stderr.startswith(
        f"{package / 'manifest.yaml'}:1:1: error: cannot read file: not a regular file (a directory, "
        "FIFO, device or broken link) [E-IO]\n")


@pytest.mark.parametrize("special, message", [
    (make_fifo, "not a package: expected a directory or a .zip"),
    (link_to_device, "not a package: expected a directory or a .zip"),
    (broken_link, "no such file or directory"),
    (link_loop, "no such file or directory"),
], ids=lambda value: getattr(value, "__name__", ""))
def test_a_path_that_is_no_file_or_directory_is_a_path_error(special, message, tmp_path):
    path = str(tmp_path / "special")
    special(path)
    checked = mplc("check", path)
    assert (checked.returncode, checked.stderr) == (1, f"{path}:1:1: error: {message} [E-PATH]\n"
                                                       "1 error(s), 0 warning(s)\n")


def hello_zip(path, extra_members=()):
    import zipfile
    with zipfile.ZipFile(path, "w") as archive:
        for directory, _, names in os.walk(HELLO):
            for name in names:
                file = os.path.join(directory, name)
                archive.write(file, os.path.relpath(file, HELLO))
        for name, data in extra_members:
            archive.writestr(name, data)
    return str(path)


@pytest.mark.parametrize("member", ["Resources/../../../escaped", "Resources/a/../../../escaped",
                                    "UI/../../escaped", "Resources/./../escaped"])
def test_archive_members_leading_out_of_resources_are_never_written(member, tmp_path, capsys):
    from mplc.cli import main
    archive = hello_zip(tmp_path / "hello.zip", [(member, b"x")])
    output = tmp_path / "deep" / "deeper" / "out"
    assert main(["compile", archive, "-o", str(output)]) == 0
    written = [os.path.relpath(os.path.join(directory, name), tmp_path)
               for directory, _, names in os.walk(tmp_path) for name in names]
    assert not [path for path in written if "escaped" in path]
    [package] = os.listdir(output)
    assert os.listdir(output / package / "Resources") == ["greeting.txt"]


@pytest.mark.parametrize("cut", [0, 100, -10])
def test_a_damaged_zip_is_an_archive_error(cut, tmp_path, capsys):
    from mplc.cli import main
    archive = hello_zip(tmp_path / "hello.zip")
    with open(archive, "rb") as handle:
        data = handle.read()
    with open(archive, "wb") as handle:
        handle.write(data[:cut])
    assert main(["check", archive]) == 1
    assert capsys.readouterr().err == (f"{archive}:1:1: error: cannot open archive: File is not a zip file "
                                       "[E-ZIP]\n1 error(s), 0 warning(s)\n")
