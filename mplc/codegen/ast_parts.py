"""The small ast pieces every generator uses: references to the runtime (``_r``), names,
parameters, function definitions and literals. Lower than expression and statement codegen,
which both import it."""

from __future__ import annotations

import ast
import datetime
from typing import Any, Protocol

from mplc import ir
from mplc.pyast import PyAst


class NameSource(Protocol):
    """What lower codegen modules need of the module builder (mplc.codegen.expressions):
    fresh names and module-level constants."""

    def new_name(self, prefix: str) -> str: ...

    def module_constant(self, at: PyAst, name: str) -> ast.expr: ...


RUNTIME = "_r"
TRIPLE = ("receiver", "context", "engine")


def runtime_attribute(at: PyAst, name: str) -> ast.expr:
    return at.Attribute(value=at.Name(id=RUNTIME, ctx=ast.Load()), attr=name, ctx=ast.Load())


def runtime_call(at: PyAst, name: str, /, *args: ast.expr, **keywords: ast.expr) -> ast.expr:
    return at.Call(func=runtime_attribute(at, name), args=list(args),
                   keywords=[at.keyword(arg=key, value=value) for key, value in keywords.items()])


def fast_attribute(at: PyAst, name: str) -> ast.expr:
    """``_r.fast.<name>``: a fast-path helper of mplc/runtime/fast_paths.py."""
    return at.Attribute(value=runtime_attribute(at, "fast"), attr=name, ctx=ast.Load())


def load(at: PyAst, name: str) -> ast.expr:
    return at.Name(id=name, ctx=ast.Load())


CALLER_TOKEN = "mplc_caller_token"
MATERIALIZED = "_call_context"


def caller_token(at: PyAst) -> ast.expr:
    """``context`` where code hands on what it runs in without reading it (a method it calls
    directly, a ``new()`` site, a query loop): there a body taken the direct way in hands its
    caller token (its variables, ``_r.fast.as_context``) and builds no call context."""
    name = load(at, "context")
    setattr(name, CALLER_TOKEN, True)
    return name


def store(at: PyAst, name: str) -> ast.expr:
    return at.Name(id=name, ctx=ast.Store())


def parameters(at: PyAst, *names: str) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[at.arg(arg=name) for name in names],
                         kwonlyargs=[], kw_defaults=[], defaults=[])


def function_def(at: PyAst, name: str, parameter_names: tuple[str, ...],
                 body: list[ast.stmt]) -> ast.stmt:
    return at.FunctionDef(name=name, args=parameters(at, *parameter_names), body=body or [at.Pass()],
                          decorator_list=[], returns=None)


def constant(at: PyAst, value: Any) -> ast.expr:
    """Plain YAML data as a Python literal; user text only ever lands in ``ast.Constant``."""
    if isinstance(value, dict):
        return at.Dict(keys=[constant(at, key) for key in value],
                       values=[constant(at, item) for item in value.values()])
    if isinstance(value, (list, tuple)):
        return at.Tuple(elts=[constant(at, item) for item in value], ctx=ast.Load())
    if isinstance(value, (datetime.date, datetime.datetime)):
        return at.Constant(value=value.isoformat())
    if value is None or isinstance(value, (str, bytes, bool, int, float)):
        return at.Constant(value=value)
    raise TypeError(f"no literal form for {type(value).__name__}")


def holds_expression(value: ir.Value) -> bool:
    """Whether a data value is or holds a YAQL expression (else it is built once, as a constant)."""
    if isinstance(value, ir.Expression):
        return True
    if isinstance(value, ir.ListValue):
        return any(holds_expression(item) for item in value.items)
    if isinstance(value, ir.DictValue):
        return any(holds_expression(key) or holds_expression(item) for key, item in value.items)
    return False


VARIABLES = "_variables"
