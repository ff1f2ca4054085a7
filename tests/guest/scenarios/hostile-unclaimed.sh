#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# STT-looking input that no stt device claims is left alone: in a namespace
# without an stt device on the destination port, the segments belong to the
# TCP stack, which answers them as it answers anything sent to a closed port
# (a RST for each well-formed segment that is not itself a RST; nothing for
# a bad checksum or a truncated header), and no stt counter anywhere moves.
# Namespace c has an external device on the port all along, so the module
# and a receive port are live, just not in b.
#
#   x: stt-attack  u1 198.51.100.1 ===== 198.51.100.2 u1  :b
#                     2001:db8:100::1     2001:db8:100::2   (ipv6)
#   c: s0 (external, port 7471)
#
# b then gets a device on another port (7472): 7471 stays the TCP stack's,
# while the device counts what is sent to 7472 and nothing answers there;
# the kernel's drop tracepoint (skb:kfree_skb) names the stt module and a
# reason for each drop it counted.
# With a device on 7471 too, nothing answers on 7471 either; once that
# device is gone, the TCP stack answers again.
#
#	hostile-unclaimed.sh [ipv4|ipv6]
#
# Test: hostile_unclaimed
#   timeout: 300
#   kernels: oldest distro: hostile_unclaimed_ipv6 runs it over IPv6 on
#     7.3, and hostile takes the same receive hook and drops on the debug
#     kernel
#   underlay: either
#
# Test: hostile_unclaimed_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 300
#   kernels: lanes only: on the newest kernel, Debian 13's backported 7.3;
#     hostile_unclaimed runs it over IPv4 on 6.1
#   lanes: 7.3-deb13
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

STT_ATTACK=$STT_GUEST_DIR/tools/stt-attack
underlay_family "${1:-}" && shift
if [ "$UL_FAMILY" = ipv6 ]; then
	X=2001:db8:100::1 XB=2001:db8:100::2 X_PREFIX=64
else
	X=198.51.100.1 XB=198.51.100.2 X_PREFIX=24
fi

# stt_ext_up NS DEV: bring up external device DEV without IPv6, whose own
# neighbour discovery it would count as tx_drop_no_tunnel_info.
stt_ext_up() {
	in_ns "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	run ip -n "$1" link set "$2" up
}

add_ns b
add_ns c
add_ns x
add_underlay x "$X/$X_PREFIX" b "$XB/$X_PREFIX" 1500 u1
run modprobe stt
run in_ns c "$STT_CTL" add s0 external
stt_ext_up c s0
stt_counters c s0 > "$WORK/c.before"
DST_MAC=$(in_ns b cat /sys/class/net/u1/address)

# attack PORT CLASS=N...: stt-attack sends each CLASS to b's PORT; sets
# ANSWERS and RSTS to CLASS's answers, e.g. "valid=100 tcp-flags=90".
attack() {
	local port=$1 line class word
	shift
	log "+ [x] stt-attack --port $port $*"
	in_ns x "$STT_ATTACK" --iface u1 --dst "$XB" --dst-mac "$DST_MAC" \
		--port "$port" "$@" > "$WORK/attack.out" ||
		fail "stt-attack failed"
	ANSWERS=
	RSTS=
	while read -r line; do
		log "[x] stt-attack $line"
		class=${line%% *}
		for word in $line; do
			case $word in
			answers=*) ANSWERS="$ANSWERS $class=${word#*=}" ;;
			rst=*) RSTS="$RSTS $class=${word#*=}" ;;
			missed=*) [ "${word#*=}" = 0 ] ||
				fail "stt-attack missed answers to $class" ;;
			esac
		done
	done < "$WORK/attack.out"
}

# expect_answers WHAT WANTED: WHAT (ANSWERS or RSTS as attack left them)
# is WANTED, both lists of CLASS=N.
expect_answers() {
	[ "$1" = " $2" ] || fail "answers from b: got$1, expected $2"
}

# Well-formed segments each get a RST (of tcp-flags' 120, the 30 that carry
# RST themselves do not); bad checksums and truncated headers get nothing.
WELL_FORMED=(valid=100 tcp-flags=120 random-segment=300 ip-frag=32)
RST_ANSWERS="valid=100 tcp-flags=90 random-segment=300 ip-frag=32"
MALFORMED=(bad-csum=100 tcp-truncated=160 tcp-doff=45)
# tcp-doff: 0-4 are dropped as malformed, 6-15 read as options and answered.
MALFORMED_ANSWERS="bad-csum=0 tcp-truncated=0 tcp-doff=30"

check_tcp_stack_answers() {
	local port=$1 csum
	csum=$(ip_mib b TcpInCsumErrors)
	attack "$port" "${WELL_FORMED[@]}" "${MALFORMED[@]}"
	expect_answers "$ANSWERS" "$RST_ANSWERS $MALFORMED_ANSWERS"
	expect_answers "$RSTS" "$RST_ANSWERS $MALFORMED_ANSWERS"
	[ "$(ip_mib b TcpInCsumErrors)" -eq $((csum + 100)) ] ||
		fail "b's TCP stack did not count 100 checksum errors"
	log "port $port of b is the TCP stack's: every well-formed segment answered by a RST"
}

# No device in b: the TCP stack's.
check_tcp_stack_answers 7471

# A device on 7472 in b: 7471 is still the TCP stack's, 7472 is STT's.
run in_ns b "$STT_CTL" add s1 external dstport 7472
stt_ext_up b s1
check_tcp_stack_answers 7471
stt_counters b s1 > "$WORK/s1.before"
drops_trace_start
attack 7472 valid=100 tcp-flags=120 bad-csum=100
drops_trace_stop > "$WORK/drops"
expect_answers "$ANSWERS" "valid=0 tcp-flags=0 bad-csum=0"
stt_counters b s1 > "$WORK/s1.after"
moved=$(stt_counters_moved "$WORK/s1.before" "$WORK/s1.after" | sort | xargs)
[ "$moved" = "rx_err_bad_csum 100 rx_err_tcp_flags 120 rx_frames 100 rx_segments 320" ] ||
	fail "b's s1 counters moved by: $moved"
log "b's s1 (port 7472): $moved, no answer"

# What dropwatch, perf and pwru see of the same drops (skb:kfree_skb): each
# in the stt module, with the kernel's reason for its counter.
drops=$(stt_drops "$WORK/drops")
[ "$drops" = "TCP_CSUM 100 TCP_FLAGS 120" ] ||
	fail "drops in the stt module by reason: '$drops', expected TCP_CSUM 100 TCP_FLAGS 120 ($(sort "$WORK/drops" | uniq -c | xargs))"
log "skb:kfree_skb in [stt]: $drops ($(awk '$3 == "[stt]" { print $2 }' "$WORK/drops" | sort -u | xargs))"

# A header and a reassembly rejection.  A duplicate segment's reason came
# after 6.1 (DUP_FRAG): where the kernel lacks it, TCP's "already received".
dup=TCP_OLD_DATA
drop_reason_known DUP_FRAG && dup=DUP_FRAG
drops_trace_start
attack 7472 version=40 duplicate=30
drops_trace_stop > "$WORK/drops"
expect_answers "$ANSWERS" "version=0 duplicate=0"
drops=$(stt_drops "$WORK/drops")
want=$(printf '%s\n' "$dup 30" "UNHANDLED_PROTO 40" | sort | xargs)
[ "$drops" = "$want" ] ||
	fail "drops in the stt module by reason: '$drops', expected $want ($(sort "$WORK/drops" | uniq -c | xargs))"
log "skb:kfree_skb in [stt]: $drops"

# A device on 7471 in b: nothing answers there; without it, TCP again.
run in_ns b "$STT_CTL" add s0 external
stt_ext_up b s0
attack 7471 "${WELL_FORMED[@]}" "${MALFORMED[@]}"
expect_answers "$ANSWERS" \
	"$(echo "$RST_ANSWERS $MALFORMED_ANSWERS" | sed 's/=[0-9]*/=0/g')"
log "port 7471 of b is STT's: nothing answers"
run in_ns b "$STT_CTL" del s0
check_tcp_stack_answers 7471

# The device in c saw none of it.
stt_counters c s0 > "$WORK/c.after"
moved=$(stt_counters_moved "$WORK/c.before" "$WORK/c.after")
[ -z "$moved" ] || fail "c's s0 counted traffic sent to b: $moved"
log "c's s0: no counter moved"
log "PASS hostile-unclaimed over $UL_FAMILY"
