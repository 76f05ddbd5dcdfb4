"""Source packages to compiled package directories: the front end and its checks, then codegen,
for ``mplc check``/``compile``/``schema`` and the Runtime. Sources compiled on demand go into a
cache directory (``$MPLC_CACHE_DIR``, default ``~/.cache/mplc``) keyed like ``mplc compile``
output, so an unchanged package is never compiled twice. Never imports the runtime."""

from __future__ import annotations

import json
import os
from typing import Iterable

from mplc.codegen import BUILD_FILE, built_by_this_compiler, cache_key, write_package
from mplc.diagnostics import CompileError, Diagnostic, DiagnosticSink
from mplc.frontend import check_packages, load_packages
from mplc.ir import Pos

CORE_LIBRARY = "io.murano"
CORE_LIBRARY_PATH = os.path.join(os.path.dirname(__file__), "corelib", CORE_LIBRARY)
_CACHE_INDEX = "mplc-cache.json"


def default_cache_dir() -> str:
    return os.environ.get("MPLC_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "mplc")


def _compiled_packages(path: str) -> list[str] | None:
    """The compiled package directories ``path`` holds, or None when it is not compiled output."""
    if os.path.isfile(os.path.join(path, BUILD_FILE)):
        return [path]
    if not os.path.isdir(path) or os.path.exists(os.path.join(path, "manifest.yaml")):
        return None
    found = sorted(os.path.join(path, name) for name in os.listdir(path)
                   if os.path.isfile(os.path.join(path, name, BUILD_FILE)))
    return found or None


def _stale_builds(directories: list[str]) -> list[Diagnostic]:
    """An E-STALE-BUILD error for each compiled package another mplc wrote."""
    return [Diagnostic("error", "E-STALE-BUILD", "compiled by another mplc (its code differs from this "
                       "one's): compile the package again with this mplc", Pos(os.path.join(directory, BUILD_FILE),
                                                                                   1, 1, 1, 1))
            for directory in directories if not built_by_this_compiler(directory)]


def _full_name(package_directory: str) -> str | None:
    try:
        with open(os.path.join(package_directory, BUILD_FILE), encoding="utf-8") as handle:
            return json.load(handle).get("full_name")
    except (OSError, ValueError, AttributeError):
        return None


def load_checked(paths: Iterable[str], sink: DiagnosticSink, default_format: str | None = None,
                 sources: dict[str, str] | None = None) -> list:
    """The front end and its static checks: what check, compile and the Runtime all start from.

    Every diagnostic goes to ``sink``; the IR of each package read is returned."""
    packages = load_packages(list(paths), sink, default_format=default_format, sources=sources)
    check_packages(packages, sink)
    return packages


def compile_sources(path: str, cache_dir: str, default_format: str | None = None,
                    warnings: list[Diagnostic] | None = None, fast_paths: bool = True) -> list[str]:
    """Compile the packages at ``path`` into the cache (once per cache key); their directories.

    Raises ``CompileError`` with every diagnostic when the front end reports errors.
    """
    output = os.path.join(cache_dir, cache_key(path, f"default_format={default_format}",
                                               f"fast_paths={fast_paths}")[:32])
    index = os.path.join(output, _CACHE_INDEX)
    try:
        with open(index, encoding="utf-8") as handle:
            return [os.path.join(output, name) for name in json.load(handle)]
    except (OSError, ValueError):
        pass
    sink = DiagnosticSink()
    packages = load_checked([path], sink, default_format=default_format)
    if sink.has_errors:
        raise CompileError(sink.diagnostics)
    if warnings is not None:
        warnings.extend(sink.diagnostics)
    directories = [write_package(package, output, fast_paths=fast_paths)[0] for package in packages]
    with open(index + ".tmp", "w", encoding="utf-8") as handle:
        json.dump([os.path.basename(directory) for directory in directories], handle)
    os.replace(index + ".tmp", index)
    return directories


def compile_packages(paths: Iterable[str], output: str, *, force: bool = False,
                     fast_paths: bool = True, emit_source: bool = False,
                     default_format: str | None = None,
                     sink: DiagnosticSink | None = None) -> list[str]:
    """``mplc compile`` as a function: the written package directories under ``output``.

    ``force`` rewrites packages whose output is up to date. Diagnostics go to ``sink`` when one
    is given; errors raise ``CompileError`` (nothing is written then)."""
    sink = sink if sink is not None else DiagnosticSink()
    packages = load_checked(paths, sink, default_format=default_format)
    if sink.has_errors:
        raise CompileError(sink.diagnostics)
    return [write_package(package, output, emit_source=emit_source, fast_paths=fast_paths, force=force)[0]
            for package in packages]


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


def resolve_packages(paths: Iterable[str], cache_dir: str | None = None,
                     default_format: str | None = None,
                     warnings: list[Diagnostic] | None = None, fast_paths: bool = True) -> list[str]:
    """Compiled package directories for ``paths``, plus the bundled core library when none is given
    (without it the runtime falls back to its native io.murano.Object)."""
    cache_dir = cache_dir or default_cache_dir()
    directories: list[str] = []
    for path in paths:
        compiled = _compiled_packages(path)
        if compiled is None:
            compiled = compile_sources(path, cache_dir, default_format, warnings, fast_paths)
        else:
            stale = _stale_builds(compiled)
            if stale:
                raise CompileError(stale)
        directories.extend(compiled)
    if os.path.isdir(CORE_LIBRARY_PATH) and not any(_full_name(d) == CORE_LIBRARY for d in directories):
        directories.extend(compile_sources(CORE_LIBRARY_PATH, cache_dir, warnings=warnings,
                                           fast_paths=fast_paths))
    return directories
