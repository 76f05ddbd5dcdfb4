"""Building Python ast nodes that carry YAML positions (the role Hy's ``asty`` plays).

Codegen and the contract compiler both emit ast; every node they build goes through
``PyAst(pos)`` so that compiled code objects map back to YAML lines and columns.
"""

from __future__ import annotations

import ast
from typing import Any

from mplc.ir import Pos


class PyAst:
    """``PyAst(pos).Call(func=..., args=[...], keywords=[])`` builds an ``ast.Call`` at ``pos``.

    Positions must be valid for ``compile()``: lines >= 1, columns >= 0, end >= start.
    There is a method for each ast node class (``_node_builder``).
    """

    __slots__ = ("lineno", "col_offset", "end_lineno", "end_col_offset")

    def __init__(self, pos: Pos):
        self.lineno = max(pos.line, 1)
        self.col_offset = max(pos.col - 1, 0)
        end_line = max(pos.end_line, self.lineno)
        end_col = max(pos.end_col - 1, 0)
        if end_line == self.lineno and end_col < self.col_offset:
            end_col = self.col_offset
        self.end_lineno = end_line
        self.end_col_offset = end_col

    @classmethod
    def at_node(cls, node: ast.AST) -> "PyAst":
        """A builder at the position of ``node`` (which has one)."""
        builder = cls.__new__(cls)
        builder.lineno, builder.col_offset = node.lineno, node.col_offset
        builder.end_lineno, builder.end_col_offset = node.end_lineno, node.end_col_offset
        return builder


def _node_builder(node_class: type):
    """``PyAst.<NodeClass>``: codegen builds hundreds of thousands of nodes, so the position
    goes in with the constructor's keywords, not as four attribute writes after it."""
    if "lineno" not in node_class._attributes:
        def build_unpositioned(self: PyAst, *args: Any, **kwargs: Any) -> ast.AST:
            return node_class(*args, **kwargs)
        return build_unpositioned

    def build(self: PyAst, *args: Any, **kwargs: Any) -> ast.AST:
        return node_class(*args, lineno=self.lineno, col_offset=self.col_offset, end_lineno=self.end_lineno,
                          end_col_offset=self.end_col_offset, **kwargs)
    return build


for _name, _node_class in vars(ast).items():
    if isinstance(_node_class, type) and issubclass(_node_class, ast.AST) and _node_class is not ast.AST:
        setattr(PyAst, _name, _node_builder(_node_class))


def stamp_missing(tree: ast.AST, pos: Pos) -> ast.AST:
    """Give ``pos`` to every node in ``tree`` that has no position yet (e.g. from a template)."""
    stamper = PyAst(pos)
    for node in ast.walk(tree):
        if "lineno" in node._attributes and not hasattr(node, "lineno"):
            node.lineno = stamper.lineno
            node.col_offset = stamper.col_offset
            node.end_lineno = stamper.end_lineno
            node.end_col_offset = stamper.end_col_offset
    return tree
