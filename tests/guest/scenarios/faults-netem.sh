#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A faulty underlay: netem loses, reorders, duplicates, corrupts and delays
# the STT segments from a to b while a file crosses the tunnel between two
# plain stt devices.  For each fault the file must arrive with its SHA-256,
# b's counters must account for every segment and frame a sent (lost frames
# as reassembly timeouts, corrupted segments as bad checksums, duplicates as
# duplicates), no counter that does not apply may move, and once traffic has
# stopped and reasm_timeout_ms has passed the reassembly table must be empty.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 =====> 192.0.2.2 u0 -> ifb0 [netem] -> b: s0 10.0.0.2
#                     2001:db8::1       2001:db8::2   (faults-netem.sh ipv6)
#
# Where netem sits, and why: netem handles whole skbs, and an STT frame
# leaves the stt device as one GSO skb; a qdisc on a's u0 would see it
# before the device segments it (that happens after dequeue), so a loss
# would take a whole frame and reassembly would never notice (tried: netem
# on a's u0 counted one drop, and b missed the 20 segments of a frame).  So a's u0
# segments in software with checksums computed (no TSO, GSO or checksum
# offload: real wire segments with real checksums), b's u0 does not merge
# them again (no GRO), and netem sits on b's side of the wire: b's ingress
# is redirected through ifb0, whose root qdisc is netem.  Segments from b to
# a (inner ACKs) are not faulted, so that direction must balance exactly.
#
# Test: faults_netem
#   timeout: 600
#   kernels: not debug: faults_netem_ipv6 runs it over IPv6 on 7.3
#     (reassembly does not know the family); hostile sends reassembly its
#     faults under the debug kernel's checks
#   underlay: either
#
# Test: faults_netem_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 600
#   kernels: lanes only: on the newest kernel, Debian 13's backported 7.3;
#     faults_netem runs it over IPv4 on 6.1 and 6.12.  On the debug
#     kernel, hostile sends reassembly lost, repeated, overlapping and
#     reordered segments under KASAN and kmemleak; netem's faults add
#     volume, not paths
#   lanes: 7.3-deb13
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
underlay_family "${1:-}" && shift

stt_dev_pair a b $KEY
run in_ns a ethtool -K u0 tso off gso off tx off > /dev/null
run in_ns b ethtool -K u0 gro off > /dev/null
# No ARP through the tunnel: a frame the neighbour code sends on its own
# between reading a's counters and b's would count on one side only.
run ip -n a neigh replace 10.0.0.2 dev s0 nud permanent \
	lladdr "$(in_ns b cat /sys/class/net/s0/address)"
run ip -n b neigh replace 10.0.0.1 dev s0 nud permanent \
	lladdr "$(in_ns a cat /sys/class/net/s0/address)"
# numifbs=0: no ifb devices in the initial namespace, just ours.
run modprobe ifb numifbs=0
run ip -n b link add ifb0 type ifb
# Nothing but a's segments may meet netem: with IPv6 on, ifb0 itself sends
# router solicitations out through its root qdisc, at intervals that
# double from 4 s (RFC 7559), and netem lost one now and then: the "+1" of
# dropped segments over what a sent, seen in the loss-5% stage.
run in_ns b sysctl -qw net.ipv6.conf.ifb0.disable_ipv6=1
ip -n b link set ifb0 up
run tc -n b qdisc add dev u0 handle ffff: ingress
# Over IPv6, neither may the underlay's own ICMPv6 from a (matchall is
# the classifier every kernel here has, flower is not): no neighbour
# discovery on a permanent entry, no more router solicitations, and the
# multicast listener reports of a's addresses went when they were made.
tc_proto=ip
if [ "$UL_FAMILY" = ipv6 ]; then
	tc_proto=ipv6
	run ip -n a neigh replace "$UL_B" dev u0 nud permanent \
		lladdr "$(in_ns b cat /sys/class/net/u0/address)"
	run ip -n b neigh replace "$UL_A" dev u0 nud permanent \
		lladdr "$(in_ns a cat /sys/class/net/u0/address)"
	run in_ns a sysctl -qw net.ipv6.conf.u0.router_solicitations=0
fi
run tc -n b filter add dev u0 parent ffff: protocol $tc_proto matchall \
	action mirred egress redirect dev ifb0
ping_sizes a 10.0.0.2 1 8972

timeout_ms=$(cat /sys/module/stt/parameters/reasm_timeout_ms)

# netem [ARGS...]: a fresh netem with ARGS (tc qdisc change would keep
# reorder and corruption settings that ARGS leave out), or none.  A large
# limit, so that netem never drops what it was not asked to.
netem() {
	tc -n b qdisc del dev ifb0 root 2>/dev/null || true
	[ $# -eq 0 ] || run tc -n b qdisc add dev ifb0 root netem limit 100000 "$@"
}

# netem_dropped: what netem has dropped since it was set up (0 without it).
netem_dropped() {
	tc -n b -s qdisc show dev ifb0 |
		awk '/^qdisc netem/ { n = 1 }
			n && match($0, /dropped [0-9]+/) {
				print substr($0, RSTART + 8, RLENGTH - 8); exit }
			END { if (!n) print 0 }'
}

# snapshot NAME: both ends' counters in $WORK/{a,b}.NAME, netem's drops in
# b's (as netem_dropped), read together: a segment a late retransmission
# lost after the transfer must count on both sides of the balance or none.
snapshot() {
	stt_counters a s0 > "$WORK/a.$1"
	{ stt_counters b s0; echo "netem_dropped $(netem_dropped)"; } > "$WORK/b.$1"
}

# Counters stopped moving: the previous snapshot ("last") equals a new one,
# which is left as "now".
settled() {
	snapshot now
	if cmp -s "$WORK/a.now" "$WORK/a.last" &&
	   cmp -s "$WORK/b.now" "$WORK/b.last"; then
		return 0
	fi
	mv "$WORK/a.now" "$WORK/a.last"
	mv "$WORK/b.now" "$WORK/b.last"
	return 1
}

# moved SIDE NAME: how much counter NAME of SIDE (a or b) moved in the fault.
moved() {
	awk -v n="$2" '$1 == n { v = $2 } END { print v + 0 }' "$WORK/$1.moved"
}

# only_moved SIDE NAME...: no counter of SIDE moved but the traffic counters
# and NAMEs.
only_moved() {
	local side=$1 allowed=tx_frames,tx_segments,rx_frames,rx_segments,rx_frames_reassembled,rx_frames_copied,netem_dropped bad
	shift
	for name; do
		allowed=$allowed,$name
	done
	bad=$(awk -v allowed="$allowed" 'BEGIN { n = split(allowed, a, ",")
			for (i = 1; i <= n; i++) ok[a[i]] = 1 }
		!($1 in ok) { printf " %s +%d", $1, $2 }' "$WORK/$side.moved")
	[ -z "$bad" ] || fail "$FAULT: counters of $side that do not apply moved:$bad"
}

# fault NAME MIB NETEM-ARGS...: with netem ARGS on the segments from a to b,
# send MIB MiB from a to b.  Then, once the counters have stopped moving and
# reasm_timeout_ms has passed, b's reassembly table must be empty; sets
# $WORK/{a,b}.moved (see stt_counters_moved) and the deltas TX_FRAMES,
# TX_SEGS (a's), RX_FRAMES, RX_SEGS, TIMEOUTS (b's) and DROPPED (netem's).
fault() {
	local mib=$2 start gauges
	FAULT=$1
	shift 2
	netem "$@"
	# At rest before the transfer as after it: a late retransmission from
	# the previous transfer's connection, in flight while a snapshot is
	# read, counts at a before it and at b or in netem after it (a CI run
	# saw netem drop one segment more than a sent in the fault).
	snapshot last
	wait_for settled || fail "$FAULT: the counters keep moving before the transfer"
	mv "$WORK/a.now" "$WORK/a.before"
	mv "$WORK/b.now" "$WORK/b.before"
	start=$SECONDS
	send_file_and_hash a b 10.0.0.2 "$mib"
	log "$FAULT: $mib MiB in $((SECONDS - start)) s"
	# Incomplete frames expire reasm_timeout_ms after their first segment.
	sleep "$(awk -v ms="$timeout_ms" 'BEGIN { print ms / 1000 + 0.5 }')"
	cp "$WORK/a.before" "$WORK/a.last"
	cp "$WORK/b.before" "$WORK/b.last"
	wait_for settled || fail "$FAULT: the counters keep moving after the transfer"
	mv "$WORK/a.now" "$WORK/a.after"
	mv "$WORK/b.now" "$WORK/b.after"
	gauges=$(awk '$1 ~ /^reasm_(frames|bytes)$/ { printf " %s %d", $1, $2 }' \
		"$WORK/b.after")
	[ "$gauges" = " reasm_frames 0 reasm_bytes 0" ] ||
		fail "$FAULT: reassembly still holds$gauges ${timeout_ms} ms after the traffic stopped"
	stt_counters_moved "$WORK/a.before" "$WORK/a.after" > "$WORK/a.moved"
	stt_counters_moved "$WORK/b.before" "$WORK/b.after" > "$WORK/b.moved"
	DROPPED=$(moved b netem_dropped)
	log "$FAULT: netem dropped $DROPPED; a:" $(cat "$WORK/a.moved")
	log "$FAULT: b:" $(cat "$WORK/b.moved")
	netem
	TX_FRAMES=$(moved a tx_frames)
	TX_SEGS=$(moved a tx_segments)
	RX_FRAMES=$(moved b rx_frames)
	RX_SEGS=$(moved b rx_segments)
	TIMEOUTS=$(moved b rx_reasm_timeouts)
	# The way back is not faulted.
	[ "$(moved b tx_frames)" -eq "$(moved a rx_frames)" ] ||
		fail "$FAULT: b sent $(moved b tx_frames) frames, a received $(moved a rx_frames)"
	only_moved a
}

# Loss: every segment a sent reached b's receive hook or was dropped by
# netem; each frame that lost some but not all of its segments expired
# (and those are most of them: few frames have a single segment).
check_loss() {
	[ "$((RX_SEGS + DROPPED))" -eq "$TX_SEGS" ] ||
		fail "$FAULT: a sent $TX_SEGS segments, b received $RX_SEGS and netem dropped $DROPPED"
	[ "$TIMEOUTS" -gt 0 ] || fail "$FAULT: no reassembly timeout"
	[ "$TIMEOUTS" -le "$((TX_FRAMES - RX_FRAMES))" ] &&
		[ "$((TX_FRAMES - RX_FRAMES))" -le "$DROPPED" ] ||
		fail "$FAULT: $TIMEOUTS timeouts, $((TX_FRAMES - RX_FRAMES)) frames lost, $DROPPED segments lost"
	only_moved b rx_reasm_timeouts
	log "$FAULT: $DROPPED segments lost, $((TX_FRAMES - RX_FRAMES)) frames lost, $TIMEOUTS of them expired"
}

# Nothing lost: every segment and frame arrived, none expired.
check_lossless() {
	[ "$RX_SEGS" -eq "$TX_SEGS" ] && [ "$RX_FRAMES" -eq "$TX_FRAMES" ] ||
		fail "$FAULT: a sent $TX_FRAMES frames in $TX_SEGS segments, b received $RX_FRAMES in $RX_SEGS"
	only_moved b
	log "$FAULT: all $TX_FRAMES frames ($TX_SEGS segments) arrived, $(moved b rx_frames_reassembled) reassembled"
}

fault "loss 1%" 2 loss 1%
check_loss
fault "loss 5%" 1 loss 5%
check_loss

# Reordering: a quarter of the segments overtake the others, delayed by
# 10 ms.
fault "reorder 25%" 1 delay 10ms reorder 25% 50%
check_lossless
fault "delay 20 ms, jitter 10 ms" 1 delay 20ms 10ms
check_lossless

# Duplication: a copy that finds its frame incomplete is refused as a
# duplicate; a copy of the segment that completed a frame finds none and
# starts a frame of its own, which expires; a copy of a single-segment frame
# is a whole frame and is delivered again (the inner TCP discards it).
fault "duplicate 5%" 1 duplicate 5%
dups=$(moved b rx_err_duplicate)
[ "$dups" -gt 0 ] || fail "$FAULT: no segment counted as rx_err_duplicate"
[ "$((RX_SEGS - TX_SEGS))" -eq "$((dups + TIMEOUTS + RX_FRAMES - TX_FRAMES))" ] ||
	fail "$FAULT: $((RX_SEGS - TX_SEGS)) extra segments, but $dups duplicates, $TIMEOUTS timeouts and $((RX_FRAMES - TX_FRAMES)) extra frames"
only_moved b rx_err_duplicate rx_reasm_timeouts
log "$FAULT: $((RX_SEGS - TX_SEGS)) copies: $dups refused, $TIMEOUTS expired alone, $((RX_FRAMES - TX_FRAMES)) whole frames again"

# Corruption: netem flips a bit in a segment's linear part.  In the TCP
# header or payload, b's checksum check drops the segment (rx_err_bad_csum)
# and its frame expires; in the IP header, IP drops it before STT sees it
# (IpInHdrErrors), and so does TCP when the destination port was hit
# (TcpInCsumErrors); in the Ethernet header, nothing notices (it was
# already parsed).  An IPv6 header has no checksum: a flipped source
# address fails the TCP checksum (its pseudo-header), a flipped version,
# length, next header or destination makes IPv6 input drop the segment
# (Ip6InHdrErrors, Ip6InTruncatedPkts, Ip6InUnknownProtos, Ip6InAddrErrors,
# Ip6InNoRoutes), a flipped hop limit, traffic class or flow label changes
# nothing STT reads.

# mibs NAME: b's IP, IPv6 and TCP counters in $WORK/mib.NAME ("name value").
mibs() {
	in_ns b nstat -asz | awk '$1 ~ /^(Ip|Ip6|Tcp)[A-Z]/ { print $1, $2 }' \
		> "$WORK/mib.$1"
}

# mibs_moved [REGEX]: how much the counters whose names match REGEX moved
# together from mib.before to mib.after; without REGEX, each that moved.
mibs_moved() {
	awk -v re="${1:-}" 'NR == FNR { v[$1] = $2; next }
		re && $1 ~ re { n += $2 - v[$1] }
		!re && $2 != v[$1] { printf " %s +%d", $1, $2 - v[$1] }
		END { if (re) print n + 0 }' "$WORK/mib.before" "$WORK/mib.after"
}

mibs before
fault "corrupt 1%" 4 corrupt 1%
mibs after
bad=$(moved b rx_err_bad_csum)
[ "$bad" -gt 0 ] || fail "$FAULT: no segment counted as rx_err_bad_csum"
ip_dropped=$(mibs_moved '^(IpInHdrErrors|TcpInCsumErrors|Ip6In(HdrErrors|TruncatedPkts|UnknownProtos|AddrErrors|NoRoutes))$')
[ "$((RX_SEGS + ip_dropped))" -eq "$TX_SEGS" ] ||
	fail "$FAULT: a sent $TX_SEGS segments, b's STT received $RX_SEGS and IP and TCP dropped $ip_dropped; b's counters that moved:$(mibs_moved)"
lost=$((ip_dropped + bad))
[ "$TIMEOUTS" -le "$((TX_FRAMES - RX_FRAMES))" ] &&
	[ "$((TX_FRAMES - RX_FRAMES))" -le "$lost" ] ||
	fail "$FAULT: $TIMEOUTS timeouts, $((TX_FRAMES - RX_FRAMES)) frames lost, $lost segments lost"
only_moved b rx_err_bad_csum rx_reasm_timeouts
log "$FAULT: $bad bad checksums, $ip_dropped segments dropped by IP or TCP, $((TX_FRAMES - RX_FRAMES)) frames lost, $TIMEOUTS expired"

stt_check_no_errors a s0
log "PASS faults-netem over $UL_FAMILY"
