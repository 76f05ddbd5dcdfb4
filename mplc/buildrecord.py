"""Build records: what makes a directory of compiled output importable.

Compiled output is code: importing it runs whatever its ``.pyc`` files hold. mplc imports a
compiled package directory only when its build record (``mplc-build.json``) proves that this
mplc wrote it and that nothing in it changed since: the record lists the sha256 of every file
in the directory and carries an HMAC over itself, keyed with a secret only this user's mplc
reads (``$MPLC_BUILD_KEY_FILE``, default ``~/.config/mplc/build-key``, created on first use).
A package anyone else assembled (a fetched zip with a forged ``__init__.pyc`` and a record
written to match it), or a compiled directory with a file added, changed or removed, is
refused before anything in it is imported.

Codegen writes records (``write_record``), the runtime checks them (``verify``) right before
it imports a directory, and the API layer reads their fields; this module sits below all three
and imports none of them. Every field that says which code wrote the output and which code can
run it is in ``identity()``: one place to add a version to.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import stat

import mplc
from mplc import abi

BUILD_FILE = "mplc-build.json"
RECORD_FORMAT = 2  # the layout of the record itself; older records (no file hashes) are refused
MAX_RECORD_BYTES = 16 * 1024 * 1024
KEY_FILE_VARIABLE = "MPLC_BUILD_KEY_FILE"

STALE = "E-STALE-BUILD"
UNTRUSTED = "E-UNTRUSTED-BUILD"


CACHE_INDEX = "mplc-cache.json"
_COMPILED_SUFFIXES = (".pyc", ".pyo")


def is_compiled_artifact(relative: str) -> bool:
    """Whether a package member is something mplc would write or import as compiled output
    (a .pyc, a __pycache__ folder, a build record or cache index): never a source file."""
    parts = relative.replace("\\", "/").split("/")
    return (parts[-1] in (BUILD_FILE, CACHE_INDEX) or "__pycache__" in parts
            or parts[-1].lower().endswith(_COMPILED_SUFFIXES))


class BuildRecordError(Exception):
    """A compiled package directory mplc will not import; ``code`` is the diagnostic code,
    ``path`` the file it concerns."""

    def __init__(self, code: str, message: str, path: str):
        super().__init__(f"{path}: {message}")
        self.code = code
        self.message = message
        self.path = path


def identity() -> dict:
    """The fields saying which code wrote a compiled package; a record whose fields differ was
    written by another mplc (or for another Python) and is stale. ``compiler`` is
    ``abi.compatibility_key()`` (mplc version, ABI version, bytecode magic, yaql version)."""
    return {"record": RECORD_FORMAT, "mplc": mplc.__version__, "compiler": abi.compatibility_key(),
            "magic": importlib.util.MAGIC_NUMBER.hex()}


def key_file() -> str:
    configured = os.environ.get(KEY_FILE_VARIABLE)
    if configured:
        return configured
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config_home, "mplc", "build-key")


def _signing_key() -> bytes:
    """This user's secret (32 random bytes, hex), created with mode 0600 when missing."""
    path = key_file()
    try:
        with open(path, "rb") as handle:
            key = handle.read(4096).strip()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
    fresh = secrets.token_hex(32).encode("ascii")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another mplc created it meanwhile: use that one
        with open(path, "rb") as handle:
            return handle.read(4096).strip()
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(fresh)
    return fresh


def _mac(record: dict) -> str:
    unsigned = {name: value for name, value in record.items() if name != "mac"}
    text = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(_signing_key(), text.encode("ascii"), hashlib.sha256).hexdigest()


def _file_hashes(directory: str) -> dict[str, str]:
    """sha256 of every file under ``directory`` but the record, by '/'-separated relative path.

    Raises BuildRecordError for what is no regular file or directory (a link, FIFO, device):
    compiled output holds none, and following one could import or read anything."""
    hashes = {}
    for folder, subdirectories, files in os.walk(directory):
        for name in sorted(subdirectories + files):
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                continue
            relative = os.path.relpath(path, directory).replace(os.sep, "/")
            if not stat.S_ISREG(mode):
                raise BuildRecordError(UNTRUSTED, f"{relative} is a link or special file, which mplc "
                                       "never writes into compiled output", os.path.join(directory, BUILD_FILE))
            if relative == BUILD_FILE:
                continue
            with open(path, "rb") as handle:
                hashes[relative] = hashlib.sha256(handle.read()).hexdigest()
    return hashes


def sign(record: dict) -> dict:
    """``record`` with its MAC under this user's key."""
    return {**record, "mac": _mac(record)}


def write_record(directory: str, fields: dict) -> None:
    """Write the build record of a finished compiled package directory: ``fields`` (its cache
    key, package name ...), ``identity()``, every file's hash and the MAC over all of it."""
    record = sign({**fields, **identity(), "files": _file_hashes(directory)})
    with open(os.path.join(directory, BUILD_FILE), "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1, sort_keys=True)


def read_record(directory: str) -> dict | None:
    """The record's fields as written (unchecked: for deciding, never for trusting), or None."""
    try:
        with open(os.path.join(directory, BUILD_FILE), "rb") as handle:
            record = json.loads(handle.read(MAX_RECORD_BYTES))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def read_field(directory: str, name: str):
    record = read_record(directory)
    return None if record is None else record.get(name)


def verify(directory: str) -> dict:
    """Check, before anything in ``directory`` is imported, that this user's mplc wrote it and
    nothing changed since. Returns the record; raises BuildRecordError (E-STALE-BUILD for output
    of another mplc, E-UNTRUSTED-BUILD for anything else)."""
    record_path = os.path.join(directory, BUILD_FILE)
    if os.path.islink(record_path) or not os.path.isfile(record_path):
        raise BuildRecordError(UNTRUSTED, "no build record: this is not compiled output mplc wrote",
                               record_path)
    record = read_record(directory)
    if record is None:
        raise BuildRecordError(UNTRUSTED, "the build record is not a JSON object mplc wrote", record_path)
    mac = record.get("mac")
    if not isinstance(mac, str) or not hmac.compare_digest(mac, _mac(record)):
        raise BuildRecordError(UNTRUSTED, "this compiled output was not written by this user's mplc "
                               f"(its build record's signature does not match the key in {key_file()}); "
                               "compiled output is code: compile the package's sources yourself",
                               record_path)
    if record.get("compiler") != abi.compatibility_key():
        raise BuildRecordError(STALE, "compiled by another mplc (its code differs from this one's) "
                               "or under another yaql: compile the package again with this mplc", record_path)
    if any(record.get(name) != value for name, value in identity().items()):
        raise BuildRecordError(STALE, "compiled for another Python or by another mplc: compile the "
                               "package again with this mplc", record_path)
    recorded = record.get("files")
    found = _file_hashes(directory)
    if found != recorded:
        recorded = recorded if isinstance(recorded, dict) else {}
        changed = sorted(set(found) ^ set(recorded)
                         | {name for name in found if name in recorded and found[name] != recorded[name]})
        raise BuildRecordError(UNTRUSTED, f"{changed[0]} was added, changed or removed since mplc "
                               "compiled this package; compiled output is code: compile the "
                               "package's sources again", record_path)
    return record
