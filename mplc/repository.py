"""Client of a Murano package repository: fetch packages and bundles with their requirements.

A repository is a web server (or a ``file:`` tree) with the layout Murano's client uses:

    apps/NAME.zip             the current version of a package
    apps/NAME.VERSION.zip     a specific version (``NAME.1.2.0.zip``)
    bundles/NAME.bundle       JSON or YAML: {"Packages": [{"Name": ..., "Version": ...}, ...]}
    images/                   disk images named by packages' images.lst (not fetched)

Which versions exist is learnt from ``apps/NAME.zip`` (its manifest says its version), from
``apps/NAME.VERSION.zip`` for an exact request, and from the ``apps/`` directory listing when the
server gives one. ``Require`` entries are resolved recursively with the engine's version rules
(mplc.versioning): a version already chosen is reused when it satisfies a requirement, otherwise
the newest matching version is fetched, so several versions of a package may be installed side
by side. ``io.murano`` requirements are left to mplc's bundled core library.

Packages are read with the front end (``mplc.frontend.packages.load_packages``), so a fetched
package is accepted exactly when its manifest would be. Everything is downloaded and unpacked into a temporary directory next to the output, and
moved into place only when the whole set resolved, so a failure leaves the output untouched.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import posixpath
import re
import shutil
import stat
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass, field
from html.parser import HTMLParser

import yaml

from mplc.buildrecord import is_compiled_artifact
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.packages import load_packages
from mplc.versioning import CORE_LIBRARY, Spec, Version, VersionError, parse_requirement

MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024
MAX_UNPACKED_BYTES = 1024 * 1024 * 1024

_FULL_NAME = re.compile(r"\w+(?:\.\w+)*")
_EXACT_VERSION = re.compile(r"=?=?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)")


class RepositoryError(Exception):
    """Fetching failed; the message is meant for the user as it is."""


@dataclass(frozen=True)
class Archive:
    """One package zip from the repository, with the manifest fields resolution needs."""

    name: str
    version: Version
    require: dict
    url: str
    data: bytes = field(repr=False)

    @property
    def directory_name(self) -> str:
        return f"{self.name}-{self.version}"


@dataclass(frozen=True)
class Requirement:
    name: str
    spec_text: str
    spec: Spec
    required_by: Archive | None

    def describe(self) -> str:
        by = f" (required by {self.required_by.name} {self.required_by.version})" if self.required_by else ""
        return f"{self.name} {self.spec_text}{by}"


class Repository:
    """Reads packages and bundles from one repository URL; every URL is fetched at most once."""

    def __init__(self, url: str, timeout: float = 30.0):
        if "://" not in url:
            url = urllib.parse.urljoin("file:", urllib.request.pathname2url(os.path.abspath(url)))
        self.url = url if url.endswith("/") else url + "/"
        try:
            urllib.parse.urlsplit(self.url)
        except ValueError as error:
            raise RepositoryError(f"invalid repository URL {url!r}: {error}") from None
        self.timeout = timeout
        self._archives: dict[str, Archive | None] = {}
        self._listing: list[str] | None = None

    # -- packages ---------------------------------------------------------------------------

    def resolve(self, requirement: Requirement) -> Archive:
        """The newest version the repository has that satisfies ``requirement``."""
        name = requirement.name
        found = self._versions(requirement)
        if not found:
            raise RepositoryError(f"package {requirement.describe()} not found in {self.url} "
                                  f"(no apps/{name}.zip)")
        matching = [version for version in found if version in requirement.spec]
        if not matching:
            shown = ", ".join(str(version) for version in sorted(found))
            raise RepositoryError(f"no version of {requirement.describe()} in {self.url}; "
                                  f"available: {shown}")
        version = max(matching)
        archive = found[version] or self._archive(name, self._join(f"apps/{name}.{version}.zip"))
        if archive is None or archive.version != version:
            raise RepositoryError(f"apps/{name}.{version}.zip in {self.url} does not hold "
                                  f"{name} {version}")
        return archive

    def _versions(self, requirement: Requirement) -> dict[Version, Archive | None]:
        """Versions of the package the repository shows; an archive is None until downloaded."""
        name = requirement.name
        exact = _EXACT_VERSION.fullmatch(requirement.spec_text)
        locations = ([f"apps/{name}.{exact.group(1)}.zip"] if exact else []) + [f"apps/{name}.zip"]
        found: dict[Version, Archive | None] = {}
        for location in locations:
            archive = self._archive(name, self._join(location))
            if archive is not None:
                found.setdefault(archive.version, archive)
        for version in self._listed_versions(name):
            found.setdefault(version, None)
        return found

    def _archive(self, name: str, url: str) -> Archive | None:
        if url not in self._archives:
            data = self._download(url, missing_ok=True)
            self._archives[url] = None if data is None else _read_archive(name, url, data)
        return self._archives[url]

    def _listed_versions(self, name: str) -> list[Version]:
        if self._listing is None:
            self._listing = self._list_apps()
        prefix, suffix = name + ".", ".zip"
        listed = []
        for file_name in self._listing:
            if file_name.startswith(prefix) and file_name.endswith(suffix):
                try:
                    listed.append(Version(file_name[len(prefix):-len(suffix)]))
                except ValueError:
                    continue
        return listed

    def _list_apps(self) -> list[str]:
        """File names in apps/: a local directory's entries, or the links of a server's index
        page; empty when the server gives no listing."""
        url = self._join("apps/")
        if url.startswith("file:"):
            try:
                return os.listdir(urllib.request.url2pathname(urllib.parse.urlsplit(url).path))
            except OSError:
                return []
        try:
            page = self._download(url, missing_ok=True) or b""
        except RepositoryError:
            return []
        return _links(page.decode("utf-8", "replace"))

    # -- bundles ----------------------------------------------------------------------------

    def bundle(self, name: str) -> list[tuple[str, object]]:
        """The ``(Name, Version)`` entries of ``bundles/NAME.bundle``; Version may be None."""
        _check_name(name, "bundle")
        url = self._join(f"bundles/{name}.bundle")
        data = self._download(url, missing_ok=True)
        if data is None:
            raise RepositoryError(f"bundle {name} not found in {self.url} (no bundles/{name}.bundle)")
        text = data.decode("utf-8", "replace")
        try:
            document = json.loads(text)
        except ValueError:
            try:
                document = yaml.safe_load(text)
            except yaml.YAMLError as error:
                raise RepositoryError(f"{url} is neither JSON nor YAML: {_first_line(error)}") from None
        packages = document.get("Packages") if isinstance(document, dict) else None
        if not isinstance(packages, list):
            raise RepositoryError(f"{url} has no Packages list")
        for index, entry in enumerate(packages):
            if not isinstance(entry, dict) or not entry.get("Name"):
                raise RepositoryError(f"{url}: Packages entry {index + 1} has no Name")
        return [(str(entry["Name"]), entry.get("Version")) for entry in packages]

    # -- transport --------------------------------------------------------------------------

    def _join(self, path: str) -> str:
        return urllib.parse.urljoin(self.url, urllib.parse.quote(path))

    def _download(self, url: str, missing_ok: bool) -> bytes | None:
        try:
            with urllib.request.urlopen(url, timeout=self.timeout) as response:
                data = response.read(MAX_DOWNLOAD_BYTES + 1)
        except urllib.error.HTTPError as error:
            if missing_ok and error.code in (404, 410):
                return None
            raise RepositoryError(f"HTTP {error.code} {error.reason} for {url}") from None
        except urllib.error.URLError as error:
            if missing_ok and url.startswith("file:") and isinstance(error.reason, FileNotFoundError):
                return None
            raise RepositoryError(f"cannot read {url}: {error.reason}") from None
        except (OSError, ValueError, http.client.HTTPException) as error:
            raise RepositoryError(f"cannot read {url}: {error}") from None
        if len(data) > MAX_DOWNLOAD_BYTES:
            raise RepositoryError(f"{url} is larger than {MAX_DOWNLOAD_BYTES} bytes")
        return data


def fetch(repository: Repository, roots: list[tuple[str, object]], output: str) -> list[Archive]:
    """Fetch the ``(name, spec)`` roots and everything they require into ``output``.

    A root's spec None means the newest version. Returns the installed archives in the order
    they were resolved. Raises RepositoryError, leaving ``output`` as it was.
    """
    chosen = resolve(repository, roots)
    install(chosen, output)
    return chosen


def resolve(repository: Repository, roots: list[tuple[str, object]]) -> list[Archive]:
    """Choose one archive per needed (name, version), breadth first from the roots."""
    queue = [_requirement(name, "*" if spec in (None, "") else spec, None) for name, spec in roots]
    chosen: list[Archive] = []
    while queue:
        requirement = queue.pop(0)
        if any(a.name == requirement.name and a.version in requirement.spec for a in chosen):
            continue
        archive = repository.resolve(requirement)
        chosen.append(archive)
        for name, spec in archive.require.items():
            if name != CORE_LIBRARY:
                queue.append(_requirement(name, spec, archive))
    return chosen


def install(archives: list[Archive], output: str) -> None:
    """Unpack every archive into ``output/NAME-VERSION``, replacing what was there, all or nothing."""
    output = os.path.abspath(output)
    try:
        parent = os.path.dirname(output)
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".mplc-fetch-", dir=parent)
    except OSError as error:
        raise RepositoryError(f"cannot write {output}: {error}") from None
    try:
        for archive in archives:
            _unpack(archive, os.path.join(staging, archive.directory_name))
        os.makedirs(output, exist_ok=True)
        for index, archive in enumerate(archives):
            target = os.path.join(output, archive.directory_name)
            if os.path.lexists(target):
                os.rename(target, os.path.join(staging, f".replaced-{index}"))
            os.rename(os.path.join(staging, archive.directory_name), target)
    except OSError as error:
        raise RepositoryError(f"cannot write {output}: {error}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _requirement(name: object, spec: object, required_by: Archive | None) -> Requirement:
    name = str(name)
    _check_name(name, "package")
    spec_text = "0" if spec in (None, "") else re.sub(r"\s+", "", str(spec))
    try:
        return Requirement(name, spec_text, parse_requirement(spec), required_by)
    except VersionError as error:
        where = f" in Require of {required_by.name} {required_by.version}" if required_by else ""
        raise RepositoryError(f"{name}{where}: {error}") from None


def _check_name(name: str, what: str) -> None:
    if not _FULL_NAME.fullmatch(name):
        raise RepositoryError(f"invalid {what} name {name!r}: expected dot-separated words "
                              f"such as com.example.App")


def _read_archive(name: str, url: str, data: bytes) -> Archive:
    """Read the package with the front end; only manifest and archive errors stop a fetch
    (errors inside classes are for ``mplc check`` to report)."""
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise RepositoryError(f"{url} is not a zip archive")
    sink = DiagnosticSink()
    with tempfile.TemporaryDirectory(prefix="mplc-fetch-") as scratch:
        path = os.path.join(scratch, f"{name}.zip")
        with open(path, "wb") as handle:
            handle.write(data)
        packages = load_packages([path], sink)
        blocking = [diagnostic for diagnostic in sink.diagnostics
                    if diagnostic.severity == "error" and _is_manifest_file(diagnostic.pos.file, path)]
        if blocking or not packages:
            first = (blocking or [d for d in sink.diagnostics if d.severity == "error"])[0]
            where = os.path.relpath(first.pos.file, path).replace(os.sep, "/")
            location = "" if where == "." else f" ({where}:{first.pos.line}:{first.pos.col})"
            raise RepositoryError(f"{url}: {first.message}{location}")
    manifest = packages[0].manifest
    if manifest.full_name != name:
        raise RepositoryError(f"{url}: manifest FullName is {manifest.full_name!r}, expected {name!r}")
    require = {requirement.package: requirement.spec for requirement in manifest.requirements}
    return Archive(name, Version(manifest.version), require, url, data)


def _is_manifest_file(file: str, archive_path: str) -> bool:
    """The archive itself, or its manifest.yaml (at the top or under a single top folder)."""
    relative = os.path.relpath(file, archive_path)
    return relative == "." or (os.path.basename(relative) == "manifest.yaml"
                               and relative.count(os.sep) <= 1)


def _unpack(archive: Archive, directory: str) -> None:
    """Extract the package's source files, refusing members that would land outside
    ``directory`` or are links. Compiled artifacts (.pyc, __pycache__, a build record) are
    left out: nothing fetched is ever imported as compiled output."""
    with zipfile.ZipFile(io.BytesIO(archive.data)) as package_zip:
        members = package_zip.infolist()
        if sum(member.file_size for member in members) > MAX_UNPACKED_BYTES:
            raise RepositoryError(f"{archive.url} unpacks to more than {MAX_UNPACKED_BYTES} bytes")
        for member in members:
            parts = member.filename.replace("\\", "/").split("/")
            if (member.filename.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]
                    or stat.S_ISLNK(member.external_attr >> 16)):
                raise RepositoryError(f"{archive.url}: refusing unsafe member {member.filename!r}")
        try:
            os.makedirs(directory, exist_ok=True)
            for member in members:
                if not is_compiled_artifact(member.filename):
                    package_zip.extract(member, directory)
        except (zipfile.BadZipFile, RuntimeError, ValueError) as error:
            raise RepositoryError(f"{archive.url}: cannot unpack: {error}") from None


class _LinkCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                path = urllib.parse.urlsplit(href).path
                self.links.append(posixpath.basename(urllib.parse.unquote(path)))


def _links(page: str) -> list[str]:
    """File names linked from a directory listing page (any server's HTML index)."""
    collector = _LinkCollector()
    collector.feed(page)
    return collector.links


def _first_line(error: Exception) -> str:
    return " ".join(str(error).split())
