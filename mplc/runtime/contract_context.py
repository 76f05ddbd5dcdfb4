"""What a contract validator ``contract(value, cc)`` gets from the runtime."""

from __future__ import annotations

from mplc import versioning
from mplc.runtime import bridge, contracts
from mplc.runtime.model import MuranoObject, TypeReference


class ContractContext(contracts.ContractContext):
    """The situation a value is checked in.

    ``this``: the object whose property/argument it is (None for static members); ``owner``:
    the owner new objects get; ``calling_type``: the class whose code assigns the value;
    ``context``: the yaql context of ``this`` (contract expressions evaluate in it, ``$`` is the
    value being checked); ``finalize``: the reference's finalize flag; ``executor``.
    """

    __slots__ = ("executor", "this", "owner", "calling_type", "context", "finalize", "mode")

    def __init__(self, executor, this, owner, calling_type, context, finalize=True):
        self.mode = contracts.TRANSFORM if finalize else contracts.TRANSFORM_UNFINALIZED
        self.executor = executor
        self.this = this
        self.owner = owner
        self.calling_type = calling_type
        self.context = context
        self.finalize = finalize

    @property
    def engine(self):
        return self.context[bridge.ENGINE]

    @property
    def initializing(self) -> bool:
        """True during the first pass of a model load, when ids may name objects not yet built."""
        return self.executor.loading is not None and self.executor.loading.initializing

    def find_class(self, name):
        """A class (MuranoType) by name, resolved in the namespaces of the checked class."""
        return self.executor.find_class(name, self.context[bridge.NAMES_SCOPE])

    def get_object(self, object_id):
        loading = self.executor.loading
        if loading is not None:
            return loading.get(object_id)
        return self.executor.objects.get(object_id)

    def load_object(self, data, default_type=None):
        """Build an object owned by ``owner`` from a dict (class() contract on a mapping)."""
        return self.executor.load_object(data, self.owner, default_type=default_type,
                                         scope=self.calling_type, context=self.context)

    def evaluate(self, expression, context):
        return bridge.finalize(expression(bridge.NO_VALUE, context, context[bridge.ENGINE]))

    def is_object(self, value) -> bool:
        return isinstance(value, MuranoObject)

    def object_id(self, obj):
        return obj.object_id

    def object_type(self, obj):
        return obj.real_this.type

    def object_owner(self, obj):
        return obj.real_this.owner

    def load_template(self, model, default_type, exclude_properties):
        with self.executor.dry_run_objects():
            return self.load_object(model, default_type)

    def serialize_template(self, obj, exclude_properties):
        from mplc.runtime.serialization import object_to_dict
        return {} if self.initializing else object_to_dict(obj, "Mixed")

    def is_instance_of(self, value, murano_type, version_spec=None) -> bool:
        """Whether exactly one of the object's classes named like ``murano_type`` has a version
        that ``version_spec`` allows, or (no spec) that the package of the checking code
        requires (a package it does not require makes the object foreign)."""
        if isinstance(murano_type, TypeReference):
            murano_type = murano_type.type
        if not isinstance(value, MuranoObject):
            return False
        spec = None if version_spec is None else versioning.parse_requirement(version_spec)
        requiring = self.context[bridge.NAMES_SCOPE].package
        candidates = set()
        for part in value.real_this.parts():
            if part.type.name != murano_type.name:
                continue
            allowed = spec or requiring.requirements.get(part.type.package.name)
            if allowed is None:
                return False
            if part.type.version in allowed:
                candidates.add((part.type.name, part.type.version))
        return len(candidates) == 1
