"""Data in, data out, nothing silently dropped: a model reusing a loaded object id, argument
names that are no names, NaN and infinities in models and arguments (refused) and results
(never written as such). One rlimited batch."""

import json

import pytest

MAIN = "com.example.hostile.Main"
NAME_RULE = ("is not an argument name: a MuranoPL argument name is letters, digits and _, not "
             "starting with a digit or __")

# (case, extra mplc run options, exit code, stderr)
ARGUMENTS = [
    ("kwargs-question-mark", ["--kwargs", '{"?": 1}'], 2, f'mplc run: error: --kwargs: "?" {NAME_RULE}\n'),
    ("kwargs-empty", ["--kwargs", '{"": 1}'], 2, f'mplc run: error: --kwargs: "" {NAME_RULE}\n'),
    ("kwargs-variable", ["--kwargs", '{"$x": 1}'], 2, f'mplc run: error: --kwargs: "$x" {NAME_RULE}\n'),
    ("kwargs-dunder", ["--kwargs", '{"__class__": 1}'], 2,
     f'mplc run: error: --kwargs: "__class__" {NAME_RULE}\n'),
    ("args-nan", ["--args", "[NaN]"], 2,
     "mplc run: error: --args: NaN is not JSON (NaN and infinities are refused)\n"),
    ("args-infinity", ["--args", "[1, [Infinity]]"], 2,
     "mplc run: error: --args: Infinity is not JSON (NaN and infinities are refused)\n"),
    ("kwargs-minus-infinity", ["--kwargs", '{"x": -Infinity}'], 2,
     "mplc run: error: --kwargs: -Infinity is not JSON (NaN and infinities are refused)\n"),
]

PYTHON = {
    "reload-same-id": """
import mplc
from mplc.runtime.errors import MuranoError
rt = mplc.Runtime([PACKAGE])
rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}})
try:
    rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}, "progress": "new"})
except MuranoError as error:
    print(type(error).__name__, error)
""",
    "reload-nested-id": """
import mplc
from mplc.runtime.errors import MuranoError
rt = mplc.Runtime([PACKAGE])
rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}})
try:
    rt.load({"Objects": {"?": {"id": "other", "type": "com.example.hostile.Main"},
                         "child": {"?": {"id": "root", "type": "com.example.hostile.Main"}}}})
except MuranoError as error:
    print(type(error).__name__, error)
""",
    "reload-in-a-new-runtime": """
import mplc
from mplc.runtime.errors import MuranoError
first = mplc.Runtime([PACKAGE])
first.load({"?": {"id": "root", "type": "com.example.hostile.Main"}, "progress": "old"})
second = mplc.Runtime([PACKAGE])
second.load({"?": {"id": "root", "type": "com.example.hostile.Main"}, "progress": "new"})
print(second.serialize()["Objects"]["progress"])
""",
    "api-kwargs-name": """
import mplc
from mplc.runtime.errors import MuranoError
rt = mplc.Runtime([PACKAGE])
root = rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}})
for name in ("?", "", "$x", "__class__"):
    try:
        rt.call(root, "run", **{name: 1})
    except TypeError as error:
        print(error)
""",
    "api-model-nan": """
import mplc
from mplc.runtime.errors import MuranoError
rt = mplc.Runtime([PACKAGE])
try:
    rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}, "progress": float("nan"),
             "list": [1, float("-inf")]})
except MuranoError as error:
    print(type(error).__name__, error)
""",
    "api-argument-infinity": """
import mplc
from mplc.runtime.errors import MuranoError
rt = mplc.Runtime([PACKAGE])
root = rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}})
try:
    rt.call(root, "run", [float("inf")])
except ValueError as error:
    print(error)
""",
    "api-timeout": """
import mplc
from mplc.runtime.errors import MuranoError
rt = mplc.Runtime([LOOPING], timeout=0.5)
root = rt.load({"?": {"id": "root", "type": "com.example.hostile.Main"}})
try:
    rt.call(root, "run")
except MuranoError as error:
    print(error.type_name, error)
print(rt.call(root, "done"))
""",
}

EXPECTED_PYTHON = {
    "reload-same-id": 'ObjectIdInUse Object "root" is already loaded in this Runtime: loading a model again '
                      "would keep its old values; load the new model into a new Runtime (a redeployment "
                      "starts from the serialized model)\n",
    "reload-nested-id": 'ObjectIdInUse Object "root" is already loaded in this Runtime: loading a model '
                        "again would keep its old values; load the new model into a new Runtime (a "
                        "redeployment starts from the serialized model)\n",
    "reload-in-a-new-runtime": "new\n",
    "api-kwargs-name": "".join(f"{name!r} {NAME_RULE}\n" for name in ("?", "", "$x", "__class__")),
    "api-model-nan": "InvalidObjectModel Invalid object model:\n  $.list[1]: -inf is no JSON number (NaN and "
                     "infinities are refused)\n  $.progress: nan is no JSON number (NaN and infinities are "
                     "refused)\n",
    "api-argument-infinity": "an argument holds NaN or an infinity, which are no JSON numbers\n",
}


def _with_progress(package):
    main = package / "Classes" / "Main.yaml"
    main.write_text(main.read_text().replace("Methods:", "Properties:\n  progress:\n    Contract: "
                                             "$.string()\n    Usage: InOut\nMethods:"))
    return package


@pytest.fixture(scope="module")
def data_cases(sandbox):
    before = sandbox.outside_state()
    package = _with_progress(sandbox.package("data", body=["- Return: $x"],
                                             arguments=[{"x": {"Contract": "$"}}]))
    infinite = sandbox.package("infinite", body=["- $x: pow(10.0, 308) * 10.0",
                                                 "- Return: [$x, 0 - $x, {a: $x}]"])
    looping = sandbox.package("looping", body=["- While: 1 = 1", "  Do:", "    - $spin: 1"])
    text = (looping / "Classes" / "Main.yaml").read_text()
    (looping / "Classes" / "Main.yaml").write_text(text + "  done:\n    Body:\n      - Return: after\n")
    run = ["run", "--path", str(package), "--model", MAIN, "--method", "run"]
    commands = {case: [{"argv": run + options}] for case, options, _, _ in ARGUMENTS}
    commands["result-infinite"] = [{"argv": ["run", "--path", str(infinite), "--model", MAIN, "--method", "run"]}]
    for case, code in PYTHON.items():
        commands[case] = [{"python": code.replace("PACKAGE", repr(str(package)))
                           .replace("LOOPING", repr(str(looping)))}]
    results = sandbox.batch(commands)
    yield results
    assert sandbox.outside_state() == before


@pytest.mark.parametrize("case, code, stderr", [(case, code, stderr) for case, _, code, stderr in ARGUMENTS],
                         ids=[case for case, *_ in ARGUMENTS])
def test_hostile_arguments_are_usage_errors(case, code, stderr, data_cases):
    [result] = data_cases[case]
    assert (result["returncode"], result["stderr"], result["stdout"]) == (code, stderr, "")


@pytest.mark.parametrize("case", sorted(EXPECTED_PYTHON))
def test_hostile_data_through_the_python_api(case, data_cases):
    [result] = data_cases[case]
    assert result["returncode"] == 0, result["stderr"]
    assert result["stdout"] == EXPECTED_PYTHON[case]


def test_a_runtime_timeout_stops_a_call_and_the_runtime_goes_on(data_cases):
    [result] = data_cases["api-timeout"]
    assert result["returncode"] == 0, result["stderr"]
    first, second = result["stdout"].splitlines()
    assert first.startswith("TimeLimitExceeded the run took longer than its time limit (timeout) of "
                            "0.5 seconds; stopped at ")
    assert first.split("stopped at ")[1].rsplit(":", 1)[0].endswith("Main.yaml")
    assert second == "after"


def test_infinities_are_never_written_as_json_numbers(data_cases):
    [result] = data_cases["result-infinite"]
    assert result["returncode"] == 0, result["stderr"]

    def refuse(name):
        raise AssertionError(f"{name} written")
    output = json.loads(result["stdout"], parse_constant=refuse)
    assert output["result"] == ["Infinity", "-Infinity", {"a": "Infinity"}]
    assert result["stderr"] == (
        'mplc run: warning: result[0]: inf is no JSON number; written as the string "Infinity"\n'
        'mplc run: warning: result[1]: -inf is no JSON number; written as the string "-Infinity"\n'
        'mplc run: warning: result[2].a: inf is no JSON number; written as the string "Infinity"\n')
