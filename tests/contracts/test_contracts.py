"""Contracts as the reference engine applies them: transformed values, messages and paths.

Every expression contract is also run through the yaql evaluation path (written so the
compiler cannot turn it into direct primitive calls) and must behave identically.
"""

from __future__ import annotations

import ast

import pytest
from yaql.language.utils import FrozenDict

from contract_harness import (BASE, DERIVED, OTHER, MuranoObject,
                              WorldContractContext, World, apply, compile_contract, root_context)
from mplc.runtime import expressions as bridge, contract_primitives as contracts
from mplc.runtime.errors import ContractViolationException, NoObjectFoundError


def evaluated_as_yaql(contract: str) -> str:
    """The same contract in a form that is not a method chain on ``$``."""
    assert contract.startswith("$")
    return "!yaql '[$][0]" + contract[1:].replace("'", "''") + "'"


def expression_forms(rows):
    """Each row as written, and (for ``$...`` contracts) as evaluated by yaql."""
    for row in rows:
        name = "|".join(map(repr, row))
        yield pytest.param(*row, id=name)
        if row[0].startswith("$"):
            yield pytest.param(evaluated_as_yaql(row[0]), *row[1:], id=f"yaql|{name}")


TRANSFORMS = [
    ("$.string()", "qwerty", "qwerty"),
    ("$.string()", 123, "123"),
    ("$.string()", True, "True"),
    ("$.string()", None, None),
    ("$.int()", 123, 123),
    ("$.int()", "456", 456),
    ("$.int()", 3.7, 3),
    ("$.int()", None, None),
    ("$.bool()", True, True),
    ("$.bool()", 10, True),
    ("$.bool()", 0, False),
    ("$.bool()", "something", True),
    ("$.bool()", "", False),
    ("$.bool()", None, None),
    ("$.notNull()", "value", "value"),
    ("$.string().notNull()", 5, "5"),
    ("$", [1, "a"], (1, "a")),
    ("$.notNull()", {"a": [1]}, FrozenDict(a=(1,))),
    ("$.int().check($ > 10)", "100", 100),
    ("$.int().notNull().check($ > 0 and $ < 10)", "5", 5),
    ("$.string().check($ in list(a, b))", "b", "b"),
    ("$.string().check($.len() < 3, 'too long')", "ab", "ab"),
    ("$.string().toUpper()", 12, "12"),
    ("fixed", "fixed", "fixed"),
    ("456", 456, 456),
    ("true", True, True),
    ("[$.int()]", ["3", 2, "1"], (3, 2, 1)),
    ("[$.int()]", "99", (99,)),
    ("[$.int()]", None, ()),
    ("[$.int()]", iter(["1", "2"]), (1, 2)),
    ("[$.int()]", {"a": 1}, None),  # a dict is one item: int() of it fails (see errors)
    ("[$.int(), 3]", [1, 2, 3, 4], (1, 2, 3, 4)),
    ("[$.int(), 2, 4]", [1, 2], (1, 2)),
    ("[$.string(), $.int()]", ["1", "2", "3"], ("1", 2, 3)),
    ("[]", [1, "a"], [1, "a"]),
    ("[[$.string()]]", [[1], [2, 3]], (("1",), ("2", "3"))),
    ("{A: $.string(), B: $.int()}", {"A": "123", "B": "456", "C": "qq"}, FrozenDict({"A": "123", "B": 456})),
    ("{A: $.string(), B: $.int()}", {"A": "123"}, FrozenDict({"A": "123", "B": None})),
    ("{A: $.string(), B: $.int()}", None, FrozenDict({"A": None, "B": None})),
    ("{$.int(): $.string(), B: $.int()}", {"321": "qwerty", "99": 1, "B": "456"},
     FrozenDict({321: "qwerty", 99: "1", "B": 456})),
    ("{$.string(): [$.int()]}", {"a": [1, "2"]}, FrozenDict({"a": (1, 2)})),
    ("{}", {"x": [1]}, {"x": [1]}),
    ("{}", None, {}),
]


@pytest.mark.parametrize("contract, value, expected",
                         list(expression_forms(row for row in TRANSFORMS if row[2] is not None
                                               or row[1] is None)))
def test_transform(contract, value, expected):
    result = apply(contract, value)
    assert result == expected
    assert type(result) is type(expected)


ERRORS = [
    ("$.int()", "nan", "Value 'nan' violates int() contract", ""),
    ("$.int()", [1], "Value [1] violates int() contract", ""),
    ("$.string()", [1], "Value [1] violates string() contract", ""),
    ("$.notNull()", None, "null value violates notNull() contract", ""),
    ("$.string().notNull()", None, "null value violates notNull() contract", ""),
    ("$.int().check($ > 10)", 5, "Value 5 doesn't match predicate", ""),
    ("$.int().check($ > 10)", None, "Value None doesn't match predicate", ""),
    ("$.string().check($ in list(a, b))", "c", "Value 'c' doesn't match predicate", ""),
    ("$.string().check($.len() < 3, 'too long')", "abc", "too long", ""),
    ("$.class(Base)", ["x"], "Value ['x'] cannot be represented as class "
     "MuranoClass(test.Base/0.0.0)", ""),
    ("$.class(Base)", 5, "Value 5 cannot be represented as class MuranoClass(test.Base/0.0.0)", ""),
    ("fixed", "wrong", "Value 'wrong' is not equal to fixed",  None),
    ("456", 123, "Value 123 is not equal to 456",  None),
    ("true", False, "Value False is not equal to True",  None),
    ("[$.int()]", {"a": 1}, "Value {'a': 1} violates int() contract", "[0]"),
    ("[$.int(), 3]", None, "Array length 0 must not be less than 3",  None),
    ("[$.int(), 3]", [1, 2], "Array length 2 must not be less than 3",  None),
    ("[$.int(), 2, 4]", [1], "Array length 1 is not within [2..4] range",  None),
    ("[$.int(), 2, 4]", [1, 2, 3, 4, 5], "Array length 5 is not within [2..4] range",  None),
    ("[$.int(), 2, 4]", [1, 2, "x"], "Value 'x' violates int() contract", "[2]"),
    ("{A: $.string(), B: $.int()}", "str", "Value 'str' is not of a dictionary type",  None),
    ("{$.int(): $.string(), B: $.int()}", {"321": "q", "str": "v"},
     "Value 'str' violates int() contract", ""),
    ("{$.int(): $.string().notNull()}", {"1": None},
     "null value violates notNull() contract", "[1]"),
    ("{ports: [{port: $.int()}]}", {"ports": [{"port": 1}, {"port": 2}, {"port": "x"}]},
     "Value 'x' violates int() contract", "['ports'][2]['port']"),
    ("[[$.string()]]", [[1], [2, [3]]], "Value [3] violates string() contract", "[1][1]"),
    # A list or dict contract's own refusal is reported at the root however deep, as the
    # reference sets a path only where a contract expression refuses a value.
    ("[[$.int(), 2]]", [[1, 2], [1]], "Array length 1 must not be less than 2", None),
    ("[{a: $.int(), b: x}]", [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}],
     "Value 'y' is not equal to x", None),
    ("{a: [{b: $.int()}]}", {"a": [{"b": 1}, 5]}, "Value 5 is not of a dictionary type", None),
    ("[a, b]", ["a", "c"], "Value 'c' is not equal to b", None),
]


@pytest.mark.parametrize("contract, value, message, path", list(expression_forms(ERRORS)))
def test_violation(contract, value, message, path):
    with pytest.raises(ContractViolationException) as raised:
        apply(contract, value)
    assert str(raised.value) == message
    assert raised.value.path == path


# --- objects: class(), template(), owned(), notOwned(), string() of objects -----------------

def objects():
    world = World()
    this = world.add(MuranoObject("this", BASE))
    child = world.add(MuranoObject("child", DERIVED, owner=this))
    grandchild = world.add(MuranoObject("grandchild", BASE, owner=child))
    stranger = world.add(MuranoObject("stranger", DERIVED))
    return world, this, child, grandchild, stranger


@pytest.mark.parametrize("contract", list(expression_forms([
    ("$.class(Base)",), ("$.class(:Base)",), ("$.class('test.Base')",), ("$.class(name => Base)",),
])))
def test_class_accepts_objects_dicts_and_ids(contract):
    world, this, child, *_ = objects()
    stranger = world.add(MuranoObject("stranger", OTHER))
    assert apply(contract, child, world=world, this=this) is child
    assert apply(contract, "child", world=world, this=this) is child
    created = apply(contract, {"size": 3}, world=world, this=this)
    assert (created.type, created.owner, created.properties) == (BASE, this, {"size": 3})
    created = apply(contract, {"?": {"type": "test.Derived", "id": "d1"}}, world=world, this=this)
    assert (created.type, world.objects["d1"]) == (DERIVED, created)
    assert apply(contract, None, world=world, this=this) is None
    with pytest.raises(ContractViolationException) as raised:
        apply(contract, stranger, world=world, this=this)
    assert str(raised.value) == ("Object of type MuranoClass(io.murano.Other/0.0.0) is not "
                                 "compatible with requested type MuranoClass(test.Base/0.0.0)")
    with pytest.raises(NoObjectFoundError, match='^Object "missing" is not found in object store$'):
        apply(contract, "missing", world=world, this=this)


@pytest.mark.parametrize("contract", list(expression_forms([
    ("$.class(Base, Derived)",), ("$.class(Base, defaultName => :Derived)",),
    ("$.class(std:Other, versionSpec => '>=1.0')",),
])))
def test_class_default_type_and_version(contract):
    world, this, *_ = objects()
    created = apply(contract, {"x": 1}, world=world, this=this)
    assert created.type is (OTHER if "Other" in contract else DERIVED)


def test_class_id_of_an_object_not_loaded_yet_is_a_reference():
    world, this, *_ = objects()
    world.loading = True
    reference = apply("$.class(Base).owned().check(false)", "later", world=world, this=this)
    assert isinstance(reference, contracts.ObjectReference)
    assert reference.object_id == "later"


@pytest.mark.parametrize("contract, owned_ok", [
    ("$.class(Base).owned()", True), (evaluated_as_yaql("$.class(Base).owned()"), True),
    ("$.class(Base).notOwned()", False), (evaluated_as_yaql("$.class(Base).notOwned()"), False),
])
def test_owned_and_not_owned(contract, owned_ok):
    world, this, child, grandchild, stranger = objects()
    for obj, is_owned in ((child, True), (grandchild, True), (stranger, False)):
        if is_owned == owned_ok:
            assert apply(contract, obj, world=world, this=this) is obj
        else:
            with pytest.raises(ContractViolationException) as raised:
                apply(contract, obj, world=world, this=this)
            word = "owned()" if owned_ok else "notOwned()"
            assert str(raised.value) == f"Object {obj} violates {word} contract"
    assert apply(contract, None, world=world, this=this) is None


@pytest.mark.parametrize("contract", ["$.owned()", evaluated_as_yaql("$.notOwned()")])
def test_owned_needs_an_object(contract):
    with pytest.raises(ContractViolationException, match=r"^Value 5 is not an object$"):
        apply(contract, 5)


def test_string_of_an_object_is_its_id():
    world, this, child, *_ = objects()
    assert apply("$.string()", child, world=world, this=this) == "child"


def test_check_predicate_sees_this_and_the_object():
    world, this, child, *_ = objects()
    child.properties["name"] = "qwerty"
    context = root_context(this)
    context.register_function(lambda obj: obj.properties["name"], name="nameOf")
    validator, _ = compile_contract("$.class(Base).check(nameOf($) = qwerty and $this != null)")
    cc = WorldContractContext(world, this, context)
    assert validator(child, cc) is child
    child.properties["name"] = "other"
    with pytest.raises(ContractViolationException, match="doesn't match predicate"):
        validator(child, cc)


@pytest.mark.parametrize("contract", list(expression_forms([
    ("$.template(Base, excludeProperties => [secret])",),
    ("$.template(Base, excludeProperties => ['secret'])",),
])))
def test_template_finalizes_to_an_object_model(contract):
    world, this, *_ = objects()
    model = apply(contract, {"size": 1, "secret": "s"}, world=world, this=this)
    assert model == {"?": {"type": "test.Base", "id": "template"}, "size": 1}
    assert isinstance(model, FrozenDict) and isinstance(model["?"], FrozenDict)
    unfinalized = apply(contract, {"size": 1}, contracts.TRANSFORM_UNFINALIZED, world, this)
    assert isinstance(unfinalized, MuranoObject)
    with pytest.raises(ContractViolationException, match="^Value 5 cannot be represented as class"):
        apply(contract, 5, world=world, this=this)


def test_template_while_loading_finalizes_to_an_empty_dict():
    world, this, *_ = objects()
    world.loading = True
    assert apply("$.template(Base)", {"size": 1}, world=world, this=this) == {}


# --- modes ----------------------------------------------------------------------------------

MODES = [
    ("$.string()", contracts.VALIDATE, "abc", "abc"),
    ("$.string()", contracts.VALIDATE, 12, ContractViolationException),
    ("$.int()", contracts.VALIDATE, 12, 12),
    ("$.int()", contracts.VALIDATE, "12", ContractViolationException),
    ("$.int()", contracts.VALIDATE, True, ContractViolationException),
    ("$.bool()", contracts.VALIDATE, 1, ContractViolationException),
    ("$.bool()", contracts.CHECK_TYPE, False, False),
    ("$.notNull()", contracts.VALIDATE, None, ContractViolationException),
    ("$.notNull()", contracts.FINALIZE, None, None),
    ("$.int().check($ > 1)", contracts.FINALIZE, "x", "x"),
    ("$.class(Base)", contracts.VALIDATE, {"x": 1}, ContractViolationException),
    ("$.template(Base)", contracts.CHECK_TYPE, {"x": 1}, {"x": 1}),
    ("$.template(Base)", contracts.VALIDATE, {"x": 1}, ContractViolationException),
    ("[$.int()]", contracts.VALIDATE, [1, 2], (1, 2)),
    ("[$.int()]", contracts.VALIDATE, [1, "2"], ContractViolationException),
    ("[$.int()]", contracts.FINALIZE, ["x"], ("x",)),
    ("fixed", contracts.FINALIZE, "other", ContractViolationException),
]


@pytest.mark.parametrize("contract, mode, value, expected", list(expression_forms(MODES)))
def test_modes(contract, mode, value, expected):
    if expected is ContractViolationException:
        with pytest.raises(ContractViolationException):
            apply(contract, value, mode)
    else:
        assert apply(contract, value, mode) == expected


def test_validate_of_a_dict_for_class_says_it_is_not_an_object():
    with pytest.raises(ContractViolationException, match="^Value is not an object$"):
        apply("$.class(Base)", {"x": 1}, contracts.VALIDATE)


def test_check_type():
    validator, _ = compile_contract("$.int().notNull()")
    cc = WorldContractContext(World(), None, root_context(), contracts.CHECK_TYPE)
    assert contracts.check_type(validator, 3, cc)
    assert not contracts.check_type(validator, None, cc)
    assert not contracts.check_type(validator, contracts.PASSKEY, cc)


@pytest.mark.parametrize("contract", ["$.int().notNull()", "[$.int()]", "{a: $.int().notNull()}",
                                      "[{a: [$.string().notNull()]}]"])
def test_passkey_passes_every_level(contract):
    passkey = contracts.PASSKEY
    assert apply(contract, passkey) is passkey
    if contract.startswith("[{"):
        assert apply(contract, [{"a": passkey}]) == ({"a": passkey},)


# --- generated code -------------------------------------------------------------------------

DIRECT = [
    ("$.string().notNull()", ["string", "not_null"]),
    ("$.int().check($ > 0, 'positive')", ["integer", "check"]),
    ("$.class(Base, Derived, '1.0').owned()", ["class_instance", "owned"]),
    ("$.template(std:Other, excludeProperties => [a, b]).notOwned()", ["template", "not_owned"]),
    ("$.bool()", ["boolean"]),
    ("$", []),
]


@pytest.mark.parametrize("contract, primitives", DIRECT)
def test_method_chains_compile_to_primitive_calls(contract, primitives):
    _, module = compile_contract(contract)
    validator = module.body[-1]
    called = [node.func.attr for statement in validator.body for node in ast.walk(statement)
              if isinstance(node, ast.Call)]
    assert called == [*primitives, "freeze"]


UNCHANGED = [
    ("$.string().notNull()", {str}),
    ("$.string()", {str, type(None)}),
    ("$.int().notNull()", {int}),
    ("$.int()", {int, type(None)}),
    ("$.bool()", {bool, type(None)}),
    ("$.notNull()", {str, int, float, bool}),
    ("$", {str, int, float, bool, type(None)}),
    ("$.int().string()", {type(None)}),
    ("$.int().check($ > 0)", set()),
    ("$.class(Base)", set()),
    ("[$.int()]", set()),
    ("int($)", set()),
]
SCALARS = ["text", "", 0, 7, -3, 2.5, True, False, None]


@pytest.mark.parametrize("contract, types", UNCHANGED)
def test_validators_say_which_scalar_types_they_pass_unchanged(contract, types):
    validator, _ = compile_contract(contract)
    assert contracts.unchanged_types(validator) == types
    for value in SCALARS:
        if type(value) not in types:
            continue
        for mode in (contracts.TRANSFORM, contracts.TRANSFORM_UNFINALIZED, contracts.VALIDATE,
                     contracts.CHECK_TYPE, contracts.FINALIZE):
            result = apply(contract, value, mode)
            assert result == value and type(result) is type(value), (value, mode)


@pytest.mark.parametrize("contract", [
    "$.string().toUpper()", "$.string(1)", "$.class()", "$.check(x => 1)", "int($)",
    "$.class(type('x'))", "$.template(Base, excludeProperties => $.x)", "$.foo()",
])
def test_other_expressions_are_evaluated_as_yaql(contract):
    _, module = compile_contract(contract)
    called = [node.func.attr for node in ast.walk(module.body[-1]) if isinstance(node, ast.Call)]
    assert called == ["evaluate_contract"]


def test_generated_code_carries_yaml_positions():
    _, module = compile_contract("[$.int()]")
    lines = {node.lineno for node in ast.walk(module) if hasattr(node, "lineno")}
    assert lines == {1}
    validator, _ = compile_contract("[$.int()]")
    assert validator.__code__.co_filename == "/virtual/Contract.yaml"


NUMERIC_PREDICATES = [
    ("$.check($ > 0)", True),
    ("$.check($ mod 2 = 0 and $ < 10)", True),
    ("$.check(not ($ / 2 >= 3) or $ = -1)", True),
    ("$.check(-$ <= 1.5 and 10 / $ != 3)", True),
    ("$.check($ * $ - 4 > 0)", True),
    ("$.check($ > 0 and $this = null)", False),
    ("$.check($ in [1, 2])", False),
    ("$.check($.x > 0)", False),
    ("$.check($ + 1)", False),
]
NUMBERS = [0, 1, 2, 3, 7, 12, -1, -4, 2.5, -0.5, 10 ** 30]


@pytest.mark.parametrize("contract, numeric", NUMERIC_PREDICATES)
def test_numeric_check_predicates_agree_with_yaql(contract, numeric):
    _, module = compile_contract(contract, fast_paths=True)
    assert any(isinstance(node, ast.FunctionDef) and node.name.startswith("_n")
               for node in module.body) == numeric
    for value in [*NUMBERS, "text", None, True]:
        outcomes = []
        for fast_paths in (True, False):
            try:
                outcomes.append(apply(contract, value, fast_paths=fast_paths))
            except Exception as error:  # noqa: BLE001 - the two paths must fail alike
                outcomes.append((type(error), str(error)))
        assert outcomes[0] == outcomes[1], value


CONDITIONALLY_UNCHANGED = [
    ("$.int().notNull().check($ > 0)", {int}),
    ("$.check($ mod 2 = 0)", {int, float}),
    ("$.int().check($ > 0).notNull()", set()),
    ("$.string().check($ > 0)", set()),
    ("$.int().check($ > 0).check($ < 5)", set()),
    ("$.int().check($this = null)", set()),
]


@pytest.mark.parametrize("contract, types", CONDITIONALLY_UNCHANGED)
def test_a_final_numeric_check_makes_numbers_pass_unchanged_when_it_holds(contract, types):
    validator, _ = compile_contract(contract, fast_paths=True)
    assert contracts.unchanged_types(validator) == set()
    conditional_types, condition = contracts.conditionally_unchanged(validator)
    assert conditional_types == types
    assert (condition is not None) == bool(types)
    for value in NUMBERS:
        if type(value) not in types or not condition(value, None, bridge.engine_for("1.3.0")):
            continue
        for mode in (contracts.TRANSFORM, contracts.TRANSFORM_UNFINALIZED, contracts.VALIDATE,
                     contracts.CHECK_TYPE, contracts.FINALIZE):
            result = apply(contract, value, mode, fast_paths=True)
            assert result == value and type(result) is type(value), (value, mode)


VALUE_ONLY = [
    ("$", True), ("$.int().notNull()", True), ("$.string().check($.len() > 0)", False),
    ("$.int().check($ > 0 and $ < 100, 'out of range')", True), ("$.class(Base)", True),
    ("[$.class(Base).notNull(), 1]", True), ("{name: $.string(), $.string(): $.int()}", True),
    ("$.check($this.accepts($))", False), ("$.check($ > $this.limit)", False),
    ("$.template(Base)", False), ("$.check(new(Base) != null)", False), ("abc", True),
    ("$.check($.value >= 0)", True), ("$.check(len($) > 1)", False),
]


@pytest.mark.parametrize("contract, expected", VALUE_ONLY, ids=[row[0] for row in VALUE_ONLY])
def test_reads_value_only(contract, expected):
    """Contracts whose second application at a load changes nothing (new() then loads once)."""
    from contract_harness import contract_ir
    from mplc.contracts import reads_value_only
    assert reads_value_only(contract_ir(contract)) is expected
