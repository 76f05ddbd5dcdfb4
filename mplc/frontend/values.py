"""YAML tree -> IR values, expressions, type references, contracts and Meta sections.

A ``Scope`` holds what every conversion inside one class document needs: its file, its
namespaces and the diagnostic sink.
"""

from __future__ import annotations

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.namespaces import Namespaces
from mplc.frontend.yaml_source import Mapping, Scalar, Sequence, is_expression
from mplc.frontend.yaql_syntax import ExpressionBuilder


def as_list(node) -> list:
    """The reference's ``list_value``: null is empty, a non-list is a one-item list."""
    if node is None or (isinstance(node, Scalar) and node.value is None and node.expression is None):
        return []
    if isinstance(node, Sequence):
        return node.items
    return [node]


def is_null(node) -> bool:
    return node is None or (isinstance(node, Scalar) and node.expression is None
                            and node.value is None)


def is_falsy(node) -> bool:
    """The engine's ``not value`` on the data: null, empty text, 0, false, [] and {}."""
    return node is None or not plain_data(node)


def plain_data(node):
    """Python data for metadata (Supplier, Tags ...): expressions become their text."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Sequence):
        return [plain_data(item) for item in node.items]
    return {plain_data(key): plain_data(value) for key, value in node.items}


def text_of(node) -> str | None:
    """A scalar's text when it is a string or an expression (Murano uses ``str()`` of both)."""
    if isinstance(node, Scalar) and isinstance(node.value, str):
        return node.value
    return None


class Scope:
    def __init__(self, path: str, namespaces: Namespaces, sink: DiagnosticSink):
        self.path = path
        self.namespaces = namespaces
        self.sink = sink
        self.expressions = ExpressionBuilder(namespaces.resolve_when_run, sink)

    def expression(self, node: Scalar) -> ir.Expression:
        return self.expressions.expression(node.value, node.expression, node.pos)

    def value(self, node) -> ir.Value:
        if isinstance(node, Scalar):
            if node.expression is not None:
                return self.expression(node)
            return ir.Literal(node.value, node.pos)
        if isinstance(node, Sequence):
            return ir.ListValue(tuple(self.value(item) for item in node.items), node.pos)
        return ir.DictValue(tuple((self.value(key), self.value(value))
                                  for key, value in node.items), node.pos)

    def type_ref(self, node, what: str) -> ir.TypeRef | None:
        """A class name the reference resolves when it loads the class."""
        written = text_of(node)
        if written is None:
            pos = node.pos if node is not None else ir.NO_POS
            self.sink.error("E-TYPE-NAME", f"{what} must be a class name", pos)
            return None
        return ir.TypeRef(written, self.namespaces.resolve(written, node.pos), node.pos)

    def type_names(self, node) -> tuple[str, ...]:
        """The string names of ``Throw`` or ``Catch With`` as written (checked here), which the
        runtime resolves when the statement runs, as the reference does: resolving them twice
        would prefix a name of an empty namespace (``py:StopIteration``) with the class's own."""
        names = []
        for item in as_list(node):
            if text_of(item) is not None:
                self.namespaces.resolve_when_run(item.value, item.pos)
                names.append(item.value)
        return tuple(names)

    def meta(self, node) -> tuple[ir.MetaEntry, ...]:
        entries = []
        for item in as_list(node):
            if isinstance(item, Mapping):
                if len(item.items) != 1:
                    self.sink.error("E-META", "a Meta item is a class name, or a mapping with one "
                                    "key (the class name) holding its property values", item.pos)
                    continue
                name_node, values_node = item.items[0]
            else:
                name_node, values_node = item, None
            reference = self.type_ref(name_node, "a Meta class")
            if reference is None:
                continue
            values = []
            if isinstance(values_node, Mapping):
                for key, value in values_node.items:
                    key_text = text_of(key)
                    if key_text is None:
                        self.sink.error("E-META", "Meta property names must be strings", key.pos)
                        continue
                    values.append((key_text, self.value(value)))
            elif not is_null(values_node):
                self.sink.error("E-META", "Meta property values must be a mapping",
                                values_node.pos)
            entries.append(ir.MetaEntry(reference, tuple(values), item.pos))
        return tuple(entries)

    def contract(self, node) -> ir.Contract:
        if isinstance(node, Scalar):
            if node.expression is not None:
                return ir.ContractExpression(self.expression(node), node.pos)
            return ir.ContractConstant(node.value, node.pos)
        if isinstance(node, Sequence):
            items = list(node.items)
            bounds = []
            while items and len(bounds) < 2 and isinstance(items[-1], Scalar) \
                    and items[-1].expression is None and isinstance(items[-1].value, int):
                bounds.insert(0, items.pop().value)
            minimum = bounds[0] if bounds else 0
            maximum = bounds[1] if len(bounds) == 2 else None
            if bounds and not items:
                self.sink.warning("W-CONTRACT", "a list contract with length bounds needs an item "
                                  "contract before them; the reference raises IndexError when "
                                  "it checks a non-empty list", node.pos)
            return ir.ContractList(tuple(self.contract(item) for item in items), minimum, maximum,
                                   node.pos, bool(bounds))
        fixed = []
        expression_key = None
        for key, value in node.items:
            if is_expression(key):
                if expression_key is not None:
                    self.sink.warning("W-CONTRACT-DICT-KEYS", "a dictionary contract cannot have "
                                      "more than one expression key; it raises "
                                      "DslContractSyntaxError when it runs", key.pos)
                    return ir.ContractDict(tuple(fixed), expression_key, node.pos, key.pos)
                expression_key = (self.contract(key), self.contract(value))
            else:
                fixed.append((key.value if isinstance(key, Scalar) else plain_data(key),
                              self.contract(value)))
        return ir.ContractDict(tuple(fixed), expression_key, node.pos)
