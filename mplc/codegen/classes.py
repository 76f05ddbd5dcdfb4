"""Whole modules: one per class (``CLASS = _r.ClassSpec(...)``) and one per package (``PACKAGE``)."""

from __future__ import annotations

import ast
import os

from mplc import ir, versioning
from mplc.codegen.ast_parts import RUNTIME, constant, holds_expression, load, runtime_call, store
from mplc.codegen.expressions import ModuleBuilder
from mplc.codegen.instructions import InstructionTable
from mplc.codegen.int_variables import int_bit_bounds, int_variables, normal_variable_name
from mplc.codegen.statements import DirectArgument, StatementCompiler
from mplc.codegen.steps import split_into_steps
from mplc.contracts import ContractCompiler, loads_objects, reads_value_only
from mplc.contracts.compiler import method_chain, unchanged_types
from mplc.pyast import PyAst


def _prologue(at: PyAst) -> list[ast.stmt]:
    return [at.Import(names=[at.alias(name="mplc.runtime", asname=RUNTIME)])]


def _module(body: list[ast.stmt]) -> ast.Module:
    return ast.Module(body=body, type_ignores=[])


def _strings(at: PyAst, values) -> ast.expr:
    return at.Tuple(elts=[at.Constant(value=value) for value in values], ctx=ast.Load())


class ClassModuleCompiler:
    """Compiles one ``ir.Class`` into the module docs/compiled-modules.md describes."""

    def __init__(self, cls: ir.Class, format_version: str, fast_paths: bool = True):
        self.cls = cls
        self.format_version = format_version
        self.builder = ModuleBuilder(fast_paths, legacy=versioning.is_legacy_format(
            versioning.parse_format_version(format_version)))
        self.statements = StatementCompiler(self.builder)
        self.contracts = ContractCompiler(self.builder.hoist_expression, self.builder.numeric_predicate)
        self.instructions = InstructionTable()

    def module(self) -> ast.Module:
        cls = self.cls
        at = PyAst(cls.pos)
        engine = at.Assign(targets=[store(at, "_ENGINE")],
                           value=runtime_call(at, "engine_for", at.Constant(value=self.format_version)))
        spec = runtime_call(
            at, "ClassSpec",
            name=at.Constant(value=cls.name),
            package=at.Constant(value=None),
            extends=_strings(at, (ref.full_name for ref in cls.extends)),
            namespaces=constant(at, dict(cls.namespaces)),
            usage=at.Constant(value=cls.usage),
            cardinality=at.Constant(value=cls.cardinality),
            applies=_strings(at, cls.applies),
            inherited=at.Constant(value=cls.inherited),
            meta=self._meta(at, cls.meta),
            imports=_strings(at, (ref.full_name for ref in cls.imports)),
            properties=self._by_name(at, cls.properties, self._property),
            methods=self._by_name(at, cls.methods, self._method),
            source_file=at.Constant(value=os.path.abspath(cls.source_file)),  # as its code's file
            line=at.Constant(value=cls.pos.line),
        )
        assign = at.Assign(targets=[store(at, "CLASS")], value=spec)
        instructions = [self.instructions.definition(at)] if self.instructions.entries else []
        module = _module(_prologue(at) + [engine] + self.builder.definitions + instructions + [assign])
        split_into_steps(module)
        return module

    def _by_name(self, at: PyAst, members, compile_member) -> ast.expr:
        return at.Dict(keys=[PyAst(member.pos).Constant(value=member.name) for member in members],
                       values=[compile_member(member) for member in members])

    def _meta(self, at: PyAst, entries: tuple[ir.MetaEntry, ...]) -> ast.expr:
        specs = []
        for entry in entries:
            entry_at = PyAst(entry.pos)
            values = entry_at.Dict(keys=[entry_at.Constant(value=name) for name, _ in entry.values],
                                   values=[self.builder.value(value) for _, value in entry.values])
            function = self.builder.define_function(entry_at, "meta", ("context",),
                                                    [entry_at.Return(value=values)])
            specs.append(runtime_call(entry_at, "MetaSpec", entry_at.Constant(value=entry.type.full_name),
                                      load(entry_at, function)))
        return at.Tuple(elts=specs, ctx=ast.Load())

    def _default(self, at: PyAst, default: ir.Value | None) -> ast.expr:
        """A compiled Default ``def _defaultN(context)``; one without expressions is the value,
        built once (``_r.constant_default(value)``)."""
        if default is None:
            return at.Constant(value=None)
        default_at = PyAst(default.pos)
        if not holds_expression(default):
            return runtime_call(default_at, "constant_default", self.builder.value(default))
        return load(default_at, self.builder.define_function(
            default_at, "default", ("context",), [default_at.Return(value=self.builder.value(default))]))

    def _contract(self, at: PyAst, contract: ir.Contract | None) -> ast.expr:
        """A module-level validator ``def _contractN(value, cc)`` from mplc.contracts, or None."""
        if contract is None:
            return at.Constant(value=None)
        name = self.builder.new_name("contract")
        validators, renamed = self.builder.shared.validators(self.contracts.compile(contract, name))
        self.builder.definitions.extend(validators)
        return load(PyAst(contract.pos), renamed.get(name, name))

    def _property(self, prop: ir.Property) -> ast.expr:
        at = PyAst(prop.pos)
        return runtime_call(
            at, "PropertySpec", at.Constant(value=prop.name),
            usage=at.Constant(value=prop.usage),
            contract=self._contract(at, prop.contract),
            loads_objects=at.Constant(value=loads_objects(prop.contract)),
            value_only=at.Constant(value=reads_value_only(prop.contract) and _plain_data(prop.default)),
            default=self._default(at, prop.default),
            has_default=at.Constant(value=prop.default is not None),
            meta=self._meta(at, prop.meta),
            line=at.Constant(value=prop.pos.line),
            **({"default_source": at.Constant(value=prop.default.source)}
               if prop.usage == "Static" and isinstance(prop.default, ir.Expression) else {}),
        )

    def _argument(self, argument: ir.Argument, contract: ast.expr) -> ast.expr:
        at = PyAst(argument.pos)
        return runtime_call(
            at, "ArgumentSpec", at.Constant(value=argument.name),
            usage=at.Constant(value=argument.usage),
            contract=contract,
            loads_objects=at.Constant(value=loads_objects(argument.contract)),
            default=self._default(at, argument.default),
            has_default=at.Constant(value=argument.default is not None),
            meta=self._meta(at, argument.meta),
        )

    def _method(self, method: ir.Method) -> ast.expr:
        at = PyAst(method.pos)
        contracts = [self._contract(PyAst(argument.pos), argument.contract) for argument in method.arguments]
        arguments = at.Tuple(elts=[self._argument(argument, contract)
                                   for argument, contract in zip(method.arguments, contracts)],
                             ctx=ast.Load())
        int_keys = int_variables(method) if self.builder.fast is not None else frozenset()
        direct_arguments = None
        if self.builder.fast is not None and _takes_direct_calls(method):
            direct_arguments = tuple(_direct_argument(argument, contract)
                                     for argument, contract in zip(method.arguments, contracts))
        body = self.statements.body_function(method.body, method.pos, int_keys,
                                             int_bit_bounds(method, int_keys), direct_arguments)
        self.instructions.add_method(method.body)
        return runtime_call(
            at, "MethodSpec", at.Constant(value=method.name),
            usage=at.Constant(value=method.usage),
            scope=at.Constant(value=method.scope),
            arguments=arguments,
            body=load(at, body),
            meta=self._meta(at, method.meta),
            line=at.Constant(value=method.pos.line),
            direct_entry=at.Constant(value=direct_arguments is not None),
            local_variables=at.Constant(value=self.statements.body_local_names),
            variable_names=at.Constant(value=self.statements.body_local_keys),
        )


def _takes_direct_calls(method: ir.Method) -> bool:
    """Whether call sites may call the method's body directly (``fast.MethodCall``): an
    instance method of plain positional arguments, none of them named as ``$this`` or ``$``."""
    return method.usage in _INSTANCE_METHOD_USAGES and all(
        argument.usage == "Standard" and normal_variable_name(argument.name) not in ("$this", "$1")
        for argument in method.arguments)


_INSTANCE_METHOD_USAGES = ("Runtime", "Action")


def _direct_argument(argument: ir.Argument, validator: ast.expr) -> DirectArgument:
    """How the direct way in checks ``argument`` (validator: its ``_contractN`` name or None):
    the compiler's ``unchanged_types`` are what ``passes_unchanged`` marks the validator with."""
    contract = argument.contract
    unchanged, conditional, int_predicate = frozenset(), False, None
    if isinstance(contract, ir.ContractExpression):
        tree = contract.expression.tree
        unchanged = unchanged_types(tree)
        numeric = unchanged_types(tree, numeric_check=True)
        conditional = not unchanged and bool(numeric)
        check = method_chain(tree)[-1] if conditional else None
        if conditional and "int" in numeric and len(check.args) == 1 \
                and not isinstance(check.args[0], ir.MappingRule):
            int_predicate = check.args[0]
    again = ast.copy_location(ast.Name(id=validator.id, ctx=ast.Load()) if isinstance(validator, ast.Name)
                              else ast.Constant(value=validator.value), validator)
    accepted_type = next(iter(unchanged)) if len(unchanged) == 1 and "null" not in unchanged else None
    return DirectArgument(normal_variable_name(argument.name), again, accepted_type, conditional, int_predicate)


def _plain_data(value: ir.Value | None) -> bool:
    """No Default, or one of scalars and lists of them: no expression to run, no mapping for a
    class() contract to load."""
    if isinstance(value, ir.ListValue):
        return all(map(_plain_data, value.items))
    return value is None or isinstance(value, ir.Literal)


def class_module(cls: ir.Class, format_version: str, fast_paths: bool = True) -> ast.Module:
    return ClassModuleCompiler(cls, format_version, fast_paths).module()


def package_module(package: ir.Package, modules: dict[str, str]) -> ast.Module:
    """The package's ``__init__``: ``PACKAGE = _r.PackageSpec(...)``; ``modules`` maps class -> module."""
    manifest = package.manifest
    at = PyAst(manifest.pos)
    rest = {
        "Name": manifest.name, "Description": manifest.description, "Author": manifest.author,
        "Supplier": manifest.supplier, "Tags": list(manifest.tags), "Logo": manifest.logo,
        "UI": manifest.ui,
    }
    spec = runtime_call(
        at, "PackageSpec",
        full_name=at.Constant(value=manifest.full_name),
        version=at.Constant(value=manifest.version),
        format=at.Constant(value=f"{manifest.format_name}/{manifest.format_version}"),
        type=at.Constant(value=manifest.type),
        requirements=at.Dict(keys=[at.Constant(value=r.package) for r in manifest.requirements],
                             values=[at.Constant(value=r.spec) for r in manifest.requirements]),
        classes=constant(at, modules),
        manifest=constant(at, rest),
    )
    return _module(_prologue(at) + [at.Assign(targets=[store(at, "PACKAGE")], value=spec)])
