#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch taking STT ports away and back under a bulk transfer (where
# ovs-churn cycles them under a ping): in the middle of a transfer from vm1
# to vm2, host2's stt port is deleted (its device, receive port and
# reassembly table with it) and added again, and host1's ovs-vswitchd is
# stopped and started again (it takes over the kernel datapath and ports it
# left).  Each transfer must resume and arrive with its SHA-256.  While an
# Open vSwitch stt port exists, vport_stt and stt refuse to unload.
#
#	lifecycle-ovs.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: lifecycle_ovs
#   Two CPUs, so that teardown races with traffic on another CPU.
#   timeout: 600
#   cpus: 2
#   kernels: lanes only: on 7.2, whose openvswitch.ko takes a vport's
#     device held (ovs_netdev_link(vport, true)); lifecycle_ovs_ipv6 runs
#     it over IPv6 on the debug kernel, whose openvswitch.ko takes the
#     device's name (the ports' life cycle does not know the family)
#   lanes: 7.2-deb14
#   underlay: either
#
# Test: lifecycle_ovs_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 600
#   cpus: 2
#   kernels: debug only: lifecycle_ovs runs it over IPv4 on 7.2
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

MIB=8
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: lifecycle-ovs.sh [ipv4|ipv6]"

stt_two_hosts
# Real segments on the wire (sent without TSO, received without GRO), so
# that frames are reassembled and a port going away may find some pending.
for host in host1 host2; do
	run in_ns $host ethtool -K u0 tso off tx off gro off > /dev/null
done
ping_sizes vm1 10.0.0.2 1 8972

send_file_underway vm1 vm2 10.0.0.2 $MIB
host_ovs host2 ovs-vsctl del-port br0 tun0
! ip -n host2 link show "$STT_DEV" 2>/dev/null ||
	fail "[host2] $STT_DEV outlived its port"
send_file_unfinished vm2 "host2's port went away"
host_ovs host2 ovs-vsctl add-port br0 tun0 -- set Interface tun0 type=stt \
	options:remote_ip="$UL_A"
check_interface host2 tun0
send_file_check vm2

ifindex=$(ip -n host1 -o link show "$STT_DEV" | cut -d: -f1)
send_file_underway vm1 vm2 10.0.0.2 $MIB
# The kernel datapath and its ports stay, and keep forwarding with the
# flows they have.
stop_vswitchd host1
dp_ports host1 | grep -qx "$STT_DEV" ||
	fail "[host1] $STT_DEV left the datapath with ovs-vswitchd"
send_file_unfinished vm2 "host1's ovs-vswitchd stopped"
start_vswitchd host1
ovs_sync host1
check_interface host1 tun0
log "[host1] $STT_DEV: ifindex $ifindex before the restart, $(ip -n host1 -o link show "$STT_DEV" | cut -d: -f1) after"
send_file_check vm2

for host in host1 host2; do
	stt_check_no_errors $host
done

log "+ rmmod vport_stt; rmmod stt  (must both be refused)"
for module in vport_stt stt; do
	! rmmod $module 2> "$WORK/rmmod.err" ||
		fail "$module unloaded while Open vSwitch has stt ports"
	grep -q 'in use' "$WORK/rmmod.err" ||
		fail "rmmod $module failed, but not as in use: $(cat "$WORK/rmmod.err")"
done
ping_sizes vm1 10.0.0.2 1 8972
log "PASS lifecycle-ovs"
