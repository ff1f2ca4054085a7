#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# STT's netfilter hooks among the host's other users of netfilter.
#
# bridge: the underlay address on a Linux bridge with br_netfilter loaded
# and bridge-nf-call-iptables/ip6tables on, as Docker and Kubernetes hosts
# have it (kernel re-review N5).  br_netfilter runs the IP hooks of
# PRE_ROUTING, STT's among them, in the bridge's receive path: for frames
# addressed to other hosts too, and before the bridge's VLAN filter.  STT
# must take only what the bridge delivers to this host, and conntrack must
# not track it.
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
# forward: segments to the STT port that a router with an stt device
# forwards follow policy routing by a mark set in mangle PREROUTING, as
# any packet does (kernel re-review N7: the route the receive hook looks up
# must not stay attached to a packet it does not keep).
#
#   x: u2 203.0.113.1 ==== u2 203.0.113.2 :r  ya 192.0.2.1 ==== ya :y
#                              (s0 external) yb 192.0.2.5 ==== yb :y
#   y: 198.18.0.9 on lo; r's main table routes it by ya, table 100 by yb,
#   for packets marked 1 (TCP to port 7471, nft in r's mangle prerouting)
#   (ipv6: 2001:db8:200::/64, 2001:db8:a::/64, 2001:db8:b::/64 and
#   2001:db8:ff::9)
#
# Usage: underlay-netfilter.sh [ipv4|ipv6] [bridge] [forward] (the parts to
# run; both by default)
#
# Test: underlay_netfilter
#   timeout: 300
#   kernels: oldest distro: underlay_netfilter_ipv6 runs it over IPv6 on
#     6.12
#   underlay: either
#
# Test: underlay_netfilter_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 300
#   kernels: newest distro: underlay_netfilter runs it over IPv4 on 6.1;
#     the receive path behind the hooks runs under the debug kernel's
#     checks in hostile and nic-underlay
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

underlay_family "${1:-}" && shift
PARTS=${*:-bridge forward}
KEY=0x00000000000000aa
FRAMES=40
OTHER_MAC=02:00:5e:00:53:99
STT_ATTACK=$STT_GUEST_DIR/tools/stt-attack

if [ "$UL_FAMILY" = ipv6 ]; then
	X=2001:db8:100::1 B=2001:db8:100::2 PREFIX=64
	X2=2001:db8:200::1 R2=2001:db8:200::2 Y=2001:db8:ff::9
	RA=2001:db8:a::1 YA=2001:db8:a::2 RB=2001:db8:b::1 YB=2001:db8:b::2
	NET2=2001:db8:200::/64 LINK_PREFIX=64 HOST_PREFIX=128
	IP=(ip -6) NFT_FAMILY=ip6
else
	X=198.51.100.1 B=198.51.100.2 PREFIX=24
	X2=203.0.113.1 R2=203.0.113.2 Y=198.18.0.9
	RA=192.0.2.1 YA=192.0.2.2 RB=192.0.2.5 YB=192.0.2.6
	NET2=203.0.113.0/24 LINK_PREFIX=30 HOST_PREFIX=32
	IP=(ip -4) NFT_FAMILY=ip
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
add_ns x

# ---- br_netfilter -----------------------------------------------------------

if part bridge; then
run modprobe br_netfilter
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
fi

# ---- forwarding with policy routing by mark -----------------------------------

# y_counted LINK: how many TCP packets to the STT port y counted on LINK.
y_counted() {
	in_ns y nft list counter inet c "$1" | awk '/packets/ { print $2 }'
}

# y_counted_at_least LINK N
y_counted_at_least() {
	[ "$(y_counted "$1")" -ge "$2" ]
}

if part forward; then
add_ns r
add_ns y
add_underlay x "$X2/$PREFIX" r "$R2/$PREFIX" 1500 u2
add_underlay r "$RA/$LINK_PREFIX" y "$YA/$LINK_PREFIX" 1500 ya
add_underlay r "$RB/$LINK_PREFIX" y "$YB/$LINK_PREFIX" 1500 yb
set_address y lo "$Y/$HOST_PREFIX"
run in_ns x "${IP[@]}" route add "$Y" via "$R2"
run in_ns y "${IP[@]}" route add "$NET2" via "$RA"
in_ns r sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
run in_ns r "${IP[@]}" route add "$Y" via "$YA"
run in_ns r "${IP[@]}" route add "$Y" via "$YB" table 100
run in_ns r "${IP[@]}" rule add fwmark 1 table 100
run in_ns r nft -f - <<EOF
table $NFT_FAMILY m {
	chain pre {
		type filter hook prerouting priority mangle; policy accept;
		tcp dport $STT_PORT meta mark set 1
	}
}
EOF
run in_ns y nft -f - <<EOF
table inet c {
	counter ya { }
	counter yb { }
	chain pre {
		type filter hook prerouting priority raw; policy accept;
		iifname "ya" tcp dport $STT_PORT counter name "ya"
		iifname "yb" tcp dport $STT_PORT counter name "yb"
	}
}
EOF
# An stt device in r: its receive hooks see every TCP packet to the port.
run in_ns r "$STT_CTL" add s0 external
run ip -n r link set s0 up
run in_ns x "$STT_ATTACK" --iface u2 --dst "$Y" \
	--dst-mac "$(in_ns r cat /sys/class/net/u2/address)" --key $KEY \
	valid=$FRAMES
wait_for y_counted_at_least yb $FRAMES ||
	fail "[y] $(y_counted yb) of $FRAMES segments marked for table 100 came by yb ($(y_counted ya) by ya, the main table's)"
[ "$(y_counted ya)" -eq 0 ] ||
	fail "[y] $(y_counted ya) segments came by ya, the main table's, though marked for table 100"
[ "$(stt_counter r rx_segments s0)" -eq 0 ] ||
	fail "[r] s0 took segments addressed to y"
log "[y] all $FRAMES segments to port $STT_PORT, marked 1 in r's mangle prerouting, came by table 100's yb"
fi

log "PASS underlay-netfilter over $UL_FAMILY"
