"""Front-end throughput: generate realistic class files, load and check them, report files/s.

Usage: python benchmarks/frontend_throughput.py [--classes N]   (default 320; target < 2 s)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from mplc.diagnostics import DiagnosticSink
from mplc.frontend import check_packages, load_packages

MANIFEST = """Format: 1.3
Type: Application
FullName: com.example.bench
Name: Bench
Require:
  io.murano:
Classes:
{entries}
"""

CLASS = """Namespaces:
  =: com.example.bench
  std: io.murano
  res: io.murano.resources
  sys: io.murano.system

Name: Bench{index}
Extends: {parent}
Properties:
  name:
    Contract: $.string().notNull()
  instance:
    Contract: $.class(std:Application).notNull()
  ports:
    Contract: [$.int().notNull(), 1]
    Default: [80, 443]
  settings:
    Contract:
      mode: $.string()
      $.string(): $.int()
    Usage: InOut
  deployed:
    Contract: $.bool()
    Usage: Out
    Default: false
Methods:
  initialize:
    Body:
      - $._environment: $.find(std:Environment).require()
      - $.counter: 0
  deploy:
    Scope: Public
    Arguments:
      - force:
          Contract: $.bool()
          Default: false
    Body:
      - If: not $.deployed or $force
        Then:
          - $._environment.reporter.report($this, 'Creating VM for {{0}}'.format($.name))
          - $securityGroupIngress:
              - ToPort: 80
                FromPort: 80
                IpProtocol: tcp
          - $._environment.securityGroupManager.addGroupIngress($securityGroupIngress)
          - $.instance.deploy()
          - $resources: new(sys:Resources)
          - $template: $resources.yaml('Deploy{index}.template').bind(dict(
                name => $.name, ports => $.ports))
          - $.instance.agent.call($template, $resources)
          - For: port
            In: $.ports
            Do:
              - If: $port = 22
                Then: [Continue: ]
              - $.settings[str($port)]: $port * 2
          - Try:
              - $result: $.instance.agent.call($template, $resources, timeout => 60)
            Catch:
              - With: sys:TimeoutException
                As: e
                Do:
                  - $._environment.reporter.report_error($this, $e.message)
                  - Rethrow:
            Finally:
              - $.counter: $.counter + 1
          - Match:
              ok: [{{$.deployed: true}}]
              failed: {{Throw: DeployError, Message: 'deploy failed'}}
            Value: $result.status
            Default: [{{$.deployed: false}}]
          - $._environment.reporter.report($this, format('{{0}} is available at {{1}}',
                $.name, $.instance.ipAddresses.first()))
      - Return: {{name: $.name, ports: $.ports, index: {index}}}
  describe:
    Body:
      Return: $.settings.keys().where($.startsWith('x')).select($.toUpper()).list()
"""


def generate(folder: str, count: int) -> None:
    classes = os.path.join(folder, "Classes")
    os.makedirs(classes)
    entries = []
    for index in range(count):
        parent = "std:Application" if index % 3 else ("Bench%d" % (index - 1) if index else
                                                       "std:Application")
        with open(os.path.join(classes, f"Bench{index}.yaml"), "w") as handle:
            handle.write(CLASS.format(index=index, parent=parent))
        entries.append(f"  com.example.bench.Bench{index}: Bench{index}.yaml")
    with open(os.path.join(folder, "manifest.yaml"), "w") as handle:
        handle.write(MANIFEST.format(entries="\n".join(entries)))


CLASS_FILE_COUNT = 320


def generate_corpus(folder: str, count: int = CLASS_FILE_COUNT) -> str:
    """A package of ``count`` generated class files under ``folder``; its directory."""
    package = os.path.join(folder, "bench")
    generate(package, count)
    return package


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=CLASS_FILE_COUNT)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        package = generate_corpus(folder, options.classes)
        start = time.perf_counter()
        sink = DiagnosticSink()
        packages = load_packages([package], sink)
        check_packages(packages, sink)
        elapsed = time.perf_counter() - start
    errors = [d for d in sink.diagnostics if d.severity == "error"]
    print(f"{options.classes} class files in {elapsed:.3f} s: "
          f"{options.classes / elapsed:.0f} class files/s ({len(errors)} errors)")
    for diagnostic in errors[:5]:
        print("  " + diagnostic.headline())


if __name__ == "__main__":
    main()
