"""Package versions, manifest formats and requirement specs, with the reference engine's meaning.

Pure: used by the front end (manifests), the runtime (class loading by name and version, the
object model's ``classVersion``) and the repository client, so it imports none of them.

Meaning of a requirement spec (what Murano's engine does with semantic_version 2.8+):

- null, empty or ``0``       -> ``>=0.0.0,<1.0.0``
- ``x``                      -> ``>=x.0.0,<x+1.0.0``
- ``x.y``                    -> ``>=x.y.0,<x.y+1.0``
- ``x.y.z`` or ``=x.y.z``    -> exactly ``x.y.z``
- ``*``                      -> any version, pre-releases included
- pip-like ranges            -> ``>=1.2,<2.0,!=1.5.0``; partial bounds widen as semantic_version's
                                ``SimpleSpec`` does (``>1.2`` is ``>=1.3.0``, ``<=1.2`` is ``<1.3.0``);
                                whitespace anywhere is ignored.

One deliberate difference: a partial ``!=x.y`` means "not x.y.*". The reference turns it into a
spec that matches nothing (and crashes when it is combined with other clauses).
"""

from __future__ import annotations

import functools
import re
from typing import Iterable, Mapping

import semantic_version

Version = semantic_version.Version
Spec = semantic_version.SimpleSpec

CORE_LIBRARY = "io.murano"
DEFAULT_FORMAT_NAME = "MuranoPL"

MURANOPL_FORMATS = ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4))
"""The MuranoPL Formats (major, minor) this mplc compiles and runs; the last is the newest."""

TYPE_NAME = re.compile(r"^([a-zA-Z_]\w*:|:)?[a-zA-Z_]\w*(\.[a-zA-Z_]\w*)*$")
"""A class name as written in MuranoPL (``ns:Name``, ``:Name``, ``a.b.Name``), as the
reference's namespace resolver accepts it."""


def parse_format_version(format_text: str) -> tuple[int, int]:
    """(major, minor) of a Format written ``MuranoPL/1.3``, ``1.3`` or ``1.3.0``; 1.0 for what
    is none."""
    version = str(format_text).rpartition("/")[2] or "1.0"
    parts = (version.split(".") + ["0", "0"])[:2]
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return 1, 0


def is_legacy_format(version: tuple[int, int]) -> bool:
    """Formats up to 1.1 evaluate with yaql's legacy library (its ``[]``, functions and engine)."""
    return tuple(version[:2]) <= (1, 1)

_WHITESPACE = re.compile(r"\s+")


class VersionError(ValueError):
    """A version, format or requirement spec that cannot be understood; the message says why."""


def parse_version(text: object) -> Version:
    """A package version: full SemVer, or a partial one filled with zeros; absent means 0.0.0.

    Accepts what YAML gives: strings, ints and floats (``Version: 1.2`` is a float).
    """
    if isinstance(text, Version):
        return text
    if text is None or text == "":
        return Version("0.0.0")
    try:
        return Version.coerce(str(text).strip())
    except ValueError:
        raise VersionError(f"invalid version {str(text)!r}: expected MAJOR.MINOR.PATCH "
                           f"with optional -prerelease and +build") from None


def parse_format(text: object) -> tuple[str, Version]:
    """A manifest's ``Format``: ``1.3`` -> ("MuranoPL", 1.3.0); absent -> ("MuranoPL", 1.0.0)."""
    format_text = str(text or f"{DEFAULT_FORMAT_NAME}/1.0").strip()
    if format_text[:1].isdigit():
        format_text = f"{DEFAULT_FORMAT_NAME}/{format_text}"
    name, slash, version_text = format_text.rpartition("/")
    if not slash or not name.strip():
        raise VersionError(f"invalid Format {format_text!r}: expected NAME/VERSION, "
                           f"for example MuranoPL/1.3")
    try:
        version = Version.coerce(version_text.strip())
    except ValueError:
        raise VersionError(f"invalid Format {format_text!r}: {version_text!r} is not a version") from None
    return name.strip(), version


def parse_requirement(text: object) -> Spec:
    """A requirement spec (``Require`` values, ``classVersion``, ``--version``); see the module doc.

    A ``Version`` means exactly that version; a ``Spec`` is returned as is.
    """
    if isinstance(text, Spec):
        return text
    if isinstance(text, Version):
        return _parse_spec(f"=={text}")
    try:
        return _parse_spec(_WHITESPACE.sub("", "" if text is None else str(text)) or "0")
    except ValueError:
        raise VersionError(f"invalid version spec {str(text)!r}: expected a version such as 1, "
                           f"1.2 or 1.2.3, '*', or comparisons such as '>=1.2,<2.0,!=1.5.0'") from None


@functools.lru_cache(maxsize=1024)
def _parse_spec(normalized: str) -> Spec:
    if normalized[0].isdigit():
        normalized = "==" + normalized
    return Spec(normalized)


def select_version(available: Iterable[Version], spec: Spec) -> Version | None:
    """The newest of ``available`` that ``spec`` allows, or None."""
    return spec.select(available)


def select_class_version(available: Iterable[Version], requested: object) -> Version:
    """The version an object model's ``classVersion`` picks among the loaded ``available`` ones.

    A plain version ``x.y.z`` takes that exact version, else the newest ``x.y.*``, else the newest
    ``x.*``; a partial ``x.y`` starts at the second rule and ``x`` at the third; a missing
    classVersion means ``0``. Any other spec (``>=1.2``, ``*``) takes the newest match.
    Raises VersionError when nothing fits.
    """
    versions = sorted(set(available))
    text = "" if requested is None else _WHITESPACE.sub("", str(requested))
    plain = re.fullmatch(r"=?=?(\d+)(?:\.(\d+)(?:\.(\d+)(\S*))?)?", text or "0")
    if plain is None:
        chosen = select_version(versions, parse_requirement(text))
    else:
        chosen = _closest_version(versions, plain)
    if chosen is None:
        shown = ", ".join(str(version) for version in versions) or "none"
        raise VersionError(f"no version matches classVersion {text or '0'!r} (available: {shown})")
    return chosen


def _closest_version(versions: list[Version], plain: re.Match) -> Version | None:
    major, minor, patch, suffix = plain.groups()
    if patch is not None:
        exact = parse_version(f"{major}.{minor}.{patch}{suffix}")
        if exact in versions:
            return exact
    if minor is not None:
        same_minor = [v for v in versions if (v.major, v.minor) == (int(major), int(minor))]
        if same_minor:
            return same_minor[-1]
    same_major = [v for v in versions if v.major == int(major)]
    return same_major[-1] if same_major else None


def package_requirements(name: str, version: Version,
                         require: Mapping[str, object] | None) -> dict[str, Spec]:
    """A package's effective requirements, as the engine computes them.

    The package requires its own major version (so its classes see siblings of the same line)
    and, unless it is the core library, ``io.murano: 0``; the manifest's ``Require`` entries are
    applied last and override both.
    """
    if require is not None and not isinstance(require, Mapping):
        raise VersionError(f"Require must be a mapping of package names to version specs, "
                           f"not {type(require).__name__}")
    requirements = {name: parse_requirement(str(version.major))}
    if name != CORE_LIBRARY:
        requirements[CORE_LIBRARY] = parse_requirement("0")
    for required_name, spec in (require or {}).items():
        requirements[str(required_name)] = parse_requirement(spec)
    return requirements
