#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch against a plain stt device: host1 is an Open vSwitch host with
# a type=stt port (key=flow, the context id set by OpenFlow; local_ip set),
# host2 a plain namespace with a fixed-peer stt device made by stt-ctl.
# Ping, iperf3 both ways, 16 MiB with SHA-256, counters, and the wire as
# tshark sees it.
#
#	dev-ovs.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 10.0.0.1 -- br0 [host1] tun0 -- u0 192.0.2.1 === 192.0.2.2 u0 -- s0 10.0.0.2 [host2]
#                          (ipv6)     2001:db8::1       2001:db8::2
#
# Test: dev_ovs
#   timeout: 700
#   kernels: oldest distro: dev_ovs_ipv6 runs it over IPv6 on 6.12; on the
#     debug kernel ovs_churn carries traffic through Open vSwitch's stt
#     ports, without dev-ovs's four minutes of emulated transfers,
#     captures and their analysis
#   underlay: either
#
# Test: dev_ovs_ipv6 ipv6
#   Open vSwitch over an IPv6 underlay: remote_ip and local_ip IPv6, the
#   received flow's tunnel(ipv6_src=...,ipv6_dst=...).
#   timeout: 700
#   kernels: newest distro: the IPv6 lane (--stt-underlay ipv6) runs every
#     Open vSwitch scenario over IPv6 on its kernels; by default one case
#     keeps Open vSwitch over IPv6 in the suite
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0xfedcba9876543210
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: dev-ovs.sh [ipv4|ipv6]"

add_host host1
host_ovs host1 ovs-vsctl add-br br0
add_ns host2
add_underlay host1 "$UL_A/$UL_PREFIX" host2 "$UL_B/$UL_PREFIX"
add_tunnel_port host1 tun0 stt remote_ip="$UL_B" local_ip="$UL_A" key=flow
add_vm vm1 host1 10.0.0.1/24
wait_for_ports

run host_ovs host1 ovs-ofctl del-flows br0
run host_ovs host1 ovs-ofctl add-flow br0 \
	"in_port=vm1,actions=set_field:$KEY->tun_id,output:tun0"
run host_ovs host1 ovs-ofctl add-flow br0 \
	"in_port=tun0,tun_id=$KEY,actions=output:vm1"

run in_ns host2 "$STT_CTL" add s0 remote "$UL_A" id $KEY
stt_dev_up host2 s0 10.0.0.2/24

ping_sizes vm1 10.0.0.2 1 1472 8972
ping_sizes host2 10.0.0.1 1 8972
iperf3_check vm1 host2 10.0.0.2 3
send_file_and_hash vm1 host2 10.0.0.2 "$(transfer_mib 16)"
send_file_and_hash host2 vm1 10.0.0.1 "$(transfer_mib 16)"

# The received flow carries the full 64-bit id and the tunnel addresses, in
# their family's form; the sent one the source local_ip gave.
flows=$(dp_flows host1)
for tunnel in "tunnel(tun_id=$KEY,${UL_TUN}src=$UL_B,${UL_TUN}dst=$UL_A," \
	      "set(tunnel(tun_id=$KEY,${UL_TUN}src=$UL_A,${UL_TUN}dst=$UL_B,"; do
	echo "$flows" | contains -F "$tunnel" ||
		fail "[host1] no datapath flow matches $tunnel: $flows"
	log "[host1] a datapath flow matches $tunnel"
done

# Open vSwitch's tunnel defaults (vswitch.xml: df_default true, ttl the
# system default, which netdev-vport.c fixes at 64) on host1's segments.
stt_judge_segments host2 host1 host2 vm1 10.0.0.1 "dev-ovs-$UL_FAMILY" $KEY \
	--from "$UL_A" --df set --ttl 64

stt_check_no_errors host1
stt_check_no_errors host2 s0
check_link_errors host2 s0

# A port Open vSwitch cannot have: a plain external device holds its
# destination port.  ovs-vswitchd only gets an errno; the kernel log says
# why.
run in_ns host1 "$STT_CTL" add x0 external dstport 7472
run host_ovs host1 ovs-vsctl add-port br0 tun2 -- set interface tun2 \
	type=stt options:remote_ip="${UL_B%2}9" options:dst_port=7472  # .9, ::9: nobody
# ovs-vsctl waits for ovs-vswitchd to have dealt with the port.
err=$(host_ovs_q host1 ovs-vsctl get Interface tun2 error)
[ "$err" = '"could not add network device tun2 to ofproto (Device or resource busy)"' ] ||
	fail "[host1] tun2's error is not EBUSY: $err"
why="cannot create stt_sys_7472: an external stt device already uses this destination port in this namespace (-16)"
kernel_logged "stt: $why" || fail "the kernel did not log '$why'"
log "a vport refused for a taken port: the kernel logged '$why'"
run host_ovs host1 ovs-vsctl del-port br0 tun2
run in_ns host1 "$STT_CTL" del x0

# What ovs-vswitchd never sends, sent raw: a tunnel option vport-stt does
# not know (9), and no destination port (OVS_TUNNEL_ATTR_DST_PORT, 1).
for req in "stt_sys_7473|9:00000000 1:311d|unknown tunnel option 9" \
	   "stt_sys_7474||no destination port given"; do
	IFS='|' read -r name options why <<< "$req"
	why="vport_stt: $name: $why"
	# shellcheck disable=SC2086 # the options are words
	out=$(in_ns host1 "$STT_GUEST_DIR/tools/ovs-vport-new" ovs-system \
		"$name" 106 $options 2>&1 | tail -n 1)
	[ "$out" = EINVAL ] || fail "vport $name ($options): '$out', not EINVAL"
	kernel_logged "$why" || fail "the kernel did not log '$why'"
	log "vport $name ($options) refused with EINVAL: the kernel logged '$why'"
done
log "PASS dev-ovs over $UL_FAMILY"
