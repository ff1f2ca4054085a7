#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: a scenario that never ends must fail by the rig's timeout.

set -eu
while :; do
	sleep 10
done
