"""Objects new() builds whole (``MuranoObject.built_whole``: every part at once, for classes
whose parts form one chain) are the objects the general construction makes: the same parts,
links, flags, native states and properties, every slot set."""

import textwrap

import pytest

import mplc
from mplc.runtime.loading import initialize_whole
from mplc.runtime.objects import MuranoObject, part_chain

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.whole
    Name: Base
    Properties:
      tag:
        Contract: $.string()
    ---
    Namespaces:
      =: tests.whole
    Name: Leaf
    Extends: Base
    Properties:
      value:
        Contract: $.int()
    ---
    Namespaces:
      =: tests.whole
    Name: Other
    ---
    Namespaces:
      =: tests.whole
    Name: Two
    Extends: [Base, Other]
    ---
    Namespaces:
      =: tests.whole
    Name: Left
    Extends: Other
    ---
    Namespaces:
      =: tests.whole
    Name: Right
    Extends: Other
    ---
    Namespaces:
      =: tests.whole
    Name: Bottom
    Extends: [Left, Right]
    ---
    Namespaces:
      =: tests.whole
    Name: Test
    Methods:
      leaf:
        Body:
          - Return: new(Leaf, tag => t, value => 1)
""")
NAMES = ("Base", "Leaf", "Other", "Two", "Left", "Right", "Bottom", "Test")


@pytest.fixture(scope="module")
def executor(tmp_path_factory):
    root = tmp_path_factory.mktemp("whole")
    (root / "Classes").mkdir()
    (root / "Classes" / "case.yaml").write_text(CLASSES)
    (root / "manifest.yaml").write_text(
        "Format: 1.3\nType: Library\nFullName: tests.whole\nClasses:\n"
        + "".join(f"  tests.whole.{name}: case.yaml\n" for name in NAMES))
    runtime = mplc.Runtime([str(root)], cache_dir=str(tmp_path_factory.mktemp("cache")))
    return runtime.executor


def _shape(obj):
    """Everything about an object's parts but its id, which only has to be shared."""
    parts = obj.part_list()
    position = {id(part): index for index, part in enumerate(parts)}
    return [(part.type.name, part.object_id == obj.object_id, part.this is (None if index == 0 else obj),
             part.real_this is obj, part._owner, part.name, part.metadata, part.initialized, part.destroyed,
             part.doomed, part.extension, part.destruction_dependencies, part.properties,
             [(name, position[id(parent)]) for name, parent in part.parents.items()])
            for index, part in enumerate(parts)]


@pytest.mark.parametrize("class_name, chain", [
    ("Leaf", ["tests.whole.Base", "io.murano.Object"]),
    ("Base", ["io.murano.Object"]),
    ("Two", None),
    ("Bottom", None),
])
def test_part_chain(executor, class_name, chain):
    found = part_chain(executor.find_class(f"tests.whole.{class_name}"))
    assert (None if found is None else [part_type.name for part_type in found]) == chain


def test_new_builds_the_object_the_general_construction_makes(executor):
    with executor.active():
        test = executor.new("tests.whole.Test")
        whole = [executor.call(test, "leaf") for _ in range(3)][-1]
        murano_type = whole.type
        general = MuranoObject(murano_type, None)
        general.properties = {"tag": "t", "value": 1}
        initialize_whole(general, executor)
    assert len(murano_type.part_types) == 2
    assert _shape(whole) == _shape(general)
    for part in whole.part_list():
        for slot in MuranoObject.__slots__:
            if slot != "__weakref__":
                getattr(part, slot)
    assert executor.objects[whole.object_id] is whole


def test_parts_of_a_whole_object_are_made_on_first_use(executor):
    """The parts after the object's own exist once ``parents`` is read, the same parts each
    time, destroyed when the object was destroyed before that."""
    with executor.active():
        test = executor.new("tests.whole.Test")
        first, second = (executor.call(test, "leaf") for _ in range(2))
        assert first._parents is None and second._parents is None
        base = first.cast(executor.find_class("tests.whole.Base"))
        assert base.this is first and base.real_this is first and not base.destroyed
        assert first.parents["tests.whole.Base"] is base and first.part_list()[1] is base
        second.destroyed = True
        assert [part.destroyed for part in second.part_list()] == [True, True, True]


def test_an_object_new_builds_draws_its_id_on_first_use(executor):
    """The store holds it from the start; its parts share the id it draws; the id finds it."""
    with executor.active():
        test = executor.new("tests.whole.Test")
        leaf = executor.call(test, "leaf")
        assert leaf.drawn_id is None
        assert leaf in executor.objects.values()
        object_id = leaf.object_id
        assert leaf.drawn_id == object_id and len(object_id) == 32
        assert executor.objects[object_id] is leaf and object_id in executor.objects
        assert {part.object_id for part in leaf.part_list()} == {object_id}
        executor.collect_garbage()
        assert leaf.destroyed and object_id not in executor.objects
        assert leaf not in executor.objects.values()
