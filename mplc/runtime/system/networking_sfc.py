"""The networking-sfc Murano plugin's native class, ``networking_sfc.NetworkingSfcClient``
(``io.murano.extensions.networking_sfc.NetworkingSfcClient`` in MuranoPL), against a simulated
Neutron networking-sfc API.

``plugin_package()`` is the package the reference's plugin loader makes of the installed
distribution, which the plugin's MuranoPL library requires: named after the distribution
(``murano-plugin-networking-sfc``, a name no package source may have), version 0.0.0 (the loader
gives plugin packages none), the class named as the entry point. The Runtime loads it with every
run's packages, as if the plugin were installed.

As the plugin does, each of the four resources (port_chain, port_pair, port_pair_group,
flow_classifier) has ``create<Name>(**properties)`` (the created resource), ``list<Names>()``
(Neutron's whole answer, ``{names: [...]}``), ``show<Name>(id)`` (``{name: resource}``),
``update<Name>(id, **properties)`` (the updated resource) and ``delete<Name>(id)`` (null).

Simulated: the resources created during the run are held in ``records(executor)["networkingSfc"]``
(plural name -> list) and every call is recorded in ``["networkingSfcCalls"]`` as
``{"call": python name, "args": [request]}``. A created resource is its request's properties plus
``id`` (``fake_id("networking-sfc", name, n)`` for the run's n-th of that resource),
``tenant_id`` and ``project_id`` (the simulated project). Showing or updating an id the
simulated Neutron does not hold fails with the plugin's NotFound; deleting one succeeds (the
resources of an earlier run are not carried over: docs/fidelity.md).
"""

from __future__ import annotations

import copy

from mplc.runtime.errors import MuranoError
from mplc.runtime.natives import native
from mplc.runtime.specs import ClassSpec, PackageSpec
from mplc.runtime.system.cloud import PROJECT_ID, fake_id, records, thaw

RESOURCES = ("port_chain", "port_pair", "port_pair_group", "flow_classifier")
PLUGIN_PACKAGE = "murano-plugin-networking-sfc"
CLIENT_CLASS = "networking_sfc.NetworkingSfcClient"


class NotFound(MuranoError):
    """Neutron answered 404; MuranoPL catches it by the plugin's name."""

    @property
    def qualified_name(self) -> str:
        return "murano_plugin_networking_sfc.error.NotFound"


class _Neutron:
    """The simulated networking-sfc part of Neutron for one run."""

    def __init__(self, executor):
        cloud = records(executor)
        self.calls = cloud.setdefault("networkingSfcCalls", [])
        self.store = cloud.setdefault("networkingSfc", {})

    def call(self, action: str, name: str, *args):
        plural = name + "s"
        store = self.store.setdefault(plural, [])
        self.calls.append({"call": f"{action}_{plural if action == 'list' else name}",
                           "args": copy.deepcopy(list(args))})
        if action == "list":
            return {plural: copy.deepcopy(store)}
        if action == "create":
            created = sum(1 for c in self.calls if c["call"] == "create_" + name)
            resource = copy.deepcopy(args[0][name])
            resource.update(id=fake_id("networking-sfc", name, created), tenant_id=PROJECT_ID,
                            project_id=PROJECT_ID)
            store.append(resource)
            return {name: copy.deepcopy(resource)}
        id_ = args[0][name].get("id") if action == "update" else args[0]
        found = [resource for resource in store if resource["id"] == id_]
        if not found:
            if action == "delete":
                return None
            raise NotFound(f"{name} {id_} could not be found.")
        if action == "show":
            return {name: copy.deepcopy(found[0])}
        if action == "delete":
            store.remove(found[0])
            return None
        found[0].update(copy.deepcopy({k: v for k, v in args[0][name].items() if k != "id"}))
        return {name: copy.deepcopy(found[0])}


def _resource_methods(name: str) -> dict:
    """The plugin's five wrappers of one resource, named as its client names them."""

    def create(self, **kwargs):
        return self._neutron().call("create", name, {name: thaw(kwargs)})[name]

    def list_(self):
        return self._neutron().call("list", name)

    def show(self, id_):
        return self._neutron().call("show", name, thaw(id_))

    def update(self, id_, **kwargs):
        kwargs = thaw(kwargs)
        kwargs["id"] = thaw(id_)
        return self._neutron().call("update", name, {name: kwargs})[name]

    def delete(self, id_):
        return self._neutron().call("delete", name, thaw(id_))

    methods = {f"create_{name}": create, f"list_{name}s": list_, f"show_{name}": show,
               f"update_{name}": update, f"delete_{name}": delete}
    for python_name, function in methods.items():
        function.__name__ = function.__qualname__ = python_name
    return methods


class NetworkingSfcClient:
    def __init__(self, this, executor):
        self._executor = executor

    def _neutron(self) -> _Neutron:
        return _Neutron(self._executor)


for _name in RESOURCES:
    for _python_name, _function in _resource_methods(_name).items():
        setattr(NetworkingSfcClient, _python_name, _function)
native(CLIENT_CLASS)(NetworkingSfcClient)


def plugin_package() -> PackageSpec:
    """The plugin's package, as the reference registers an installed plugin distribution."""
    return PackageSpec(PLUGIN_PACKAGE, "0.0.0", "MuranoPL/1.0", "Library",
                       classes={CLIENT_CLASS: ClassSpec(CLIENT_CLASS, source_file="<plugin>")})
