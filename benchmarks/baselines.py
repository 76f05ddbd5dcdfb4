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


NODE_TYPE = "bench.Node/0.0.0@bench.core"
NODE_KEYS = ("?", "value", "children")


class ModelNode:
    """A bench.Node of a loaded object model: its header fields, owner and properties."""

    __slots__ = ("object_id", "owner", "name", "metadata", "value", "children")

    def __init__(self, object_id, owner, name, metadata):
        self.object_id = object_id
        self.owner = owner
        self.name = name
        self.metadata = metadata
        self.value = None
        self.children = ()


def _load_node(data, owner, objects, warnings):
    """Parse the object's ``?`` header, check its properties' contracts (value: int().notNull(),
    children: [class(Node)] building owned children from mappings, resolving ids otherwise)."""
    header = data.get("?")
    if not isinstance(header, dict):
        raise ContractViolation("an object needs a '?' header")
    type_name = header.get("type")
    if not isinstance(type_name, str) or type_name.partition("/")[0] != "bench.Node":
        raise ContractViolation(f"unknown class {type_name!r}")
    object_id = header.get("id")
    if not isinstance(object_id, str) or object_id in objects:
        raise ContractViolation(f"bad or repeated id {object_id!r}")
    for key in data:
        if key not in NODE_KEYS:
            warnings.append(f"bench.Node has no property {key!r}; ignored")
    node = objects[object_id] = ModelNode(object_id, owner, header.get("name"), header.get("metadata"))
    node.value = _not_null(_int(data.get("value")))
    children = data.get("children", [])
    if not isinstance(children, list):
        raise ContractViolation("children: a list")
    loaded = []
    for child in children:
        if isinstance(child, dict):
            loaded.append(_load_node(child, node, objects, warnings))
        elif isinstance(child, str) and child in objects:
            loaded.append(objects[child])
        elif child is not None:
            raise ContractViolation(f"{child!r} violates class() contract")
    node.children = tuple(loaded)
    return node


def _serialize_node(node, actions):
    header = {"type": NODE_TYPE, "id": node.object_id, "name": node.name, "metadata": node.metadata}
    if actions:
        header["_actions"] = {}
    return {"?": header, "value": node.value,
            "children": [_serialize_node(child, actions) if child.owner is node else child.object_id
                         for child in node.children]}


def model_load_and_serialize(model):
    """Load a bench.Node object model and write it back as the engine stores a deployment."""
    root = _load_node(model, None, {}, [])
    return {"Objects": _serialize_node(root, True), "ObjectsCopy": _serialize_node(root, False),
            "Attributes": []}


def list_pipeline(n):
    n = _not_null(_int(n))
    items = [{"id": i, "name": "item" + str(i), "odd": i % 2 == 1} for i in range(0, n)]
    return [item["name"] for item in items if item["odd"] and item["id"] > 10]


class _Reporter:
    """io.murano.system.StatusReporter's work: a record per report."""

    __slots__ = ("environment", "reports")

    def __init__(self, environment):
        self.environment = environment
        self.reports = []

    def report(self, entity, text):
        self.reports.append({"level": "info", "entity": entity.object_id, "text": text})


class _MixObject:
    __slots__ = ("object_id", "owner", "attributes")

    def __init__(self, object_id, owner=None):
        self.object_id = object_id
        self.owner = owner
        self.attributes = {}

    def find(self, cls):
        owner = self.owner
        while owner is not None:
            if isinstance(owner, cls):
                return owner
            owner = owner.owner
        return None


class _CorpusMix(_MixObject):
    __slots__ = ("reporter",)


class _MixItem(_MixObject):
    __slots__ = ("index", "name", "deployed")

    def __init__(self, object_id, index, name, owner=None):
        super().__init__(object_id, owner)
        self.index = _not_null(_int(index))
        if not isinstance(name, str):
            raise ContractViolation("string() contract")
        self.name = name
        self.deployed = False

    def deploy(self):
        if not self.deployed:
            self.deployed = True


def _bind(value, mappings):
    if isinstance(value, str) and value.startswith("$"):
        return mappings.get(value[1:], value)
    if isinstance(value, (list, tuple)):
        return [_bind(item, mappings) for item in value]
    if isinstance(value, dict):
        return {_bind(key, mappings): _bind(item, mappings) for key, item in value.items()}
    return value


def corpus_mix(n):
    """bench.CorpusMix.mix: the corpus's most called functions, in about their proportions."""
    n = _not_null(_int(n))
    ids = iter(range(1, 1 << 62))
    this = _CorpusMix(next(ids))
    this.reporter = _Reporter("env")
    child = _MixItem(next(ids), 0, "child", this)
    template = {"name": "$name", "port": "$port", "tags": ["$name", "web"]}
    ports = [80, 443, 8080, 22]
    count = 0
    for i in range(0, n):
        item = _MixItem(next(ids), i, "item-{0}".format(i))
        other = _MixItem(next(ids), i + 1, "other")
        this.reporter.report(this, "Creating an item")
        owner = child.find(_CorpusMix)
        same = child.find(_MixObject)
        if same is None:
            raise ValueError("Required value is missing")
        item.deploy()
        port = ports[i % 4]
        this.reporter.report(item, "{0} deployed on port {1}".format(item.name, port))
        this.attributes[("bench.CorpusMix", "lastIndex")] = i
        last = this.attributes.get(("bench.CorpusMix", "lastIndex"), 0)
        bound = _bind(template, {"name": item.name, "port": port})
        open_ports = ["port-" + str(p) for p in ports if p > 100]
        this.reporter.report(this, "{0} open ports".format(len(open_ports)))
        if owner is this and same is not None and item.deployed:
            count = count + len(open_ports) + bound.get("port") + last
        this.reporter.report(other, open_ports[0])
    return count
