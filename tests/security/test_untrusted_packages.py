"""Hostile packages: no host code from packages (forged compiled output, fetched or given as a
directory) and nothing outside the package read (links in every package folder). Each case
runs mplc in a rlimited subprocess and asserts its clear error, that no forged code ran, that
the secret next to the package shows up nowhere, and that nothing outside changed."""

import json
import os
import shutil
import zipfile

import pytest

from hostile_sandbox import result_of

MAIN = "com.example.hostile.Main"


# -- 1. no host code from packages ------------------------------------------------------------

def _compiled(sandbox, name, **environment):
    """A package compiled by this user's mplc: (its compiled directory, the marker forged code
    would write)."""
    package = sandbox.package(name)
    output = package.parent / (package.name + "-out")
    compiled = sandbox.mplc("compile", package, "-o", output, **environment)
    assert compiled.returncode == 0, compiled.stderr
    [directory] = [output / entry for entry in os.listdir(output)]
    return directory, package.parent / (package.name + "-imported")


def _record(directory):
    return json.loads((directory / "mplc-build.json").read_text())


def _write_record(directory, record):
    (directory / "mplc-build.json").write_text(json.dumps(record))


def replaced_module(sandbox, directory, marker):
    (directory / "c0000.pyc").write_bytes(sandbox.forged_pyc(marker))
    return "c0000.pyc was added, changed or removed since mplc compiled this package"


def replaced_module_and_record_hashes(sandbox, directory, marker):
    """The attacker rewrites the record to match: its signature no longer does."""
    import hashlib
    (directory / "__init__.pyc").write_bytes(sandbox.forged_pyc(marker))
    record = _record(directory)
    record["files"]["__init__.pyc"] = hashlib.sha256((directory / "__init__.pyc").read_bytes()).hexdigest()
    _write_record(directory, record)
    return "was not written by this user's mplc"


def record_without_signature(sandbox, directory, marker):
    (directory / "__init__.pyc").write_bytes(sandbox.forged_pyc(marker))
    record = _record(directory)
    del record["mac"]
    _write_record(directory, record)
    return "was not written by this user's mplc"


def added_source_module(sandbox, directory, marker):
    """A c0000.py next to c0000.pyc would be imported instead of it."""
    (directory / "c0000.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\n")
    return "c0000.py was added, changed or removed since mplc compiled this package"


def added_pycache(sandbox, directory, marker):
    (directory / "__pycache__").mkdir()
    (directory / "__pycache__" / "c0000.cpython-311.pyc").write_bytes(sandbox.forged_pyc(marker))
    return "__pycache__/c0000.cpython-311.pyc was added"


def removed_file(sandbox, directory, marker):
    os.remove(directory / "manifest.yaml")
    return "manifest.yaml was added, changed or removed"


def module_made_a_link(sandbox, directory, marker):
    forged = directory.parent / "forged.pyc"
    forged.write_bytes(sandbox.forged_pyc(marker))
    os.remove(directory / "c0000.pyc")
    os.symlink(forged, directory / "c0000.pyc")
    return "c0000.pyc is a link or special file"


def record_of_another_user(sandbox, directory, marker):
    """Output compiled under another build key (another user, another machine)."""
    return "was not written by this user's mplc"


TAMPERINGS = [replaced_module, replaced_module_and_record_hashes, record_without_signature,
              added_source_module, added_pycache, removed_file, module_made_a_link,
              record_of_another_user]


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda tamper: tamper.__name__)
def test_compiled_output_is_imported_only_as_this_users_mplc_wrote_it(tamper, contained):
    sandbox = contained
    environment = ({"MPLC_BUILD_KEY_FILE": str(sandbox.home / "other-key")}
                   if tamper is record_of_another_user else {})
    directory, marker = _compiled(sandbox, tamper.__name__, **environment)
    message = tamper(sandbox, directory, marker)
    run = sandbox.run(directory.parent)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert f"{directory / 'mplc-build.json'}:1:1: error: " in run.stderr
    assert message in run.stderr and "[E-UNTRUSTED-BUILD]" in run.stderr
    assert not marker.exists()
    from_python = sandbox.python(f"import mplc\nmplc.Runtime([{str(directory)!r}])")
    assert "E-UNTRUSTED-BUILD" in from_python.stderr and not marker.exists()


def test_untouched_compiled_output_runs(contained):
    """The control case: the same steps without tampering run."""
    sandbox = contained
    directory, marker = _compiled(sandbox, "untouched")
    run = sandbox.run(directory.parent)
    assert (run.returncode, result_of(run)["result"]) == (0, 1), run.stderr


def _forged_members(sandbox, marker):
    """What a hostile zip carries next to its sources: compiled modules and a build record that
    lists them, as compiled output would."""
    import hashlib
    forged = sandbox.forged_pyc(marker)
    members = {"__init__.pyc": forged, "c0000.pyc": forged, "__pycache__/x.cpython-311.pyc": forged,
               "Resources/sub/module.pyc": forged}
    record = {"files": {name: hashlib.sha256(data).hexdigest() for name, data in members.items()},
              "record": 2, "mac": "0" * 64}
    members["mplc-build.json"] = json.dumps(record).encode()
    members["mplc-cache.json"] = b'["."]'
    return members


def _zip_package(sandbox, name, extra):
    package = sandbox.package(name)
    archive = package.parent / (package.name + ".zip")
    with zipfile.ZipFile(archive, "w") as writer:
        for directory, _, names in os.walk(package):
            for file_name in names:
                path = os.path.join(directory, file_name)
                writer.write(path, os.path.relpath(path, package))
        for member, data in extra.items():
            writer.writestr(member, data)
    return archive


def test_fetch_writes_only_source_files(contained):
    """A repository zip with a forged __init__.pyc and build record: fetch leaves them out, and
    the fetched package runs from its sources (the forged code never runs)."""
    sandbox = contained
    repository = sandbox.folder("repository")
    (repository / "apps").mkdir()
    marker = repository / "imported"
    archive = _zip_package(sandbox, "fetched", _forged_members(sandbox, marker))
    shutil.copyfile(archive, repository / "apps" / "com.example.hostile.zip")
    output = repository.parent / "fetched-out"
    fetched = sandbox.mplc("fetch", "com.example.hostile", "--repo", repository, "-o", output)
    assert fetched.returncode == 0, fetched.stderr
    written = sorted(os.path.relpath(os.path.join(d, n), output) for d, _, names in os.walk(output)
                     for n in names)
    assert written == ["com.example.hostile-0.0.0/Classes/Main.yaml",
                       "com.example.hostile-0.0.0/manifest.yaml"]
    run = sandbox.run(output)
    assert (run.returncode, result_of(run)["result"]) == (0, 1), run.stderr
    assert not marker.exists()


def test_a_zip_given_as_a_package_runs_from_its_sources(contained):
    sandbox = contained
    marker = sandbox.work / "zip-imported"
    archive = _zip_package(sandbox, "zipped", _forged_members(sandbox, marker))
    run = sandbox.run(archive)
    assert (run.returncode, result_of(run)["result"]) == (0, 1), run.stderr
    assert not marker.exists()


def test_sources_carrying_a_forged_build_record_are_refused(contained):
    """An unpacked hostile package directory looks like compiled output: it is refused."""
    sandbox = contained
    marker = sandbox.work / "unpacked-imported"
    package = sandbox.package("unpacked")
    for member, data in _forged_members(sandbox, marker).items():
        (package / member).parent.mkdir(parents=True, exist_ok=True)
        (package / member).write_bytes(data)
    run = sandbox.run(package)
    assert run.returncode == 2 and "[E-UNTRUSTED-BUILD]" in run.stderr, run.stderr
    assert not marker.exists()


# -- 2. nothing outside the package is read -----------------------------------------------

def classes_file(sandbox, package):
    os.remove(package / "Classes" / "Main.yaml")
    os.symlink(sandbox.outside / "Classes" / "Main.yaml", package / "Classes" / "Main.yaml")
    return ["Classes/Main.yaml"]


def classes_folder(sandbox, package):
    shutil.rmtree(package / "Classes")
    os.symlink(sandbox.outside / "Classes", package / "Classes")
    return ["Classes/Main.yaml"]


def resources_file(sandbox, package):
    os.symlink(sandbox.secret, package / "Resources" / "x")
    return ["Resources/x"]


def resources_device(sandbox, package):
    os.symlink("/dev/zero", package / "Resources" / "zero")
    return ["Resources/zero"]


def resources_fifo(sandbox, package):
    """Opening it would block until the time limit: the link must not even be opened."""
    os.symlink(sandbox.outside / "fifo", package / "Resources" / "fifo")
    return ["Resources/fifo"]


def resources_subfolder(sandbox, package):
    os.symlink(sandbox.outside, package / "Resources" / "sub")
    return ["Resources/sub"]


def resources_folder(sandbox, package):
    shutil.rmtree(package / "Resources")
    os.symlink(sandbox.outside, package / "Resources")
    return ["Resources"]


def ui_file(sandbox, package):
    os.symlink(sandbox.outside / "secret.yaml", package / "UI" / "ui.yaml")
    return ["UI/ui.yaml"]


def ui_folder(sandbox, package):
    shutil.rmtree(package / "UI")
    os.symlink(sandbox.outside, package / "UI")
    return ["UI"]


def manifest(sandbox, package):
    target = sandbox.root / f"manifest-{package.name}.yaml"
    os.rename(package / "manifest.yaml", target)
    os.symlink(target, package / "manifest.yaml")
    return ["manifest.yaml"]


def logo(sandbox, package):
    os.symlink(sandbox.secret, package / "logo.png")
    return ["logo.png"]


LINKS = [classes_file, classes_folder, resources_file, resources_device, resources_fifo,
         resources_subfolder, resources_folder,
         ui_file, ui_folder, manifest, logo]


@pytest.mark.parametrize("command", ["check", "compile", "run"])
@pytest.mark.parametrize("link", LINKS, ids=lambda link: link.__name__)
def test_links_out_of_the_package_are_refused_unread(link, command, contained):
    sandbox = contained
    package = sandbox.package(f"{link.__name__}-{command}", body=["- Return: sys:Resources.string(x)"])
    refused = link(sandbox, package)
    if command == "check":
        completed = sandbox.mplc("check", package)
    elif command == "compile":
        completed = sandbox.mplc("compile", package, "-o", package.parent / (package.name + "-out"))
    else:
        completed = sandbox.run(package)
    assert completed.returncode == (2 if command == "run" else 1), completed.stderr
    for relative in refused:
        assert (f"{os.path.join(package, relative)}:1:1: error: a link leading out of the package: "
                "mplc reads nothing outside a package") in completed.stderr
    assert "[E-OUTSIDE-PACKAGE]" in completed.stderr and "Traceback" not in completed.stderr
    assert not (package.parent / (package.name + "-out")).exists()
    assert sandbox.leaked(completed.stdout, completed.stderr) == []


def test_resources_read_no_file_outside_the_package(contained):
    """Resources.string() of a path leading out of Resources/ fails as the reference's does."""
    sandbox = contained
    escape = os.path.relpath(sandbox.secret, sandbox.work / "x" / "Resources")
    package = sandbox.package("resource-escape", body=[f"- Return: sys:Resources.string({escape!r})"])
    run = sandbox.run(package)
    assert run.returncode == 1
    assert "outside the package's Resources folder" in result_of(run)["error"]["message"]
    assert sandbox.leaked(run.stdout, run.stderr) == []


def test_links_inside_the_package_are_read(contained):
    """The control case: a link to a file of the package itself is that file."""
    sandbox = contained
    package = sandbox.package("inner-link", body=["- Return: sys:Resources.string(x)"],
                              resources={"real.txt": "inside"})
    os.symlink("real.txt", package / "Resources" / "x")
    run = sandbox.run(package)
    assert (run.returncode, result_of(run)["result"]) == (0, "inside"), run.stderr
