"""Natives of services other than Heat (Mistral, Glance metadata definitions, Keystone) and
deployments through the simulated Neutron: each test runs a small MuranoPL package on the
bundled core library."""

import textwrap

import pytest
import yaml

import mplc
from mplc.runtime.errors import MuranoError
from mplc.runtime.system import cloud, services

TEST_CLASS = """
Namespaces:
  =: tests.services
  std: io.murano
  res: io.murano.resources
  sys: io.murano.system
Name: Test
Properties:
  env:
    Contract: $.class(std:Environment)
Methods:
"""


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cache"))


def run(tmp_path, cache_dir, methods, model_extra=None):
    """Run Test.run with these MuranoPL methods; returns (runtime, rendered result)."""
    package = tmp_path / "package"
    (package / "Classes").mkdir(parents=True)
    (package / "Classes" / "Test.yaml").write_text(TEST_CLASS + textwrap.indent(textwrap.dedent(methods), "  "))
    (package / "manifest.yaml").write_text(yaml.safe_dump({
        "Format": "1.4", "Type": "Library", "FullName": "tests.services",
        "Classes": {"tests.services.Test": "Test.yaml"}}))
    runtime = mplc.Runtime([str(package)], cache_dir=cache_dir)
    model = {"?": {"id": "root", "type": "tests.services.Test"}, **(model_extra or {})}
    root = runtime.load(model)
    return runtime, runtime.render(runtime.call(root, "run"))


ENVIRONMENT = {"env": {"?": {"id": "env", "type": "io.murano.Environment"}, "name": "e1",
                       "defaultNetworks": {"environment": {
                           "?": {"id": "net", "type": "io.murano.resources.NeutronNetwork"},
                           "name": "lan"}}}}


def test_mistral_runs_uploaded_workflows_and_fails_unknown_ones(tmp_path, cache_dir):
    runtime, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $client: new(sys:MistralClient, regionName => north)
            - $definition: |
                version: '2.0'
                hello:
                  tasks: {}
            - $client.upload($definition)
            - $quick: $client.run(unknown, timeout => 0)
            - $ran: $client.run(hello, inputs => {a => 1})
            - Try:
                - $client.run(unknown)
              Catch:
                - With: murano.engine.system.workflowclient.MistralError
                  As: e
                  Do:
                    - $error: $e.message
            - Return: [$quick, $ran, $error]
        """)
    quick, ran, error = result
    assert len(quick) == 32 and ran == {}
    assert error.startswith("Mistral execution completed with ERROR") and "unknown" in error
    recorded = cloud.records(runtime.executor)
    assert list(recorded["workflows"]) == ["hello"]
    assert [e["workflow"] for e in recorded["executions"]] == ["unknown", "hello", "unknown"]
    assert recorded["executions"][1]["inputs"] == {"a": 1}


def test_metadef_browser_knows_no_definitions_so_owner_metadata_does_not_apply(tmp_path, cache_dir):
    _, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $region: $.env.regions['']
            - $browser: new(sys:MetadefBrowser, $region)
            - $volume: new(res:CinderVolume, $.env, size => 1)
            - Return:
                namespaces: $browser.getNamespaces('OS::Nova::Server')
                objects: $browser.getObjects(any)
                applies: $browser.canBeAppliedTo(tag, 'OS::Cinder::Volume')
                metadata: $volume.getMetadata($region)
                cached: $volume.getMetadefBrowser($region) = $volume.getMetadefBrowser($region)
        """, {"env": {"?": {"id": "env", "type": "io.murano.Environment", "metadata": {"k": "v"}},
                      "name": "e1"}})
    assert result == {"namespaces": [], "objects": [], "applies": False, "metadata": {},
                      "cached": True}


def test_keystone_user_and_project_are_the_local_ones(tmp_path, cache_dir):
    _, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $user: std:User.getCurrent()
            - $project: std:Project.getCurrent()
            - Return:
                user: [$user.id, $user.name, $user.domain, $user.email, $user.extra]
                project: [$project.id, $project.name, $project.domain, $project.description]
                owners: [std:User.getEnvironmentOwner().id, std:Project.getEnvironmentOwner().id]
        """)
    assert result["user"] == [services.LOCAL_USER["id"], "mplc", "Default", None, {}]
    assert result["project"] == [cloud.PROJECT_ID, "mplc", "Default", None]
    assert result["owners"] == [services.LOCAL_USER["id"], cloud.PROJECT_ID]


def test_neutron_environment_deploys_network_shared_ip_and_instance(tmp_path, cache_dir):
    runtime, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $shared: new(std:SharedIp, $.env, assignFloatingIp => true)
            - $vm: new(res:LinuxInstance, $.env, name => vm1, flavor => small, image => cirros,
                       assignFloatingIp => true, sharedIps => [$shared])
            - $vm.deploy()
            - Return:
                ips: $vm.ipAddresses
                floating: $vm.floatingIpAddress
                joined: $vm.joinedNetworks.select($.ipList)
                openstackId: $vm.openstackId != null
                virtualIp: $shared.virtualIp
                deployed: $vm.isDeployed()
        """, ENVIRONMENT)
    assert result["ips"][-1] == result["floating"] and result["floating"].startswith("172.24.4.")
    assert result["joined"] == [result["ips"][:1]]
    assert result["openstackId"] and result["deployed"]
    (stack,) = cloud.records(runtime.executor)["stacks"].values()
    resources = stack["template"]["resources"]

    def named(prefix, suffix=""):
        (name,) = [n for n in resources if n.startswith(prefix) and n.endswith(suffix)]
        return name

    network_id = named("network-")[len("network-"):]
    port = resources[named("port-", "-vm1")]["properties"]
    assert named("port-", "-vm1") == f"port-{network_id}-vm1"
    assert port["network"] == {"get_resource": f"network-{network_id}"}
    assert port["fixed_ips"] == [{"subnet": {"get_resource": f"subnet-{network_id}"}}]
    assert port["allowed_address_pairs"] == [{"ip_address": result["virtualIp"] + "/32"}]
    assert resources[f"fip-{network_id}-vm1"]["properties"]["floating_network"] == \
        cloud.NetworkExplorer.EXTERNAL_NETWORK
    assert resources["vm1"]["properties"]["networks"] == [{"port": {"get_resource": f"port-{network_id}-vm1"}}]
    group = next(r for r in resources.values() if r["type"] == "OS::Neutron::SecurityGroup")
    # the rules contract fills the missing Ethertype with null, which .get() then returns
    assert {"port_range_min": 22, "port_range_max": 22, "protocol": "tcp", "ethertype": None,
            "remote_ip_prefix": "0.0.0.0/0", "direction": "ingress"} in group["properties"]["rules"]
    shared_port = resources[named("AllowedAddressPairsPort-")]
    assert shared_port["properties"]["network_id"] == cloud.fake_id(
        next(iter(cloud.records(runtime.executor)["stacks"])), f"network-{network_id}")


def test_existing_neutron_network_finds_the_private_network_and_its_uplink(tmp_path, cache_dir):
    _, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $net: new(res:ExistingNeutronNetwork, $.env)
            - Return: $net.describe()
        """, {"env": {"?": {"id": "env", "type": "io.murano.Environment"}, "name": "e1"}})
    assert result == {"provider": "Neutron", "netId": cloud.NetworkExplorer.PRIVATE_NETWORK,
                      "netName": "private", "subnetId": cloud.NetworkExplorer.PRIVATE_SUBNET,
                      "cidr": "10.254.0.0/24", "dns": [], "gateway": "10.254.0.1",
                      "floatingIpNetId": cloud.NetworkExplorer.EXTERNAL_NETWORK}


def test_instance_release_removes_its_resources_and_untracks(tmp_path, cache_dir):
    runtime, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $vm: new(res:LinuxMuranoInstance, $.env, name => vm1, flavor => small, image => cirros)
            - $vm.deploy()
            - $vm.beginReleaseResources()
            - Return: $.env.stack.current().resources.keys().where($.startsWith('port-') or $ = vm1)
        """, ENVIRONMENT)
    assert result == []
    events = [n["event"] for n in cloud.records(runtime.executor)["notifications"]]
    assert events == ["trackCloudInstance", "untrackCloudInstance"]


def test_instance_release_fails_at_its_push_as_in_the_reference(tmp_path, cache_dir):
    """endReleaseResources pushes with ``push(async => true)``; the reference's parameter is
    ``is_async``, so the keyword is refused there (muted when destruction releases)."""
    with pytest.raises(MuranoError, match=r"Invalid argument \*\*"):
        run(tmp_path, cache_dir, """
            run:
              Body:
                - $vm: new(res:LinuxMuranoInstance, $.env, name => vm1, flavor => small, image => cirros)
                - $vm.deploy()
                - $vm.releaseResources()
            """, ENVIRONMENT)


def test_instance_without_environment_fails_to_initialize(tmp_path, cache_dir):
    with pytest.raises(MuranoError):
        run(tmp_path, cache_dir, """
            run:
              Body:
                - new(res:LinuxInstance, name => vm1, flavor => small, image => cirros)
            """)


def test_heat_software_configs_join_the_instance_template(tmp_path, cache_dir):
    """Quoted in mplc's library, so these work (the reference's fail: docs/fidelity.md)."""
    _, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $vm: new(res:HeatSWConfigLinuxInstance, $.env, name => vm1, flavor => small, image => cirros)
            - $vm.addSoftwareConfig(setup, 'echo hi', inputValues => {a => 1})
            - $vm.addStructuredConfig(conf, {key => value}, signalTransport => HEAT_SIGNAL)
            - Return: $vm.prepareStackTemplate({}).resources
        """, ENVIRONMENT)
    assert result["vm1-setup"] == {"type": "OS::Heat::SoftwareConfig",
                                   "properties": {"group": "Heat::Ungrouped", "config": "echo hi"}}
    assert result["vm1-conf"]["type"] == "OS::Heat::StructuredConfig"
    assert result["vm1-conf"]["properties"]["config"] == {
        "key": "value", "completion-signal": {"get_input": "deploy_signal_id"}}
    assert result["vm1-conf-deployment"]["properties"] == {
        "config": {"get_resource": "vm1-conf"}, "server": {"get_resource": "vm1"},
        "signal_transport": "HEAT_SIGNAL", "input_values": {}}


@pytest.mark.parametrize("ip_version, cidr", [
    (4, "10.0.0.0/24"), (None, "10.0.0.0/24"), (5, "10.0.0.0/24"), (6, "fd00:0::/64")])
def test_neutron_network_of_any_ip_version_gets_a_subnet(tmp_path, cache_dir, ip_version, cidr):
    """The reference's NetworkExplorer takes any ip version (its Python parameters have no
    types): only 6 picks an IPv6 range, so a NeutronNetwork with ipVersion null deploys."""
    _, result = run(tmp_path, cache_dir, """
        run:
          Body:
            - $network: $.env.regions[''].defaultNetworks.environment
            - $network.deploy()
            - Return: $network.subnetCidr
        """, {"env": {**ENVIRONMENT["env"], "defaultNetworks": {"environment": {
            **ENVIRONMENT["env"]["defaultNetworks"]["environment"], "ipVersion": ip_version}}}})
    assert result == cidr


def test_reports_and_log_arguments_as_the_reference_natives_get_them(tmp_path, cache_dir):
    """StatusReporter takes a message of any type (the reference's parameter is untyped), and a
    Logger formats a list argument as the list the reference's native gets, not a tuple."""
    runtime, _ = run(tmp_path, cache_dir, """
        run:
          Body:
            - $.env.reporter.report($this, 5)
            - $.env.reporter.reportError($this, [a, b])
            - logger('probe').info('b {0}', [1, 2])
        """, {"env": {"?": {"id": "env", "type": "io.murano.Environment"}, "name": "e1"}})
    records = cloud.records(runtime.executor)
    assert [(r["level"], r["text"]) for r in records["reports"]] == [("info", 5), ("error", ("a", "b"))]
    assert records["log"] == [{"logger": "probe", "level": "INFO", "message": "b [1, 2]"}]
