#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The underlay address on a Linux bridge with br_netfilter loaded and
# bridge-nf-call-iptables/ip6tables on, as Docker and Kubernetes hosts have
# it (kernel re-review N5).  br_netfilter runs the IP hooks of PRE_ROUTING,
# STT's among them, in the bridge's receive path: for frames addressed to
# other hosts too, and before the bridge's VLAN filter.  STT must take only
# what the bridge delivers to this host, and conntrack must not track it.
#
#   x: stt-attack u1 198.51.100.1 ==== u1 -[br0 198.51.100.2]  s1 (remote x) :b
#   (ipv6: 2001:db8:100::1 and ::2)
#
# With a stateful firewall in b (conntrack, invalid packets dropped):
#   - valid frames to br0's MAC address are delivered (rx_frames), and
#     conntrack holds no entry for the STT port;
#   - the same to another host's MAC address are the bridge's to flood or
#     drop: STT sees none of them (rx_segments does not move);
#   - with VLAN filtering on, and br0 not in the VLAN of x's port, none
#     either; once br0 is, they are delivered again.
#
# Usage: underlay-bridge.sh [ipv4|ipv6]
#
# Test: underlay_bridge
#   timeout: 300
#   kernels: oldest distro: underlay_bridge_ipv6 runs it over IPv6 on
#     the debug kernel (the bridge's part does not know the family)
#   underlay: either
#
# Test: underlay_bridge_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 300
#   kernels: debug only: underlay_bridge runs it over IPv4 on 6.1
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

underlay_family "${1:-}" && shift
KEY=0x00000000000000aa
FRAMES=40
OTHER_MAC=02:00:5e:00:53:99
STT_ATTACK=$STT_GUEST_DIR/tools/stt-attack

if [ "$UL_FAMILY" = ipv6 ]; then
	X=2001:db8:100::1 B=2001:db8:100::2 PREFIX=64
else
	X=198.51.100.1 B=198.51.100.2 PREFIX=24
fi

# send_valid DST_MAC: FRAMES valid frames from x to b's br0 address,
# addressed at L2 to DST_MAC.
send_valid() {
	run in_ns x "$STT_ATTACK" --iface u1 --dst "$B" --dst-mac "$1" \
		--key $KEY valid=$FRAMES
}

# counter_is NAME N: s1's counter NAME is N.
counter_is() {
	[ "$(stt_counter b "$1" s1)" -eq "$2" ]
}

# expect_taken WHAT N: s1 has received N frames, every one of its segments.
expect_taken() {
	local what=$1 n=$2
	wait_for counter_is rx_frames "$n" ||
		fail "$what: s1 rx_frames is $(stt_counter b rx_frames s1), not $n"
	counter_is rx_segments "$n" ||
		fail "$what: s1 rx_segments is $(stt_counter b rx_segments s1), not $n"
	log "$what: s1 rx_frames and rx_segments $n"
}

# expect_untouched WHAT N: s1's counters still say N, once what x sent has
# been through b (its underlay counted every packet).
expect_untouched() {
	local what=$1 n=$2 rx_now
	wait_for sh -c "[ \$(ip netns exec b cat /sys/class/net/u1/statistics/rx_packets) -ge $((RX_U1 + FRAMES)) ]" ||
		fail "$what: b's u1 did not receive the $FRAMES packets"
	RX_U1=$(in_ns b cat /sys/class/net/u1/statistics/rx_packets)
	rx_now=$(stt_counter b rx_segments s1)
	[ "$rx_now" -eq "$n" ] ||
		fail "$what: STT took segments (rx_segments $rx_now, not $n)"
	log "$what: STT took nothing (rx_segments $n)"
}

run modprobe stt
run modprobe br_netfilter
add_ns x
add_ns b
run ip link add u1 netns x type veth peer name u1 netns b
set_address x u1 "$X/$PREFIX"
run ip -n b link add br0 type bridge
run ip -n b link set u1 master br0
set_address b br0 "$B/$PREFIX"
for dev in u1 br0; do
	ip -n b link set "$dev" up
done
ip -n x link set u1 up
in_ns b sysctl -qw net.bridge.bridge-nf-call-iptables=1 \
	net.bridge.bridge-nf-call-ip6tables=1
# A stateful firewall, as such hosts have: conntrack runs in b.
run in_ns b nft -f - <<'EOF'
table inet filter {
	chain input {
		type filter hook input priority filter; policy accept;
		ct state invalid counter drop
	}
	chain forward {
		type filter hook forward priority filter; policy accept;
		ct state invalid counter drop
	}
}
EOF
run in_ns b "$STT_CTL" add s1 remote "$X" id $KEY
in_ns b sysctl -qw net.ipv6.conf.s1.disable_ipv6=1
run ip -n b link set s1 up
BR_MAC=$(in_ns b cat /sys/class/net/br0/address)
RX_U1=$(in_ns b cat /sys/class/net/u1/statistics/rx_packets)

# ---- for this host ------------------------------------------------------------

send_valid "$BR_MAC"
expect_taken "to br0's MAC" $FRAMES
RX_U1=$(in_ns b cat /sys/class/net/u1/statistics/rx_packets)
tracked=$(in_ns b conntrack -L -p tcp --dport $STT_PORT 2>/dev/null | wc -l)
[ "$tracked" -eq 0 ] ||
	fail "conntrack tracks STT: $(in_ns b conntrack -L -p tcp --dport $STT_PORT 2>&1)"
log "conntrack holds no entry for port $STT_PORT"

# ---- for another host -----------------------------------------------------------

send_valid $OTHER_MAC
expect_untouched "to $OTHER_MAC" $FRAMES

# ---- the bridge's VLAN filter -----------------------------------------------------

# x's port in VLAN 20 (untagged), br0 itself in VLAN 10 only.
run ip -n b link set br0 type bridge vlan_filtering 1
run bridge -n b vlan add dev u1 vid 20 pvid untagged
run bridge -n b vlan del dev u1 vid 1
run bridge -n b vlan add dev br0 vid 10 pvid untagged self
run bridge -n b vlan del dev br0 vid 1 self
send_valid "$BR_MAC"
expect_untouched "from VLAN 20, br0 in VLAN 10" $FRAMES

run bridge -n b vlan add dev br0 vid 20 pvid untagged self
send_valid "$BR_MAC"
expect_taken "from VLAN 20, br0 in VLAN 20" $((2 * FRAMES))

stt_check_no_errors b s1
log "PASS underlay-bridge over $UL_FAMILY"
