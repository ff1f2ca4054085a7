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
# Forged errors: before that, r sends a errors about segments a never sent,
# each wrong in one way only: a bad ICMP checksum; a quoted segment to an
# address that is no remote of a's (reached by a's default route), from an
# address that is not a's, from a source port outside s0's range, or with
# flags no STT segment has.  a must take none: pmtu_updates stays, and no
# route gets a path MTU (`ip route get` shows no mtu).
#
# External device: a's external device e0 sends to b's second address B2
# (tc's tunnel_key), which no fixed-peer device of a's has as its remote.
# An error about a segment to B2 must not be taken before e0 has sent
# there, and must be after.  Over IPv6 r's own "packet too big" about e0's
# segments must be taken too (over IPv4 tunnel_key sets no DF: r fragments).
#
# TOS routing: a second link between a and r, and a route on a that takes
# TOS 0x10 over it.  With "tos inherit" each frame's outer TOS is
# its inner packet's, so each frame must take the route of its own TOS,
# not the one a cached route of an earlier frame's TOS would give.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 --- 192.0.2.254 r 198.51.100.254 === 198.51.100.2 u1  s0 10.0.0.2 :b
#      e0 10.0.1.1  u2 192.0.4.1 --- 192.0.4.254     MTU 1400      198.51.100.3    s1 10.0.1.2
#                        MTU 1500
#   (a's s0 sends from 192.0.2.1 whichever link it takes)
#
#	underlay-routes.sh [ipv4|ipv6] [forged|pmtu|external|tos...]
#
# runs the parts named, or forged, pmtu and tos (a module that fails one
# can still be tried on the next).  external only when named: the debug
# kernel has no tunnel_key.  With "ipv6" the underlay is IPv6
# (2001:db8:1::/64 and 2001:db8:2::/64 for the two sides) and there is no
# tos part: r answers with ICMPv6 "packet too big", DF or not, and IPv6
# routes have no TOS selector.
#
# Test: underlay_routes
#   timeout: 400
#   underlay: either
#
# Test: underlay_routes_ipv6 ipv6
#   The path MTU and forged errors over an IPv6 underlay.
#   timeout: 400
#   kernels: oldest distro: the ICMPv6 hook only reads and passes on what
#     IPv6 input holds; underlay_routes runs the IPv4 path MTU on every
#     kernel, the debug kernel's too
#   underlay: either
#
# Test: underlay_routes_external external
#   Which errors an external device's path MTU takes.
#   timeout: 300
#   kernels: newest distro: the debug kernel has no tunnel_key to give e0
#     its destination; the IPv6 case runs on the oldest
#   underlay: either
#
# Test: underlay_routes_external_ipv6 ipv6 external
#   The same over an IPv6 underlay, with r's own "packet too big".
#   timeout: 300
#   kernels: oldest distro: underlay_routes_external runs on the newest
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
# e0's and s1's; tc takes 32-bit ids.
KEY2=0x2b
TOO_BIG_TOOL=$STT_GUEST_DIR/tools/too-big
case "${1:-}" in
ipv4) shift ;;
esac
# OUT_TOO_BIG: the errors r sends; IN_TOO_BIG and IN_CSUM: what a's ICMP
# input counts of the ones it takes in and of those with a bad checksum.
# NOT_PEER, NOT_LOCAL: no remote of a's, no address of a's.  EXT_MTU: the
# path MTU a well-formed error teaches a about B2.
if [ "${1:-}" = ipv6 ]; then
	shift
	FAMILY=ipv6 PARTS=${*:-forged pmtu}
	! part tos || fail "the tos part has no IPv6 version"
	A=2001:db8:1::1 RA=2001:db8:1::fe NET_A=2001:db8:1::/64
	B=2001:db8:2::2 RB=2001:db8:2::fe NET_B=2001:db8:2::/64 PREFIX=64
	B2=2001:db8:2::3 NOT_PEER=2001:db8::99 NOT_LOCAL=2001:db8:1::99
	FORWARDING=net.ipv6.conf.all.forwarding OUT_TOO_BIG=Icmp6OutPktTooBigs
	IN_TOO_BIG=Icmp6InPktTooBigs IN_CSUM=Icmp6InCsumErrors EXT_MTU=1280
else
	FAMILY=ipv4 PARTS=${*:-forged pmtu tos}
	A=192.0.2.1 RA=192.0.2.254 NET_A=192.0.2.0/24
	B=198.51.100.2 RB=198.51.100.254 NET_B=198.51.100.0/24 PREFIX=24
	B2=198.51.100.3 NOT_PEER=8.8.8.8 NOT_LOCAL=192.0.2.99
	FORWARDING=net.ipv4.ip_forward OUT_TOO_BIG=IcmpOutDestUnreachs
	IN_TOO_BIG=IcmpInDestUnreachs IN_CSUM=IcmpInCsumErrors EXT_MTU=1300
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

# route_mtu DEST: the path MTU a's route to DEST has learnt ("mtu 1400",
# "mtu lock 552"), or nothing.
route_mtu() {
	ip -n a route get "$1" | grep -o 'mtu [a-z ]*[0-9]*' || true
}

# mib_above NS NAME VALUE: NS's protocol counter NAME is above VALUE.
mib_above() {
	[ "$(ip_mib "$1" "$2")" -gt "$3" ]
}

# send_error SRC DST [OPTION...]: r sends a an error about a segment from
# SRC to DST (tools/too-big, OPTIONs its own), and waits for a's ICMP input
# to count it: the STT hook has seen it then.
send_error() {
	local counter=$IN_TOO_BIG before
	[[ " $* " != *" --bad-csum "* ]] || counter=$IN_CSUM
	before=$(ip_mib a "$counter")
	run in_ns r "$TOO_BIG_TOOL" "$RA" "$A" "$@"
	wait_for mib_above a "$counter" "$before" ||
		fail "a's ICMP input did not count r's error ($counter)"
}

# ---- forged errors ------------------------------------------------------------

# not_taken WHAT TARGET SRC DST [OPTION...]: r sends the error of
# send_error SRC DST OPTION...; a must not take it: neither pmtu_updates
# nor the route to TARGET may move.  Those taken are listed in TAKEN.
TAKEN=()
not_taken() {
	local what=$1 target=$2 updates mtu
	shift 2
	updates=$(stt_counter a pmtu_updates s0)
	send_error "$@"
	updates=$(($(stt_counter a pmtu_updates s0) - updates))
	mtu=$(route_mtu "$target")
	log "forged, $what: pmtu_updates +$updates, route to $target: ${mtu:-no mtu}"
	[ "$updates" = 0 ] && [ -z "$mtu" ] || TAKEN+=("$what")
}

if part forged; then
	# A host's route to anywhere: an error may name any destination.
	run ip -n a route add default via "$RA"
	not_taken "bad checksum" "$B" "$A" "$B" --bad-csum
	not_taken "to $NOT_PEER" "$NOT_PEER" "$A" "$NOT_PEER"
	not_taken "from $NOT_LOCAL" "$B" "$NOT_LOCAL" "$B"
	not_taken "from port 1" "$B" "$A" "$B" --sport 1
	not_taken "flags SYN" "$B" "$A" "$B" --flags S
	[ ${#TAKEN[@]} = 0 ] ||
		fail "a took ${#TAKEN[@]} of 5 forged errors:$(printf " (%s)" "${TAKEN[@]}")"
	log "a took none of 5 forged errors"
fi

# ---- path MTU ----------------------------------------------------------------

if part pmtu; then
	# (A module without path MTU discovery has no such counter: the transfer
	# says what it does.)
	updates=$(stt_counter a pmtu_updates s0) || updates=none
	# From here on: the forged part sent errors from r too.
	frag_needed=$(ip_mib r "$OUT_TOO_BIG")
	ping_sizes a 10.0.0.2 1 1400 8972
	send_file_and_hash a b 10.0.0.2 "$(transfer_mib 8)"
	[ "$updates" != none ] || fail "a's s0 has no pmtu_updates counter"
	updates=$(($(stt_counter a pmtu_updates s0) - updates))
	frag_needed=$(($(ip_mib r "$OUT_TOO_BIG") - frag_needed))
	cached=$(ip -n a route get "$B" | grep -o 'mtu [0-9]*' || true)
	log "r sent $frag_needed errors ($OUT_TOO_BIG); a took $updates (pmtu_updates), route to b: ${cached:-no mtu}"
	[ "$updates" -ge 1 ] || fail "a took no ICMP error about its segments' size"
	[ "$cached" = "mtu 1400" ] || fail "a's route to b has ${cached:-no mtu}, not mtu 1400"
fi

# ---- external device ---------------------------------------------------------

if part external; then
	set_address b u1 "$B2/$PREFIX"
	run in_ns b "$STT_CTL" add s1 remote "$A" local "$B2" id $KEY2
	run in_ns a "$STT_CTL" add e0 external
	stt_dev_up a e0 10.0.1.1/24
	stt_dev_up b s1 10.0.1.2/24
	# e0 has sent nothing yet (it has no destination before tc gives
	# one): an error about a segment to B2 is forged.
	updates=$(stt_counter a pmtu_updates e0)
	send_error "$A" "$B2" --mtu $EXT_MTU
	updates=$(($(stt_counter a pmtu_updates e0) - updates))
	mtu=$(route_mtu "$B2")
	log "before e0 sent to $B2: pmtu_updates +$updates, route to $B2: ${mtu:-no mtu}"
	[ "$updates" = 0 ] && [ -z "$mtu" ] ||
		fail "a took an error about a segment to $B2 before e0 sent there"

	run tc -n a qdisc add dev e0 clsact
	run tc -n a filter add dev e0 egress matchall \
		action tunnel_key set src_ip "$A" dst_ip "$B2" id $((KEY2))
	updates=$(stt_counter a pmtu_updates e0)
	ping_sizes a 10.0.1.2 1 1400 8972
	updates=$(($(stt_counter a pmtu_updates e0) - updates))
	mtu=$(route_mtu "$B2")
	log "e0 sent to $B2: a took $updates of r's errors, route to $B2: ${mtu:-no mtu}"
	if [ $FAMILY = ipv6 ]; then
		[ "$updates" -ge 1 ] && [ "$mtu" = "mtu 1400" ] ||
			fail "a did not take r's packet too big about e0's segments"
	fi

	updates=$(stt_counter a pmtu_updates e0)
	send_error "$A" "$B2" --mtu $EXT_MTU
	updates=$(($(stt_counter a pmtu_updates e0) - updates))
	mtu=$(route_mtu "$B2")
	log "after e0 sent to $B2: pmtu_updates +$updates, route to $B2: ${mtu:-no mtu}"
	[ "$updates" = 1 ] && [ "$mtu" = "mtu $EXT_MTU" ] ||
		fail "a did not take an error about e0's segments to $B2"
	# Frames cut to the new path MTU still arrive.
	ping_sizes a 10.0.1.2 8972
	stt_check_no_errors a e0
	stt_check_no_errors b s1
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
