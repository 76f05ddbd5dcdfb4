"""io.murano.system.Resources: files of a package's Resources/ folder."""

from __future__ import annotations

import json
import os

import yaml

from mplc.containment import resolves_inside
from mplc.runtime import expressions, errors
from mplc.runtime.objects import MuranoObject, TypeReference
from mplc.runtime.natives import native
from mplc.runtime.system.core import caller_type

RESOURCES = "Resources"
# the limits class files have (mplc/frontend/yaml_source.py, docs/diagnostics.md)
MAX_RESOURCE_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 200
MAX_EXPANDED_NODES = 1_000_000


class ResourceTooLarge(ValueError):
    """A resource over the limits class files have: size, nesting, alias expansion."""


class _ResourceLoader(yaml.SafeLoader):
    """SafeLoader whose timestamps stay strings, as the reference reads resources."""


_ResourceLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))


def package_directory(package) -> str:
    """The directory a package was loaded from: its compiled directory (which carries its
    Resources/, and those its package type generated), else where its manifest.yaml sits above
    its classes."""
    compiled = package.spec.directory
    if compiled and os.path.isfile(os.path.join(compiled, "manifest.yaml")):
        return compiled
    source = source_directory(package)
    if source is None:
        raise errors.MuranoError(f"Package {package} has no directory to read resources from")
    return source


def source_directory(package) -> str | None:
    """The package's source directory: where its manifest.yaml sits above its classes' files."""
    for class_spec in package.class_specs.values():
        directory = os.path.dirname(class_spec.source_file or "")
        while directory and directory != os.path.dirname(directory):
            if os.path.isfile(os.path.join(directory, "manifest.yaml")):
                return directory
            directory = os.path.dirname(directory)
    return None


def resource_path(package, name: str) -> str:
    """The file of resource ``name``: under the package's Resources folder as written, and
    inside the package once every link on the way is resolved (a link out of the package is
    never read)."""
    directory = package_directory(package)
    root = os.path.abspath(os.path.join(directory, RESOURCES))
    path = os.path.abspath(os.path.join(root, name))
    if os.path.commonpath([root, path]) != root or not resolves_inside(directory, path):
        raise ValueError(f"Resource {name} is outside the package's Resources folder")
    return path


@native("io.murano.system.Resources")
class Resources:
    """Reads resources of a package. Its methods are static, as the reference's: called on a
    Resources object they read the package of the class that created it, called on the class
    (``sys:Resources.string(...)``) the caller's package; ``owner`` names another class's."""

    def __init__(self, context):
        creator = context[expressions.TYPE] if context is not None else None
        self.package = None if creator is None else creator.package

    @staticmethod
    def _package(this, context, owner):
        if owner is not None:
            return owner.type.package
        if isinstance(this, MuranoObject) and isinstance(this.extension, Resources) \
                and this.extension.package is not None:
            return this.extension.package
        caller = caller_type(context)
        return (caller or this.type).package

    @staticmethod
    def string(this, context, name: str, owner: TypeReference | MuranoObject | None = None,
               binary: bool = False):
        package = Resources._package(this, context, owner)
        path = resource_path(package, name)
        try:
            with open(path, "rb" if binary else "r", encoding=None if binary else "utf-8") as handle:
                data = handle.read(MAX_RESOURCE_BYTES + 1)
            if len(data) > MAX_RESOURCE_BYTES:
                raise ResourceTooLarge(f"Resource {name} is larger than {MAX_RESOURCE_BYTES} bytes")
            return data
        except FileNotFoundError as error:
            # named in the package's source, as the reference names it, not in mplc's cache
            source = source_directory(package)
            if source is None:
                raise
            raise FileNotFoundError(error.errno, error.strerror,
                                    os.path.join(source, RESOURCES, name)) from None

    @staticmethod
    def json(this, context, name: str, owner: TypeReference | MuranoObject | None = None):
        try:
            value = json.loads(Resources.string(this, context, name, owner))
        except RecursionError:
            raise ResourceTooLarge(f"Resource {name}: JSON nested deeper than {MAX_DEPTH} levels") from None
        if _depth(value) > MAX_DEPTH:
            raise ResourceTooLarge(f"Resource {name}: JSON nested deeper than {MAX_DEPTH} levels")
        return value

    @staticmethod
    def yaml(this, context, name: str, owner: TypeReference | MuranoObject | None = None):
        loader = _ResourceLoader(Resources.string(this, context, name, owner))
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _check_expansion(node, name)
            return loader.construct_document(node)
        except RecursionError:
            raise ResourceTooLarge(f"Resource {name}: YAML nested deeper than {MAX_DEPTH} levels") from None
        finally:
            loader.dispose()


def _check_expansion(root, name: str) -> None:
    """Refuse a document whose aliases expand it beyond MAX_EXPANDED_NODES nodes or whose
    nesting (aliases followed) is deeper than MAX_DEPTH, before any of it is built: the
    runtime copies shared parts (a 430-byte alias bomb would become gigabytes). Memoized per
    node, so the walk is linear in the document's own nodes."""
    sizes: dict[int, tuple[int, int]] = {}
    stack = [(root, False, 1)]
    while stack:
        node, children_done, level = stack.pop()
        if id(node) in sizes:
            continue
        if level > MAX_DEPTH:  # a deep document, or aliases that lead back to themselves
            raise ResourceTooLarge(f"Resource {name}: YAML nested deeper than {MAX_DEPTH} levels")
        children = ([child for pair in node.value for child in pair] if isinstance(node, yaml.MappingNode)
                    else list(node.value) if isinstance(node, yaml.SequenceNode) else [])
        if any(child is node for child in children):
            raise ResourceTooLarge(f"Resource {name}: YAML nested deeper than {MAX_DEPTH} levels")
        missing = [child for child in children if id(child) not in sizes]
        if missing and not children_done:
            stack.append((node, True, level))
            stack.extend((child, False, level + 1) for child in missing)
            continue
        known = [sizes.get(id(child), (1, 1)) for child in children]
        size = 1 + sum(child_size for child_size, _ in known)
        depth = 1 + max((child_depth for _, child_depth in known), default=0)
        if size > MAX_EXPANDED_NODES:
            raise ResourceTooLarge(f"Resource {name}: YAML aliases expand it to more than "
                                   f"{MAX_EXPANDED_NODES} nodes")
        if depth > MAX_DEPTH:
            raise ResourceTooLarge(f"Resource {name}: YAML nested deeper than {MAX_DEPTH} levels")
        sizes[id(node)] = (size, depth)


def _depth(value) -> int:
    """How deep lists and mappings nest in ``value`` (walked without recursion)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((entry, depth + 1) for entry in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((entry, depth + 1) for entry in item)
    return deepest
