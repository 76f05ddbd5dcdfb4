"""Static checks across packages: names resolve, inheritance is sound, Meta is applicable.

A class name is looked up in its own package, the packages it requires, and the core library
(the given ``io.murano``, else mplc's bundled one). When a required package is not among those
given, a name that resolves nowhere may live there, so it is a warning instead of an error; with
no core library at all, ``io.murano.*`` names are not checked. A name the reference looks up only
when the code naming it runs (``ns:Name`` in expressions, contracts, defaults and Meta values)
is a warning too: the reference raises NoClassFound then, and so does the runtime.
"""

from __future__ import annotations

import functools
import os

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.packages import load_packages
from mplc.versioning import VersionError, parse_requirement, parse_version

CORE_PACKAGE = "io.murano"
# Classes the reference engine implements in Python and registers into io.murano.
NATIVE_CORE_CLASSES = (
    "io.murano.Object", "io.murano.Exception", "io.murano.StackTrace", "io.murano.Project",
    "io.murano.User", "io.murano.system.Agent", "io.murano.system.AgentListener",
    "io.murano.system.GC", "io.murano.system.HeatStack", "io.murano.system.InstanceNotifier",
    "io.murano.system.Logger", "io.murano.system.MetadefBrowser", "io.murano.system.MistralClient",
    "io.murano.system.NetworkExplorer", "io.murano.system.Resources",
    "io.murano.system.StatusReporter", "io.murano.test.TestFixture",
)
TEST_FIXTURE = "io.murano.test.TestFixture"
# Functions only test runs define (murano-test-runner's, ``mplc test``'s): elsewhere the name is
# unknown and the call fails with NoFunctionRegisteredException when it runs.
TEST_ONLY_FUNCTIONS = frozenset(("inject", "withOriginal"))
META_TARGET_OF = {"class": "Type", "property": "Property", "method": "Method",
                  "argument": "Argument", "package": "Package"}


def core_library_path() -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "corelib", CORE_PACKAGE)


@functools.lru_cache(maxsize=1)
def _bundled_core(path: str) -> tuple[ir.Package, ...]:
    if not os.path.isdir(path):
        return ()
    return tuple(load_packages([path], DiagnosticSink()))


def bundled_core_library() -> tuple[ir.Package, ...]:
    """mplc's own io.murano package (empty when it is not installed)."""
    return _bundled_core(core_library_path())


def _type_names(roots) -> list[ir.TypeName]:
    """Every TypeName inside the IR subtrees ``roots``."""
    return [node for root in roots for node in root.walk() if type(node) is ir.TypeName]


def _function_calls(roots, names: frozenset) -> list[ir.Function]:
    """The calls of functions named ``names`` inside the IR subtrees ``roots`` (``x.name(...)``,
    a method call, is no function call)."""
    calls = [node for root in roots for node in root.walk() if type(node) is ir.Function]
    methods = {id(call.args[1]) for call in calls
               if call.name == "#operator_." and len(call.args) == 2 and type(call.args[1]) is ir.Function}
    return [call for call in calls if call.name in names and id(call) not in methods]


def _matching_versions(found: list[ir.Package],
                       requirement: ir.Requirement) -> list[ir.Package] | None:
    """The given versions of a required package its spec allows (None for none); all of them
    when the spec is unreadable (already reported)."""
    try:
        spec = parse_requirement(requirement.spec)
    except VersionError:
        return found
    matching = [package for package in found if parse_version(package.manifest.version) in spec]
    return matching or None


class _PackageChecker:
    def __init__(self, package: ir.Package, by_name: dict[str, list[ir.Package]],
                 core: tuple[ir.Package, ...], sink: DiagnosticSink):
        self.package = package
        self.sink = sink
        visible = [package]
        self.core = core
        self.complete = bool(core)
        self.missing: list[str] = []
        for requirement in package.manifest.requirements:
            if requirement.package == CORE_PACKAGE:
                continue
            found = by_name.get(requirement.package)
            if found:
                matching = _matching_versions(found, requirement)
                if matching is None:
                    sink.error("E-REQUIREMENT-VERSION", f"package {requirement.package} is "
                               f"given in version(s) {', '.join(p.manifest.version for p in found)}"
                               f", none of which matches the required '{requirement.spec or 0}'",
                               requirement.pos)
                visible.extend(matching or found)
            else:
                self.complete = False
                self.missing.append(requirement.package)
                sink.warning("W-MISSING-REQUIREMENT", f"required package {requirement.package} "
                             "is not among the checked packages; names from it are not checked",
                             requirement.pos)
        visible.extend(core)
        self.classes: dict[str, ir.Class | None] = {}
        for candidate in visible:
            for cls in candidate.classes:
                self.classes.setdefault(cls.name, cls)
        if core:
            for name in NATIVE_CORE_CLASSES:
                self.classes.setdefault(name, None)

    def unknown(self, full_name: str, written: str, pos: ir.Pos, when_run: bool) -> None:
        if ":" in full_name or not self.core and full_name.startswith(CORE_PACKAGE + "."):
            return  # an unknown prefix, already reported; or a core name with no core to check
        if any(full_name.startswith(package + ".") for package in self.missing):
            return  # in a required package that is not given: W-MISSING-REQUIREMENT says so once
        message = f"class '{written}'" + (f" ({full_name})" if full_name != written else "") + \
            " is not defined in this package, its requirements or the core library"
        if when_run:
            self.sink.warning("W-UNKNOWN-CLASS", message + "; NoClassFound when this runs", pos)
        elif self.complete:
            self.sink.error("E-UNKNOWN-CLASS", message, pos)
        else:
            self.sink.warning("W-UNKNOWN-CLASS", message, pos)

    def lookup(self, full_name: str, written: str, pos: ir.Pos,
               when_run: bool = False) -> ir.Class | None:
        """The class's IR; None when unknown (reported) or implemented natively. ``when_run``:
        the reference looks the name up only when the code naming it runs."""
        if full_name not in self.classes:
            self.unknown(full_name, written, pos, when_run)
            return None
        return self.classes[full_name]

    def check(self) -> None:
        self.check_meta(self.package.manifest.meta, "package")
        for cls in self.package.classes:
            self.check_class(cls)

    def check_class(self, cls: ir.Class) -> None:
        for parent in cls.extends:
            parent_class = self.lookup(parent.full_name, parent.written, parent.pos)
            if parent_class is not None and parent_class.usage == "Meta" and cls.usage != "Meta":
                self.sink.error("E-INHERITANCE", f"class {cls.name} cannot extend the meta class "
                                f"{parent_class.name}", parent.pos)
        self.check_cycle(cls)
        for imported in cls.imports:
            self.lookup(imported.full_name, imported.written, imported.pos)
        self.check_meta(cls.meta, "class")
        for prop in cls.properties:
            self.check_meta(prop.meta, "property")
        for method in cls.methods:
            self.check_meta(method.meta, "method")
            for argument in method.arguments:
                self.check_meta(argument.meta, "argument")
        for type_name in _type_names((*cls.properties, *cls.methods)):
            self.lookup(type_name.full_name, type_name.written, type_name.pos, when_run=True)
        if self.is_test_class(cls) is False:
            for call in sorted(_function_calls(cls.methods, TEST_ONLY_FUNCTIONS),
                               key=lambda call: (call.pos.line, call.pos.col)):
                self.sink.warning("W-TEST-ONLY-FUNCTION", f"{call.name}() exists only in test runs "
                                  f"(mplc test, Murano's test runner), for classes extending "
                                  f"{TEST_FIXTURE}; elsewhere NoFunctionRegisteredException when "
                                  "this runs", call.pos)

    def is_test_class(self, cls: ir.Class) -> bool | None:
        """Whether the class extends io.murano.test.TestFixture; None when an ancestor is unknown."""
        seen = set()
        pending = [parent.full_name for parent in cls.extends]
        while pending:
            name = pending.pop()
            if name == TEST_FIXTURE:
                return True
            if name in seen:
                continue
            seen.add(name)
            if name not in self.classes:
                return None
            parent = self.classes[name]
            if parent is not None:
                pending.extend(reference.full_name for reference in parent.extends)
        return False

    def check_cycle(self, cls: ir.Class) -> None:
        seen = {cls.name}
        pending = [parent.full_name for parent in cls.extends]
        while pending:
            name = pending.pop()
            if name == cls.name:
                self.sink.error("E-INHERITANCE-CYCLE", f"class {cls.name} inherits from itself",
                                cls.extends[0].pos)
                return
            if name in seen:
                continue
            seen.add(name)
            parent = self.classes.get(name)
            if parent is not None:
                pending.extend(reference.full_name for reference in parent.extends)

    def check_meta(self, entries: tuple[ir.MetaEntry, ...], target: str) -> None:
        used: set[str] = set()
        for entry in entries:
            meta_class = self.lookup(entry.type.full_name, entry.type.written, entry.type.pos)
            for type_name in _type_names(value for _, value in entry.values):
                self.lookup(type_name.full_name, type_name.written, type_name.pos, when_run=True)
            if meta_class is None:
                continue
            if meta_class.usage != "Meta":
                self.sink.error("E-META", f"{meta_class.name} is not a meta class (Usage: Meta)",
                                entry.type.pos)
                continue
            if META_TARGET_OF[target] not in meta_class.applies:
                self.sink.error("E-META", f"meta class {meta_class.name} does not apply to a "
                                f"{target} (Applies: {', '.join(meta_class.applies)})",
                                entry.type.pos)
            if meta_class.name in used and meta_class.cardinality != "Many":
                self.sink.error("E-META", f"meta class {meta_class.name} has Cardinality One and "
                                "is attached twice", entry.type.pos)
            used.add(meta_class.name)


def check_packages(packages: list[ir.Package], sink: DiagnosticSink) -> None:
    """Cross-package static checks; every problem becomes a diagnostic in ``sink``."""
    by_name: dict[str, list[ir.Package]] = {}
    seen_versions: set[tuple[str, str]] = set()
    for package in packages:
        key = (package.manifest.full_name, package.manifest.version)
        if key in seen_versions:
            sink.error("E-DUPLICATE-PACKAGE", f"package {key[0]} {key[1]} is given twice",
                       package.manifest.pos)
        seen_versions.add(key)
        by_name.setdefault(package.manifest.full_name, []).append(package)
        names: dict[str, ir.Class] = {}
        for cls in package.classes:
            if cls.name in names:
                sink.error("E-DUPLICATE-CLASS", f"class {cls.name} is defined twice in package "
                           f"{package.manifest.full_name} (also at {names[cls.name].pos})",
                           cls.pos)
            names.setdefault(cls.name, cls)
    core = tuple(by_name.get(CORE_PACKAGE, ())) or bundled_core_library()
    for package in packages:
        _PackageChecker(package, by_name, core, sink).check()
