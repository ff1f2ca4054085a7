#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the underlay's routes do to STT.
#
# Path MTU: a router between a and b forwards onto a link of MTU 1400.  a's
# device sets DF (as Open vSwitch does by default), so the router answers
# a's 1500-byte segments with ICMP "fragmentation needed".  a must learn
# the path MTU from them (pmtu_updates, and the route's cached mtu) and cut
# its frames to it: the transfer arrives whole instead of black-holing.
#
# TOS routing: a second link between a and r, and a route on a that takes
# TOS 0x10 over it.  With "tos inherit" each frame's outer TOS is
# its inner packet's, so each frame must take the route of its own TOS,
# not the one a cached route of an earlier frame's TOS would give.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 --- 192.0.2.254 r 198.51.100.254 === 198.51.100.2 u1  s0 10.0.0.2 :b
#                   u2 192.0.4.1 --- 192.0.4.254     MTU 1400
#                        MTU 1500
#   (a's s0 sends from 192.0.2.1 whichever link it takes)
#
#	underlay-routes.sh [ipv4|ipv6] [pmtu|tos]
#
# runs both parts, or the one named (for a module that fails the first, to
# see what it does with the second).  With "ipv6" the underlay is IPv6
# (2001:db8:1::/64 and 2001:db8:2::/64 for the two sides) and only the path
# MTU part runs: r answers with ICMPv6 "packet too big", DF or not, and IPv6
# routes have no TOS selector.
#
# Test: underlay_routes
#   timeout: 400
#   kernels: debug instead
#   underlay: either
#
# Test: underlay_routes_ipv6 ipv6
#   The path MTU over an IPv6 underlay.
#   timeout: 400
#   kernels: oldest distro: the ICMPv6 hook only reads and passes on what
#     IPv6 input holds; underlay_routes runs the IPv4 path MTU on the debug
#     kernel
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
case "${1:-}" in
ipv4) shift ;;
esac
if [ "${1:-}" = ipv6 ]; then
	shift
	PARTS=pmtu
	A=2001:db8:1::1 RA=2001:db8:1::fe NET_A=2001:db8:1::/64
	B=2001:db8:2::2 RB=2001:db8:2::fe NET_B=2001:db8:2::/64 PREFIX=64
	FORWARDING=net.ipv6.conf.all.forwarding TOO_BIG=Icmp6OutPktTooBigs
else
	PARTS=${1:-pmtu tos}
	A=192.0.2.1 RA=192.0.2.254 NET_A=192.0.2.0/24
	B=198.51.100.2 RB=198.51.100.254 NET_B=198.51.100.0/24 PREFIX=24
	FORWARDING=net.ipv4.ip_forward TOO_BIG=IcmpOutDestUnreachs
fi

add_ns a
add_ns r
add_ns b
add_underlay a "$A/$PREFIX" r "$RA/$PREFIX"
add_underlay r "$RB/$PREFIX" b "$B/$PREFIX" 1400 u1
in_ns r sysctl -qw "$FORWARDING=1"
run ip -n a route add "$NET_B" via "$RA"
run ip -n b route add "$NET_A" via "$RB"

run in_ns a "$STT_CTL" add s0 remote "$B" local "$A" id $KEY df set
run in_ns b "$STT_CTL" add s0 remote "$A" id $KEY df set
stt_dev_up a s0 10.0.0.1/24
stt_dev_up b s0 10.0.0.2/24

# ---- path MTU ----------------------------------------------------------------

if part pmtu; then
	# (A module without path MTU discovery has no such counter: the transfer
	# says what it does.)
	updates=$(stt_counter a pmtu_updates s0) || updates=none
	ping_sizes a 10.0.0.2 1 1400 8972
	send_file_and_hash a b 10.0.0.2 "$(transfer_mib 8)"
	[ "$updates" != none ] || fail "a's s0 has no pmtu_updates counter"
	updates=$(($(stt_counter a pmtu_updates s0) - updates))
	frag_needed=$(ip_mib r "$TOO_BIG")
	cached=$(ip -n a route get "$B" | grep -o 'mtu [0-9]*' || true)
	log "r sent $frag_needed errors ($TOO_BIG); a took $updates (pmtu_updates), route to b: ${cached:-no mtu}"
	[ "$updates" -ge 1 ] || fail "a took no ICMP error about its segments' size"
	[ "$cached" = "mtu 1400" ] || fail "a's route to b has ${cached:-no mtu}, not mtu 1400"
fi

# ---- TOS routing -------------------------------------------------------------

if part tos; then
	add_underlay a 192.0.4.1/24 r 192.0.4.254/24 1500 u2
	# a's source address arrives on r's u2: no reverse-path filter there.
	in_ns r sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.u2.rp_filter=0
	# A route with a TOS selector (the debug kernel has no policy rules;
	# a rule's TOS match is the same lookup key).
	run ip -n a route add 198.51.100.0/24 tos 0x10 via 192.0.4.254 dev u2
	run in_ns a "$STT_CTL" set s0 tos inherit
	in_ns r nft -f - <<-NFT
	table ip stt_tos {
		chain routed {
			type filter hook forward priority filter;
			iifname "u0" tcp dport $STT_PORT counter
			iifname "u2" tcp dport $STT_PORT counter
		}
	}
	NFT
	# forwarded LINK: STT segments r has forwarded from a's LINK.
	forwarded() {
		in_ns r nft list chain ip stt_tos routed |
			awk -v dev="\"$1\"" '$2 == dev { print $(NF - 2) }'
	}
	# Each echo request is a frame of one segment.  TOS 0 first, so that a
	# route cache would hold u0's route when the TOS 0x10 frames come.
	ping_sizes a 10.0.0.2 1
	run in_ns a ping -c 3 -i 0.3 -Q 0x10 -W 5 10.0.0.2 > /dev/null
	ping_sizes a 10.0.0.2 1
	via_u0=$(forwarded u0)
	via_u2=$(forwarded u2)
	log "r forwarded $via_u0 STT segments from a's u0 (TOS 0) and $via_u2 from u2 (TOS 0x10)"
	[ "$via_u2" -eq 3 ] ||
		fail "$via_u2 STT segments came over u2, not the 3 echo requests of TOS 0x10"
	[ "$via_u0" -ge 2 ] || fail "only $via_u0 STT segments of TOS 0 came over u0"
fi

stt_check_no_errors a s0
stt_check_no_errors b s0
log "PASS underlay-routes $PARTS"
