"""Attributes in the object model, as the reference's attribute store and results serializer
keep them (checked with the reference): loaded records reach getAttr of their owning class,
records with a null value and records of objects the model does not hold are not written back,
an object value is written as its id, and setting null removes an attribute."""

import textwrap

import mplc

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.attributes
    Name: Test
    Properties:
      child: {Contract: $.class(Part), Usage: InOut}
    Methods:
      run:
        Body:
          - $.setAttr(plain, v)
          - $.setAttr(object, $.child)
          - $.setAttr(dropped, 1)
          - $.setAttr(dropped, null)
          - $.child.setAttr(list, [1, 2])
          - Return: $.child.greet(World)
    ---
    Namespaces:
      =: tests.attributes
    Name: Part
    Properties:
      label: {Contract: $.string()}
    Methods:
      greet:
        Arguments:
          - who: {Contract: $.string()}
        Body:
          - Return: format('{0} {1}', $.getAttr(greeting), $who)
""")

TEST, PART = "tests.attributes.Test", "tests.attributes.Part"


def test_attributes_round_trip_through_the_model(tmp_path):
    (tmp_path / "package" / "Classes").mkdir(parents=True)
    (tmp_path / "package" / "Classes" / "case.yaml").write_text(CLASSES)
    (tmp_path / "package" / "manifest.yaml").write_text(
        f"Format: 1.0\nType: Library\nFullName: tests.attributes\n"
        f"Classes:\n  {TEST}: case.yaml\n  {PART}: case.yaml\n")
    runtime = mplc.Runtime([str(tmp_path / "package")], cache_dir=str(tmp_path / "cache"))
    root = runtime.load({
        "Objects": {"?": {"type": TEST, "id": "root"},
                    "child": {"?": {"type": PART, "id": "c1"}, "label": "one"}},
        "Attributes": [["c1", PART, "greeting", "Hello"], ["c1", PART, "empty", None],
                       ["gone", PART, "stale", 1]]})
    assert runtime.call(root, "run") == "Hello World"
    assert sorted(runtime.serialize()["Attributes"]) == [
        ["c1", PART, "greeting", "Hello"], ["c1", TEST, "list", [1, 2]],
        ["root", TEST, "object", "c1"], ["root", TEST, "plain", "v"]]
