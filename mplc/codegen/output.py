"""Compiled packages on disk: mangled directory names, sourceless .pyc, cache keys, incremental writes.

Layout and rules: docs/compiled-modules.md, "On disk".
"""

from __future__ import annotations

import ast
import contextlib
import errno
import gc
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib._bootstrap_external import _code_to_timestamp_pyc
from types import CodeType

import yaml

import mplc
from mplc import abi, buildrecord, ir
from mplc.buildrecord import BUILD_FILE, BuildRecordError
from mplc.codegen.classes import class_module, package_module
from mplc.codegen.readable import readable_source
from mplc.containment import resolves_inside

SOURCE_SUFFIX = ".src.py"
_INSTALL_ATTEMPTS = 20


def mangle(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", text)


def package_dir_name(full_name: str, version: str) -> str:
    digest = hashlib.sha256(f"{full_name}/{version}".encode("utf-8")).hexdigest()[:8]
    return f"p_{mangle(full_name)}__{mangle(version)}_{digest}"


def _source_files(root: str) -> list[tuple[str, str]]:
    """(relative path, absolute path) of every regular file under ``root``, sorted; a zip is one
    file. FIFOs, devices and broken links are no source (reading one could block forever); a
    link leading out of the package is not read (``cache_key`` hashes where it points)."""
    if os.path.isfile(root):
        return [(os.path.basename(root), root)]
    found = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d != "__pycache__")
        for name in files:
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                found.append((os.path.relpath(path, root).replace(os.sep, "/"), path))
    return sorted(found)


def cache_key(root: str, *options: str) -> str:
    """sha256 over the sources (paths and bytes), what compiled output must match to run
    (``abi.compatibility_key``: mplc's version, the ABI version, the bytecode magic, yaql's
    version), PyYAML's version (the front end reads the sources with it: another PyYAML may read
    them differently, though what it compiled runs anywhere) and options."""
    digest = hashlib.sha256()
    for part in (os.path.abspath(root), abi.compatibility_key(), f"pyyaml-{yaml.__version__}", *options):
        digest.update(part.encode("utf-8") + b"\0")
    for relative, path in _source_files(root):
        digest.update(relative.encode("utf-8") + b"\0")
        if not resolves_inside(root, path):
            digest.update(b"link\0" + os.fsencode(os.path.realpath(path)))
            continue
        with open(path, "rb") as handle:
            digest.update(hashlib.sha256(handle.read()).digest())
    return digest.hexdigest()


def build_key(package: ir.Package, emit_source: bool, fast_paths: bool = True) -> str:
    """The cache key of one package's output: its sources, its Format and the output options."""
    manifest = package.manifest
    return cache_key(package.root, f"{manifest.format_name}/{manifest.format_version}",
                     f"emit_source={emit_source}", f"fast_paths={fast_paths}")


@dataclass(frozen=True)
class CompiledModule:
    name: str  # module name inside the package directory: "__init__", "c0000", ...
    tree: ast.Module
    code: CodeType


@contextlib.contextmanager
def _cyclic_gc_paused():
    """Generated ast trees are large and acyclic; the cyclic collector would re-walk them on
    every pass (the compile takes 2-3x longer with it running). They are written and dropped
    before it resumes: a collection right after it resumes would walk them all once more."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def compile_package(package: ir.Package, fast_paths: bool = True) -> list[CompiledModule]:
    """Every module of ``package``: ``__init__`` first, then one per class in sorted name order.

    ``fast_paths=False`` leaves every expression to the runtime's yaql bridge (plain yaql
    evaluation, the benchmark's comparison column)."""
    return [compile_module(package, index, fast_paths) for index in range(module_count(package))]


def module_count(package: ir.Package) -> int:
    return 1 + len(package.classes)


def compile_module(package: ir.Package, index: int, fast_paths: bool = True) -> CompiledModule:
    """Module ``index`` of ``package`` (0 is ``__init__``, then the classes in sorted name
    order); each is compiled on its own, so any subset can be compiled in any process."""
    classes = sorted(package.classes, key=lambda cls: cls.name)
    names = {cls.name: f"c{number:04d}" for number, cls in enumerate(classes)}
    if index == 0:
        return _compiled("__init__", package_module(package, names), package.manifest.pos.file)
    cls = classes[index - 1]
    return _compiled(names[cls.name], class_module(cls, package.manifest.format_version, fast_paths),
                     cls.source_file)


def _compiled(name: str, tree: ast.Module, yaml_path: str) -> CompiledModule:
    code = compile(tree, os.path.abspath(yaml_path), "exec", dont_inherit=True)
    return CompiledModule(name, tree, _interned_names(code))


def _interned_names(code: CodeType) -> CodeType:
    """``code`` with its functions' names interned. Python interns the names a code object
    uses, not its own name: marshal would write that name as interned or not depending on
    whether the process happened to hold an interned copy already (from another module it
    compiled), and the .pyc bytes would depend on which process compiled which modules."""
    constants = tuple(_interned_names(constant) if isinstance(constant, CodeType) else constant
                      for constant in code.co_consts)
    return code.replace(co_name=sys.intern(code.co_name), co_qualname=sys.intern(code.co_qualname),
                        co_consts=constants)


def _copy_package_files(package: ir.Package, destination: str) -> None:
    """manifest.yaml, Resources/ and UI/ travel with the compiled package, byte for byte, with
    the files the package's type generated."""
    generated = dict(package.generated_files)
    for relative, data in generated.items():
        _write(os.path.join(destination, *relative.split("/")), data)
    wanted = [relative for relative in ["manifest.yaml"]
              + [f"Resources/{path}" for path in package.resources]
              + [f"UI/{path}" for path in package.ui_files] if relative not in generated]
    if zipfile.is_zipfile(package.root):
        with zipfile.ZipFile(package.root) as archive:
            present = set(archive.namelist())
            for relative in wanted:
                if relative in present:
                    _write(os.path.join(destination, relative), archive.read(relative))
        return
    for relative in wanted:
        source = os.path.join(package.root, relative)
        if os.path.isfile(source):
            target = os.path.join(destination, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)


def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)


def read_build_key(package_directory: str) -> str | None:
    return buildrecord.read_field(package_directory, "key")


def built_by_this_compiler(package_directory: str) -> bool:
    """Whether the compiled package was written for this runtime (``abi.compatibility_key``):
    the modules call the runtime through the ABI their mplc declared."""
    return buildrecord.read_field(package_directory, "compiler") == abi.compatibility_key()


def _intact(package_directory: str) -> bool:
    try:
        buildrecord.verify(package_directory)
    except BuildRecordError:
        return False
    return True


@dataclass(frozen=True)
class PackageBuild:
    """A package being written: its modules go into ``staging``, which ``finish_build`` renames
    to ``directory`` (modules may be written by several processes meanwhile)."""

    package: ir.Package
    directory: str
    staging: str
    key: str
    emit_source: bool
    fast_paths: bool

    @property
    def module_count(self) -> int:
        return module_count(self.package)


def package_directory(package: ir.Package, output: str) -> str:
    return os.path.join(output, package_dir_name(package.manifest.full_name, package.manifest.version))


def start_build(package: ir.Package, output: str, emit_source: bool = False, fast_paths: bool = True,
                force: bool = False) -> PackageBuild | None:
    """A staging directory for ``package`` under ``output``; None when its directory already
    holds a whole build of the package's key (and not ``force``)."""
    key = build_key(package, emit_source, fast_paths)
    directory = package_directory(package, output)
    if not force and read_build_key(directory) == key and _intact(directory):
        return None
    os.makedirs(output, exist_ok=True)
    return PackageBuild(package, directory, tempfile.mkdtemp(prefix=".build-", dir=output), key,
                        emit_source, fast_paths)


def write_modules(build: PackageBuild, indices) -> None:
    """Compile modules ``indices`` (see ``compile_module``) into the build's staging directory."""
    with _cyclic_gc_paused():
        for index in indices:
            module = compile_module(build.package, index, build.fast_paths)
            _write(os.path.join(build.staging, module.name + ".pyc"),
                   bytes(_code_to_timestamp_pyc(module.code, 0, 0)))
            if build.emit_source:
                _write(os.path.join(build.staging, module.name + SOURCE_SUFFIX),
                       readable_source(module.tree, module.code.co_filename).encode("utf-8"))
            del module  # dropped before the next is built: one tree alive at a time


def finish_build(build: PackageBuild, force: bool = False) -> bool:
    """Add the package's files and build record to the staging directory (every module
    written) and install it; whether it was installed (see ``_install``)."""
    manifest = build.package.manifest
    _copy_package_files(build.package, build.staging)
    buildrecord.write_record(build.staging, {
        "key": build.key, "full_name": manifest.full_name, "version": manifest.version,
        "format": f"{manifest.format_name}/{manifest.format_version}"})
    os.chmod(build.staging, 0o755)
    return _install(build.staging, build.directory, build.key, force)


def abandon_build(build: PackageBuild) -> None:
    shutil.rmtree(build.staging, ignore_errors=True)


def write_package(package: ir.Package, output: str, emit_source: bool = False,
                  fast_paths: bool = True, force: bool = False) -> tuple[str, bool]:
    """Write ``package`` under ``output``; returns (its directory, whether anything was written).

    A directory whose build file already holds the package's key is left untouched, unless
    ``force``.
    """
    build = start_build(package, output, emit_source, fast_paths, force)
    if build is None:
        return package_directory(package, output), False
    try:
        write_modules(build, range(build.module_count))
        return build.directory, finish_build(build, force)
    except BaseException:
        abandon_build(build)
        raise


def _install(staging: str, directory: str, key: str, force: bool) -> bool:
    """Rename the finished build ``staging`` to ``directory``; whether it was installed.

    Other processes (serve workers, ``-j`` workers, a second ``mplc run``) may build the same
    package at the same time and import from ``directory`` meanwhile: a rename is atomic, so
    they see a whole build or none. A build of the same key another process finished first
    is kept (they may be importing from it) and ours dropped; any other build is renamed aside
    before ours takes its place, and removed after."""
    for _ in range(_INSTALL_ATTEMPTS):
        if not force and read_build_key(directory) == key and _intact(directory):
            shutil.rmtree(staging)
            return False
        if os.path.isdir(directory) and not os.path.islink(directory):
            aside = tempfile.mkdtemp(prefix=".old-", dir=os.path.dirname(directory))
            try:
                os.replace(directory, aside)
            except FileNotFoundError:
                pass  # another process moved it first
            shutil.rmtree(aside, ignore_errors=True)
        elif os.path.lexists(directory):  # a file or link where the package goes: mplc wrote no such thing
            with contextlib.suppress(FileNotFoundError):
                os.unlink(directory)
        try:
            os.replace(staging, directory)
            return True
        except OSError as error:
            if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise
            # another process installed its build between our two renames: look at it again
    raise OSError(errno.EBUSY, "other processes keep replacing the compiled package", directory)
