"""Class files -> IR classes: documents, namespaces, properties, methods, arguments, meta."""

from __future__ import annotations

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.keys import described, mapping_entries
from mplc.frontend.namespaces import Namespaces, check_declarations
from mplc.frontend.statements import BodyReader
from mplc.frontend.values import Scope, as_list, is_falsy, is_null, text_of
from mplc.frontend.yaml_source import Mapping, Scalar, read_documents

CORE_OBJECT = "io.murano.Object"
CLASS_KEYS = frozenset({"Name", "Namespaces", "Extends", "Properties", "Methods", "Workflow",
                        "Usage", "Meta", "Import", "Cardinality", "Applies", "Inherited"})
PROPERTY_KEYS = frozenset({"Contract", "Usage", "Default", "Meta"})
METHOD_KEYS = frozenset({"Body", "Arguments", "Usage", "Scope", "Meta"})
ARGUMENT_KEYS = frozenset({"Contract", "Usage", "Default", "Meta"})
PROPERTY_USAGES = ("In", "Out", "InOut", "Const", "Runtime", "Static", "Config")
METHOD_USAGES = ("Runtime", "Static", "Extension", "Action")
METHOD_SCOPES = ("Session", "Public")
ARGUMENT_USAGES = ("Standard", "VarArgs", "KwArgs")
META_TARGETS = ("Package", "Type", "Property", "Method", "Argument")
METHOD_ALIASES = {"initialize": ".init", "destroy": ".destroy"}


class ClassDocument:
    """One class document of a file, with the namespaces it is read under."""

    def __init__(self, mapping: Mapping, entries: dict, namespaces: dict[str, str]):
        self.mapping = mapping
        self.entries = entries
        self.namespaces = namespaces

    @property
    def written_name(self) -> Scalar | None:
        entry = self.entries.get("Name")
        return entry[1] if entry is not None and not is_null(entry[1]) else None


def read_class_documents(data: bytes, path: str,
                         sink: DiagnosticSink) -> list[ClassDocument] | None:
    """The class documents of a file (None when it is no YAML); namespace-only documents carry
    their Namespaces forward."""
    documents = read_documents(data, path, sink)
    if documents is None:
        return None
    result = []
    namespaces: dict[str, str] = {}
    for document in documents:
        if not isinstance(document, Mapping):
            sink.error("E-CLASS", "a class document must be a mapping", document.pos)
            continue
        entries = mapping_entries(document, CLASS_KEYS, "a class", sink)
        if "Namespaces" in entries:
            namespaces = _namespaces(entries["Namespaces"][1], sink)
        if [key.value for key, _ in document.items] == ["Namespaces"]:
            continue
        result.append(ClassDocument(document, entries, namespaces))
    return result


def _namespaces(node, sink: DiagnosticSink) -> dict[str, str]:
    if is_null(node):
        return {}
    if not isinstance(node, Mapping):
        sink.error("E-NAMESPACE", "Namespaces must be a mapping of prefix: namespace", node.pos)
        return {}
    return check_declarations([(key, value, key.pos) for key, value in node.items], sink)


def _choice(node, allowed: tuple[str, ...], default: str, what: str, sink: DiagnosticSink,
            checked: bool = True) -> str:
    """The value of a keyword key. The reference fails loading the class on a bad value when
    ``checked``; otherwise it accepts anything, which then behaves as ``default`` (a warning).
    A ``!yaql`` text is an expression object there, equal to no keyword."""
    if is_null(node):
        return default
    value = node.value if isinstance(node, Scalar) and node.expression is None else None
    if value in allowed:
        return value
    written = f"expression {described(node)}" if isinstance(node, Scalar) and node.expression is not None \
        else described(node)
    message = f"invalid {what} {written}; must be one of {', '.join(allowed)}"
    if checked:
        sink.error("E-USAGE", message, node.pos)
    else:
        sink.warning("W-USAGE", f"{message}; the reference accepts it as {default}", node.pos)
    return default


def build_class(document: ClassDocument, name: str, path: str,
                sink: DiagnosticSink) -> ir.Class | None:
    """IR for one class document; ``name`` is its full name (from Name, or from the manifest)."""
    entries = {key: value for key, (_, value) in document.entries.items()}
    scope = Scope(path, Namespaces(document.namespaces, sink), sink)
    try:
        return _build_class(entries, document, name, scope)
    except RecursionError:
        sink.error("E-YAML-DEPTH", "class is nested too deeply to read", document.mapping.pos)
        return None


def _build_class(entries: dict, document: ClassDocument, name: str, scope: Scope) -> ir.Class:
    sink = scope.sink
    if "Usage" in entries and is_null(entries["Usage"]):
        sink.error("E-USAGE", "class Usage is null; must be one of Class, Meta (or left out)",
                   entries["Usage"].pos)
    usage = _choice(entries.get("Usage"), ("Class", "Meta"), "Class", "class Usage", sink)
    extends = tuple(reference for reference in
                    (scope.type_ref(item, "Extends") for item in as_list(entries.get("Extends")))
                    if reference is not None)
    if not extends and name != CORE_OBJECT:
        extends = (ir.TypeRef(CORE_OBJECT, CORE_OBJECT, document.mapping.pos),)
    cardinality = None
    applies: tuple[str, ...] = ()
    inherited = False
    if usage == "Meta":
        cardinality = _choice(entries.get("Cardinality"), ("One", "Many"), "One",
                              "meta class Cardinality", sink)
        applies = _applies(entries.get("Applies"), sink)
        inherited_node = entries.get("Inherited")
        if inherited_node is not None:
            if isinstance(inherited_node, Scalar) and isinstance(inherited_node.value, bool):
                inherited = inherited_node.value
            else:
                sink.error("E-USAGE", "Inherited must be true or false", inherited_node.pos)
    methods_node = entries.get("Methods")
    if is_null(methods_node):
        methods_node = entries.get("Workflow")
    return ir.Class(
        name=name,
        namespaces=scope.namespaces.pairs(),
        extends=extends,
        properties=_properties(entries.get("Properties"), scope),
        methods=_methods(methods_node, scope),
        usage=usage,
        cardinality=cardinality,
        applies=applies,
        inherited=inherited,
        meta=scope.meta(entries.get("Meta")),
        imports=tuple(reference for reference in
                      (scope.type_ref(item, "Import") for item in as_list(entries.get("Import")))
                      if reference is not None),
        source_file=scope.path,
        pos=document.mapping.pos,
    )


def _applies(node, sink: DiagnosticSink) -> tuple[str, ...]:
    if is_null(node):
        return META_TARGETS
    targets = []
    for item in as_list(node):
        value = item.value if isinstance(item, Scalar) else None
        if value == "All":
            return META_TARGETS
        if value not in META_TARGETS:
            sink.error("E-USAGE", f"invalid meta class target {value!r}; must be All or one of "
                       f"{', '.join(META_TARGETS)}", item.pos)
            continue
        targets.append(value)
    return tuple(targets)


def _named_specs(node, what: str, sink: DiagnosticSink):
    """(name, name node, spec) for each entry of a Properties or Methods mapping (the reference
    reads an empty value, ``[]`` say, as none)."""
    if is_falsy(node):
        return
    if not isinstance(node, Mapping):
        sink.error("E-CLASS", f"{what} must be a mapping", node.pos)
        return
    seen = set()
    for key, spec in node.items:
        name = text_of(key)
        if name is None:
            sink.error("E-CLASS", f"{what} names must be strings", key.pos)
            continue
        if name in seen:
            sink.warning("W-DUPLICATE-KEY", f"'{name}' is declared twice in {what}; the last one "
                         "wins", key.pos)
        seen.add(name)
        yield name, key, spec


def _spec_entries(spec, allowed, where: str, name_node, sink: DiagnosticSink) -> dict | None:
    if not isinstance(spec, Mapping):
        sink.error("E-MISSING-CONTRACT", f"{where} needs a mapping with a Contract",
                   spec.pos if spec is not None and not is_null(spec) else name_node.pos)
        return None
    entries = {key: value for key, (_, value) in mapping_entries(spec, allowed, where, sink).items()}
    if "Contract" not in entries:
        sink.error("E-MISSING-CONTRACT", f"{where} has no Contract", name_node.pos)
        return None
    return entries


def _properties(node, scope: Scope) -> tuple[ir.Property, ...]:
    result = {}
    for name, key, spec in _named_specs(node, "Properties", scope.sink):
        entries = _spec_entries(spec, PROPERTY_KEYS, f"property '{name}'", key, scope.sink)
        if entries is None:
            continue
        default = entries.get("Default")
        result[name] = ir.Property(
            name=name,
            contract=scope.contract(entries["Contract"]),
            usage=_choice(entries.get("Usage"), PROPERTY_USAGES, "In", "property Usage",
                          scope.sink),
            default=None if "Default" not in entries else scope.value(default),
            meta=scope.meta(entries.get("Meta")),
            pos=key.pos,
        )
    return tuple(result.values())


def _methods(node, scope: Scope) -> tuple[ir.Method, ...]:
    result = {}
    for written, key, payload in _named_specs(node, "Methods", scope.sink):
        name = METHOD_ALIASES.get(written, written)
        if name in result:
            scope.sink.warning("W-DUPLICATE-METHOD", f"method '{written}' is declared twice "
                               f"(as '{result[name].written_name}' too); the last one wins",
                               key.pos)
        method = _method(name, written, key, payload, scope)
        if method is not None:
            result[name] = method
    return tuple(result.values())


def _method(name: str, written: str, key: Scalar, payload, scope: Scope) -> ir.Method | None:
    sink = scope.sink
    if is_falsy(payload):
        entries = {}
    elif isinstance(payload, Mapping):
        entries = {k: v for k, (_, v) in
                   mapping_entries(payload, METHOD_KEYS, f"method '{written}'", sink).items()}
    else:
        sink.error("E-METHOD", f"method '{written}' must be a mapping (Body, Arguments, ...)",
                   payload.pos)
        return None
    usage_node = entries.get("Usage")
    usage = "Runtime" if is_falsy(usage_node) else \
        _choice(usage_node, METHOD_USAGES, "Runtime", "method Usage", sink)
    scope_node = entries.get("Scope")
    method_scope = _choice(scope_node, METHOD_SCOPES, "Session", "method Scope", sink,
                           checked=False)
    if usage == "Action":
        if not is_null(scope_node) and method_scope == "Session":
            sink.error("E-USAGE", f"method '{written}' has both Usage: Action and Scope: Session",
                       scope_node.pos)
        method_scope = "Public"
    body_node = entries.get("Body")
    body = BodyReader(scope).block(body_node, key.pos)
    return ir.Method(
        name=name,
        written_name=written,
        usage=usage,
        scope=method_scope,
        arguments=_arguments(entries.get("Arguments"), written, scope),
        body=body,
        meta=scope.meta(entries.get("Meta")),
        pos=key.pos,
    )


def _arguments(node, method: str, scope: Scope) -> tuple[ir.Argument, ...]:
    sink = scope.sink
    if isinstance(node, Mapping) and not node.items:
        sink.error("E-ARGUMENT", "Arguments is an empty mapping (the reference reads it as a "
                   "list of one argument without a name)", node.pos)
        return ()
    if isinstance(node, Mapping) and len(node.items) > 1:
        sink.error("E-ARGUMENT", "Arguments as a mapping holds one argument only (the reference "
                   "reads it as a one-item list); write a list: - name: {Contract: ...}",
                   node.pos)
        return ()
    if isinstance(node, Mapping):
        records = [(key, value, key.pos) for key, value in node.items]
    else:
        records = []
        for item in as_list(node):
            if not isinstance(item, Mapping) or len(item.items) != 1:
                sink.error("E-ARGUMENT", "each argument is a mapping with one key: "
                           "- name: {Contract: ...}", item.pos)
                continue
            records.append((item.items[0][0], item.items[0][1], item.pos))
    arguments: dict[str, ir.Argument] = {}
    seen_varargs = seen_kwargs = False
    for key, spec, pos in records:
        name = text_of(key)
        if name is None:
            sink.error("E-ARGUMENT", "argument names must be strings", key.pos)
            continue
        entries = _spec_entries(spec, ARGUMENT_KEYS, f"argument '{name}' of method '{method}'",
                                key, sink)
        if entries is None:
            continue
        usage = _choice(entries.get("Usage"), ARGUMENT_USAGES, "Standard", "argument Usage",
                        sink)
        misplaced = (usage == "Standard" and (seen_varargs or seen_kwargs)
                     or usage == "VarArgs" and (seen_varargs or seen_kwargs)
                     or usage == "KwArgs" and seen_kwargs)
        if misplaced:
            sink.error("E-ARGUMENT-ORDER", f"argument '{name}' of method '{method}' is out of "
                       "order: standard arguments, then VarArgs, then KwArgs", key.pos)
        seen_varargs = seen_varargs or usage == "VarArgs"
        seen_kwargs = seen_kwargs or usage == "KwArgs"
        if name in arguments:
            sink.warning("W-DUPLICATE-ARGUMENT", f"argument '{name}' of method '{method}' is "
                         "declared twice; the last declaration wins, in the first one's place",
                         key.pos)
        arguments[name] = ir.Argument(
            name=name,
            contract=scope.contract(entries["Contract"]),
            usage=usage,
            default=None if "Default" not in entries else scope.value(entries["Default"]),
            meta=scope.meta(entries.get("Meta")),
            pos=key.pos,
        )
    return tuple(arguments.values())
