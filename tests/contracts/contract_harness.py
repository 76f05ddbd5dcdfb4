"""Compile a contract written in YAML into a real module and run it against a small object world.

The contract goes through the real front end (YAML and YAQL parsing into IR), the real
ContractCompiler, codegen's ModuleBuilder (hoisted expressions) and ``compile()``; yaql is real.
Objects, types and the object store are a minimal world implementing the ContractContext hooks,
standing in for the runtime's.
"""

from __future__ import annotations

import ast
import types

import mplc  # noqa: F401  (loads collections.abc before yaql)
import yaql
from yaql.language import conventions, utils

from mplc.codegen.expressions import ModuleBuilder
from mplc.contracts import ContractCompiler
from mplc.diagnostics import DiagnosticSink
from mplc.ir import NO_POS
from mplc.frontend.namespaces import Namespaces
from mplc.frontend.values import Scope
from mplc.frontend.yaml_source import read_documents
from mplc.runtime import expressions as bridge
from mplc.runtime import contract_primitives as contracts, statements
from mplc.runtime import fast_paths as fast

NAMESPACES = {"=": "test", "std": "io.murano"}
PATH = "/virtual/Contract.yaml"


class MuranoType:
    def __init__(self, name, *parents):
        self.name = name
        self.parents = parents

    def is_subtype_of(self, other) -> bool:
        return self is other or any(parent.is_subtype_of(other) for parent in self.parents)

    def __str__(self):
        return f"MuranoClass({self.name}/0.0.0)"


class MuranoObject:
    def __init__(self, object_id, murano_type, owner=None, **properties):
        self.object_id = object_id
        self.type = murano_type
        self.owner = owner
        self.properties = properties

    def __str__(self):
        return f"<{self.type.name}/0.0.0 {self.object_id}>"


BASE = MuranoType("test.Base")
DERIVED = MuranoType("test.Derived", BASE)
OTHER = MuranoType("io.murano.Other")
TYPES = {t.name: t for t in (BASE, DERIVED, OTHER)}


class World:
    """Objects by id, plus what loading dict models created."""

    def __init__(self):
        self.objects: dict[str, MuranoObject] = {}
        self.loading = False

    def add(self, obj: MuranoObject) -> MuranoObject:
        self.objects[obj.object_id] = obj
        return obj


class WorldContractContext(contracts.ContractContext):
    __slots__ = ("world", "this", "owner", "calling_type", "context", "mode")

    def __init__(self, world, this, context, mode=contracts.TRANSFORM):
        self.world = world
        self.this = self.owner = this
        self.calling_type = None
        self.context = context
        self.mode = mode

    @property
    def initializing(self):
        return self.world.loading

    def evaluate(self, expression, context):
        return bridge.finalize(expression(utils.NO_VALUE, context, context["?engine"]))

    def find_class(self, name):
        full = Namespaces(NAMESPACES, DiagnosticSink()).resolve(name, NO_POS) \
            if isinstance(name, str) else name.name
        if full not in TYPES:
            raise LookupError(f'Class "{full}" is not found')
        return TYPES[full]

    def is_object(self, value):
        return isinstance(value, MuranoObject)

    def object_id(self, obj):
        return obj.object_id

    def object_type(self, obj):
        return obj.type

    def object_owner(self, obj):
        return obj.owner

    def is_instance_of(self, obj, murano_type, version_spec):
        return obj.type.is_subtype_of(murano_type)

    def get_object(self, object_id):
        return self.world.objects.get(object_id)

    def load_object(self, model, default_type):
        header = model.get("?", {})
        murano_type = TYPES[header["type"]] if "type" in header else default_type
        properties = {key: value for key, value in model.items() if key != "?"}
        object_id = header.get("id", f"new-{len(self.world.objects)}")
        return self.world.add(MuranoObject(object_id, murano_type, self.owner, **properties))

    def load_template(self, model, default_type, exclude_properties):
        properties = {key: value for key, value in model.items()
                      if key != "?" and key not in (exclude_properties or ())}
        return MuranoObject("template", default_type, self.owner, **properties)

    def serialize_template(self, obj, exclude_properties):
        if self.world.loading:
            return {}
        model = {"?": {"type": obj.type.name, "id": obj.object_id}, **obj.properties}
        for name in exclude_properties or ():
            model.pop(name, None)
        return model


def contract_ir(yaml_text: str):
    sink = DiagnosticSink()
    documents = read_documents(f"Contract: {yaml_text}\n".encode(), PATH, sink)
    assert not sink.has_errors, sink.diagnostics
    (_, node), = documents[0].items
    scope = Scope(PATH, Namespaces(NAMESPACES, sink), sink)
    contract = scope.contract(node)
    assert not sink.has_errors, sink.diagnostics
    return contract


class TypeReference:
    def __init__(self, name):
        self.name = name


def runtime_namespace():
    """What generated code reaches as ``_r``: the bridge entry points and the contract primitives."""
    names = ("call", "lazy", "constant", "keyword", "rule")
    return types.SimpleNamespace(contracts=contracts, fast=fast, evaluate=statements.evaluate,
                                 type_reference=lambda context, name: TypeReference(name),
                                 **{name: getattr(bridge, name) for name in names})


def compile_contract(yaml_text: str, fast_paths: bool = False):
    """The validator ``(value, cc)`` of a contract, and the generated module's ast."""
    builder = ModuleBuilder(fast_paths)
    statements = ContractCompiler(builder.hoist_expression, builder.numeric_predicate).compile(
        contract_ir(yaml_text), "_c0")
    module = ast.Module(body=[*builder.definitions, *statements], type_ignores=[])
    namespace = {"_r": runtime_namespace()}
    exec(compile(module, PATH, "exec"), namespace)
    return namespace["_c0"], module


def root_context(this=None):
    context = yaql.create_context(convention=conventions.CamelCaseConvention()).create_child_context()
    context["?engine"] = bridge.engine_for("1.3.0")
    context["$this"] = this
    return context


def apply(yaml_text: str, value, mode=contracts.TRANSFORM, world=None, this=None, fast_paths=False):
    validator, _ = compile_contract(yaml_text, fast_paths)
    cc = WorldContractContext(world or World(), this, root_context(this), mode)
    return validator(value, cc)
