"""YAQL of dynamic UI definitions, evaluated as the dashboard evaluates it.

The dashboard runs yaql's standard engine (iterators limited to 10,000 items, memory quota
1,000,000) with yaql's legacy context, plus its own functions: ``repeat``, ``generateHostname``,
``name``, ``ref`` and ``encryptData``. Values are taken by form and field name
(``$.formName.fieldName``); the Application section also sees ``$templateName`` for each
template, and every expression sees ``$parameterName`` for each of ``Parameters``.
"""

from __future__ import annotations

import functools
import random
import string
import time
import uuid

import collections.abc  # noqa: F401  (yaql 3.x needs it loaded first)
import yaql
from yaql import legacy
from yaql.language import specs, yaqltypes

from mplc.frontend.ui import UiExpression

ENGINE_OPTIONS = {"yaql.limitIterators": 10000, "yaql.memoryQuota": 1000000}
SERVICE_KEY = "?service"
_HOSTNAME_CYCLE = 1296  # base-36 numbers of at most two digits


@functools.lru_cache(maxsize=1)
def engine():
    return yaql.YaqlFactory().create(options=ENGINE_OPTIONS)


@functools.lru_cache(maxsize=4096)
def parse(text: str):
    return engine()(text)


class ObjectId:
    """An object id ``ref()`` gave out; it becomes the id string in the final model, and the
    object it names keeps it (no fresh id)."""

    __slots__ = ("object_id",)

    def __init__(self, object_id: str):
        self.object_id = object_id


class Randomness:
    """Where generated ids and host names come from: random as in the dashboard, or from a
    seed so that a run can be repeated."""

    def __init__(self, seed: int | None = None):
        self.random = random.Random(seed)
        self.seeded = seed is not None
        self.hostname_counter = 1

    def object_id(self) -> str:
        if self.seeded:
            return str(uuid.UUID(int=self.random.getrandbits(128), version=4))
        return str(uuid.uuid4())

    def milliseconds(self) -> int:
        if self.seeded:
            return 1_600_000_000_000 + self.random.randrange(100_000_000_000)
        return int(time.time() * 1000)


def to_base36(number: int) -> str:
    digits = string.digits + string.ascii_lowercase
    if number == 0:
        return "0"
    sign, number = ("-", -number) if number < 0 else ("", number)
    text = ""
    while number:
        text = digits[number % 36] + text
        number //= 36
    return sign + text


def evaluate(value, context):
    """Evaluate every expression inside ``value`` (keys too), and again inside what an
    expression returned (a template it named holds expressions of its own)."""
    if isinstance(value, UiExpression):
        return evaluate(parse(str(value)).evaluate(context=context), context)
    if isinstance(value, dict):
        return {evaluate(key, context): evaluate(item, context) for key, item in value.items()}
    if isinstance(value, list):
        return [evaluate(item, context) for item in value]
    if isinstance(value, tuple):
        return tuple(evaluate(item, context) for item in value)
    return value


def evaluate_expression(expression: UiExpression, data, context):
    """One expression over ``data`` (``$``), as a field's property or a form validator is."""
    return parse(str(expression)).evaluate(data=data, context=context)


def _functions(randomness: Randomness):
    @specs.parameter("times", int)
    def repeat(context, template, times):
        for index in range(times):
            context["index"] = index + 1
            yield evaluate(template, context)

    @specs.parameter("pattern", yaqltypes.String())
    @specs.parameter("number", int)
    def generate_hostname(pattern, number):
        if pattern:
            return pattern.replace("#", str(number))
        counter = randomness.hostname_counter or 1
        prefix = "".join(randomness.random.choice(string.ascii_lowercase) for _ in range(5))
        stamp = to_base36(randomness.milliseconds())[:8]
        randomness.hostname_counter = (counter + 1) % _HOSTNAME_CYCLE
        return prefix + stamp + to_base36(counter)

    def name(context):
        # the dashboard subscripts the context's get_data method, which always fails
        raise TypeError("'method' object is not subscriptable")

    @specs.parameter("template_name", yaqltypes.String())
    @specs.parameter("parameter_name", yaqltypes.String(nullable=True))
    @specs.parameter("id_only", yaqltypes.PythonType(bool, nullable=True))
    def ref(context, template_name, parameter_name=None, id_only=None):
        service = context[SERVICE_KEY]
        data = None
        key = "#" + (parameter_name or template_name)
        if key in service.parameters:
            data = service.parameters[key]
        elif template_name in service.templates:
            data = evaluate(service.templates[template_name], context)
            service.parameters[key] = data
        if not isinstance(data, dict):
            return None
        if not isinstance(data.get("?", {}).get("id"), ObjectId):
            data.setdefault("?", {})["id"] = ObjectId(randomness.object_id())
            if id_only is None:
                id_only = False
        elif id_only is None:
            id_only = True
        return data["?"]["id"] if id_only else data

    @specs.parameter("data", yaqltypes.String())
    def encrypt_data(context, data):
        raise KeyManagerError("This Application requires encryption, please contact "
                                    "your administrator to configure this.")

    return {"repeat": repeat, "generateHostname": generate_hostname, "name": name, "ref": ref,
            "encryptData": encrypt_data}


class KeyManagerError(Exception):
    """encryptData() needs the dashboard's key manager (Barbican); mplc has none."""


def create_context(randomness: Randomness):
    """yaql's legacy context with the dashboard's functions."""
    context = legacy.create_context()
    for name, function in _functions(randomness).items():
        context.register_function(function, name)
    return context


def bare_context():
    """yaql's legacy context alone: what a field's own YAQL validator sees (``$`` is the
    field's value)."""
    return legacy.create_context()
