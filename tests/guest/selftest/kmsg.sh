#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: a scenario that exits 0 but leaves a warning-like line in the
# kernel log must fail.

set -eu
echo "<4>rig self-test: WARNING: planted in the kernel log" > /dev/kmsg
