"""Building objects from object-model data, with the reference's two-pass initialisation."""

from __future__ import annotations

from yaql.language import utils

from mplc.runtime import bridge, errors, natives
from mplc.runtime.model import NO_VALUE, MuranoObject, MuranoType, TypeReference


def parse_definition(executor, data, scope, context):
    """(type, properties, header) of ``{'?': {...}, props...}`` or ``{Type: props, name: ...}``.

    With a ``context`` (data that came from code or a contract) values are frozen as yaql
    results are."""
    if type(data) is not dict and not isinstance(data, utils.MappingType):
        return None
    freeze = bridge.finalize if context is not None else _unchanged
    spec = {}
    for key, value in data.items():
        key = freeze(key)
        if (type(key) is not str and isinstance(key, (TypeReference, MuranoType))) or (
                scope is not None and isinstance(key, str) and ":" in key):
            murano_type = executor.find_class(key, scope)
            spec.update((freeze(k), freeze(v)) for k, v in data.items() if freeze(k) != key)
            return murano_type, dict(freeze(value) or {}), spec
        spec[key] = freeze(value)
    header = dict(spec.pop("?", None) or {})
    type_value = header.get("type")
    murano_type = None
    if isinstance(type_value, (TypeReference, MuranoType)):
        murano_type = executor.find_class(type_value)
    elif type_value:
        name, _, rest = str(type_value).partition("/")
        version_text, _, package_name = rest.partition("@")
        murano_type = executor.class_version(name, version_text or header.get("classVersion"),
                                             package_name or header.get("package"))
    return murano_type, spec, header


def _unchanged(value):
    return value


class LoadSession:
    """One object-model load. ``keep_ids``: objects keep the model's ids and ids may name
    objects loaded before (true for ``Executor.load``); otherwise (``new()``, class() contracts)
    every object gets a fresh id and model ids only link objects of this load."""

    def __init__(self, executor, root_owner, keep_ids):
        self.executor = executor
        self.root_owner = root_owner
        self.keep_ids = keep_ids
        self.initializing = False
        self.objects = {}
        self.initializers = []
        self.contexts = {}

    def get(self, object_id):
        found = self.objects.get(object_id)
        if found is None and self.keep_ids:
            found = self.executor.objects.get(object_id)
        return found

    def load_root(self, data, default_type, scope, context):
        if context is not None:
            data = bridge.finalize(data)  # both passes read it: lazy values must survive one
        self.initializing = True
        root = self.load(data, self.root_owner, default_type, scope, context)
        self.initializing = False
        return self.load(data, self.root_owner, default_type, scope, context, root)

    def load(self, data, owner, default_type=None, scope=None, context=None, existing=None):
        """``existing``: the object the first pass built (the root keeps one object, as in the
        reference, so objects created in the first pass are owned by the object that stays)."""
        parsed = parse_definition(self.executor, data, scope, context)
        if parsed is None:
            raise ValueError("Invalid object representation format")
        murano_type, properties, header = parsed
        murano_type = murano_type or (default_type.type if isinstance(default_type, TypeReference)
                                      else default_type)
        if murano_type is None:
            raise ValueError("Invalid object representation: no type information was provided")
        object_id = header.get("id")
        obj = existing if object_id is None else self.get(object_id)
        if obj is None:
            obj = MuranoObject(murano_type, owner, object_id=object_id if self.keep_ids else None,
                               name=header.get("name"), metadata=header.get("metadata"))
            if header.get("destroyed"):
                obj.destroyed = True
            self._restore_destruction_dependencies(obj, header.get("dependencies"))
            self.objects[object_id or obj.object_id] = obj
        object_context = self.object_context(obj) if context is None else context
        properties = utils.filter_parameters_dict(properties)
        self.initializers.extend(self.initialize(obj, object_context, object_context[bridge.TYPE],
                                                 properties, set()))
        return obj

    def _restore_destruction_dependencies(self, obj, dependencies):
        """The header's ``dependencies.onDestruction`` records whose subscriber is already
        built (the reference resolves them when the object is created, dropping the others)."""
        for record in (dependencies or {}).get("onDestruction") or ():
            subscriber = self.get(record.get("subscriber"))
            if subscriber is not None:
                obj.subscribe_destruction(subscriber.real_this, record.get("handler"))

    def object_context(self, target):
        """``Executor.object_context(target)``, one per target for the whole load: loading and
        contracts only read it or derive child contexts from it."""
        context = self.contexts.get(target)
        if context is None:
            context = self.contexts[target] = self.executor.object_context(target)
        return context

    def initialize(self, part, context, caller_type, params, used_names):
        """Set properties (and collect ``.init`` arguments) of one class part, then its parents'.

        ``context`` is the loading code's, of class ``caller_type``; ``.init`` and native
        constructors run in a child of it where property writes are allowed."""
        plan = load_plan(part.type)
        config = self.executor.class_config(part.type)
        for name in plan.config_names:
            part.set_property(name, config.get(name, NO_VALUE), dry_run=part.initialized)
        init = plan.init
        init_arguments = {}
        caller_view = part.caller_view(caller_type)
        remaining = len(plan.entries)
        while True:
            failures = 0
            for name, spec, is_init_argument, source in plan.entries:
                if name in used_names:
                    continue
                if source is _SKIPPED:
                    used_names.add(name)
                    continue
                value = NO_VALUE if source is _DEFAULT else params.get(name, NO_VALUE)
                if value is NO_VALUE and not is_init_argument:
                    value = config.get(name, NO_VALUE)
                try:
                    if is_init_argument:
                        init_arguments[name] = value
                    else:
                        part.write_property(name, value, caller_view, True, dry_run=part.initialized)
                    used_names.add(name)
                except errors.UninitializedPropertyAccessError:
                    failures += 1
                except errors.ContractViolationException:
                    if spec.usage != "Runtime":
                        raise
            if not failures:
                break
            if failures >= remaining:
                raise errors.CircularExpressionDependenciesError()
            remaining = failures
        result = []
        runs_init = not (self.initializing or self.executor.dry_run or part.initialized
                         or part.destroyed)
        if runs_init:
            init_context = context.create_child_context()
            init_context[bridge.ALLOW_PROPERTY_WRITES] = True
            construct = natives.constructor(part, params, init_context)
            if construct is not None:
                result.append(construct)
        for parent in part.parents.values():
            result.extend(self.initialize(parent, context, caller_type, params, used_names))
        if runs_init:
            result.append(lambda: self._run_init(part, init, init_arguments, init_context))
        return result

    def _run_init(self, part, init, arguments, context):
        if init is not None:
            context[bridge.ARGUMENT_OWNER] = part.real_this
            self.executor.call_method(init, part.real_this.cast(init.declaring_type), (), arguments,
                                      context.create_child_context())
        part.initialized = True


_SKIPPED, _DEFAULT, _MODEL = "skipped", "default", "model"


class LoadPlan:
    """What loading sets on a part of one class: its Config properties, and per property or
    ``.init`` argument (declaration order) where the value comes from."""

    __slots__ = ("config_names", "init", "entries")

    def __init__(self, murano_type):
        properties = murano_type.properties
        self.config_names = [name for name, prop in properties.items() if prop.usage == "Config"]
        self.init = init = murano_type.methods.get(".init")
        names = list(properties)
        if init is not None:
            names += [name for name in init.arguments if name not in properties]
        self.entries = []
        for name in names:
            is_init_argument = init is not None and name in init.arguments
            spec = init.arguments[name] if is_init_argument else properties[name]
            if spec.usage in ("Config", "Static") or (
                    spec.usage == "Runtime" and not spec.spec.has_default):
                source = _SKIPPED
            elif spec.usage == "Runtime":
                source = _DEFAULT
            else:
                source = _MODEL
            self.entries.append((name, spec, is_init_argument, source))


def load_plan(murano_type) -> LoadPlan:
    """The type's LoadPlan, built on first use (a type's members are fixed once it is built)."""
    plan = murano_type.load_plan
    if plan is None:
        plan = murano_type.load_plan = LoadPlan(murano_type)
    return plan
