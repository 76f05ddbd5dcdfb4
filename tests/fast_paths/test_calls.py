"""Method calls and collection functions: fast paths against the same package compiled with
every fast path off (yaql's own resolution through the bridge), on MuranoPL source.

Each case is a class ``tests.fast.Test`` (plus helper classes) whose ``run`` method is called;
the rendered result or the error must match the expected one both ways.
"""

from __future__ import annotations

import re

import pytest
import yaml

import mplc
from mplc.runtime.errors import MuranoError

HELPERS = """
Namespaces:
  =: tests.fast
Name: Ext
Methods:
  select:
    Usage: Extension
    Arguments:
      - items:
          Contract: [$.int()]
      - n:
          Contract: $.int()
    Body:
      - Return: [extension, $items, $n]
---
Namespaces:
  =: tests.fast
Name: Node
Properties:
  value:
    Contract: $.int().notNull()
  children:
    Contract: [$.class(Node)]
    Default: []
---
Namespaces:
  =: tests.fast
  std: io.murano
Name: Keeper
Extends: std:Object
Methods:
  keep:
    Arguments:
      - target:
          Contract: $.class(std:Object)
    Body:
      - $target.setAttr(k, [kept, $target.getAttr(k, none)])
      - $targets: $target.getAttr(k)
      - $mine: $this.getAttr(k, mine)
      - Return: [$targets, $mine]
---
Namespaces:
  =: tests.fast
  std: io.murano
Name: Shadow
Extends: std:Object
Methods:
  getAttr:
    Arguments:
      - name:
          Contract: $.string()
    Body:
      - Return: [shadowed, $name]
"""

CASES = [
    ("select and where on lists and iterators", """
Methods:
  run:
    Body:
      - $doubled: range(4).select($ * 2)
      - $kept: list(1, 2, 3).where($ > 1)
      - $pairs: $doubled.where($ > 2).select(list($, $ mod 3))
      - Return: [$doubled, $kept, $pairs]
""", {"1.3": [[0, 2, 4, 6], [2, 3], [[4, 1], [6, 0]]],
      # the legacy library's range(4) counts from 4 without end
      "1.0": ("CollectionTooLargeException", "Collection length exceeds 2000 elements")}),
    # yaql finds the extension method a level before its own select, whose lambda parameter
    # makes the two levels' lazy parameters differ: ambiguous (the fast path must not pick one).
    ("an imported extension method named select", """
Import: Ext
Methods:
  run:
    Body:
      - Return: list(1, 2).select(5)
""", ("AmbiguousMethodException", "select")),
    ("a class's own instance method named select takes no list receiver", """
Methods:
  select:
    Arguments:
      - n:
          Contract: $.int()
    Body:
      - Return: own
  run:
    Body:
      - $selected: list(1, 2).select(5)
      - Return: [$selected, $this.select(1)]
""", [[5, 5], "own"]),
    ("dict, format and len", """
Methods:
  run:
    Body:
      - $d: dict(a => 1, b => format('{0}-{1}', 2, 'x'), c => len('abc') + len(list(1, 2)) + len(dict(k => v)))
      - $keys: dict($d.keys().select(list($, $)))
      - Return: [$d, $keys.b]
""", [{"a": 1, "b": "2-x", "c": 6}, "b"]),
    ("recursive calls with argument contracts", """
Methods:
  fib:
    Arguments:
      - n:
          Contract: $.int().notNull().check($ >= 0)
    Body:
      - If: $n < 2
        Then:
          Return: $n
      - Return: $this.fib($n - 1) + $this.fib($n - 2)
  run:
    Body:
      - Return: [$this.fib(12), $this.fib('7')]
""", [144, 13]),
    ("a failing argument contract of a fast call", """
Methods:
  positive:
    Arguments:
      - value:
          Contract: $.int().check($ > 0)
    Body:
      - Return: $value
  run:
    Body:
      - Return: $this.positive(-1)
""", ("ContractViolationException", "[tests.fast.Test::positive(value)] Value -1 doesn't match predicate")),
    ("new() with a property its contract refuses", """
Methods:
  run:
    Body:
      - Return: new(Node, value => x).value
""", ("ContractViolationException", "[tests.fast.Node.value] Value 'x' violates int() contract")),
    ("new() of a class nobody defines", """
Methods:
  run:
    Body:
      - Return: new(Missing, value => 1)
""", ("NoClassFound", "tests.fast.Missing")),
    ("new() of a class and properties", """
Methods:
  run:
    Body:
      - $leaf: new(Node, value => 1)
      - $named: new('tests.fast.Node', value => 2, children => [$leaf])
      - Return: [$leaf.value, $named.children.select($.value)]
""", [1, [1]]),
    ("new() without the properties the class requires", """
Methods:
  run:
    Body:
      - Return: new(Node)
""", ("ContractViolationException", "[tests.fast.Node.value] null value violates notNull() contract")),
    ("where, select, sum and dict over objects and their properties", """
Methods:
  run:
    Body:
      - $nodes: list(1, 5, 3).select(new(Node, value => $))
      - $big: $nodes.where($.value > 2)
      - $named: dict($big.select([format('n{0}', $.value), $.value]))
      - Return: [$big.select($.value), $nodes.select($.value).sum(), $named, $named.values().sum(), $nodes.len()]
""", [[5, 3], 9, {"n5": 5, "n3": 3}, 8, 3]),
    ("native getAttr and setAttr: the owner is the calling class", """
Methods:
  run:
    Body:
      - $this.setAttr(k, 1)
      - $this.setAttr(k, 2, 'tests.fast.Keeper')
      - $keeper: new(Keeper)
      - $kept: $keeper.keep($this)
      - $calls: list(1, 2).select($this.getAttr(k, $))
      - $own: $this.getAttr(k)
      - $keepers: $this.getAttr(k, 0, Keeper)
      - $missing: $this.getAttr(missing, d)
      - Return: [$own, $keepers, $kept, $calls, $missing]
""", [1, ["kept", 2], [["kept", 2], "mine"], [1, 1], "d"]),
    ("a MuranoPL method named as a native one", """
Methods:
  run:
    Body:
      - $shadow: new(Shadow)
      - $x: $shadow.getAttr(x)
      - $shadow.setAttr(y, 1)
      - Return: $x
""", ["shadowed", "x"]),
    ("native getAttr with too many arguments", """
Methods:
  run:
    Body:
      - Return: $this.getAttr(k, 1, Keeper, 4)
""", ("ArgumentException", "")),
    ("native setAttr with an owner that is no class", """
Methods:
  run:
    Body:
      - Return: $this.setAttr(k, 1, 'tests.fast.Missing')
""", ("NoClassFound", "tests.fast.Missing")),
    ("native toString of an exception", """
Methods:
  run:
    Body:
      - Try:
          - Throw: Oops
            Message: bad
        Catch:
          - As: e
            Do:
              - Return: $e.toString().substring(0, 20)
""", "tests.fast.Oops: bad"),
    ("find and require on objects, require and bind on data", """
Methods:
  run:
    Body:
      - $node: new(Node, value => 1)
      - $keeper: new(Keeper, value => 2)
      - $owned: new(Node, $keeper, value => 3)
      - $found: $owned.find(Keeper)
      - $byName: $owned.find('tests.fast.Keeper')
      - $none: $node.find(Keeper)
      - $required: list($node.require().value, 'x'.require(), [1].require())
      - $bound: dict(a => concat('$', x), b => [concat('$', y), z], c => 'v{x}').bind(dict(x => 1, y => 2))
      - $plain: concat(n).bind({})
      - $same: [$found = $keeper, $byName = $keeper]
      - Return: [$same, $none, $required, $bound, $plain]
""", [[True, True], None, [1, "x", [1]], {"a": 1, "b": [2, "z"], "c": "v{x}"}, "n"]),
    ("require of null", """
Methods:
  run:
    Body:
      - $missing: null
      - Return: $missing.require()
""", ("ValueError", "Required value is missing")),
    ("find with something that is no class", """
Methods:
  run:
    Body:
      - Return: $this.find(1)
""", ("NoMatchingMethodException", "find")),
    ("bind with mappings that are no dictionary", """
Methods:
  run:
    Body:
      - Return: concat('$', x).bind([1])
""", ("NoMatchingMethodException", "bind")),
    ("a class's own find method", """
Methods:
  find:
    Arguments:
      - what:
          Contract: $
    Body:
      - Return: [own, $what]
  run:
    Body:
      - Return: $this.find(Node)
""", ["own", "Node"]),
    ("pselect over a list", """
Methods:
  run:
    Body:
      - $n: 10
      - Return: list(1, 2, 3).pselect($ * $n)
""", [10, 20, 30]),
    ("id, name, typeinfo, trace and randomName", """
Methods:
  run:
    Body:
      - $node: new(Node, value => 1)
      - $named: new(Node, value => 2)
      - $ids: [id($node) = id($node), id($node) = id($named)]
      - $names: [name($named), name(null)]
      - $types: [typeinfo($node).name, typeinfo(Node).name]
      - $traced: trace($ids)
      - $random: len(randomName()) > 10
      - Return: [$ids, $names, $types, $traced, $random]
""", [[True, False], [None, None], ["tests.fast.Node", "tests.fast.Node"], None, True]),
    ("is, cast and switch", """
Namespaces:
  =: tests.fast
  std: io.murano
Methods:
  run:
    Body:
      - $node: new(Node, value => 1)
      - $keeper: new(Keeper)
      - $missing: null
      - $kinds: [$node is Node, $keeper is Node, $missing is Node, $node is 'tests.fast.Node', $node is std:Object]
      - $casts: [$keeper.cast(std:Object) = $keeper, $keeper.cast('tests.fast.Keeper') = $keeper]
      - $switched: switch($node.value > 0 => big, true => small)
      - $none: switch(false => 1)
      - Return: [$kinds, $casts, $switched, $none]
""", {"1.3": ("NoMethodRegisteredException", "cast"),  # cast is a method in the legacy library only
      # a cast to Object is the object's Object part; the legacy switch is a method of its first rule
      "1.0": [[True, False, False, True, True], [False, True], "small", None]}),
    ("switch", """
Methods:
  run:
    Body:
      - $node: new(Node, value => 1)
      - $switched: switch($node.value > 0 => big, true => small)
      - $none: switch(false => 1)
      - Return: [$switched, $none]
""", {"1.3": ["big", None],
      # the legacy library's switch is a method of a value (here of its first rule's key)
      "1.0": ["small", None]}),
    ("cast to a class the object is not", """
Methods:
  run:
    Body:
      - Return: new(Node, value => 1).cast(Keeper)
""", {"1.3": ("NoMethodRegisteredException", "cast"), "1.0": ("NoClassFound", "tests.fast.Keeper")}),
    ("id of something that is no object", """
Methods:
  run:
    Body:
      - Return: id(1)
""", ("NoMatchingFunctionException", "id")),
    ("format with a format string that is not a string", """
Methods:
  run:
    Body:
      - Return: format(1, 2)
""", ("NoMatchingFunctionException", "No function \"format\" matches supplied arguments")),
]


def _package(root, test_class: str, format_version: str = "1.3") -> str:
    (root / "Classes").mkdir(parents=True)
    (root / "Classes" / "Test.yaml").write_text("Namespaces:\n  =: tests.fast\nName: Test\n" + test_class)
    (root / "Classes" / "Ext.yaml").write_text(HELPERS)
    manifest = {"Format": format_version, "Type": "Library", "FullName": "tests.fast", "Version": "0.0.0",
                "Classes": {"tests.fast.Test": "Test.yaml", "tests.fast.Ext": "Ext.yaml",
                            "tests.fast.Node": "Ext.yaml", "tests.fast.Keeper": "Ext.yaml",
                            "tests.fast.Shadow": "Ext.yaml"}}
    (root / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    return str(root)


def _outcome(runtime):
    try:
        return runtime.render(runtime.call(runtime.new("tests.fast.Test"), "run"))
    except MuranoError as error:
        return error.type_name, re.sub("[0-9a-f]{32}", "<object id>", str(error))


@pytest.mark.parametrize("format_version", ["1.3", "1.0"])
@pytest.mark.parametrize("name, test_class, expected", CASES, ids=[case[0] for case in CASES])
def test_fast_and_plain_agree(name, test_class, expected, format_version, tmp_path):
    """Format 1.0 runs the same methods under yaql's legacy library (the legacy fast paths)."""
    path = _package(tmp_path / "package", test_class, format_version)
    if isinstance(expected, dict):
        expected = expected[format_version]
    outcomes = {fast_paths: _outcome(mplc.Runtime([path], cache_dir=str(tmp_path / "cache"),
                                                  fast_paths=fast_paths))
                for fast_paths in (True, False)}
    if isinstance(expected, tuple):
        assert outcomes[True][0] == outcomes[False][0] == expected[0]
        assert expected[1] in outcomes[True][1] and outcomes[True][1] == outcomes[False][1]
    else:
        assert outcomes[True] == outcomes[False] == expected
