"""Package locations -> IR packages: directories, zips, directories of packages, loose class files.

Files are read through a ``Source`` (a directory or a zip) so both kinds of package are handled
by one code path; every limit on hostile input (file size, member count, paths escaping the
package) is checked here.
"""

from __future__ import annotations

import dataclasses
import lzma
import os
import posixpath
import re
import zipfile
import zlib

from mplc import ir, versioning
from mplc.containment import resolves_inside
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.classes import ClassDocument, build_class, read_class_documents
from mplc.frontend.keys import mapping_entries
from mplc.frontend.lint import lint_package
from mplc.frontend.namespaces import Namespaces
from mplc.frontend.ui import read_ui_definition
from mplc.frontend.values import Scope, as_list, is_null, plain_data, text_of
from mplc.frontend.yaml_source import Mapping, Scalar, read_documents
from mplc.packagetypes import installed as installed_package_types
from mplc.packagetypes.reading import read_typed_package
from mplc.versioning import (DEFAULT_FORMAT_NAME, VersionError, parse_format, parse_requirement,
                             parse_version)

# what zipfile and its decompressors raise on a corrupt archive (a version, method or flag it
# does not support, a truncated or garbled stream, a negative offset, an undecodable name)
ZIP_FAILURES = (OSError, EOFError, ValueError, RuntimeError, NotImplementedError, zipfile.BadZipFile,
                zlib.error, lzma.LZMAError)
MAX_FILE_BYTES = 32 * 1024 * 1024
ZIP_ENCRYPTED = 0x1  # general purpose flag bit 0 of a zip member
MAX_ZIP_MEMBERS = 20000
MAX_ZIP_BYTES = 1024 * 1024 * 1024  # what an archive may expand to: a zip bomb is refused unread
MANIFEST_KEYS = frozenset({"Format", "Type", "FullName", "Name", "Version", "Require", "Classes",
                           "Description", "Author", "Supplier", "Tags", "Logo", "UI", "Meta"})
PACKAGE_TYPES = ("Application", "Library")
FULL_NAME = re.compile(r"^\w+(\.\w+)*$")
SUPPORTED_FORMATS = tuple(f"{major}.{minor}.0" for major, minor in versioning.MURANOPL_FORMATS)
BUILD_MARKER = "mplc-build.json"


def _file_pos(path: str) -> ir.Pos:
    return ir.Pos(path, 1, 1, 1, 1)


class Source:
    """The files of one package, by path relative to the package root ('/'-separated)."""

    def __init__(self, root: str, display_root: str):
        self.root = root
        self.display_root = display_root

    def display(self, relative: str) -> str:
        return os.path.join(self.display_root, *relative.split("/"))

    def exists(self, relative: str) -> bool:
        raise NotImplementedError

    def read(self, relative: str, sink: DiagnosticSink) -> bytes | None:
        raise NotImplementedError

    def listing(self, folder: str) -> tuple[str, ...]:
        raise NotImplementedError

    def top_files(self) -> tuple[str, ...]:
        """The names of the files at the package's top (not in a folder)."""
        raise NotImplementedError


class DirectorySource(Source):
    """A package directory. A file or folder that is a link leading out of the package is never
    read: reading it is an E-OUTSIDE-PACKAGE error, listings leave it out and note it in
    ``outside`` (``PackageLoader`` reports those)."""

    def __init__(self, root: str, display_root: str):
        super().__init__(root, display_root)
        self.outside: list[str] = []
        self.reported: set[str] = set()

    def exists(self, relative: str) -> bool:
        return os.path.isfile(os.path.join(self.root, *relative.split("/")))

    def read(self, relative: str, sink: DiagnosticSink) -> bytes | None:
        path = os.path.join(self.root, *relative.split("/"))
        if not resolves_inside(self.root, path):
            self.reported.add(relative)
            report_outside(sink, self.display(relative))
            return None
        try:
            if os.path.getsize(path) > MAX_FILE_BYTES:
                sink.error("E-TOO-LARGE", f"file is larger than {MAX_FILE_BYTES} bytes",
                           _file_pos(self.display(relative)))
                return None
            with open(path, "rb") as handle:
                return handle.read()
        except OSError as error:
            sink.error("E-IO", f"cannot read file: {error.strerror or error}",
                       _file_pos(self.display(relative)))
            return None

    def listing(self, folder: str) -> tuple[str, ...]:
        base = os.path.join(self.root, folder)
        if os.path.lexists(base) and not resolves_inside(self.root, base):
            self.outside.append(folder)
            return ()
        found = []
        for directory, subdirectories, files in os.walk(base):
            subdirectories.sort()
            for name in subdirectories:  # never walked into: os.walk follows no link
                path = os.path.join(directory, name)
                if not resolves_inside(self.root, path):
                    self.outside.append(os.path.relpath(path, self.root).replace(os.sep, "/"))
            for name in sorted(files):
                path = os.path.join(directory, name)
                if not resolves_inside(self.root, path):
                    self.outside.append(os.path.relpath(path, self.root).replace(os.sep, "/"))
                elif os.path.isfile(path):  # no FIFO, device, broken link
                    found.append(os.path.relpath(path, base).replace(os.sep, "/"))
        return tuple(found)

    def top_files(self) -> tuple[str, ...]:
        return tuple(sorted(name for name in os.listdir(self.root)
                            if os.path.isfile(os.path.join(self.root, name))))


def report_outside(sink: DiagnosticSink, display_path: str) -> None:
    """The error for a package file or folder that is a link leading out of the package; its
    text is never shown (it is not the package's)."""
    sink.error("E-OUTSIDE-PACKAGE", "a link leading out of the package: mplc reads nothing "
               "outside a package (make it a file or folder of the package)",
               _file_pos(display_path), quote=False)


class ZipSource(Source):
    def __init__(self, archive: zipfile.ZipFile, prefix: str, display_root: str):
        super().__init__(prefix, display_root)
        self.archive = archive
        self.members = {info.filename: info for info in archive.infolist() if not info.is_dir()}
        self.texts: dict[str, str] = {}

    def exists(self, relative: str) -> bool:
        return self.root + relative in self.members

    def read(self, relative: str, sink: DiagnosticSink) -> bytes | None:
        info = self.members.get(self.root + relative)
        display = self.display(relative)
        if info is None:
            sink.error("E-IO", "no such file in the archive", _file_pos(display))
            return None
        if info.file_size > MAX_FILE_BYTES:
            sink.error("E-TOO-LARGE", f"file is larger than {MAX_FILE_BYTES} bytes",
                       _file_pos(display))
            return None
        try:
            with self.archive.open(info) as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except ZIP_FAILURES as error:
            sink.error("E-IO", f"cannot read archive member: {error or type(error).__name__}",
                       _file_pos(display))
            return None
        if len(data) > MAX_FILE_BYTES:
            sink.error("E-TOO-LARGE", f"file is larger than {MAX_FILE_BYTES} bytes",
                       _file_pos(display))
            return None
        self.texts[display] = data.decode("utf-8", "replace")
        return data

    def listing(self, folder: str) -> tuple[str, ...]:
        """Members under ``folder``, leaving out names that would lead out of it when written
        (``Resources/../../x``): compiled output copies these files."""
        prefix = self.root + folder + "/"
        inside = (name[len(prefix):] for name in self.members if name.startswith(prefix))
        return tuple(sorted(name for name in inside if _safe_relative(name) == name))

    def top_files(self) -> tuple[str, ...]:
        return tuple(sorted(name[len(self.root):] for name in self.members
                            if name.startswith(self.root) and "/" not in name[len(self.root):]))


def _safe_relative(path: str) -> str | None:
    """A class file path kept inside Classes/, '/'-separated, or None when it would escape."""
    normalized = posixpath.normpath(path.replace("\\", "/"))
    if normalized.startswith(("/", "../")) or normalized in ("..", ".") or ":" in normalized[:2]:
        return None
    return normalized


class PackageLoader:
    def __init__(self, sink: DiagnosticSink, default_format: str | None,
                 sources: dict[str, str] | None, lint: bool = False):
        self.sink = sink
        self.lint = lint
        self.default_format = default_format
        self.sources = sources
        self.class_entry_positions: dict[str, ir.Pos] = {}

    # -- locations --------------------------------------------------------------------------

    def load(self, path: str) -> list[ir.Package]:
        if os.path.isfile(path):
            if zipfile.is_zipfile(path) or path.lower().endswith(".zip"):
                return self._zip(path)
            self.sink.error("E-PATH", "not a package: expected a directory or a .zip",
                            _file_pos(path))
            return []
        if not os.path.isdir(path):
            problem = "not a package: expected a directory or a .zip" if os.path.exists(path) \
                else "no such file or directory"
            self.sink.error("E-PATH", problem, _file_pos(path))
            return []
        if os.path.exists(os.path.join(path, BUILD_MARKER)):
            self.sink.warning("W-COMPILED-INPUT", "this is compiled output (mplc compile wrote it), "
                              "not a source package: it is not read; give the package's sources",
                              _file_pos(path))
            return []
        manifest = os.path.join(path, "manifest.yaml")
        if os.path.lexists(manifest) and not os.path.isfile(manifest):
            self.sink.error("E-IO", "cannot read file: not a regular file (a directory, FIFO, "
                            "device or broken link)", _file_pos(manifest))
            return []
        if os.path.isfile(manifest):
            package = self._package(DirectorySource(path, path))
            return [package] if package is not None else []
        children = discover_packages(path)
        if children:
            packages = []
            for child in children:
                packages.extend(self.load(child))
            return packages
        loose = [name for name in sorted(os.listdir(path)) if name.endswith((".yaml", ".yml"))
                 and os.path.isfile(os.path.join(path, name))]
        if loose:
            return [self._loose(path, loose)]
        self.sink.error("E-PATH", "no package here: no manifest.yaml, no packages, no class "
                        "files", _file_pos(path))
        return []

    def _zip(self, path: str) -> list[ir.Package]:
        try:
            archive = zipfile.ZipFile(path)
        except ZIP_FAILURES as error:
            self.sink.error("E-ZIP", f"cannot open archive: {error}", _file_pos(path))
            return []
        with archive:
            if len(archive.infolist()) > MAX_ZIP_MEMBERS:
                self.sink.error("E-ZIP", f"archive has more than {MAX_ZIP_MEMBERS} files",
                                _file_pos(path))
                return []
            if sum(info.file_size for info in archive.infolist()) > MAX_ZIP_BYTES:
                self.sink.error("E-ZIP", f"archive expands to more than {MAX_ZIP_BYTES} bytes",
                                _file_pos(path))
                return []
            names = archive.namelist()
            prefix = ""
            if "manifest.yaml" not in names:
                tops = {name.split("/", 1)[0] for name in names}
                if len(tops) == 1 and f"{next(iter(tops))}/manifest.yaml" in names:
                    prefix = next(iter(tops)) + "/"
                else:
                    self.sink.error("E-ZIP", "archive has no manifest.yaml", _file_pos(path))
                    return []
            if not self._members_intact(archive, path):
                return []
            source = ZipSource(archive, prefix, os.path.join(path, prefix[:-1]) if prefix else path)
            package = self._package(source)
            if self.sources is not None:
                self.sources.update(source.texts)
            return [package] if package is not None else []

    def _members_intact(self, archive: zipfile.ZipFile, path: str) -> bool:
        """Whether every member decompresses with its checksum: the reference extracts the
        whole archive, and compiled output copies Resources and UI files out of it."""
        intact = True
        for info in archive.infolist():
            if info.is_dir():
                continue
            member = _file_pos(os.path.join(path, info.filename))
            if info.flag_bits & ZIP_ENCRYPTED:
                self.sink.error("E-IO", "archive member is encrypted; mplc reads no "
                                "password-protected archives", member)
                intact = False
                continue
            try:
                with archive.open(info) as handle:
                    while handle.read(1 << 20):
                        pass
            except NotImplementedError:
                self.sink.error("E-IO", f"archive member is compressed with a method mplc cannot "
                                f"read (zip method {info.compress_type}); use deflate", member)
                intact = False
            except ZIP_FAILURES:
                self.sink.error("E-IO", "archive member is damaged: it does not unpack to the "
                                "data its checksum and size describe", member)
                intact = False
        return intact

    # -- packages ---------------------------------------------------------------------------

    def _package(self, source: Source) -> ir.Package | None:
        manifest_path = source.display("manifest.yaml")
        data = source.read("manifest.yaml", self.sink)
        if data is None:
            return None
        documents = read_documents(data, manifest_path, self.sink)
        if documents is None:
            return None
        if len(documents) != 1 or not isinstance(documents[0], Mapping):
            pos = documents[0].pos if documents else _file_pos(manifest_path)
            self.sink.error("E-MANIFEST", "manifest.yaml must be one mapping", pos)
            return None
        manifest = self._manifest(documents[0], manifest_path)
        if manifest is None:
            return None
        if self.lint:
            lint_package(source, documents[0], manifest, self.sink,
                         classes=manifest.format_name == DEFAULT_FORMAT_NAME)
        if manifest.format_name != DEFAULT_FORMAT_NAME:
            package = read_typed_package(source, manifest, plain_data(documents[0]), self.sink,
                                         self._file_classes)
            generated_ui = dict(package.generated_files).get("UI/ui.yaml") if package else None
            if generated_ui is None:
                return package
            return dataclasses.replace(package, ui_definition=read_ui_definition(
                generated_ui, source.display("UI/ui.yaml"), self.sink))
        classes = self._manifest_classes(source, manifest)
        package = ir.Package(manifest=manifest, classes=classes, root=source.display_root,
                             resources=source.listing("Resources"), ui_files=source.listing("UI"),
                             ui_definition=self._ui_definition(source, manifest))
        if isinstance(source, DirectorySource):
            logo = _safe_relative(manifest.logo or "logo.png")
            if logo is not None and os.path.lexists(os.path.join(source.root, logo)) \
                    and not resolves_inside(source.root, os.path.join(source.root, logo)):
                source.outside.append(logo)
            for relative in dict.fromkeys(source.outside):
                if relative not in source.reported:
                    report_outside(self.sink, source.display(relative))
        return package

    def _ui_definition(self, source: Source, manifest: ir.Manifest):
        """The package's dashboard form (the manifest's ``UI``, else ui.yaml), validated as the
        dashboard reads it; the dashboard, not the engine, reads it."""
        relative = _safe_relative(manifest.ui or "ui.yaml")
        if relative is None or not source.exists("UI/" + relative):
            return None
        data = source.read("UI/" + relative, self.sink)
        if data is None:
            return None
        return read_ui_definition(data, source.display("UI/" + relative), self.sink)

    def _manifest(self, node: Mapping, path: str) -> ir.Manifest | None:
        sink = self.sink
        entries = {key: value for key, (_, value) in
                   mapping_entries(node, MANIFEST_KEYS, "the manifest", sink).items()}
        format_node = entries.get("Format")
        format_name, format_version = self._format(
            None if format_node is None else plain_data(format_node),
            format_node.pos if format_node is not None else node.pos)
        full_name = text_of(entries.get("FullName"))
        if not full_name:
            sink.error("E-MANIFEST", "the manifest has no FullName", node.pos)
            return None
        if not FULL_NAME.match(full_name):
            sink.error("E-MANIFEST", f"invalid FullName '{full_name}': dot-separated words of "
                       "letters, digits and _", entries["FullName"].pos)
            return None
        package_type = entries.get("Type")
        type_value = plain_data(package_type) if package_type is not None else None
        if type_value not in PACKAGE_TYPES:
            sink.error("E-MANIFEST", f"invalid package Type {type_value!r}; must be Application "
                       "or Library", package_type.pos if package_type is not None else node.pos)
        version_node = entries.get("Version")
        version = "0.0.0"
        if version_node is not None and not is_null(version_node):
            try:
                version = str(parse_version(plain_data(version_node)))
            except VersionError as error:
                sink.error("E-VERSION", str(error), version_node.pos)
        scope = Scope(path, Namespaces({}, sink), sink)
        return ir.Manifest(
            format_name=format_name,
            format_version=format_version,
            type=type_value if isinstance(type_value, str) else "",
            full_name=full_name,
            name=_optional_text(entries.get("Name")),
            version=version,
            requirements=self._requirements(entries.get("Require")),
            classes=self._class_entries(entries.get("Classes")),
            description=_optional_text(entries.get("Description")),
            author=_optional_text(entries.get("Author")),
            supplier=None if entries.get("Supplier") is None else plain_data(entries["Supplier"]),
            tags=tuple(str(plain_data(tag)) for tag in as_list(entries.get("Tags"))),
            logo=_optional_text(entries.get("Logo")),
            ui=_optional_text(entries.get("UI")),
            meta=scope.meta(entries.get("Meta")),
            pos=node.pos,
        )

    def _format(self, value, pos: ir.Pos) -> tuple[str, str]:
        try:
            name, version = parse_format(value)
        except VersionError as error:
            self.sink.error("E-FORMAT", str(error), pos)
            return "MuranoPL", "1.0.0"
        if name == DEFAULT_FORMAT_NAME and str(version) not in SUPPORTED_FORMATS:
            self.sink.error("E-FORMAT", f"unsupported package format {name}/{version}; supported: "
                            "MuranoPL/1.0 to MuranoPL/1.4", pos)
        if name != DEFAULT_FORMAT_NAME:
            package_types = installed_package_types()
            if package_types.find(name, version) is None:
                self.sink.error("E-FORMAT", f"unknown package format {name}/{version}; installed "
                                f"package types: {package_types.describe()}", pos)
                return DEFAULT_FORMAT_NAME, "1.0.0"
        return name, str(version)

    def _requirements(self, node) -> tuple[ir.Requirement, ...]:
        if is_null(node):
            return ()
        if not isinstance(node, Mapping):
            self.sink.error("E-REQUIREMENT", "Require must be a mapping of package: version spec",
                            node.pos)
            return ()
        requirements = []
        for key, value in node.items:
            name = text_of(key)
            if not name:
                self.sink.error("E-REQUIREMENT", "required package names must be strings", key.pos)
                continue
            spec = None if is_null(value) else plain_data(value)
            if isinstance(spec, (dict, list)):
                self.sink.error("E-REQUIREMENT", "a version spec is a scalar", value.pos)
                continue
            spec_text = None if spec is None else str(spec)
            try:
                parse_requirement(spec_text)
            except VersionError as error:
                self.sink.error("E-REQUIREMENT", str(error), value.pos)
            requirements.append(ir.Requirement(name, spec_text, key.pos))
        return tuple(requirements)

    def _class_entries(self, node) -> tuple[tuple[str, str], ...]:
        if is_null(node):
            return ()
        if not isinstance(node, Mapping):
            self.sink.error("E-MANIFEST", "Classes must be a mapping of class name: file",
                            node.pos)
            return ()
        result = []
        self.class_entry_positions = {}
        for key, value in node.items:
            name, file_name = text_of(key), text_of(value)
            if not name or not file_name:
                self.sink.error("E-MANIFEST", "each Classes entry is class.Name: file.yaml",
                                key.pos)
                continue
            relative = _safe_relative(file_name)
            if relative is None:
                self.sink.error("E-CLASS-PATH", f"class file '{file_name}' is outside Classes/",
                                key.pos)
                continue
            self.class_entry_positions[name] = key.pos
            result.append((name, relative))
        return tuple(result)

    # -- classes ----------------------------------------------------------------------------

    def _manifest_classes(self, source: Source, manifest: ir.Manifest) -> tuple[ir.Class, ...]:
        by_file: dict[str, list[str]] = {}
        for name, relative in manifest.classes:
            by_file.setdefault(relative, []).append(name)
        entry_pos = self.class_entry_positions
        classes: list[ir.Class] = []
        for relative, names in by_file.items():
            file_path = "Classes/" + relative
            if not source.exists(file_path):
                for name in names:
                    self.sink.error("E-MISSING-CLASS-FILE",
                                    f"class {name}: file Classes/{relative} does not exist",
                                    entry_pos.get(name, manifest.pos))
                continue
            data = source.read(file_path, self.sink)
            if data is None:
                continue
            classes.extend(self._file_classes(data, source.display(file_path), names, entry_pos))
        return tuple(classes)

    def _file_classes(self, data: bytes, path: str, listed: list[str],
                      entry_pos: dict[str, ir.Pos] | None = None) -> list[ir.Class]:
        """The classes of one file; ``entry_pos``: where the manifest lists each class."""
        documents = read_class_documents(data, path, self.sink)
        if documents is None:
            return []
        named: list[tuple[ClassDocument, str]] = []
        unnamed: list[ClassDocument] = []
        for document in documents:
            written = document.written_name
            if written is None:
                unnamed.append(document)
                continue
            full_name = self._document_name(document, written)
            if full_name is not None:
                named.append((document, full_name))
        defined = {name for _, name in named}
        missing = [name for name in listed if name not in defined]
        if len(unnamed) > 1:
            self.sink.error("E-CLASS-NAME", "more than one class document without a Name in one "
                            "file", unnamed[1].mapping.pos)
        if unnamed and len(missing) == 1:
            named.append((unnamed[0], missing[0]))
        else:
            if unnamed and len(unnamed) == 1:
                self.sink.error("E-CLASS-NAME", "class document without a Name, and no single "
                                "manifest entry names it", unnamed[0].mapping.pos)
            for name in missing:
                self.sink.error("E-CLASS-NOT-IN-FILE", f"the manifest maps class {name} to "
                                f"{path}, which does not define it",
                                (entry_pos or {}).get(name, ir.Pos(path, 1, 1, 1, 1)))
        return [cls for cls in (build_class(document, name, path, self.sink)
                                for document, name in named) if cls is not None]

    def _document_name(self, document: ClassDocument, written: Scalar) -> str | None:
        text = text_of(written)
        if text is None:
            self.sink.error("E-CLASS-NAME", "class Name must be a string", written.pos)
            return None
        return Namespaces(document.namespaces, self.sink).resolve(text, written.pos)

    def _loose(self, path: str, files: list[str]) -> ir.Package:
        format_name, format_version = self._format(self.default_format, _file_pos(path))
        full_name = os.path.basename(os.path.normpath(os.path.abspath(path)))
        manifest_pos = _file_pos(path)
        classes: list[ir.Class] = []
        class_entries: list[tuple[str, str]] = []
        source = DirectorySource(path, path)
        for name in files:
            data = source.read(name, self.sink)
            if data is None:
                continue
            file_classes = self._file_classes(data, source.display(name), [])
            classes.extend(file_classes)
            class_entries.extend((cls.name, name) for cls in file_classes)
        manifest = ir.Manifest(
            format_name=format_name, format_version=format_version, type="Library",
            full_name=full_name, name=full_name, version="0.0.0", requirements=(),
            classes=tuple(class_entries), description=None, author=None, supplier=None,
            tags=(), logo=None, ui=None, meta=(), pos=manifest_pos)
        return ir.Package(manifest=manifest, classes=tuple(classes), root=path)


def _holds_manifest(path: str) -> bool:
    """Whether a .zip found below a tree is a package (its manifest.yaml at the top or under one
    folder); other archives in a repository are no concern of mplc."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except ZIP_FAILURES:
        return False
    return "manifest.yaml" in names or any(name.count("/") == 1 and name.endswith("/manifest.yaml")
                                           for name in names)


def discover_packages(root: str) -> list[str]:
    """The packages in a directory tree that is no package itself, at any depth: directories
    with a manifest.yaml (never searched further: a package's Resources may hold a
    manifest.yaml of their own), .zip packages, and ``mplc compile`` output (reported as such).
    Hidden directories (.git, .tox) are skipped; YAML that belongs to no package (.zuul.yaml,
    CI and doc files) is ignored. A .zip directly in ``root`` is always a candidate, so a
    broken one is reported; deeper ones only when they hold a manifest."""
    found: list[str] = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        keep = []
        for name in subdirectories:
            child = os.path.join(directory, name)
            if name.startswith(".") or name == "__pycache__":
                continue
            if os.path.lexists(os.path.join(child, "manifest.yaml")) \
                    or os.path.exists(os.path.join(child, BUILD_MARKER)):
                found.append(child)
            else:
                keep.append(name)
        subdirectories[:] = keep
        for name in sorted(files):
            path = os.path.join(directory, name)
            if name.lower().endswith(".zip") and os.path.isfile(path) \
                    and (directory == root or _holds_manifest(path)):
                found.append(path)
    return sorted(found)


def _optional_text(node) -> str | None:
    if node is None or is_null(node):
        return None
    value = plain_data(node)
    return value if isinstance(value, str) else str(value)


def load_packages(paths: list[str], sink: DiagnosticSink, default_format: str | None = None,
                  sources: dict[str, str] | None = None, lint: bool = False) -> list[ir.Package]:
    """IR for every package found at ``paths``; diagnostics for everything that is wrong.

    ``sources`` (optional) receives the text of files read from zips, keyed by their
    diagnostic path, so ``mplc.diagnostics.render`` can show their lines. ``lint`` adds the
    packaging checks of ``mplc check`` (``mplc.frontend.lint``).
    """
    loader = PackageLoader(sink, default_format, sources, lint)
    packages: list[ir.Package] = []
    for path in paths:
        packages.extend(loader.load(path))
    return packages
