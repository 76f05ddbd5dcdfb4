#!/bin/sh
# Moves the plan's destinationFile (a link the agent made) to the path given as $1.
mv "$(readlink destinationFile)" "$1"
