#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: a kernel crash (panic, the guest stops at once) must fail.

set -eu
echo c > /proc/sysrq-trigger
