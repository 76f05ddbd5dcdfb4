"""Live MuranoPL types, methods, properties and objects, built from compiled ClassSpecs.

Semantics follow the reference engine: per-class sub-objects (so ``cast`` and class-private
properties work), method and property resolution over multiple inheritance with the
reference's ambiguity rules, property usages and write rules, and yaql method stubs that make
``$obj.method(...)`` resolve through yaql exactly as in the reference.
"""

from __future__ import annotations

import collections
import operator
import os

from yaql.language import specs, utils, yaqltypes
from yaql.language.expressions import Expression

from mplc import versioning
from mplc.inheritance import visible_declarations
from mplc.runtime import expressions, contract_primitives, errors
from mplc.runtime.activation import current_executor
from mplc.runtime.specs import MethodSpec, PackageSpec
from mplc.runtime.value_types import SCALARS

NO_VALUE = utils.NO_VALUE
_parents_of = operator.attrgetter("parents")
WRITABLE_USAGES = ("Out", "InOut", "Runtime", "Static", "Config")
INSTANCE_METHOD_USAGES = ("Runtime", "Action")


def generate_id() -> str:
    """A random (version 4) UUID's 32 hex digits, as ``uuid.uuid4().hex`` writes them; drawn
    from the system's random source 256 at a time (one read instead of one per object), the
    version and variant bits set on the whole draw at once."""
    try:
        return _ids_ahead.pop()
    except IndexError:
        random = bytearray(os.urandom(_UUID_SIZE * _IDS_PER_DRAW))
        random[6::_UUID_SIZE] = random[6::_UUID_SIZE].translate(_UUID4_VERSION_BYTE)
        random[8::_UUID_SIZE] = random[8::_UUID_SIZE].translate(_UUID4_VARIANT_BYTE)
        _ids_ahead.extend(random.hex(" ", _UUID_SIZE).split())
        return _ids_ahead.pop()


_ids_ahead: list[str] = []  # list.pop is atomic: threads never take the same id
os.register_at_fork(after_in_child=_ids_ahead.clear)  # a child process must not repeat its parent's
_UUID_SIZE, _IDS_PER_DRAW = 16, 256
_UUID4_VERSION_BYTE = bytes(byte & 0x0f | 0x40 for byte in range(256))  # byte 6: version 4
_UUID4_VARIANT_BYTE = bytes(byte & 0x3f | 0x80 for byte in range(256))  # byte 8: RFC 4122 variant


def traverse(seeds, producer):
    """Breadth-first walk without repeats (the reference's traversal order)."""
    seen = set()
    queue = collections.deque(seeds)
    while queue:
        item = queue.popleft()
        if item in seen:
            continue
        seen.add(item)
        yield item
        queue.extend(producer(item))


SUPPORTED_FORMAT = versioning.MURANOPL_FORMATS[-1]


class Package:
    """A loaded package version: its spec and the types built from its classes on demand.

    ``requirements`` are the effective ones (``mplc.versioning.package_requirements``): the
    manifest's Require plus the package's own major version and ``io.murano: 0``. Any package
    type's Format is accepted (the front end knows the types): its version is the MuranoPL
    version the classes run under, as in the reference (``Heat.HOT/1.0`` runs as 1.0)."""

    def __init__(self, spec: PackageSpec, class_specs: dict, executor):
        self.spec = spec
        self.name = spec.full_name
        self.version = versioning.parse_version(spec.version)
        format_name, format_version = versioning.parse_format(spec.format)
        if (format_version.major, format_version.minor) > SUPPORTED_FORMAT:
            raise errors.PackageFormatError(
                f"Package {self.name}/{self.version} has Format {format_name}/{format_version}; "
                f"this mplc runs MuranoPL/1.0 to MuranoPL/{SUPPORTED_FORMAT[0]}.{SUPPORTED_FORMAT[1]}")
        self.format_version = (format_version.major, format_version.minor)
        self.requirements = versioning.package_requirements(self.name, self.version,
                                                            spec.requirements)
        self.class_specs = class_specs
        self.types = {}
        self.executor = executor

    def __repr__(self):
        return f"{self.name}/{self.version}"


class TypeReference:
    """A class used as a value (``ns:Name``, ``type($obj)``): static members are reached through it."""

    __slots__ = ("type",)

    def __init__(self, murano_type):
        self.type = murano_type

    def __eq__(self, other):
        return isinstance(other, TypeReference) and other.type is self.type

    def __hash__(self):
        return hash(self.type)

    def __repr__(self):
        """The reference's text of a type reference (``str()``, ``format``, error messages)."""
        return "*" + repr(self.type)


class MuranoProperty:
    """``accepted_types``: the exact types of values that its contract passes unchanged with no
    further condition (the compiler marks such contracts), which ``transform`` returns without
    running it. ``checked_default``: NO_VALUE, or what ``transform`` made of a missing value
    once, when it makes the same of it every time (see ``_default_checked_once``).
    ``object_contract``: None, or whether the contract is a list of ``class()`` (True) or one
    ``class()`` (False), whose verdict on an object depends on its class alone
    (``contract_primitives.object_acceptance``); ``accepted_classes``: the classes of objects it passed."""

    __slots__ = ("declaring_type", "name", "spec", "usage", "accepted_types", "checked_default",
                 "object_contract", "accepted_classes")

    def __init__(self, declaring_type, spec):
        self.declaring_type = declaring_type
        self.name = spec.name
        self.spec = spec
        self.usage = spec.usage
        self.accepted_types = (frozenset() if spec.contract is None
                               else contract_primitives.unchanged_types(spec.contract))
        self.checked_default = NO_VALUE
        self.object_contract = None if spec.contract is None else contract_primitives.object_acceptance(spec.contract)
        self.accepted_classes = set()

    @property
    def has_default(self):
        return self.spec.has_default

    def accepted_value(self, value):
        """What the contract makes of ``value`` (finalized) when that is known without running
        it: a value of an accepted type, an object of a class the contract passed before (a
        list or tuple of them, as a tuple, for a list contract); else NO_VALUE."""
        if type(value) in self.accepted_types:
            return value
        object_contract = self.object_contract
        if object_contract is None:
            return NO_VALUE
        classes = self.accepted_classes
        if object_contract:
            value_type = type(value)
            if value_type is not tuple and value_type is not list:
                return NO_VALUE
            for item in value:
                if type(item) is not MuranoObject or item.type not in classes:
                    return NO_VALUE
            return value if value_type is tuple else tuple(value)
        return value if type(value) is MuranoObject and value.type in classes else NO_VALUE

    def _accept_classes_of(self, value):
        """Remember the classes of the objects ``value`` holds, which the contract just passed."""
        if self.object_contract:
            if type(value) is tuple or type(value) is list:
                self.accepted_classes.update(item.type for item in value if type(item) is MuranoObject)
        elif type(value) is MuranoObject:
            self.accepted_classes.add(value.type)

    def transform(self, value, this, owner, calling_type, context=None, finalize=True):
        """Apply the Default and the contract; errors carry the reference's ``[Class.prop]`` prefix."""
        if type(value) in self.accepted_types:
            return value
        if value is NO_VALUE:
            if finalize and self.checked_default is not NO_VALUE:
                return self.checked_default
        elif self.object_contract is not None and finalize:
            accepted = self.accepted_value(value)
            if accepted is not NO_VALUE:
                return accepted
        try:
            mode = contract_primitives.TRANSFORM if finalize else contract_primitives.TRANSFORM_UNFINALIZED
            result = apply_contract(self.spec, self.declaring_type, value, this, owner, calling_type, mode)
        except errors.ContractViolationException as error:
            raise self.violation(error) from error
        if finalize:
            if value is NO_VALUE:
                if _default_checked_once(self.spec):
                    self.checked_default = result
            elif self.object_contract is not None:
                self._accept_classes_of(value)
        return result

    def violation(self, error):
        """A violation of the contract as ``transform`` reports it: with the reference's
        ``[Class.prop<path>]`` prefix."""
        return errors.ContractViolationException(
            f"[{self.declaring_type.name}.{self.name}{error.path or ''}] {error}")

    def validate(self, value, this, owner, calling_type):
        """Check without converting, as a re-declaration up the hierarchy checks a written value;
        its errors have no prefix (the reference's bare violations mostly have no message)."""
        apply_contract(self.spec, self.declaring_type, value, this, owner, calling_type,
                       contract_primitives.VALIDATE)

    def finalize(self, value, this, owner, calling_type):
        """The last step of a write checked by several declarations (template() values)."""
        return apply_contract(self.spec, self.declaring_type, value, this, owner, calling_type,
                              contract_primitives.FINALIZE)

    def check_unevaluated_default(self, calling_type):
        """A static property read before any write, as the reference reads it: the contract
        gets its expression Default unevaluated (string() and int() reject it, bool() makes
        it true); NO_VALUE when the contract passes it through, to evaluate it as usual."""
        expression = UnevaluatedExpression(self.spec.default_source)
        checked = self.transform(expression, self.declaring_type, None, calling_type)
        return NO_VALUE if checked is expression else checked

    def __repr__(self):
        return f"MuranoProperty({self.declaring_type.name}::{self.name})"


def _default_checked_once(spec) -> bool:
    """Whether the contract makes the same of the property's missing value every time: the
    Default (or null) is numbers, booleans and nulls, lists of them, and the contract reads only
    the value (``value_only``; class() then looks up no id, check() runs operators on ``$``)."""
    if not spec.value_only or spec.usage == "Static":
        return False
    default = spec.default
    if default is None:
        return True
    return type(default) is expressions.ConstantDefault and _holds_no_text(default.value)


def _holds_no_text(value) -> bool:
    if type(value) is tuple:
        return all(map(_holds_no_text, value))
    return value is None or type(value) in (int, float, bool)


class UnevaluatedExpression:
    """A Default's expression as a value, shown as its YAQL text."""

    __slots__ = ("source",)

    def __init__(self, source: str):
        self.source = source

    def __str__(self):
        return self.source


# Types of values an argument without a contract takes as they are (the common ones).
_UNCHECKED_TYPES = SCALARS | {tuple, utils.FrozenDict}


def argument_acceptance(contract) -> tuple:
    """``(types, when)``: the exact types of given values that an argument with ``contract``
    (or none) takes untouched, so a caller may skip it, and None or the condition
    ``(value, None, engine)`` such a value must also meet."""
    if contract is None:
        return _UNCHECKED_TYPES, None
    types = contract_primitives.unchanged_types(contract)
    return (types, None) if types else contract_primitives.conditionally_unchanged(contract)


class MuranoArgument:
    """``accepted_types``, ``accepted_when``: the argument's ``argument_acceptance``."""

    __slots__ = ("method", "name", "spec", "usage", "accepted_types", "accepted_when")

    def __init__(self, method, spec):
        self.method = method
        self.name = spec.name
        self.spec = spec
        self.usage = spec.usage
        self.accepted_types, self.accepted_when = argument_acceptance(spec.contract)

    def transform(self, value, this, owner, calling_type):
        method = self.method
        if method.usage == "Extension":
            this = method.declaring_type
        try:
            return apply_contract(self.spec, method.declaring_type, value, this, owner, calling_type)
        except errors.ContractViolationException as error:
            raise errors.ContractViolationException(
                f"[{method.declaring_type.name}::{method.name}({self.name}{error.path or ''})] {error}"
            ) from error

    def check_type(self, value, calling_type, names_scope):
        """Whether an extension method's receiver passes this (first) argument's contract as it
        is, unconverted: how the reference tells which overload applies to a value. As there,
        the contract checks in the calling code's names scope (its namespaces resolve class
        names), not the declaring class's."""
        declaring_type = self.method.declaring_type
        try:
            apply_contract(self.spec, declaring_type, value, names_scope or declaring_type, None,
                           calling_type, contract_primitives.CHECK_TYPE)
        except errors.ContractViolationException:
            return False
        return value is not contract_primitives.PASSKEY


def apply_contract(spec, declaring_type, value, this, owner, calling_type, mode=contract_primitives.TRANSFORM):
    """Missing value -> Default evaluated in the declaring class's context; then the contract."""
    this_type = type(this)
    if this_type is TypeReference:
        this = this.type
        this_type = MuranoType
    executor = declaring_type.executor
    if this_type is not MuranoObject and (this_type is MuranoType or isinstance(this, MuranoType)):
        target = this
        this_object, owner = None, None
    else:
        # owned()/notOwned() compare owners with the whole object, not the declaring class's part
        target = this if this.type is declaring_type else this.cast(declaring_type)
        this_object = this.real_this
    if value is NO_VALUE:
        default = spec.default
        if default is None:
            value = None
        elif type(default) is expressions.ConstantDefault:
            value = default.value
        else:
            value = expressions.finalize(default(executor.code_context(target)))
    if spec.contract is None:
        return value
    return spec.contract(value, executor.contract_context(this_object, owner, calling_type, target,
                                                          mode))


class MuranoMethod:
    """A method of a type: MuranoPL (``spec.body(context)``) or native (a Python function).

    ``direct_call``: the ``executor.DirectCall`` that calls it when its body's direct way in
    (``MethodSpec.direct_entry``) turns a call away, made on first use."""

    def __init__(self, declaring_type, spec, native=None):
        self.declaring_type = declaring_type
        self.spec = spec
        self.direct_call = None
        if spec.body is not None:
            declaring_type.executor.method_bodies[spec.body.__code__] = spec.local_variables
        self.name = spec.name
        self.native = native
        self.usage = spec.usage
        self.scope = spec.scope
        if self.usage == "Action":
            self.scope = "Public"
        self.arguments = collections.OrderedDict(
            (argument.name, MuranoArgument(self, argument)) for argument in spec.arguments)
        self.instance_stub, self.static_stub = _build_stubs(self)

    @property
    def is_static(self):
        return self.usage in ("Static", "Extension")

    @property
    def is_action(self):
        return self.scope == "Public" or self.usage == "Action"

    def __repr__(self):
        return f"MuranoMethod({self.declaring_type.name}::{self.name})"


class MuranoType:
    """A loaded class. ``parents`` are live types; symbol lookup follows the reference's rules."""

    def __init__(self, spec, package, parents, executor):
        self.spec = spec
        self.name = spec.name
        self.package = package
        self.parents = list(parents)
        self.executor = executor
        self.usage = spec.usage
        self.namespaces = dict(spec.namespaces)
        self.properties = {name: MuranoProperty(self, p) for name, p in spec.properties.items()}
        self.methods = {}
        self.reference = TypeReference(self)
        self.imports = []
        self.native_class = None
        self._context = None
        self._exported_context = None
        self._ancestors = None
        self._property_lookups = {}
        self.load_plan = None
        self.part_layout = self.part_types = self.part_links = None
        self.whole_parts = None  # per part after an object's own, (class, native state): MuranoObject.built_whole
        self.written_property_names = None
        self.referenced_property_names = None
        self.serialized_name = None
        self.action_entries = None
        self.destroy_methods = None  # its .destroy methods, own class first: serialization.destroy_methods
        self.instance_checks = {}
        self.call_sites = {}  # fast.MethodCall site -> what it resolved to on this class; fast.NewObject
        # site -> the class its name resolves to in this class's names scope
        self.property_reads = {}  # (caller class, object class, name) -> how get_property reads it
        self.own_reads = {}  # fast.PropertyRead site -> the caller class it reads whole objects' own values for
        # fast.PropertyRead sites in this class's methods that read, of this very class's whole
        # objects, a property the class itself declares as their own value (compiled bodies
        # read such properties inline: docs/compiled-modules.md)
        self.self_reads = set()

    @property
    def version(self):
        return self.package.version

    def add_method(self, spec, native=None):
        method = MuranoMethod(self, spec, native)
        self.methods[method.name] = method
        self._context = None
        self._exported_context = None
        return method

    def ancestors(self):
        """Every ancestor once, nearest first (a type's parents never change)."""
        if self._ancestors is None:
            self._ancestors = tuple(t for t in traverse([self], lambda t: t.parents) if t is not self)
        return self._ancestors

    def is_compatible(self, value) -> bool:
        if isinstance(value, (MuranoObject, TypeReference)):
            value = value.type
        if not isinstance(value, MuranoType):
            return False
        return self.same_class(value) or any(self.same_class(t) for t in value.ancestors())

    def same_class(self, other) -> bool:
        """One class of one package version (a class rebuilt with unified ancestor versions
        is the same class)."""
        return other is self or (other.name == self.name and other.package is self.package)

    def choose_symbol(self, lookup):
        """The declarations ``lookup`` finds that this class sees (see ``visible_declarations``)."""
        return visible_declarations(self, _parents_of, lookup)

    def find_method(self, name):
        return self.choose_symbol(lambda t: t.methods.get(name))

    def find_single_method(self, name):
        found = self.find_method(name)
        if not found:
            raise errors.NoMethodFound(name)
        if len(found) > 1:
            raise errors.AmbiguousMethodName(name)
        return found[0]

    def find_methods(self, predicate):
        result = [m for m in self.methods.values() if predicate(m)]
        for ancestor in self.ancestors():
            result.extend(m for m in ancestor.methods.values() if predicate(m) and m not in result)
        return result

    def find_properties(self, name):
        key = ("all", name)
        found = self._property_lookups.get(key)
        if found is None:
            found = self._property_lookups[key] = self._find_properties(name)
        return found

    def declarations(self, name):
        """Every declaration of property ``name`` in this class and its ancestors, nearest first."""
        key = ("declared", name)
        found = self._property_lookups.get(key)
        if found is None:
            found = self._property_lookups[key] = [
                t.properties[name] for t in (self, *self.ancestors()) if name in t.properties]
        return found

    def property_writes(self, name):
        """(the property a write of ``name`` stores to, every declaration the value passes)."""
        found = self._property_lookups.get(name)
        if found is None:
            found = self._property_lookups[name] = (self.find_single_property(name),
                                                    self.declarations(name))
        return found

    def _find_properties(self, name):
        result = [self.properties[name]] if name in self.properties else []
        for ancestor in self.ancestors():
            prop = ancestor.properties.get(name)
            if prop is not None and prop not in result:
                result.append(prop)
        return result

    def find_single_property(self, name):
        key = ("single", name)
        found = self._property_lookups.get(key)
        if found is None:
            found = self._property_lookups[key] = self.choose_symbol(lambda t: t.properties.get(name))
        if not found:
            raise errors.NoPropertyFound(name)
        if len(found) > 1:
            raise errors.AmbiguousPropertyNameError(name)
        return found[0]

    def find_static_property(self, name):
        found = self.choose_symbol(
            lambda t: t.properties.get(name) if getattr(t.properties.get(name), "usage", None) == "Static"
            else None)
        if not found:
            raise errors.NoPropertyFound(name)
        if len(found) > 1:
            raise errors.AmbiguousPropertyNameError(name)
        return found[0]

    def all_method_names(self):
        names = set(self.methods)
        for ancestor in self.ancestors():
            names.update(ancestor.methods)
        return sorted(names)

    def _unique_methods(self):
        for name in self.all_method_names():
            found = self.find_method(name)
            if len(found) == 1:
                yield found[0]
            else:
                yield _ambiguous_method(self, name)

    def forget_resolutions(self) -> None:
        """Drop what was resolved from this class's methods (its context, its call sites):
        a test run's ``inject`` changed what a call of them resolves to."""
        self._context = None
        self.call_sites.clear()

    @property
    def context(self):
        """Method stubs of this type (inherited included) over the extension methods it imports,
        and before them what a test run injected for the class (``Executor.add_mock``)."""
        if self._context is None:
            base = None
            for imported in reversed(self.imports):
                base = imported.exported_context if base is None else expressions.link(
                    base, imported.exported_context)
            context = expressions.empty_context() if base is None else base.create_child_context()
            for method in self._unique_methods():
                for stub in (method.instance_stub, method.static_stub):
                    if stub is not None:
                        context.register_function(stub, name=stub.name)
            mocks = self.executor.mocks.get(self.name)
            if mocks:
                injected = expressions.empty_context()
                for definition in mocks:
                    injected.register_function(definition)
                context = expressions.link(context, injected).create_child_context()
            self._context = context
        return self._context

    @property
    def exported_context(self):
        if self._exported_context is None:
            context = expressions.empty_context()
            for method in self._unique_methods():
                if method.usage == "Extension":
                    for stub in (method.instance_stub, method.static_stub):
                        if stub is not None:
                            context.register_function(stub, name=stub.name)
            self._exported_context = context
        return self._exported_context

    def __repr__(self):
        return f"MuranoClass({self.name}/{self.version})"


def _ambiguous_method(murano_type, name):

    def body(context):
        raise errors.AmbiguousMethodName(name)
    return MuranoMethod(murano_type, MethodSpec(name, body=body, arguments=()))


def _part_layout(murano_type):
    """How objects of ``murano_type`` are built: per part, in the order they are built (the
    object's own first, then depth first through each class's parents), its class, its parents
    as (class name, part position), and (creator position, name) where it is first linked.
    Classes of one name share a part, the first one built. Also kept by the type: the classes
    of the parts after the object's own (``part_types``) and every link as (part position, class
    name, parent part position) in the order the parts' ``parents`` are filled (``part_links``)."""
    layout = [(murano_type, None, None)]
    positions = {murano_type.name: 0}

    def visit(position):
        part_type = layout[position][0]
        links = []
        for parent in part_type.parents:
            parent_position = positions.get(parent.name)
            if parent_position is None:
                parent_position = positions[parent.name] = len(layout)
                layout.append((parent, None, (position, parent.name)))
                visit(parent_position)
            links.append((parent.name, parent_position))
        layout[position] = (part_type, tuple(links), layout[position][2])

    visit(0)
    murano_type.part_types = tuple(part_type for part_type, _, _ in layout[1:])
    murano_type.part_links = tuple((position, name, parent_position)
                                   for position, (_, links, _) in enumerate(layout)
                                   for name, parent_position in links)
    murano_type.part_layout = tuple(layout)
    return murano_type.part_layout


def part_chain(murano_type):
    """The classes of the parts of an object of ``murano_type`` after its own, in
    ``part_list`` order, when each part's one parent is the next part (no class has two
    parents); else None."""
    if murano_type.part_layout is None:
        _part_layout(murano_type)
    links = murano_type.part_links
    if len(links) != len(murano_type.part_types) or any(
            position != parent_position - 1 for position, _, parent_position in links):
        return None
    return murano_type.part_types


_new_object = object.__new__
_READ_OWN, _READ_CAST = object(), object()  # how get_property reads: the object's value, its cast's


class ObjectStore:
    """The objects an executor holds, in the order it took them (``ordered``: object -> None),
    found by id. An object ``new()`` builds has no id until something asks for it
    (``MuranoObject.object_id``), so the store keeps objects by identity and indexes their ids
    once they are known; an object whose id nobody knows cannot be looked up."""

    __slots__ = ("ordered", "by_id")

    def __init__(self):
        self.ordered = {}
        self.by_id = {}  # drawn id -> object; only the store writes it

    def add(self, obj):
        self.add_all((obj,))

    def add_all(self, objects):
        """Take the objects; one with the id of another object held takes that one's place,
        as a dictionary's entry does."""
        by_id = self.by_id
        ordered = self.ordered
        for obj in objects:
            object_id = obj.drawn_id
            if object_id is not None:
                replaced = by_id.get(object_id)
                by_id[object_id] = obj
                if replaced is not None and replaced is not obj and replaced in ordered:
                    ordered = self.ordered = {(obj if held is replaced else held): None for held in ordered}
                    continue
            ordered[obj] = None

    def indexed(self, obj):
        """``obj`` just drew its id: find it by that id from now on, if the store holds it."""
        if obj in self.ordered:
            self.by_id[obj.object_id] = obj

    def discard(self, obj):
        self.ordered.pop(obj, None)
        object_id = obj.drawn_id
        if object_id is not None and self.by_id.get(object_id) is obj:
            del self.by_id[object_id]

    def get(self, object_id, default=None):
        return self.by_id.get(object_id, default)

    def __getitem__(self, object_id):
        return self.by_id[object_id]

    def __contains__(self, object_id):
        return object_id in self.by_id

    def __len__(self):
        return len(self.ordered)

    def __iter__(self):
        """The ids of the objects held (drawing those not drawn yet), as a dictionary's keys."""
        return iter([obj.object_id for obj in self.ordered])

    def values(self) -> list:
        return list(self.ordered)


class MuranoObject:
    """An object, or (``this`` set) the part of an object that one of its classes owns.

    ``destruction_dependencies``: a tuple of (subscriber, handler) records."""

    __slots__ = ("type", "_owner", "drawn_id", "name", "metadata", "properties", "_parents",
                 "this", "real_this", "initialized", "destroyed", "extension",
                 "destruction_dependencies", "doomed", "__weakref__")

    def __init__(self, murano_type, owner, object_id=None, name=None, metadata=None):
        self.type = murano_type
        self._owner = owner
        self.drawn_id = object_id = object_id or generate_id()
        self.name = name
        self.metadata = metadata
        self.properties = {}
        self._parents = {}
        self.this = None
        self.real_this = self
        self.initialized = self.destroyed = self.doomed = False
        self.extension = None
        self.destruction_dependencies = ()
        if murano_type.part_layout is None:
            _part_layout(murano_type)
        parts = [self]
        for part_type in murano_type.part_types:  # each part as ``__init__`` sets one up, inline
            part = _new_object(MuranoObject)
            part.type = part_type
            part._owner = part.name = part.metadata = part.extension = None
            part.drawn_id = object_id
            part.properties = {}
            part._parents = {}
            part.this = part.real_this = self
            part.initialized = part.destroyed = part.doomed = False
            part.destruction_dependencies = ()
            parts.append(part)
        for position, name, parent_position in murano_type.part_links:
            parts[position].parents[name] = parts[parent_position]

    @staticmethod
    def built_whole(murano_type, properties, extension):
        """A new object of ``murano_type`` (no owner) holding ``properties``, every part
        initialised at once: what ``MuranoObject(murano_type, None)``, its properties set and
        each part initialised make of it, for a class whose parts form one chain and whose
        ``whole_parts`` are set. ``extension``: the object's native state. The parts after its
        own are made on first use of ``parents`` (most objects' never are)."""
        obj = _new_object(MuranoObject)
        obj.type = murano_type
        obj._owner = obj.name = obj.metadata = obj.this = None
        obj.drawn_id = None
        obj.properties = properties
        obj._parents = None if murano_type.whole_parts else {}
        obj.real_this = obj
        obj.initialized = True
        obj.destroyed = obj.doomed = False
        obj.extension = extension
        obj.destruction_dependencies = ()
        return obj

    @staticmethod
    def loaded_whole(murano_type, owner, object_id, name, metadata, extension):
        """A new object of a model load that ``built_whole`` could build: no properties yet, not
        initialised (the load marks it once done); its parts after its own are made, initialised,
        on first use of ``parents``."""
        obj = _new_object(MuranoObject)
        obj.type = murano_type
        obj._owner = owner
        obj.drawn_id = object_id or generate_id()
        obj.name = name
        obj.metadata = metadata
        obj.this = None
        obj.properties = {}
        obj._parents = None if murano_type.whole_parts else {}
        obj.real_this = obj
        obj.initialized = obj.destroyed = obj.doomed = False
        obj.extension = extension
        obj.destruction_dependencies = ()
        return obj

    @property
    def object_id(self):
        """The object's id; an object ``built_whole`` draws its id on first use (most objects
        ``new()`` makes never need one), then the executor's store indexes it. ``drawn_id``:
        the id once drawn, else None (``obj.drawn_id or obj.object_id`` reads a drawn id at
        a slot's cost)."""
        object_id = self.drawn_id
        if object_id is None:
            object_id = self.drawn_id = generate_id()
            self.type.executor.objects.indexed(self)
        return object_id

    @object_id.setter
    def object_id(self, value):
        self.drawn_id = value

    @property
    def parents(self):
        """The parts of the parent classes' by class name."""
        parents = self._parents
        if parents is None:
            parents = self._whole_parents()
        return parents

    def _whole_parents(self):
        """Make the parts of an object ``built_whole`` made after its own, one chain of parts
        each the next one's child, initialised, destroyed when the object is."""
        object_id = self.object_id
        destroyed = self.destroyed
        child = self
        for part_type, extension in self.type.whole_parts:
            part = _new_object(MuranoObject)
            part.type = part_type
            part._owner = part.name = part.metadata = None
            part.extension = extension
            part.drawn_id = object_id
            part.properties = {}
            part.this = part.real_this = self
            part.initialized = True
            part.destroyed = destroyed
            part.doomed = False
            part.destruction_dependencies = ()
            child._parents = {part_type.name: part}
            child = part
        child._parents = {}
        return self._parents

    def part_list(self):
        """Every part of the object (``real_this``), itself first, in the order they were built."""
        parts = [self]
        for _, _, (creator, name) in self.type.part_layout[1:]:
            parts.append(parts[creator].parents[name])
        return parts

    def subscribe_destruction(self, subscriber, handler=None):
        """Have ``subscriber`` destroyed before this object, with ``subscriber.<handler>(this)``
        called first when a handler is named (once per subscriber and handler); a handler
        the subscriber's class lacks is NoMethodFound, from GC and from a loaded model alike."""
        if handler:
            subscriber.type.find_single_method(handler)
        if not any(s is subscriber and h == handler for s, h in self.destruction_dependencies):
            self.destruction_dependencies += ((subscriber, handler),)

    def unsubscribe_destruction(self, subscriber, handler=None):
        if handler:
            subscriber.type.find_single_method(handler)
        self.destruction_dependencies = tuple(
            (s, h) for s, h in self.destruction_dependencies if not (s is subscriber and h == handler))

    @property
    def owner(self):
        return self._owner if self.this is None else self.this.owner

    @owner.setter
    def owner(self, value):
        self.real_this._owner = value

    def parts(self):
        return traverse([self], lambda part: part.parents.values())

    def cast(self, murano_type):
        if self.type is murano_type:
            return self
        for part in self.parts():
            if part.type is murano_type:
                return part
        for part in self.parts():
            if part.type == murano_type:
                return part
        raise TypeError(f"Cannot cast {self.type} to {murano_type}")

    def caller_view_of(self, context):
        """(start type, caller class or None, derived): whose property table the caller sees."""
        return self.caller_view(None if context is None else expressions.lookup(context, expressions.TYPE_KEY))

    def caller_view(self, caller_type):
        """``caller_view_of`` for code of class ``caller_type`` (None: from outside)."""
        if caller_type is not None and caller_type.is_compatible(self):
            return caller_type, caller_type, True
        return self.real_this.type, caller_type, False

    def get_property(self, name, context=None):
        return self.read_property(name, None if context is None else expressions.lookup(context, expressions.TYPE_KEY),
                                  context)

    def read_property(self, name, caller_type, context):
        """``get_property`` by code of ``caller_type`` (what ``context`` holds)."""
        real = self.real_this
        key = (caller_type, real.type, name)
        read = self.type.property_reads.get(key)
        if read is None:
            read = self.type.property_reads[key] = self._property_read(name, caller_type)
        if read is _READ_OWN:
            return real.read_value(name)
        if read is _READ_CAST:
            return self.cast(caller_type).read_value(name)
        if type(read) is MuranoProperty:
            return self.type.executor.get_static_property(read.declaring_type, name, context)
        raise errors.PropertyReadError(name, read)

    def reads_own_value(self, name, caller_type) -> bool:
        """Whether ``read_property`` of ``name`` by code of ``caller_type`` reads this object's
        own value (``read_value``): a whole object (not a part) whose class and the caller's
        make every such read one (asked after a read, which worked that out)."""
        return self.this is None and self.type.property_reads.get((caller_type, self.type, name)) is _READ_OWN

    def _property_read(self, name, caller_type):
        """How code of ``caller_type`` reads property ``name`` of objects like this one: the
        object's value, the caller's own part's, a static property, or (the name of the class
        it is looked up in) a PropertyReadError. Unlike a write, a read from code of an
        unrelated class looks the name up from this part's class, not the whole object's."""
        start_type, caller_type, derived = self.caller_view(caller_type)
        if not derived:
            start_type = self.type
        if start_type.find_properties(name):
            prop = self.real_this.type.find_single_property(name)
            return prop if prop.usage == "Static" else _READ_OWN
        if derived:
            return _READ_CAST
        return start_type.name

    def read_value(self, name):
        try:
            return self.properties[name]
        except KeyError:
            raise errors.UninitializedPropertyAccessError(name, self.type.name) from None

    def set_property(self, name, value, context=None, dry_run=False):
        writes_allowed = context is not None and expressions.lookup(context, expressions.ALLOW_PROPERTY_WRITES_KEY)
        self.write_property(name, value, self.caller_view_of(context), writes_allowed, dry_run)

    def write_property(self, name, value, caller_view, writes_allowed, dry_run=False):
        """``set_property`` with the caller's view (``caller_view``) already taken: model loads
        write many properties of one part from one context."""
        start_type, caller_type, derived = caller_view
        real = self.real_this
        if not start_type.find_properties(name):
            if not derived:
                raise errors.PropertyWriteError(name, start_type.name)
            if not dry_run:
                self.cast(caller_type).properties[name] = value
            return
        ultimate, declared = real.type.property_writes(name)
        owner = real
        check_access = caller_type is not None and not writes_allowed
        if len(declared) == 1:
            if check_access and (ultimate.usage not in WRITABLE_USAGES or not derived):
                raise errors.NoWriteAccessError(name)
            value = ultimate.transform(value, real, owner, caller_type)
        else:
            for prop in declared:
                if check_access and (prop.usage not in WRITABLE_USAGES or not derived):
                    raise errors.NoWriteAccessError(name)
                if prop is ultimate:
                    value = prop.transform(value, real, owner, caller_type, finalize=False)
                else:
                    prop.validate(value, real, owner, caller_type)
            value = ultimate.finalize(value, real, owner, caller_type)
        if ultimate.usage == "Static":
            self.type.executor.write_static_property(ultimate.declaring_type, name, value,
                                                     caller_type, dry_run)
        elif not dry_run:
            real.properties[name] = value

    def __repr__(self):
        return f"<{self.type.name}/{self.type.version} {self.object_id}>"


# --- yaql parameter types and method stubs -------------------------------------------------------

class ObjectParameter(yaqltypes.PythonType):
    """A MuranoPL object argument, optionally of a given type."""

    def __init__(self, murano_type=None, nullable=False):
        self.murano_type = murano_type
        super().__init__(MuranoObject, nullable)

    def check(self, value, context, *args, **kwargs):
        if not super().check(value, context, *args, **kwargs):
            return False
        if value is None or isinstance(value, Expression):
            return True
        return self.murano_type is None or self.murano_type.is_compatible(value)


class TypeParameter(yaqltypes.PythonType):
    """A class argument: a type reference, or (``resolve_strings``) a class name string."""

    def __init__(self, base_type=None, nullable=False, resolve_strings=True):
        self.base_type = base_type
        self.resolve_strings = resolve_strings
        super().__init__((TypeReference, str), nullable)

    def check(self, value, context, *args, **kwargs):
        if not super().check(value, context, *args, **kwargs):
            return False
        if isinstance(value, str):
            if not self.resolve_strings:
                return False
            value = resolve_class(value, context).reference
        if isinstance(value, TypeReference) and self.base_type is not None:
            return self.base_type.is_compatible(value)
        return True

    def convert(self, value, receiver, context, function_spec, engine, *args, **kwargs):
        value = super().convert(value, receiver, context, function_spec, engine, *args, **kwargs)
        if isinstance(value, str):
            value = resolve_class(value, context).reference
        return value


def type_reference(context, full_name):
    """``ns:Name`` resolved at compile time: the class as a value, seen from the running class."""
    scope = None if context is None else context[expressions.NAMES_SCOPE]
    return current_executor().find_class(full_name, scope).reference


def resolve_class(name, context):
    """A class by (namespace-qualified) name, seen from the class whose code runs in ``context``."""
    scope = context[expressions.NAMES_SCOPE] if context is not None else None
    executor = current_executor()
    return executor.find_class(name, scope)


class ContractedValue(yaqltypes.GenericType):
    """An argument passed through its contract (and Default) when the stub maps arguments."""

    def __init__(self, argument, check_first=False):
        def converter(value, receiver, context, *args, **kwargs):
            this = receiver.real_this if isinstance(receiver, MuranoObject) else receiver
            caller_type = context[expressions.TYPE]
            return argument.transform(value, this, context[expressions.ARGUMENT_OWNER], caller_type)

        def checker(value, context, *args, **kwargs):
            return argument.check_type(value, context[expressions.TYPE], context[expressions.NAMES_SCOPE])

        super().__init__(True, checker if check_first else None, converter)

    def convert(self, value, *args, **kwargs):
        if value is None:
            return self.converter(value, *args, **kwargs)
        return super().convert(value, *args, **kwargs)


def _build_stubs(method):
    """The yaql function definitions through which ``obj.method(...)`` resolves.

    Instance methods take an object receiver; static ones also a type reference; extension
    methods take their first argument as receiver.
    """
    executor_invoke = lambda receiver, args, kwargs, context: current_executor().invoke(  # noqa: E731
        method, receiver, args, kwargs, context)

    def instance_payload(__context, __receiver, *args, **kwargs):
        return executor_invoke(__receiver, args, kwargs, __context)

    def extension_payload(__context, *args, **kwargs):
        return executor_invoke(method.declaring_type, args, kwargs, __context)

    if method.usage in INSTANCE_METHOD_USAGES:
        return _stub(method, instance_payload, ObjectParameter(method.declaring_type)), None
    static = _stub(method, instance_payload, TypeParameter(method.declaring_type, resolve_strings=False))
    if method.usage == "Static":
        return _stub(method, instance_payload, ObjectParameter(method.declaring_type)), static
    if method.usage == "Extension":
        return _stub(method, extension_payload, None), static
    raise errors.DslSyntaxError(f"Unknown method usage {method.usage}")


def _stub(method, payload, receiver_type):
    definition = specs.FunctionDefinition(method.name, payload, is_function=False, is_method=True)
    position = 1
    if receiver_type is not None:
        definition.set_parameter(specs.ParameterDefinition("__receiver", receiver_type, 1))
        position = 2
    check_first = receiver_type is None
    has_varargs = has_kwargs = False
    if method.native is None:
        for name, argument in method.arguments.items():
            slot, slot_position = name, position
            if argument.usage == "VarArgs":
                slot, has_varargs = "*", True
            elif argument.usage == "KwArgs":
                slot, slot_position, has_kwargs = "**", None, True
            definition.parameters[slot] = specs.ParameterDefinition(
                slot, ContractedValue(argument, check_first), position=slot_position,
                default=NO_VALUE)
            check_first = False
            position += 1
    if not has_varargs:
        definition.parameters["*"] = specs.ParameterDefinition(
            "*", yaqltypes.PythonType(object, nullable=True), position=position)
    if not has_kwargs:
        definition.parameters["**"] = specs.ParameterDefinition(
            "**", yaqltypes.PythonType(object, nullable=True))
    definition.set_parameter(specs.ParameterDefinition("__context", yaqltypes.Context(), 0))
    definition.meta["muranoMethod"] = method
    return definition
