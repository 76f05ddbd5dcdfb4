"""YAML text -> a small tree of scalars, mappings and sequences that keep their positions.

Scalars are typed exactly as Murano's loader types them: PyYAML SafeLoader resolution (YAML 1.1)
plus a last-resort implicit ``!yaql`` resolver (see ``yaql_syntax.murano_expression``). The
tree is built from the parser's event stream with an explicit stack, so hostile input (deep
nesting, alias bombs, recursive anchors, huge scalars, bad bytes) ends in a diagnostic, never in
a crash, a hang or exponential memory.
"""

from __future__ import annotations

import yaml
import yaml.constructor
import yaml.nodes
import yaml.resolver

from mplc.diagnostics import DiagnosticSink
from mplc.frontend import yaql_syntax
from mplc.ir import Pos

try:
    from yaml.cyaml import CParser as _EventParser
except ImportError:  # PyYAML built without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _EventParser(Reader, Scanner, Parser):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)

MAX_DEPTH = 200
MAX_EXPANDED_NODES = 1_000_000
YAQL_TAG = "!yaql"
STR_TAG = "tag:yaml.org,2002:str"
VALUE_TAG = "tag:yaml.org,2002:value"
MERGE_TAG = "tag:yaml.org,2002:merge"
MAPPING_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:set")
SEQUENCE_TAGS = (None, "!", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap",
                 "tag:yaml.org,2002:pairs")
_COLLECTION_TAGS = frozenset(MAPPING_TAGS[2:] + SEQUENCE_TAGS[2:])


class Scalar:
    """A YAML scalar. ``expression`` is the parsed yaql statement when the scalar is YAQL."""

    __slots__ = ("value", "expression", "pos")
    size = 1

    def __init__(self, value, expression, pos: Pos):
        self.value = value
        self.expression = expression
        self.pos = pos

    def __repr__(self) -> str:
        return f"Scalar({self.value!r}{', yaql' if self.expression is not None else ''})"


class MergeKey(Scalar):
    """A plain ``<<`` key: its value's mappings are merged into the enclosing mapping."""

    __slots__ = ()


class Mapping:
    __slots__ = ("items", "pos", "size")

    def __init__(self, pos: Pos):
        self.items: list[tuple[Node, Node]] = []
        self.pos = pos
        self.size = 1


class Sequence:
    __slots__ = ("items", "pos", "size")

    def __init__(self, pos: Pos):
        self.items: list[Node] = []
        self.pos = pos
        self.size = 1


Node = Scalar | Mapping | Sequence


def is_expression(node) -> bool:
    return isinstance(node, Scalar) and node.expression is not None


def plain_key(node) -> object:
    """A mapping key as Murano's dict would hold it: the text of an expression, else the value."""
    return node.value


class _YaqlMatcher:
    """The implicit resolver Murano adds with ``first=None``: consulted after the standard ones."""

    @staticmethod
    def match(text: str) -> bool:
        return yaql_syntax.murano_expression(text) is not None


class _MuranoResolver(yaml.resolver.Resolver):
    pass


_MuranoResolver.add_implicit_resolver(YAQL_TAG, _YaqlMatcher, None)
_RESOLVER = _MuranoResolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class YamlFailure(Exception):
    def __init__(self, code: str, message: str, pos: Pos):
        super().__init__(message)
        self.code = code
        self.message = message
        self.pos = pos


def _pos(path: str, event) -> Pos:
    start, end = event.start_mark, event.end_mark
    return Pos(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _scalar(path: str, event, is_key: bool) -> Scalar:
    pos = _pos(path, event)
    text = event.value
    tag = event.tag
    if tag is None or tag == "!":
        plain = event.implicit[0] if tag is None else False
        if plain and len(text) > yaql_syntax.MAX_EXPRESSION_LENGTH \
                and not yaql_syntax.is_plain_word_text(text):
            raise YamlFailure("E-SCALAR-TOO-LONG",
                              f"plain scalar of {len(text)} characters is too long to be read "
                              "as YAQL; quote it or use a block scalar", pos)
        tag = _RESOLVER.resolve(yaml.nodes.ScalarNode, text, (plain, not plain)) \
            if tag is None else STR_TAG
    if tag == YAQL_TAG:
        expression = yaql_syntax.parse_statement(text)
        if expression is None:
            raise YamlFailure("E-YAQL-SYNTAX", f"!yaql scalar is not a valid YAQL expression: "
                              f"{yaql_syntax.parse_error_message(text)}", pos)
        return Scalar(text, expression, pos)
    if tag == STR_TAG:
        return Scalar(text, None, pos)
    if tag == MERGE_TAG and is_key:
        return MergeKey(text, None, pos)
    if tag == VALUE_TAG:
        if is_key:
            return Scalar(text, None, pos)
        raise YamlFailure("E-YAML", "a bare '=' is not a YAML 1.1 value; quote it", pos)
    constructor = _CONSTRUCTOR.yaml_constructors.get(tag)
    if constructor is None:
        raise YamlFailure("E-YAML", f"unknown YAML tag {tag!r}", pos)
    node = yaml.nodes.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style)
    if tag in _COLLECTION_TAGS:  # PyYAML: "expected a mapping node, but found scalar"
        raise YamlFailure("E-YAML", f"a scalar cannot be tagged {tag!r}", pos)
    try:
        value = constructor(_CONSTRUCTOR, node)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as error:
        raise YamlFailure("E-YAML", f"cannot read {tag} scalar {text[:40]!r}: {error}", pos)
    except (AttributeError, LookupError):  # PyYAML's bool and timestamp constructors on other text
        raise YamlFailure("E-YAML", f"cannot read {tag} scalar {text[:40]!r}", pos)
    return Scalar(value, None, pos)


def _merge(mapping: Mapping, value, pos: Pos) -> None:
    sources = value.items if isinstance(value, Sequence) else [value]
    merged: list[tuple[Node, Node]] = []
    for source in sources:
        if not isinstance(source, Mapping):
            raise YamlFailure("E-YAML", "a merge key '<<' needs a mapping or a list of mappings",
                              pos)
        merged.extend(source.items)
    mapping.items[:0] = merged


class _Composer:
    """Turns parser events into a tree; aliases share subtrees, sizes count their expansion."""

    def __init__(self, path: str):
        self.path = path
        self.anchors: dict[str, Node] = {}

    def document(self, parser) -> Node | None:
        stack: list[list] = []  # [container, pending key or None, expecting key?, merge?]
        root = None
        while True:
            event = parser.get_event()
            if isinstance(event, yaml.DocumentEndEvent):
                return root
            node = None
            if isinstance(event, yaml.AliasEvent):
                node = self.anchors.get(event.anchor)
                if node is None:
                    raise YamlFailure("E-YAML", f"unknown or recursive alias *{event.anchor}",
                                      _pos(self.path, event))
            elif isinstance(event, yaml.ScalarEvent):
                is_key = bool(stack) and isinstance(stack[-1][0], Mapping) and stack[-1][2]
                node = _scalar(self.path, event, is_key)
                if event.anchor:
                    self.anchors[event.anchor] = node
            elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise YamlFailure("E-YAML-DEPTH",
                                      f"YAML nesting deeper than {MAX_DEPTH} levels",
                                      _pos(self.path, event))
                is_mapping = isinstance(event, yaml.MappingStartEvent)
                if event.tag not in (MAPPING_TAGS if is_mapping else SEQUENCE_TAGS):
                    raise YamlFailure("E-YAML", f"a {'mapping' if is_mapping else 'list'} cannot be "
                                      f"tagged {event.tag!r}", _pos(self.path, event))
                container = Mapping(_pos(self.path, event)) if is_mapping else Sequence(_pos(self.path, event))
                stack.append([container, None, True, event.anchor])
                continue
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                container, _, _, anchor = stack.pop()
                if anchor:
                    self.anchors[anchor] = container
                node = container
            else:
                continue
            if not stack:
                root = node
                continue
            frame = stack[-1]
            parent = frame[0]
            parent.size += node.size
            if parent.size > MAX_EXPANDED_NODES:
                raise YamlFailure("E-YAML-ALIAS-BOMB",
                                  f"document expands to more than {MAX_EXPANDED_NODES} nodes "
                                  "(aliases)", node.pos)
            if isinstance(parent, Sequence):
                parent.items.append(node)
            elif frame[2]:
                if not isinstance(node, Scalar):  # PyYAML: "found unhashable key"
                    raise YamlFailure("E-YAML", "a mapping key must be a scalar, not a "
                                      f"{'list' if isinstance(node, Sequence) else 'mapping'}",
                                      node.pos)
                frame[1] = node
                frame[2] = False
            else:
                key = frame[1]
                frame[1] = None
                frame[2] = True
                if isinstance(key, MergeKey):
                    _merge(parent, node, key.pos)
                else:
                    parent.items.append((key, node))


def _decode_failure(data: bytes, path: str, error: UnicodeDecodeError) -> YamlFailure:
    line = data.count(b"\n", 0, error.start) + 1
    column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
    return YamlFailure("E-ENCODING", f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})",
                       Pos(path, line, column, line, column + 1))


def read_documents(data: bytes, path: str, sink: DiagnosticSink) -> list[Node] | None:
    """Every non-empty document of a YAML file, or None (with a diagnostic) when unreadable."""
    try:
        if b"\x00" in data:
            raise YamlFailure("E-BINARY", "binary file (NUL bytes), not YAML", Pos(path, 1, 1, 1, 1))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise _decode_failure(data, path, error) from None
        parser = _EventParser(text)
        composer = _Composer(path)
        documents: list[Node] = []
        try:
            while True:
                event = parser.get_event()
                if isinstance(event, yaml.StreamEndEvent):
                    break
                if isinstance(event, yaml.DocumentStartEvent):
                    document = composer.document(parser)
                    if document is not None and _truthy(document):
                        documents.append(document)
        finally:
            parser.dispose()
        return documents
    except YamlFailure as failure:
        sink.error(failure.code, failure.message, failure.pos)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        pos = Pos(path, line, column, line, column + 1)
        if "nesting depth" in (error.problem or ""):  # libyaml's own limit (PyYAML >= 6.0.4 wheels)
            sink.error("E-YAML-DEPTH", f"YAML nesting deeper than {MAX_DEPTH} levels", pos)
        else:
            message = " ".join(part for part in (error.context, error.problem) if part)
            sink.error("E-YAML", f"YAML syntax: {message}", pos)
    except yaml.YAMLError as error:
        sink.error("E-YAML", f"YAML syntax: {error}", Pos(path, 1, 1, 1, 1))
    return None


def _truthy(node: Node) -> bool:
    """Murano drops falsy documents (empty, ``{}``, ``[]``, ``0``, ``''``, ``false``)."""
    if isinstance(node, Scalar):
        return bool(node.value) or node.expression is not None
    return bool(node.items)
