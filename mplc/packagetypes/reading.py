"""The front end's side of package types: a package whose Format is not MuranoPL becomes IR.

The package type is constructed on the package's directory (a zip is unpacked to a temporary
one first) and asked for its classes; their MuranoPL text goes through the ordinary class
reader, so one pipeline compiles everything. Positions in generated text are moved to the
lines the type says they came from, diagnostics included.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import posixpath
import tempfile
import zipfile
from typing import Callable, Iterator

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.packagetypes import ClassSource, PackageTypeError, installed
from mplc.versioning import Version

MAX_UNPACKED_BYTES = 256 * 1024 * 1024

ReadClasses = Callable[[bytes, str, list], list]


def read_typed_package(source, manifest: ir.Manifest, manifest_data: dict,
                       sink: DiagnosticSink, read_classes: ReadClasses) -> ir.Package | None:
    """IR of a package of a non-MuranoPL Format; ``source`` is the front end's ``Source``,
    ``read_classes(data, path, names)`` its class reader (reporting into ``sink``)."""
    version = Version(manifest.format_version)
    format_text = f"{manifest.format_name}/{version}"
    package_type = installed().find(manifest.format_name, version)
    if package_type is None:
        return None
    with _directory(source, sink, manifest.pos) as directory:
        if directory is None:
            return None
        try:
            package = package_type(manifest.format_name, version, directory, manifest_data)
            classes: list[ir.Class] = []
            class_entries = []
            for name in package.classes:
                read = _read_class(package.get_class(name), name, directory, source, sink,
                                   read_classes)
                classes.extend(read)
                class_entries.extend((cls.name, os.path.basename(cls.source_file)) for cls in read)
            requirements = tuple(ir.Requirement(str(name), None if spec is None else str(spec),
                                                manifest.pos)
                                 for name, spec in dict(package.requirements).items())
            generated = _generated_files(package, sink, manifest.pos)
        except PackageTypeError as error:
            for problem in error.problems:
                pos = _problem_pos(problem, source, manifest.pos)
                report = sink.warning if problem.severity == "warning" else sink.error
                report(problem.code, problem.message, pos)
            return None
        except Exception as error:  # plugin code is foreign: its failure is a diagnostic
            sink.error("E-PACKAGE-TYPE", f"package type {format_text} failed: "
                       f"{type(error).__name__}: {error}", manifest.pos)
            return None
    manifest = dataclasses.replace(manifest, requirements=requirements,
                                   classes=tuple(class_entries))
    return ir.Package(manifest=manifest, classes=tuple(classes), root=source.display_root,
                      resources=source.listing("Resources"), ui_files=source.listing("UI"),
                      generated_files=generated)


def _read_class(result, name: str, directory: str, source, sink: DiagnosticSink,
                read_classes: ReadClasses) -> list[ir.Class]:
    if isinstance(result, ClassSource):
        text, file, origins = result.text, result.file, result.origins
    else:
        text, file = result
        origins = ()
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    relative = _inside(directory, file)
    path = source.display(relative if relative is not None else f"<generated {name}>")
    first_diagnostic = len(sink.diagnostics)
    classes = read_classes(data, path, [name])
    if not origins:
        return classes

    def move(pos: ir.Pos) -> ir.Pos:
        if pos.file != path or pos is ir.NO_POS:
            return pos
        line, col, end_line, end_col = origins[min(max(pos.line, 1), len(origins)) - 1]
        return ir.Pos(path, line, col, end_line, end_col)

    sink.diagnostics[first_diagnostic:] = [dataclasses.replace(d, pos=move(d.pos))
                                           for d in sink.diagnostics[first_diagnostic:]]
    return [cls.relocated(move) for cls in classes]


def _inside(directory: str, file: str) -> str | None:
    """``file`` relative to the package directory ('/'-separated), or None when it is not a
    file of the package (a label such as ``<generated code>``)."""
    path = os.path.abspath(os.path.join(directory, file))
    root = os.path.abspath(directory)
    if os.path.commonpath([root, path]) != root or not os.path.isfile(path):
        return None
    return os.path.relpath(path, root).replace(os.sep, "/")


def _problem_pos(problem, source, manifest_pos: ir.Pos) -> ir.Pos:
    if problem.file is None or problem.file == "manifest.yaml" and problem.span is None:
        return manifest_pos
    path = source.display(problem.file)
    return ir.Pos(path, *(problem.span or (1, 1, 1, 1)))


def _generated_files(package, sink: DiagnosticSink, pos: ir.Pos) -> tuple[tuple[str, bytes], ...]:
    """What the type adds to the compiled package (``generated_files``: relative path -> bytes)."""
    files = []
    for relative, data in sorted(dict(getattr(package, "generated_files", None) or {}).items()):
        normalized = posixpath.normpath(str(relative))
        if normalized.startswith(("/", "../")) or normalized in ("..", "."):
            sink.error("E-PACKAGE-TYPE", f"package type generated file {relative!r} outside the "
                       "package", pos)
            continue
        files.append((normalized, data.encode("utf-8") if isinstance(data, str) else bytes(data)))
    return tuple(files)


@contextlib.contextmanager
def _directory(source, sink: DiagnosticSink, pos: ir.Pos) -> Iterator[str | None]:
    """The package's directory; a zip's members are unpacked into a temporary one."""
    archive = getattr(source, "archive", None)
    if archive is None:
        yield source.root
        return
    members = [info for name, info in source.members.items() if name.startswith(source.root)]
    if sum(info.file_size for info in members) > MAX_UNPACKED_BYTES:
        sink.error("E-ZIP", f"archive unpacks to more than {MAX_UNPACKED_BYTES} bytes", pos)
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="mplc-package-") as directory:
        try:
            for info in members:
                relative = posixpath.normpath(info.filename[len(source.root):])
                if relative.startswith(("/", "../")) or relative in ("..", "."):
                    continue
                target = os.path.join(directory, *relative.split("/"))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with archive.open(info) as member, open(target, "wb") as handle:
                    handle.write(member.read())
        except (OSError, zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
            sink.error("E-ZIP", f"cannot unpack archive: {error}", pos)
            directory = None
        yield directory
