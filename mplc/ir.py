"""The intermediate representation shared by the front end, code generation and contracts.

Every node is a frozen, slotted dataclass with a ``pos``. The front end builds it from package
YAML; codegen and the contract compiler read it; the runtime never sees it (compiled modules
carry everything the runtime needs). Collections are tuples so nodes stay hashable and frozen.

Expressions mirror yaql's own expression tree one to one (``Function``, ``Constant``,
``KeywordConstant``, ``GetContextValue``, ``MappingRuleExpression``, ``Wrap``): the compiled code
must reproduce yaql's function resolution exactly, and yaql resolves by the shape of that tree.
The one addition is ``TypeName``: ``ns:Name`` and ``:Name`` resolved against the class's
namespaces at compile time.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Union


@dataclass(frozen=True, slots=True)
class Pos:
    """A source span. Lines and columns are 1-based, as editors and diagnostics show them."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_POS = Pos("<unknown>", 0, 0, 0, 0)


class Node:
    """Base of every IR node but ``Pos``: ``children()`` and ``walk()`` are the one generic
    traversal of the IR, so no other module walks dataclass fields itself."""

    __slots__ = ()

    def children(self) -> list["Node"]:
        """The nodes this node's fields hold, in field order (tuples, and tuples of pairs,
        flattened; positions and plain data skipped)."""
        found: list[Node] = []
        pending = [getattr(self, name) for name in _child_fields(type(self))]
        while pending:
            item = pending.pop()
            if type(item) is tuple:
                pending.extend(reversed(item))
            elif isinstance(item, Node):
                found.append(item)
        return found

    def walk(self) -> Iterator["Node"]:
        """This node and every node under it, each before its children, in field order."""
        pending: list[Any] = [self]
        pop, push = pending.pop, pending.append
        while pending:
            item = pop()
            if type(item) is tuple:
                pending.extend(reversed(item))
            elif isinstance(item, Node):
                yield item
                names = _CHILD_FIELDS.get(type(item))
                for name in _child_fields(type(item)) if names is None else names:
                    push(getattr(item, name))

    def relocated(self, move: Callable[[Pos], Pos]) -> "Node":
        """A copy of this node with every position in it passed through ``move``."""
        return dataclasses.replace(self, **{item.name: _relocated(getattr(self, item.name), move)
                                            for item in dataclasses.fields(self)})


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
"""Node class -> its fields that may hold nodes, last first (``walk`` pushes them on a stack)."""

_PLAIN_ANNOTATION = re.compile(r"(?:[^A-Za-z_]|\b(?:Any|Pos|None)\b|\b[a-z]\w*)*")


def _child_fields(node_type: type) -> tuple[str, ...]:
    """Fields whose annotation names a node type: not ``pos`` and not plain data (``str``,
    ``tuple[str, ...]``, ``Any``, ``Pos | None``), last first."""
    names = _CHILD_FIELDS.get(node_type)
    if names is None:
        names = _CHILD_FIELDS[node_type] = tuple(reversed([
            item.name for item in dataclasses.fields(node_type) if not _PLAIN_ANNOTATION.fullmatch(str(item.type))]))
    return names


def _relocated(value: Any, move: Callable[[Pos], Pos]) -> Any:
    if isinstance(value, Pos):
        return move(value)
    if isinstance(value, Node):
        return value.relocated(move)
    if type(value) is tuple:
        return tuple(_relocated(item, move) for item in value)
    return value


# ---------------------------------------------------------------------------------------------
# YAQL expression trees (mirror of yaql.language.expressions)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Constant(Node):
    """A literal inside an expression: str, int, float, bool or None."""

    value: Any
    pos: Pos


@dataclass(frozen=True, slots=True)
class KeywordConstant(Node):
    """A bare identifier (``foo`` in ``$.foo``, ``a`` in ``a => 1``, ``std`` in ``std:App``)."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class GetContextValue(Node):
    """``$``, ``$name``, ``$1``: ``name`` is the full token including the dollar sign."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Function(Node):
    """A yaql function call, operators included, named exactly as yaql names them.

    Examples: ``foo`` for ``foo(x)``; ``#operator_.`` for ``a.b``; ``#operator_+``;
    ``#unary_operator_not``; ``#indexer``; ``#list``; ``#map``; ``*alias`` for aliased
    operators. ``uses_receiver`` is yaql's flag: True for a plain ``name(...)`` call, whose
    receiver is the left side of an enclosing ``.`` operator when there is one.
    """

    name: str
    args: tuple["Expr", ...]
    uses_receiver: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class MappingRule(Node):
    """``source => destination``: a keyword argument, or an entry of a ``{...}`` literal."""

    source: "Expr"
    destination: "Expr"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Wrap(Node):
    """A parenthesised sub-expression ``( ... )``."""

    expr: "Expr"
    pos: Pos


@dataclass(frozen=True, slots=True)
class TypeName(Node):
    """``ns:Name`` / ``:Name`` resolved at compile time to a full class name.

    ``written`` keeps the source spelling for messages.
    """

    full_name: str
    written: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class SkippedArgument(Node):
    """An argument left out, as in ``f(, 1)``: yaql passes its NO_VALUE marker, so the
    function's default for that parameter applies."""

    pos: Pos


Expr = Union[Constant, KeywordConstant, GetContextValue, Function, MappingRule, Wrap, TypeName,
             SkippedArgument]


@dataclass(frozen=True, slots=True)
class Expression(Node):
    """A whole YAQL expression as it stood in the YAML (a scalar, or a mapping key)."""

    source: str
    tree: Expr
    pos: Pos


# ---------------------------------------------------------------------------------------------
# Data values: YAML data that may hold expressions at any depth
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A YAML scalar that is data, not an expression (str, int, float, bool, None, date)."""

    value: Any
    pos: Pos


@dataclass(frozen=True, slots=True)
class ListValue(Node):
    items: tuple["Value", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class DictValue(Node):
    """A mapping; keys are Values too (an expression key is evaluated)."""

    items: tuple[tuple["Value", "Value"], ...]
    pos: Pos


Value = Union[Expression, Literal, ListValue, DictValue]


# ---------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Block(Node):
    statements: tuple["Statement", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class AttributeStep(Node):
    """``.name`` in an assignment target."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class IndexStep(Node):
    """``[index]`` in an assignment target; ``index`` is evaluated."""

    index: Expression
    pos: Pos


@dataclass(frozen=True, slots=True)
class AssignmentTarget(Node):
    """The left side of ``$x.a[i]: value``.

    ``root`` is a GetContextValue for variables (``$x``, ``$``, ``$this``) or any other
    expression tree whose value is the object to write into (``ns:Type.a`` writes a static
    property; ``type('x').a`` likewise). ``steps`` walk from the root to the written slot.
    """

    source: str
    root: Expr
    steps: tuple[AttributeStep | IndexStep, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class ExpressionStatement(Node):
    expression: Expression
    pos: Pos


@dataclass(frozen=True, slots=True)
class Assignment(Node):
    target: AssignmentTarget
    value: Value
    pos: Pos


@dataclass(frozen=True, slots=True)
class Return(Node):
    value: Value | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Break(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Continue(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Do(Node):
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class If(Node):
    condition: Value
    then: Block
    otherwise: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class While(Node):
    condition: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class For(Node):
    variable: str
    collection: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Repeat(Node):
    count: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class MatchCase(Node):
    key: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Match(Node):
    value: Value
    cases: tuple[MatchCase, ...]
    default: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class SwitchCase(Node):
    condition: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Switch(Node):
    cases: tuple[SwitchCase, ...]
    default: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Parallel(Node):
    """Each statement of ``branches`` runs as its own cooperative branch."""

    branches: Block
    limit: Value | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Throw(Node):
    """``names`` are exception type names as written, or expressions: the reference evaluates
    the names (an unquoted ``ns:Name`` looks the class up) and resolves the text of each result
    when the Throw runs."""

    names: tuple[str | Expression, ...]
    message: Value | None
    extra: Value | None
    cause: Value | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Catch(Node):
    """``names`` (as written; resolved when an exception reaches the clause) empty catches
    everything; ``variable`` is the ``As`` name without ``$``."""

    names: tuple[str, ...]
    variable: str | None
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Try(Node):
    body: Block
    catches: tuple[Catch, ...]
    otherwise: Block | None
    finally_: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Rethrow(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Fail(Node):
    """A statement the reference accepts when it loads the class but that fails whenever it runs
    (an assignment to ``$``, a function call as an assignment target, a broken statement inside a
    Match or Switch case, which the reference reads only when the case runs).

    ``value`` (an assignment's right-hand side, or None) is evaluated first, as the reference
    does; then the reference's exception ``error`` (its class name: ``ValueError``,
    ``InvalidLhsTargetError``, ``NoFunctionRegisteredException``, ``SyntaxError`` ...) is raised,
    built from ``detail``, the argument the reference passes to its constructor (a message, the
    name of a function, an assignment target; None for none). docs/diagnostics.md lists which
    source produces which error.
    """

    error: str
    detail: str | None
    value: Value | None
    pos: Pos


Statement = Union[ExpressionStatement, Assignment, Return, Break, Continue, Do, If, While, For,
                  Repeat, Match, Switch, Parallel, Throw, Try, Rethrow, Fail]


# ---------------------------------------------------------------------------------------------
# Contracts
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ContractExpression(Node):
    """A contract written as a YAQL expression: ``$.string().notNull()``, ``$``, ``$.class(T)``."""

    expression: Expression
    pos: Pos


@dataclass(frozen=True, slots=True)
class ContractList(Node):
    """``[spec, ..., min?, max?]``: trailing ints are the length bounds, as the reference reads them.

    Item ``i`` is checked by ``items[i]``, or by the last item spec when ``i`` is past the end.
    ``max_length`` is None when unbounded. ``[]`` (no items, not ``bounded``) accepts any list;
    bounds with no item spec (``[0]``) have none for any item: the reference's IndexError.
    """

    items: tuple["Contract", ...]
    min_length: int
    max_length: int | None
    pos: Pos
    bounded: bool = False


@dataclass(frozen=True, slots=True)
class ContractDict(Node):
    """Literal keys with their specs, plus at most one expression key (key spec, value spec).

    ``second_expression_key`` is the position of a second expression key, which the reference
    reads only when the contract runs: it checks that the value is a dictionary, maps the literal
    keys written before that key (all of ``fixed``), then raises DslContractSyntaxError
    "Dictionary contract cannot have more than one expression key".
    """

    fixed: tuple[tuple[Any, "Contract"], ...]
    expression_key: tuple["Contract", "Contract"] | None
    pos: Pos
    second_expression_key: Pos | None = None


@dataclass(frozen=True, slots=True)
class ContractConstant(Node):
    """A scalar contract: the value must equal it."""

    value: Any
    pos: Pos


Contract = Union[ContractExpression, ContractList, ContractDict, ContractConstant]


# ---------------------------------------------------------------------------------------------
# Classes and packages
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TypeRef(Node):
    """A class name as written, and the full name it resolves to in its class's namespaces."""

    written: str
    full_name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class MetaEntry(Node):
    """One item of a ``Meta`` section: a meta class and its property values."""

    type: TypeRef
    values: tuple[tuple[str, Value], ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Property(Node):
    name: str
    contract: Contract
    usage: str  # In | Out | InOut | Const | Runtime | Static | Config
    default: Value | None  # None: no Default key (distinct from an explicit null Literal)
    meta: tuple[MetaEntry, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Argument(Node):
    name: str
    contract: Contract | None
    usage: str  # Standard | VarArgs | KwArgs
    default: Value | None  # None: no Default key
    meta: tuple[MetaEntry, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Method(Node):
    """``name`` is normalised: ``initialize`` -> ``.init``, ``destroy`` -> ``.destroy``."""

    name: str
    written_name: str
    usage: str  # Runtime | Static | Extension | Action
    scope: str  # Session | Public
    arguments: tuple[Argument, ...]
    body: Block
    meta: tuple[MetaEntry, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Class(Node):
    name: str
    namespaces: tuple[tuple[str, str], ...]  # (prefix, namespace); "=" is the default namespace
    extends: tuple[TypeRef, ...]  # io.murano.Object filled in when absent (except for itself)
    properties: tuple[Property, ...]
    methods: tuple[Method, ...]
    usage: str  # Class | Meta
    cardinality: str | None  # One | Many (meta classes)
    applies: tuple[str, ...]  # All | Package | Type | Method | Property | Argument
    inherited: bool
    meta: tuple[MetaEntry, ...]
    imports: tuple[TypeRef, ...]
    source_file: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Requirement(Node):
    """A ``Require`` entry: package name and its version spec as written (None for null)."""

    package: str
    spec: str | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Manifest(Node):
    format_name: str  # "MuranoPL"
    format_version: str  # normalised "1.0.0"
    type: str  # Application | Library | ...
    full_name: str
    name: str | None
    version: str  # normalised semantic version, "0.0.0" when absent
    requirements: tuple[Requirement, ...]
    classes: tuple[tuple[str, str], ...]  # (class full name, path relative to Classes/)
    description: str | None
    author: str | None
    supplier: Any
    tags: tuple[str, ...]
    logo: str | None
    ui: str | None
    meta: tuple[MetaEntry, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Package(Node):
    """A whole package: manifest, classes, and the files that travel with it."""

    manifest: Manifest
    classes: tuple[Class, ...]
    root: str  # directory or zip path it was read from
    resources: tuple[str, ...] = field(default=())  # paths relative to Resources/
    ui_files: tuple[str, ...] = field(default=())  # paths relative to UI/
    # files the package's type generated (path relative to the package root, bytes); the
    # compiled package carries them as if they were in the source (see mplc.packagetypes)
    generated_files: tuple[tuple[str, bytes], ...] = field(default=())
    # the dashboard form (mplc.frontend.ui.UiDefinition, a Node) when the package has a valid one
    ui_definition: Any = None
