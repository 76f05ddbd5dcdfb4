"""Small constructors for hand-built IR, used until a test can go through the front end."""

from __future__ import annotations

from mplc import ir


def pos(path: str, line: int = 1, col: int = 1) -> ir.Pos:
    return ir.Pos(path, line, col, line, col + 10)


def variable(name: str, at: ir.Pos) -> ir.Expression:
    return ir.Expression(name, ir.GetContextValue(name, at), at)


def call(name: str, at: ir.Pos, *args: ir.Expr) -> ir.Expression:
    return ir.Expression(f"{name}(...)", ir.Function(name, args, True, at), at)


def method(name: str, at: ir.Pos, *statements: ir.Statement, arguments=()) -> ir.Method:
    return ir.Method(name, name, "Runtime", "Session", tuple(arguments), ir.Block(statements, at), (), at)


def klass(name: str, at: ir.Pos, *methods: ir.Method, properties=()) -> ir.Class:
    return ir.Class(name, (("=", "tests"),), (), tuple(properties), tuple(methods), "Class", None, (),
                    False, (), (), at.file, at)


def package(root: str, full_name: str, *classes: ir.Class, version: str = "1.0.0") -> ir.Package:
    at = pos(f"{root}/manifest.yaml")
    manifest = ir.Manifest("MuranoPL", "1.3.0", "Library", full_name, None, version, (),
                           tuple((cls.name, "x.yaml") for cls in classes), None, None, None, (), None,
                           None, (), at)
    return ir.Package(manifest, tuple(classes), root)
