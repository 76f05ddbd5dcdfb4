"""io.murano.system.Resources: files of a package's Resources/ folder."""

from __future__ import annotations

import json
import os

import yaml

from mplc.runtime import expressions as bridge, errors
from mplc.runtime.objects import MuranoObject, TypeReference
from mplc.runtime.natives import native
from mplc.runtime.system.core import caller_type

RESOURCES = "Resources"


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
    root = os.path.realpath(os.path.join(package_directory(package), RESOURCES))
    path = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, path]) != root:
        raise ValueError(f"Resource {name} is outside the package's Resources folder")
    return path


@native("io.murano.system.Resources")
class Resources:
    """Reads resources of a package. Its methods are static, as the reference's: called on a
    Resources object they read the package of the class that created it, called on the class
    (``sys:Resources.string(...)``) the caller's package; ``owner`` names another class's."""

    def __init__(self, context):
        creator = context[bridge.TYPE] if context is not None else None
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
                return handle.read()
        except FileNotFoundError as error:
            # named in the package's source, as the reference names it, not in mplc's cache
            source = source_directory(package)
            if source is None:
                raise
            raise FileNotFoundError(error.errno, error.strerror,
                                    os.path.join(source, RESOURCES, name)) from None

    @staticmethod
    def json(this, context, name: str, owner: TypeReference | MuranoObject | None = None):
        return json.loads(Resources.string(this, context, name, owner))

    @staticmethod
    def yaml(this, context, name: str, owner: TypeReference | MuranoObject | None = None):
        return yaml.load(Resources.string(this, context, name, owner), Loader=_ResourceLoader)
