#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tunnel keys, flow-based tunnels and 802.1Q over STT between two Open vSwitch
# hosts:
#   (a) equal fixed keys connect;
#   (b) different keys isolate: frames still arrive, Open vSwitch drops them;
#   (c) key=flow: the id set by OpenFlow is the one the far datapath sees,
#       and another id gets no answer;
#   (d) remote_ip=flow: the destination set by OpenFlow;
#   (e) a VLAN-tagged inner frame keeps its VID and PCP.
#
#	ovs-keys.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#   10.0.100.1 (eth0.100)                           10.0.100.2 (eth0.100)
#
# Test: ovs_keys
#   timeout: 600
#   kernels: newest distro: the STT cases of ovs-autotest (6.1, Debian
#     13's 6.12) and ovs40-autotest (6.1, 6.12) check key=flow with a
#     64-bit tun_id, remote_ip=flow, 802.1Q and another id unanswered
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
OTHER_KEY=0x2211443355667788
FLOW_KEY=0xfedcba9876543210
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: ovs-keys.sh [ipv4|ipv6]"
# The underlay's header as tshark names it, and its EtherType.
case $UL_FAMILY in
ipv4) WS_IP=ip UL_ETHERTYPE=0x0800 ;;
ipv6) WS_IP=ipv6 UL_ETHERTYPE=0x86dd ;;
esac
# The tunnel addresses host2 receives with, as its datapath flows write them.
RECEIVED="${UL_TUN}src=$UL_A,${UL_TUN}dst=$UL_B,"

# expect_dp_flow HOST PATTERN [ACTIONS]: HOST's datapath has a flow matching
# the fixed string PATTERN (and ending in ACTIONS, if given).
expect_dp_flow() {
	local host=$1 pattern=$2 actions=${3:-} flows
	flows=$(dp_flows "$host")
	echo "$flows" | grep -F -- "$pattern" | contains -- "$actions\$" || {
		echo "$flows"
		fail "[$host] no datapath flow with $pattern${actions:+ and $actions}"
	}
	log "[$host] ovs-dpctl dump-flows: $(echo "$flows" |
		grep -F -- "$pattern" | grep -- "$actions\$" | sed -n 1p)"
}

log "(a) equal fixed keys"
stt_two_hosts key=$KEY
ping_sizes vm1 10.0.0.2 1
expect_dp_flow host2 "tunnel(tun_id=$KEY,$RECEIVED"

log "(b) different keys"
host_ovs host2 ovs-vsctl set Interface tun0 options:key=$OTHER_KEY
before=$(stt_counter host2 rx_frames)
no_ping vm1 10.0.0.2
after=$(stt_counter host2 rx_frames)
log "[host2] rx_frames $before -> $after"
[ "$after" -ge $((before + 3)) ] ||
	fail "[host2] rx_frames moved from $before to $after: the requests did not arrive"
# No port of host2 takes that key: ovs-vswitchd says so and drops the frames
# (its drop flow for an unassociated port lasts only until the next
# revalidation, so the log, not ovs-dpctl, is the witness).
# (Over IPv6 the line has tun_src=0.0.0.0,tun_dst=0.0.0.0 before the IPv6
# addresses.)
unmatched="receive tunnel port not found (icmp,tun_id=$KEY,"
tunnel_addrs=",tun_${UL_TUN}src=$UL_A,tun_${UL_TUN}dst=$UL_B,"
unmatched_logged() {
	grep -F "$unmatched" "$(ovs_dir host2)/ovs-vswitchd.log" |
		grep -qF -- "$tunnel_addrs"
}
wait_for unmatched_logged ||
	fail "[host2] ovs-vswitchd did not report frames with tun_id=$KEY from $UL_A as unmatched"
log "[host2] ovs-vswitchd.log: $unmatched...$tunnel_addrs...)"

log "(c) key=flow, id set by OpenFlow"
for host in host1 host2; do
	vm=vm${host#host}
	host_ovs $host ovs-vsctl set Interface tun0 options:key=flow
	host_ovs $host ovs-ofctl del-flows br0
	host_ovs $host ovs-ofctl add-flows br0 - <<-EOF
	in_port=$vm,actions=set_field:$FLOW_KEY->tun_id,output:tun0
	in_port=tun0,tun_id=$FLOW_KEY,actions=output:$vm
	EOF
done
ping_sizes vm1 10.0.0.2 1
expect_dp_flow host2 "tunnel(tun_id=$FLOW_KEY,$RECEIVED"

host_ovs host1 ovs-ofctl add-flow br0 \
	"in_port=vm1,actions=set_field:0x1->tun_id,output:tun0"
no_ping vm1 10.0.0.2
expect_dp_flow host2 "tunnel(tun_id=0x1,$RECEIVED" actions:drop

log "(d) remote_ip=flow, destination set by OpenFlow"
host_ovs host1 ovs-vsctl set Interface tun0 options:remote_ip=flow
host_ovs host1 ovs-ofctl add-flow br0 \
	"in_port=vm1,actions=set_field:$UL_B->tun_${UL_TUN}dst,set_field:$FLOW_KEY->tun_id,output:tun0"
ping_sizes vm1 10.0.0.2 1
expect_dp_flow host1 "set(tunnel(tun_id=$FLOW_KEY,${UL_TUN}dst=$UL_B,"
expect_dp_flow host2 "tunnel(tun_id=$FLOW_KEY,$RECEIVED"

log "(e) 802.1Q inner frames: VLAN 100, PCP 5 from vm1"
run ip -n vm1 link add link eth0 name eth0.100 type vlan id 100 egress-qos-map 0:5
run ip -n vm2 link add link eth0 name eth0.100 type vlan id 100
set_address vm1 eth0.100 10.0.100.1/24
set_address vm2 eth0.100 10.0.100.2/24
ip -n vm1 link set eth0.100 up
ip -n vm2 link set eth0.100 up
capture_start vm2 eth0 vlan-vm2
vm2_capture=$CAPTURE_PID
capture_start host2 u0 vlan-underlay tcp dst port $STT_PORT
underlay_capture=$CAPTURE_PID
ping_sizes vm1 10.0.100.2 1
capture_stop "$underlay_capture" vlan-underlay
capture_stop "$vm2_capture" vlan-vm2

# What vm2 received: each echo request from vm1 tagged VID 100, PCP 5.
log "+ [vm2] tcpdump -e -n -r vlan-vm2.pcap"
tcpdump -e -n -r "$STT_RESULTS/vlan-vm2.pcap" 2>/dev/null |
	grep 'ICMP echo request' | tee "$WORK/requests"
tagged=$(grep -c 'vlan 100, p 5, ethertype IPv4 (0x0800), 10.0.100.1 > 10.0.100.2: ICMP echo request' \
	"$WORK/requests") || true
total=$(wc -l < "$WORK/requests")
[ "$total" -ge 3 ] && [ "$tagged" -eq "$total" ] ||
	fail "[vm2] $tagged of $total echo requests arrived with VLAN 100, PCP 5"

# What the underlay carried: the tag in the STT header (V set), not inline.
log "+ tshark -r vlan-underlay.pcap -e stt.vlan.v -e stt.vlan.pcp -e stt.vlan.id"
tshark -r "$STT_RESULTS/vlan-underlay.pcap" "${TSHARK_STT[@]}" \
	-Y "stt.version && $WS_IP.src == $UL_A" -T fields \
	-e stt.vlan.v -e stt.vlan.pcp -e stt.vlan.id -e eth.type 2>/dev/null |
	sort | uniq -c | tee "$WORK/vlan-fields"
# One line per kind of frame: count, V, PCP, VID, outer and inner EtherType.
# The echo requests carry V=1, PCP 5, VID 100 in the STT header, and no inner
# frame carries its 802.1Q tag (0x8100) inline.
requests=$(awk -v types="$UL_ETHERTYPE,0x0800" \
	'$2 == 1 && $3 == 5 && $4 == 100 && $5 == types { print $1 }' \
	"$WORK/vlan-fields")
[ "${requests:-0}" -ge 3 ] ||
	fail "no STT frame from host1 carries V=1, PCP 5, VID 100 in its header"
! grep -q '0x8100' "$WORK/vlan-fields" ||
	fail "an inner frame from host1 carries its 802.1Q tag inline"
