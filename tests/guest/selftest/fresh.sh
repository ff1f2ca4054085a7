#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: after leftovers.sh in an earlier run of the same boot, the
# guest is as a fresh boot leaves it.

set -eu

# shellcheck source=check.sh
. "$(dirname "$0")/check.sh"

check test -z "$(pgrep -x sleep)"
check test -z "$(ip netns list)"
check test ! -e /sys/class/net/stt-left0
check test ! -d /sys/module/openvswitch
check test ! -d /sys/module/dummy
check sh -c '! grep -q stt-leftover /proc/self/mountinfo'
for path in /tmp/stt-leftover /var/log/stt-leftover /run/stt-leftover \
	/root/.stt-leftover; do
	check test ! -e "$path"
done
check test "$(hostname)" = stt-guest
check ip link show lo up
exit $status
