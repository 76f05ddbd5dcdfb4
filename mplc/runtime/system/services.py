"""Natives of io.murano classes backed by OpenStack services other than Heat and Neutron:
the workflow service (MistralClient), Glance metadata definitions (MetadefBrowser) and
Keystone (User, Project), answered by the simulated cloud.

Simulated: Mistral keeps the uploaded workflow definitions and records each run; a run of an
uploaded workflow succeeds at once with no outputs, one of an unknown workflow fails as Mistral
would. Glance holds no metadata definitions. Keystone knows one local user and project, which
are also the environment's owner.
"""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from mplc.runtime import errors
from mplc.runtime.objects import MuranoObject
from mplc.runtime.natives import native
from mplc.runtime.system.cloud import PROJECT_ID, fake_id, records, thaw

LOCAL_DOMAIN = "Default"
LOCAL_USER = {"id": fake_id("keystone", "user"), "name": "mplc", "domain": LOCAL_DOMAIN,
              "email": None, "extra": {}}
LOCAL_PROJECT = {"id": PROJECT_ID, "name": "mplc", "domain": LOCAL_DOMAIN,
                 "description": None, "extra": {}}


class MistralError(errors.MuranoError):
    """A failed or unknown workflow execution, named inside MuranoPL as the reference's."""

    @property
    def qualified_name(self) -> str:
        return "murano.engine.system.workflowclient.MistralError"


@native("io.murano.system.MistralClient")
class MistralClient:
    def __init__(self, executor, region_name: str | None = None):
        self.executor = executor
        self.region_name = region_name

    def _workflows(self) -> dict:
        return records(self.executor).setdefault("workflows", {})

    def upload(self, definition: str):
        """Keep the workflows of a Mistral DSL document under their names (its top-level keys
        other than ``version``; the whole text when it is not a mapping)."""
        try:
            parsed = yaml.safe_load(definition)
        except yaml.YAMLError as error:
            raise MistralError(f"Invalid workflow definition: {error}") from None
        names = [name for name in parsed if name != "version"] if isinstance(parsed, dict) else []
        for name in names or [definition]:
            self._workflows()[str(name)] = definition

    def run(self, name: str, timeout: int = 600, inputs: Mapping | None = None,
            params: Mapping | None = None):
        execution_id = fake_id("mistral", name, len(records(self.executor).setdefault("executions", [])))
        records(self.executor)["executions"].append(
            {"id": execution_id, "workflow": name, "inputs": thaw(inputs), "params": thaw(params)})
        if timeout == 0:
            return execution_id
        if name not in self._workflows():
            raise MistralError(
                f"Mistral execution completed with ERROR. Execution id: {execution_id}. "
                f"Output: Workflow not found [workflow_identifier={name}]")
        return {}


@native("io.murano.system.MetadefBrowser")
class MetadefBrowser:
    def __init__(self, region_name: str | None = None, cache: bool = True):
        self.region_name = region_name
        self.cache = cache

    def get_namespaces(self, resource_type: str):
        return []

    def get_objects(self, namespace: str):
        return []


def _keystone_object(executor, class_name, fields):
    murano_type = executor.find_class(class_name)
    return executor.load_object({murano_type.reference: dict(fields)}, None)


@native("io.murano.User")
class User:
    @staticmethod
    def get_current(executor) -> MuranoObject:
        return _keystone_object(executor, "io.murano.User", LOCAL_USER)

    @staticmethod
    def get_environment_owner(executor) -> MuranoObject:
        return _keystone_object(executor, "io.murano.User", LOCAL_USER)


@native("io.murano.Project")
class Project:
    @staticmethod
    def get_current(executor) -> MuranoObject:
        return _keystone_object(executor, "io.murano.Project", LOCAL_PROJECT)

    @staticmethod
    def get_environment_owner(executor) -> MuranoObject:
        return _keystone_object(executor, "io.murano.Project", LOCAL_PROJECT)
