#!/bin/bash
install_package apache2 libapache2-mod-wsgi
mkdir -p "/var/www/$1"
