"""The share of the corpus's call sites that mplc's fast paths serve, weighted by frequency.

    python benchmarks/fast_path_share.py [--verbose]

The call sites are those MURANOPL-FACTS.md counts in ~330 real class files (copied to
benchmarks/corpus_calls.md): function and method names called outside contracts (contracts
compile to the contract compiler's own validators), and every operator but ``.``-as-a-method-call
(those sites are counted under their method's name). A site is served when the code mplc
generates for it in a method body runs without yaql's overload resolution for the operand
types its guards admit:

- an operator or a function called as ``f(x)``: a sample of it is compiled in a method body of a
  Format 1.3 and of a Format 1.0 package, and is served when the body calls no ``_r.call`` (the
  runtime's generic yaql call) for it;
- a method called as ``x.f()``: its call site (``MethodCall``) runs yaql's standard queries
  (``fast_paths.QUERIES``) and murano's functions on objects (``fast_paths.OBJECT_FUNCTIONS``)
  directly, and MuranoPL methods (origin ``MuranoPL``) and the
  methods of Python-backed system classes (origin ``system-class``, when mplc's natives
  define a method of that name) directly on the receiver's class, resolved once per class;
  every other method goes through yaql and is not served.
Names beyond the corpus table's top 60 are counted as not served.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import tempfile

import mplc  # noqa: F401  (imports collections.abc before yaql)
from mplc.codegen.output import compile_package
from mplc.diagnostics import DiagnosticSink
from mplc.frontend import load_packages
from mplc.runtime import natives
from mplc.runtime.fast_paths import OBJECT_FUNCTIONS, QUERIES

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS_CALLS = os.path.join(HERE, "corpus_calls.md")

# ``f(x)`` samples of the functions whose corpus arguments a plain ``name($a)`` would not match.
FUNCTION_SAMPLES = {
    "format": "format('{0}-{1}', $a, $b)", "new": "new('io.murano.Object')", "dict": "dict(a => $a, b => $b)",
    "call": "call($a, $b)", "list": "list($a, $b)", "range": "range(0, $a)", "concat": "concat('x', $a)",
    "switch": "switch($a => 1, true => 2)", "super": "super($a, $.b)", "cast": "cast($a, 'io.murano.Object')",
    "randomName": "randomName()",
}
# Method arities for the ``QUERIES`` lookup (the corpus's usual form).
METHOD_ARITIES = {"select": 1, "where": 1, "first": 0, "join": 1, "sum": 0, "keys": 0, "values": 0, "len": 0,
                  "format": None, "find": 1, "require": 0, "bind": 1, "pselect": 1, "get": 1, "replace": 2,
                  "split": 1, "toLower": 0, "take": 1, "append": None, "cast": 1}
OPERATOR_SAMPLES = {
    ". (attribute)": "$a.b", ":": "std:Object", "= (equal)": "$a = $b", "[] (indexer)": "$a[$b]",
    "+": "$a + $b", "!= (not equal)": "$a != $b", "unary not": "not $a", "and": "$a and $b",
    "[...] (list literal)": "[$a, $b]", ">": "$a > $b", "in": "$a in $b", "unary :": ":Object",
    "or": "$a or $b", "is": "$a is std:Object", "{...} (dict literal)": "{a => $a}", "-": "$a - $b",
    "<": "$a < $b", "*": "$a * $b", "<=": "$a <= $b", "unary -": "-$a", ">=": "$a >= $b",
    "->": "$a -> $.b", "?. (null-safe)": "$a?.b", "/": "$a / $b", "mod": "$a mod $b",
}


def read_corpus(path: str):
    """(functions: [(name, sites, as f(x), as x.f(), origin)], function total, operators:
    [(operator, sites)], operator total)."""
    text = open(path, encoding="utf-8").read()
    functions = [(m[1], int(m[2]), int(m[3]) if m[3] != "?" else None, int(m[4]) if m[4] != "?" else None, m[5])
                 for m in re.finditer(r"^\| (\S+) \| (\d+) \| (\d+|\?) \| (\d+|\?) \| (\S+) \|$", text, re.M)]
    operators = [(m[1], int(m[2])) for m in re.finditer(r"^\| (.+?) \| (\d+) \|$", text, re.M)]
    function_total = int(re.search(r"functions \(total call sites outside contracts: (\d+)\)", text)[1])
    operator_total = int(re.search(r"operators \(total: (\d+)\)", text)[1])
    return functions, function_total, operators, operator_total


def _class_yaml(samples: list[str]) -> str:
    methods = "".join(f"  m{index}:\n    Arguments:\n      - a:\n          Contract: $\n      - b:\n"
                      f"          Contract: $\n    Body:\n      - Return: {text}\n"
                      for index, text in enumerate(samples))
    return (f"Namespaces:\n  =: share\n  std: io.murano\nName: Samples\nExtends: std:Object\n"
            f"Methods:\n{methods}")


def bridged_samples(samples: list[str], format_version: str) -> list[bool]:
    """For each sample expression, whether its method body calls the generic ``_r.call``."""
    with tempfile.TemporaryDirectory() as scratch:
        package = os.path.join(scratch, "share")
        os.makedirs(os.path.join(package, "Classes"))
        with open(os.path.join(package, "manifest.yaml"), "w") as stream:
            stream.write(f"Format: MuranoPL/{format_version}\nType: Library\nFullName: share\n"
                         "Classes:\n  share.Samples: Samples.yaml\n")
        with open(os.path.join(package, "Classes", "Samples.yaml"), "w") as stream:
            stream.write(_class_yaml(samples))
        sink = DiagnosticSink()
        [loaded] = load_packages([package], sink)
        if sink.has_errors:
            raise SystemExit(f"samples do not compile:\n{sink}")
        modules = compile_package(loaded)
    tree = next(module.tree for module in modules if module.name != "__init__")
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    bodies = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "MethodSpec":
            name = node.args[0].value
            body = next(keyword.value.id for keyword in node.keywords if keyword.arg == "body")
            bodies[name] = functions[body]
    return [any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "_r"
                for node in ast.walk(bodies[f"m{index}"]))
            for index in range(len(samples))]


def native_method_names() -> frozenset:
    """The names of the methods mplc's natives (system classes in Python) define."""
    return frozenset(method.name for native_class in natives.registered_classes() for method in native_class.methods)


def method_served(name: str, origin: str, native_names: frozenset) -> bool:
    arity = METHOD_ARITIES.get(name, 0)
    if (name, arity) in QUERIES or (name, None) in QUERIES or (name, arity) in OBJECT_FUNCTIONS:
        return True
    origins = set(origin.split("+"))
    if "system-class" in origins and name in native_names:
        origins -= {"system-class", "yaql", "murano"}  # a library function of the name is not a method of objects
        return origins <= {"MuranoPL"}
    return origins == {"MuranoPL"}


def share(format_version: str, verbose: bool) -> float:
    functions, function_total, operators, operator_total = read_corpus(CORPUS_CALLS)
    operators = [(name, sites) for name, sites in operators if name != ". (method call)"]
    method_call_sites = operator_total - sum(sites for _, sites in operators)
    total = function_total + operator_total - method_call_sites
    function_samples = [FUNCTION_SAMPLES.get(name, f"{name}($a)") for name, *_ in functions]
    operator_samples = [OPERATOR_SAMPLES[name] for name, _ in operators]
    bridged = bridged_samples(function_samples + operator_samples, format_version)
    served = 0.0
    lines = []
    native_names = native_method_names()
    for (name, sites, as_function, as_method, origin), bridge in zip(functions, bridged):
        known = (as_function or 0) + (as_method or 0)
        function_share = (as_function / known) if known else 0.0
        function_sites, method_sites = sites * function_share, sites * (1 - function_share)
        served_here = (0.0 if bridge else function_sites) + (method_sites if method_served(name, origin, native_names) else 0.0)
        served += served_here
        lines.append((name, sites, served_here))
    for (name, sites), bridge in zip(operators, bridged[len(functions):]):
        served += 0 if bridge else sites
        lines.append((name, sites, 0 if bridge else sites))
    if verbose:
        for name, sites, served_here in sorted(lines, key=lambda line: -(line[1] - line[2])):
            if served_here < sites:
                print(f"  not served  {name:24} {sites - served_here:7.0f} of {sites}")
        listed = sum(line[1] for line in lines)
        print(f"  not listed (beyond the top 60)  {total - listed}")
    return served / total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list the sites not served, most first")
    args = parser.parse_args(argv)
    for format_version in ("1.3", "1.0"):
        if args.verbose:
            print(f"Format {format_version}:")
        print(f"Format {format_version}: {share(format_version, args.verbose):.1%} of call sites served by fast paths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
