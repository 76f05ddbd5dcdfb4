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


def _builder(node_class: type) -> Any:
    """``PyAst.<node_class name>``: builds the node at the PyAst's position."""
    if "lineno" not in node_class._attributes:
        def build(self: PyAst, *args: Any, **kwargs: Any) -> ast.AST:
            return node_class(*args, **kwargs)
    else:
        def build(self: PyAst, *args: Any, **kwargs: Any) -> ast.AST:
            node = node_class(*args, **kwargs)
            node.lineno = self.lineno
            node.col_offset = self.col_offset
            node.end_lineno = self.end_lineno
            node.end_col_offset = self.end_col_offset
            return node
    build.__name__ = build.__qualname__ = node_class.__name__
    return build


# one method per ast node class, set once: codegen builds hundreds of thousands of nodes, and a
# ``__getattr__`` making a builder per node took a tenth of a compile
for _name, _node_class in vars(ast).items():
    if isinstance(_node_class, type) and issubclass(_node_class, ast.AST) and not _name.startswith("_"):
        setattr(PyAst, _name, _builder(_node_class))


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
