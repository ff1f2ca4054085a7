#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check" of vport-stt's type check: "tests/packaging/check types" on
# this build tree, against the kernel it was configured for.  Skipped when
# its layout was not read from BTF, the only source of types: configured
# without a kernel, against one without Open vSwitch, or against a full
# kernel source tree.
#
# Run from the build directory ("make check"); srcdir from the environment.

layout=datapath/linux/ovs-layout.h
if ! grep -q '^#define STT_OVS_LAYOUT_TYPES ' "$layout" 2> /dev/null; then
	echo "SKIP: $layout was not read from BTF (no kernel, no Open vSwitch, or a source tree)"
	exit 77
fi
exec "${srcdir:-$(dirname "$0")/../..}/tests/packaging/check" types "$(pwd)"
