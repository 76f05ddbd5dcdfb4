"""Hand-written Python doing the same observable work as each MuranoPL workload.

Contract checks are written out as the reference performs them (int() conversion, notNull,
check predicates), so the ratio compares like with like.
"""

from __future__ import annotations


class ContractViolation(Exception):
    pass


def _int(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ContractViolation(f"Value {value!r} violates int() contract")


def _not_null(value):
    if value is None:
        raise ContractViolation("null value violates notNull() contract")
    return value


def fib(n):
    n = _not_null(_int(n))
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def while_sum(limit):
    limit = _not_null(_int(limit))
    total = 0
    i = 1
    while i <= limit:
        total = total + i
        i = i + 1
    return total


def for_arithmetic(limit):
    limit = _not_null(_int(limit))
    acc = 0
    for i in range(limit):
        if i % 3 == 0:
            acc = acc + i * 2
        else:
            acc = acc - 1
    return acc


def positive(value):
    value = _not_null(_int(value))
    if not value > 0:
        raise ContractViolation("check() failed")
    return value


def call_many(count):
    count = _not_null(_int(count))
    total = 0
    i = 1
    while i <= count:
        total = total + positive(i)
        i = i + 1
    return total


def pipeline(size):
    size = _not_null(_int(size))
    items = [{"id": i, "name": "item-{0}".format(i), "weight": i % 7} for i in range(size)]
    heavy = [item["name"] for item in items if item["weight"] > 3]
    index = {item["name"]: item["weight"] for item in items}
    return [len(heavy), sum(index.values())]


class Node:
    __slots__ = ("value", "children")

    def __init__(self, value, children=()):
        self.value = _not_null(_int(value))
        for child in children:
            if not isinstance(child, Node):
                raise ContractViolation("class() contract")
        self.children = tuple(children)

    def total(self):
        result = self.value
        for child in self.children:
            result = result + child.total()
        return result


def build(depth, width):
    depth = _not_null(_int(depth))
    width = _not_null(_int(width))
    if depth == 0:
        return Node(1)
    return Node(depth, [build(depth - 1, width) for _ in range(width)])


def build_and_sum(depth, width):
    return build(depth, width).total()
