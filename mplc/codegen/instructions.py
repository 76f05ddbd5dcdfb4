"""The instruction table of a class module: what a MuranoPL stack frame shows for a YAML position.

The reference engine remembers, per method call, the instruction it ran last: every YAQL
expression it evaluates (its source text and position), and every block construct it enters
(``block construct`` at the construct's mapping; ``Rethrow``). Its stack frames show that
instruction. mplc does no bookkeeping while code runs; instead each class module carries
``_INSTRUCTIONS``, built here from the IR in the order the reference evaluates it:

``{(line, col_offset): (text, line, column, end_line, end_col_offset)}``

The key is the Python position codegen stamps on the code of an IR node (``PyAst(pos)``: every
node of an expression carries the position of its whole YAML scalar); the value is the
instruction the reference would show while that code runs: its text (None when the method ran
none yet), its 1-based YAML line and column, and the end of the node's span. The code a
Parallel branch runs outside any block of its own (the branch's construct, not a statement)
has a Python error converted where the Parallel runs, not where the branch does: its entry
then ends with a second ``(text, line, column)``, the instruction such an error shows. The
runtime looks a frame's position up only when it builds a stack trace (mplc.runtime.statements).
"""

from __future__ import annotations

import ast

from mplc import ir
from mplc.pyast import PyAst

TABLE_NAME = "_INSTRUCTIONS"
BLOCK_CONSTRUCT = "block construct"

_Entry = tuple  # (text, line, column)


class InstructionTable:
    def __init__(self) -> None:
        self.entries: dict[tuple[int, int], tuple] = {}
        self._last: _Entry = (None, None, None)
        self._unconverted: _Entry | None = None

    def add_method(self, body: ir.Block) -> None:
        """Record the instructions of one method body (a new call starts with none)."""
        self._last = (None, None, None)
        self._block(body)

    def definition(self, at: PyAst) -> ast.stmt:
        """``_INSTRUCTIONS = {...}``: user text only inside constants."""
        keys = sorted(self.entries)
        table = at.Dict(keys=[at.Constant(value=key) for key in keys],
                        values=[at.Constant(value=self.entries[key]) for key in keys])
        return at.Assign(targets=[at.Name(id=TABLE_NAME, ctx=ast.Store())], value=table)

    def _record(self, pos: ir.Pos, entry: _Entry, converted_here: bool = False) -> None:
        """Record what the code at ``pos`` shows; a Python error raised there shows what the
        context converting it ran last (``_unconverted``), when that is another instruction."""
        self.entries.setdefault(_key(pos), self._entry(pos, entry, converted_here))

    def _entry(self, pos: ir.Pos, entry: _Entry, converted_here: bool = False) -> tuple:
        at = PyAst(pos)
        elsewhere = self._unconverted
        python_error = () if converted_here or elsewhere is None or elsewhere == entry else elsewhere
        return entry + (at.end_lineno, at.end_col_offset) + python_error

    def _run(self, pos: ir.Pos, text: str) -> None:
        """The reference runs an instruction: it becomes the method's last one."""
        self._last = (text, pos.line, pos.col)
        self._record(pos, self._last)

    def _value(self, value: ir.Value | None) -> None:
        for expression in _expressions(value):
            self._run(expression.pos, expression.source)

    def _deferred(self, value: ir.Value | None) -> None:
        """A Throw's Extra: its expressions run later, where the exception's extra is read, and
        are the instruction there."""
        for expression in _expressions(value):
            self._record(expression.pos, (expression.source, expression.pos.line, expression.pos.col),
                         converted_here=True)

    def _block(self, block: ir.Block | None) -> None:
        """A block converts the Python errors of its statements in its own context."""
        if block is not None:
            unconverted = self._unconverted
            self._unconverted = None
            for statement in block.statements:
                self._statement(statement)
            self._unconverted = unconverted

    def _branches(self, blocks) -> None:
        """Alternative blocks each start from the instruction the construct ran last."""
        start = self._last
        for block in blocks:
            self._last = start
            self._block(block)

    def _parallel_branches(self, statements) -> None:
        """Each branch runs in a context of its own: it starts from the instruction the Parallel
        ran last, a construct there is not announced (its frame shows that instruction), and
        what a branch runs leaves the method's instruction as it was. A statement branch
        converts its Python errors in the branch's context; a construct's own code (its
        header, Return's value) raises them out of the Parallel, into the context of the block
        around it (around the outermost of Parallels that are each other's branches)."""
        start = self._last
        unconverted = self._unconverted
        for statement in statements:
            self._last = start
            converts = isinstance(statement, (ir.ExpressionStatement, ir.Assignment, ir.Fail))
            self._unconverted = None if converts else (unconverted or start)
            self._statement(statement, announced=False)
        self._unconverted = unconverted
        self._last = start

    def _statement(self, node: ir.Statement, announced: bool = True) -> None:
        if isinstance(node, ir.ExpressionStatement):
            self._value(node.expression)
            return
        if isinstance(node, (ir.Assignment, ir.Fail)):
            self._value(node.value)
            self._record(node.pos, self._last)
            return
        if announced:
            self._run(node.pos, "Rethrow" if isinstance(node, ir.Rethrow) else BLOCK_CONSTRUCT)
        else:
            self._record(node.pos, self._last)
        if isinstance(node, ir.Throw):
            if node.cause is not None:
                self._value(node.cause)
                self._record(node.cause.pos, self._last)  # reading its native exception fails here
            for name in node.names:
                self._value(name if isinstance(name, ir.Expression) else None)
            self._value(node.message)
            self._deferred(node.extra)
            return
        header = {ir.If: "condition", ir.While: "condition", ir.For: "collection",
                  ir.Repeat: "count", ir.Match: "value", ir.Parallel: "limit", ir.Return: "value"}.get(type(node))
        if header is not None:
            self._value(getattr(node, header))
            self.entries[_key(node.pos)] = self._entry(node.pos, self._last)
        if isinstance(node, ir.If):
            self._branches((node.then, node.otherwise))
        elif isinstance(node, (ir.While, ir.For, ir.Repeat, ir.Do)):
            self._block(node.body)
        elif isinstance(node, ir.Match):
            self._branches([case.body for case in node.cases] + [node.default])
        elif isinstance(node, ir.Switch):
            for case in node.cases:
                self._value(case.condition)
                self._block(case.body)
            self._block(node.default)
        elif isinstance(node, ir.Parallel):
            self._parallel_branches(node.branches.statements)
        elif isinstance(node, ir.Try):
            self._block(node.body)
            for catch in node.catches:
                # binding As (the exception object's contracts) runs nothing of its own
                self._record(catch.pos, self._last)
            self._branches([catch.body for catch in node.catches] + [node.otherwise])
            self._block(node.finally_)


def _key(pos: ir.Pos) -> tuple[int, int]:
    at = PyAst(pos)
    return at.lineno, at.col_offset


def _expressions(value: ir.Value | None):
    """The expressions of a data value, in evaluation order (dict keys before their values)."""
    if isinstance(value, ir.Expression):
        yield value
    elif isinstance(value, ir.ListValue):
        for item in value.items:
            yield from _expressions(item)
    elif isinstance(value, ir.DictValue):
        for key, item in value.items:
            yield from _expressions(key)
            yield from _expressions(item)
