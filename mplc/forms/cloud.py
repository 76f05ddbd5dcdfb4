"""The simulated cloud the dashboard's fields take their choices from (``--cloud CLOUD.json``).

CLOUD.json holds what the dashboard would get from OpenStack's APIs, with the fields those APIs
return: ``flavors`` (id, name, vcpus, ram, disk), ``keypairs`` (name), ``availability_zones``
(zoneName, zoneState.available), ``images`` (id, name, status, murano_image_info with title
and type), ``networks`` (id, name, subnets with id, cidr, name; external), ``security_groups``
(names), ``volumes`` and ``volume_snapshots`` (id, name), ``zones`` (name), ``environment`` (id,
name, services: object models of applications already in it), and ``region``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field

DEFAULT_REGION = "RegionOne"

DEFAULT_CLOUD = {
    "region": DEFAULT_REGION,
    "flavors": [
        {"id": "1", "name": "m1.tiny", "vcpus": 1, "ram": 512, "disk": 1},
        {"id": "2", "name": "m1.small", "vcpus": 1, "ram": 2048, "disk": 20},
        {"id": "3", "name": "m1.medium", "vcpus": 2, "ram": 4096, "disk": 40},
        {"id": "4", "name": "m1.large", "vcpus": 4, "ram": 8192, "disk": 80},
    ],
    "keypairs": [{"name": "default"}],
    "availability_zones": [{"zoneName": "nova", "zoneState": {"available": True}}],
    "images": [
        {"id": "c1a2b3d4-0000-4000-8000-000000000001", "name": "ubuntu-22.04", "status": "active",
         "murano_image_info": {"title": "Ubuntu 22.04", "type": "linux"}},
        {"id": "c1a2b3d4-0000-4000-8000-000000000002", "name": "windows-2019", "status": "active",
         "murano_image_info": {"title": "Windows Server 2019", "type": "windows.2019"}},
    ],
    "networks": [
        {"id": "a0e1b2c3-0000-4000-8000-000000000001", "name": "private", "external": False,
         "subnets": [{"id": "a0e1b2c3-0000-4000-8000-000000000002", "cidr": "10.0.0.0/24",
                      "name": "private-subnet"}]},
        {"id": "a0e1b2c3-0000-4000-8000-000000000003", "name": "public", "external": True,
         "subnets": [{"id": "a0e1b2c3-0000-4000-8000-000000000004", "cidr": "172.24.4.0/24",
                      "name": "public-subnet"}]},
    ],
    "security_groups": ["default"],
    "volumes": [],
    "volume_snapshots": [],
    "zones": [],
    "environment": {"id": "6f1e2d3c4b5a49788796a5b4c3d2e1f0", "name": "quick-env-1",
                    "services": []},
}

_LIST_KEYS = ("flavors", "keypairs", "availability_zones", "images", "networks",
              "security_groups", "volumes", "volume_snapshots", "zones")


class CloudError(ValueError):
    """CLOUD.json is not what the fields need; the message says where."""


@dataclass
class Cloud:
    flavors: list = field(default_factory=list)
    keypairs: list = field(default_factory=list)
    availability_zones: list = field(default_factory=list)
    images: list = field(default_factory=list)
    networks: list = field(default_factory=list)
    security_groups: list = field(default_factory=list)
    volumes: list = field(default_factory=list)
    volume_snapshots: list = field(default_factory=list)
    zones: list = field(default_factory=list)
    environment: dict = field(default_factory=dict)
    region: str = DEFAULT_REGION

    @classmethod
    def default(cls) -> "Cloud":
        return cls.from_data(copy.deepcopy(DEFAULT_CLOUD))

    @classmethod
    def from_data(cls, data) -> "Cloud":
        if not isinstance(data, dict):
            raise CloudError("a cloud is a JSON object (flavors, keypairs, images, ...)")
        unknown = sorted(set(data) - set(_LIST_KEYS) - {"environment", "region"})
        if unknown:
            raise CloudError(f"unknown cloud key(s) {', '.join(map(repr, unknown))}; known: "
                             f"{', '.join(_LIST_KEYS + ('environment', 'region'))}")
        lists = {}
        for key in _LIST_KEYS:
            value = data.get(key, [])
            if not isinstance(value, list):
                raise CloudError(f"cloud {key} must be a list")
            lists[key] = [_checked_item(key, index, item) for index, item in enumerate(value)]
        environment = data.get("environment") or {}
        if not isinstance(environment, dict):
            raise CloudError("cloud environment must be an object (id, name, services)")
        services = environment.get("services", [])
        if not isinstance(services, list) or not all(isinstance(service, dict)
                                                     for service in services):
            raise CloudError("cloud environment services must be a list of object models")
        region = data.get("region", DEFAULT_REGION)
        if not isinstance(region, str):
            raise CloudError("cloud region must be a string")
        return cls(environment=environment, region=region, **lists)

    @classmethod
    def from_file(cls, path: str) -> "Cloud":
        with open(path, "rb") as handle:
            try:
                data = json.loads(handle.read().decode("utf-8-sig"))
            except (UnicodeDecodeError, ValueError) as error:
                raise CloudError(f"{path}: not JSON: {error}") from None
        try:
            return cls.from_data(data)
        except CloudError as error:
            raise CloudError(f"{path}: {error}") from None

    # -- what the fields read -----------------------------------------------------------

    @property
    def environment_names(self) -> list[str]:
        name = self.environment.get("name")
        return [name] if isinstance(name, str) else []

    @property
    def services(self) -> list[dict]:
        return list(self.environment.get("services", []))

    def image_info(self, image: dict):
        """An image's murano_image_info as a mapping (glance keeps it as JSON text), or None
        when it has none or it is no valid JSON (the dashboard skips such images)."""
        info = image.get("murano_image_info")
        if isinstance(info, str):
            try:
                info = json.loads(info)
            except ValueError:
                return None
        return info if isinstance(info, dict) and info else None


_REQUIRED = {"flavors": ("id", "name"), "keypairs": ("name",), "availability_zones": ("zoneName",),
             "images": ("id", "name"), "networks": ("id", "name"), "volumes": ("id", "name"),
             "volume_snapshots": ("id", "name"), "zones": ("name",)}


def _checked_item(key: str, index: int, item):
    if key == "security_groups" and isinstance(item, str):
        return {"name": item}
    if key == "keypairs" and isinstance(item, str):
        return {"name": item}
    if not isinstance(item, dict):
        raise CloudError(f"cloud {key}[{index}] must be an object")
    for name in _REQUIRED.get(key, ()):
        if name not in item:
            raise CloudError(f"cloud {key}[{index}] has no {name!r}")
    if key == "flavors":
        for name in ("vcpus", "ram", "disk"):
            if not isinstance(item.get(name, 0), (int, float)) or isinstance(item.get(name), bool):
                raise CloudError(f"cloud flavors[{index}].{name} must be a number")
    if key == "networks":
        subnets = item.get("subnets", [])
        if not isinstance(subnets, list) or not all(isinstance(subnet, dict) and "id" in subnet
                                                    for subnet in subnets):
            raise CloudError(f"cloud networks[{index}].subnets must be a list of objects with id")
    return item
