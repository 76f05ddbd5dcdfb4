"""The import graph of mplc/, rebuilt from the source with ast: no cycles, no function-level
imports, and the pipeline's one direction (front end -> IR -> codegen/contracts -> runtime)."""

import ast
import os

import pytest

import mplc

ROOT = os.path.dirname(mplc.__file__)

FUNCTION_IMPORTS_ALLOWED = set()
"""(module, imported module) pairs a function may import: optional dependencies only (none
today); the CLI's command table and ``mplc.Runtime`` load with importlib."""

RUNTIME_LAYERS = [
    ["errors", "specs", "activation", "yaql_adapter", "value_types"],
    ["expressions"],
    ["limits"],
    ["contract_primitives"],
    ["objects"],
    ["statements"],
    ["yaql_functions", "natives"],
    ["system"],
    ["loading"],
    ["serialization"],
    ["validator_services", "library"],
    ["executor"],
    ["fast_paths"],
]
"""mplc.runtime's modules, lowest first (docs/architecture.md): each imports only modules of
lower layers (``system`` is its package and every module in it)."""

NEVER_IMPORTS = {
    "mplc.frontend": ("mplc.runtime", "mplc.codegen", "mplc.contracts"),
    "mplc.runtime": ("mplc.frontend", "mplc.codegen", "mplc.contracts", "mplc.build", "mplc.api",
                     "mplc.commands", "mplc.ir"),
    "mplc.codegen": ("mplc.runtime", "mplc.api", "mplc.commands"),
    "mplc.contracts": ("mplc.runtime", "mplc.api", "mplc.commands"),
    "mplc.build": ("mplc.runtime",),
}


def _modules() -> dict[str, str]:
    found = {}
    for directory, _, files in os.walk(ROOT):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                module = "mplc." + os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                found[module.removesuffix(".__init__")] = path
    return found


MODULES = _modules()
TREES = {module: ast.parse(open(path, encoding="utf-8").read(), path) for module, path in MODULES.items()}


def _imported(node: ast.AST) -> list[str]:
    """The mplc modules an import statement loads (``from p import m`` loads p.m when m is one)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    else:
        return []
    return [name for name in names if name in MODULES]


def _module_level_nodes(tree):
    """Nodes outside any function body."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                stack.append(child)


def _edges(module):
    """What importing ``module`` imports first, with the packages holding it, but not
    ``module``'s own packages (importing already)."""
    edges = set()
    for node in _module_level_nodes(TREES[module]):
        for name in _imported(node):
            parts = name.split(".")
            for end in range(2, len(parts) + 1):
                target = ".".join(parts[:end])
                if target in MODULES and target != module and not module.startswith(target + "."):
                    edges.add(target)
    return edges


EDGES = {module: _edges(module) for module in MODULES}


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(EDGES[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in EDGES[module]:
                found.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    return found


def test_the_graph_is_read():
    assert "mplc.runtime.executor" in EDGES["mplc.runtime.fast_paths"]
    assert "mplc.runtime.expressions" in EDGES["mplc.runtime.statements"]  # ``import m as alias``
    assert len(MODULES) > 40


def test_no_import_cycles():
    assert _cycles() == []


def test_a_cycle_is_found(monkeypatch):
    monkeypatch.setitem(EDGES, "mplc.runtime.errors", EDGES["mplc.runtime.errors"] | {"mplc.runtime.executor"})
    assert any("mplc.runtime.errors" in cycle for cycle in _cycles())


def _function_imports(module):
    for node in ast.walk(TREES[module]):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    names = ([alias.name for alias in inner.names] if isinstance(inner, ast.Import)
                             else [inner.module or "."])
                    for name in names:
                        if (module, name) not in FUNCTION_IMPORTS_ALLOWED:
                            yield f"{MODULES[module]}:{inner.lineno}: {ast.unparse(inner)}"


def test_no_function_level_imports():
    assert [line for module in sorted(MODULES) for line in _function_imports(module)] == []


@pytest.mark.parametrize("layer", sorted(NEVER_IMPORTS))
def test_layers_never_import_upwards(layer):
    reachable = set()
    pending = [module for module in MODULES if module == layer or module.startswith(layer + ".")]
    while pending:
        module = pending.pop()
        if module not in reachable:
            reachable.add(module)
            pending.extend(EDGES[module])
    assert sorted(module for module in reachable
                  for banned in NEVER_IMPORTS[layer]
                  if module == banned or module.startswith(banned + ".")) == []


def _runtime_layer(module):
    name = module.removeprefix("mplc.runtime.").split(".")[0]
    for number, layer in enumerate(RUNTIME_LAYERS):
        if name in layer:
            return number
    return None


RUNTIME_MODULES = sorted(module for module in MODULES if module.startswith("mplc.runtime."))


@pytest.mark.parametrize("module", RUNTIME_MODULES)
def test_runtime_modules_import_only_lower_layers(module):
    layer = _runtime_layer(module)
    assert layer is not None, f"{module}: add it to RUNTIME_LAYERS (and docs/architecture.md)"
    upward = [target for target in EDGES[module] if target.startswith("mplc.runtime.")
              and (_runtime_layer(target) or 0) >= layer
              and not (target.startswith("mplc.runtime.system") and module.startswith("mplc.runtime.system"))]
    assert upward == []
