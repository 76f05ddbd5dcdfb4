#!/bin/sh
# Writes the Murano agent's configuration and starts the agent.
mkdir -p /etc/murano/certs
echo "%AGENT_CONFIG_BASE64%" | base64 -d > /etc/murano/agent.conf
echo "%CA_ROOT_CERT_BASE64%" | base64 -d > /etc/murano/certs/ca_certs
hostname "%INTERNAL_HOSTNAME%"
echo "murano server: %MURANO_SERVER_ADDRESS%"
systemctl restart murano-agent || service murano-agent restart
