"""The Package interface of package-type plugins, and a base class reading the static manifest parts.

A package type turns a package directory in some Format (``MuranoPL/1.3``, ``Heat.HOT/1.0``, a
plugin's own) into MuranoPL classes. Plugins written for Murano's engine construct and answer
the same way: ``Type(format_name, runtime_version, source_directory, manifest)``, where
``manifest`` is the manifest.yaml as plain data, and ``get_class(name)`` returns
``(class source, file)``. A type may instead return a ``ClassSource`` so that the generated
class's positions point into the file it came from.
"""

from __future__ import annotations

import abc
import io
import os
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from mplc.containment import resolves_inside
from mplc.versioning import Version, VersionError, parse_version

PACKAGE_TYPES = ("Application", "Library")
RESOURCES = "Resources"
MAX_IMAGE_BYTES = 500 * 1024
_FULL_NAME = re.compile(r"\w+(?:\.\w+)*")
_IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")

Span = tuple[int, int, int, int]  # line, col, end_line, end_col; 1-based


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a package, where it is (``file`` relative to the package)."""

    code: str
    message: str
    file: str | None = None
    span: Span | None = None
    severity: str = "error"


class PackageTypeError(Exception):
    """A package its type cannot read; ``problems`` says every reason found, with positions."""

    def __init__(self, message: str, file: str | None = None, span: Span | None = None,
                 code: str = "E-PACKAGE-TYPE", problems: tuple[Problem, ...] = ()):
        super().__init__(message)
        self.problems = problems or (Problem(code, message, file, span),)


@dataclass(frozen=True)
class ClassSource:
    """MuranoPL class text a package type generated, and the origin of each of its lines.

    ``origins[n]`` is the span in ``file`` that line ``n + 1`` of ``text`` was made from."""

    text: str
    file: str
    origins: tuple[Span, ...] = field(default=())


def secure_join(root: str, relative: str, package_root: str | None = None) -> str:
    """``root/relative``, refusing paths that leave ``root``, or lead out of ``package_root``
    (default ``root``) through a link."""
    root = os.path.abspath(root)
    path = os.path.abspath(os.path.join(root, relative))
    if path == root or os.path.commonpath([root, path]) != root \
            or not resolves_inside(package_root or root, path):
        raise PackageTypeError(f"path {relative!r} is outside the package")
    return path


def _abstract_property(doc: str) -> property:
    return property(abc.abstractmethod(lambda self: None), doc=doc)


class Package(abc.ABC):
    """What the engine asks of a package, whatever its Format."""

    def __init__(self, format_name: str, runtime_version: Version, source_directory: str):
        self._format_name = format_name
        self._runtime_version = runtime_version
        self._source_directory = source_directory

    @property
    def format_name(self) -> str:
        return self._format_name

    @property
    def runtime_version(self) -> Version:
        """The MuranoPL Format version the package's classes run under."""
        return self._runtime_version

    @property
    def source_directory(self) -> str:
        return self._source_directory

    @property
    def blob(self) -> bytes:
        """The package as a zip archive."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for directory, subdirectories, files in os.walk(self._source_directory):
                subdirectories.sort()
                for name in sorted(files):
                    path = os.path.join(directory, name)
                    if not resolves_inside(self._source_directory, path):
                        continue
                    archive.write(path, os.path.relpath(path, self._source_directory))
        return buffer.getvalue()

    full_name = _abstract_property("The package's FullName.")
    version = _abstract_property("Its semantic version.")
    classes = _abstract_property("Names of the classes it defines.")
    requirements = _abstract_property("Required package name -> version spec.")
    package_type = _abstract_property("Application or Library.")
    display_name = _abstract_property("Its Name, for people.")
    description = _abstract_property("Its Description.")
    author = _abstract_property("Its Author.")
    supplier = _abstract_property("Its Supplier mapping.")
    tags = _abstract_property("Its Tags.")
    logo = _abstract_property("The logo image's bytes, or None.")
    supplier_logo = _abstract_property("The supplier logo image's bytes, or None.")
    ui = _abstract_property("The dashboard form (YAML text or bytes), or None.")
    meta = _abstract_property("The manifest's Meta section.")

    @abc.abstractmethod
    def get_class(self, name: str) -> tuple[str | bytes, str] | ClassSource:
        """The source of class ``name``: ``(text, file)`` or a ``ClassSource``."""

    @abc.abstractmethod
    def get_resource(self, name: str) -> str:
        """The path of resource ``name``."""


class PackageBase(Package):
    """Fills the manifest's static parts: names, version, type, descriptions, images."""

    def __init__(self, format_name: str, runtime_version: Version, source_directory: str,
                 manifest: dict):
        super().__init__(format_name, runtime_version, source_directory)
        if not isinstance(manifest, dict):
            raise PackageTypeError("manifest.yaml must be a mapping", "manifest.yaml")
        self._manifest = manifest
        full_name = manifest.get("FullName")
        if not full_name or not isinstance(full_name, str) or not _FULL_NAME.fullmatch(full_name):
            raise PackageTypeError(f"invalid FullName {full_name!r}", "manifest.yaml")
        self._full_name = full_name
        try:
            self._version = parse_version(manifest.get("Version", "0.0.0"))
        except VersionError as error:
            raise PackageTypeError(str(error), "manifest.yaml") from None
        self._package_type = manifest.get("Type")
        if self._package_type not in PACKAGE_TYPES:
            raise PackageTypeError(f"invalid package Type {self._package_type!r}", "manifest.yaml")

    @property
    def full_name(self) -> str:
        return self._full_name

    @property
    def version(self) -> Version:
        return self._version

    @property
    def package_type(self) -> str:
        return self._package_type

    @property
    def display_name(self) -> str:
        return self._manifest.get("Name", self._full_name)

    @property
    def description(self) -> str | None:
        return self._manifest.get("Description")

    @property
    def author(self) -> str | None:
        return self._manifest.get("Author")

    @property
    def supplier(self) -> dict:
        return self._manifest.get("Supplier") or {}

    @property
    def tags(self) -> list:
        return list(self._manifest.get("Tags") or [])

    @property
    def meta(self) -> Any:
        return None

    @property
    def logo(self) -> bytes | None:
        return self._image(self._manifest.get("Logo"), "logo.png", "logo")

    @property
    def supplier_logo(self) -> bytes | None:
        supplier = self.supplier
        name = supplier.get("Logo") if isinstance(supplier, dict) else None
        return self._image(name, "supplier_logo.png", "supplier logo")

    def get_resource(self, name: str) -> str:
        return secure_join(os.path.join(self._source_directory, RESOURCES), name, self._source_directory)

    def _image(self, file_name: str | None, default_name: str, what: str) -> bytes | None:
        """A PNG, JPEG or GIF of at most 500 KiB; a missing default image is no image."""
        path = secure_join(self._source_directory, file_name or default_name)
        if not os.path.isfile(path):
            if file_name:
                raise PackageTypeError(f"{what} {file_name} does not exist", "manifest.yaml")
            return None
        if os.path.getsize(path) > MAX_IMAGE_BYTES:
            raise PackageTypeError(f"{what} {file_name or default_name} is larger than "
                                   f"{MAX_IMAGE_BYTES} bytes", "manifest.yaml")
        with open(path, "rb") as handle:
            data = handle.read()
        if not data.startswith(_IMAGE_SIGNATURES):
            raise PackageTypeError(f"{what} {file_name or default_name}: only png, jpeg and gif "
                                   "images are allowed", "manifest.yaml")
        return data
