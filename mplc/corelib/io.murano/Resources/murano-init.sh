#!/bin/sh
# Installs the Murano agent when the image has none.
if ! command -v muranoagent >/dev/null 2>&1; then
  pip install "%PIP_SOURCE%"
  mkdir -p /etc/murano /etc/init.d
  echo "%MURANO_AGENT_CONF%" | base64 -d > /etc/murano/logging.conf
  echo "%MURANO_AGENT_SERVICE%" | base64 -d > /etc/systemd/system/murano-agent.service
  echo "%MURANO_AGENT%" | base64 -d > /etc/init.d/murano-agent
  chmod +x /etc/init.d/murano-agent
fi
