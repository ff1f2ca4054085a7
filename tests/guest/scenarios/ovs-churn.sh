#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Port churn under traffic, then a clean unload: with vm1 pinging vm2 every
# 50 ms, host1's stt port is deleted and added again 50 times (10 on the
# debug kernel; each ovs-vsctl call waits until ovs-vswitchd has applied it,
# so the kernel vport and its stt_sys_7471 device really go and come back
# every cycle).  Then host1's stt_sys_7471 is deleted with "ip link del"
# five times (twice on the debug kernel; the port taken out and in again
# after each), and host2's namespace is deleted with its datapath and stt
# port still in it.  Traffic must flow again afterwards; once Open vSwitch
# has removed its datapaths, vport_stt and stt must unload while openvswitch
# stays, and no stt device may be left in any namespace.  Open vSwitch 4.0
# with ovs-glue's series (the Debian 14 lane) makes its ports as stt devices
# over rtnetlink, so there it is stt alone, and vport_stt must never load.
#
#	ovs-churn.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: ovs_churn
#   On the Debian 14 lane too, with Open vSwitch 4.0's stt devices.
#   timeout: 900
#   lanes: 7.2-deb14-ovs40
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

CYCLES=50 LINK_DELS=5
# The debug kernel looks for leaks and lock-order or RCU misuse, which the
# first cycles show as well as the fiftieth, at three times the cost each.
case $STT_KVER in *-stt-debug) CYCLES=10 LINK_DELS=2 ;; esac
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: ovs-churn.sh [ipv4|ipv6]"

# stt_devices: every stt device in the initial and the scenario's namespaces,
# one "namespace: device" a line.
stt_devices() {
	local ns
	ip -o link show | awk -F': ' '$2 ~ /^stt/ { print "init: " $2 }'
	ip -o link show type stt | awk -F': ' '{ print "init: " $2 " (type stt)" }'
	for ns in "${NAMESPACES[@]}"; do
		ip -n "$ns" -o link show | awk -v ns="$ns" -F': ' \
			'$2 ~ /^stt/ { print ns ": " $2 }'
		ip -n "$ns" -o link show type stt | awk -v ns="$ns" -F': ' \
			'{ print ns ": " $2 " (type stt)" }'
	done
}

# stt_port_gone HOST: HOST's datapath has no stt port.
stt_port_gone() {
	! dp_ports "$1" | contains -x "$STT_DEV"
}

stt_two_hosts
ping_sizes vm1 10.0.0.2 1

log "+ [vm1] ping -i 0.05 10.0.0.2 &"
background "$WORK/ping.log" ip netns exec vm1 "${PING[@]}" -i 0.05 10.0.0.2
pinger=$BG_PID

# ovs-vsctl is only a client of host1's database: talk to its socket straight
# from here, without entering host1's namespace, to keep each cycle lean.
db=unix:$(ovs_dir host1)/db.sock
ifindex() { ip -n host1 -o link show "$STT_DEV" | cut -d: -f1; }
first=$(ifindex)
log "+ [host1] $CYCLES x { ovs-vsctl del-port br0 tun0; ovs-vsctl add-port br0 tun0 -- set Interface tun0 type=stt options:remote_ip=$UL_B; }"
start=$SECONDS
for ((i = 1; i <= CYCLES; i++)); do
	ovs-vsctl --db="$db" --timeout="$WAIT_TIMEOUT" del-port br0 tun0 ||
		fail "[host1] cycle $i: ovs-vsctl del-port failed"
	ovs-vsctl --db="$db" --timeout="$WAIT_TIMEOUT" add-port br0 tun0 \
		-- set Interface tun0 type=stt options:remote_ip="$UL_B" ||
		fail "[host1] cycle $i: ovs-vsctl add-port failed"
	[ $((i % 20)) -ne 0 ] || log "cycle $i done"
done
log "$CYCLES del-port/add-port cycles in $((SECONDS - start)) s"

check_interface host1 tun0
dp_ports host1 | contains -x "$STT_DEV" || fail "[host1] $STT_DEV is not in the datapath"
# Each cycle made a new device, with a new interface index.
last=$(ifindex)
[ "$last" -ge $((first + CYCLES)) ] ||
	fail "[host1] $STT_DEV had ifindex $first before and $last after $CYCLES cycles"
log "[host1] $STT_DEV: ifindex $first before, $last after $CYCLES cycles"
ping_sizes vm1 10.0.0.2 1 1472
ping_sizes vm2 10.0.0.1 1

# The device deleted under Open vSwitch, as an operator's "ip link del"
# does: openvswitch.ko detaches the vport from its netdev notifier and reads
# the device's stats after NETDEV_UNREGISTER (freed memory once, with the
# debug kernel's KASAN to see it).  ovs-vswitchd keeps the port in its
# configuration; taking it out and in again brings the device back.
for ((i = 1; i <= LINK_DELS; i++)); do
	run ip -n host1 link del "$STT_DEV"
	wait_for stt_port_gone host1 ||
		fail "[host1] $STT_DEV stayed in the datapath after ip link del (cycle $i)"
	ovs-vsctl --db="$db" --timeout="$WAIT_TIMEOUT" del-port br0 tun0 ||
		fail "[host1] ovs-vsctl del-port failed after ip link del (cycle $i)"
	ovs-vsctl --db="$db" --timeout="$WAIT_TIMEOUT" add-port br0 tun0 \
		-- set Interface tun0 type=stt options:remote_ip="$UL_B" ||
		fail "[host1] ovs-vsctl add-port failed after ip link del (cycle $i)"
done
wait_for_ports
check_interface host1 tun0
ping_sizes vm1 10.0.0.2 1 1472

kill -INT "$pinger"
wait_background "$pinger" "$WORK/ping.log" || true
log "background ping: $(grep 'packets transmitted' "$WORK/ping.log")"

# A namespace going away with a datapath that holds an stt port:
# openvswitch.ko's and stt.ko's namespace exits both remove the device.
stop_vswitchd host2
dp_ports host2 | contains -x "$STT_DEV" ||
	fail "[host2] $STT_DEV left the datapath with ovs-vswitchd"
stop_host host2
del_ns host2

host_ovs host1 ovs-vsctl del-br br0
log "+ [host1] ovs-appctl -t ovs-vswitchd exit --cleanup; stop ovsdb-server"
stop_host host1
left=$(stt_devices)
[ -z "$left" ] || fail "stt devices left after Open vSwitch removed its datapaths: $left"

modules=$(ovs_stt_modules)
run rmmod $modules
for module in $modules; do
	! module_loaded $module || fail "$module is still loaded"
done
module_loaded openvswitch || fail "openvswitch went away with $modules"
left=$(stt_devices)
[ -z "$left" ] || fail "stt devices left after unloading: $left"
log "$modules unloaded, openvswitch loaded, no stt device in init ${NAMESPACES[*]}"
