#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: modules given with --modules are installed in
# /lib/modules/KVER/extra and preferred by modprobe.  Usage: modules.sh NAME

set -eu
name=$1
extra=/lib/modules/$STT_KVER/extra
test -f "$extra/$name.ko"
grep "^extra/$name.ko:" "/lib/modules/$STT_KVER/modules.dep"
test "$(modinfo -n "$name")" = "$extra/$name.ko"
modprobe "$name"
test -d "/sys/module/$name"
modprobe -r "$name"
echo "ok: $name loaded from $extra"
