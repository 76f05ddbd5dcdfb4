"""``mplc.Runtime``: load compiled or source packages and run MuranoPL from Python.

The thin layer above the build (``mplc.build``: sources compiled on demand into a cache), the
forms generator and the runtime.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from mplc.build import (_compiled_packages, _full_name, lazy_forms, load_source_packages, model_class_names,
                        resolve_packages)
from mplc.build import (PackageOutcome, PackageSet, compile_packages, compile_sources,  # noqa: F401
                        load_checked)  # (the build's part of the Python API)
from mplc import buildrecord
from mplc.diagnostics import CompileError, Diagnostic, DiagnosticSink
from mplc.ir import Pos
from mplc.runtime.executor import Executor
from mplc.runtime.limits import TimeBudget
from mplc.runtime.objects import MuranoObject, MuranoType, TypeReference
from mplc.runtime.system import plugin_packages


class Runtime:
    """Packages loaded and ready to run: ``rt.load(model)``, ``rt.call(obj, 'deploy')``.

    ``paths`` are package directories, .zip files, directories of packages, directories of
    loose class files, or ``mplc compile`` output.
    """

    def __init__(self, paths: Iterable[str] | str, *, cache_dir: str | None = None,
                 default_format: str | None = None, trace: bool = False, fast_paths: bool = True,
                 timeout: float | None = None):
        """``trace=True`` defines a global ``trace(value)`` collecting into ``rt.traces``;
        ``fast_paths=False`` compiles source packages with every expression fast path off;
        ``timeout``: seconds each load, new, call, collect_garbage and finish may run MuranoPL
        code before it stops with ``TimeLimitError`` (TimeLimitExceeded; objects stay as they are)."""
        self.timeout = TimeBudget(timeout).seconds  # a ValueError for what is no time limit
        if isinstance(paths, (str, bytes, os.PathLike)):
            paths = [paths]
        paths = [os.fsdecode(path) for path in paths]
        self.warnings: list[Diagnostic] = []
        self.packages = resolve_packages(paths, cache_dir, default_format, self.warnings, fast_paths)
        self.package_dirs = self.packages.directories
        self._source_paths = [path for path in paths if _compiled_packages(path) is None]
        self._default_format = default_format
        self._forms = None
        # the plugins mplc simulates, as if installed (their packages have no source)
        self.plugin_packages = plugin_packages({_full_name(d) for d in self.package_dirs})
        try:
            self.executor = self.new_executor(trace)
        except buildrecord.BuildRecordError as error:
            raise CompileError([Diagnostic("error", error.code, error.message,
                                           Pos(error.path, 1, 1, 1, 1), quote=False)]) from None

    def new_executor(self, trace: bool = False, functions=None):
        """An executor with this runtime's packages and no objects (a deployment of its own);
        ``functions``: a yaql context its code also sees (a test run's mocking functions)."""
        return Executor([*self.package_dirs, *self.plugin_packages], trace=trace, functions=functions)

    @property
    def unused_errors(self) -> list[Diagnostic]:
        """Errors of packages left out: nothing run so far needed them (``mplc -v`` shows them)."""
        return [d for outcome in self.packages.outcomes if outcome.broken for d in outcome.diagnostics]

    def require(self, class_names: Iterable[str] = (), package_names: Iterable[str] = ()) -> None:
        """Raise ``CompileError`` when a package the classes (or packages) need has errors.

        The engine loads a class, its package and the packages that requires when first used;
        errors elsewhere never stop it. ``load``, ``new`` and ``schema`` call this; commands
        that run other entry points (a test package, a form) call it with what they run."""
        self.packages.require([class_names] if isinstance(class_names, str) else class_names,
                              [package_names] if isinstance(package_names, str) else package_names)

    def load(self, model: Any) -> "MuranoObjectProxy":
        """Build the objects of an object model (a dict with ``?``, or a document with ``Objects``)."""
        if self.packages.has_errors:  # walking a large model costs as much as loading it
            self.require(model_class_names(model))
        with TimeBudget(self.timeout, "its time limit (timeout)"):
            return self._wrap(self.executor.load(model))

    def new(self, class_name: str, **properties: Any) -> "MuranoObjectProxy":
        self.require([class_name])
        with TimeBudget(self.timeout, "its time limit (timeout)"):
            return self._wrap(self.executor.new(class_name, **properties))

    def call(self, obj: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call a MuranoPL method (any scope) on an object, as the engine calls a deployment's."""
        if not isinstance(_unwrap(obj), (MuranoObject, MuranoType, TypeReference)):
            raise TypeError(f"call needs a MuranoPL object or type, not {type(obj).__name__}")
        with TimeBudget(self.timeout, "its time limit (timeout)"):
            return self._wrap(self.executor.call(_unwrap(obj), method, tuple(_unwrap(a) for a in args),
                                                 {key: _unwrap(value) for key, value in kwargs.items()}))

    def serialize(self) -> Any:
        return self.executor.serialize()

    def render(self, value: Any) -> Any:
        """Plain JSON-ready data: objects in object-model form, types as their names."""
        return self.executor.render(_unwrap(value))

    def collect_garbage(self) -> None:
        with TimeBudget(self.timeout, "its time limit (timeout)"):
            self.executor.collect_garbage()

    def finish(self) -> None:
        """End the run as the engine does: destroy what the model no longer keeps and clear
        static properties (``mplc run`` does this after the call, failed or not)."""
        with TimeBudget(self.timeout, "its time limit (timeout)"):
            self.executor.finish()

    @property
    def traces(self) -> list:
        return list(self.executor.trace or ())

    def schema(self, class_name: str, methods: Iterable[str] | str = (), class_version: str | None = None,
               package_name: str | None = None) -> dict[str, Any]:
        """The forms json-schema ``{"": <class>, "<model builder>": ...}`` (``mplc schema``).

        Generated from the source packages this Runtime was given (compiled output carries no
        IR). Raises ``mplc.contracts.forms.SchemaError``."""
        if self._forms is None:
            sink = DiagnosticSink()
            packages = load_source_packages(self._source_paths, sink, self._default_format)
            self._forms = lazy_forms(packages, sink)
        self._forms[1].require([class_name], [package_name] if package_name else [])
        forms = self._forms[0]
        methods = [methods] if isinstance(methods, str) else list(methods)
        return forms.generate(class_name, methods, class_version, package_name)

    def _wrap(self, value: Any) -> Any:
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
