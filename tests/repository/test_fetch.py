"""`mplc fetch` / `mplc bundle` against a real HTTP server serving a repository tree."""

import json

import pytest
import yaml

from mplc.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def installed(output):
    """{directory: (FullName, Version)} of what landed in ``output``."""
    if not output.exists():
        return {}
    result = {}
    for directory in sorted(output.iterdir()):
        manifest = yaml.safe_load((directory / "manifest.yaml").read_text())
        result[directory.name] = (manifest["FullName"], str(manifest.get("Version", "0.0.0")))
    return result


# -- successful fetches: (packages in the repository, command arguments, installed) -----------

def _tree_chain(repository):
    repository.add_package("com.example.App", require={"com.example.Db": None, "io.murano": None})
    repository.add_package("com.example.Db", "0.2.0", require={"com.example.Lib": ">=1.2"})
    repository.add_package("com.example.Lib", "1.1.0", file_version="1.1.0")
    repository.add_package("com.example.Lib", "1.4.0", file_version="1.4.0")
    repository.add_package("com.example.Lib", "1.3.0")


def _tree_versions(repository):
    repository.add_package("com.example.App", "2.0.0")
    repository.add_package("com.example.App", "1.0.0", file_version="1.0.0")
    repository.add_package("com.example.App", "1.5.0", file_version="1.5.0")
    repository.add_package("com.example.App", "1.5.2", file_version="1.5.2")


def _tree_side_by_side(repository):
    repository.add_package("com.example.App", require={"com.example.A": None, "com.example.B": None})
    repository.add_package("com.example.A", require={"com.example.Lib": "1"})
    repository.add_package("com.example.B", require={"com.example.Lib": "2.0"})
    repository.add_package("com.example.Lib", "2.0.1")
    repository.add_package("com.example.Lib", "1.0.0", file_version="1.0.0")


def _tree_shared(repository):
    repository.add_package("com.example.App", require={"com.example.A": None, "com.example.Lib": "<1.4"})
    repository.add_package("com.example.A", require={"com.example.Lib": "1"})
    repository.add_package("com.example.Lib", "1.3.0", file_version="1.3.0")
    repository.add_package("com.example.Lib", "1.9.0")


def _tree_cycle(repository):
    repository.add_package("com.example.A", require={"com.example.B": None})
    repository.add_package("com.example.B", require={"com.example.A": None, "com.example.B": "0"})


def _tree_no_listing(repository):
    _tree_versions(repository)
    repository.hide_listings()


@pytest.mark.parametrize("build, arguments, expected", [
    pytest.param(_tree_chain, ["fetch", "com.example.App"], {
        "com.example.App-0.0.0": ("com.example.App", "0.0.0"),
        "com.example.Db-0.2.0": ("com.example.Db", "0.2.0"),
        "com.example.Lib-1.4.0": ("com.example.Lib", "1.4.0"),
    }, id="requirements-recursively-newest-match"),
    pytest.param(_tree_versions, ["fetch", "com.example.App"], {
        "com.example.App-2.0.0": ("com.example.App", "2.0.0"),
    }, id="no-version-means-newest"),
    pytest.param(_tree_versions, ["fetch", "com.example.App", "--version", "1.0.0"], {
        "com.example.App-1.0.0": ("com.example.App", "1.0.0"),
    }, id="exact-version"),
    pytest.param(_tree_versions, ["fetch", "com.example.App", "--version", "1"], {
        "com.example.App-1.5.2": ("com.example.App", "1.5.2"),
    }, id="partial-major"),
    pytest.param(_tree_versions, ["fetch", "com.example.App", "--version", ">=1.0,<1.5.2"], {
        "com.example.App-1.5.0": ("com.example.App", "1.5.0"),
    }, id="range"),
    pytest.param(_tree_no_listing, ["fetch", "com.example.App", "--version", "1.5.0"], {
        "com.example.App-1.5.0": ("com.example.App", "1.5.0"),
    }, id="exact-version-without-listing"),
    pytest.param(_tree_no_listing, ["fetch", "com.example.App"], {
        "com.example.App-2.0.0": ("com.example.App", "2.0.0"),
    }, id="newest-without-listing"),
    pytest.param(_tree_side_by_side, ["fetch", "com.example.App"], {
        "com.example.A-0.0.0": ("com.example.A", "0.0.0"),
        "com.example.App-0.0.0": ("com.example.App", "0.0.0"),
        "com.example.B-0.0.0": ("com.example.B", "0.0.0"),
        "com.example.Lib-1.0.0": ("com.example.Lib", "1.0.0"),
        "com.example.Lib-2.0.1": ("com.example.Lib", "2.0.1"),
    }, id="incompatible-requirements-side-by-side"),
    pytest.param(_tree_shared, ["fetch", "com.example.App"], {
        "com.example.A-0.0.0": ("com.example.A", "0.0.0"),
        "com.example.App-0.0.0": ("com.example.App", "0.0.0"),
        "com.example.Lib-1.3.0": ("com.example.Lib", "1.3.0"),
    }, id="chosen-version-reused"),
    pytest.param(_tree_cycle, ["fetch", "com.example.A"], {
        "com.example.A-0.0.0": ("com.example.A", "0.0.0"),
        "com.example.B-0.0.0": ("com.example.B", "0.0.0"),
    }, id="cycle"),
])
def test_fetch(repository, tmp_path, capsys, build, arguments, expected):
    build(repository)
    output = tmp_path / "out"
    code, out, err = run(capsys, *arguments, "--repo", repository.url, "-o", str(output))
    assert (code, err) == (0, "")
    assert installed(output) == expected
    assert sorted(line.split(" -> ")[1] for line in out.splitlines()) == \
        sorted(str(output / directory) for directory in expected)
    assert (output / next(iter(expected)) / "Classes" / "Main.yaml").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".mplc-fetch-")] == []


def test_refetch_replaces_and_keeps_other_versions(repository, tmp_path, capsys):
    _tree_versions(repository)
    output = tmp_path / "out"
    (output / "com.example.App-2.0.0").mkdir(parents=True)
    (output / "com.example.App-2.0.0" / "stale.txt").write_text("old")
    (output / "com.example.App-1.0.0").mkdir()
    (output / "com.example.App-1.0.0" / "manifest.yaml").write_text("FullName: com.example.App\nVersion: 1.0.0\n")
    assert run(capsys, "fetch", "com.example.App", "--repo", repository.url, "-o", str(output))[0] == 0
    assert sorted(installed(output)) == ["com.example.App-1.0.0", "com.example.App-2.0.0"]
    assert not (output / "com.example.App-2.0.0" / "stale.txt").exists()


def test_class_errors_do_not_stop_a_fetch(repository, tmp_path, capsys):
    repository.add_package("com.example.App", extra_files={"Classes/Main.yaml": "Name: [broken\n"})
    output = tmp_path / "out"
    assert run(capsys, "fetch", "com.example.App", "--repo", repository.url, "-o", str(output))[0] == 0
    assert (output / "com.example.App-0.0.0" / "Classes" / "Main.yaml").read_text() == "Name: [broken\n"


def test_package_under_a_top_folder(repository, tmp_path, capsys):
    repository.add_zip("apps/com.example.App.zip", {
        "App/manifest.yaml": "FullName: com.example.App\nType: Library\nVersion: 0.3.0\n"})
    output = tmp_path / "out"
    assert run(capsys, "fetch", "com.example.App", "--repo", repository.url, "-o", str(output))[0] == 0
    assert (output / "com.example.App-0.3.0" / "App" / "manifest.yaml").is_file()


@pytest.mark.parametrize("version, expected", [(None, "2.0.0"), ("1", "1.5.2")])
def test_local_directory_repository(repository, tmp_path, capsys, version, expected):
    _tree_versions(repository)
    output = tmp_path / "out"
    code, _, err = run(capsys, "fetch", "com.example.App", "--repo", str(repository.root),
                       "-o", str(output), *(["--version", version] if version else []))
    assert (code, err) == (0, "")
    assert installed(output) == {f"com.example.App-{expected}": ("com.example.App", expected)}


# -- bundles --------------------------------------------------------------------------------

@pytest.mark.parametrize("document", [
    json.dumps({"Packages": [{"Name": "com.example.App"},
                             {"Name": "com.example.Db", "Version": ""},
                             {"Name": "com.example.Lib", "Version": "1.1.0"}], "Version": 1}),
    "Packages:\n  - Name: com.example.App\n  - {Name: com.example.Db, Version: }\n"
    "  - Name: com.example.Lib\n    Version: 1.1.0\n",
], ids=["json", "yaml"])
def test_bundle(repository, tmp_path, capsys, document):
    _tree_chain(repository)
    repository.add_file("bundles/web.bundle", document.encode())
    output = tmp_path / "out"
    code, _, err = run(capsys, "bundle", "web", "--repo", repository.url, "-o", str(output))
    assert (code, err) == (0, "")
    assert installed(output) == {
        "com.example.App-0.0.0": ("com.example.App", "0.0.0"),
        "com.example.Db-0.2.0": ("com.example.Db", "0.2.0"),
        "com.example.Lib-1.1.0": ("com.example.Lib", "1.1.0"),
        "com.example.Lib-1.4.0": ("com.example.Lib", "1.4.0"),
    }


# -- failures: nothing is written, one clear line on stderr --------------------------------

def _missing_dependency(repository):
    repository.add_package("com.example.App", "1.0.0", require={"com.example.Gone": "2"})
    repository.add_package("com.example.Other")


def _unsatisfiable(repository):
    repository.add_package("com.example.App", require={"com.example.Lib": ">=2.0"})
    repository.add_package("com.example.Lib", "1.4.0")
    repository.add_package("com.example.Lib", "1.9.0", file_version="1.9.0")


def _server_error(repository):
    repository.add_package("com.example.App", require={"com.example.Lib": None})
    repository.add_package("com.example.Lib")
    repository.fail("apps/com.example.Lib.zip")


def _not_a_zip(repository):
    repository.add_file("apps/com.example.App.zip", b"<html>not found</html>")


def _no_manifest(repository):
    repository.add_zip("apps/com.example.App.zip", {"Classes/Main.yaml": "Name: x\n"})


def _bad_manifest(repository):
    repository.add_zip("apps/com.example.App.zip", {"manifest.yaml": "FullName: [unclosed\n"})


def _wrong_name(repository):
    repository.add_package("com.example.App", FullName="com.example.Other")


def _bad_format(repository):
    repository.add_package("com.example.App", Format="2.0")


def _bad_version(repository):
    repository.add_package("com.example.App", "banana")


def _bad_require_spec(repository):
    repository.add_package("com.example.App", "1.0.0", require={"com.example.Lib": "newest"})


def _bad_require_name(repository):
    repository.add_package("com.example.App", require={"../../etc/passwd": None})


def _unsafe_member(repository):
    repository.add_package("com.example.App", extra_files={"../escape.txt": "x"})


def _mislabelled_file(repository):
    repository.add_package("com.example.App", "1.0.0", file_version="1.2.0")
    repository.add_package("com.example.App", "1.0.0")


def _missing_bundle(repository):
    pass


def _bad_bundle(repository):
    repository.add_file("bundles/web.bundle", b"Packages: [{Version: 1}]")


def _bundle_with_missing_package(repository):
    repository.add_file("bundles/web.bundle", b'{"Packages": [{"Name": "com.example.Gone"}]}')


@pytest.mark.parametrize("build, arguments, message", [
    (lambda repository: None, ["fetch", "com.example.App"],
     "package com.example.App * not found in {url} (no apps/com.example.App.zip)"),
    (_missing_dependency, ["fetch", "com.example.App"],
     "package com.example.Gone 2 (required by com.example.App 1.0.0) not found in {url} "
     "(no apps/com.example.Gone.zip)"),
    (_unsatisfiable, ["fetch", "com.example.App"],
     "no version of com.example.Lib >=2.0 (required by com.example.App 0.0.0) in {url}; "
     "available: 1.4.0, 1.9.0"),
    (_tree_versions, ["fetch", "com.example.App", "--version", "3"],
     "no version of com.example.App 3 in {url}; available: 1.0.0, 1.5.0, 1.5.2, 2.0.0"),
    (_server_error, ["fetch", "com.example.App"],
     "HTTP 500 Internal Server Error for {url}apps/com.example.Lib.zip"),
    (_not_a_zip, ["fetch", "com.example.App"], "{url}apps/com.example.App.zip is not a zip archive"),
    (_no_manifest, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: archive has no manifest.yaml"),
    (_bad_manifest, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: YAML syntax: while parsing a flow sequence did not find "
     "expected ',' or ']' (manifest.yaml:2:1)"),
    (_wrong_name, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: manifest FullName is 'com.example.Other', expected 'com.example.App'"),
    (_bad_format, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: unsupported package format MuranoPL/2.0.0; supported: "
     "MuranoPL/1.0 to MuranoPL/1.4 (manifest.yaml:3:9)"),
    (_bad_version, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: invalid version 'banana'"),
    (_bad_require_spec, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: invalid version spec 'newest': expected a version such as 1, "
     "1.2 or 1.2.3, '*', or comparisons such as '>=1.2,<2.0,!=1.5.0' (manifest.yaml:6:20)"),
    (_bad_require_name, ["fetch", "com.example.App"], "invalid package name '../../etc/passwd'"),
    (_unsafe_member, ["fetch", "com.example.App"],
     "{url}apps/com.example.App.zip: refusing unsafe member '../escape.txt'"),
    (_mislabelled_file, ["fetch", "com.example.App", "--version", "1.2"],
     "apps/com.example.App.1.2.0.zip in {url} does not hold com.example.App 1.2.0"),
    (_tree_versions, ["fetch", "com.example.App", "--version", ">>1"],
     "com.example.App: invalid version spec '>>1'"),
    (_missing_bundle, ["bundle", "web"], "bundle web not found in {url} (no bundles/web.bundle)"),
    (_bad_bundle, ["bundle", "web"], "{url}bundles/web.bundle: Packages entry 1 has no Name"),
    (_bundle_with_missing_package, ["bundle", "web"],
     "package com.example.Gone * not found in {url} (no apps/com.example.Gone.zip)"),
])
def test_fetch_fails_cleanly(repository, tmp_path, capsys, build, arguments, message):
    build(repository)
    output = tmp_path / "out"
    code, out, err = run(capsys, *arguments, "--repo", repository.url, "-o", str(output))
    assert code == 1
    assert out == ""
    assert err.startswith(f"mplc {arguments[0]}: error: " + message.format(url=repository.url)), err
    assert len(err.splitlines()) == 1
    assert not output.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["served"]


def test_unreachable_repository(tmp_path, capsys):
    code, _, err = run(capsys, "fetch", "com.example.App", "--repo", "http://127.0.0.1:9/",
                       "-o", str(tmp_path / "out"), "--timeout", "5")
    assert code == 1
    assert err.startswith("mplc fetch: error: cannot read http://127.0.0.1:9/apps/com.example.App.zip: ")
    assert not (tmp_path / "out").exists()


def test_repo_is_required(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MURANO_REPO_URL", raising=False)
    with pytest.raises(SystemExit) as exit_info:
        main(["fetch", "com.example.App", "-o", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    assert "--repo" in capsys.readouterr().err
