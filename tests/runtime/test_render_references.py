"""A result that is not an object (a list, a dict) is written as the reference's ``serialize()``
writes it: an object no one owns is written in full where the walk first meets it, also when
that is inside another object's property (then in a later pass, as the reference's ObjRef
moves); an owned object only referenced is its id. Expected shapes are the reference's output
for the same source (round 16 of differential testing), ids replaced by the objects' names."""

import textwrap

import mplc
from tests.test_cases import write_package

CLASSES = textwrap.dedent("""\
    Namespaces:
      =: tests.case
    Name: Test
    Properties:
      kept: {Contract: $.class(Node), Usage: InOut}
    Methods:
      run:
        Body:
          - $n1: new(Node, name => one)
          - $n2: new(Node, name => two, child => $n1)
          - $n3: new(Node, $this, name => three, child => $n1)
          - $n4: new(Node, name => four, child => $n3)
          - $.kept: $n3
          - Return: list(id($n3), dict(a => $n4), $n2, list($n1, $n3), list(new(Node, name => five, child => $n2)), new(Node, name => six, child => new(Node, name => seven)))
    ---
    Namespaces:
      =: tests.case
    Name: Node
    Properties:
      name: {Contract: $.string()}
      child: {Contract: $.class(Node)}
    """)


def _named(value, names):
    """The rendered value with each object header reduced to its name and each id to its name."""
    if isinstance(value, dict):
        if "?" in value:
            return {"node": value["name"], "child": _named(value["child"], names)}
        return {key: _named(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_named(item, names) for item in value]
    return names.get(value, value)


def _ids(value, names):
    if isinstance(value, dict):
        if "?" in value:
            names[value["?"]["id"]] = "#" + value["name"]
        for item in value.values():
            _ids(item, names)
    elif isinstance(value, list):
        for item in value:
            _ids(item, names)
    return names


def test_unowned_objects_referenced_from_properties_are_written_where_first_met(tmp_path):
    runtime = mplc.Runtime([write_package(tmp_path / "case", "tests.case", CLASSES, "1.4")],
                           cache_dir=str(tmp_path / "cache"))
    root = runtime.load({"?": {"type": "tests.case.Test", "id": "root"}})
    three_id, *rendered = runtime.render(runtime.call(root, "run"))
    names = _ids(rendered, {three_id: "#three"})
    assert _named(rendered, names) == [
        {"a": {"node": "four", "child": "#three"}},
        {"node": "two", "child": "#one"},
        [{"node": "one", "child": None}, "#three"],
        [{"node": "five", "child": "#two"}],
        {"node": "six", "child": {"node": "seven", "child": None}},
    ]
