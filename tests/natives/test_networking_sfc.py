"""The networking-sfc plugin's client (mplc/runtime/system/networking_sfc.py): every call of
tests/natives/data/sfc_api on the simulated Neutron. The expected result and the calls and
resources the cloud records are the reference's (Murano's engine with the real plugin,
murano-plugin-networking-sfc, whose Neutron client answered as mplc's simulation does)."""

import json
import os

import pytest

import mplc
from mplc.runtime.system import cloud, plugin_packages

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
APP_ID = "c0ffee00d00d4a5b8c9d0e1f2a3b1401"
MODEL = {"?": {"id": "c0ffee00d00d4a5b8c9d0e1f2a3b1402", "type": "io.murano.Environment",
               "name": "sfc-api"},
         "name": "sfc-api",
         "applications": [{"?": {"id": APP_ID, "type": "tests.sfcapi.App"}}]}


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    runtime = mplc.Runtime([os.path.join(DATA, "sfc_api")],
                           cache_dir=str(tmp_path_factory.mktemp("cache")))
    runtime.load(MODEL)
    executor = runtime.executor
    with executor.active():
        result = executor.render(executor.call(executor.objects[APP_ID], "check"))
    return result, executor.render(cloud.records(executor))


@pytest.fixture(scope="module")
def reference():
    with open(os.path.join(DATA, "sfc_api_reference.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_results_are_the_references(checked, reference):
    assert checked[0] == reference["result"]


def test_created_ids_are_deterministic_per_resource(checked):
    result = checked[0]
    assert result["p1"]["id"] == cloud.fake_id("networking-sfc", "port_pair", 1)
    assert result["group"]["port_pairs"] == [cloud.fake_id("networking-sfc", "port_pair", n)
                                            for n in (1, 2)]
    assert result["chain"]["id"] == cloud.fake_id("networking-sfc", "port_chain", 1)


def test_not_found_is_caught_by_the_plugins_name(checked):
    assert checked[0]["missingShow"][0] == "notFound"


def test_recorded_calls_and_resources_are_the_references(checked, reference):
    records = checked[1]
    assert records["networkingSfcCalls"] == reference["networkingSfcCalls"]
    assert records["networkingSfc"] == reference["networkingSfc"]


def test_the_plugin_package_is_loaded_as_if_installed_unless_given():
    (package,) = plugin_packages()
    assert (package.full_name, package.version) == ("murano-plugin-networking-sfc", "0.0.0")
    assert plugin_packages({"murano-plugin-networking-sfc"}) == []
