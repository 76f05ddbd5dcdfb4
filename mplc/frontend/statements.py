"""Method bodies -> IR statements.

The reference tries each block-construct class in turn with the item's keys as keyword
arguments; here the item's SET OF KEYS selects the construct directly, and every way it can be
wrong has its own diagnostic. The order of ``CONSTRUCTS`` is the reference's registration order;
the key sets are disjoint, so at most one construct accepts a given set.
"""

from __future__ import annotations

from yaql.language import expressions as yaql_expressions

from mplc import ir
from mplc.frontend.keys import described, suggestion
from mplc.frontend.values import Scope, as_list, is_null, text_of
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


class BodyReader:
    """Reads the blocks of one method; ``loops`` counts the loops around the current statement."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.sink = scope.sink
        self.loops = 0

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
            self.sink.error("E-NOT-STATEMENT", f"{described(item)} is not a statement: a plain "
                            f"value, not a YAQL expression{hint}", item.pos)
            return None
        if isinstance(item, Sequence):
            self.sink.error("E-NOT-STATEMENT", "a list is not a statement", item.pos)
            return None
        expression_keys = [key for key, _ in item.items if is_expression(key)]
        if expression_keys:
            if len(item.items) != 1:
                self.sink.error("E-ASSIGNMENT-KEYS", f"an assignment has exactly one key; this "
                                f"item has {len(item.items)}", item.pos)
                return None
            return self.assignment(item.items[0][0], item.items[0][1], item.pos)
        return self.construct(item)

    # -- assignments ------------------------------------------------------------------------

    def assignment(self, key: Scalar, value, pos: ir.Pos) -> ir.Assignment | None:
        target = self.target(key)
        if target is None:
            return None
        return ir.Assignment(target, self.scope.value(value), pos)

    def target(self, key: Scalar) -> ir.AssignmentTarget | None:
        steps: list = []
        node = key.expression.expression
        expressions = self.scope.expressions
        while True:
            if isinstance(node, yaql_expressions.Function) and node.name == "#operator_." \
                    and isinstance(node.args[1], yaql_expressions.KeywordConstant) \
                    and not isinstance(node.args[1], yaql_expressions.GetContextValue):
                steps.append(ir.AttributeStep(node.args[1].value, key.pos))
                node = node.args[0]
            elif isinstance(node, yaql_expressions.IndexExpression) and len(node.args) == 2:
                index = node.args[1]
                steps.append(ir.IndexStep(
                    ir.Expression(str(index), expressions.tree(index, key.pos), key.pos), key.pos))
                node = node.args[0]
            else:
                break
        steps.reverse()
        root = self._target_root(node, key)
        if root is None:
            return None
        if not steps and isinstance(root, ir.GetContextValue) and root.name in ("$", "$this"):
            self.sink.error("E-ASSIGNMENT-TARGET", f"cannot assign to {root.name}", key.pos)
            return None
        if not steps and not isinstance(root, ir.GetContextValue):
            self.sink.error("E-ASSIGNMENT-TARGET", f"cannot assign to the type '{key.value}'; "
                            "assign to one of its static properties", key.pos)
            return None
        return ir.AssignmentTarget(key.value, root, tuple(steps), key.pos)

    def _target_root(self, node, key: Scalar) -> ir.Expr | None:
        if isinstance(node, yaql_expressions.GetContextValue):
            return ir.GetContextValue(node.path.value, key.pos)
        tree = self.scope.expressions.tree(node, key.pos)
        if isinstance(tree, ir.TypeName):
            return tree
        if isinstance(tree, ir.Function) and tree.name == "type" and len(tree.args) == 1 \
                and not isinstance(tree.args[0], ir.MappingRule):
            return tree
        self.sink.error("E-ASSIGNMENT-TARGET", f"'{key.value}' is not something that can be "
                        "assigned to (a variable, a property, an item, or a static property)",
                        key.pos)
        return None

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
                self.sink.error("E-UNKNOWN-KEY", f"unknown key {described(key)} in a block "
                                f"construct{suggestion(name, ALL_KEYWORDS)}", key.pos)
                return
        leads = [construct for construct in CONSTRUCTS if construct in entries]
        if not leads:
            self.sink.error("E-NOT-STATEMENT", "this mapping is no statement: it has no "
                            "expression key and no construct keyword", item.pos)
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
        self.sink.error("E-CONSTRUCT-KEYS", f"{lead} construct: {'; '.join(parts)}", position)

    def _do(self, values, pos):
        return ir.Do(self.block(values["Do"], pos), pos)

    def _return(self, values, pos):
        return ir.Return(self.scope.value(values["Return"]), pos)

    def _loop_control(self, name, values, pos):
        value = values[name]
        if not is_null(value) and not (isinstance(value, Scalar) and not value.value
                                       and value.expression is None):
            self.sink.error("E-CONSTRUCT-VALUE", f"{name} cannot have a value", value.pos)
            return None
        if not self.loops:
            self.sink.error("E-OUTSIDE-LOOP", f"{name} outside a loop (While, For or Repeat)",
                            pos)
            return None
        return ir.Break(pos) if name == "Break" else ir.Continue(pos)

    def _break(self, values, pos):
        return self._loop_control("Break", values, pos)

    def _continue(self, values, pos):
        return self._loop_control("Continue", values, pos)

    def _parallel(self, values, pos):
        limit = values.get("Limit")
        return ir.Parallel(self.block(values["Parallel"], pos),
                           None if is_null(limit) else self.scope.value(limit), pos)

    def _if(self, values, pos):
        otherwise = values.get("Else")
        return ir.If(self.scope.value(values["If"]), self.block(values["Then"], pos),
                     None if is_null(otherwise) else self.block(otherwise, pos), pos)

    def _while(self, values, pos):
        condition = values["While"]
        if not is_expression(condition):
            self.sink.error("E-CONSTRUCT-VALUE", "While needs a YAQL expression as its condition",
                            condition.pos)
            return None
        return ir.While(self.scope.expression(condition), self.loop_block(values["Do"], pos), pos)

    def _for(self, values, pos):
        variable = values["For"]
        if not isinstance(variable, Scalar) or variable.expression is not None \
                or not isinstance(variable.value, str):
            self.sink.error("E-CONSTRUCT-VALUE", "For needs a variable name without '$' "
                            "(For: item)", variable.pos)
            return None
        return ir.For(variable.value, self.scope.value(values["In"]),
                      self.loop_block(values["Do"], pos), pos)

    def _repeat(self, values, pos):
        count = values["Repeat"]
        if not is_expression(count) and not (isinstance(count, Scalar)
                                             and isinstance(count.value, int)):
            self.sink.error("E-CONSTRUCT-VALUE", "Repeat needs an int or an expression",
                            count.pos)
            return None
        return ir.Repeat(self.scope.value(count), self.loop_block(values["Do"], pos), pos)

    def _match(self, values, pos):
        cases_node = values["Match"]
        if not isinstance(cases_node, Mapping):
            self.sink.error("E-CONSTRUCT-VALUE", "Match needs a mapping of cases", cases_node.pos)
            return None
        cases = []
        for key, body in cases_node.items:
            if is_expression(key):
                self.sink.warning("W-MATCH-KEY", "Match compares case keys as written, never "
                                  "evaluated: this expression key never matches", key.pos)
            cases.append(ir.MatchCase(self.scope.value(key), self.block(body, key.pos), key.pos))
        default = values.get("Default")
        return ir.Match(self.scope.value(values["Value"]), tuple(cases),
                        None if is_null(default) else self.block(default, pos), pos)

    def _switch(self, values, pos):
        cases_node = values["Switch"]
        if not isinstance(cases_node, Mapping):
            self.sink.error("E-CONSTRUCT-VALUE", "Switch needs a mapping of condition: block",
                            cases_node.pos)
            return None
        cases = tuple(ir.SwitchCase(self.scope.value(key), self.block(body, key.pos), key.pos)
                      for key, body in cases_node.items)
        default = values.get("Default")
        return ir.Switch(cases, None if is_null(default) else self.block(default, pos), pos)

    def _optional_value(self, values, name):
        node = values.get(name)
        return None if node is None else self.scope.value(node)

    def _throw(self, values, pos):
        names_node = values["Throw"]
        if is_null(names_node) or not self._names_ok(names_node):
            self.sink.error("E-THROW-NAME", "Throw needs an exception name or a list of names",
                            pos if is_null(names_node) else names_node.pos)
            return None
        return ir.Throw(self.scope.type_names(names_node, "an exception name"),
                        self._optional_value(values, "Message"),
                        self._optional_value(values, "Extra"),
                        self._optional_value(values, "Cause"), pos)

    @staticmethod
    def _names_ok(node) -> bool:
        return all(text_of(item) is not None for item in as_list(node))

    def _try(self, values, pos):
        body = self.block(values["Try"], pos)
        catches = []
        for clause in as_list(values.get("Catch")):
            catch = self._catch(clause)
            if catch is not None:
                catches.append(catch)
        otherwise = values.get("Else")
        finally_ = values.get("Finally")
        return ir.Try(body, tuple(catches),
                      None if is_null(otherwise) else self.block(otherwise, pos),
                      None if is_null(finally_) else self.block(finally_, pos), pos)

    def _catch(self, clause) -> ir.Catch | None:
        if not isinstance(clause, Mapping):
            self.sink.error("E-CONSTRUCT-VALUE", "a Catch clause is a mapping with With, As and "
                            "Do", clause.pos)
            return None
        entries = {}
        for key, value in clause.items:
            name = key.value if isinstance(key, Scalar) else None
            if name not in CATCH_KEYS:
                self.sink.error("E-UNKNOWN-KEY", f"unknown key {described(key)} in a Catch "
                                f"clause{suggestion(name, CATCH_KEYS)}", key.pos)
                return None
            entries[name] = value
        names: tuple[str, ...] = ()
        if "With" in entries and not is_null(entries["With"]):
            if not self._names_ok(entries["With"]):
                self.sink.error("E-THROW-NAME", "Catch With needs an exception name or a list "
                                "of names", entries["With"].pos)
                return None
            names = self.scope.type_names(entries["With"], "an exception name")
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
