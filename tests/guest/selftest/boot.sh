#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: the guest is what scenarios are promised.

set -eu

# shellcheck source=check.sh
. "$(dirname "$0")/check.sh"

for dir in /tmp /run /var/log /var/lib/openvswitch /etc/openvswitch /root \
	"$STT_RESULTS"; do
	check touch "$dir/.rig-write-test"
	rm -f "$dir/.rig-write-test"
done
check test ! -w /usr/bin/bash
check test "$(hostname)" = stt-guest
check test "$(uname -r)" = "$STT_KVER"
check test "$(cat /proc/sys/kernel/panic_on_warn)" = 1
check test "$(cat /proc/sys/kernel/panic_on_oops)" = 1
# Memory debugging: slab debugging on distro kernels, KASAN and kmemleak on
# the debug kernel.
case $STT_KVER in
*-stt-debug)
	check sh -c 'dmesg | grep -q "KernelAddressSanitizer initialized"'
	check test -w /sys/kernel/debug/kmemleak ;;
*)
	check grep -q slub_debug=FZPU /proc/cmdline ;;
esac
check test -f "$STT_REPO/tests/guest/lib.sh"
check ip link show lo up
check ip netns add selftest
check ip netns del selftest
check modprobe openvswitch
check test -d /sys/module/openvswitch
echo "uptime $(cut -d' ' -f1 /proc/uptime) s"
exit $status
