"""Versions, formats and requirement specs: each form against a fixed ladder of versions.

The expected sets are what Murano's engine (helpers.parse_version_spec with semantic_version
2.10) selects, except partial ``!=`` where the reference matches nothing (see mplc.versioning).
"""

import pytest

from mplc.versioning import (
    CORE_LIBRARY, Version, VersionError, package_requirements, parse_format,
    parse_requirement, parse_version, select_class_version, select_version,
)

LADDER = [Version(text) for text in (
    "0.0.0", "0.0.1", "0.9.0", "1.0.0-rc1", "1.0.0", "1.2.0", "1.2.5", "1.3.0-rc1", "1.3.0",
    "1.5.0", "1.5.3", "1.6.0", "2.0.0-rc1", "2.0.0", "2.1.0",
)]
ALL = [str(version) for version in LADDER]
ZERO_LINE = ["0.0.0", "0.0.1", "0.9.0"]
ONE_LINE = ["1.0.0", "1.2.0", "1.2.5", "1.3.0-rc1", "1.3.0", "1.5.0", "1.5.3", "1.6.0"]


@pytest.mark.parametrize("spec, expected", [
    (None, ZERO_LINE),
    ("", ZERO_LINE),
    ("   ", ZERO_LINE),
    ("0", ZERO_LINE),
    (0, ZERO_LINE),
    ("*", ALL),
    ("==*", ALL),
    (">=*", ALL),
    ("1", ONE_LINE),
    (1, ONE_LINE),
    ("1.2", ["1.2.0", "1.2.5"]),
    (1.2, ["1.2.0", "1.2.5"]),
    ("=1.2", ["1.2.0", "1.2.5"]),
    ("==1.2", ["1.2.0", "1.2.5"]),
    ("1.2.5", ["1.2.5"]),
    ("=1.2.5", ["1.2.5"]),
    ("1.0.0-rc1", ["1.0.0-rc1"]),
    ("1.2.4", []),
    (">=1.2", ALL[5:]),
    (">1.2", ["1.3.0", "1.5.0", "1.5.3", "1.6.0", "2.0.0-rc1", "2.0.0", "2.1.0"]),
    (">1", ["2.0.0", "2.1.0"]),
    (">1.2.5", ALL[7:]),
    ("<1.3", ALL[:7]),
    ("<=1.2", ALL[:7]),
    ("<=1.2.5", ALL[:7]),
    ("<1.0.0", ZERO_LINE),
    ("!=1.5.0", [v for v in ALL if v != "1.5.0"]),
    ("!=1.5", [v for v in ALL if not v.startswith("1.5.")]),
    (">=1.2,<2.0,!=1.5.0", ["1.2.0", "1.2.5", "1.3.0-rc1", "1.3.0", "1.5.3", "1.6.0"]),
    (">=1.2,<2.0,!=1.5", ["1.2.0", "1.2.5", "1.3.0-rc1", "1.3.0", "1.6.0"]),
    (">= 1.0, < 2", ONE_LINE),
    ("< =  2 .1", ALL),
    ("< =  2 .0", ALL[:-1]),
    (">3.0.0,<=4.1", []),
    ("~1.2", ["1.2.0", "1.2.5"]),
    ("^1.2", ONE_LINE[1:]),
    ("~=1.2", ONE_LINE[1:]),
    (Version("1.2.5"), ["1.2.5"]),
])
def test_requirement_matches(spec, expected):
    requirement = parse_requirement(spec)
    assert [str(v) for v in LADDER if v in requirement] == expected


def test_requirement_spec_passes_through():
    requirement = parse_requirement(">=1.2")
    assert parse_requirement(requirement) is requirement


@pytest.mark.parametrize("spec", ["abc", "latest", ">=x", "1.x", "1.2.3.4", ">>1", "1,,2", "=>1.0", "yes"])
def test_invalid_requirement(spec):
    with pytest.raises(VersionError, match=r"invalid version spec '.*': expected"):
        parse_requirement(spec)


@pytest.mark.parametrize("text, expected", [
    (None, "0.0.0"),
    ("", "0.0.0"),
    ("0.0.10", "0.0.10"),
    ("1", "1.0.0"),
    (1, "1.0.0"),
    ("1.2", "1.2.0"),
    (1.2, "1.2.0"),
    (" 1.2.3 ", "1.2.3"),
    ("1.2.3-dev.1+build.5", "1.2.3-dev.1+build.5"),
    ("01.02.03", "1.2.3"),
    ("1.0.0.1", "1.0.0+1"),
    (Version("2.0.0"), "2.0.0"),
])
def test_parse_version(text, expected):
    assert str(parse_version(text)) == expected


@pytest.mark.parametrize("text", ["abc", "v1.0", "-1", "latest"])
def test_invalid_version(text):
    with pytest.raises(VersionError, match="invalid version"):
        parse_version(text)


@pytest.mark.parametrize("text, expected", [
    (None, ("MuranoPL", "1.0.0")),
    ("", ("MuranoPL", "1.0.0")),
    (1.0, ("MuranoPL", "1.0.0")),
    (1.3, ("MuranoPL", "1.3.0")),
    ("1.4", ("MuranoPL", "1.4.0")),
    ("MuranoPL/1.2", ("MuranoPL", "1.2.0")),
    (" MuranoPL / 1.2 ", ("MuranoPL", "1.2.0")),
    ("Heat.HOT/1.0", ("Heat.HOT", "1.0.0")),
    ("Some/Plugin/2", ("Some/Plugin", "2.0.0")),
])
def test_parse_format(text, expected):
    name, version = parse_format(text)
    assert (name, str(version)) == expected


@pytest.mark.parametrize("text, message", [
    ("MuranoPL", "expected NAME/VERSION"),
    ("/1.0", "expected NAME/VERSION"),
    ("MuranoPL/next", "'next' is not a version"),
])
def test_invalid_format(text, message):
    with pytest.raises(VersionError, match=message):
        parse_format(text)


@pytest.mark.parametrize("spec, expected", [
    ("*", "2.1.0"),
    ("1", "1.6.0"),
    ("1.2", "1.2.5"),
    (None, "0.9.0"),
    ("<1.3", "1.2.5"),
    ("3", None),
])
def test_select_version_takes_newest_match(spec, expected):
    chosen = select_version(LADDER, parse_requirement(spec))
    assert (str(chosen) if chosen else None) == expected


@pytest.mark.parametrize("requested, expected", [
    # exact
    ("1.2.5", "1.2.5"),
    ("==1.2.5", "1.2.5"),
    ("1.0.0-rc1", "1.0.0-rc1"),
    # else the newest of the same major.minor
    ("1.2.1", "1.2.5"),
    ("1.5.9", "1.5.3"),
    # else the newest of the same major
    ("1.4.0", "1.6.0"),
    ("1.9.9", "1.6.0"),
    ("2.2.0", "2.1.0"),
    # partial versions start at the matching rule
    ("1.2", "1.2.5"),
    ("1.4", "1.6.0"),
    ("1", "1.6.0"),
    ("2", "2.1.0"),
    # missing classVersion is "0"
    (None, "0.9.0"),
    ("", "0.9.0"),
    (0, "0.9.0"),
    # any other spec: the newest match
    (">=1.2,<1.5", "1.3.0"),
    ("*", "2.1.0"),
])
def test_select_class_version(requested, expected):
    assert str(select_class_version(LADDER, requested)) == expected


@pytest.mark.parametrize("available, requested, message", [
    (LADDER, "3.0.0", r"no version matches classVersion '3.0.0' \(available: 0.0.0, .*, 2.1.0\)"),
    (LADDER, ">=5", r"no version matches classVersion '>=5'"),
    ([], None, r"no version matches classVersion '0' \(available: none\)"),
    ([Version("1.0.0")], None, r"classVersion '0' \(available: 1.0.0\)"),
])
def test_select_class_version_fails(available, requested, message):
    with pytest.raises(VersionError, match=message):
        select_class_version(available, requested)


def test_select_class_version_rejects_a_bad_spec():
    with pytest.raises(VersionError, match="invalid version spec"):
        select_class_version(LADDER, ">=banana")


def _matching(requirement):
    return [str(v) for v in LADDER if v in requirement]


def test_package_requires_core_library_and_own_major():
    requirements = package_requirements("com.example.App", Version("1.2.0"), None)
    assert sorted(requirements) == ["com.example.App", CORE_LIBRARY]
    assert _matching(requirements["com.example.App"]) == ONE_LINE
    assert _matching(requirements[CORE_LIBRARY]) == ZERO_LINE


def test_core_library_requires_only_itself():
    requirements = package_requirements(CORE_LIBRARY, Version("0.0.0"), {})
    assert list(requirements) == [CORE_LIBRARY]
    assert _matching(requirements[CORE_LIBRARY]) == ZERO_LINE


def test_require_entries_override_implicit_ones():
    requirements = package_requirements(
        "com.example.App", Version("1.0.0"),
        {CORE_LIBRARY: ">=1.2", "com.example.App": "2", "com.example.Db": None})
    assert _matching(requirements[CORE_LIBRARY]) == ALL[5:]
    assert _matching(requirements["com.example.App"]) == ["2.0.0", "2.1.0"]
    assert _matching(requirements["com.example.Db"]) == ZERO_LINE


@pytest.mark.parametrize("require, message", [
    (["com.example.Db"], "Require must be a mapping of package names to version specs, not list"),
    ({"com.example.Db": "newest"}, "invalid version spec 'newest'"),
])
def test_bad_require(require, message):
    with pytest.raises(VersionError, match=message):
        package_requirements("com.example.App", Version("1.0.0"), require)
