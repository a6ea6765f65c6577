#!/bin/sh
# Stands in for ptxas: reports its arguments as a fatal error and fails.
echo "ptxas fatal   : this ptxas always fails ($*)" >&2
exit 255
