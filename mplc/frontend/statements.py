"""Method bodies -> IR statements.

The reference tries each block-construct class in turn with the item's keys as keyword
arguments; here the item's SET OF KEYS selects the construct directly, and every way it can be
wrong has its own diagnostic. The order of ``CONSTRUCTS`` is the reference's registration order;
the key sets are disjoint, so at most one construct accepts a given set.

The reference reads a method body when it loads the class, so a body that does not read is an
error, except inside a Match or Switch case: the reference reads a case body only when the case
runs. There the error is a warning and the case body becomes an ``ir.Fail`` raising what the
reference raises. Statements that read but always fail when they run (an assignment to ``$``,
Break outside a loop) are warnings and compile to that failure.
"""

from __future__ import annotations

from yaql.language import expressions as yaql_expressions

from mplc import ir
from mplc.frontend.keys import described, suggestion
from mplc.versioning import TYPE_NAME
from mplc.frontend.values import Scope, as_list, is_falsy, is_null, plain_data, text_of
from mplc.frontend.yaml_source import Mapping, Scalar, Sequence, is_expression

# construct -> (required keys, optional keys)
CONSTRUCTS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "Do": (frozenset({"Do"}), frozenset()),
    "Return": (frozenset({"Return"}), frozenset()),
    "Break": (frozenset({"Break"}), frozenset()),
    "Continue": (frozenset({"Continue"}), frozenset()),
    "Parallel": (frozenset({"Parallel"}), frozenset({"Limit"})),
    "If": (frozenset({"If", "Then"}), frozenset({"Else"})),
    "While": (frozenset({"While", "Do"}), frozenset()),
    "For": (frozenset({"For", "In", "Do"}), frozenset()),
    "Repeat": (frozenset({"Repeat", "Do"}), frozenset()),
    "Match": (frozenset({"Match", "Value"}), frozenset({"Default"})),
    "Switch": (frozenset({"Switch"}), frozenset({"Default"})),
    "Throw": (frozenset({"Throw"}), frozenset({"Message", "Extra", "Cause"})),
    "Try": (frozenset({"Try"}), frozenset({"Catch", "Finally", "Else"})),
    "Rethrow": (frozenset({"Rethrow"}), frozenset()),
}
ALL_KEYWORDS = frozenset().union(*(required | optional for required, optional in CONSTRUCTS.values()))
CATCH_KEYS = frozenset({"With", "As", "Do"})
# functions of the reference's assignment-target evaluation; any other function is unknown there
TARGET_FUNCTIONS = frozenset({"#operator_.", "#indexer", "#operator_:", "#unary_operator_:",
                              "type"})


def _syntax_error(item) -> tuple[str, str]:
    """The reference's error for a body item (a node, or a construct's key: node dict) that no
    construct accepts."""
    data = {name: plain_data(node) for name, node in item.items()} if isinstance(item, dict) \
        else plain_data(item)
    return "SyntaxError", f"Syntax is incorrect in expression: {data}"


def _target_failure(node) -> tuple[str, str | None] | None:
    """What evaluating an assignment target's yaql tree raises in the reference, where only
    variables, ``.name``, ``[index]``, ``ns:Name`` and ``type('name')`` exist: (error, detail),
    with ``InvalidLhsTargetError`` for a value that is no slot; None for a writable slot."""
    while isinstance(node, yaql_expressions.Wrap):
        node = node.expr
    if isinstance(node, yaql_expressions.GetContextValue):
        return None
    if not isinstance(node, yaql_expressions.Function):
        return "InvalidLhsTargetError", None
    if node.name not in TARGET_FUNCTIONS:
        return "NoFunctionRegisteredException", node.name
    args = node.args
    no_match = ("NoMatchingFunctionException", node.name)
    if node.name == "type":
        if len(args) != 1:
            return no_match
        if isinstance(args[0], yaql_expressions.Constant) and isinstance(args[0].value, str):
            return None
        inner = _target_failure(args[0])
        return inner if inner is not None and inner[0] != "InvalidLhsTargetError" else no_match
    if node.name in ("#operator_:", "#unary_operator_:"):
        keywords = all(isinstance(arg, yaql_expressions.KeywordConstant) for arg in args)
        return None if keywords and len(args) == (2 if node.name == "#operator_:" else 1) \
            else no_match
    if len(args) != 2 or node.name == "#operator_." and not isinstance(
            args[1], yaql_expressions.KeywordConstant):
        return no_match
    inner = _target_failure(args[0])
    return no_match if inner is not None and inner[0] == "InvalidLhsTargetError" else inner


class BodyReader:
    """Reads the blocks of one method; ``loops`` counts the loops around the current statement;
    ``case_failures`` collects the failures of the Match/Switch case body being read, if any."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.sink = scope.sink
        self.loops = 0
        self.case_failures: list[ir.Fail] | None = None

    def invalid(self, code: str, message: str, pos: ir.Pos, error: str,
                detail: str | None) -> None:
        """A body item the reference cannot read: it raises ``error(detail)`` while reading."""
        if self.case_failures is None:
            self.sink.error(code, message, pos)
            return
        self.sink.warning("W-" + code[2:], f"{message}; the reference reads a case body only "
                          f"when the case runs, and then raises {error}", pos)
        self.case_failures.append(ir.Fail(error, detail, None, pos))

    def case_block(self, node, pos: ir.Pos) -> ir.Block:
        """A Match or Switch case body: one that does not read fails when the case runs."""
        outer = self.case_failures
        self.case_failures = []
        try:
            block = self.block(node, pos)
            failures = self.case_failures
        finally:
            self.case_failures = outer
        return ir.Block(tuple(failures[:1]), block.pos) if failures else block

    def block(self, node, pos: ir.Pos) -> ir.Block:
        items = as_list(node)
        statements = []
        for item in items:
            statement = self.statement(item)
            if statement is not None:
                statements.append(statement)
        return ir.Block(tuple(statements), node.pos if node is not None else pos)

    def loop_block(self, node, pos: ir.Pos) -> ir.Block:
        self.loops += 1
        try:
            return self.block(node, pos)
        finally:
            self.loops -= 1

    def statement(self, item) -> ir.Statement | None:
        if isinstance(item, Scalar):
            if item.expression is not None:
                return ir.ExpressionStatement(self.scope.expression(item), item.pos)
            hint = ""
            if isinstance(item.value, str) and item.value.replace(".", "").isidentifier():
                hint = f" (a call needs parentheses: {item.value}())"
            self.invalid("E-NOT-STATEMENT", f"{described(item)} is not a statement: a plain "
                         f"value, not a YAQL expression{hint}", item.pos, *_syntax_error(item))
            return None
        if isinstance(item, Sequence):
            self.invalid("E-NOT-STATEMENT", "a list is not a statement", item.pos,
                         *_syntax_error(item))
            return None
        expression_keys = [key for key, _ in item.items if is_expression(key)]
        if expression_keys:
            if len(item.items) != 1:
                self.invalid("E-ASSIGNMENT-KEYS", f"an assignment has exactly one key; this item "
                             f"has {len(item.items)}", item.pos, "SyntaxError", None)
                return None
            return self.assignment(item.items[0][0], item.items[0][1], item.pos)
        return self.construct(item)

    # -- assignments ------------------------------------------------------------------------

    def assignment(self, key: Scalar, value, pos: ir.Pos) -> ir.Assignment | ir.Fail:
        target = self.target(key)
        if isinstance(target, ir.AssignmentTarget):
            return ir.Assignment(target, self.scope.value(value), pos)
        error, detail, type_root = target
        self.sink.warning("W-ASSIGNMENT-TARGET", f"cannot assign to '{key.value}': the statement "
                          f"raises {error} when it runs", key.pos)
        evaluated = self.scope.value(value)
        if type_root is not None:
            evaluated = ir.ListValue((evaluated, type_root), pos)
        return ir.Fail(error, detail, evaluated, pos)

    def target(self, key: Scalar) -> ir.AssignmentTarget | tuple[str, str | None, ir.Expression | None]:
        """The target, or what the reference raises when assigning to it: (error, detail, the
        type expression it evaluates after the value, before it finds the target is no slot)."""
        failure = _target_failure(key.expression.expression)
        if failure is not None:
            return (*failure, None) if failure[0] != "InvalidLhsTargetError" \
                else ("InvalidLhsTargetError", key.value, None)
        steps: list = []
        node = key.expression.expression
        expressions = self.scope.expressions
        while True:
            if isinstance(node, yaql_expressions.Wrap):
                node = node.expr
            elif isinstance(node, yaql_expressions.GetContextValue):
                break
            elif node.name == "#operator_.":
                steps.append(ir.AttributeStep(node.args[1].value, key.pos))
                node = node.args[0]
            elif node.name == "#indexer":
                index = node.args[1]
                steps.append(ir.IndexStep(
                    ir.Expression(str(index), expressions.tree(index, key.pos), key.pos), key.pos))
                node = node.args[0]
            else:
                break
        steps.reverse()
        if isinstance(node, yaql_expressions.GetContextValue):
            root = ir.GetContextValue(node.path.value, key.pos)
            if not steps and root.name in ("$", "$this"):
                return "ValueError", f"Cannot assign to {root.name}", None
        else:
            root = expressions.tree(node, key.pos)
            if not steps:
                return "InvalidLhsTargetError", key.value, ir.Expression(key.value, root, key.pos)
        return ir.AssignmentTarget(key.value, root, tuple(steps), key.pos)

    # -- block constructs -------------------------------------------------------------------

    def construct(self, item: Mapping) -> ir.Statement | None:
        entries = {}
        for key, value in item.items:
            entries[key.value if isinstance(key, Scalar) else None] = (key, value)
        names = set(entries)
        for construct, (required, optional) in CONSTRUCTS.items():
            if required <= names and names <= required | optional:
                return getattr(self, "_" + construct.lower())(
                    {name: value for name, (_, value) in entries.items()}, item.pos)
        self._explain(item, entries)
        return None

    def _explain(self, item: Mapping, entries: dict) -> None:
        for name, (key, _) in entries.items():
            if name not in ALL_KEYWORDS:
                self.invalid("E-UNKNOWN-KEY", f"unknown key {described(key)} in a block "
                             f"construct{suggestion(name, ALL_KEYWORDS)}", key.pos,
                             *_syntax_error(item))
                return
        leads = [construct for construct in CONSTRUCTS if construct in entries]
        if not leads:
            self.invalid("E-NOT-STATEMENT", "this mapping is no statement: it has no expression "
                         "key and no construct keyword", item.pos, *_syntax_error(item))
            return
        lead = next((c for c in leads if c != "Do"), leads[0])
        required, optional = CONSTRUCTS[lead]
        missing = sorted(required - set(entries))
        extra = sorted(set(entries) - required - optional)
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unexpected " + ", ".join(extra))
        position = entries[extra[0]][0].pos if extra else item.pos
        self.invalid("E-CONSTRUCT-KEYS", f"{lead} construct: {'; '.join(parts)}", position,
                     *_syntax_error(item))

    def _do(self, values, pos):
        return ir.Do(self.block(values["Do"], pos), pos)

    def _return(self, values, pos):
        return ir.Return(self.scope.value(values["Return"]), pos)

    def _loop_control(self, name, values, pos):
        value = values[name]
        if not is_null(value) and not (isinstance(value, Scalar) and not value.value
                                       and value.expression is None):
            self.invalid("E-CONSTRUCT-VALUE", f"{name} cannot have a value", value.pos,
                         "DslSyntaxError", f"{name} cannot have value")
            return None
        if not self.loops:
            self.sink.warning("W-OUTSIDE-LOOP", f"{name} outside a loop (While, For or Repeat) "
                              "raises DslInvalidOperationError when it runs", pos)
        return ir.Break(pos) if name == "Break" else ir.Continue(pos)

    def _break(self, values, pos):
        return self._loop_control("Break", values, pos)

    def _continue(self, values, pos):
        return self._loop_control("Continue", values, pos)

    def _parallel(self, values, pos):
        limit = values.get("Limit")
        # the reference takes ``Limit or len(branches)``: a false literal (0, '', [], {}) is no limit
        falsy = is_null(limit) or (isinstance(limit, Scalar) and limit.expression is None
                                   and not limit.value) or (
            isinstance(limit, (Mapping, Sequence)) and not limit.items)
        return ir.Parallel(self.block(values["Parallel"], pos),
                           None if falsy else self.scope.value(limit), pos)

    def _if(self, values, pos):
        otherwise = values.get("Else")
        return ir.If(self.scope.value(values["If"]), self.block(values["Then"], pos),
                     None if is_null(otherwise) else self.block(otherwise, pos), pos)

    def _while(self, values, pos):
        condition = values["While"]
        if not is_expression(condition):
            self.invalid("E-CONSTRUCT-VALUE", "While needs a YAQL expression as its condition",
                         condition.pos, *_syntax_error(values))
            return None
        return ir.While(self.scope.expression(condition), self.loop_block(values["Do"], pos), pos)

    def _for(self, values, pos):
        variable = values["For"]
        if not isinstance(variable, Scalar) or variable.expression is not None \
                or not isinstance(variable.value, str):
            self.invalid("E-CONSTRUCT-VALUE", "For needs a variable name without '$' (For: item)",
                         variable.pos, "DslSyntaxError", "For value must be of string type")
            return None
        return ir.For(variable.value, self.scope.value(values["In"]),
                      self.loop_block(values["Do"], pos), pos)

    def _repeat(self, values, pos):
        count = values["Repeat"]
        if not is_expression(count) and not (isinstance(count, Scalar)
                                             and isinstance(count.value, int)):
            self.invalid("E-CONSTRUCT-VALUE", "Repeat needs an int or an expression", count.pos,
                         "DslSyntaxError", "Repeat value must be either int or expression")
            return None
        return ir.Repeat(self.scope.value(count), self.loop_block(values["Do"], pos), pos)

    def _match(self, values, pos):
        cases_node = values["Match"]
        if not isinstance(cases_node, Mapping):
            self.invalid("E-CONSTRUCT-VALUE", "Match needs a mapping of cases", cases_node.pos,
                         "DslSyntaxError", "Match value must be of dictionary type")
            return None
        cases = []
        for key, body in cases_node.items:
            if is_expression(key):
                self.sink.warning("W-MATCH-KEY", "Match compares case keys as written, never "
                                  "evaluated: this expression key never matches", key.pos)
            cases.append(ir.MatchCase(self.scope.value(key), self.case_block(body, key.pos),
                                      key.pos))
        default = values.get("Default")
        return ir.Match(self.scope.value(values["Value"]), tuple(cases),
                        None if is_null(default) else self.block(default, pos), pos)

    def _switch(self, values, pos):
        cases_node = values["Switch"]
        if not isinstance(cases_node, Mapping):
            self.invalid("E-CONSTRUCT-VALUE", "Switch needs a mapping of condition: block",
                         cases_node.pos, "DslSyntaxError", "Switch value must be of dictionary type")
            return None
        cases = tuple(ir.SwitchCase(self.scope.value(key), self.case_block(body, key.pos), key.pos)
                      for key, body in cases_node.items)
        default = values.get("Default")
        return ir.Switch(cases, None if is_null(default) else self.block(default, pos), pos)

    def _optional_value(self, values, name):
        node = values.get(name)
        return None if node is None else self.scope.value(node)

    def _throw(self, values, pos):
        names_node = values["Throw"]
        if is_falsy(names_node):
            self.invalid("E-THROW-NAME", "Throw needs an exception name or a list of names", pos,
                         "ValueError", None)
            return None
        bad_name = next((item for item in as_list(names_node) if text_of(item) is None), None)
        if bad_name is not None:
            self.sink.warning("W-THROW-NAME", f"{described(bad_name)} is not an exception name; "
                              "the Throw raises ValueError when it runs", bad_name.pos)
            return ir.Fail("ValueError", f'Invalid type name "{plain_data(bad_name)}"', None, pos)
        names = tuple(self.scope.value(item) if is_expression(item) else self.scope.type_names(item)[0]
                      for item in as_list(names_node))
        return ir.Throw(names,
                        self._optional_value(values, "Message"),
                        self._optional_value(values, "Extra"),
                        self._optional_value(values, "Cause"), pos)

    def _try(self, values, pos):
        body = self.block(values["Try"], pos)
        catches = []
        for clause in as_list(values.get("Catch")):
            catch = self._catch(clause, values)
            if catch is not None:
                catches.append(catch)
        otherwise = values.get("Else")
        finally_ = values.get("Finally")
        return ir.Try(body, tuple(catches),
                      None if is_null(otherwise) else self.block(otherwise, pos),
                      None if is_null(finally_) else self.block(finally_, pos), pos)

    def _catch(self, clause, try_values) -> ir.Catch | None:
        if not isinstance(clause, Mapping):
            self.invalid("E-CONSTRUCT-VALUE", "a Catch clause is a mapping with With, As and Do",
                         clause.pos, *_syntax_error(try_values))
            return None
        entries = {}
        for key, value in clause.items:
            name = key.value if isinstance(key, Scalar) else None
            if name not in CATCH_KEYS:
                self.invalid("E-UNKNOWN-KEY", f"unknown key {described(key)} in a Catch "
                             f"clause{suggestion(name, CATCH_KEYS)}", key.pos,
                             *_syntax_error(try_values))
                return None
            entries[name] = value
        names: tuple[str, ...] = ()
        if "With" in entries and not is_null(entries["With"]):
            if any(text_of(item) is None for item in as_list(entries["With"])):
                self.sink.error("E-THROW-NAME", "Catch With needs an exception name or a list "
                                "of names", entries["With"].pos)
                return None
            names = self.scope.type_names(entries["With"])
            invalid = next((text_of(item) for item in as_list(entries["With"])
                            if not TYPE_NAME.match(text_of(item))), None)
            if invalid is not None:
                # the reference resolves the names as any exception reaches the clause
                failure = ir.Fail("ValueError", f'Invalid type name "{invalid}"', None, clause.pos)
                return ir.Catch((), None, ir.Block((failure,), clause.pos), clause.pos)
        variable = None
        if "As" in entries and not is_null(entries["As"]):
            as_node = entries["As"]
            if not isinstance(as_node, Scalar) or not isinstance(as_node.value, str) \
                    or as_node.expression is not None:
                self.sink.error("E-CONSTRUCT-VALUE", "Catch As needs a variable name without "
                                "'$'", as_node.pos)
                return None
            variable = as_node.value
        body = self.block(entries.get("Do"), clause.pos)
        return ir.Catch(names, variable, body, clause.pos)

    def _rethrow(self, values, pos):
        return ir.Rethrow(pos)
