"""Object models: every shape loads as written, bad models fail with a clear error, and
load -> serialize -> load gives the same model (a hypothesis property up to 10,000 objects)."""

import copy
import gc
import json
import os
import random
import subprocess
import sys
import weakref

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import mplc
from mplc.runtime.errors import MuranoError

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
PACKAGE = os.path.join(DATA, "model_nodes")
ACTIONS_PACKAGE = os.path.join(DATA, "model_actions")
NODE, LEAF, ITEM = "tests.model.Node", "tests.model.Leaf", "tests.model.Item"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture()
def runtime(cache_dir):
    return mplc.Runtime([PACKAGE], cache_dir=cache_dir, trace=True)


def node(object_id, value, type_name=NODE, **properties):
    return {"?": {"id": object_id, "type": type_name}, "value": value, **properties}


def objects_of(runtime):
    return runtime.executor.objects


# --- shapes ------------------------------------------------------------------------------------

def test_inline_object_is_owned_by_its_parent(runtime):
    root = runtime.load(node("a", 1, child=node("b", 2)))
    store = objects_of(runtime)
    assert store["b"].owner is store["a"]
    assert runtime.call(root, "total") == 3


@pytest.mark.parametrize("given, loaded", [(3, 3), ("7", 7), (True, 1), (2.9, 2)])
def test_int_property_contract_converts_what_is_not_an_int(runtime, given, loaded):
    runtime.load(node("a", given))
    value = objects_of(runtime)["a"].properties["value"]
    assert (type(value), value) == (int, loaded)


@pytest.mark.parametrize("level, error", [(3, None), (-1, "doesn't match predicate"),
                                          ("x", "violates int\\(\\) contract")])
def test_property_contract_with_a_check_runs_for_every_value(runtime, level, error):
    model = {"?": {"id": "g", "type": "tests.model.Gauge"}, "level": level}
    if error is None:
        runtime.load(model)
        assert objects_of(runtime)["g"].properties["level"] == level
    else:
        with pytest.raises(MuranoError, match=error):
            runtime.load(model)
        with pytest.raises(MuranoError, match=error):
            runtime.new("tests.model.Gauge", level=level)


def test_reference_by_id_resolves_to_the_object_and_a_string_contract_keeps_the_string(runtime):
    runtime.load(node("a", 1, child=node("b", 2, peer="a"), reference="a"))
    store = objects_of(runtime)
    assert store["b"].properties["peer"] is store["a"]
    assert store["a"].properties["reference"] == "a"


def test_forward_shared_and_cyclic_references(runtime):
    runtime.load(node("a", 1, peer="c", children=[
        node("b", 2, peer="c"), node("c", 3, peer="a")]))
    store = objects_of(runtime)
    assert store["a"].properties["peer"] is store["c"] is store["b"].properties["peer"]
    assert store["c"].properties["peer"] is store["a"]


def test_header_is_the_references_and_designer_entries_are_not_written_back(runtime):
    model = node("a", 1)
    model["?"].update(name="The root", metadata={"m": 1}, _designer={"x": [1, 2]},
                      _actions={"a_total": {"enabled": False}})
    runtime.load(model)
    written = runtime.serialize()
    header = {"type": f"{NODE}/1.0.0@tests.model", "id": "a", "name": "The root", "metadata": {"m": 1}}
    assert written["Objects"]["?"] == {**header, "_actions": {}}
    assert written["ObjectsCopy"]["?"] == header
    assert next(iter(written["Objects"])) == "?"


def test_header_name_and_metadata_of_any_type_are_written_back_as_given(runtime):
    """The reference takes any value for both (its serialized model, for this model, has
    name 5 and name [1, 2] with metadata 7)."""
    runtime.load(node("a", 1, child={"?": {"id": "b", "type": NODE, "name": [1, 2], "metadata": 7},
                                     "value": 2}) | {"?": {"id": "a", "type": NODE, "name": 5}})
    written = runtime.serialize()["Objects"]
    assert (written["?"]["name"], written["?"]["metadata"]) == (5, None)
    assert (written["child"]["?"]["name"], written["child"]["?"]["metadata"]) == ([1, 2], 7)


def test_document_without_objects_serializes_as_the_reference(runtime):
    runtime.load({"Objects": None})
    assert runtime.serialize() == {"Objects": None, "ObjectsCopy": None, "Attributes": []}


def test_serialized_model_is_the_references_golden(cache_dir):
    """Golden file written by the reference engine (its ``finalize``) from ``actions_model.json``:
    ``_actions`` in ``find_methods`` order with Title / Description / HelpText meta (an
    ancestor's same-named action overwrites the entry), the input's ``_actions`` flags and
    designer entries dropped, ``ObjectsCopy`` without ``_actions`` but with dependencies."""
    runtime = mplc.Runtime([ACTIONS_PACKAGE], cache_dir=cache_dir)
    with open(os.path.join(DATA, "actions_model.json")) as handle:
        root = runtime.load(json.load(handle))
    assert runtime.call(root, "deploy") == "server"
    with open(os.path.join(DATA, "actions_serialized.json")) as handle:
        golden = json.load(handle)
    written = runtime.serialize()
    assert json.dumps(written) == json.dumps(golden)
    again = mplc.Runtime([ACTIONS_PACKAGE], cache_dir=cache_dir)
    again.load(written)
    assert again.serialize() == written


def test_references_in_the_stored_model_and_its_copy_are_the_references_golden(cache_dir):
    """Golden file written by the reference engine (``serialize_model``) from ``refs_model.json``
    after ``deploy``: in both trees, objects inline where their owner writes them, ids for
    forward, backward and repeated references (a null item kept), an object in a mapping
    value; objects no owner writes (made by ``new()`` without one) inline at their first
    reference, one of them owning nothing but referenced from inside the other. Their ids are
    generated, named ``unowned`` and ``nested`` in the golden file."""
    runtime = mplc.Runtime([os.path.join(DATA, "model_refs")], cache_dir=cache_dir)
    with open(os.path.join(DATA, "refs_model.json")) as handle:
        root = runtime.load(json.load(handle))
    assert runtime.call(root, "deploy") == 4
    text = json.dumps(runtime.serialize())
    for obj in objects_of(runtime).values():
        text = text.replace(obj.object_id, {10: "unowned", 11: "nested"}.get(obj.properties["value"],
                                                                             obj.object_id))
    with open(os.path.join(DATA, "refs_serialized.json")) as handle:
        assert text == json.dumps(json.load(handle))


def test_class_version_in_the_header_selects_the_class(runtime):
    model = node("a", 1)
    model["?"]["classVersion"] = "1.0.0"
    runtime.load(model)
    assert runtime.serialize()["Objects"]["?"]["type"] == f"{NODE}/1.0.0@tests.model"


def test_document_with_objects_and_attributes(runtime):
    document = {"Objects": node("a", 1), "Attributes": [["a", NODE, "k", {"v": [1]}]]}
    runtime.load(document)
    assert runtime.serialize()["Attributes"] == [["a", NODE, "k", {"v": [1]}]]


def test_objects_missing_from_objects_copy_are_destroyed_once_after_a_deployment(runtime):
    document = {"Objects": node("a", 1),
                "ObjectsCopy": node("a", 1, children=[node("gone", 7)])}
    runtime.load(document)
    runtime.collect_garbage()
    runtime.collect_garbage()
    assert [t for t in runtime.traces if t.startswith("destroy")] == ["destroy 7"]
    assert "gone" not in objects_of(runtime)


def test_init_runs_dependencies_first_and_parents_before_children(runtime):
    runtime.load(node("a", 1, child=node("b", 2, type_name=LEAF)))
    assert runtime.traces == ["init 2", "init leaf 2", "init 1"]


def test_out_properties_load_and_runtime_ones_do_not_serialize(runtime):
    runtime.load(node("a", 1, state={"x": 1}))
    written = runtime.serialize()["Objects"]
    assert written["state"] == {"x": 1} and "scratch" not in written


def test_destruction_dependencies_are_restored_when_their_subscriber_is_already_built(runtime):
    publisher, forward = node("c", 3), node("b", 2)
    publisher["?"]["dependencies"] = {"onDestruction": [{"subscriber": "b", "handler": None}]}
    forward["?"]["dependencies"] = {"onDestruction": [{"subscriber": "c", "handler": None}]}
    runtime.load(node("a", 1, children=[forward, publisher]))
    store = objects_of(runtime)
    assert store["c"].destruction_dependencies == ((store["b"], None),)
    assert store["b"].destruction_dependencies == ()
    written = runtime.serialize()["Objects"]["children"]
    assert written[1]["?"]["dependencies"] == {"onDestruction": [{"subscriber": "b", "handler": None}]}
    assert "dependencies" not in written[0]["?"]


# --- bad models --------------------------------------------------------------------------------
# The error type is the exception the reference raises on such a model (checked with it), or
# InvalidObjectModel where the reference loads the model but not as written.

@pytest.mark.parametrize("model, error_type, message", [
    ([], "ValueError", "$: an object model is a mapping, not list"),
    ({"value": 1}, "ValueError", "$: no '?' header with the object's type"),
    ({"?": "a", "value": 1}, "AttributeError", "$.?: a mapping with type and id, not 'a'"),
    ({"?": {"id": "a"}, "value": 1}, "ValueError", "$.?.type: a class name is required"),
    ({"?": {"id": "a", "type": 5}, "value": 1}, "TypeError", "$.?.type: a class name, not 5"),
    ({"?": {"id": [5], "type": NODE}, "value": 1}, "TypeError", "$.?.id: unhashable type: 'list'"),
    ({"?": {"id": "a", "type": NODE, "package": 5}, "value": 1}, "NoPackageFound",
     '$.?.type: Package "5" is not found'),
    ({"?": {"id": "a", "type": NODE, "classVersion": 2}, "value": 1}, "NoPackageForClassFound",
     "$.?.type: Package for class \"tests.model.Node: no version matches classVersion '2'"),
    (node("a", 1, child={"?": "b"}), "AttributeError",
     "$.child.?: a mapping with type and id, not 'b'"),
    ({**node("a", 1), "1st": 2}, "RuntimeError", "$.1st: not a property name"),
    (node("a", 1, children=[{**node("b", 2), 5: 1}]), "TypeError",
     "$.children[0][5]: a property name is a string"),
    (node("a", 1, type_name="tests.model.Nope"), "NoPackageForClassFound",
     '$.?.type: Package for class "tests.model.Nope" is not found'),
    (node("a", 1, children=[node("b", 2, type_name="tests.model.Nope")]), "NoPackageForClassFound",
     '$.children[0].?.type: Package for class "tests.model.Nope" is not found'),
    (node("a", 1, child=node("a", 2)), "InvalidObjectModel", "$.child: id 'a' is already used at $"),
    (node("a", 1, children=[node("b", 2), {"?": {"id": "c", "type": NODE, "classVersion": "9.0.0"},
                                           "value": 3}]), "NoPackageForClassFound",
     '$.children[1].?.type: Package for class "tests.model.Node: no version matches classVersion'),
    ({"Objects": node("a", 1), "Attributes": [["a", NODE]]}, "IndexError",
     "Attributes[0]: not an [id, class, name, value] record"),
    (node("a", 1, peer="nowhere"), "NoObjectFoundError",
     'Object "nowhere" is not found in object store (referenced at $.peer)'),
    ({"Objects": node("a", 1, child=node("b", 2, peer="gone"), children=[node("c", 3, peer="gone")])},
     "NoObjectFoundError",
     'Object "gone" is not found in object store (referenced at Objects.child.peer, '
     'Objects.children[0].peer)'),
    (node("a", "x"), "ContractViolationException", "[tests.model.Node.value] Value 'x' violates int()"),
    (node("a", 1, settings={"ports": [{"port": 1}, {"port": "x"}]}), "ContractViolationException",
     "[tests.model.Node.settings['ports'][1]['port']]"),
])
def test_bad_model_is_a_clear_error(runtime, model, error_type, message):
    with pytest.raises(MuranoError) as caught:
        runtime.load(model)
    assert caught.value.type_name == error_type
    assert message in str(caught.value)
    assert runtime.executor.root is None


def test_every_problem_is_listed_and_the_first_names_the_error(runtime):
    with pytest.raises(MuranoError) as caught:
        runtime.load(node("a", 1, child={"?": {"id": "b", "type": 5}},
                          children=[node("a", 2, type_name="tests.model.Nope")]))
    assert [(type_name, location) for type_name, _, location in caught.value.problems] == [
        ("TypeError", ("child", "?", "type")), ("InvalidObjectModel", ("children", 0, "?", "id")),
        ("NoPackageForClassFound", ("children", 0, "?", "type"))]
    assert caught.value.type_name == "TypeError"


def test_what_the_reference_ignores_loads_with_warnings(runtime):
    model = {"Objects": node("a", 1, bogus=2, children=[node("b", 2, extra={"x": 1})]),
             "Other": 1}
    root = runtime.load(model)
    assert runtime.call(root, "total") == 3
    assert runtime.executor.warnings == [
        "$.Other: unknown document entry; ignored",
        "Objects.bogus: tests.model.Node has no property or .init argument 'bogus'; ignored",
        "Objects.children[0].extra: tests.model.Node has no property or .init argument 'extra'; "
        "ignored"]
    written = runtime.serialize()["Objects"]
    assert "bogus" not in written and "extra" not in written["children"][0]


def test_mplc_run_prints_model_warnings(tmp_path, cache_dir):
    model = tmp_path / "model.json"
    model.write_text(json.dumps(node("a", 1, bogus=2)))
    completed = subprocess.run(
        [sys.executable, "-m", "mplc.cli", "run", "--path", PACKAGE, "--model", str(model),
         "--method", "total", "--cache-dir", cache_dir],
        capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["result"] == 1
    assert ("mplc run: warning: $.bogus: tests.model.Node has no property or .init argument "
            "'bogus'; ignored") in completed.stderr.splitlines()


# --- round trip ----------------------------------------------------------------------------------

def generated_model(size, seed):
    """A random tree of ``size`` Items (each owned by a random earlier one), with links to
    random Items anywhere in it: forward, backward, shared and cyclic references."""
    rng = random.Random(seed)
    items = [{"?": {"id": "i0", "type": ITEM}, "value": 0}]
    for index in range(1, size):
        item = {"?": {"id": f"i{index}", "type": ITEM}, "value": index}
        rng.choice(items).setdefault("items", []).append(item)
        items.append(item)
    for item in items:
        if rng.random() < 0.3:
            item["link"] = f"i{rng.randrange(size)}"
        if rng.random() < 0.2:
            item["note"] = rng.choice(["", "i0", "text"])
    return items[0]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(1, 300), seed=st.integers(0, 2**32 - 1))
@example(size=10_000, seed=1)
def test_load_serialize_load_gives_the_same_model(cache_dir, size, seed):
    model = generated_model(size, seed)
    first = mplc.Runtime([PACKAGE], cache_dir=cache_dir)
    first.load(copy.deepcopy(model))
    written = first.serialize()
    second = mplc.Runtime([PACKAGE], cache_dir=cache_dir)
    second.load(written)
    assert second.serialize() == written
    assert len(second.executor.objects) == size
    links = {item["?"]["id"]: item.get("link") for item in _walk(written["Objects"])}
    assert links == {item["?"]["id"]: item.get("link") for item in _walk(model)}


def _walk(item):
    stack = [item]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.get("items") or ())


def test_a_dropped_runtime_frees_its_objects(cache_dir):
    runtime = mplc.Runtime([PACKAGE], cache_dir=cache_dir)
    runtime.load(node("a", 1, child=node("b", 2), children=[node("c", 3)]))
    runtime.new(LEAF, value=4)
    runtime.serialize()
    executor = weakref.ref(runtime.executor)
    del runtime
    gc.collect()
    assert executor() is None


def test_object_definitions_under_contracts_without_class_stay_plain_data(cache_dir):
    """Golden file written by the reference engine (the Objects of its ``finalize``) from
    ``plain_model.json``: a ``?`` mapping under ``$``, ``{}``, ``{$.string(): $}`` or ``[$]``
    is data as written (an unknown class, a reused id, a malformed header included); only the
    ``class()`` property loads one as an object."""
    runtime = mplc.Runtime([os.path.join(DATA, "model_plain")], cache_dir=cache_dir)
    with open(os.path.join(DATA, "plain_model.json")) as handle:
        root = runtime.load(json.load(handle))
    assert runtime.call(root, "deploy") == 4
    assert sorted(objects_of(runtime)) == ["holder", "item"]
    with open(os.path.join(DATA, "plain_serialized_objects.json")) as handle:
        golden = json.load(handle)
    written = runtime.serialize()
    assert json.dumps(written["Objects"]) == json.dumps(golden)
    again = mplc.Runtime([os.path.join(DATA, "model_plain")], cache_dir=cache_dir)
    again.load(written)
    assert again.serialize() == written
