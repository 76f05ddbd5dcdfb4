#!/bin/bash
. ./common.sh
install_package postgresql
sudo -u postgres createdb --port "$2" "$1"
echo '{"version": "9.6"}'
