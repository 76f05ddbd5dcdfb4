#!/bin/sh
echo "serving on port $1"
