"""Benchmark harness: mplc against hand-written Python and against plain yaql evaluation.

    python benchmarks/run.py [--only NAME ...] [--json benchmarks/results/latest.json]

Each workload runs in its own subprocess (so peak memory is its own) and is timed three ways:
mplc as compiled (fast paths on), mplc with every expression fast path off (plain yaql
evaluation through the runtime bridge), and the hand-written Python twin in baselines.py. The
table shows the ratios, the reference engine's measured time where there is one, and peak RSS.
This is a harness, not a test: nothing here asserts.

Times of the call and model workloads are CPU times (``time.process_time``), best of the runs,
mplc and its twin run in turn in one process: on a shared machine wall-clock medians of runs made
one after the other moved by a third between two runs of the harness, the interleaved best by a
few percent (their medians are kept in the JSON, under ``extra``). Every run starts from the
same state, as the twin's runs do: the call workloads collect the objects earlier runs made before
each run, untimed (the cost of collecting is reported beside), and the model workload loads into
a fresh runtime. The front-end, compile and import workloads keep wall-clock medians: they read
and write files.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD_PACKAGES = [os.path.join(HERE, "workloads", "bench.core"),
                     os.path.join(HERE, "workloads", "bench.legacy")]
sys.path.insert(0, HERE)


@dataclass(frozen=True)
class CallWorkload:
    """Call ``method`` of a new ``class_name`` object with ``args``; twin: ``baselines.<baseline>``."""

    name: str
    class_name: str
    method: str
    args: tuple
    baseline: str
    reference_seconds: float | None = None  # Murano's engine, measured on this machine class
    target_seconds: float | None = None


CALL_WORKLOADS = [
    CallWorkload("fib(18), int contract", "bench.Fib", "fib", (18,), "fib", 8.1, 0.080),
    CallWorkload("While sum 1..10000", "bench.Loops", "whileSum", (10000,), "while_sum", 5.0, 0.050),
    CallWorkload("10,000 contract-checked calls", "bench.Contracts", "callMany", (10000,), "call_many",
                 14.8, 0.150),
    # yaql's iterator limit (2000 items) caps what one For may iterate over.
    CallWorkload("For + arithmetic 2000", "bench.Loops", "forArithmetic", (2000,), "for_arithmetic"),
    CallWorkload("where/select/dict 2000", "bench.Pipelines", "pipeline", (2000,), "pipeline"),
    CallWorkload("object graph 3^6", "bench.Graph", "buildAndSum", (6, 3), "build_and_sum"),
    CallWorkload("list pipeline 1000, Format 1.3", "bench.ListPipeline", "listPipeline", (1000,),
                 "list_pipeline"),
    CallWorkload("list pipeline 1000, Format 1.0", "bench.legacy.ListPipeline", "listPipeline", (1000,),
                 "list_pipeline"),
    # the functions real class files call, in their corpus proportions (benchmarks/corpus_calls.md)
    CallWorkload("corpus mix 200, Format 1.3", "bench.CorpusMix", "mix", (200,), "corpus_mix"),
    CallWorkload("corpus mix 200, Format 1.0", "bench.legacy.CorpusMix", "mix", (200,), "corpus_mix"),
]

OTHER_WORKLOADS = ["model load+serialize 10000", "front end 300 files", "compile 300 files",
                   "compile 300 files, -j all cores",
                   "import compiled package"]

REPOSITORY = os.path.dirname(HERE)
HELLO = os.path.join(REPOSITORY, "examples", "hello")
# CLI rows: the command, and its target as a multiple of the twin, ``import yaql, yaml`` in a
# fresh interpreter (yaql 3.x needs collections.abc imported first).
CLI_WORKLOADS = {
    "cli: mplc --help": (["--help"], 2.0),
    "cli: mplc run examples/hello (cached)": (
        ["run", "--path", HELLO, "--model", os.path.join(HELLO, "object-model.json")], 5.0),
}
IMPORT_YAQL_YAML = [sys.executable, "-c", "import collections.abc, yaql, yaml"]


@dataclass
class Row:
    name: str
    mplc: float | None = None
    plain_yaql: float | None = None
    python: float | None = None
    reference: float | None = None
    target: float | None = None
    peak_rss_mb: float | None = None
    note: str = ""
    extra: dict = field(default_factory=dict)


def _median_time(function, budget_seconds: float = 2.0, max_runs: int = 15) -> float:
    function()  # warm-up: compile caches, imports
    times = []
    started = time.perf_counter()
    while len(times) < max_runs and (len(times) < 3 or time.perf_counter() - started < budget_seconds):
        begin = time.perf_counter()
        function()
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _interleaved_cpu_times(functions, budget_seconds: float = 3.0, min_runs: int = 5,
                           max_runs: int = 40, before=None) -> list[list[float]]:
    """CPU seconds of each run of each function, the functions run in turn (after one warm-up
    run each), so that load on the machine falls on all of them alike. ``before``, when given,
    runs untimed before every run of any function."""
    for function in functions:
        function()
    times = [[] for _ in functions]
    started = time.perf_counter()
    while len(times[0]) < max_runs and (len(times[0]) < min_runs
                                        or time.perf_counter() - started < budget_seconds):
        for function, runs in zip(functions, times):
            if before is not None:
                before()
            begin = time.process_time()
            function()
            runs.append(time.process_time() - begin)
    return times


def _runtime(fast_paths: bool, cache_dir: str):
    import mplc
    return mplc.Runtime(WORKLOAD_PACKAGES, cache_dir=cache_dir, fast_paths=fast_paths)


def run_call_workload(workload: CallWorkload, cache_dir: str) -> Row:
    """Each run starts from the same state, as each run of the twin does: the object called is
    the root of a loaded model, and the objects earlier runs made (kept by the object store, as
    the reference keeps them, until a collection or the end of the deployment) are collected,
    untimed, before it. What collecting them costs is in the JSON (``collect_median``) and,
    when it is more than a trace, in the note."""
    import baselines
    row = Row(workload.name, reference=workload.reference_seconds, target=workload.target_seconds)
    twin = getattr(baselines, workload.baseline)
    expected = twin(*workload.args)
    for fast_paths in (True, False):
        runtime = _runtime(fast_paths, cache_dir)
        obj = runtime.load({"?": {"id": "benchmark", "type": workload.class_name}})
        result = runtime.render(runtime.call(obj, workload.method, *workload.args))
        if result != expected:
            row.note = f"result {result!r} != python {expected!r}"
        collect_times = []

        def collect():
            begin = time.process_time()
            runtime.collect_garbage()
            collect_times.append(time.process_time() - begin)

        if fast_paths:
            mplc_times, python_times = _interleaved_cpu_times(
                [lambda: runtime.call(obj, workload.method, *workload.args), lambda: twin(*workload.args)],
                before=collect)
            row.mplc, row.python = min(mplc_times), min(python_times)
            collect_median = statistics.median(collect_times[1::2])  # those after an mplc run
            row.extra.update(runs=len(mplc_times), mplc_median=statistics.median(mplc_times),
                             python_median=statistics.median(python_times), collect_median=collect_median)
            if collect_median > 0.05 * row.mplc:
                row.note = row.note or f"+{_format_seconds(collect_median)} to collect a run's objects"
        else:
            (plain_times,) = _interleaved_cpu_times(
                [lambda: runtime.call(obj, workload.method, *workload.args)], min_runs=3, max_runs=15,
                before=collect)
            row.plain_yaql = min(plain_times)
    row.peak_rss_mb = _peak_rss_mb()
    return row


def _generated_model(count: int) -> dict:
    objects = {"?": {"id": "root", "type": "bench.Node"}, "value": 0, "children": []}
    for index in range(count - 1):
        objects["children"].append({"?": {"id": f"n{index}", "type": "bench.Node"}, "value": index})
    return objects


def run_model_workload(cache_dir: str) -> Row:
    """mplc and the twin alike, in turn: each run starts with the earlier runs' garbage
    collected, and mplc loads into a fresh runtime made before the timing (a new deployment's
    empty object store; its classes are built on first use, a fraction of a millisecond)."""
    import baselines
    row = Row("model load+serialize 10000")
    model = _generated_model(10000)

    def load_and_serialize(runtime):
        runtime.load(model)
        return runtime.serialize()

    outputs = {}

    def fresh_run(name, prepare, run):
        prepared = prepare()
        gc.collect()
        begin = time.process_time()
        outputs[name] = run(prepared)
        return time.process_time() - begin

    times = {"python": [], "mplc": []}
    for _ in range(8):  # the first round warms up
        times["python"].append(fresh_run("python", lambda: model, baselines.model_load_and_serialize))
        times["mplc"].append(fresh_run("mplc", lambda: _runtime(True, cache_dir), load_and_serialize))
    row.python, row.mplc = min(times["python"][1:]), min(times["mplc"][1:])
    row.extra.update(runs=len(times["mplc"]) - 1, mplc_median=statistics.median(times["mplc"][1:]),
                     python_median=statistics.median(times["python"][1:]))
    if outputs["mplc"] != outputs["python"]:
        row.note = "serialized model != python's"
    row.peak_rss_mb = _peak_rss_mb()
    return row


def run_frontend_workloads(name: str, cache_dir: str) -> Row:
    import frontend_throughput
    from mplc.diagnostics import DiagnosticSink
    from mplc.frontend import load_packages
    row = Row(name)
    with tempfile.TemporaryDirectory() as scratch:
        package_dir = frontend_throughput.generate_corpus(scratch)
        if name == "front end 300 files":
            row.mplc = _median_time(lambda: load_packages([package_dir], DiagnosticSink()),
                                    budget_seconds=5.0, max_runs=5)
        elif name == "compile 300 files":
            from mplc.api import compile_packages
            out = os.path.join(scratch, "out")
            row.mplc = _median_time(lambda: compile_packages([package_dir], out, force=True),
                                    budget_seconds=5.0, max_runs=3)
        elif name == "compile 300 files, -j all cores":
            from mplc.api import compile_packages
            from mplc.parallel import available_cores
            out = os.path.join(scratch, "out")
            row.mplc = _median_time(lambda: compile_packages([package_dir], out, force=True,
                                                             jobs=available_cores()),
                                    budget_seconds=5.0, max_runs=3)
            row.note = f"{available_cores()} cores (wall time; the machine's other load counts)"
        else:
            from mplc.api import compile_packages
            out = os.path.join(scratch, "out")
            compile_packages([package_dir], out, force=True)
            code = "import sys, time; sys.path.insert(0, {0!r}); t = time.perf_counter(); " \
                   "import importlib, os; [importlib.import_module(d) for d in os.listdir({0!r})]; " \
                   "print(time.perf_counter() - t)".format(out)
            row.mplc = statistics.median(float(subprocess.check_output([sys.executable, "-c", code]))
                                         for _ in range(3))
        row.extra["class_files"] = frontend_throughput.CLASS_FILE_COUNT
    row.peak_rss_mb = _peak_rss_mb()
    return row


def _process_cpu_seconds(command: list[str], environment: dict) -> float:
    """User + system CPU seconds of one run of ``command`` (on a shared machine its wall time
    is mostly waiting for a core)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_cli_workload(name: str, cache_dir: str) -> Row:
    """A fresh ``mplc`` process against a fresh ``python -c 'import yaql, yaml'``, in turn,
    best of the runs in CPU seconds of the process. The first round fills the caches
    (compiled packages, yaql's parser tables) and is not counted."""
    arguments, target_ratio = CLI_WORKLOADS[name]
    environment = dict(os.environ, MPLC_CACHE_DIR=cache_dir)
    command = [sys.executable, "-m", "mplc.cli", *arguments]
    times = {"mplc": [], "python": []}
    for _ in range(8):
        times["mplc"].append(_process_cpu_seconds(command, environment))
        times["python"].append(_process_cpu_seconds(IMPORT_YAQL_YAML, environment))
    row = Row(name)
    row.mplc, row.python = min(times["mplc"][1:]), min(times["python"][1:])
    row.target = target_ratio * row.python
    row.note = f"target {target_ratio:g}x python -c 'import yaql, yaml'"
    row.extra.update(runs=len(times["mplc"]) - 1, mplc_median=statistics.median(times["mplc"][1:]),
                     python_median=statistics.median(times["python"][1:]))
    return row


def run_one(name: str, cache_dir: str) -> Row:
    if name in CLI_WORKLOADS:
        return run_cli_workload(name, cache_dir)
    for workload in CALL_WORKLOADS:
        if workload.name == name:
            return run_call_workload(workload, cache_dir)
    if name == "model load+serialize 10000":
        return run_model_workload(cache_dir)
    return run_frontend_workloads(name, cache_dir)


def _format_seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 1e-3:
        return f"{value * 1e6:.1f}us"
    if value < 1:
        return f"{value * 1e3:.2f}ms"
    return f"{value:.2f}s"


def _ratio(numerator: float | None, denominator: float | None) -> str:
    if not numerator or not denominator:
        return "-"
    return f"{numerator / denominator:.1f}x"


def print_table(rows: list[Row]) -> None:
    headers = ["workload", "mplc", "python", "mplc/python", "plain yaql", "yaql/mplc", "reference",
               "ref/mplc", "target", "peak MB", "note"]
    table = [headers]
    for row in rows:
        table.append([row.name, _format_seconds(row.mplc), _format_seconds(row.python),
                      _ratio(row.mplc, row.python), _format_seconds(row.plain_yaql),
                      _ratio(row.plain_yaql, row.mplc), _format_seconds(row.reference),
                      _ratio(row.reference, row.mplc), _format_seconds(row.target),
                      f"{row.peak_rss_mb:.0f}" if row.peak_rss_mb else "-", row.note])
    widths = [max(len(line[i]) for line in table) for i in range(len(headers))]
    for index, line in enumerate(table):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
        if index == 0:
            print("  ".join("-" * width for width in widths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="run only workloads with this name")
    parser.add_argument("--json", default=os.path.join(HERE, "results", "latest.json"))
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one workload, print JSON
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)
    cache_dir = args.cache_dir or tempfile.mkdtemp(prefix="mplc-bench-")

    if args.one:
        try:
            row = run_one(args.one, cache_dir)
        except Exception as error:  # the table shows why a workload could not run
            row = Row(args.one, note=f"failed: {type(error).__name__}: {error}"[:160])
        print(json.dumps(asdict(row)))
        return 0

    names = [w.name for w in CALL_WORKLOADS] + OTHER_WORKLOADS + list(CLI_WORKLOADS)
    if args.only:
        names = [name for name in names if any(part in name for part in args.only)]
    rows = []
    for name in names:
        output = subprocess.run([sys.executable, __file__, "--one", name, "--cache-dir", cache_dir],
                                capture_output=True, text=True)
        lines = output.stdout.strip().splitlines()
        if output.returncode != 0 or not lines:
            rows.append(Row(name, note=f"crashed: {output.stderr.strip().splitlines()[-1:]}"))
        else:
            rows.append(Row(**json.loads(lines[-1])))
    print_table(rows)
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as handle:
        json.dump([asdict(row) for row in rows], handle, indent=2)
    print(f"\nwritten: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
