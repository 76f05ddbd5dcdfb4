"""What a contract validator ``contract(value, cc)`` gets from the runtime: the ``cc`` of the
situation a value is checked in and the services validators call (loading objects, templates,
instance checks)."""

from __future__ import annotations

import copy
import sys

from mplc import versioning
from mplc.runtime import expressions, contract_primitives, errors
from mplc.runtime.statements import to_murano_exception
from mplc.runtime.loading import parse_definition
from mplc.runtime.objects import MuranoObject, MuranoType, TypeReference
from mplc.runtime.serialization import object_to_dict


class ContractContext(contract_primitives.ContractContext):
    """The situation a value is checked in.

    ``this``: the object whose property/argument it is (None for static members); ``owner``:
    the owner new objects get; ``calling_type``: the class whose code assigns the value;
    ``target``: the object part (or, for static members, the type) whose code context contract
    expressions evaluate in, built only when a contract needs it (``context``, where ``$`` is
    the value being checked); ``mode``: how the contract applies (contract_primitives.TRANSFORM, ...);
    ``executor``.
    """

    __slots__ = ("executor", "this", "owner", "calling_type", "target", "scope", "mode",
                 "_context")

    def __init__(self, executor, this, owner, calling_type, target, mode=contract_primitives.TRANSFORM):
        self.mode = mode
        self.executor = executor
        self.this = this
        self.owner = owner
        self.calling_type = calling_type
        self.target = target
        self.scope = target if isinstance(target, MuranoType) else target.type
        self._context = None

    @property
    def context(self):
        if self._context is None:
            self._context = self.executor.code_context(self.target)
        return self._context

    @property
    def initializing(self) -> bool:
        """True during the first pass of a model load, when ids may name objects not yet built.
        Contracts ask only when what they give depends on it: the load then needs its second
        pass (``LoadSession.load_root``)."""
        loading = self.executor.loading
        if loading is None or not loading.initializing:
            return False
        loading.needs_second_pass = True
        return True

    def find_class(self, name):
        """A class (MuranoType) by name, resolved in the namespaces of the checked class."""
        return self.executor.find_class(name, self.scope)

    def get_object(self, object_id):
        """An object of the model being loaded, else one the executor already holds (a model
        given to new() may reference objects that exist outside it)."""
        loading = self.executor.loading
        found = None if loading is None else loading.get(object_id)
        return self.executor.objects.get(object_id) if found is None else found

    def load_object(self, data, default_type=None, context=None):
        """Build an object owned by ``owner`` from a dict (class() contract on a mapping), its
        properties written by code of the class ``context`` (default: the checked code's) has."""
        loading = self.executor.loading
        if loading is not None:
            return loading.load_for_contract(data, default_type, self, context)
        return self.executor.load_object(data, self.owner, default_type=default_type,
                                         scope=self.calling_type, context=context or self.context)

    def evaluate(self, expression, context):
        """A contract expression's value; a Python error in it (a check() predicate calling
        len() on null) becomes a MuranoPL exception, as in the reference, also when no method
        body is running (a model's property)."""
        engine = expressions.engine_for(self.scope.package.format_version)
        try:
            return expressions.finalize(expression(expressions.NO_VALUE, context, engine))
        except errors.MuranoError:
            raise
        except Exception as error:
            raise to_murano_exception(error, sys.exc_info()[2]) from None

    def is_object(self, value) -> bool:
        return isinstance(value, MuranoObject)

    def object_id(self, obj):
        return obj.object_id

    def object_type(self, obj):
        """The class of the object as the value has it: a ``cast()`` view's class, as the
        reference's class() and template() contracts see it."""
        return obj.type

    def object_owner(self, obj):
        return obj.real_this.owner

    def load_template(self, model, default_type, exclude_properties):
        if exclude_properties:
            murano_type, properties, header = parse_definition(
                self.executor, model, self.calling_type, False)
            properties = copy.deepcopy(properties)
            for path in exclude_properties:
                _replace_path(properties, path, contract_primitives.PASSKEY)
            model = {**properties, "?": _reassembled_header(header, murano_type)}
        # the reference loads it in the contract's own context, which has no class: properties
        # are written as the object's class writes them (a subclass's ones land in its part)
        context = self.context.create_child_context()
        context[expressions.TYPE] = None
        with self.executor.dry_run_objects():
            return self.load_object(model, default_type, context)

    def serialize_template(self, obj, exclude_properties):
        if self.initializing:
            return {}
        result = object_to_dict(obj, "Mixed")
        for path in exclude_properties or ():
            _replace_path(result, path, None, remove=True)
        return result

    def is_instance_of(self, value, murano_type, version_spec=None) -> bool:
        """Whether exactly one of the object's classes named like ``murano_type`` has a version
        that ``version_spec`` allows, or (no spec) that the package of the checking code
        requires (a package it does not require makes the object foreign)."""
        if isinstance(murano_type, TypeReference):
            murano_type = murano_type.type
        if not isinstance(value, MuranoObject):
            return False
        return _is_instance_of(value.type, murano_type.name, version_spec,
                               self.scope.package)


def _reassembled_header(header, murano_type):
    """The header of a template() model whose excluded properties were replaced, as the
    reference re-assembles it from its parse: id, name, metadata, ``destroyed`` when set, the
    designer's ``_`` keys and the class; anything else (``dependencies``) is dropped."""
    kept = {key: value for key, value in header.items()
            if key in ("id", "name", "metadata") or type(key) is str and key.startswith("_")}
    if header.get("destroyed"):
        kept["destroyed"] = True
    if murano_type is not None:
        kept["type"] = murano_type
    return kept


def _replace_path(data, path, value, remove=False):
    """Set (or remove) the key a dotted ``path`` names in nested dicts, when the dicts on the
    way exist, as template() treats its excluded properties."""
    *parents, last = str(path).split(".")
    for key in parents:
        data = data.get(key) if isinstance(data, dict) else None
    if isinstance(data, dict):
        if remove:
            data.pop(last, None)
        else:
            data[last] = value


def _is_instance_of(object_type, type_name, version_spec, requiring) -> bool:
    """``is_instance_of`` for every object of ``object_type`` (its class parts are fixed),
    remembered by the type (a cache outside it would keep every runtime's objects alive)."""
    key = (type_name, version_spec, requiring)
    found = object_type.instance_checks.get(key)
    if found is None:
        found = object_type.instance_checks[key] = _check_instance_of(
            object_type, type_name, version_spec, requiring)
    return found


def _check_instance_of(object_type, type_name, version_spec, requiring) -> bool:
    spec = None if version_spec is None else versioning.parse_requirement(version_spec)
    candidates = set()
    for part_type in (object_type, *object_type.ancestors()):
        if part_type.name != type_name:
            continue
        allowed = spec or requiring.requirements.get(part_type.package.name)
        if allowed is None:
            return False
        if part_type.version in allowed:
            candidates.add((part_type.name, part_type.version))
    return len(candidates) == 1
