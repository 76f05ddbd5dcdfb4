"""``mplc model --environment``: the application inside an io.murano.Environment, as the
dashboard's environment holds it when deployed (ready for ``mplc run``)."""

from __future__ import annotations

import copy

from mplc.forms.cloud import Cloud
from mplc.forms.expressions import Randomness

ENVIRONMENT_TYPE = "io.murano.Environment"
NETWORK_TYPE = "io.murano.resources.NeutronNetwork"


def environment_document(application: dict, cloud: Cloud, randomness: Randomness) -> dict:
    """The cloud's environment (its id and name, the applications already in it) with the new
    application added, and the environment network the dashboard creates environments with."""
    environment = cloud.environment
    name = environment.get("name") or "quick-env-1"
    environment_id = environment.get("id") or randomness.object_id().replace("-", "")
    return {
        "?": {"id": environment_id, "type": ENVIRONMENT_TYPE, "name": name},
        "name": name,
        "applications": copy.deepcopy(cloud.services) + [application],
        "defaultNetworks": {
            "environment": {
                "?": {"id": randomness.object_id().replace("-", ""), "type": NETWORK_TYPE},
                "name": f"{name}-network",
            },
            "flat": None,
        },
    }
