"""The simulated cloud: natives of io.murano.system classes that would talk to OpenStack.

Nothing leaves the process. Heat stacks keep and merge their templates and answer ``output()``
with deterministic fake ids and addresses; agents build execution plans as the reference does
and record them, answering a call with null or as ``answer_agents_with`` scripted; reporters and
notifiers record what they are told. ``records(executor)`` is everything a run recorded
(``mplc run`` prints it as ``cloud``).
"""

from __future__ import annotations

import base64
import collections
import copy
import fnmatch
import hashlib
import itertools
import os
import urllib.parse
import weakref
from collections.abc import Iterable, Mapping

from mplc.runtime import expressions
from mplc.runtime.errors import MuranoError
from mplc.runtime.objects import MuranoObject
from mplc.runtime.natives import as_received, muranopl_name, native
from mplc.runtime.system.resources import Resources

_RECORDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_AGENT_RESULTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
SCRIPTS_FOLDER = "scripts"


def records(executor) -> dict:
    """What the simulated cloud saw during this executor's runs."""
    found = _RECORDS.get(executor)
    if found is None:
        found = {"stacks": {}, "agentPlans": [], "reports": [], "notifications": [], "log": []}
        _RECORDS[executor] = found
    return found


def thaw(value):
    """Plain dicts and lists of a frozen MuranoPL value (templates are edited and recorded)."""
    if isinstance(value, Mapping):
        return {thaw(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(item) for item in value]
    return value


class HeatStackError(MuranoError):
    """A template Heat would refuse; MuranoPL catches it by the reference's name."""

    @property
    def qualified_name(self) -> str:
        return "murano.engine.system.heat_stack.HeatStackError"


HEAT_TEMPLATE_VERSION = "2013-05-23"


def merge(base, update):
    """The reference's template merge: dicts recursively, lists joined without repeats; a value
    of another type fails, except that a string or null never replaces a string or null."""
    result = dict(base.items())
    for key, value in update.items():
        if key not in base:
            result[key] = value
            continue
        old = base[key]
        if type(old) is not type(value):
            if isinstance(old, (str, type(None))) and isinstance(value, (str, type(None))):
                continue
            raise TypeError()
        if isinstance(value, dict):
            result[key] = merge(old, value)
        elif isinstance(value, list):
            result[key] = [item for index, item in enumerate(old + value)
                           if item not in (old + value)[:index]]
        else:
            result[key] = value
    return result


def fake_id(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:32]


def _environment_of(obj):
    owner = obj
    while owner is not None:
        if any(t.name == "io.murano.Environment" for t in [owner.type, *owner.type.ancestors()]):
            return owner
        owner = owner.owner
    return None


@native("io.murano.system.HeatStack")
class HeatStack:
    """A stack whose pushes are recorded. As in the reference, the template and parameters are
    read from the cloud when first needed (a stack a previous deployment left, see
    ``start_with_stacks``), a push only happens when they changed since, and adds the template
    version and the stack's description; pushing a template without resources deletes the
    stack."""

    def __init__(self, executor, name: str, description: str | None = None,
                 region_name: str | None = None):
        self.executor = executor
        self.name = name
        self.description = description
        self.region_name = region_name
        self.template = None
        self.parameters_ = {}
        self.files = {}
        self.hot_environment = None
        self.applied = True

    def _stack(self):
        """The stack's record in the simulated cloud, None when there is no such stack."""
        entry = records(self.executor)["stacks"].get(self.name)
        return None if entry is None or entry.get("deleted") else entry

    def _fetched(self):
        if self.template is None:
            entry = self._stack()
            self.template = copy.deepcopy(entry["template"]) if entry else {}
            self.parameters_ = dict(entry.get("parameters") or {}) if entry else {}
            self.applied = True
        return self.template

    def current(self):
        return copy.deepcopy(self._fetched())

    def parameters(self):
        self._fetched()
        return self.parameters_.copy()

    def reload(self):
        self.template = None
        return self.current()

    def set_template(self, template):
        """The setters take any value, as the reference's untyped ones: a value that is no
        mapping fails where it is used, as Python fails on it there."""
        self.template = thaw(template)
        self.parameters_ = {}
        self.applied = False

    def set_parameters(self, parameters):
        self.parameters_ = thaw(parameters)
        self.applied = False

    def set_files(self, files):
        self.files = thaw(files)
        self.applied = False

    def set_hot_environment(self, hot_environment):
        self.hot_environment = thaw(hot_environment)
        self.applied = False

    def update_template(self, template):
        template = thaw(template)
        if template.get("heat_template_version", HEAT_TEMPLATE_VERSION) != HEAT_TEMPLATE_VERSION:
            raise HeatStackError(
                f"Currently only heat_template_version {HEAT_TEMPLATE_VERSION} is supported.")
        current = self._fetched()
        self.template = merge(current, template)
        self.applied = self.applied and self.template == current

    def output(self):
        entry = self._stack()
        if entry is None:
            return {}
        template = entry["template"]
        outputs = template.get("outputs") or {}
        return {name: self._resolve((spec or {}).get("value"), template.get("resources") or {})
                for name, spec in outputs.items()}

    def _resolve(self, value, resources):
        if isinstance(value, dict) and len(value) == 1:
            (function, argument), = value.items()
            if function == "get_resource":
                return fake_id(self.name, argument)
            if function == "get_attr" and isinstance(argument, list) and argument:
                return self._attribute(argument[0], argument[1:], resources)
        if isinstance(value, dict):
            return {k: self._resolve(v, resources) for k, v in value.items()}
        if isinstance(value, list):
            return [self._resolve(v, resources) for v in value]
        return value

    def _attribute(self, name, path, resources):
        """What Heat answers for ``get_attr``, by resource type: a server's ``addresses``
        (per network, entries with ``addr``) and ``networks`` (per network, addresses),
        fixed and floating IPs, a subnet's CIDR, empty attachment lists and script output.
        Addresses count from the resource's place in the template (not its name, which may
        be random)."""
        resource = resources.get(name) if isinstance(resources.get(name), dict) else {}
        kind = resource.get("type")
        properties = resource.get("properties") if isinstance(resource.get("properties"), dict) else {}
        names = list(resources)
        index = names.index(name) + 10 if name in names else 254
        attribute = str(path[0]) if path else ""
        address = f"10.0.0.{index}"
        if kind == "OS::Nova::Server" and attribute == "addresses":
            entry = {"addr": address, "version": 4, "OS-EXT-IPS:type": "fixed",
                     "OS-EXT-IPS-MAC:mac_addr": "fa:16:3e:%02x:%02x:%02x" % (index, index, index)}
            return [entry] if len(path) > 1 else {"private": [entry]}
        if kind == "OS::Nova::Server" and attribute == "networks":
            return [address] if len(path) > 1 else {"private": [address]}
        if attribute in ("floating_ip_address", "ip") and kind in ("OS::Neutron::FloatingIP",
                                                                   "OS::Nova::FloatingIP"):
            return f"172.24.4.{index}"
        if kind == "OS::Neutron::Port" and attribute == "fixed_ips":
            fixed = [{"ip_address": address, "subnet_id": fake_id(self.name, name, "subnet")}]
            return _walk(fixed, path[1:])
        if kind == "OS::Neutron::Subnet" and attribute == "cidr":
            return properties.get("cidr")
        if attribute == "attachments_list":
            return []
        if attribute in ("deploy_stdout", "deploy_stderr"):
            return ""
        if "ip" in attribute or "address" in attribute:
            return address
        return fake_id(self.name, name, *map(str, path))

    def push(self, is_async: bool = False):
        """``isAsync`` as the reference's Python parameter: the ``push(async => true)`` of
        Murano's core library (Instance.releaseResources) fails there, with "Invalid argument
        **", and an instance's release is muted inside destruction, so the stack keeps the
        instance until something else pushes it."""
        if self.applied or self.template is None:
            return
        if "heat_template_version" not in self.template:
            self.template["heat_template_version"] = HEAT_TEMPLATE_VERSION
        if "description" not in self.template and self.description:
            self.template["description"] = self.description
        pushed = copy.deepcopy(self.template)
        if "resources" in pushed or "Resources" in pushed:
            stacks = records(self.executor)["stacks"]
            entry = stacks.setdefault(self.name, {"description": self.description,
                                                  "region": self.region_name, "pushes": 0})
            entry.update(template=pushed, parameters=copy.copy(self.parameters_),
                         files=copy.copy(self.files), deleted=False)
            entry["pushes"] = entry.get("pushes", 0) + 1
        elif self._stack() is not None:
            self.delete()
        self.applied = self.template == pushed

    def delete(self):
        if not self._fetched():
            return
        entry = self._stack()
        if entry is not None:
            entry["deleted"] = True
        self.template = {}
        self.applied = True


def start_with_stacks(executor, stacks: Mapping):
    """Have the simulated cloud hold the Heat stacks a previous deployment left: ``stacks`` as
    ``mplc run`` prints them under ``cloud`` (name -> template, parameters, ...)."""
    records(executor)["stacks"].update(copy.deepcopy(dict(stacks)))


def _walk(value, path):
    for step in path:
        try:
            value = value[int(step) if isinstance(value, list) else step]
        except (LookupError, ValueError, TypeError):
            return None
    return value


class AgentResults:
    """Scripted answers of the simulated agents: ``rules`` (a JSON list, ``agentResults`` of
    ``mplc run --cloud``) are tried in order for each plan an agent is called with and waits for.
    A rule matches when its optional ``plan`` (a glob of the plan's ``Name``) and ``host`` (a glob
    of the instance's ``name`` property or of the plan record's ``host``: the object's id, or its
    ``?`` name) match; it answers ``result``, or the next
    of its ``results`` (a rule whose ``results`` are used up no longer matches). Without a
    matching rule the answer is null. A malformed rule is a ValueError saying which and why."""

    KEYS = ("plan", "host", "result", "results")

    def __init__(self, rules):
        if not isinstance(rules, list):
            raise ValueError("'agentResults' must be a list of rules")
        self.rules = []
        for index, rule in enumerate(rules):
            where = f"agentResults[{index}]"
            if not isinstance(rule, dict):
                raise ValueError(f"{where} must be an object with plan, host, and result or results")
            unknown = sorted(set(rule) - set(self.KEYS))
            if unknown:
                raise ValueError(f"{where}: unknown key {unknown[0]!r} "
                                 "(a rule has plan, host, and result or results)")
            for key in ("plan", "host"):
                if key in rule and not isinstance(rule[key], str):
                    raise ValueError(f"{where}: {key!r} must be a string (a glob pattern)")
            if ("result" in rule) == ("results" in rule):
                raise ValueError(f"{where}: give exactly one of 'result' and 'results'")
            if "results" in rule and not isinstance(rule["results"], list):
                raise ValueError(f"{where}: 'results' must be a list (one answer per call)")
            answers = collections.deque(rule["results"]) if "results" in rule else None
            self.rules.append((rule.get("plan"), rule.get("host"), rule.get("result"), answers))

    def answer(self, plan, hosts: tuple):
        name = plan.get("Name") if isinstance(plan, dict) else None
        for plan_pattern, host_pattern, result, answers in self.rules:
            if plan_pattern is not None and not (
                    isinstance(name, str) and fnmatch.fnmatchcase(name, plan_pattern)):
                continue
            if host_pattern is not None and not any(
                    isinstance(host, str) and fnmatch.fnmatchcase(host, host_pattern) for host in hosts):
                continue
            if answers is None:
                return copy.deepcopy(result)
            if answers:
                return answers.popleft()
        return None


def answer_agents_with(executor, results: AgentResults):
    """Have the agents of this executor's runs answer as ``results`` scripts."""
    _AGENT_RESULTS[executor] = results


@native("io.murano.system.Agent")
class Agent:
    """A Murano agent on ``host``; plans are built as the reference builds them, then recorded.

    A call's result is null (nothing runs) unless ``answer_agents_with`` scripted it. Plan ids
    and stamps count up so runs are repeatable."""

    def __init__(self, this, executor, host):
        """The host is untyped, as the reference's, whose constructor looks for the host's
        environment: a value other than an object fails there."""
        if not isinstance(host, MuranoObject):
            as_received(host).find_owner("io.murano.Environment")
        self.this = this
        self.executor = executor
        self.host = host
        self.counter = itertools.count(1)

    def queue_name(self):
        environment = _environment_of(self.host)
        environment_id = environment.object_id if environment is not None else ""
        return f"e{environment_id}-h{self.host.object_id}".lower()

    def signing_key(self, line_prefix: str = ""):
        """No signing key is configured: the reference's answer then is empty text."""
        return ""

    def call(self, template: Mapping, resources: MuranoObject, timeout: int | None = None):
        return self._send(self._plan(template, _ResourceReader(resources)), wait=True)

    def send(self, template: Mapping, resources: MuranoObject):
        self._send(self._plan(template, _ResourceReader(resources)), wait=False)

    def call_raw(self, plan: Mapping, timeout: int | None = None):
        return self._send(thaw(plan), wait=True)

    def send_raw(self, plan: Mapping):
        self._send(thaw(plan), wait=False)

    def is_ready(self, timeout: int = 100):
        self.wait_ready(timeout)
        return True

    def wait_ready(self, timeout: int = 100):
        """As the reference: a raw plan that only returns, called (and recorded)."""
        self.call_raw({"Body": "return", "FormatVersion": "2.0.0", "Scripts": {}}, timeout)

    def _send(self, plan, wait):
        host = self.host.name or self.host.object_id
        records(self.executor)["agentPlans"].append(
            {"queue": self.queue_name(), "host": host, "wait": wait, "plan": plan})
        results = _AGENT_RESULTS.get(self.executor)
        if not wait or results is None:
            return None
        return results.answer(plan, (self.host.real_this.properties.get("name"), host))

    def build_execution_plan(self, template: Mapping, resources):
        """Called from MuranoPL, the reference's gets ``resources`` as a wrapper without the
        Resources methods, so a plan that needs a file's content fails (AttributeError)."""
        return self._plan(template, _UnreadableResources())

    def _plan(self, template: Mapping, reader):
        template = thaw(template)
        if not isinstance(template, dict):
            raise ValueError("Incorrect execution plan ")
        stamp = next(self.counter)
        version = str(template.get("FormatVersion") or "")
        if not version or version.startswith("1."):
            template["Scripts"] = [
                base64.b64encode(reader.read(os.path.join(SCRIPTS_FOLDER, script), binary=True)).decode("latin1")
                for script in template.get("Scripts", [])]
            template["Stamp"] = stamp
            return template
        template["ID"] = fake_id(self.host.object_id, "plan", stamp)
        template["Stamp"] = stamp
        template.setdefault("Action", "Execute")
        template.setdefault("Files", {})
        files = {description["Name"]: file_id for file_id, description in template["Files"].items()}
        for name, script in (template.get("Scripts") or {}).items():
            if "EntryPoint" not in script:
                raise ValueError("No entry point in script " + name)
            if script.get("Type") == "Application":
                script["EntryPoint"] = files.get(script["EntryPoint"]) or _place_file(
                    script["EntryPoint"], template, reader, files)
            for index, file in enumerate(script.get("Files") or ()):
                script["Files"][index] = files.get(_file_name(file)) or _place_file(
                    file, template, reader, files)
        return template


class _ResourceReader:
    """Files read as the reference's Agent reads them: by calling ``string`` on the Resources
    object, whose result comes back converted as for any Python caller of a MuranoPL method
    (``interface_result``): a binary read is a list of byte values, which base64 then refuses
    (TypeError), or a CollectionTooLargeException past 2000 bytes."""

    def __init__(self, resources):
        self.resources = resources

    def read(self, path, binary=False):
        return interface_result(Resources.string(self.resources.real_this, None, path, binary=binary))


class _UnreadableResources:
    def read(self, path, binary=False):
        raise AttributeError("'MuranoObjectInterface' object has no attribute 'string'")


def interface_result(value):
    """A value as the reference's Python natives get it back from a MuranoPL method they call on
    an object: mappings become dicts, every other iterable but a string (bytes included) a list,
    each failing past the iterator limit; objects stay as they are."""
    if isinstance(value, (str, MuranoObject)):
        return value
    if isinstance(value, Mapping):
        return {interface_result(key): interface_result(item)
                for key, item in expressions.limit_iterable(value.items())}
    if isinstance(value, Iterable):
        return [interface_result(item) for item in expressions.limit_iterable(value)]
    return value


def _file_value(file):
    return next(iter(file.values())) if isinstance(file, dict) else file


def _is_url(text):
    parts = urllib.parse.urlsplit(_file_value(text))
    return bool(parts.scheme and parts.netloc)


def _file_name(file):
    name = next(iter(file)) if isinstance(file, dict) else file
    if _is_url(name):
        return name[name.rindex("/") + 1:]
    if name.startswith("<") and name.endswith(">"):
        return name[1:-1]
    return name


def _place_file(file, template, reader, files):
    value, name = _file_value(file), _file_name(file)
    file_id = fake_id(template["ID"], "file", name)
    if _is_url(value):
        template["Files"][file_id] = {"Name": name, "URL": value, "Type": "Downloadable"}
    elif value.startswith("<") and value.endswith(">"):
        body = base64.b64encode(reader.read(os.path.join(SCRIPTS_FOLDER, value[1:-1]), binary=True))
        template["Files"][file_id] = {"Name": name, "BodyType": "Base64", "Body": body.decode() + "\n"}
    else:
        template["Files"][file_id] = {"Name": name, "BodyType": "Text",
                                      "Body": reader.read(os.path.join(SCRIPTS_FOLDER, value))}
    files[name] = file_id
    return file_id


@native("io.murano.system.AgentListener")
class AgentListener:
    """Results come back synchronously in the simulation, so listening does nothing; the
    subscriptions are kept as the reference's (untyped name and message ids, a message id
    unsubscribed without a subscription fails with KeyError)."""

    def __init__(self, name):
        self.results_queue = f"-execution-results-{as_received(name).lower()}"
        self.subscriptions = {}

    def queue_name(self):
        return self.results_queue

    def start(self):
        return None

    def stop(self):
        return None

    def subscribe(self, message_id, event):
        self.subscriptions[as_received(message_id)] = event

    def unsubscribe(self, message_id):
        self.subscriptions.pop(as_received(message_id))


@native("io.murano.system.StatusReporter")
class StatusReporter:
    def __init__(self, executor, environment):
        """The environment is required and untyped, as the reference's: text is its id, any
        other value's id is read."""
        self.executor = executor
        self.environment_id = environment if isinstance(environment, str) \
            else reported_id(environment)

    def _report(self, instance, message, level):
        """Any message value: the reference's ``msg`` is untyped (sent as the text)."""
        records(self.executor)["reports"].append(
            {"level": level, "entity": None if instance is None else reported_id(instance),
             "text": message})

    def report(self, instance, msg):
        self._report(instance, msg, "info")

    def report_error(self, instance, msg):
        self._report(instance, msg, "error")

    @muranopl_name("report_error")
    def report_error_snake_case(self, instance, msg):
        """The reference exposes the method under both names; packages call either."""
        self._report(instance, msg, "error")


@native("io.murano.system.InstanceNotifier")
class InstanceNotifier:
    """Parameters untyped as the reference's: a bad ``instance`` fails when its id is read."""

    def __init__(self, executor, environment):
        self.executor = executor
        self.environment_id = reported_id(environment)

    def _record(self, event, instance, **details):
        records(self.executor)["notifications"].append(
            {"event": event, "instance": reported_id(instance),
             "type": instance.real_this.type.name, **details})

    def track_application(self, instance, title=None, unit_count=None):
        self._record("trackApplication", instance, title=title, unitCount=unit_count)

    def untrack_application(self, instance):
        self._record("untrackApplication", instance)

    def track_cloud_instance(self, instance):
        self._record("trackCloudInstance", instance)

    def untrack_cloud_instance(self, instance):
        self._record("untrackCloudInstance", instance)


def reported_id(instance):
    """The id of the object a report or notification is about. The reference's parameter is
    untyped and it reads ``instance.id``: any other value fails there as Python does, with
    the AttributeError of the value as the reference's native receives it."""
    if isinstance(instance, MuranoObject):
        return instance.real_this.object_id
    return as_received(instance).id


PROJECT_ID = fake_id("keystone", "project")
"""The one Keystone project of the simulated cloud (the environment's owner)."""


@native("io.murano.system.NetworkExplorer")
class NetworkExplorer:
    """Neutron of the simulated cloud: a ``private`` network (with one subnet) of the project,
    uplinked by the router to the external ``public`` network, plus the networks and subnets
    of the stacks pushed so far."""

    ROUTER = "mplc-router"
    EXTERNAL_NETWORK = "mplc-external-network"
    PRIVATE_NETWORK = "mplc-private-network"
    PRIVATE_SUBNET = "mplc-private-subnet"
    NEUTRON_EXTENSIONS = (("security-group", "security-group"), ("router", "Neutron L3 Router"),
                          ("allowed-address-pairs", "Allowed Address Pairs"))

    def __init__(self, executor):
        self.executor = executor
        self.cidrs = {}

    def get_default_router(self):
        return self.ROUTER

    def get_available_cidr(self, router_id: str | None, net_id: str | None, ip_version=4):
        """Any ip_version, as the reference's untyped parameter: only 6 is an IPv6 range."""
        index = self.cidrs.setdefault(net_id, len(self.cidrs))
        return f"fd00:{index:x}::/64" if ip_version == 6 else f"10.0.{index}.0/24"

    def get_default_dns(self, ip_version=4):
        return []

    def get_external_network_id_for_router(self, router_id: str | None):
        return self.EXTERNAL_NETWORK

    def get_external_network_id_for_network(self, network_id: str | None):
        return self.EXTERNAL_NETWORK

    def _stack_resources(self, kind):
        for stack_name, stack in records(self.executor)["stacks"].items():
            if stack.get("deleted"):
                continue
            for name, resource in ((stack.get("template") or {}).get("resources") or {}).items():
                if isinstance(resource, dict) and resource.get("type") == kind:
                    yield stack_name, name, resource.get("properties") or {}

    def list_networks(self):
        networks = [
            {"id": self.PRIVATE_NETWORK, "name": "private", "router:external": False,
             "tenant_id": PROJECT_ID, "status": "ACTIVE"},
            {"id": self.EXTERNAL_NETWORK, "name": "public", "router:external": True,
             "tenant_id": fake_id("keystone", "admin"), "status": "ACTIVE"}]
        for stack_name, name, properties in self._stack_resources("OS::Neutron::Net"):
            networks.append({"id": fake_id(stack_name, name), "name": properties.get("name", name),
                             "router:external": False, "tenant_id": PROJECT_ID, "status": "ACTIVE"})
        return networks

    def list_subnetworks(self):
        subnets = [{"id": self.PRIVATE_SUBNET, "name": "private-subnet", "network_id": self.PRIVATE_NETWORK,
                    "cidr": "10.254.0.0/24", "gateway_ip": "10.254.0.1", "ip_version": 4,
                    "dns_nameservers": [], "tenant_id": PROJECT_ID}]
        for stack_name, name, properties in self._stack_resources("OS::Neutron::Subnet"):
            network = properties.get("network")
            network_id = fake_id(stack_name, network["get_resource"]) \
                if isinstance(network, dict) and "get_resource" in network else network
            cidr = properties.get("cidr")
            gateway = cidr.split("/")[0].rsplit(".", 1)[0] + ".1" if isinstance(cidr, str) and "." in cidr else None
            subnets.append({"id": fake_id(stack_name, name), "name": name, "network_id": network_id,
                            "cidr": cidr, "gateway_ip": gateway, "ip_version": properties.get("ip_version", 4),
                            "dns_nameservers": properties.get("dns_nameservers") or [],
                            "tenant_id": PROJECT_ID})
        return subnets

    def list_ports(self):
        return [
            {"id": fake_id("port", "router-private"), "network_id": self.PRIVATE_NETWORK,
             "device_id": self.ROUTER, "device_owner": "network:router_interface"},
            {"id": fake_id("port", "router-public"), "network_id": self.EXTERNAL_NETWORK,
             "device_id": self.ROUTER, "device_owner": "network:router_gateway"}]

    def list_neutron_extensions(self):
        return [{"alias": alias, "name": name} for alias, name in self.NEUTRON_EXTENSIONS]
