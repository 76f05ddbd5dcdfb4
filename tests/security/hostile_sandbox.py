"""A sandbox for hostile cases: mplc runs in a subprocess with rlimits (address space, CPU,
file size, wall clock), with its own HOME (build key), cache and working directory, next to an
``outside`` folder holding a secret the package must never read and nothing may write into.

One sandbox per test session: the bundled core library is compiled into its cache once.
"""

import importlib._bootstrap_external
import json
import os
import resource
import subprocess
import sys

import yaml

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile_driver.py")
SECRET = "SECRET-7c1e-outside-the-package"
MEMORY_LIMIT = 2 * 1024 ** 3  # bytes of address space a case may map
CPU_SECONDS = 60
WALL_SECONDS = 300  # a loaded CI machine; CPU_SECONDS is the real bound
WRITE_LIMIT = 64 * 1024 * 1024  # the largest file a case may write


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_FSIZE, (WRITE_LIMIT, WRITE_LIMIT))


class Sandbox:
    def __init__(self, root):
        self.root = root
        self.outside = root / "outside"
        self.home = root / "home"
        self.cache = root / "cache"
        self.work = root / "work"
        for folder in (self.outside, self.home, self.cache, self.work):
            folder.mkdir()
        self.secret = self.outside / "secret.txt"
        self.secret.write_text(f"{SECRET}: the host's file\n")
        (self.outside / "secret.yaml").write_text(f"Name: {SECRET}\n")
        (self.outside / "Classes").mkdir()
        (self.outside / "Classes" / "Main.yaml").write_text(f"Name: {SECRET}\n")
        os.mkfifo(self.outside / "fifo")  # opened, it blocks: a link to it must not be opened
        self.counter = 0

    def environment(self, **extra):
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("MPLC_", "XDG_"))}
        environment.update(HOME=str(self.home), MPLC_CACHE_DIR=str(self.cache), **extra)
        return environment

    def mplc(self, *args, **environment):
        """``mplc ARGS`` bounded by the rlimits; its CompletedProcess (text)."""
        return subprocess.run([sys.executable, "-m", "mplc.cli", *map(str, args)], cwd=self.work,
                              capture_output=True, text=True, timeout=WALL_SECONDS,
                              preexec_fn=_limits, env=self.environment(**environment))

    def batch(self, cases, wall_seconds=WALL_SECONDS):
        """Run ``{case: [command, ...]}`` (hostile_driver.py) in one rlimited subprocess;
        ``{case: [result, ...]}``, each result a dict with returncode, stdout and stderr."""
        self.counter += 1
        commands = self.root / f"batch-{self.counter}.json"
        results = self.root / f"batch-{self.counter}-results.json"
        commands.write_text(json.dumps(cases))
        completed = subprocess.run([sys.executable, DRIVER, str(commands), str(results)], cwd=self.work,
                                   capture_output=True, text=True, timeout=wall_seconds,
                                   preexec_fn=_limits, env=self.environment())
        assert completed.returncode == 0 and results.exists(), completed.stderr
        return json.loads(results.read_text())

    def python(self, code, **environment):
        return subprocess.run([sys.executable, "-c", code], cwd=self.work, capture_output=True,
                              text=True, timeout=WALL_SECONDS, preexec_fn=_limits,
                              env=self.environment(**environment))

    def folder(self, name):
        self.counter += 1
        path = self.work / f"{self.counter:03d}-{name}"
        path.mkdir()
        return path

    def package(self, name="pkg", body=("- Return: 1",), arguments=None, resources=None,
                extra_classes=None, format_version="1.3"):
        """A package whose class ``com.example.hostile.Main`` has method ``run`` with ``body``."""
        path = self.folder(name)
        (path / "Classes").mkdir()
        classes = {"com.example.hostile.Main": "Main.yaml"}
        classes.update({full: f"{full.rsplit('.', 1)[1]}.yaml" for full in (extra_classes or {})})
        manifest = {"Format": format_version, "Type": "Application",
                    "FullName": "com.example.hostile", "Classes": classes}
        (path / "manifest.yaml").write_text(yaml.safe_dump(manifest))
        method = {"Body": "BODY"}
        if arguments:
            method["Arguments"] = arguments
        text = yaml.safe_dump({"Namespaces": {"=": "com.example.hostile", "sys": "io.murano.system",
                                              "std": "io.murano"},
                               "Name": "Main", "Extends": "std:Object",
                               "Methods": {"run": method}}, sort_keys=False)
        text = text.replace("Body: BODY", "Body:\n" + "".join(f"    {line}\n" for line in body))
        (path / "Classes" / "Main.yaml").write_text(text)
        for full, class_text in (extra_classes or {}).items():
            (path / "Classes" / f"{full.rsplit('.', 1)[1]}.yaml").write_text(class_text)
        (path / "Resources").mkdir()
        (path / "UI").mkdir()
        for relative, data in (resources or {}).items():
            target = path / "Resources" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return path

    def run(self, path, method="run", *options, model="com.example.hostile.Main", **environment):
        return self.mplc("run", "--path", path, "--model", model, "--method", method, *options,
                         **environment)

    def forged_pyc(self, marker):
        """A .pyc that, imported, writes ``marker``: what a hostile package would hide."""
        code = compile(f"open({str(marker)!r}, 'w').write('imported')\nPACKAGE = None\nCLASS = None\n",
                       "forged", "exec")
        return bytes(importlib._bootstrap_external._code_to_timestamp_pyc(code, 0, 0))

    def outside_state(self):
        return sorted((os.path.relpath(os.path.join(d, n), self.outside), os.lstat(os.path.join(d, n)).st_mtime_ns)
                      for d, _, names in os.walk(self.outside) for n in names)

    def leaked(self, *texts):
        """Places the secret shows up: the given texts (a run's stdout and stderr), then every
        regular file of the sandbox outside ``outside`` (compiled output, caches, HOME)."""
        found = [f"output {index}" for index, text in enumerate(texts) if SECRET in (text or "")]
        for directory, _, names in os.walk(self.root):
            if os.path.commonpath([directory, str(self.outside)]) == str(self.outside):
                continue
            for name in names:
                path = os.path.join(directory, name)
                if os.path.islink(path) or not os.path.isfile(path):
                    continue
                with open(path, "rb") as handle:
                    if SECRET.encode() in handle.read():
                        found.append(path)
        return found


def result_of(completed):
    """The JSON document ``mplc run`` printed."""
    assert completed.stdout, completed.stderr
    return json.loads(completed.stdout)
