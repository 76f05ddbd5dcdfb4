"""io.murano.test.TestFixture: the base of MuranoPL unit tests (load, sessions, assertions),
and the mocking functions test runs have (``inject``, ``withOriginal``; ``mock_functions``).

Failed assertions raise what the reference's (testtools) assertions raise: AssertionError for
assertTrue/assertFalse, MismatchError (an AssertionError) for the others, with their messages.

As in the reference's test runner (murano/engine/mock_context_manager.py), ``inject`` puts a
function named like the method before the methods of the target's class (the class of an
object target): from then on ``$obj.method(...)`` on an object of exactly that class, from any
code, calls the mock with the call's arguments instead.

- ``inject(target, method, mockObject, mockMethod)``: ``mockObject.mockMethod(args...)``, the
  mock method found on the class whose code calls ``inject``.
- ``inject(target, method, expression)``: the expression, evaluated where ``inject`` was called
  (its variables, ``$this``), with ``$`` (``$1``) the object that called ``inject``, ``$2``...
  the call's positional arguments and ``$name`` its keyword ones; ``originalMethod()`` in it
  calls the method the mock replaced, ``withOriginal(name => expr) -> expr2`` evaluates each
  ``expr`` where the mocked method was called (``$template`` of the code calling
  ``agent.call($template, ...)``) and ``expr2`` with those values as ``$name``.
"""

from __future__ import annotations

import sys

from yaql.language import specs, utils, yaqltypes

from mplc.runtime import expressions, statements
from mplc.runtime.activation import current_executor
from mplc.runtime.objects import MuranoObject, ObjectParameter, TypeParameter, TypeReference
from mplc.runtime.natives import as_received, native

ORIGINAL_CONTEXT = "?originalContext"


class MismatchError(AssertionError):
    """A failed assertEqual/assertIn/assertNotIn, named as the reference's testtools names it
    (a MuranoPL ``Catch`` sees ``testtools.matchers._impl.MismatchError``)."""

    __module__ = "testtools.matchers._impl"


def _shown(value):
    """A value as Python shows it, with yaql's frozen lists and dicts shown as lists and dicts."""
    if isinstance(value, utils.MappingType):
        return {_shown(k): _shown(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_shown(item) for item in value]
    return value


def _mismatch(text, message):
    raise MismatchError(text if message is None else f"{text}: {message}")


@native("io.murano.test.TestFixture")
class TestFixture:
    def load(self, executor, model):
        """As the reference's executor loads a deployment's model: the document's
        ``Attributes``, ``Objects`` and ``ObjectsCopy``; its root object, or null for a mapping
        without ``Objects`` (a bare object is no document there)."""
        model = as_received(model)
        if not isinstance(model, dict):
            raise TypeError()
        return executor.load_document({key: model.get(key) for key in ("Objects", "ObjectsCopy", "Attributes")})

    def start_env(self):
        """Begin a deployment session (the simulated cloud keeps no session state)."""

    def finish_env(self):
        """End a deployment session."""

    # The reference's native methods receive their arguments as mutable data (yaql's lazy
    # collections as lists): ``range(2).select($)`` equals ``[0, 1]`` there.
    def assert_equal(self, expected, observed, message=None):
        expected, observed = as_received(expected), as_received(observed)
        if expected != observed:
            _mismatch(f"{_shown(expected)!r} != {_shown(observed)!r}", message)

    def assert_true(self, expr, message=None):
        expr = as_received(expr)
        if not expr:
            text = f"{_shown(expr)!r} is not true"
            raise AssertionError(text if message is None else f"{text} : {message}")

    def assert_false(self, expr, message=None):
        expr = as_received(expr)
        if expr:
            text = f"{_shown(expr)!r} is not false"
            raise AssertionError(text if message is None else f"{text} : {message}")

    def assert_in(self, needle, haystack, message=None):
        needle, haystack = as_received(needle), as_received(haystack)
        if needle not in haystack:
            _mismatch(f"{_shown(needle)!r} not in {_shown(haystack)!r}", message)

    def assert_not_in(self, needle, haystack, message=None):
        needle, haystack = as_received(needle), as_received(haystack)
        if needle in haystack:
            _mismatch(f"{_shown(haystack)!r} matches Contains({_shown(needle)!r})", message)


def _target_class(target):
    return target.type if isinstance(target, (TypeReference, MuranoObject)) else target


@specs.parameter("target", yaqltypes.AnyOf(TypeParameter(), ObjectParameter()))
@specs.parameter("target_method", yaqltypes.String())
@specs.parameter("mock_object", ObjectParameter())
@specs.parameter("mock_name", yaqltypes.String())
@specs.name("inject")
def inject_method(context, target, target_method, mock_object, mock_name):
    executor = current_executor()
    mock_method = context[expressions.TYPE].find_single_method(mock_name)
    target_class = _target_class(target)
    definition = target_class.find_single_method(target_method).instance_stub.clone()

    def payload(__context, __receiver, *args, **kwargs):
        return executor.invoke(mock_method, mock_object, args, kwargs, __context)

    definition.payload = payload
    executor.add_mock(target_class.name, definition)


@specs.parameter("target", yaqltypes.AnyOf(TypeParameter(), ObjectParameter()))
@specs.parameter("target_method", yaqltypes.String())
@specs.parameter("expression", yaqltypes.Lambda(with_context=True))
@specs.name("inject")
def inject_expression(context, target, target_method, expression):
    executor = current_executor()
    target_class = _target_class(target)
    definition = target_class.find_single_method(target_method).instance_stub.clone()
    mock_object = context["$this"]

    def payload(__super, __context, __receiver, *args, **kwargs):
        scope = context.create_child_context()
        scope[ORIGINAL_CONTEXT] = _with_body_variables(__context)
        scope.register_function(lambda: __super(*args, **kwargs), name="originalMethod")
        return expression(scope, mock_object, *args, **kwargs)

    definition.payload = payload
    definition.insert_parameter("__super", yaqltypes.Super())
    executor.add_mock(target_class.name, definition)


def _with_body_variables(context):
    """The context a mocked method was called in, with the variables the calling body keeps as
    Python locals (fast paths, ``MethodSpec.variable_names``), which the context lacks: the
    innermost method body on the stack is the caller's (the mock itself is no body)."""
    bodies = statements.method_bodies()
    frame = sys._getframe(1)
    while frame is not None:
        method = statements.running_method(frame, bodies)
        if method is not None:
            values = frame.f_locals
            scope = context.create_child_context()
            for key, local in zip(method.spec.variable_names, method.spec.local_variables):
                if local in values:
                    scope[key] = values[local]
            return scope
        frame = frame.f_back
    return context


@specs.parameter("kwargs", yaqltypes.Lambda(with_context=True))
@specs.name("withOriginal")
def with_original(context, **kwargs):
    scope = context.create_child_context()
    original = context[ORIGINAL_CONTEXT]
    for name, value in kwargs.items():
        scope["$" + name] = value(original)
    return scope


_mock_functions = None


def mock_functions():
    """The functions a test run adds over the root context (``Executor(functions=...)``)."""
    global _mock_functions
    if _mock_functions is None:
        _mock_functions = expressions.empty_context()
        for function in (inject_method, inject_expression, with_original):
            _mock_functions.register_function(function)
    return _mock_functions
