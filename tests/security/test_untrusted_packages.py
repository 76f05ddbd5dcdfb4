"""Hostile packages: no host code from packages (forged compiled output, fetched or given as a
directory) and nothing outside the package read (links in every package folder). Each case
runs mplc in a rlimited subprocess and asserts its clear error, that no forged code ran, that
the secret next to the package shows up nowhere, and that nothing outside changed."""

import json
import os
import shutil
import zipfile

import pytest


MAIN = "com.example.hostile.Main"


# -- 1. no host code from packages ------------------------------------------------------------

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


OTHER_KEY = "other-key"


@pytest.fixture(scope="module")
def tampered(sandbox):
    """Every tampering case compiled (one batch), tampered with, then run (a second batch):
    {case: (compiled directory, marker, expected message, [run result, Runtime result])}."""
    before = sandbox.outside_state()
    packages, compiles = {}, {}
    for tamper in [*TAMPERINGS, None]:
        case = tamper.__name__ if tamper else "untouched"
        package = sandbox.package(case)
        output = package.parent / (package.name + "-out")
        environment = {"MPLC_BUILD_KEY_FILE": str(sandbox.home / OTHER_KEY)} \
            if tamper is record_of_another_user else {}
        packages[case] = (tamper, package, output)
        compiles[case] = [{"argv": ["compile", str(package), "-o", str(output)], "env": environment}]
    compiled = sandbox.batch(compiles)
    runs, cases = {}, {}
    for case, (tamper, package, output) in packages.items():
        assert compiled[case][0]["returncode"] == 0, compiled[case][0]["stderr"]
        [directory] = [output / entry for entry in os.listdir(output)]
        marker = package.parent / (package.name + "-imported")
        message = tamper(sandbox, directory, marker) if tamper else None
        cases[case] = (directory, marker, message)
        runs[case] = [{"argv": ["run", "--path", str(output), "--model", MAIN, "--method", "run"]},
                      {"runtime": [str(directory)]}]
    results = sandbox.batch(runs)
    yield {case: (*cases[case], results[case]) for case in cases}
    assert sandbox.outside_state() == before


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda tamper: tamper.__name__)
def test_compiled_output_is_imported_only_as_this_users_mplc_wrote_it(tamper, tampered):
    directory, marker, message, (run, runtime) = tampered[tamper.__name__]
    assert run["returncode"] == 2 and "Traceback" not in run["stderr"], run["stderr"]
    assert f"{directory / 'mplc-build.json'}:1:1: error: " in run["stderr"]
    assert message in run["stderr"] and "[E-UNTRUSTED-BUILD]" in run["stderr"]
    assert "E-UNTRUSTED-BUILD" in runtime["returncode"]
    assert not marker.exists()


def test_untouched_compiled_output_runs(tampered):
    """The control case: the same steps without tampering run."""
    directory, marker, message, (run, runtime) = tampered["untouched"]
    assert (run["returncode"], json.loads(run["stdout"])["result"]) == (0, 1), run["stderr"]
    assert runtime["returncode"] == 0, runtime["stderr"]


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


@pytest.fixture(scope="module")
def forged_sources(sandbox):
    """A repository zip, a package zip and an unpacked package directory, each carrying a
    forged __init__.pyc and a build record listing it; fetched and run in one batch."""
    before = sandbox.outside_state()
    repository = sandbox.folder("repository")
    (repository / "apps").mkdir()
    markers = {case: sandbox.work / f"{case}-imported" for case in ("fetched", "zipped", "unpacked")}
    archive = _zip_package(sandbox, "fetched", _forged_members(sandbox, markers["fetched"]))
    shutil.copyfile(archive, repository / "apps" / "com.example.hostile.zip")
    fetched = repository.parent / "fetched-out"
    zipped = _zip_package(sandbox, "zipped", _forged_members(sandbox, markers["zipped"]))
    unpacked = sandbox.package("unpacked")
    for member, data in _forged_members(sandbox, markers["unpacked"]).items():
        (unpacked / member).parent.mkdir(parents=True, exist_ok=True)
        (unpacked / member).write_bytes(data)
    run = ["run", "--model", MAIN, "--method", "run", "--path"]
    results = sandbox.batch({
        "fetched": [{"argv": ["fetch", "com.example.hostile", "--repo", str(repository), "-o", str(fetched)]},
                    {"argv": run + [str(fetched)]}],
        "zipped": [{"argv": run + [str(zipped)]}],
        "unpacked": [{"argv": run + [str(unpacked)]}],
    })
    yield results, markers, fetched
    assert sandbox.outside_state() == before


def test_fetch_writes_only_source_files(forged_sources):
    """A repository zip with a forged __init__.pyc and build record: fetch leaves them out, and
    the fetched package runs from its sources (the forged code never runs)."""
    results, markers, output = forged_sources
    fetch, run = results["fetched"]
    assert fetch["returncode"] == 0, fetch["stderr"]
    written = sorted(os.path.relpath(os.path.join(d, n), output) for d, _, names in os.walk(output)
                     for n in names)
    assert written == ["com.example.hostile-0.0.0/Classes/Main.yaml",
                       "com.example.hostile-0.0.0/manifest.yaml"]
    assert (run["returncode"], json.loads(run["stdout"])["result"]) == (0, 1), run["stderr"]
    assert not markers["fetched"].exists()


def test_a_zip_given_as_a_package_runs_from_its_sources(forged_sources):
    results, markers, _ = forged_sources
    [run] = results["zipped"]
    assert (run["returncode"], json.loads(run["stdout"])["result"]) == (0, 1), run["stderr"]
    assert not markers["zipped"].exists()


def test_sources_carrying_a_forged_build_record_are_refused(forged_sources):
    """An unpacked hostile package directory looks like compiled output: it is refused."""
    results, markers, _ = forged_sources
    [run] = results["unpacked"]
    assert run["returncode"] == 2 and "[E-UNTRUSTED-BUILD]" in run["stderr"], run["stderr"]
    assert not markers["unpacked"].exists()


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


COMMANDS = ["check", "compile", "run"]


@pytest.fixture(scope="module")
def linked(sandbox):
    """Every link case under check, compile and run, plus the Resources cases, in one batch:
    {case: (package, refused paths, [result per command])}."""
    before = sandbox.outside_state()
    cases, commands = {}, {}
    for link in LINKS:
        package = sandbox.package(link.__name__, body=["- Return: sys:Resources.string(x)"])
        cases[link.__name__] = (package, link(sandbox, package))
        commands[link.__name__] = [
            {"argv": ["check", str(package)]},
            {"argv": ["compile", str(package), "-o", str(package.parent / (package.name + "-out"))]},
            {"argv": ["run", "--path", str(package), "--model", MAIN, "--method", "run"]}]
    escape = os.path.relpath(sandbox.secret, sandbox.work / "x" / "Resources")
    package = sandbox.package("resource-escape", body=[f"- Return: sys:Resources.string({escape!r})"])
    cases["resource-escape"] = (package, [])
    inner = sandbox.package("inner-link", body=["- Return: sys:Resources.string(x)"],
                            resources={"real.txt": "inside"})
    os.symlink("real.txt", inner / "Resources" / "x")
    cases["inner-link"] = (inner, [])
    for case in ("resource-escape", "inner-link"):
        commands[case] = [{"argv": ["run", "--path", str(cases[case][0]), "--model", MAIN, "--method", "run"]}]
    results = sandbox.batch(commands)
    yield {case: (*cases[case], results[case]) for case in cases}
    assert sandbox.outside_state() == before


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("link", LINKS, ids=lambda link: link.__name__)
def test_links_out_of_the_package_are_refused_unread(link, command, linked, sandbox):
    package, refused, results = linked[link.__name__]
    completed = results[COMMANDS.index(command)]
    assert completed["returncode"] == (2 if command == "run" else 1), completed["stderr"]
    for relative in refused:
        assert (f"{os.path.join(package, relative)}:1:1: error: a link leading out of the package: "
                "mplc reads nothing outside a package") in completed["stderr"]
    assert "[E-OUTSIDE-PACKAGE]" in completed["stderr"] and "Traceback" not in completed["stderr"]
    assert not (package.parent / (package.name + "-out")).exists()
    assert sandbox.leaked(completed["stdout"], completed["stderr"]) == []


def test_resources_read_no_file_outside_the_package(linked, sandbox):
    """Resources.string() of a path leading out of Resources/ fails as the reference's does."""
    _, _, [run] = linked["resource-escape"]
    assert run["returncode"] == 1
    assert "outside the package's Resources folder" in json.loads(run["stdout"])["error"]["message"]
    assert sandbox.leaked(run["stdout"], run["stderr"]) == []


def test_links_inside_the_package_are_read(linked):
    """The control case: a link to a file of the package itself is that file."""
    _, _, [run] = linked["inner-link"]
    assert (run["returncode"], json.loads(run["stdout"])["result"]) == (0, "inside"), run["stderr"]
