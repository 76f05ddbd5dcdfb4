"""Runtime unit tests: ClassSpecs built by hand, bodies as Python functions taking ``context``,
expressions as the compiled form codegen emits (``_r.call`` over yaql argument objects)."""

import pytest

import mplc.runtime as r
from mplc.runtime.errors import ContractViolation, MuranoError
from mplc.runtime.executor import Executor

APP = "com.example"


def get(name):
    """``$name`` as compiled code reads it."""
    return r.lazy(lambda receiver, context, engine: r.call(
        "#get_context_data", receiver, context, engine, (r.constant(name),)))


def attr(obj, name):
    """``obj.name``"""
    return lambda receiver, context, engine: r.call("#operator_.", receiver, context, engine, (obj, r.keyword(name)))


def method_call(obj, name, *args):
    """``obj.name(args)``"""
    inner = r.lazy(lambda receiver, context, engine: r.call(name, receiver, context, engine, args),
                   uses_receiver=True)
    return lambda receiver, context, engine: r.call("#operator_.", receiver, context, engine, (obj, inner))


def function(name, *args):
    return lambda receiver, context, engine: r.call(name, receiver, context, engine, args)


def package(*classes, format="MuranoPL/1.4.0"):
    return r.PackageSpec(APP, "1.0.0", format, "Application",
                         requirements={"io.murano": None},
                         classes={c.name: c for c in classes})


def cls(name, properties=(), methods=(), extends=()):
    return r.ClassSpec(f"{APP}.{name}", extends=tuple(f"{APP}.{e}" for e in extends),
                       namespaces={"=": APP},
                       properties={p.name: p for p in properties},
                       methods={m.name: m for m in methods}, source_file="/x/Classes/%s.yaml" % name)


def returns(expression_function):
    return lambda context: r.evaluate(expression_function, context)


def const(value):
    return lambda context: value


def string_contract(value, cc):
    if value is None:
        return None
    if not isinstance(value, (str, int)):
        raise ContractViolation("Value is not a string")
    return str(value)


BASE = cls("Base",
           properties=[r.PropertySpec("greeting", contract=string_contract, default=const("hi"),
                                      has_default=True)],
           methods=[r.MethodSpec("hello", body=returns(attr(get("$"), "greeting"))),
                    r.MethodSpec("who", body=lambda context: "base"),
                    r.MethodSpec("twice", arguments=(r.ArgumentSpec("x", contract=string_contract),),
                                 body=returns(function("#operator_+", get("$x"), get("$x"))))])
CHILD = cls("Child", extends=("Base",),
            methods=[r.MethodSpec("who", body=returns(function(
                "#operator_+", r.constant("child of "),
                r.lazy(method_call(get("$"), "callSuper"))))),
                r.MethodSpec("callSuper", body=lambda context: r.evaluate(
                    lambda receiver, c, engine: r.call("#operator_.", receiver, c, engine, (
                        r.lazy(function("cast", get("$"), r.constant(f"{APP}.Base"))),
                        r.lazy(function("who"), uses_receiver=True))), context))])


@pytest.fixture
def executor():
    return Executor([package(BASE, CHILD)])


@pytest.mark.parametrize("class_name, method, args, expected", [
    ("Base", "hello", (), "hi"),
    ("Child", "hello", (), "hi"),
    ("Base", "twice", ("ab",), "abab"),
    ("Base", "twice", (3,), "33"),
    ("Base", "who", (), "base"),
    ("Child", "who", (), "child of base"),
])
def test_method_results(executor, class_name, method, args, expected):
    obj = executor.new(f"{APP}.{class_name}")
    assert executor.call(obj, method, args) == expected


@pytest.mark.parametrize("method, args, error_type", [
    ("twice", ([1],), "ContractViolationException"),
    ("missing", (), "NoMethodFound"),
])
def test_method_errors(executor, method, args, error_type):
    obj = executor.new(f"{APP}.Base")
    with pytest.raises(MuranoError) as raised:
        executor.call(obj, method, args)
    assert raised.value.type_name == error_type


def test_property_from_model_and_serialize(executor):
    root = executor.load({"?": {"id": "o1", "type": f"{APP}.Child"}, "greeting": "hey"})
    assert executor.call(root, "hello") == "hey"
    model = executor.serialize()
    assert model["Objects"]["greeting"] == "hey"
    assert model["Objects"]["?"]["id"] == "o1"
    assert model["Objects"]["?"]["type"] == f"{APP}.Child/1.0.0@{APP}"


@pytest.mark.parametrize("linked", [False, True])
def test_child_context_is_what_yaql_builds(linked):
    """invoke_direct builds call contexts without yaql's constructors: same attributes, same values."""
    import yaql
    from yaql.language import contexts

    from mplc.runtime.executor import child_context
    parent = yaql.create_context().create_child_context()
    if linked:
        parent = contexts.LinkedContext(parent, contexts.Context())
    ours, theirs = child_context(parent, {"$x": 1}), parent.create_child_context()
    theirs["x"] = 1
    assert type(ours) is type(theirs)
    assert vars(ours).keys() == vars(theirs).keys()
    assert {key: value for key, value in vars(ours).items() if key != "_functions"} == \
        {key: value for key, value in vars(theirs).items() if key != "_functions"}
    assert ours["x"] == 1 and ours.parent is parent and ours.collect_functions("len")


def test_call_context_is_what_yaql_builds():
    """Call contexts share empty function tables and MuranoPL's naming convention: the same
    attributes yaql's constructor sets, the same lookups, children are plain contexts, and
    registering a function fails loudly."""
    import yaql
    from yaql.language import contexts

    from mplc.runtime.expressions import CONVENTION, CallContext
    from mplc.runtime.executor import call_context_of
    parent = yaql.create_context(convention=CONVENTION).create_child_context()
    ours, theirs = call_context_of(parent, {"$x": 1}), parent.create_child_context()
    theirs["x"] = 1
    assert isinstance(ours, contexts.Context) and type(ours) is CallContext
    for name in vars(theirs):
        assert getattr(ours, name) == getattr(theirs, name)
    assert ours["x"] == 1 and ours.parent is parent and ours.collect_functions("len")
    assert type(ours.create_child_context()) is contexts.Context
    with pytest.raises(AttributeError):
        ours.register_function(lambda: None, name="f")


def test_frozen_dict_is_what_yaql_builds():
    """bridge.frozen_dict builds FrozenDicts without their constructor: same attributes and values."""
    from yaql.language import utils

    from mplc.runtime.expressions import frozen_dict
    ours, theirs = frozen_dict({"a": 1, "b": (2,)}), utils.FrozenDict({"a": 1, "b": (2,)})
    assert type(ours) is type(theirs) and vars(ours) == vars(theirs)
    assert ours == theirs and hash(ours) == hash(theirs) and dict(ours) == {"a": 1, "b": (2,)}
