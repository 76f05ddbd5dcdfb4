"""The schema test world: where the packages under tests/data/schema are, and a draft-04
validator that knows the reference's custom type ``muranoObject``.

``muranoObject`` is checked with a draft-04 meta-schema whose ``simpleTypes`` also allows it
(every other draft-04 rule unchanged); an instance of it is what an object model holds where an
object goes: an object (a dict with ``?`` giving its ``type``) or the id of one (a string).
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import threading

import jsonschema

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "schema")
PACKAGE_PATHS = [os.path.join(DATA, "forms.library"), os.path.join(DATA, "forms.app")]
SERVE_APP = os.path.join(os.path.dirname(__file__), "..", "data", "serve", "serve.app")
SERVER = "forms.app.Server"
ACTIONS = "serve.app.Actions"


def _is_murano_object(checker, instance) -> bool:
    if isinstance(instance, str):
        return True
    header = instance.get("?") if isinstance(instance, dict) else None
    return isinstance(header, dict) and isinstance(header.get("type"), str)


META_SCHEMA = copy.deepcopy(jsonschema.Draft4Validator.META_SCHEMA)
META_SCHEMA["definitions"]["simpleTypes"]["enum"].append("muranoObject")
MuranoDraft4Validator = jsonschema.validators.extend(
    jsonschema.Draft4Validator,
    type_checker=jsonschema.Draft4Validator.TYPE_CHECKER.redefine("muranoObject",
                                                                  _is_murano_object))
MuranoDraft4Validator.META_SCHEMA = META_SCHEMA


class ServeProcess:
    """``python -m mplc.cli serve`` on a free port; its stderr is drained and kept."""

    def __init__(self, arguments: list[str], cache_dir: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mplc.cli", "serve", *arguments, "--port", "0",
             "--cache-dir", cache_dir], stderr=subprocess.PIPE)
        line = self.process.stderr.readline().decode()
        assert line.startswith("mplc serve: listening on http://127.0.0.1:"), line
        self.address = ("127.0.0.1", int(line.rsplit(":", 1)[1]))
        self.stderr = []
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(timeout=60)
