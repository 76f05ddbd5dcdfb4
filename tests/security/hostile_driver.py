"""Runs a batch of mplc commands in this one process (the test's rlimited subprocess), so a
table of hostile cases pays Python's and mplc's start-up once.

    python hostile_driver.py COMMANDS.json RESULTS.json

COMMANDS.json: ``{case id: [command, ...]}``; a command is ``{"argv": [...]}`` (``mplc ARGV``)
or ``{"runtime": [paths]}`` (``mplc.Runtime(paths)``) or ``{"python": code}``, with optional ``"env"`` set while it
runs. RESULTS.json gets ``{case id: [{"returncode", "stdout", "stderr"}, ...]}``.
"""

import contextlib
import io
import json
import os
import sys
import traceback


def run(command):
    stdout, stderr = io.StringIO(), io.StringIO()
    saved = {name: os.environ.get(name) for name in command.get("env", {})}
    os.environ.update(command.get("env", {}))
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                if "argv" in command:
                    from mplc.cli import main
                    code = main(command["argv"])
                elif "python" in command:
                    exec(command["python"], {"__name__": "hostile_case"})
                    code = 0
                else:
                    import mplc
                    mplc.Runtime(command["runtime"])
                    code = 0
            except SystemExit as exit:
                code = exit.code if isinstance(exit.code, int) else 1
            except BaseException as error:  # noqa: BLE001 - reported to the test as it is
                traceback.print_exc(file=stderr)
                code = f"{type(error).__name__}: {error}"
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return {"returncode": code, "stdout": stdout.getvalue(), "stderr": stderr.getvalue()}


def main(commands_path, results_path):
    with open(commands_path, encoding="utf-8") as handle:
        cases = json.load(handle)
    results = {case: [run(command) for command in commands] for case, commands in cases.items()}
    with open(results_path, "w", encoding="utf-8") as handle:
        json.dump(results, handle)


if __name__ == "__main__":
    main(*sys.argv[1:])
