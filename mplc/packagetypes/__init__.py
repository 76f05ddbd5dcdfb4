"""Package types: what a manifest's ``Format`` names (``MuranoPL/1.3``, ``Heat.HOT/1.0``, ...).

Built in: MuranoPL 1.0 to 1.4 and Heat.HOT 1.0. Plugins are classes implementing
``mplc.packagetypes.Package`` (most subclass ``PackageBase``), published under the
``io.murano.plugins.packages`` entry-point group with names ``Name/Version``; several names may
point at one class. A plugin class with an ``init_plugin`` attribute has it called for each name
it is registered under, as the reference does. Built-in types win over plugins of the same name,
as in the reference engine. Entry points are read once per ``sys.path``.
"""

from __future__ import annotations

import functools
import importlib.metadata
import sys
from dataclasses import dataclass

from mplc.packagetypes.base import (ClassSource, Package, PackageBase, PackageTypeError, Problem,
                                    secure_join)
from mplc.packagetypes.hot import HotPackage
from mplc.packagetypes.muranopl import MuranoPlPackage
from mplc.versioning import Version, VersionError, parse_format

ENTRY_POINT_GROUP = "io.murano.plugins.packages"
BUILT_IN = {("MuranoPL", Version(f"1.{minor}.0")): MuranoPlPackage for minor in range(5)}
BUILT_IN[("Heat.HOT", Version("1.0.0"))] = HotPackage

__all__ = ["ClassSource", "Package", "PackageBase", "PackageTypeError", "Problem", "secure_join",
           "HotPackage", "MuranoPlPackage", "PackageTypes", "installed", "ENTRY_POINT_GROUP"]


@dataclass(frozen=True)
class PackageTypes:
    """The package types found, and the plugins that could not be loaded (with why)."""

    formats: dict
    failures: tuple[str, ...] = ()

    def find(self, name: str, version: Version) -> type | None:
        return self.formats.get((name, version))

    def describe(self) -> str:
        """``Heat.HOT/1.0, MuranoPL/1.0, ...`` and any plugin that failed to load."""
        names = sorted(f"{name}/{version.major}.{version.minor}"
                       + (f".{version.patch}" if version.patch else "")
                       for name, version in self.formats)
        text = ", ".join(names)
        if self.failures:
            text += "; plugins that failed to load: " + "; ".join(self.failures)
        return text


def installed(plugins: bool = True) -> PackageTypes:
    """The built-in types, plus (``plugins``) those of every installed distribution's entry points."""
    return _installed(tuple(sys.path) if plugins else None)


@functools.lru_cache(maxsize=8)
def _installed(search_path: tuple[str, ...] | None) -> PackageTypes:
    plugins = search_path is not None
    formats: dict = {}
    failures = []
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if plugins else ():
        try:
            key = parse_format(entry_point.name)
            plugin = entry_point.load()
            initializer = getattr(plugin, "init_plugin", None)
            if initializer is not None:
                initializer()
        except VersionError as error:
            failures.append(f"{entry_point.name}: {error}")
        except Exception as error:  # a broken plugin is reported, never fatal
            failures.append(f"{entry_point.name} ({entry_point.value}): "
                            f"{type(error).__name__}: {error}")
        else:
            formats[key] = plugin
    formats.update(BUILT_IN)
    return PackageTypes(formats, tuple(failures))
