"""The Executor: loads compiled packages, builds types, runs methods, owns the object store.

Public API (DESIGN.md): ``Executor(package_dirs)``, ``load``, ``new``, ``call``, ``serialize``,
``render``, ``collect_garbage``, ``finish``, ``trace``.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.util
import json
import os
import sys

import yaml
from yaql.language import exceptions as yaql_exceptions, utils

from mplc import buildrecord, versioning
from mplc.runtime import activation, expressions, errors, library, natives, serialization, statements
from mplc.runtime.validator_services import ContractContext
from mplc.runtime.loading import LoadSession, load_plan, loads_in_one_pass, new_directly, run_steps
from mplc.runtime.objects import (NO_VALUE, MuranoObject, MuranoType, ObjectStore, Package,
                                  TypeReference)
from mplc.runtime.specs import PackageSpec
from mplc.runtime.yaql_adapter import child_context
from mplc.runtime.system import engine_functions

CORE_OBJECT = "io.murano.Object"
SYNCHRONIZE = "io.murano.metadata.engine.Synchronize"


# Keys of yaql contexts in stored form (``expressions.lookup`` and direct writes use these).
_TYPE_KEY = expressions.TYPE_KEY
_NAMES_SCOPE_KEY = expressions.stored_key(expressions.NAMES_SCOPE)
_CURRENT_METHOD_KEY = expressions.stored_key(expressions.CURRENT_METHOD)
_CALLER_CONTEXT_KEY = expressions.stored_key(expressions.CALLER_CONTEXT)
_ALLOW_PROPERTY_WRITES_KEY = expressions.ALLOW_PROPERTY_WRITES_KEY
_ARGUMENT_OWNER_KEY = expressions.stored_key(expressions.ARGUMENT_OWNER)
_SKIP_FRAME_KEY = expressions.stored_key(expressions.SKIP_FRAME)
_THIS_KEY = expressions.stored_key("$this")
_RECEIVER_KEY = expressions.stored_key("$")
_NO_KEYWORDS = utils.FrozenDict()
# values whose ``expressions.thaw`` runs no code (anything else may be a lazy yaql value)
_DATA_TYPES = frozenset((list, tuple, dict, utils.FrozenDict, frozenset, set, MuranoObject, TypeReference))
CallContext, WritingCallContext = expressions.CallContext, expressions.WritingCallContext


_imported: dict = {}
_EXTENSIONS_PREFIX = "io.murano.extensions."


def _without_extensions_prefix(name: str):
    """The name an ``io.murano.extensions.``-prefixed class name had before plugins were
    renamed: the reference looks that up in required packages when the prefixed one is
    missing; None for other names."""
    return name[len(_EXTENSIONS_PREFIX):] if name.startswith(_EXTENSIONS_PREFIX) else None


def _import_package(path: str):
    """Import a compiled package directory; returns (PackageSpec, {class name: ClassSpec}).

    Each directory gets its own module name, so two outputs of one package never collide.
    Nothing is imported unless the directory's build record proves this user's mplc wrote it
    as it is (``buildrecord.verify`` raises ``BuildRecordError`` otherwise)."""
    path = os.path.abspath(path).rstrip(os.sep)
    module_name = _imported.get(path)
    if module_name is None:
        buildrecord.verify(path)
        module_name = f"{os.path.basename(path)}__mplc{len(_imported)}"
        _imported[path] = module_name
        location = importlib.util.spec_from_file_location(
            module_name, os.path.join(path, "__init__.pyc"), submodule_search_locations=[path])
        module = importlib.util.module_from_spec(location)
        sys.modules[module_name] = module
        location.loader.exec_module(module)
    module = sys.modules[module_name]
    spec = module.PACKAGE
    spec.directory = path
    classes = {}
    for class_name, class_module in spec.classes.items():
        class_spec = importlib.import_module(f"{module_name}.{class_module}").CLASS
        class_spec.package = spec
        classes[class_name] = class_spec
    return spec, classes


def _defined_ids(data):
    """The ids of the objects a model's data defines (``?: {id: ...}`` headers), walked
    without recursion."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            header = value.get("?")
            if isinstance(header, dict) and isinstance(header.get("id"), str):
                yield header["id"]
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)


def _holds_non_finite(data) -> bool:
    """Whether plain data (dicts, lists, tuples) holds a NaN or infinite float."""
    pending = [data]
    while pending:
        value = pending.pop()
        if type(value) is float:
            if value != value or value in (_INFINITY, -_INFINITY):
                return True
        elif isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, (list, tuple)):
            pending.extend(value)
    return False


_INFINITY = float("inf")


class Executor:
    def __init__(self, package_dirs=(), trace=False, class_configs=None, functions=None):
        """``class_configs``: the directory of class configuration files (Config properties).
        ``functions``: a yaql context of functions every code of this run sees over the root
        context (a test run's ``inject`` and ``withOriginal``, which only test runs have)."""
        self.packages = {}
        for entry in package_dirs:
            if isinstance(entry, PackageSpec):
                class_specs = dict(entry.classes)
                for class_spec in class_specs.values():
                    class_spec.package = entry
            else:
                entry, class_specs = _import_package(entry)
            if entry.full_name == versioning.CORE_LIBRARY:
                class_specs.update(natives.native_only_classes(entry, class_specs))
            package = Package(entry, class_specs, self)
            self.packages.setdefault(package.name, []).append(package)
        if CORE_OBJECT not in (c for ps in self.packages.values() for p in ps for c in p.class_specs):
            core = natives.core_package()
            self.packages.setdefault(core.full_name, []).append(Package(core, dict(core.classes), self))
        for versions in self.packages.values():
            versions.sort(key=lambda p: p.version)
        self.objects = ObjectStore()
        self.method_bodies = {}  # body code -> the locals holding variables (statements.running_bodies)
        self.static_values = {}
        self.attributes = {}
        self.root = None
        self.trace = [] if trace else None
        self.loading = None
        self.dry_run = False
        self._locks = {}
        self.class_configs = class_configs
        self._type_contexts = {}
        self._class_lookups = {}
        self._call_plans = {}
        self._last_code_context = (None, None)
        self._last_contract_context = None
        self.warnings = []
        self.functions = functions
        self.mocks = {}  # class name -> yaql definitions ``inject`` put before its methods

    # --- activation -------------------------------------------------------------------------

    current = staticmethod(activation.current_executor)

    @contextlib.contextmanager
    def dry_run_objects(self):
        """Objects loaded meanwhile (template() contracts) are built but never initialised."""
        outer, self.dry_run = self.dry_run, True
        try:
            yield
        finally:
            self.dry_run = outer

    def class_config(self, murano_type) -> dict:
        """Values of the class's Config properties: ``<class_configs>/<name>[-<version>].json|yaml``,
        the most specific version first (``-1.2.3``, ``-1.2``, ``-1``, then unversioned for 0.x)."""
        if self.class_configs is None:
            return {}
        version = murano_type.version
        parts = [str(version.major), str(version.minor), str(version.patch)]
        suffixes = ["-" + ".".join(parts[:count]) for count in (3, 2, 1)]
        if version.major == 0:
            suffixes.append("")
        for suffix in suffixes:
            for extension in ("json", "yaml"):
                path = os.path.join(self.class_configs, f"{murano_type.name}{suffix}.{extension}")
                if os.path.isfile(path):
                    with open(path, encoding="utf-8") as handle:
                        loaded = json.load(handle) if extension == "json" else yaml.safe_load(handle)
                    return loaded if isinstance(loaded, dict) else {}
        return {}

    def active(self):
        """This executor is the current one inside the block."""
        return activation.running(self)

    # --- classes ----------------------------------------------------------------------------

    def find_package(self, name, version_spec=None):
        """The newest loaded version of package ``name`` that ``version_spec`` allows."""
        for package in reversed(self.packages.get(name, ())):
            if version_spec is None or package.version in version_spec:
                return package
        raise errors.NoPackageFound(name)

    def find_class(self, name, scope=None) -> MuranoType:
        """A class by name, as code of class ``scope`` sees it: the name resolves in ``scope``'s
        namespaces and the class is looked up in ``scope``'s own package, then in the newest
        version of each package it requires (not transitively). Without a scope (Python
        callers), the newest loaded class of that name."""
        if type(name) is not str:
            if isinstance(name, TypeReference):
                return name.type
            if isinstance(name, MuranoType):
                return name
            name = str(name)
        if type(scope) is not MuranoType:
            if isinstance(scope, TypeReference):
                scope = scope.type
            if scope is None:
                return self.class_version(name, None)
        found = self._class_lookups.get((name, scope))
        if found is None:
            found = self._class_lookups[name, scope] = self._find_class_in_scope(name, scope)
        return found

    def _find_class_in_scope(self, name, scope):
        if not versioning.TYPE_NAME.match(name):  # the reference's namespace resolver refuses it
            raise ValueError(f'Invalid type name "{name}"')
        name = self.resolve_name(name, scope)
        package = scope.package
        if name in package.class_specs:
            return self.type_of(package, name)
        searched = []
        for package_name, version_spec in package.requirements.items():
            if package_name == package.name:
                continue
            required = self.find_package(package_name, version_spec)
            if name in required.class_specs:
                return self.type_of(required, name)
            renamed_plugin = _without_extensions_prefix(name)
            if renamed_plugin in required.class_specs:
                return self.type_of(required, renamed_plugin)
            searched.append(required)
        raise errors.NoClassFound(name, searched + [package])

    def class_version(self, name, class_version, package_name=None):
        """The class an object model names: ``classVersion`` picks the exact version, else the
        newest of its major.minor, else of its major (``mplc.versioning.select_class_version``);
        none means the newest; a spec that is not one is a ValueError. ``package_name`` limits the
        search to that package (which not holding the class is NoClassFound, no version of it matching
        NoPackageFound, as in the reference)."""
        if class_version is not None and str(class_version).strip() != "":
            try:
                versioning.parse_requirement(class_version)
            except versioning.VersionError as error:
                # the reference parses the spec before it looks for the class: a ValueError
                raise ValueError(str(error)) from None
        holders = {package.version: package
                   for versions in self.packages.values() for package in versions
                   if name in package.class_specs
                   and (package_name is None or package.name == package_name)}
        if not holders:
            if package_name is None:
                raise errors.NoPackageForClassFound(name)
            if package_name not in self.packages:
                raise errors.NoPackageFound(package_name)
            newest = max(self.packages[package_name], key=lambda package: package.version)
            raise errors.NoClassFound(name, [newest])
        if class_version is None or str(class_version).strip() == "":
            chosen = max(holders)
        else:
            try:
                chosen = versioning.select_class_version(holders, class_version)
            except versioning.VersionError as error:
                if package_name is not None:
                    raise errors.NoPackageFound(package_name) from None
                raise errors.NoPackageForClassFound(f"{name}: {error}") from None
        return self.type_of(holders[chosen], name)

    @staticmethod
    def resolve_name(name: str, scope: MuranoType) -> str:
        if ":" not in name:
            prefix, short = ("", name) if "." in name else ("=", name)
        else:
            prefix, short = name.split(":", 1)
            prefix = prefix or "="
        namespaces = {"=": "", "": ""}
        namespaces.update({k: v or "" for k, v in scope.namespaces.items()})
        if prefix not in namespaces:
            raise KeyError("Unknown namespace prefix " + prefix)
        namespace = namespaces[prefix]
        return f"{namespace}.{short}" if namespace else short

    def type_of(self, package: Package, name: str) -> MuranoType:
        murano_type = package.types.get(name)
        if murano_type is None:
            spec = package.class_specs[name]
            try:
                murano_type = self._load_type(spec, package)
            except Exception:
                package.class_specs.pop(name, None)  # the reference forgets a class it failed to load
                raise
            package.types[name] = murano_type
        return murano_type

    def _load_type(self, spec, package):
        if spec.name == CORE_OBJECT:
            parents = []
        else:
            bare = MuranoType(spec, package, [], self)
            parents = [self.find_class(p, bare) for p in (spec.extends or (CORE_OBJECT,))]
        for parent in parents:
            if parent.usage not in (("Class", "Meta") if spec.usage == "Meta" else ("Class",)):
                raise errors.InvalidInheritanceError(
                    f"Type {spec.name} cannot have parent with Usage {parent.usage}")
        return self._build_type(spec, package, self._unify_versions(spec, package, parents))

    def _build_type(self, spec, package, parents):
        murano_type = MuranoType(spec, package, parents, self)
        for method_spec in spec.methods.values():
            murano_type.add_method(method_spec)
        natives.attach(murano_type)
        self._check_meta(murano_type, spec.meta, "Type")
        murano_type.imports = [self.find_class(i, murano_type) for i in spec.imports
                               if i != spec.name]
        for property_spec in spec.properties.values():
            self._check_meta(murano_type, property_spec.meta, "Property")
        for method_spec in spec.methods.values():
            for argument_spec in method_spec.arguments:
                self._check_meta(murano_type, argument_spec.meta, "Argument")
            self._check_meta(murano_type, method_spec.meta, "Method")
        return murano_type

    def _check_meta(self, murano_type, entries, target):
        """The reference's checks of Meta entries when it loads a class, for meta classes of
        other packages (the compiler checked the package's own): a meta class, applicable to
        ``target``, a Cardinality One one attached once (ValueError, as there)."""
        attached = set()
        for entry in entries:
            if entry.type_name in murano_type.package.class_specs:
                continue
            meta_type = self.find_class(entry.type_name, murano_type)
            if meta_type.usage != "Meta":
                raise ValueError("Only Meta classes can be attached")
            if target not in meta_type.spec.applies:
                raise ValueError(f"Meta class {meta_type.name} is not applicable here")
            if meta_type in attached and meta_type.spec.cardinality != "Many":
                raise ValueError("Cannot attach several Meta instances with cardinality One")
            attached.add(meta_type)

    def _unify_versions(self, spec, package, parents):
        """Parents of a new class with one version per package across all its ancestors.

        When ancestors come from several versions of one package, the newest loaded version
        that every requiring package allows replaces them all (ancestors whose parents change
        are rebuilt for this class); when no version satisfies them all, the class cannot be
        built (InvalidInheritanceError naming the package and the conflicting requirements)."""
        requirements = {package.name: {(package, versioning.parse_requirement(package.version))}}
        seen = set()
        pairs = [(package, parent) for parent in parents]
        while pairs:
            child_package, parent = pairs.pop()
            if (child_package, parent) in seen:
                continue
            seen.add((child_package, parent))
            if child_package is not parent.package:
                requirements.setdefault(parent.package.name, set()).add(
                    (parent.package, child_package.requirements.get(parent.package.name)))
            pairs.extend((parent.package, grandparent) for grandparent in parent.parents)
        chosen = {}
        for package_name, required in requirements.items():
            if len({p for p, _ in required}) < 2:
                continue
            allowed = [p for p in self.packages.get(package_name, ())
                       if all(s is not None and p.version in s for _, s in required)]
            if not allowed:
                listed = ", ".join(sorted(f"{p.name}/{p.version}" for p, _ in required))
                raise errors.InvalidInheritanceError(
                    f"Type {spec.name} inherits classes of {listed}, and no loaded version of "
                    f"{package_name} satisfies all their requirements")
            chosen[package_name] = allowed[-1]
        if not chosen:
            return parents
        rebuilt = {}

        def unified(murano_type):
            if murano_type not in rebuilt:
                target = chosen.get(murano_type.package.name)
                if (target is not None and target is not murano_type.package
                        and murano_type.name in target.class_specs):
                    rebuilt[murano_type] = unified(self.type_of(target, murano_type.name))
                else:
                    new_parents = [unified(p) for p in murano_type.parents]
                    if all(a is b for a, b in zip(new_parents, murano_type.parents)):
                        rebuilt[murano_type] = murano_type
                    else:
                        rebuilt[murano_type] = self._build_type(
                            murano_type.spec, murano_type.package, new_parents)
            return rebuilt[murano_type]

        return [unified(parent) for parent in parents]

    # --- contexts ---------------------------------------------------------------------------

    def type_context(self, murano_type: MuranoType):
        context = self._type_contexts.get(murano_type)
        if context is None:
            root = library.root_context(murano_type.package.format_version)
            if murano_type.package.name == versioning.CORE_LIBRARY:
                root = expressions.link(root, engine_functions.core_library_context())
            root = expressions.link(root, self.functions)
            context = expressions.link(root, murano_type.context)
            self._type_contexts[murano_type] = context
        return context

    def add_mock(self, class_name: str, definition) -> None:
        """Put a yaql function definition before the methods of the classes named
        ``class_name`` (test runs' ``inject``): a method call on an object of such a class, from
        any code, resolves to it first. Call sites that resolved a method of those classes
        resolve again, through yaql."""
        self.mocks.setdefault(class_name, []).append(definition)
        for versions in self.packages.values():
            for package in versions:
                murano_type = package.types.get(class_name)
                if murano_type is not None:
                    murano_type.forget_resolutions()

    def object_context(self, target, caller_context=None):
        """The context code of ``target`` (an object part, or a type for static code) runs in."""
        murano_type = target if isinstance(target, MuranoType) else target.type
        context = self.type_context(murano_type).create_child_context()
        context[expressions.TYPE] = murano_type
        this = murano_type.reference if isinstance(target, MuranoType) else target.real_this
        context["$this"] = this
        context["$"] = this
        if caller_context is not None:
            context[expressions.NAMES_SCOPE] = caller_context[expressions.NAMES_SCOPE]
            context[expressions.CALLER_CONTEXT] = _calling_frame(caller_context)
            context[expressions.ALLOW_PROPERTY_WRITES] = expressions.lookup(caller_context,
                                                                  _ALLOW_PROPERTY_WRITES_KEY)
        else:
            context[expressions.NAMES_SCOPE] = murano_type
        return context

    @staticmethod
    def call_context(plan, this, caller_context):
        """The one context a call of ``plan``'s method runs in (``this``: the object part cast to the
        declaring class, or the class for static code): a child of the class's type context
        holding ``$this``, the caller's state, the method, and (filled by the caller) the
        arguments. The runtime keys a method body reads are all set here, so lookups from the
        body end in this context instead of walking to the root."""
        data = {}
        data[_THIS_KEY] = data[_RECEIVER_KEY] = (
            this.real_this if type(this) is MuranoObject and not plan.is_static else plan.static_this)
        allow_writes = None
        if caller_context is not None:
            data[_CALLER_CONTEXT_KEY] = _calling_frame(caller_context)
            data[_ALLOW_PROPERTY_WRITES_KEY] = allow_writes = expressions.lookup(caller_context,
                                                                            _ALLOW_PROPERTY_WRITES_KEY)
        if plan.native:
            return child_context(plan.parent, data)
        return call_context_of(plan.parent, data, allow_writes is not None)

    def code_context(self, target):
        """``object_context(target)`` for code that only reads it or derives child contexts
        (Defaults, contracts): while a model loads, one per target is shared; otherwise the
        last one is kept for the next use on the same target (argument contracts of calls)."""
        if self.loading is not None:
            return self.loading.object_context(target)
        last_target, context = self._last_code_context
        if last_target is not target:
            context = self.object_context(target)
            self._last_code_context = (target, context)
        return context

    def contract_context(self, this, owner, calling_type, target, mode):
        """The ContractContext of a contract check; the last one is kept for the next check in
        the same situation (every argument of every call of a method checks in one)."""
        last = self._last_contract_context
        if (last is not None and last.this is this and last.owner is owner
                and last.calling_type is calling_type and last.target is target
                and last.mode == mode):
            return last
        last = self._last_contract_context = ContractContext(self, this, owner, calling_type,
                                                             target, mode)
        return last

    # --- methods ----------------------------------------------------------------------------

    def call_method(self, method, this, args=(), kwargs=None, context=None):
        """Call from Python: arguments go through the method's yaql stub (contracts, defaults)."""
        engine = expressions.engine_for(method.declaring_type.package.format_version)
        method_context = self.object_context(this, context).create_child_context()
        method_context[expressions.CURRENT_METHOD] = method
        method_context[expressions.SKIP_FRAME] = True
        if isinstance(this, MuranoType):
            stub, receiver = method.static_stub, this.reference
        else:
            stub, receiver = method.instance_stub, this.real_this
        if stub is None:
            raise ValueError(f"Method {method} cannot be called on receiver {this}")
        with self.active():
            return stub(engine, method_context, receiver)(*args, **(kwargs or {}))

    def invoke(self, method, receiver, args, kwargs, caller_context):
        """Run a method whose arguments were already mapped and checked by its stub."""
        declaring_type = method.declaring_type
        this = receiver.type if isinstance(receiver, TypeReference) else receiver
        if isinstance(this, MuranoObject):
            if this.type is not declaring_type:
                if not declaring_type.is_compatible(this):
                    raise errors.DslInvalidOperationError("'this' must be of compatible type")
                this = this.cast(declaring_type)
        else:
            this = declaring_type
        plan = self.call_plan(method)
        context = self.call_context(plan, this, caller_context)
        if isinstance(this, MuranoObject) and this.destroyed:
            raise errors.ObjectDestroyedError(this)
        if method.native is not None:
            extension = this.real_this.extension if isinstance(this, MuranoObject) else None
            return method.native(natives.NativeCall(self, this, context, extension), context,
                                 *args, **kwargs)
        if (plan.synchronize is None and plan.positional and not kwargs
                and len(args) <= len(plan.argument_keys) and not statements.in_parallel_branch()):
            context._data.update(zip(plan.argument_keys, args))
            return run_body(method, context)
        values = self._canonize(method, args, kwargs,
                                this.real_this if isinstance(this, MuranoObject) else this)
        for name, value in values.items():
            context["$" + name] = value
        lock_key = self._lock_key(plan.synchronize, method, this, values, context)
        if lock_key is None:
            return run_body(method, context)
        lock = self._locks.setdefault(lock_key, statements.GreenLock())
        try:
            with lock:
                return run_body(method, context)
        finally:
            if not lock.users:
                del self._locks[lock_key]

    def call_plan(self, method):
        plan = self._call_plans.get(method)
        if plan is None:
            plan = self._call_plans[method] = CallPlan(method, self.type_context(method.declaring_type))
        return plan

    @staticmethod
    def _lock_key(synchronize, method, this, values, context):
        """What a method locks, as in the reference: the object (or class, for static methods)
        unless its ``io.murano.metadata.engine.Synchronize`` meta (``synchronize``, or None)
        says ``onThis: false``, and the values of its ``onArgs`` arguments that are not null;
        None when nothing is locked. Methods lock only in Parallel branches: elsewhere no
        other green thread can hold the lock."""
        if synchronize is None:
            if not statements.in_parallel_branch():
                return None
            settings = {}
        else:
            settings = synchronize.values(context) if synchronize.values is not None else {}
        on_this = settings.get("onThis", True)
        on_args = settings.get("onArgs") or ()
        if isinstance(on_args, str):
            on_args = (on_args,)
        arguments = tuple((name, values[name]) for name in on_args if values.get(name) is not None)
        if not on_this and not arguments:
            return None
        owner = None
        if on_this:
            owner = method.declaring_type if method.is_static else this.real_this
        return owner, method, arguments

    @staticmethod
    def _canonize(method, args, kwargs, receiver):
        names = list(method.arguments)
        values = {}
        varargs_name = kwargs_name = None
        varargs, extra_kwargs = [], {}
        for name, argument in method.arguments.items():
            if argument.usage == "VarArgs":
                varargs_name, values[name] = name, varargs
            elif argument.usage == "KwArgs":
                kwargs_name, values[name] = name, extra_kwargs
        for index, value in enumerate(args):
            name = names[index] if index < len(names) else None
            if name is None or name in (varargs_name, kwargs_name):
                if varargs_name is None:
                    raise yaql_exceptions.NoMatchingMethodException(method.name, receiver)
                varargs.append(value)
            else:
                values[name] = value
        for name, value in utils.filter_parameters_dict(kwargs).items():
            if name in method.arguments and name not in (varargs_name, kwargs_name):
                values[name] = value
            elif kwargs_name is not None:
                extra_kwargs[name] = value
            else:
                raise yaql_exceptions.NoMatchingMethodException(method.name, receiver)
        if varargs_name is not None:
            values[varargs_name] = tuple(varargs)
        if kwargs_name is not None:
            values[kwargs_name] = utils.FrozenDict(extra_kwargs)
        return values

    # --- static properties ------------------------------------------------------------------

    def get_static_property(self, murano_type, name, context):
        prop = murano_type.find_static_property(name)
        value = self.static_values.get(prop, NO_VALUE)
        if value is NO_VALUE:
            # the reference hands the contract the Default as written: an expression unevaluated,
            # a list or mapping as a list or dict (its violations read ``Value [1, 2]``)
            if prop.spec.default_source is not None:
                value = prop.check_unevaluated_default(_context_type(context))
            elif type(prop.spec.default) is expressions.ConstantDefault and prop.spec.contract is not None:
                value = expressions.thaw(prop.spec.default.value)
        return prop.transform(value, prop.declaring_type, None, _context_type(context))

    def set_static_property(self, murano_type, name, value, context, dry_run=False):
        self.write_static_property(murano_type, name, value, _context_type(context), dry_run)

    def write_static_property(self, murano_type, name, value, calling_type, dry_run=False):
        prop = murano_type.find_static_property(name)
        value = prop.transform(value, prop.declaring_type, None, calling_type)
        if not dry_run:
            if not isinstance(value, (str, int, float, type(None))):
                # the reference finalizes the written value a second time (a template() value
                # fails there); every other contract passes finalized values through
                value = prop.finalize(value, prop.declaring_type, None, calling_type)
            self.static_values[prop] = value

    # --- objects ----------------------------------------------------------------------------

    def load_object(self, data, owner, default_type=None, scope=None, context=None,
                    keep_ids=False):
        """Build an object (and the objects inside it) from object-model data, as ``new()`` and
        class() contracts do: properties set twice (references resolved on the second pass),
        then ``.init`` run dependencies-first."""
        if self.loading is not None:
            return self.loading.load(data, owner, default_type, scope, context)
        session = LoadSession(self, owner, keep_ids)
        self.loading = session
        collecting = gc.isenabled()  # paused as collector_paused() does, without its generator
        gc.disable()
        try:
            try:
                result = session.load_root(data, default_type, scope, context)
            finally:
                self.loading = None
            self._finish_load(session, collecting)
        finally:
            if collecting:
                gc.enable()
        return result

    def new_object(self, murano_type, properties, context, caller_type):
        """``new(Type, name => value, ...)`` from code of ``caller_type`` running in ``context``,
        ``properties`` as the code computed them: what ``load_object`` builds from
        ``{Type: properties}``, built directly when one pass does it (``loads_in_one_pass``) and
        no other load is running; else None. Unless every value is one its property's contract
        is known to accept (``LoadPlan.new_accepted``), the values are thawed in place first
        (``expressions.thaw``), as the reference hands them to contracts."""
        direct = self.loading is None and self.class_configs is None and not self.dry_run
        if direct:
            created = (murano_type.load_plan or load_plan(murano_type)).new_accepted(self, properties, caller_type)
            if created is not None:
                self.objects.add(created)
                return created
        for name, value in properties.items():
            if type(value) not in expressions.SCALARS:
                if type(value) not in _DATA_TYPES:
                    return None  # a lazy value: its code runs inside the load (``load_root``)
                properties[name] = expressions.thaw(value)
        if self.loading is not None or not loads_in_one_pass(murano_type, properties):
            return None
        if direct:
            created = new_directly(self, murano_type, properties, caller_type)
            if created is not None:
                self.objects.add(created)
                return created
        session = self.loading = LoadSession(self, None, False)
        try:
            result = session.load_new(murano_type, properties, context.create_child_context())
        finally:
            self.loading = None
        self._finish_load(session)
        return result

    def _finish_load(self, session, collector_paused=False):
        """Run the load's initialisation steps, then keep the objects they initialised.
        ``collector_paused``: the load paused the garbage collector; it is resumed before the
        first step that runs MuranoPL or constructor code (see ``run_steps``)."""
        run_steps(self, session.steps, collector_paused)
        self.objects.add_all([obj for obj in session.objects.values() if obj.initialized])

    # --- public API -------------------------------------------------------------------------

    def load(self, model):
        """Load an object model (a dict with ``?``, or a document with ``Objects``) as the
        deployment's root; what the model has that the reference ignores goes to ``warnings``."""
        with self.active():
            collecting = gc.isenabled()  # the check leaves no cyclic garbage to collect
            gc.disable()
            try:
                serialization.check_model(self, model)
            finally:
                if collecting:
                    gc.enable()
            if self.objects.by_id:
                for object_id in _defined_ids(model.get("Objects") if "Objects" in model else model):
                    if self.objects.get(object_id) is not None:
                        raise errors.ObjectIdInUse(object_id)
            try:
                root = self.load_document(model)
            except errors.NoObjectFoundError as error:
                raise errors.NoObjectFoundError(
                    error.object_id, serialization.reference_paths(model, error.object_id)) from None
            except errors.MuranoError:
                raise
            except Exception as error:
                # a Python error of a contract (a list contract of lengths only given items)
                # is reported by its type and message, as one raised by a method's code
                raise statements.to_murano_exception(error, sys.exc_info()[2]) from None
            self.root = root
            if model.get("ObjectsCopy"):
                serialization.collect_garbage(self)
            return root

    def load_document(self, model):
        """The objects of a model (``Objects``, ``ObjectsCopy``, ``Attributes`` or a bare
        object), keeping its ids; returns the root object or None."""
        if "Objects" in model or "ObjectsCopy" in model or "Attributes" in model:
            self.attributes_load(model.get("Attributes") or [])
            objects = model.get("Objects")
            root = None if objects is None else self.load_object(objects, None, keep_ids=True)
            if model.get("ObjectsCopy"):
                self.load_object(model["ObjectsCopy"], None, keep_ids=True)
            return root
        return self.load_object(model, None, keep_ids=True)

    def new(self, class_name, **properties):
        with self.active():
            murano_type = self.find_class(class_name)
            return self.load_object({murano_type.reference: properties}, None)

    def call(self, obj, method_name, args=(), kwargs=None):
        """Call a method from outside; errors of native methods become MuranoPL exceptions
        here, as they do when MuranoPL code calls them."""
        for name in kwargs or ():
            if not isinstance(name, str) or not utils.is_keyword(name):
                raise TypeError(f"{name!r} is not an argument name: a MuranoPL argument name is "
                                "letters, digits and _, not starting with a digit or __")
        if _holds_non_finite((args, kwargs)):
            raise ValueError("an argument holds NaN or an infinity, which are no JSON numbers")
        with self.active():
            target = obj.type if isinstance(obj, TypeReference) else obj
            murano_type = target if isinstance(target, MuranoType) else target.type
            method = murano_type.find_single_method(method_name)
            try:
                return on_roomy_stack(self.call_method, method, target, tuple(args),
                                      dict(kwargs or {}))
            except errors.MuranoError:
                raise
            except Exception as error:
                raise statements.to_murano_exception(error, sys.exc_info()[2]) from None

    def attributes_load(self, records):
        for record in records:
            object_id, class_name, name, value = record
            if value is not None:
                self.attributes[(object_id, class_name, name)] = value

    def serialize(self) -> dict:
        with self.active():
            return serialization.serialize_model(self)

    def render(self, value):
        with self.active():
            return serialization.render(value)

    def collect_garbage(self) -> int:
        with self.active():
            return serialization.collect_garbage(self)

    def finish(self) -> int:
        """End the run as the engine does: destroy the objects the model does not keep (those
        only static properties, Runtime properties or finished calls held) and clear static
        properties; returns how many objects were destroyed."""
        with self.active():
            return serialization.finish_run(self)


def call_context_of(parent, data, allows_writes=False):
    """A ``expressions.CallContext`` child of ``parent`` holding ``data`` (a ``WritingCallContext``
    when ``allows_writes``: the data has ``?allowPropertyWrites``)."""
    context = _new_object(WritingCallContext if allows_writes else CallContext)
    context._parent_context = parent
    context._data = data
    return context


_new_object = object.__new__


def on_roomy_stack(function, *args):
    """``function(*args)`` with 64 KiB of CPython's frame stack free above it in one chunk.

    CPython 3.11+ keeps Python frames in 16 KiB chunks and frees a chunk as soon as the frame
    at its start returns, so a recursion whose depth keeps crossing a chunk border maps and
    unmaps memory on every crossing (MuranoPL calls are several Python frames deep: fib(18)
    ran 2.5x slower per call than fib(10)). A frame bigger than a chunk gets a chunk of its
    own, twice its size; this function's code claims a 64 KiB evaluation stack it never uses,
    so the frames of the call run in the other half."""
    return function(*args)


on_roomy_stack.__code__ = on_roomy_stack.__code__.replace(co_stacksize=64 * 1024 // 8 + 1)


def _context_type(context):
    return None if context is None else expressions.lookup(context, _TYPE_KEY)


def _calling_frame(caller_context):
    """The context of the code that made a call: ``caller_context``, or for a call made through
    a Python entry point (``call_method``), the context that made that call."""
    caller = caller_context
    while caller is not None and expressions.lookup(caller, _SKIP_FRAME_KEY):
        caller = expressions.lookup(caller, _CALLER_CONTEXT_KEY)
    return caller


class CallPlan:
    """What every call of one method writes into its call context, worked out once.

    ``parent``: the method's context, a child of its class's type context holding what every
    call shares (the method, its class as type and names scope, and None for the caller's keys
    no call sets), so a call's own context holds only ``$this``, the caller's state and the
    arguments. A MuranoPL body's context is a ``expressions.CallContext``, which makes it the
    variable scope assignments write to;
    ``argument_keys``: the arguments' keys in declaration order; ``positional``: no VarArgs or
    KwArgs; ``synchronize``: the method's Synchronize Meta entry, or None."""

    __slots__ = ("parent", "native", "is_static", "static_this", "argument_keys",
                 "positional", "synchronize")

    def __init__(self, method, type_context):
        declaring_type = method.declaring_type
        self.parent = child_context(type_context, {
            _TYPE_KEY: declaring_type, _NAMES_SCOPE_KEY: declaring_type, _CURRENT_METHOD_KEY: method,
            _CALLER_CONTEXT_KEY: None, _ALLOW_PROPERTY_WRITES_KEY: None, _ARGUMENT_OWNER_KEY: None,
            _SKIP_FRAME_KEY: None})
        self.native = method.native is not None
        self.is_static = method.is_static
        self.static_this = declaring_type.reference
        self.argument_keys = tuple(expressions.stored_key("$" + name) for name in method.arguments)
        self.positional = all(argument.usage not in ("VarArgs", "KwArgs")
                              for argument in method.arguments.values())
        self.synchronize = next((meta for meta in method.spec.meta if meta.type_name == SYNCHRONIZE),
                                None)


class DirectCall:
    """How a method-call site (``fast.MethodCall``) calls the MuranoPL instance method that one
    receiver class resolves, with its arguments evaluated positionally by the caller's body,
    where the body's direct way in (``MethodSpec.direct_entry``) does not apply or turns the
    call away.

    An argument whose value its contract passes unchanged skips the contract (``accepted``:
    per position, the exact types and the condition they must also meet; a literal null is never
    checked, as yaql hands it to the stub as a constant). Outside Parallel branches and without a
    Synchronize meta nothing is locked, so the call context is built here from the caller's keys
    (in its own data for a method body; looked up, as ``Executor.invoke`` does, for a lambda's
    context) and the body runs here; a call through a Python entry point's frame, or anything
    else, takes ``Executor.invoke``. Unlike ``Executor.invoke`` it does not record the caller's
    context: only a native method's context is asked who called it
    (``system.core.caller_context``), and natives never run here."""

    __slots__ = ("method", "arguments", "accepted", "arity", "plan", "executor", "declaring_type",
                 "takes_invoke", "body", "parent")

    def __init__(self, method, literal_nulls=()):
        self.method = method
        self.declaring_type = method.declaring_type
        self.executor = self.declaring_type.executor
        self.arguments = tuple(method.arguments.values())
        self.arity = len(self.arguments)
        self.accepted = tuple(
            (_NULL_ONLY, None) if position < len(literal_nulls) and literal_nulls[position]
            else (argument.accepted_types, argument.accepted_when)
            for position, argument in enumerate(self.arguments))
        self.plan = self.executor.call_plan(method)
        self.takes_invoke = self.plan.synchronize is not None
        self.body = method.spec.body
        self.parent = self.plan.parent

    def call(self, receiver, caller, engine, *values):
        """Call the method on ``receiver`` for code running in ``caller`` (a context, or a
        body's caller token: ``expressions.as_context``)."""
        caller = expressions.as_context(caller)
        for value, (types, when) in zip(values, self.accepted):
            if type(value) not in types or (when is not None and not when(value, None, engine)):
                values = self._checked(receiver, caller, engine, values)
                break
        else:
            if len(values) < self.arity:
                values = self._checked(receiver, caller, engine, values)
        if type(caller) is CallContext:  # a method body's own call context
            allow_writes = caller._data.get(_ALLOW_PROPERTY_WRITES_KEY)
            skip_frame = False
        else:  # a lambda's context, say
            allow_writes = expressions.lookup(caller, _ALLOW_PROPERTY_WRITES_KEY)
            skip_frame = expressions.lookup(caller, _SKIP_FRAME_KEY)
        if self.takes_invoke or skip_frame or (statements.running_parallels and statements.in_parallel_branch()):
            result = self.executor.invoke(self.method, receiver, values, _NO_KEYWORDS, caller)
        elif self.body is None:
            result = None
        else:
            this = receiver if receiver.type is self.declaring_type else receiver.cast(self.declaring_type)
            if this.destroyed:
                raise errors.ObjectDestroyedError(this)
            this = this.real_this
            data = {_THIS_KEY: this, _RECEIVER_KEY: this}
            # the method's context holds None for property writes, so only a caller that
            # allows them adds the key
            if allow_writes is not None:
                data[_ALLOW_PROPERTY_WRITES_KEY] = allow_writes
            data.update(zip(self.plan.argument_keys, values))
            result = self.body(call_context_of(self.parent, data, allow_writes is not None))
        if type(result) is int and _MINUS_SMALL_INT < result < _SMALL_INT:
            return result
        return expressions.quota(engine, result)

    def _checked(self, receiver, context, engine, values):
        """The values with every argument's contract applied that cannot be skipped, and the
        Defaults of missing ones."""
        checked = list(values)
        owner = expressions.lookup(context, _ARGUMENT_OWNER_KEY)
        calling_type = expressions.lookup(context, _TYPE_KEY)
        for position, (argument, (types, when)) in enumerate(zip(self.arguments, self.accepted)):
            if position >= len(values):
                checked.append(argument.transform(NO_VALUE, receiver.real_this, owner, calling_type))
            else:
                value = values[position]
                if types is _NULL_ONLY or (type(value) in types and (
                        when is None or when(value, None, engine))):
                    continue
                checked[position] = argument.transform(value, receiver.real_this, owner, calling_type)
        return checked


_NULL_ONLY = frozenset((type(None),))
_SMALL_INT, _MINUS_SMALL_INT = expressions.SMALL_INT, expressions.MINUS_SMALL_INT


def run_body(method, context):
    """Run a MuranoPL method body in its call context (a body turns Python errors into
    MuranoPL exceptions itself)."""
    body = method.spec.body
    return None if body is None else body(context)


__all__ = ["Executor", "Package"]
