#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: a scenario exiting with status $1 must fail.

set -eu
echo "exiting with status $1"
exit "$1"
