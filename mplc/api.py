"""``mplc.Runtime``: load compiled or source packages and run MuranoPL from Python.

The thin layer above the front end, codegen and the runtime: source packages are compiled on
demand into a cache directory (``$MPLC_CACHE_DIR``, default ``~/.cache/mplc``) keyed like
``mplc compile`` output, so an unchanged package is never compiled twice.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from mplc.codegen import BUILD_FILE, built_by_this_compiler, cache_key, write_package
from mplc.diagnostics import CompileError, Diagnostic, DiagnosticSink
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
    from mplc.frontend import check_packages, load_packages

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
    from mplc.frontend import check_packages, load_packages

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


class Runtime:
    """Packages loaded and ready to run: ``rt.load(model)``, ``rt.call(obj, 'deploy')``.

    ``paths`` are package directories, .zip files, directories of packages, directories of
    loose class files, or ``mplc compile`` output.
    """

    def __init__(self, paths: Iterable[str] | str, *, cache_dir: str | None = None,
                 default_format: str | None = None, trace: bool = False, fast_paths: bool = True):
        """``trace=True`` defines a global ``trace(value)`` collecting into ``rt.traces``;
        ``fast_paths=False`` compiles source packages with every expression fast path off."""
        if isinstance(paths, (str, bytes, os.PathLike)):
            paths = [paths]
        paths = [os.fsdecode(path) for path in paths]
        self.warnings: list[Diagnostic] = []
        self.package_dirs = resolve_packages(paths, cache_dir, default_format, self.warnings, fast_paths)
        self._source_paths = [path for path in paths if _compiled_packages(path) is None]
        self._default_format = default_format
        self._forms = None
        from mplc.runtime.system import plugin_packages

        # the plugins mplc simulates, as if installed (their packages have no source)
        self.plugin_packages = plugin_packages({_full_name(d) for d in self.package_dirs})
        self.executor = self.new_executor(trace)

    def new_executor(self, trace: bool = False, functions=None):
        """An executor with this runtime's packages and no objects (a deployment of its own);
        ``functions``: a yaql context its code also sees (a test run's mocking functions)."""
        from mplc.runtime import Executor
        return Executor([*self.package_dirs, *self.plugin_packages], trace=trace,
                        functions=functions)

    def load(self, model: Any) -> "MuranoObjectProxy":
        """Build the objects of an object model (a dict with ``?``, or a document with ``Objects``)."""
        return self._wrap(self.executor.load(model))

    def new(self, class_name: str, **properties: Any) -> "MuranoObjectProxy":
        return self._wrap(self.executor.new(class_name, **properties))

    def call(self, obj: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call a MuranoPL method (any scope) on an object, as the engine calls a deployment's."""
        from mplc.runtime import MuranoObject, MuranoType, TypeReference

        if not isinstance(_unwrap(obj), (MuranoObject, MuranoType, TypeReference)):
            raise TypeError(f"call needs a MuranoPL object or type, not {type(obj).__name__}")
        return self._wrap(self.executor.call(_unwrap(obj), method, tuple(_unwrap(a) for a in args),
                                             {key: _unwrap(value) for key, value in kwargs.items()}))

    def serialize(self) -> Any:
        return self.executor.serialize()

    def render(self, value: Any) -> Any:
        """Plain JSON-ready data: objects in object-model form, types as their names."""
        return self.executor.render(_unwrap(value))

    def collect_garbage(self) -> None:
        self.executor.collect_garbage()

    def finish(self) -> None:
        """End the run as the engine does: destroy what the model no longer keeps and clear
        static properties (``mplc run`` does this after the call, failed or not)."""
        self.executor.finish()

    @property
    def traces(self) -> list:
        return list(self.executor.trace or ())

    def schema(self, class_name: str, methods: Iterable[str] | str = (), class_version: str | None = None,
               package_name: str | None = None) -> dict[str, Any]:
        """The forms json-schema ``{"": <class>, "<model builder>": ...}`` (``mplc schema``).

        Generated from the source packages this Runtime was given (compiled output carries no
        IR). Raises ``mplc.contracts.forms.SchemaError``."""
        from mplc.contracts.forms import FormsGenerator

        if self._forms is None:
            sink = DiagnosticSink()
            packages = load_source_packages(self._source_paths, sink, self._default_format)
            if sink.has_errors:
                raise CompileError(sink.diagnostics)
            self._forms = FormsGenerator(packages, sink)
        methods = [methods] if isinstance(methods, str) else list(methods)
        return self._forms.generate(class_name, methods, class_version, package_name)

    def _wrap(self, value: Any) -> Any:
        from mplc.runtime import MuranoObject

        return MuranoObjectProxy(self, value) if isinstance(value, MuranoObject) else value


class MuranoObjectProxy:
    """A MuranoPL object seen from Python: ``proxy.deploy()`` calls its MuranoPL method."""

    __slots__ = ("_runtime", "_object")

    def __init__(self, runtime: Runtime, obj: Any):
        object.__setattr__(self, "_runtime", runtime)
        object.__setattr__(self, "_object", obj)

    def __getattr__(self, method: str):
        if method.startswith("__"):
            raise AttributeError(method)
        return lambda *args, **kwargs: self._runtime.call(self._object, method, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<MuranoPL object {self._object!r}>"


def _unwrap(value: Any) -> Any:
    return value._object if isinstance(value, MuranoObjectProxy) else value
