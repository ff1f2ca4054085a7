#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check" of vport-stt on a kernel without legacy vport types:
# "tests/packaging/check legacy" on this build tree, against the kernel it
# was configured for with __ovs_vport_ops_register taken out of its
# Module.symvers.  Skipped without a kernel with Open vSwitch.
#
# Run from the build directory ("make check"); srcdir from the environment.

linux=$(sed -n 's/^LINUX_BUILD = //p' Makefile)
if [ -z "$linux" ] ||
   ! grep -q '^CONFIG_OPENVSWITCH=[ym]' "$linux/.config" 2> /dev/null ||
   [ ! -r "$linux/Module.symvers" ]; then
	echo "SKIP: no kernel with Open vSwitch and a Module.symvers configured"
	exit 77
fi
exec "${srcdir:-$(dirname "$0")/../..}/tests/packaging/check" legacy "$(pwd)"
