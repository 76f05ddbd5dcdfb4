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

from dataclasses import dataclass, field
from typing import Any, Union


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


# ---------------------------------------------------------------------------------------------
# YAQL expression trees (mirror of yaql.language.expressions)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Constant:
    """A literal inside an expression: str, int, float, bool or None."""

    value: Any
    pos: Pos


@dataclass(frozen=True, slots=True)
class KeywordConstant:
    """A bare identifier (``foo`` in ``$.foo``, ``a`` in ``a => 1``, ``std`` in ``std:App``)."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class GetContextValue:
    """``$``, ``$name``, ``$1``: ``name`` is the full token including the dollar sign."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Function:
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
class MappingRule:
    """``source => destination``: a keyword argument, or an entry of a ``{...}`` literal."""

    source: "Expr"
    destination: "Expr"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Wrap:
    """A parenthesised sub-expression ``( ... )``."""

    expr: "Expr"
    pos: Pos


@dataclass(frozen=True, slots=True)
class TypeName:
    """``ns:Name`` / ``:Name`` resolved at compile time to a full class name.

    ``written`` keeps the source spelling for messages.
    """

    full_name: str
    written: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class SkippedArgument:
    """An argument left out, as in ``f(, 1)``: yaql passes its NO_VALUE marker, so the
    function's default for that parameter applies."""

    pos: Pos


Expr = Union[Constant, KeywordConstant, GetContextValue, Function, MappingRule, Wrap, TypeName,
             SkippedArgument]


@dataclass(frozen=True, slots=True)
class Expression:
    """A whole YAQL expression as it stood in the YAML (a scalar, or a mapping key)."""

    source: str
    tree: Expr
    pos: Pos


# ---------------------------------------------------------------------------------------------
# Data values: YAML data that may hold expressions at any depth
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Literal:
    """A YAML scalar that is data, not an expression (str, int, float, bool, None, date)."""

    value: Any
    pos: Pos


@dataclass(frozen=True, slots=True)
class ListValue:
    items: tuple["Value", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class DictValue:
    """A mapping; keys are Values too (an expression key is evaluated)."""

    items: tuple[tuple["Value", "Value"], ...]
    pos: Pos


Value = Union[Expression, Literal, ListValue, DictValue]


# ---------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Block:
    statements: tuple["Statement", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class AttributeStep:
    """``.name`` in an assignment target."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class IndexStep:
    """``[index]`` in an assignment target; ``index`` is evaluated."""

    index: Expression
    pos: Pos


@dataclass(frozen=True, slots=True)
class AssignmentTarget:
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
class ExpressionStatement:
    expression: Expression
    pos: Pos


@dataclass(frozen=True, slots=True)
class Assignment:
    target: AssignmentTarget
    value: Value
    pos: Pos


@dataclass(frozen=True, slots=True)
class Return:
    value: Value | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Break:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Continue:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Do:
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class If:
    condition: Value
    then: Block
    otherwise: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class While:
    condition: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class For:
    variable: str
    collection: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Repeat:
    count: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class MatchCase:
    key: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Match:
    value: Value
    cases: tuple[MatchCase, ...]
    default: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class SwitchCase:
    condition: Value
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Switch:
    cases: tuple[SwitchCase, ...]
    default: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Parallel:
    """Each statement of ``branches`` runs as its own cooperative branch."""

    branches: Block
    limit: Value | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Throw:
    """``names`` are exception type names as written, or expressions: the reference evaluates
    the names (an unquoted ``ns:Name`` looks the class up) and resolves the text of each result
    when the Throw runs."""

    names: tuple[str | Expression, ...]
    message: Value | None
    extra: Value | None
    cause: Value | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Catch:
    """``names`` (as written; resolved when an exception reaches the clause) empty catches
    everything; ``variable`` is the ``As`` name without ``$``."""

    names: tuple[str, ...]
    variable: str | None
    body: Block
    pos: Pos


@dataclass(frozen=True, slots=True)
class Try:
    body: Block
    catches: tuple[Catch, ...]
    otherwise: Block | None
    finally_: Block | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Rethrow:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Fail:
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
class ContractExpression:
    """A contract written as a YAQL expression: ``$.string().notNull()``, ``$``, ``$.class(T)``."""

    expression: Expression
    pos: Pos


@dataclass(frozen=True, slots=True)
class ContractList:
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
class ContractDict:
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
class ContractConstant:
    """A scalar contract: the value must equal it."""

    value: Any
    pos: Pos


Contract = Union[ContractExpression, ContractList, ContractDict, ContractConstant]


# ---------------------------------------------------------------------------------------------
# Classes and packages
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TypeRef:
    """A class name as written, and the full name it resolves to in its class's namespaces."""

    written: str
    full_name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class MetaEntry:
    """One item of a ``Meta`` section: a meta class and its property values."""

    type: TypeRef
    values: tuple[tuple[str, Value], ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Property:
    name: str
    contract: Contract
    usage: str  # In | Out | InOut | Const | Runtime | Static | Config
    default: Value | None  # None: no Default key (distinct from an explicit null Literal)
    meta: tuple[MetaEntry, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Argument:
    name: str
    contract: Contract | None
    usage: str  # Standard | VarArgs | KwArgs
    default: Value | None  # None: no Default key
    meta: tuple[MetaEntry, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Method:
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
class Class:
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
class Requirement:
    """A ``Require`` entry: package name and its version spec as written (None for null)."""

    package: str
    spec: str | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Manifest:
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
class Package:
    """A whole package: manifest, classes, and the files that travel with it."""

    manifest: Manifest
    classes: tuple[Class, ...]
    root: str  # directory or zip path it was read from
    resources: tuple[str, ...] = field(default=())  # paths relative to Resources/
    ui_files: tuple[str, ...] = field(default=())  # paths relative to UI/
    # files the package's type generated (path relative to the package root, bytes); the
    # compiled package carries them as if they were in the source (see mplc.packagetypes)
    generated_files: tuple[tuple[str, bytes], ...] = field(default=())
