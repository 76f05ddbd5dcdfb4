"""Source packages to compiled package directories: the front end and its checks, then codegen,
for ``mplc check``/``compile``/``schema`` and the Runtime. Sources compiled on demand go into a
cache directory (``$MPLC_CACHE_DIR``, default ``~/.cache/mplc``) keyed like ``mplc compile``
output, so an unchanged package is never compiled twice. Never imports the runtime."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from mplc import buildrecord
from mplc.codegen import BUILD_FILE, cache_key, write_package
from mplc.contracts.forms import FormsGenerator
from mplc.diagnostics import CompileError, Diagnostic, DiagnosticSink
from mplc.frontend import check_packages, load_packages
from mplc.ir import Pos
from mplc.parallel import write_packages

CORE_LIBRARY = "io.murano"
CORE_LIBRARY_PATH = os.path.join(os.path.dirname(__file__), "corelib", CORE_LIBRARY)
_CACHE_INDEX = buildrecord.CACHE_INDEX


def default_cache_dir() -> str:
    return os.environ.get("MPLC_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "mplc")


def _compiled_packages(path: str) -> list[str] | None:
    """The compiled package directories ``path`` holds, or None when it is not compiled output."""
    if os.path.isfile(os.path.join(path, BUILD_FILE)):
        return [path]
    if not os.path.isdir(path) or os.path.exists(os.path.join(path, "manifest.yaml")):
        return None
    found = sorted(os.path.join(path, name) for name in os.listdir(path)
                   if not name.startswith(".")  # a build another process has not finished
                   and os.path.isfile(os.path.join(path, name, BUILD_FILE)))
    return found or None


def _refused_builds(directories: list[str]) -> list[Diagnostic]:
    """An error for each compiled package mplc will not import: another mplc wrote it
    (E-STALE-BUILD), or this user's mplc did not write it as it is (E-UNTRUSTED-BUILD)."""
    refused = []
    for directory in directories:
        try:
            buildrecord.verify(directory)
        except buildrecord.BuildRecordError as error:
            refused.append(Diagnostic("error", error.code, error.message, Pos(error.path, 1, 1, 1, 1),
                                      quote=False))
    return refused


def _full_name(package_directory: str) -> str | None:
    return buildrecord.read_field(package_directory, "full_name")


@dataclass(frozen=True)
class PackageOutcome:
    """What reading (and compiling) one source package gave: its name, what it defines and
    requires, its diagnostics, and its compiled directory (None when it has errors, or was not
    compiled). ``full_name`` is None for a package whose manifest could not be read."""

    full_name: str | None
    version: str
    requires: tuple[str, ...]
    classes: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    directory: str | None = None
    listed: bool = True  # ``classes`` is all it can define (its manifest lists them)

    @property
    def broken(self) -> bool:
        return any(diagnostic.severity == "error" for diagnostic in self.diagnostics)

    def to_json(self) -> dict:
        return {"full_name": self.full_name, "version": self.version, "requires": list(self.requires),
                "classes": list(self.classes), "directory": self.directory, "listed": self.listed,
                "diagnostics": [[d.severity, d.code, d.message, d.pos.file, d.pos.line, d.pos.col,
                                 d.pos.end_line, d.pos.end_col] for d in self.diagnostics]}

    @classmethod
    def from_json(cls, data: dict, base: str) -> "PackageOutcome":
        directory = data["directory"]
        return cls(data["full_name"], data["version"], tuple(data["requires"]), tuple(data["classes"]),
                   tuple(Diagnostic(severity, code, message, Pos(*pos))
                         for severity, code, message, *pos in data["diagnostics"]),
                   None if directory is None else os.path.join(base, directory), data["listed"])


def _owner(file: str, roots: list[tuple[str, int]]) -> int | None:
    """The index of the package whose root holds ``file`` (the deepest such root)."""
    best = None
    for root, index in roots:
        if file == root or file.startswith(root.rstrip(os.sep) + os.sep):
            if best is None or len(root) > len(roots[best][0]):
                best = index
    return None if best is None else roots[best][1]


def partition_diagnostics(packages: list, diagnostics: Iterable[Diagnostic]
                          ) -> tuple[list[PackageOutcome], list[Diagnostic]]:
    """Each package's own diagnostics (those in its files), so one broken package fails alone.

    Diagnostics in no loaded package's files come back apart: those of one file (a manifest or
    .zip that could not be read) become an outcome without a name; E-PATH (a PATH that does not
    exist or holds nothing) concerns the command line as a whole."""
    roots = [(package.root, index) for index, package in enumerate(packages)]
    own: list[list[Diagnostic]] = [[] for _ in packages]
    unread: dict[str, list[Diagnostic]] = {}
    general: list[Diagnostic] = []
    for diagnostic in diagnostics:
        index = _owner(diagnostic.pos.file, roots)
        if index is not None:
            own[index].append(diagnostic)
        elif diagnostic.code != "E-PATH":
            unread.setdefault(diagnostic.pos.file, []).append(diagnostic)
        else:
            general.append(diagnostic)
    outcomes = [PackageOutcome(package.manifest.full_name, package.manifest.version,
                               tuple(r.package for r in package.manifest.requirements),
                               tuple(dict.fromkeys([*(cls.name for cls in package.classes),
                                                    *(name for name, _ in package.manifest.classes)])),
                               tuple(found), None,
                               os.path.basename(package.manifest.pos.file) == "manifest.yaml")
                for package, found in zip(packages, own)]
    outcomes.extend(PackageOutcome(None, "", (), (), tuple(found), None, False)
                    for found in unread.values())
    return outcomes, general


def needed_packages(outcomes: Iterable[PackageOutcome], class_names: Iterable[str] = (),
                    package_names: Iterable[str] = ()) -> list[PackageOutcome]:
    """The packages loading ``class_names`` (and ``package_names``) needs, as the engine
    loads lazily: every package defining one of the classes, and, transitively, the packages
    they require (a package defines the classes its manifest lists, read or not). A class no
    package defines may live in a package with errors whose classes are not all known (its
    manifest could not be read, or it is a directory of loose class files): those are needed
    then (their errors may say why the class is not found)."""
    outcomes = list(outcomes)
    by_name: dict[str, list[PackageOutcome]] = {}
    for outcome in outcomes:
        if outcome.full_name is not None:
            by_name.setdefault(outcome.full_name, []).append(outcome)
    pending = list(package_names)
    broken = [outcome for outcome in outcomes if outcome.broken and not outcome.listed]
    needed: list[PackageOutcome] = []
    for class_name in class_names:
        defining = [outcome for outcome in outcomes if class_name in outcome.classes]
        if defining:
            pending.extend(outcome.full_name for outcome in defining)
        else:
            needed.extend(outcome for outcome in broken if outcome not in needed)
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for outcome in by_name.get(name, ()):
            needed.append(outcome)
            pending.extend(outcome.requires)
    return list(dict.fromkeys(needed))


def model_class_names(model: Any) -> list[str]:
    """The class names an object model (or ``Objects`` document) instantiates."""
    found: list[str] = []
    pending = [model]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            header = value.get("?")
            if isinstance(header, dict) and isinstance(header.get("type"), str):
                found.append(header["type"].split("/", 1)[0].split("@", 1)[0])
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return found


class PackageSet:
    """Compiled packages for a runtime, loaded lazily as the engine loads them: a package with
    errors is left out, and is an error only for what needs it (``require``)."""

    def __init__(self, outcomes: list[PackageOutcome], compiled: list[str]):
        self.outcomes = outcomes
        self.directories = compiled + [o.directory for o in outcomes if o.directory and not o.broken]
        self.has_errors = any(diagnostic.severity == "error" for outcome in outcomes
                              for diagnostic in outcome.diagnostics)
        """Whether any package has an error: without one, nothing needs looking up (``require``)."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [diagnostic for outcome in self.outcomes for diagnostic in outcome.diagnostics]

    def errors_for(self, class_names: Iterable[str] = (),
                   package_names: Iterable[str] = ()) -> list[Diagnostic]:
        """The errors of the packages ``class_names`` and ``package_names`` need."""
        return [diagnostic for outcome in needed_packages(self.outcomes, class_names, package_names)
                for diagnostic in outcome.diagnostics if diagnostic.severity == "error"]

    def diagnostics_for(self, class_names: Iterable[str] = (),
                        package_names: Iterable[str] = ()) -> list[Diagnostic]:
        """Every diagnostic of the packages ``class_names`` and ``package_names`` need."""
        return [diagnostic for outcome in needed_packages(self.outcomes, class_names, package_names)
                for diagnostic in outcome.diagnostics]

    def require(self, class_names: Iterable[str] = (), package_names: Iterable[str] = ()) -> None:
        """Raise ``CompileError`` with the errors of the packages the classes need."""
        if not self.has_errors:
            return
        errors = self.errors_for(class_names, package_names)
        if errors:
            raise CompileError(errors)


def load_checked(paths: Iterable[str], sink: DiagnosticSink, default_format: str | None = None,
                 sources: dict[str, str] | None = None, lint: bool = False) -> list:
    """The front end and its static checks: what check, compile and the Runtime all start from.

    Every diagnostic goes to ``sink``; the IR of each package read is returned."""
    packages = load_packages(list(paths), sink, default_format=default_format, sources=sources,
                             lint=lint)
    check_packages(packages, sink)
    return packages


def compile_sources(path: str, cache_dir: str, default_format: str | None = None,
                    warnings: list[Diagnostic] | None = None, fast_paths: bool = True
                    ) -> list[PackageOutcome]:
    """Compile each package at ``path`` into the cache (once per cache key), independently: a
    package with errors is not written (its outcome has no directory) and does not stop the
    others. Raises ``CompileError`` only for errors of the PATH itself (E-PATH)."""
    output = os.path.join(cache_dir, cache_key(path, f"default_format={default_format}",
                                               f"fast_paths={fast_paths}")[:32])
    index = os.path.join(output, _CACHE_INDEX)
    try:
        with open(index, encoding="utf-8") as handle:
            outcomes = [PackageOutcome.from_json(item, output) for item in json.load(handle)]
    except (OSError, ValueError, TypeError, KeyError):
        outcomes = None
    if outcomes is None:
        sink = DiagnosticSink()
        packages = load_checked([path], sink, default_format=default_format)
        outcomes, general = partition_diagnostics(packages, sink.diagnostics)
        if any(diagnostic.severity == "error" for diagnostic in general):
            raise CompileError(general)
        outcomes = [outcome if outcome.broken or outcome.full_name is None else
                    _with_directory(outcome, write_package(package, output, fast_paths=fast_paths)[0])
                    for outcome, package in zip(outcomes, packages + [None] * len(outcomes))]
        _write_index(index, [_relative_outcome(outcome, output) for outcome in outcomes])
    if warnings is not None:
        warnings.extend(d for outcome in outcomes if not outcome.broken for d in outcome.diagnostics)
    return outcomes


def _write_index(path: str, outcomes: list[dict]) -> None:
    """Write the cache index through a file of this process's own, renamed into place: a
    concurrent reader sees no index (and compiles) or a whole one."""
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=".index-", dir=directory)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(outcomes, handle)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _with_directory(outcome: PackageOutcome, directory: str) -> PackageOutcome:
    return dataclasses.replace(outcome, directory=directory)


def _relative_outcome(outcome: PackageOutcome, output: str) -> dict:
    data = outcome.to_json()
    if outcome.directory is not None:
        data["directory"] = os.path.relpath(outcome.directory, output)
    return data


def compile_packages(paths: Iterable[str], output: str, *, force: bool = False,
                     fast_paths: bool = True, emit_source: bool = False,
                     default_format: str | None = None,
                     sink: DiagnosticSink | None = None, jobs: int = 1,
                     progress: Callable[[int, int], None] | None = None) -> list[str]:
    """``mplc compile`` as a function: the written package directories under ``output``.

    Each package is compiled on its own: one with errors is not written, the others are.
    ``force`` rewrites packages whose output is up to date. Diagnostics go to ``sink`` when one
    is given; when any package (or PATH) had errors, ``CompileError`` is raised after the good
    packages were written. ``jobs`` processes compile the modules (``mplc.parallel``), and
    ``progress(done, total)`` hears of each module written."""
    sink = sink if sink is not None else DiagnosticSink()
    packages = load_checked(paths, sink, default_format=default_format)
    outcomes, _ = partition_diagnostics(packages, sink.diagnostics)
    written = write_packages([package for package, outcome in zip(packages, outcomes) if not outcome.broken],
                             output, jobs=jobs, emit_source=emit_source, fast_paths=fast_paths,
                             force=force, progress=progress)
    if sink.has_errors:
        raise CompileError(sink.diagnostics)
    return written


def load_source_packages(paths: Iterable[str], sink: DiagnosticSink,
                         default_format: str | None = None) -> list:
    """The IR of the source packages at ``paths``, plus the bundled core library when no
    io.murano package is among them (what the forms schema is generated from), statically
    checked as compiling them would be: a class the reference could not load (a Meta entry
    its meta class refuses, say) is an error here too."""
    packages = load_packages(list(paths), sink, default_format=default_format)
    if not any(package.manifest.full_name == CORE_LIBRARY for package in packages) \
            and os.path.isdir(CORE_LIBRARY_PATH):
        packages.extend(load_packages([CORE_LIBRARY_PATH], sink))
    check_packages(packages, sink)
    return packages


def lazy_forms(packages: list, sink: DiagnosticSink) -> tuple[FormsGenerator, PackageSet]:
    """The forms generator over the packages without errors, and the set that says which
    errors a class's schema needs (``PackageSet.require``); ``sink`` holds what the front end
    reported on all of them."""
    outcomes, general = partition_diagnostics(packages, sink.diagnostics)
    if any(diagnostic.severity == "error" for diagnostic in general):
        raise CompileError(general)
    good = [package for package, outcome in zip(packages, outcomes) if not outcome.broken]
    return FormsGenerator(good, sink), PackageSet(outcomes, [])


def resolve_packages(paths: Iterable[str], cache_dir: str | None = None,
                     default_format: str | None = None,
                     warnings: list[Diagnostic] | None = None, fast_paths: bool = True) -> PackageSet:
    """The packages at ``paths``, compiled, plus the bundled core library when none is given
    (without it the runtime falls back to its native io.murano.Object). Packages with errors
    are kept out, not refused: ``PackageSet.require`` says whether what is run needs them.
    Raises ``CompileError`` for a PATH that holds nothing, or stale compiled output."""
    cache_dir = cache_dir or default_cache_dir()
    compiled_dirs: list[str] = []
    outcomes: list[PackageOutcome] = []
    for path in paths:
        compiled = _compiled_packages(path)
        if compiled is None:
            outcomes.extend(compile_sources(path, cache_dir, default_format, warnings, fast_paths))
        else:
            stale = _refused_builds(compiled)
            if stale:
                raise CompileError(stale)
            compiled_dirs.extend(compiled)
    given = {_full_name(d) for d in compiled_dirs} | {o.full_name for o in outcomes if not o.broken}
    if os.path.isdir(CORE_LIBRARY_PATH) and CORE_LIBRARY not in given:
        outcomes.extend(compile_sources(CORE_LIBRARY_PATH, cache_dir, warnings=warnings,
                                        fast_paths=fast_paths))
    return PackageSet(outcomes, compiled_dirs)
