"""``mplc run``: load an object model, call one method, print ONE JSON document (DESIGN.md).

``{"result", "error": null | {"type", "message"}, "traces", "model"}`` (a MuranoPL exception's
error also has ``details``: its stack trace as the reference engine formats it); ``--repeat N`` adds
``seconds_per_call`` (median); ``cloud`` is what the simulated cloud recorded (Heat stacks,
agent plans, status reports, notifications, log), present when it recorded anything;
a model that cannot load comes back as it was given, as the engine returns it;
``--cloud FILE`` (a previous run's output, or its ``cloud``) starts the simulated cloud with the
Heat stacks recorded there, as a redeployment finds them, and has its agents answer calls as its
``agentResults`` rules script (``cloud.AgentResults``). Exit 0 ok, 1 MuranoPL error, 2 usage or compile errors.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import re
import statistics
import sys
import time

from mplc.api import Runtime, model_class_names
from mplc.commands import UsageError
from mplc.commands.shared import check_loose_format, shown_diagnostics
from mplc.diagnostics import CompileError, Diagnostic, render
from mplc.ir import Pos
from mplc.runtime.errors import MuranoError, MuranoPlException, NoObjectFoundError
from mplc.runtime.limits import TimeBudget, TimeLimitError
from mplc.runtime.serialization import DOCUMENT_KEYS, InvalidObjectModel, non_finite_numbers, reference_locations
from mplc.runtime.system.cloud import AgentResults, answer_agents_with, records as simulated_cloud, start_with_stacks


def _parse_json(text: str, where: str, what: str = ""):
    """The value of the JSON ``text``; else a UsageError naming ``where`` and, for a syntax
    error, its line and column."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except _NotJson as error:
        raise UsageError(f"{what}{where}: {error}") from None
    except json.JSONDecodeError as error:
        raise UsageError(f"{what}{where}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None
    except RecursionError:
        raise UsageError(f"{what}{where}: JSON nested too deeply") from None
    except ValueError:  # the one other failure of json.loads: Python's limit on integer digits
        raise UsageError(f"{what}{where}: a JSON number has more than {sys.get_int_max_str_digits()} "
                         f"digits") from None


class _NotJson(ValueError):
    pass


def _refuse_constant(name):
    """NaN, Infinity and -Infinity, which Python's json reads but JSON does not have."""
    raise _NotJson(f"{name} is not JSON (NaN and infinities are refused)")


ARGUMENT_NAME = re.compile(r"(?!\d)\w+")


def _json_argument(text: str | None, kind: type, option: str):
    if text is None:
        return kind()
    value = _parse_json(text, option)
    if not isinstance(value, kind):
        raise UsageError(f"{option} must be a JSON {'list' if kind is list else 'object'}")
    return value


def _json_text(output: dict) -> str:
    """The run's JSON document, whole before any of it is written; integers of any size are
    written out in full (Python refuses to convert ones over 4300 digits to text by default)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        try:
            return json.dumps(output, indent=1, sort_keys=False, default=str, allow_nan=False)
        except ValueError:  # NaN or an infinity: never written as such (not JSON)
            for _, location, value in non_finite_numbers(output, ""):
                path = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in location)
                print(f"mplc run: warning: {path.lstrip('.')}: {value!r} is no JSON number; written "
                      f"as the string {json.dumps(_FLOAT_NAMES[str(value)])}", file=sys.stderr)
            return json.dumps(_finite(output), indent=1, sort_keys=False, default=str, allow_nan=False)
    finally:
        sys.set_int_max_str_digits(limit)


_FLOAT_NAMES = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _finite(value):
    """``value`` with every NaN and infinity replaced by its name as a string."""
    if type(value) is float and not math.isfinite(value):
        return _FLOAT_NAMES[str(value)]
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _read_json_file(path: str, what: str):
    """(the JSON document of the file at ``path``, its text); a usage error naming ``what``."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read {what} {path}: {error}") from None
    return _parse_json(text, path, f"cannot read {what} "), text


def read_model(model: str):
    """(the model, the JSON text it was read from, or None): a JSON file (object model or
    ``Objects`` document), else a bare class name."""
    if os.path.isfile(model):
        document, text = _read_json_file(model, "model")
        if not isinstance(document, dict):
            raise UsageError(f"model {model} must hold a JSON object")
        return document, text
    if model.endswith(".json") or "/" in model or os.sep in model:
        raise UsageError(f"model file {model} does not exist" if not os.path.exists(model)
                         else f"model {model} is no regular file")
    if not model or model.lstrip().startswith(("{", "[")):
        raise UsageError(f"model {model!r} is neither a JSON file nor a class name")
    return {"?": {"type": model}}, None


def json_value_offsets(text: str) -> dict[tuple, int]:
    """Where each value of a (valid) JSON document starts in ``text``, by its location: the
    keys and indices leading to it from the top (the last of repeated keys, as json reads).
    A document nested too deeply for this reader gives the offsets read so far."""
    decoder = json.JSONDecoder()
    offsets: dict[tuple, int] = {}

    def skip(offset):
        return _JSON_BLANK.match(text, offset).end()

    def read(offset, location):
        """Record the value at ``offset`` (a container's items too); return where it ends."""
        offset = skip(offset)
        offsets[location] = offset
        opening = text[offset]
        if opening not in "{[":
            return decoder.raw_decode(text, offset)[1]
        closing = "}" if opening == "{" else "]"
        offset = skip(offset + 1)
        index = 0
        while text[offset] != closing:
            if opening == "{":
                key, offset = json.decoder.scanstring(text, offset + 1)
                offset = read(skip(offset) + 1, location + (key,))  # past the colon
            else:
                offset = read(offset, location + (index,))
                index += 1
            offset = skip(offset)
            if text[offset] == ",":
                offset = skip(offset + 1)
        return offset + 1

    try:
        read(0, ())
    except RecursionError:
        pass
    return offsets


_JSON_BLANK = re.compile(r"[ \t\n\r]*")


def model_diagnostics(problems, path: str, text: str) -> list[Diagnostic]:
    """``(type name, message, location)`` problems of a model file as diagnostics at the values
    they are about (the nearest enclosing value the file has)."""
    offsets = json_value_offsets(text)
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    diagnostics = []
    for type_name, message, location in problems:
        while location and location not in offsets:
            location = location[:-1]
        offset = offsets.get(location, 0)
        line = bisect.bisect_right(line_starts, offset)
        column = offset - line_starts[line - 1] + 1
        diagnostics.append(Diagnostic("error", type_name, message, Pos(path, line, column, line, column)))
    return diagnostics


def unloaded_model(model: dict) -> dict:
    """What the engine returns for a model it could not load: the model as it was given (a
    bare object as a document's ``Objects``)."""
    if any(key in model for key in DOCUMENT_KEYS):
        return model
    return {"Objects": model, "ObjectsCopy": None, "Attributes": []}


def read_cloud(path: str):
    """The Heat stacks and the agent result rules (or None) of a ``--cloud`` file: a previous
    ``mplc run`` output, or its ``cloud`` object."""
    document, _ = _read_json_file(path, "cloud")
    cloud = document.get("cloud", document) if isinstance(document, dict) else None
    stacks = cloud.get("stacks", {}) if isinstance(cloud, dict) else None
    if not isinstance(stacks, dict) or not all(
            isinstance(stack, dict) and isinstance(stack.get("template"), dict)
            for stack in stacks.values()):
        raise UsageError(f"cloud {path}: 'stacks' must map stack names to objects with a 'template' object")
    if "agentResults" not in cloud:
        return stacks, None
    try:
        return stacks, AgentResults(cloud["agentResults"])
    except ValueError as error:
        raise UsageError(f"cloud {path}: {error}") from None


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no --path given")
    check_loose_format(args)
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    timeout = getattr(args, "timeout", None)
    if timeout is not None and not (0 < timeout < float("inf")):
        raise UsageError(f"--timeout must be a positive number of seconds, not {timeout:g}")
    call_args = _json_argument(args.args, list, "--args")
    call_kwargs = _json_argument(args.kwargs, dict, "--kwargs")
    for name in call_kwargs:
        if not ARGUMENT_NAME.fullmatch(name) or name.startswith("__"):
            raise UsageError(f"--kwargs: {json.dumps(name)} is not an argument name: a MuranoPL "
                             "argument name is letters, digits and _, not starting with a digit or __")
    model, model_text = read_model(args.model)
    stacks, agent_results = read_cloud(args.cloud) if args.cloud else ({}, None)
    try:
        runtime = Runtime(args.all_paths, cache_dir=args.cache_dir, default_format=args.format,
                          trace=args.trace)
    except CompileError as error:
        render(error.diagnostics, sys.stderr)
        return 2
    needed = model_class_names(model)
    render(shown_diagnostics(args, runtime.packages.diagnostics_for(needed),
                             runtime.packages.diagnostics), sys.stderr)
    if runtime.packages.errors_for(needed):
        return 2
    executor = runtime.executor
    start_with_stacks(executor, stacks)
    if agent_results is not None:
        answer_agents_with(executor, agent_results)
    output = {"result": None, "error": None, "traces": [], "model": None}
    timings = []
    loaded = False
    budget = TimeBudget(timeout, "its time limit (--timeout)")
    try:
        with budget:
            root = executor.load(model)
            loaded = True
            result = None
            for _ in range(args.repeat if root is not None else 0):  # no objects: the engine calls nothing
                started = time.perf_counter()
                result = executor.call(root, args.method, tuple(call_args), call_kwargs)
                timings.append(time.perf_counter() - started)
        output["result"] = executor.render(result)
    except MuranoPlException as error:
        output["error"] = {"type": error.type_name, "message": str(error), "details": error.format()}
    except InvalidObjectModel as error:
        output["error"] = {"type": error.type_name, "message": str(error)}
        if model_text is not None:
            problems = model_diagnostics(error.problems, args.model, model_text)
            render(problems, sys.stderr, {args.model: model_text})
            output["error"]["message"] = "Invalid object model:\n" + "\n".join(
                f"  {problem.pos}: {problem.message}" for problem in problems)
    except NoObjectFoundError as error:
        output["error"] = {"type": error.type_name, "message": str(error)}
        if model_text is not None and not loaded:  # the model names an object it does not have
            render(model_diagnostics(
                [(error.type_name, f"{path}: no object has id {error.object_id!r}", location)
                 for path, location in reference_locations(model, error.object_id)],
                args.model, model_text), sys.stderr, {args.model: model_text})
    except MuranoError as error:
        output["error"] = {"type": error.type_name, "message": str(error)}
    except Exception as error:  # as the engine reports a Python error escaping MuranoPL code
        output["error"] = {"type": type(error).__name__, "message": str(error)}
    try:
        with budget:  # the same deadline: a run out of time destroys nothing more
            executor.finish()
    except TimeLimitError as error:
        output["error"] = output["error"] or {"type": error.type_name, "message": str(error)}
    for warning in executor.warnings:
        print(f"mplc run: warning: {warning}", file=sys.stderr)
    output["traces"] = executor.render(runtime.traces)
    output["model"] = executor.serialize() if loaded else unloaded_model(model)
    cloud = simulated_cloud(executor)
    if any(cloud.values()):
        output["cloud"] = executor.render(cloud)
    if args.repeat > 1 and timings:
        output["seconds_per_call"] = statistics.median(timings)
    sys.stdout.write(_json_text(output) + "\n")
    return 1 if output["error"] else 0
