"""Building objects from object-model data, with the reference's two-pass initialisation."""

from __future__ import annotations

import contextlib
import gc

from yaql.language import exceptions as yaql_exceptions
from yaql.language import utils

from mplc.runtime import expressions, errors, natives
from mplc.runtime.statements import detached_call, to_murano_exception
from mplc.runtime.objects import NO_VALUE, MuranoObject, MuranoType, TypeReference, apply_contract, part_chain
from mplc.runtime.value_types import SCALARS
from mplc.runtime.yaql_adapter import frozen_dict_items


def parse_definition(executor, data, scope, frozen, model_classes=None):
    """(type, properties, header) of ``{'?': {...}, props...}`` or ``{Type: props, name: ...}``.

    Unless ``frozen`` (data from a model, or already finalized), values are frozen as yaql
    results are: data that came from code or a contract. ``model_classes``: a memo of the
    classes header types name, for one load."""
    if type(data) is not dict and not isinstance(data, utils.MappingType):
        return None
    freeze = _unchanged if frozen else expressions.finalize
    spec = {}
    header = None
    data = _plain(data)
    for key, value in data.items():
        if type(key) is str:
            names_class = scope is not None and ":" in key
        else:
            key = freeze(key)
            names_class = isinstance(key, (TypeReference, MuranoType)) or (
                scope is not None and isinstance(key, str) and ":" in key)
        if names_class:
            murano_type = executor.find_class(key, scope)
            spec.update((freeze(k), freeze(v)) for k, v in data.items() if freeze(k) != key)
            return murano_type, dict(_plain(freeze(value)) or {}), spec
        if key == "?":
            header = value
        else:
            spec[key] = value if type(value) in SCALARS else freeze(value)
    if frozen or type(header) is not dict:
        header = dict(_plain(freeze(header)) or {})
    elif SCALARS.issuperset(map(type, header.values())) and SCALARS.issuperset(
            map(type, header)):
        header = dict(header)  # nothing to freeze (the common header: type and id)
    else:
        header = {key if type(key) is str else freeze(key):
                  value if type(value) in SCALARS else freeze(value)
                  for key, value in header.items()}
    type_value = header.get("type")
    murano_type = None
    if type(type_value) is not str and isinstance(type_value, (TypeReference, MuranoType)):
        murano_type = executor.find_class(type_value)
    elif type_value:
        type_text, class_version, package = (
            str(type_value), header_text(header.get("classVersion")), header_text(header.get("package")))
        class_key = (type_text, class_version, package)
        murano_type = None if model_classes is None else model_classes.get(class_key)
        if murano_type is None:
            name, _, rest = type_text.partition("/")
            version_text, _, package_name = rest.partition("@")
            murano_type = executor.class_version(name, version_text or class_version,
                                                 package_name or package)
            if model_classes is not None:
                model_classes[class_key] = murano_type
    return murano_type, spec, header


def header_text(value):
    """A header's ``classVersion`` or ``package`` as the reference reads it: text as it is, a
    false value (``0``, ``''``) as none given, another value as ``str()`` writes it (``1`` the
    version spec ``1``, ``[1]`` no spec at all)."""
    if type(value) is str or value is None:
        return value
    return str(value) if value else None


_CURRENT_METHOD_KEY = expressions.stored_key(expressions.CURRENT_METHOD)


def _all_mappings(items) -> bool:
    return all(type(item) is dict for item in items)


def loads_in_one_pass(murano_type, properties) -> bool:
    """Whether the second pass of a load of ``murano_type`` from ``properties`` would change
    nothing: every property of the class hierarchy is ``value_only`` and no value given holds
    a mapping."""
    return (load_plan(murano_type).hierarchy_value_only()
            and not any(map(_holds_mapping, properties.values())))


def _holds_mapping(value) -> bool:
    """Whether a property value is or holds a mapping (which a class() contract would load)."""
    value_type = type(value)
    if value_type in _NEVER_MAPPINGS:
        return False
    if value_type is tuple or value_type is list:
        return any(map(_holds_mapping, value))
    return isinstance(value, utils.MappingType)


_NEVER_MAPPINGS = SCALARS | {MuranoObject}


def _plain(mapping):
    """A FrozenDict's own dict (iterating the Mapping ABC costs Python calls per item); any
    other value as it is."""
    return frozen_dict_items(mapping) if type(mapping) is utils.FrozenDict else mapping


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
        self.needs_second_pass = False
        self.loading_root = False
        self.first_pass_steps = None  # where the steps of a first pass still running start
        self.objects = {}
        self.steps = []
        self.contexts = {}
        self.parsed = {}
        self.model_classes = {}
        self.configs = {}
        self.keywords = set()  # property names of this load's data known to be keywords
        self.usual_keys = {"?"}  # the keywords and ?: the keys of a usual object (``_parse_usual``)
        self.direct_loads = {}  # (class, caller class) -> (direct_writes, hierarchy_value_only, whole_chain)

    def get(self, object_id):
        found = self.objects.get(object_id)
        if found is None and self.keep_ids:
            found = self.executor.objects.get(object_id)
        return found

    def load_root(self, data, default_type, scope, context):
        """The two passes of the reference (the first builds the objects, the second sets their
        properties again, references resolved, and collects the initialisation steps), the
        second only when it could change something.

        The first pass collects the steps too, and notes (``needs_second_pass``) when it reads
        what the second reads differently (an id not loaded yet, a template() placeholder:
        whatever asks ``ContractContext.initializing``) or loads an object of a class not
        ``value_only`` throughout (a Default or contract that reads more than the value). Else
        the second pass would write every property again with the value it has: it is skipped.

        A load of data owned by the root owner while this load runs (``new()`` without owner in
        a Default, a lazy argument of ``new()``) is a root load too, as in the reference's load
        store: it runs both passes, then every step collected so far (again for those that ran
        already), before it returns; the load around it is then no longer in its first pass,
        and keeps the steps it collects from there on."""
        nested = self.loading_root
        self.loading_root = True
        caller_type = None
        if context is not None:
            # both passes read it: lazy values must survive one; their code (a new() of a lazy
            # argument) runs inside this load, before its first pass
            data = expressions.thaw(data)
            caller_type = expressions.lookup(context, expressions.TYPE_KEY)
        steps = self.steps
        if self.first_pass_steps is not None:
            del steps[self.first_pass_steps:]
        self.initializing = True
        self.needs_second_pass = False
        self.first_pass_steps = len(steps)
        root = self._load(data, self.root_owner, default_type, scope, context, caller_type, True)
        self.initializing = False
        if self.needs_second_pass:
            if self.first_pass_steps is not None:
                del steps[self.first_pass_steps:]
                self.first_pass_steps = None
            root = self._load(data, self.root_owner, default_type, scope, context, caller_type, True, root)
        self.first_pass_steps = None
        if nested:
            self.needs_second_pass = True  # the steps the outer first pass collected are gone
            executor = self.executor
            executor.loading = None
            try:
                run_steps(executor, list(steps))
            finally:
                executor.loading = self
            return root
        self.parsed.clear()  # freed now, while the executor holds the collector off
        self.contexts.clear()
        return root

    def _load(self, data, owner, default_type, scope, context, caller_type, frozen, existing=None):
        """``load`` of data that is ``frozen`` (from a model, or finalized already), by code of
        class ``caller_type`` running in ``context`` (None for a model's object)."""
        murano_type, properties, header = self.parse(data, scope, frozen)
        murano_type = murano_type or (default_type.type if isinstance(default_type, TypeReference)
                                      else default_type)
        if murano_type is None:
            raise ValueError("Invalid object representation: no type information was provided")
        if self.initializing and not (murano_type.load_plan or load_plan(murano_type)).hierarchy_value_only():
            self.needs_second_pass = True
        object_id = header.get("id")
        obj = existing if object_id is None else self.get(object_id)
        if obj is None:
            obj = self._new_object(murano_type, owner, header, object_id)
        if context is None:
            caller_type = obj.type
            context = _ObjectContextOf(self, obj)
        self._initialize_object(obj, context, caller_type, properties)
        return obj

    def _new_object(self, murano_type, owner, header, object_id, whole=None):
        """A new object of the load as its parsed ``header`` describes it (its name and metadata
        as plain data, which a class() contract has frozen, as the serialized model writes them:
        the reference takes any value for either).
        ``whole``: the ``_whole_chain`` of an object ``direct_writes`` builds, not destroyed:
        made as ``MuranoObject.loaded_whole``."""
        name, metadata = header.get("name"), header.get("metadata")
        if type(name) is not str and name is not None:
            name = expressions.thaw(name)
        if metadata is not None:
            metadata = expressions.thaw(metadata)
        if whole is not None:
            obj = MuranoObject.loaded_whole(murano_type, owner, object_id if self.keep_ids else None,
                                            name, metadata, whole[0])
        else:
            obj = MuranoObject(murano_type, owner, object_id if self.keep_ids else None, name,
                               metadata)
        if header.get("destroyed"):
            obj.destroyed = True
        dependencies = header.get("dependencies")
        if dependencies:
            self._restore_destruction_dependencies(obj, dependencies)
        self.objects[object_id or obj.object_id] = obj
        return obj

    def load_for_contract(self, data, default_type, cc, context=None):
        """``load`` of a mapping given to a class() contract checked in ``cc`` while this load
        runs (by code of ``context``'s class when given). A new object whose load is only
        property writes (``direct_writes``) is built here in one step: parsed (without
        ``parse``'s cache: a second pass parses it again), created, its properties written, its
        initialisation step queued."""
        executor = self.executor
        if context is not None or cc.owner is self.root_owner:
            return self.load(data, cc.owner, default_type, cc.calling_type, context or cc.context)
        if type(data) is not dict or executor.dry_run or executor.class_configs is not None:
            return self.load(data, cc.owner, default_type, cc.calling_type, cc.context)
        scope = cc.calling_type
        parsed = self._parse_usual(data) or self._parse(data, scope, False)
        murano_type, properties, header = parsed
        murano_type = murano_type or (default_type.type if isinstance(default_type, TypeReference)
                                      else default_type)
        object_id = header.get("id")
        if murano_type is not None and not header.get("destroyed") and (
                object_id is None or self.get(object_id) is None):
            caller_type = cc.scope  # the type the contract's code context has
            groups, value_only, whole = self.direct_loads.get((murano_type, caller_type)) or self._direct_load(
                murano_type, caller_type)
            if groups is not None:
                if self.initializing and not value_only:
                    self.needs_second_pass = True
                obj = self._new_object(murano_type, cc.owner, header, object_id, whole)
                write_directly(obj, groups, properties, caller_type, self)
                self.add_whole_object(obj)
                return obj
        self.parsed[id(data)] = (data, scope, False, *parsed)
        return self.load(data, cc.owner, default_type, scope, cc.context)

    def load_owned(self, prop, items, owner, caller_type):
        """``prop.transform(items, owner, owner, caller_type)`` for a list of mappings under a
        list of one class() contract (``object_contract``), as a model holds its objects'
        children: an item ``load_for_contract`` would build directly, of a class the contract
        has passed (its verdict depends on the class alone), is built here without running the
        contract; any other item is checked by the contract on its own (the list contract of
        one item spec checks each item alone), its error located at the item's index."""
        declaring_type = prop.declaring_type
        accepted = prop.accepted_classes
        loaded = self.objects
        kept = self.executor.objects.by_id if self.keep_ids else {}
        last_type = groups = value_only = whole = None
        objects = []
        try:
            for index, item in enumerate(items):
                parsed = self._parse_usual(item) if type(item) is dict else None
                if parsed is not None and parsed[0] in accepted:
                    murano_type, properties, header = parsed
                    if murano_type is not last_type:
                        last_type = murano_type
                        groups, value_only, whole = self.direct_loads.get((murano_type, declaring_type)) or (
                            self._direct_load(murano_type, declaring_type))
                    object_id = header.get("id")
                    if groups is not None and not header.get("destroyed") and (
                            object_id is None or (object_id not in loaded and object_id not in kept)):
                        if self.initializing and not value_only:
                            self.needs_second_pass = True
                        obj = self._new_object(murano_type, owner, header, object_id, whole)
                        try:
                            write_directly(obj, groups, properties, declaring_type, self)
                        except errors.ContractViolationException as error:
                            if error.path is not None:
                                error.path = f"[{index}]{error.path}"
                            raise
                        self.add_whole_object(obj)
                        objects.append(obj)
                        continue
                try:
                    checked = apply_contract(prop.spec, declaring_type, [item], owner, owner, caller_type)[0]
                except errors.ContractViolationException as error:
                    if error.path is not None:
                        error.path = f"[{index}]{error.path.removeprefix('[0]')}"
                    raise
                if type(checked) is MuranoObject:
                    accepted.add(checked.type)
                objects.append(checked)
        except errors.ContractViolationException as error:
            raise prop.violation(error) from error
        return tuple(objects)

    def _direct_load(self, murano_type, caller_type):
        """``direct_loads[murano_type, caller_type]``, made."""
        plan = murano_type.load_plan or load_plan(murano_type)
        groups = plan.direct_writes(caller_type)
        direct = self.direct_loads[murano_type, caller_type] = (
            groups, plan.hierarchy_value_only(), None if groups is None else plan.whole_chain())
        return direct

    def add_whole_object(self, obj):
        """Queue the initialisation of an object ``direct_writes`` built: consecutive ones
        share one ``_WholeObjects`` step."""
        steps = self.steps
        if steps and type(steps[-1]) is _WholeObjects:
            steps[-1].append(obj)
        else:
            steps.append(_WholeObjects((obj,)))

    def load_new(self, murano_type, properties, context):
        """``new(Type, name => value, ...)`` run in ``context``: a fresh object of ``murano_type``
        with no header, its properties from ``properties`` (finalized keyword values), for
        which ``loads_in_one_pass`` holds: ``_load`` without data to parse."""
        obj = MuranoObject(murano_type, self.root_owner)
        self.objects[obj.object_id] = obj
        self._initialize_object(obj, context, expressions.lookup(context, expressions.TYPE_KEY), properties)
        return obj

    def _initialize_object(self, obj, context, caller_type, properties):
        """``initialize`` a whole object (a new one: directly when ``direct_writes`` allows)."""
        executor = self.executor
        if not (obj.initialized or obj.destroyed or executor.dry_run) and executor.class_configs is None:
            groups = (obj.type.load_plan or load_plan(obj.type)).direct_writes(caller_type)
            if groups is not None:
                write_directly(obj, groups, properties, caller_type, self)
                self.add_whole_object(obj)
                return
        # steps go straight to the session's list, as the reference's initializers do: a
        # nested load's steps land between the parts' steps (diamond: see ``initialize``)
        self.initialize(obj, context, caller_type, properties, set(), self.steps)

    def load(self, data, owner, default_type=None, scope=None, context=None):
        """A load nested in this one (``new()``, a class() contract): a root load of its own
        when ``owner`` is this load's root owner (see ``load_root``)."""
        if owner is self.root_owner:
            return self.load_root(data, default_type, scope, context)
        caller_type = None if context is None else expressions.lookup(context, expressions.TYPE_KEY)
        return self._load(data, owner, default_type, scope, context, caller_type, context is None)

    def parse(self, data, scope, frozen):
        """``parse_definition`` with the properties filtered to keywords, once per data mapping
        for both passes (nothing changes a model's data between them)."""
        found = self.parsed.get(id(data))
        if found is None or found[0] is not data or found[1] is not scope or found[2] is not frozen:
            found = self.parsed[id(data)] = (data, scope, frozen, *self._parse(data, scope, frozen))
        return found[3:]

    def _parse_usual(self, data):
        """``_parse(data, scope, False)`` of the usual object of a model, else None: property
        names this load has met as keywords, a header of text fields (the header itself is
        returned, not a copy: loading only reads it) naming a class this load has resolved
        without classVersion or package."""
        header = data.get("?")
        if type(header) is not dict or "classVersion" in header or "package" in header or not (
                SCALARS.issuperset(map(type, header.values()))
                and SCALARS.issuperset(map(type, header))):
            return None
        murano_type = self.model_classes.get((header.get("type"), None, None))
        if murano_type is None or not self.usual_keys.issuperset(data):
            return None
        properties = dict(data)
        del properties["?"]
        if not SCALARS.issuperset(map(type, properties.values())):
            owned_lists = (murano_type.load_plan or load_plan(murano_type)).owned_lists()
            for key, value in properties.items():
                if type(value) not in SCALARS and not (
                        key in owned_lists and type(value) is list and _all_mappings(value)):
                    properties[key] = expressions.finalize(value)
        return murano_type, properties, header

    def _parse(self, data, scope, frozen):
        """``parse_definition`` of ``data``, its properties filtered to keywords."""
        parsed = parse_definition(self.executor, data, scope, frozen, self.model_classes)
        if parsed is None:
            raise ValueError("Invalid object representation format")
        murano_type, properties, header = parsed
        keywords = self.keywords
        if not keywords.issuperset(properties):
            properties = utils.filter_parameters_dict(properties)
            keywords.update(properties)
            self.usual_keys.update(properties)
        return murano_type, properties, header

    def _restore_destruction_dependencies(self, obj, dependencies):
        """The header's ``dependencies.onDestruction`` records whose subscriber is already
        built (the reference resolves them when the object is created, dropping the others)."""
        for record in dependencies.get("onDestruction") or ():
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

    def initialize(self, part, context, caller_type, params, used_names, steps):
        """Set properties (and collect ``.init`` arguments) of one class part, then its parents';
        append to ``steps`` what runs once the load is done (see ``run_steps``).

        ``context`` is the loading code's, of class ``caller_type`` (an ``_ObjectContextOf``
        for a model's object, built when first needed); ``.init`` and native constructors
        that take it run in a child of it where property writes are allowed."""
        if not used_names:
            # the reference's ``used_names or set()``: a part handed an empty set (its class and
            # the classes below it declare no property or .init argument) starts its own, so a
            # second path to a shared ancestor (diamond) sets the ancestor's properties again
            used_names = set()
        murano_type = part.type
        plan = murano_type.load_plan or load_plan(murano_type)
        config = self.configs.get(murano_type)
        if config is None:
            config = self.configs[murano_type] = self.executor.class_config(murano_type)
        init = plan.init
        init_arguments = {}
        try:
            for name in plan.config_names:
                part.set_property(name, config.get(name, NO_VALUE), dry_run=part.initialized)
                _check_data_kept(part)
            if plan.entries:
                self._set_properties(part, plan, caller_type, params, config, used_names,
                                     init_arguments)
        except errors.MuranoPlException as error:
            if type(error.original) is StopIteration:
                raise _generator_stopped(error) from None
            raise
        # whether a step is due is asked where the reference asks it, after the code that may
        # have run it (a Default whose new() runs a root load's steps: see ``load_root``)
        dry_run = self.executor.dry_run
        init_context = None
        if plan.native_class is not None and not (part.initialized or part.destroyed or dry_run):
            init_context = _init_context(plan, context)
            construct = natives.constructor(part, params, init_context)
            if construct is not None:
                steps.append(construct)
        for parent in part.parents.values():
            self.initialize(parent, context, caller_type, params, used_names, steps)
        if not (part.initialized or part.destroyed or dry_run):
            if init is None:
                steps.append(part)
            else:
                if init_context is None:
                    init_context = _init_context(plan, context)
                steps.append((part, init, init_arguments, init_context, _detached(context)))

    def _set_properties(self, part, plan, caller_type, params, config, used_names, init_arguments):
        """Write the part's properties from ``params`` (else Config, else Default), retrying
        those whose Default reads a property not set yet."""
        caller_view = plan.caller_view(part, caller_type)
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
                    elif _data_cleared(part):
                        _write_into_cleared_data(part, name, value, caller_view)
                    else:
                        part.write_property(name, value, caller_view, True, dry_run=part.initialized)
                    used_names.add(name)
                except (errors.UninitializedPropertyAccessError, errors.MuranoPlException) as error:
                    if not _reads_unset_property(error):
                        raise
                    failures += 1
                except errors.ContractViolationException:
                    if spec.usage != "Runtime":
                        raise
            if not failures:
                return
            if failures >= remaining:
                raise errors.CircularExpressionDependenciesError()
            remaining = failures


def _detached(context) -> bool:
    """Whether code of the load running in ``context`` runs outside any method (a model's load,
    a Default, a class() contract): the reference's ``.init`` of its objects then runs cut from
    the callers' frames (``flow.detached_call``)."""
    return type(context) is _ObjectContextOf or expressions.lookup(context, _CURRENT_METHOD_KEY) is None


def _init_context(plan, context):
    """The context ``.init`` and a native constructor that take one run in: a child of the
    loading code's where property writes are allowed."""
    if not plan.init_takes_context:
        return None
    init_context = _resolved(context).create_child_context()
    init_context[expressions.ALLOW_PROPERTY_WRITES] = True
    return init_context


def _data_cleared(part) -> bool:
    """Whether the reference has dropped the part's data: a model's object whose header says
    ``destroyed: true`` is marked destroyed before its properties are set, which clears the data
    of an object not initialised yet."""
    return part.real_this.destroyed and not part.initialized


def _write_into_cleared_data(part, name, value, caller_view):
    """A property write into a part whose data the reference dropped (``_data_cleared``): the
    reference's marking detached the object's class parts, so the value is checked against the
    declarations of the part's own class alone (the object's other parents declaring the name
    too make it no ambiguity), then the write fails as ``_check_data_kept`` says; a Static
    property is written as any other first."""
    ultimate, declared = part.type.property_writes(name)
    if ultimate.usage == "Static":
        part.write_property(name, value, caller_view, True, dry_run=part.initialized)
    else:
        caller_type = caller_view[1]
        for prop in declared:
            if prop is not ultimate:
                prop.validate(value, part, part, caller_type)
        ultimate.transform(value, part, part, caller_type)
    _check_data_kept(part)


def _check_data_kept(part):
    """After a property write checked its value: the reference's write into a part whose data it
    dropped (``_data_cleared``) fails with this TypeError."""
    if _data_cleared(part):
        raise TypeError("'NoneType' object does not support item assignment")


def _reads_unset_property(error) -> bool:
    """Whether a property write failed on reading a property not set yet (as such, or as the
    MuranoPL exception a Default expression's code turned it into): the load retries it."""
    if isinstance(error, errors.UninitializedPropertyAccessError):
        return True
    return isinstance(error, errors.MuranoPlException) and isinstance(
        error.original, errors.UninitializedPropertyAccessError)


def _generator_stopped(error):
    """The reference sets properties inside a generator: a StopIteration escaping a Default
    or a contract (``first()`` of an empty list) ends it, and Python turns that into
    RuntimeError (PEP 479), the error MuranoPL code then sees."""
    stopped = RuntimeError("generator raised StopIteration")
    return to_murano_exception(stopped, error.__traceback__)


def built_data(build):
    """``build()``, the code building a list or dict of MuranoPL data (a statement's value)
    holding expressions. The reference builds those with generator expressions: a StopIteration
    escaping one of its expressions (``first()`` of an empty list) becomes RuntimeError."""
    try:
        return build()
    except errors.MuranoPlException as error:
        if type(error.original) is StopIteration:
            raise _generator_stopped(error) from None
        raise
    except StopIteration as error:  # from inline expression code
        raise _generator_stopped(error) from None
    except yaql_exceptions.WrappedException as error:
        if type(error.wrapped) is StopIteration:
            raise _generator_stopped(error) from None
        raise


def run_steps(executor, steps, collector_paused=False):
    """Initialisation steps: a native constructor (a callable); a part without ``.init``,
    marked initialised; a ``_WholeObjects``; ``(part, .init, arguments, context)``, run then
    marked. ``collector_paused``: resume the garbage collector before the first step running
    code that may leave garbage (``.init``, a native constructor); until then the steps only
    add to the objects the load built."""
    for step in steps:
        step_type = type(step)
        if step_type is MuranoObject:
            step.initialized = True
        elif step_type is _WholeObjects:
            step(executor)
        else:
            if collector_paused:
                gc.enable()
                collector_paused = False
            if step_type is tuple:
                part, init, arguments, context, detached = step
                context[expressions.ARGUMENT_OWNER] = part.real_this
                this = part.real_this.cast(init.declaring_type)
                if detached:
                    detached_call(executor.call_method, init, this, (), arguments, context.create_child_context())
                else:
                    executor.call_method(init, this, (), arguments, context.create_child_context())
                part.initialized = True
            else:
                step()


class _ObjectContextOf:
    """The context of a model's object, built on first use: most objects of a model have
    neither ``.init`` nor a native constructor taking it."""

    __slots__ = ("session", "target")

    def __init__(self, session, target):
        self.session = session
        self.target = target


def _resolved(context):
    if type(context) is _ObjectContextOf:
        return context.session.object_context(context.target)
    return context


_SKIPPED, _DEFAULT, _MODEL = "skipped", "default", "model"


class LoadPlan:
    """What loading sets on a part of one class: its Config properties, and per property or
    ``.init`` argument (declaration order) where the value comes from."""

    __slots__ = ("murano_type", "config_names", "init", "entries", "init_takes_context", "native_class",
                 "caller_views", "value_only", "_hierarchy_value_only", "_direct_writes", "_accepted_writes",
                 "_whole", "_owned_lists")

    def __init__(self, murano_type):
        properties = murano_type.properties
        self.murano_type = murano_type
        self.value_only = all(prop.spec.value_only for prop in properties.values())
        self._hierarchy_value_only = None
        self.native_class = native_class = murano_type.native_class
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
        self.init_takes_context = init is not None or (
            native_class is not None and native_class.constructor is not None)
        self.caller_views = {}
        self._direct_writes = {}
        self._accepted_writes = {}
        self._whole = NO_VALUE
        self._owned_lists = None

    def hierarchy_value_only(self) -> bool:
        """Whether every property of the class and its ancestors is ``value_only``."""
        if self._hierarchy_value_only is None:
            self._hierarchy_value_only = self.value_only and all(
                load_plan(ancestor).value_only for ancestor in self.murano_type.ancestors())
        return self._hierarchy_value_only

    def caller_view(self, part, caller_type):
        """``part.caller_view(caller_type)``, once per caller class and object class."""
        key = (caller_type, part.real_this.type)
        view = self.caller_views.get(key)
        if view is None:
            view = self.caller_views[key] = part.caller_view(caller_type)
        return view

    def owned_lists(self) -> frozenset:
        """Names of the properties that take a list of object mappings from a class() contract's
        load as it is, not frozen (``LoadSession._parse_usual``): their one declaration in the
        hierarchy is a model property whose contract is a list of class() (it builds objects of
        the mappings either way), and no class of the hierarchy has ``.init`` or a native
        constructor (which could take the list as it is)."""
        if self._owned_lists is None:
            murano_type = self.murano_type
            types = (murano_type, *murano_type.ancestors())
            names = ()
            if not any(load_plan(part_type).init_takes_context for part_type in types):
                names = [name for part_type in types
                         for name, spec, is_init_argument, source in load_plan(part_type).entries
                         if source is _MODEL and not is_init_argument and spec.object_contract is True
                         and len(murano_type.declarations(name)) == 1]
            self._owned_lists = frozenset(names)
        return self._owned_lists

    def whole_chain(self):
        """``_whole_chain(self.murano_type)``, once."""
        whole = self._whole
        if whole is NO_VALUE:
            whole = self._whole = _whole_chain(self.murano_type)
        return whole

    def direct_writes(self, caller_type):
        """``direct_writes(self.murano_type, caller_type)``, once per caller class."""
        try:
            return self._direct_writes[caller_type]
        except KeyError:
            writes = self._direct_writes[caller_type] = direct_writes(self.murano_type, caller_type)
            return writes

    def new_accepted(self, executor, properties, caller_type):
        """``new()`` of the class by code of ``caller_type`` (``new_directly`` applies) when
        every property it writes is given a value its contract is known to pass as it is
        (``MuranoProperty.accepted_value``) or is missing with a checked Default: the object,
        its properties set without running a contract, initialised; else None."""
        try:
            writes = self._accepted_writes[caller_type]
        except KeyError:
            writes = self._accepted_writes[caller_type] = self._writes_without_code(caller_type)
        if writes is None:
            return None
        values = {}
        for prop in writes:
            name = prop.name
            value = properties.get(name, NO_VALUE)
            if value is NO_VALUE:
                value = prop.checked_default
            elif type(value) not in prop.accepted_types:
                value = prop.accepted_value(value)
            if value is NO_VALUE:
                return None
            values[name] = value
        whole = self._whole
        if whole is NO_VALUE:
            whole = self._whole = _whole_chain(self.murano_type)
        if whole is not None:
            return MuranoObject.built_whole(self.murano_type, values, whole[0])
        obj = MuranoObject(self.murano_type, None)
        obj.properties = values
        initialize_whole(obj, executor)
        return obj

    def accepted_new(self, reference, caller_type, names):
        """An ``AcceptedNew`` for ``new()`` of the class (``reference``) by code of
        ``caller_type`` giving properties ``names`` (in order), when ``new_accepted`` applies
        and builds the object whole; else None."""
        try:
            writes = self._accepted_writes[caller_type]
        except KeyError:
            writes = self._accepted_writes[caller_type] = self._writes_without_code(caller_type)
        whole = self._whole
        if whole is NO_VALUE:
            whole = self._whole = _whole_chain(self.murano_type)
        if writes is None or whole is None:
            return None
        positions = {name: position for position, name in enumerate(names)}
        sources = tuple((prop.name, prop, positions.get(prop.name, -1)) for prop in writes)
        return AcceptedNew(reference, caller_type, sources, whole[0], len(names))

    def _writes_without_code(self, caller_type):
        """The properties ``direct_writes`` writes, in order, when every class of the hierarchy
        is ``value_only``; else None."""
        groups = self.direct_writes(caller_type)
        if groups is None or not self.hierarchy_value_only():
            return None
        return tuple(prop for _, writes in groups for prop in writes)


class AcceptedNew:
    """What ``new()`` of one class by code of one class at one call site (the property names it
    gives, in order) needs to build the object as ``LoadPlan.new_accepted`` does, worked out
    once (``fast.NewObject`` builds it). ``sources``: per property written, in order, (name,
    ``MuranoProperty``, position of its value among the site's, or -1 for its Default);
    ``given``: those with a value, in the same order, as (name, position, accepted types,
    ``MuranoProperty``); ``template``: None, or (once every Default written has its
    ``checked_default``) every property written in order, the Defaults' values set, which a new
    object's properties copy; ``extension``: the objects' native state
    (``MuranoObject.built_whole``); ``covers_values``: every value the site gives is written,
    once (each is quota-checked as it is written)."""

    __slots__ = ("reference", "murano_type", "caller_type", "sources", "given", "template", "extension",
                 "covers_values")

    def __init__(self, reference, caller_type, sources, extension, value_count):
        self.reference = reference
        self.murano_type = reference.type
        self.caller_type = caller_type
        self.sources = sources
        self.given = tuple((name, position, prop.accepted_types, prop)
                           for name, prop, position in sources if position >= 0)
        self.template = None
        self.extension = extension
        self.covers_values = sorted(position for _, _, position in sources if position >= 0) == list(
            range(value_count))

    def filled_template(self):
        """``template``, made once every Default written has been checked (a Default's first
        use runs its contract; ``checked_default`` never changes once set); else None."""
        template = {}
        for name, prop, position in self.sources:
            if position < 0:
                if prop.checked_default is NO_VALUE:
                    return None
                template[name] = prop.checked_default
            else:
                template[name] = None
        self.template = template
        return template


class _NotDirect(Exception):
    """Building the object takes more than writing its properties."""


def direct_writes(murano_type, caller_type):
    """What loading an object of ``murano_type`` from a mapping, by code of ``caller_type``,
    does to a new object when that is only writing its properties: no class of the hierarchy
    has ``.init``, a native constructor or Config properties, none has a Runtime property with
    a Default (whose contract failures a load ignores), every property written is declared
    once, by a class the caller sees it through, no class with properties is reached twice
    (a diamond's shared part is set once per path when the parts below declare nothing, see
    ``initialize``). Per class part, in ``initialize``'s order:
    (how many entries its load plan has, the ``MuranoProperty`` of each property it writes);
    None when more is done. Config files are ruled out by the caller."""
    types = (murano_type, *murano_type.ancestors())
    if len({part_type.name for part_type in types}) != len(types):
        return None  # parts are shared by class name: one name, two versions
    for part_type in types:
        plan = load_plan(part_type)
        native_class = plan.native_class
        if plan.init is not None or plan.config_names or (
                native_class is not None and native_class.constructor is not None):
            return None
    groups = []
    written_names = set()
    visited = set()

    def visit(part_type):
        if part_type in visited:
            if any(load_plan(shared).entries for shared in (part_type, *part_type.ancestors())):
                raise _NotDirect  # a diamond: the shared part may be set once per path
            return
        visited.add(part_type)
        derived = caller_type is not None and caller_type.is_compatible(part_type)
        start_type = caller_type if derived else murano_type
        entries = load_plan(part_type).entries
        writes = []
        for name, spec, is_init_argument, source in entries:
            if name in written_names:
                continue
            written_names.add(name)
            if source is _SKIPPED:
                continue
            if source is not _MODEL or not start_type.find_properties(name) or len(
                    murano_type.declarations(name)) != 1:
                raise _NotDirect
            ultimate, declared = murano_type.property_writes(name)
            if ultimate.usage == "Static":
                raise _NotDirect
            writes.append(ultimate)
        if writes:
            groups.append((len(entries), tuple(writes)))
        for parent in part_type.parents:
            visit(parent)

    try:
        visit(murano_type)
    except _NotDirect:
        return None
    return tuple(groups)


def write_directly(obj, groups, params, caller_type, session=None):
    """Write the properties ``direct_writes`` lists (``groups``) from ``params`` (else their
    Default), as ``LoadSession.initialize`` would: per part, those whose Default or contract
    reads a property not set yet are retried while that sets more. In a load (``session``),
    lists of mappings under a list of class() contract go to ``LoadSession.load_owned``."""
    values = obj.properties
    try:
        for entry_count, writes in groups:
            remaining = entry_count
            while writes:
                failed = []
                for prop in writes:
                    name = prop.name
                    value = params.get(name, NO_VALUE)
                    if type(value) in prop.accepted_types:
                        values[name] = value
                        continue
                    if value is NO_VALUE and prop.checked_default is not NO_VALUE:
                        values[name] = prop.checked_default
                        continue
                    try:
                        if session is not None and prop.object_contract and (
                                type(value) is list and value and type(value[0]) is dict):
                            values[name] = session.load_owned(prop, value, obj, caller_type)
                        else:
                            values[name] = prop.transform(value, obj, obj, caller_type)
                    except (errors.UninitializedPropertyAccessError, errors.MuranoPlException) as error:
                        if not _reads_unset_property(error):
                            raise
                        failed.append(prop)
                if len(failed) >= remaining:
                    raise errors.CircularExpressionDependenciesError()
                remaining = len(failed)
                writes = failed
    except errors.MuranoPlException as error:
        if type(error.original) is StopIteration:
            raise _generator_stopped(error) from None
        raise


class _WholeObjects(list):
    """The initialisation step of objects whose classes have no ``.init``, native constructor
    or Config properties (``direct_writes``), in load order."""

    __slots__ = ()

    def __call__(self, executor):
        for obj in self:
            if obj._parents is None:  # MuranoObject.loaded_whole: its parts come initialised
                obj.initialized = True
            else:
                initialize_whole(obj, executor)


def initialize_whole(obj, executor):
    """Per part of an object ``direct_writes`` built: its native state created (a native class
    without constructor: it reads no property), then the part marked initialised."""
    for part in obj.part_list():
        native_class = part.type.native_class
        if native_class is not None and part.extension is None:
            native_class.construct(part, None, None, executor)
        part.initialized = True


def _whole_chain(murano_type):
    """(the object's native state, per part after its own (class, native state)) for objects
    of ``murano_type`` (the native state ``initialize_whole`` gives each part: none without a
    native class, else the class's ``shared_state``), when its parts form one chain and every
    object's part states are the same, the latter kept as the type's ``whole_parts`` for
    ``MuranoObject.built_whole``; else None."""
    chain = part_chain(murano_type)
    if chain is None:
        return None
    states = []
    for part_type in (murano_type, *chain):
        native_class = part_type.native_class
        if native_class is None:
            states.append(None)
        elif native_class.constructor is None and native_class.shared_state is not None:
            states.append(native_class.shared_state)
        else:
            return None
    murano_type.whole_parts = whole_parts = tuple(zip(chain, states[1:]))
    return states[0], whole_parts


def new_directly(executor, murano_type, properties, caller_type):
    """``new()`` of an object whose load ``direct_writes`` describes (without Config files
    nor a dry run): the object, its properties written, initialised; None otherwise."""
    groups = load_plan(murano_type).direct_writes(caller_type)
    if groups is None:
        return None
    obj = MuranoObject(murano_type, None)
    write_directly(obj, groups, properties, caller_type)
    initialize_whole(obj, executor)
    return obj


def load_plan(murano_type) -> LoadPlan:
    """The type's LoadPlan, built on first use (a type's members are fixed once it is built)."""
    plan = murano_type.load_plan
    if plan is None:
        plan = murano_type.load_plan = LoadPlan(murano_type)
    return plan


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off while a model's objects are built: they are all
    alive, and collections triggered by thousands of new objects would scan every one of them."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
