"""The forms specification: json-schemas of a class and of its model builders, built from IR.

``generate_schema(packages, class_name, ...)`` answers what the reference engine's schema
generator answers (``{"": <class schema>, "<builder>": <schema>, ...}``): one draft-04 schema
over the class's In/InOut properties (inherited ones included), one per model builder over its
arguments, with the UI hints of the Meta classes io.murano.metadata.Title, Description,
HelpText, forms.Hidden, forms.Position and forms.Section.

Differences from the reference (docs/fidelity.md says why): a contract resolves class names
in the namespaces and package of the class that declares it (the reference uses the generated
class's, and fails or finds another class for inherited properties); Meta values and defaults
are evaluated statically (literals, lists, dicts, ``$.property`` of the meta object itself), and
anything else is reported as a warning and left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from mplc import ir
from mplc.contracts.schema import (NOT_CONSTANT, ContractViolation, constant_value,
                                   contract_schema, json_key, json_value, property_path,
                                   transformed)
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.namespaces import Namespaces
from mplc.inheritance import visible_declarations
from mplc.versioning import VersionError, parse_requirement, parse_version

SCHEMA_URI = "http://json-schema.org/draft-04/schema#"
TITLE = "io.murano.metadata.Title"
DESCRIPTION = "io.murano.metadata.Description"
HELP_TEXT = "io.murano.metadata.HelpText"
MODEL_BUILDER = "io.murano.metadata.ModelBuilder"
HIDDEN = "io.murano.metadata.forms.Hidden"
POSITION = "io.murano.metadata.forms.Position"
SECTION = "io.murano.metadata.forms.Section"
_HINTS = ((TITLE, "title", "text"), (DESCRIPTION, "description", "text"),
          (HELP_TEXT, "helpText", "text"), (HIDDEN, "visible", "visible"))
_FORM_USAGES = ("In", "InOut")
_STATIC_USAGES = ("Static", "Extension")


class SchemaError(Exception):
    """A request the schema cannot be generated for. ``type`` is the engine's name for it
    (NoClassFound, NoMethodFound, NoPackageFound) or InvalidVersionSpec; ``pos``, where the
    package's source is the cause (a contract naming a class that is not there)."""

    def __init__(self, message: str, error_type: str, pos: ir.Pos | None = None):
        super().__init__(message)
        self.type = error_type
        self.pos = pos

    @property
    def not_found(self) -> bool:
        return self.type != "InvalidVersionSpec"


@dataclass(frozen=True, eq=False)
class _Declared:
    """A class with the package it came from (identity matters: two versions may share a name)."""

    package: ir.Package
    cls: ir.Class


@dataclass(frozen=True)
class _Meta:
    """One Meta instance: its class name, its property values, and the class declaring it."""

    type: str
    values: dict[str, Any]
    declared_in: _Declared


@dataclass
class _Field:
    """A property or argument on its way into a schema."""

    name: str
    schema: dict[str, Any]
    meta: dict[str, Any]  # meta class name -> _Meta (cardinality One) or list of _Meta


def generate_schema(packages: Iterable[ir.Package], class_name: str, methods: Iterable[str] = (),
                    class_version: str | None = None, package_name: str | None = None,
                    sink: DiagnosticSink | None = None) -> dict[str, Any]:
    """``{"": <class schema>, "<model builder>": <schema>, ...}`` for ``class_name``.

    ``methods`` picks schemas by name (``""`` is the class); by default the class and all its
    model builders. ``class_version`` is a version spec; absent, the newest version is used (the
    engine reads absent as ``0``, which finds no class of a package at version 1.0 or later).
    Warnings about values that cannot be evaluated statically go to ``sink``.
    Raises SchemaError.
    """
    return FormsGenerator(packages, sink).generate(class_name, methods, class_version,
                                                   package_name)


class FormsGenerator:
    """Schemas of the classes of a fixed set of packages (index built once, reused per request)."""

    def __init__(self, packages: Iterable[ir.Package], sink: DiagnosticSink | None = None):
        self.sink = sink if sink is not None else DiagnosticSink()
        self.packages = list(packages)
        self._warned: set[ir.Pos] = set()
        self._classes: dict[str, list[_Declared]] = {}
        for package in self.packages:
            for cls in package.classes:
                self._classes.setdefault(cls.name, []).append(_Declared(package, cls))

    # --- the public entry points ----------------------------------------------------------------

    def generate(self, class_name: str, methods: Iterable[str] = (),
                 class_version: str | None = None,
                 package_name: str | None = None) -> dict[str, Any]:
        root = self.find(class_name, class_version, package_name)
        builders = self.model_builders(root)
        requested = list(dict.fromkeys(methods)) or ["", *builders]
        unknown = [name for name in requested if name and name not in builders]
        if unknown:
            raise SchemaError(f"class {class_name} has no model builder "
                              f"{', '.join(repr(name) for name in unknown)} "
                              f"(model builders: {', '.join(builders) or 'none'})",
                              "NoMethodFound")
        return {name: self._method_schema(root, name) if name else self._class_schema(root)
                for name in requested}

    def find(self, class_name: str, class_version: str | None = None,
             package_name: str | None = None) -> _Declared:
        """The class as the engine picks it: by package (or any package holding it) and version."""
        try:
            spec = parse_requirement("*" if class_version is None else class_version)
        except VersionError as error:
            raise SchemaError(str(error), "InvalidVersionSpec") from None
        if package_name:
            candidates = [d for d in self._classes.get(class_name, ())
                          if d.package.manifest.full_name == package_name]
            if not candidates and not self._package_versions(package_name):
                raise SchemaError(f"package {package_name} not found", "NoPackageFound")
        else:
            candidates = self._classes.get(class_name, [])
        if not candidates:
            where = f" in package {package_name}" if package_name else ""
            raise SchemaError(f"class {class_name} not found{where}", "NoClassFound")
        chosen = self._newest(candidates, spec)
        if chosen is None:
            versions = ", ".join(d.package.manifest.version for d in candidates)
            raise SchemaError(f"no version of class {class_name} matches {class_version!r} "
                              f"(available: {versions})", "NoClassFound")
        return chosen

    def model_builders(self, root: _Declared) -> list[str]:
        """Names of the static Public methods carrying an enabled ModelBuilder, sorted. A method
        whose Meta cannot be loaded is no model builder (the engine skips it silently)."""
        builders = []
        for name, (declared, method) in self._methods(root).items():
            if method.usage not in _STATIC_USAGES or not (
                    method.scope == "Public" or method.usage == "Action"):
                continue
            try:
                builder = self._method_meta(declared, name).get(MODEL_BUILDER)
            except SchemaError:
                continue
            if builder is not None and builder.values.get("enabled"):
                builders.append(name)
        return sorted(builders)

    def method(self, root: _Declared, name: str) -> tuple[_Declared, ir.Method]:
        return self._methods(root)[name]

    # --- classes, hierarchy ---------------------------------------------------------------------

    def _package_versions(self, package_name: str) -> list[str]:
        return [d.package.manifest.version for ds in self._classes.values() for d in ds
                if d.package.manifest.full_name == package_name]

    @staticmethod
    def _newest(candidates: list[_Declared], spec) -> _Declared | None:
        matching = [d for d in candidates if parse_version(d.package.manifest.version) in spec]
        return max(matching, key=lambda d: parse_version(d.package.manifest.version), default=None)

    def _resolve(self, full_name: str, context: _Declared) -> _Declared:
        """A class named from ``context``: same package first, then the version its package
        requires, then the newest loaded."""
        candidates = self._classes.get(full_name, [])
        for declared in candidates:
            if declared.package is context.package:
                return declared
        requirements = {r.package: r.spec for r in context.package.manifest.requirements}
        for declared in candidates:
            name = declared.package.manifest.full_name
            if name in requirements:
                try:
                    spec = parse_requirement(requirements[name])
                except VersionError:
                    break
                chosen = self._newest([d for d in candidates
                                       if d.package.manifest.full_name == name], spec)
                if chosen is not None:
                    return chosen
                break
        if not candidates:
            raise SchemaError(f"class {full_name} (used by {context.cls.name}) not found",
                              "NoClassFound")
        return max(candidates, key=lambda d: parse_version(d.package.manifest.version))

    def _class_name_resolver(self, declared: _Declared):
        """Full names of the classes a contract of ``declared`` names, as the engine finds them:
        in the namespaces of the class, among the classes of its package, the packages it
        requires and io.murano, with every ancestor found; NoClassFound otherwise."""
        namespaces = Namespaces(dict(declared.cls.namespaces), DiagnosticSink())
        manifest = declared.package.manifest
        visible = {manifest.full_name, "io.murano",
                   *(requirement.package for requirement in manifest.requirements)}

        def class_name(written: str | ir.TypeName) -> str:
            full_name = written.full_name if isinstance(written, ir.TypeName) \
                else namespaces.resolve(written, declared.cls.pos)
            if not any(candidate.package.manifest.full_name in visible
                       for candidate in self._classes.get(full_name, ())):
                raise SchemaError(f"class {full_name} (named in a contract of "
                                  f"{declared.cls.name}) not found in "
                                  f"{', '.join(sorted(visible))}", "NoClassFound")
            self._hierarchy(self._resolve(full_name, declared))
            return full_name
        return class_name

    def _parents(self, declared: _Declared) -> list[_Declared]:
        return [self._resolve(parent.full_name, declared) for parent in declared.cls.extends]

    def _hierarchy(self, root: _Declared) -> list[tuple[_Declared, int]]:
        """Every class of the hierarchy once, breadth first, with its distance from ``root``."""
        seen: set[int] = set()
        order, queue = [], [(root, 0)]
        while queue:
            declared, distance = queue.pop(0)
            if id(declared) in seen:
                continue
            seen.add(id(declared))
            order.append((declared, distance))
            queue.extend((parent, distance + 1) for parent in self._parents(declared))
        return order

    def _weights(self, root: _Declared) -> dict[str, int]:
        weights: dict[str, int] = {}
        for declared, distance in self._hierarchy(root):
            weights.setdefault(declared.cls.name, distance)
        return weights

    def _methods(self, root: _Declared) -> dict[str, tuple[_Declared, ir.Method]]:
        """The methods ``root`` sees, by name; an ambiguous name (declared on two unrelated
        paths) is left out, as the engine's model builder listing skips it."""
        found: dict[str, tuple[_Declared, ir.Method]] = {}
        for declared, _ in self._hierarchy(root):
            for method in declared.cls.methods:
                if method.name not in found:
                    visible = self._visible(root, "methods", method.name)
                    if len(visible) == 1:
                        found[method.name] = visible[0]
        return found

    def _visible(self, root: _Declared, members: str, name: str) -> list[tuple[_Declared, Any]]:
        """The declarations of property or method (``members``) ``name`` that ``root`` sees,
        with their classes."""
        owners: dict[int, _Declared] = {}

        def declaration(declared: _Declared):
            for member in getattr(declared.cls, members):
                if member.name == name:
                    owners[id(member)] = declared
                    return member
            return None
        return [(owners[id(member)], member)
                for member in visible_declarations(root, self._parents, declaration)]

    # --- meta -----------------------------------------------------------------------------------

    def _merged_meta(self, start: _Declared, entries_of) -> dict[str, Any]:
        """Meta of an entity and of its namesakes up the hierarchy, as the engine merges it:
        ancestors contribute only Inherited meta classes, and a cardinality-One meta class
        found lower hides the ancestors' instances. One -> _Meta, Many -> list of _Meta."""
        found: list[_Meta] = []
        seen: set[tuple[int, int]] = set()

        def walk(declared: _Declared, hidden: frozenset[str], initial: bool) -> None:
            own_hidden = set(hidden)
            for entry in entries_of(declared) or ():
                meta_class = self._resolve(entry.type.full_name, declared)
                name = meta_class.cls.name
                if not initial and (not meta_class.cls.inherited or name in hidden):
                    continue
                if meta_class.cls.cardinality != "Many":
                    own_hidden.add(name)
                if (id(declared), id(entry)) not in seen:
                    seen.add((id(declared), id(entry)))
                    found.append(_Meta(name, self._meta_values(entry, meta_class), declared))
            for parent in self._parents(declared):
                walk(parent, frozenset(own_hidden), False)

        walk(start, frozenset(), True)
        return self._aggregated(found)

    def _aggregated(self, found: list[_Meta]) -> dict[str, Any]:
        aggregated: dict[str, Any] = {}
        for meta in found:
            meta_class = self._classes.get(meta.type)
            if meta_class and meta_class[0].cls.cardinality == "Many":
                aggregated.setdefault(meta.type, []).append(meta)
            else:
                aggregated.setdefault(meta.type, meta)
        return aggregated

    def _own_meta(self, declared: _Declared, entries: tuple[ir.MetaEntry, ...]) -> dict[str, Any]:
        found = []
        for entry in entries:
            meta_class = self._resolve(entry.type.full_name, declared)
            found.append(_Meta(meta_class.cls.name, self._meta_values(entry, meta_class), declared))
        return self._aggregated(found)

    def _class_meta(self, root: _Declared) -> dict[str, Any]:
        return self._merged_meta(root, lambda declared: declared.cls.meta)

    def _method_meta(self, declared: _Declared, name: str) -> dict[str, Any]:
        def entries_of(owner: _Declared):
            for method in owner.cls.methods:
                if method.name == name:
                    return method.meta
            return None
        return self._merged_meta(declared, entries_of)

    def _property_meta(self, declared: _Declared, name: str) -> dict[str, Any]:
        def entries_of(owner: _Declared):
            for prop in owner.cls.properties:
                if prop.name == name:
                    return prop.meta
            return None
        return self._merged_meta(declared, entries_of)

    def _meta_values(self, entry: ir.MetaEntry, meta_class: _Declared) -> dict[str, Any]:
        """The meta object's properties: the given values, then the meta class's defaults, each
        passed through its property's contract as the engine loads the meta object."""
        values: dict[str, Any] = {}
        unknown: set[str] = set()
        for name, value in entry.values:
            values[name] = self._static(value, values, unknown, name)
        contracts: dict[str, ir.Contract] = {}
        for declared, _ in self._hierarchy(meta_class):
            for prop in declared.cls.properties:
                contracts.setdefault(prop.name, prop.contract)
                if prop.name not in values:
                    values[prop.name] = None if prop.default is None \
                        else self._static(prop.default, values, unknown, prop.name)
        for name, contract in contracts.items():
            if name not in unknown:
                try:
                    values[name] = transformed(contract, values[name])
                except ContractViolation as violation:
                    raise SchemaError(f"[{meta_class.cls.name}.{name}] {violation}",
                                      "ContractViolation", entry.pos) from None
        return values

    def _static(self, value: ir.Value, this: dict[str, Any], unknown: set[str], name: str) -> Any:
        """A value known without running anything; None (and a warning, and ``name`` added to
        ``unknown``) for anything else."""
        result = _static_value(value, this)
        if result is NOT_CONSTANT:
            unknown.add(name)
            self._warn("value left out of the json-schema: it is not a constant", value.pos)
            return None
        return result

    def _warn(self, message: str, pos: ir.Pos) -> None:
        """Each warning once, however many schemas pass the same value."""
        if pos not in self._warned:
            self._warned.add(pos)
            self.sink.warning("W-SCHEMA-NOT-CONSTANT", message, pos)

    # --- schemas --------------------------------------------------------------------------------

    def _class_schema(self, root: _Declared) -> dict[str, Any]:
        fields = []
        declarations: dict[str, tuple[_Declared, ir.Property]] = {}
        for declared, _ in self._hierarchy(root):
            for prop in declared.cls.properties:
                if prop.name in declarations:
                    continue
                visible = self._visible(root, "properties", prop.name)
                if len(visible) > 1:
                    raise SchemaError(f'Found more than one property "{prop.name}"',
                                      "AmbiguousPropertyNameError", root.cls.pos)
                declarations[prop.name] = visible[0]
        for name, (declared, prop) in declarations.items():
            if prop.usage not in _FORM_USAGES:
                continue
            fields.append(self._field(name, declared, prop.contract, prop.default,
                                      self._property_meta(declared, name)))
        return _object_schema(fields, self._weights(root), self._class_meta(root))

    def _method_schema(self, root: _Declared, name: str) -> dict[str, Any]:
        declared, method = self.method(root, name)
        fields = [self._field(argument.name, declared, argument.contract, argument.default,
                              self._own_meta(declared, argument.meta))
                  for argument in method.arguments]
        return _object_schema(fields, self._weights(root), self._method_meta(declared, name))

    def _field(self, name: str, declared: _Declared, contract: ir.Contract | None,
               default: ir.Value | None, meta: dict[str, Any]) -> _Field:
        try:
            schema = {} if contract is None else contract_schema(contract,
                                                                 self._class_name_resolver(declared))
        except SchemaError as error:
            if error.pos is not None:
                raise
            raise SchemaError(str(error), error.type, contract.pos) from None
        if default is not None:
            value = _static_value(default, {})
            if value is NOT_CONSTANT:
                self._warn(f"the Default of {name} is left out of the json-schema: "
                           f"it is not a constant", default.pos)
            else:
                schema["default"] = value
        return _Field(name, schema, meta)


def _object_schema(fields: list[_Field], weights: dict[str, int],
                   meta: dict[str, Any]) -> dict[str, Any]:
    """The root schema: fields with their UI hints, sections, and the entity's own hints."""
    properties = {}
    for field in fields:
        schema = dict(field.schema)
        schema.update(_hints(field.meta))
        position = field.meta.get(POSITION)
        if isinstance(position, _Meta):
            schema["formSection"] = position.values.get("section")
            index = position.values.get("index")
            if _is_index(index):
                schema["formIndex"] = _ordering_key(index, position, weights)
        properties[field.name] = schema
    schema = {"$schema": SCHEMA_URI, "type": "object", "properties": properties,
              "additionalProperties": False, "formSections": _sections(meta.get(SECTION, []), weights)}
    schema.update(_hints(meta))
    return schema


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hints(meta: dict[str, Any]) -> dict[str, Any]:
    return {key: meta[meta_class].values.get(value) for meta_class, key, value in _HINTS
            if isinstance(meta.get(meta_class), _Meta)}


def _ordering_key(index: int, meta: _Meta, weights: dict[str, int]) -> int:
    """The engine's ordering: by index, and on equal indexes the farther ancestor first."""
    return (index + 1) * len(weights) - weights.get(meta.declared_in.cls.name, 0)


def _sections(sections: list[_Meta], weights: dict[str, int]) -> dict[str, Any]:
    """Sections by name: a class lower in the hierarchy redefines an ancestor's section; within
    one class the lowest index wins. Indexed sections are re-enumerated from 0."""
    chosen: dict[str, _Meta] = {}
    for section in sections:
        name = section.values.get("name")
        existing = chosen.get(name)
        if existing is not None:
            existing_weight = weights.get(existing.declared_in.cls.name, 0)
            weight = weights.get(section.declared_in.cls.name, 0)
            if existing_weight < weight:
                continue
            if existing_weight == weight:
                index, existing_index = section.values.get("index"), existing.values.get("index")
                if index is None or (existing_index is not None and existing_index <= index):
                    continue
        chosen[name] = section
    indexed = sorted((s for s in chosen.values() if _is_index(s.values.get("index"))),
                     key=lambda s: _ordering_key(s.values["index"], s, weights))
    result: dict[str, Any] = {}
    for number, section in enumerate(indexed):
        result[str(section.values.get("name"))] = {"title": section.values.get("title"),
                                                   "index": number}
    for section in chosen.values():
        result.setdefault(str(section.values.get("name")), {"title": section.values.get("title")})
    return result


def _static_value(value: ir.Value, this: dict[str, Any]) -> Any:
    """Literals, lists and dicts of them, constant expressions and ``$.name`` of ``this``;
    NOT_CONSTANT for anything else."""
    if isinstance(value, ir.Literal):
        return json_value(value.value)
    if isinstance(value, ir.ListValue):
        items = [_static_value(item, this) for item in value.items]
        return NOT_CONSTANT if any(item is NOT_CONSTANT for item in items) else items
    if isinstance(value, ir.DictValue):
        result = {}
        for key, item in value.items:
            key, item = _static_value(key, this), _static_value(item, this)
            if key is NOT_CONSTANT or item is NOT_CONSTANT:
                return NOT_CONSTANT
            result[json_key(key)] = item
        return result
    constant = constant_value(value.tree)
    if constant is not NOT_CONSTANT:
        return list(constant) if isinstance(constant, tuple) else json_value(constant)
    path = property_path(value.tree)
    if path is not None and len(path) == 1 and path[0] in this:
        return this[path[0]]
    return NOT_CONSTANT
