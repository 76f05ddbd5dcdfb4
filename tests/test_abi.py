"""The declared ABI (mplc/abi.py) on both sides: the runtime exports exactly it, and the code
mplc generates for the examples and the core library (fast paths on and off) reads nothing
else. test_cases.py applies the same scan to every case's compiled package."""

import os

import pytest

import mplc.runtime
from mplc import abi
from mplc.build import compile_packages
from mplc.runtime import contract_primitives, fast_paths

from tests.abi_scan import compiled_package_names, runtime_names, undeclared

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(os.path.join(REPOSITORY, "examples", name) for name in os.listdir(os.path.join(REPOSITORY, "examples"))
                  if os.path.isfile(os.path.join(REPOSITORY, "examples", name, "manifest.yaml")))
CORE_LIBRARY = os.path.join(REPOSITORY, "mplc", "corelib", "io.murano")


def test_the_runtime_exports_exactly_the_abi():
    assert mplc.runtime.__all__ == sorted(abi.NAMES)
    assert [name for name in abi.NAMES if not hasattr(mplc.runtime, name)] == []
    assert mplc.runtime.fast is fast_paths and mplc.runtime.contracts is contract_primitives


@pytest.mark.parametrize("namespace, names", [(fast_paths, abi.FAST_NAMES),
                                              (contract_primitives, abi.CONTRACT_NAMES)])
def test_namespace_members_exist(namespace, names):
    assert sorted(name for name in names if not hasattr(namespace, name)) == []


def test_the_scan_sees_what_is_outside():
    code = compile("import mplc.runtime as _r\nimport os\n"
                   "def f(x):\n    return _r.fast.add(x, _r.call) + _r.fast.nope + _r.bogus(_r)\n",
                   "<test>", "exec")
    names = runtime_names(code)
    assert names >= {"fast.add", "call", "fast.nope", "bogus", "<_r>", "import os"}
    assert undeclared(names) == {"fast.nope", "bogus", "<_r>", "import os"}


@pytest.mark.parametrize("fast", [True, False], ids=["fast-paths", "plain-yaql"])
def test_generated_code_reads_only_the_abi(tmp_path, fast):
    directories = compile_packages([*EXAMPLES, CORE_LIBRARY], str(tmp_path), fast_paths=fast)
    assert len(directories) == len(EXAMPLES) + 1
    names = set().union(*(compiled_package_names(directory) for directory in directories))
    assert {"ClassSpec", "call", "contracts.freeze"} <= names
    assert undeclared(names) == set()


def test_compatibility_key_names_the_versions():
    key = abi.compatibility_key()
    assert mplc.__version__ in key and f"abi-{abi.VERSION}" in key
