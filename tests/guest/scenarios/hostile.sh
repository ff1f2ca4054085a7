#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input from the underlay while a legitimate 16 MiB transfer runs
# through an STT tunnel.  From namespace x, stt-attack (Python, one raw
# socket) sends b's tunnel endpoint every kind of malformed, conflicting or
# abusive STT segment, and floods it with first segments of frames that
# never complete.  b keeps a fixed-peer device s1 for x's address, so that
# frames that pass every check have somewhere to go.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ====== u0 192.0.2.2      s0 10.0.0.2  :b
#                                        u1 198.51.100.2  s1 (remote x)
#   x: stt-attack   u1 198.51.100.1 ====/
#   (ipv6: 2001:db8::1, 2001:db8::2; x's link 2001:db8:100::/64)
#
# For every class of input:
#   - the counter of its reason (ethtool -S s1: b's receive port and s1)
#     moves by exactly what was sent, and no other counter moves;
#   - nothing answers from the STT port, though a TCP listener is bound to
#     it in b all along.
# The flood (5,000 frames) runs against a reassembly bound lowered to 512
# KiB and a timeout raised to 2 s, so that the bound is reached within some
# 200 frames, before the first of them expires: sampled meanwhile,
# reasm_bytes never exceeds the bound, and the counters show the bound
# evicting and every flood frame evicted or expired.  The
# transfer arrives whole (SHA-256, so no byte lost), and reassembly memory
# drains to 0 within the timeout once a flood stops.
#
# Usage: hostile.sh [ipv4|ipv6] [SEED] (stt-attack's random classes;
# logged).  Over IPv6 the IP classes are IPv6's: extension headers (those
# IPv6 input is done with skipped, the others left to it) and fragment
# headers (netfilter's IPv6 reassembly, before the hook, counts none but
# expiries); and sources that hold an IPv4 address, which must not pass
# for the IPv4 peer of another device, s2 (rx_err_ipv6_saddr).
#
# Test: hostile
#   Two CPUs: the attack and the transfer are received side by side.
#   timeout: 600
#   cpus: 2
#   kernels: not debug: hostile_ipv6 runs it over IPv6 on the debug kernel
#     (all but the IP classes and the hook do not know the family)
#   underlay: either
#
# Test: hostile_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 600
#   cpus: 2
#   kernels: debug only: hostile runs it over IPv4 on Debian's kernels
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

underlay_family "${1:-}" && shift
SEED=${1:-$(date +%s)}
KEY=0x1122334455667788
ATTACK_KEY=0x00000000000000aa
LIMIT=$((512 << 10))
TIMEOUT_MS=2000
STT_ATTACK=$STT_GUEST_DIR/tools/stt-attack
SUMMARY=$STT_RESULTS/hostile-summary.txt

# baseline: the counters of s1 now in $WORK/before, for the next check.
# That is how the last check (counters_as_expected) found them, if there
# was one, for every change since was checked; reusing them saves a
# namespace switch per class.
baseline() {
	if [ -e "$WORK/after" ]; then
		mv "$WORK/after" "$WORK/before"
	else
		stt_counters b s1 > "$WORK/before"
	fi
}

# attack_send CLASS N: stt-attack sends N units of CLASS to b; sets
# PACKETS, SEGMENTS (those that reach b's TCP layer as segments), ANSWERS
# and END (when sending ended, seconds since the epoch), the counters of
# s1 from before in $WORK/before (baseline).
attack_send() {
	local class=$1 n=$2 result word
	baseline
	echo "$class $n" >&"${ATTACK[1]}"
	read -r -t 600 result <&"${ATTACK[0]}" ||
		fail "stt-attack $class: no report: $(cat "$WORK/attack.err")"
	log "[x] stt-attack $result (transfer at $(received_bytes b) bytes)"
	for word in $result; do
		case $word in
		packets=*) PACKETS=${word#*=} ;;
		segments=*) SEGMENTS=${word#*=} ;;
		answers=*) ANSWERS=${word#*=} ;;
		missed=*) MISSED=${word#*=} ;;
		end=*) END=${word#*=} ;;
		esac
	done
	[ "$ANSWERS" -eq 0 ] && [ "$MISSED" -eq 0 ] ||
		fail "$class: $ANSWERS answers from b's port $STT_PORT ($MISSED more packets from b missed)"
}

# counters_as_expected BEFORE EXPECTATION...: since the counters of s1 in
# file BEFORE, each EXPECTATION holds -- NAME=N: moved by exactly N,
# NAME=N+: by N or more, A+B+...=N: together by exactly N -- and no other
# counter moved, but for rx_segments, rx_frames_reassembled and
# rx_frames_copied, which the transfer moves too.
counters_as_expected() {
	local before=$1
	shift
	stt_counters b s1 > "$WORK/after"
	stt_counters_moved "$before" "$WORK/after" | awk -v expect="$*" '
		{ moved[$1] = $2 }
		END {
			n = split(expect, e, " ")
			for (i = 1; i <= n; i++) {
				split(e[i], side, "=")
				want = side[2] + 0
				m = split(side[1], names, "+")
				got = 0
				for (j = 1; j <= m; j++) {
					got += moved[names[j]]
					named[names[j]] = 1
				}
				if (side[2] ~ /\+$/ ? got < want : got != want) {
					printf "%s: moved by %d\n", e[i], got
					bad = 1
				}
			}
			for (c in moved)
				if (!(c in named) && c != "rx_segments" &&
				    c != "rx_frames_reassembled" &&
				    c != "rx_frames_copied" && c !~ /^reasm_/) {
					printf "%s moved by %d\n", c, moved[c]
					bad = 1
				}
			exit bad
		}'
}

# attack CLASS N EXPECTATION...: attack_send, then wait for the counters of
# s1 to settle as EXPECTATIONS say (counters_as_expected), rx_segments
# grown by at least the segments sent.
attack() {
	local class=$1 n=$2
	shift 2
	attack_send "$class" "$n"
	wait_for counters_as_expected "$WORK/before" \
		"rx_segments=$SEGMENTS+" "$@" ||
		fail "$class: the counters of b's s1 are not as expected (above)"
	log "$class: ${*:-no counter} (rx_segments=$SEGMENTS+), no answer"
	echo "$class $n $PACKETS $ANSWERS ${*:--}" >> "$SUMMARY"
}

# attack_errors CLASS=N:COUNTER...: for each, attack CLASS with N units,
# which must move COUNTER by exactly N and no other.
attack_errors() {
	local spec n
	for spec; do
		n=${spec#*=}
		n=${n%%:*}
		attack "${spec%%=*}" "$n" "${spec##*:}=$n"
	done
}

# ---- floods -----------------------------------------------------------------

# sample_reasm FILE STOP: "time frames bytes limit" of b's reassembly table
# a line, as often as ethtool runs, until file STOP exists.  One shell in b
# runs ethtool, so that a sample costs a process, not a namespace switch.
sample_reasm() {
	in_ns b bash -c 'while [ ! -e "$1" ]; do
			echo "$EPOCHREALTIME"; ethtool -S s1
		done' - "$2" | awk '
		function flush() { if (t != "") print t, f, b, l }
		/^[0-9.]+$/ { flush(); t = $1 }
		$1 == "reasm_frames:" { f = $2 }
		$1 == "reasm_bytes:" { b = $2 }
		$1 == "reasm_limit_bytes:" { l = $2 }
		END { flush() }' > "$1"
}

# flood N NAME [drain]: N first segments of frames that never complete,
# b's reassembly table sampled meanwhile ($STT_RESULTS/NAME.samples).
# Memory must never exceed the bound in any sample.  That it reached the
# bound shows in the counters, which see every segment where samples see a
# few a second: rx_reasm_mem_drops moves only when a segment finds the
# table full, and every flood frame must be evicted or expired.  (Samples
# at the bound -- less than a flood frame's charge free, under 4 KiB -- are
# counted, not required: under the transfer, whose frames come and go by
# the tens of KiB, a 6.1 run had 1 of 20.)  With "drain", sampling
# goes on until the table is empty, which must happen within the timeout,
# plus 1 s for timer slack in an emulated guest, plus the sampling period;
# DRAIN_MS says when.
flood() {
	local n=$1 name=$2 drain=${3:-} samples=$STT_RESULTS/$2.samples sampler
	rm -f "$WORK/flood.stop"
	sample_reasm "$samples" "$WORK/flood.stop" &
	sampler=$!
	attack_send flood "$n"
	[ -z "$drain" ] || wait_for drained ||
		fail "$name: reassembly memory did not drain"
	# Every flood frame is evicted at the bound or expires.  Which of the
	# two depends on how fast the flood arrives against the timeout: a
	# debug kernel sharing two cores with three other emulated CPUs
	# evicted 4,091 of 20,000 and let the rest expire.  Sampling goes on
	# meanwhile: the table holds the flood's last frames until they expire.
	wait_for counters_as_expected "$WORK/before" "rx_segments=$n+" \
		"rx_reasm_mem_drops=1+" \
		"rx_reasm_mem_drops+rx_reasm_timeouts=$n+" ||
		fail "$name: flood frames not disposed of as expected (above)"
	touch "$WORK/flood.stop"
	wait $sampler
	awk -v limit=$LIMIT -v end="$END" -v timeout=$TIMEOUT_MS -v drain="$drain" '
		$4 != limit { printf "limit %s in sample %d\n", $4, NR; bad = 1 }
		$3 > limit {
			printf "%d bytes above the bound in sample %d\n", $3 - limit, NR
			bad = 1
		}
		$3 > peak { peak = $3 }
		prev && $1 - prev > gap { gap = $1 - prev }
		{ prev = $1 }
		$3 > limit - 4096 { at++ }
		drain && $1 > end && $3 == 0 && drained == "" {
			drained = ($1 - end) * 1000
		}
		END {
			printf "%d samples (largest gap %d ms), ", NR, gap * 1000
			printf "peak %d of %d bytes, at the bound in %d samples",
				peak, limit, at
			if (drained != "")
				printf ", empty %d ms after it", drained
			print ""
			if (drained != "" && drained > timeout + 1000 + gap * 1000) {
				print "drained too late"; bad = 1
			}
			exit bad
		}' "$samples" | tee "$WORK/flood.result" ||
		fail "$name: reassembly memory not as bounded (above)"
	DRAIN_MS=$(sed -n 's/.*empty \([0-9]*\) ms after it.*/\1/p' "$WORK/flood.result")
	log "$name: $(cat "$WORK/flood.result");" \
		"$(stt_counters_moved "$WORK/before" "$WORK/after" |
			awk '/reasm_(mem_drops|timeouts)/ { printf " %s +%d", $1, $2 }')"
	echo "$name $n $PACKETS $ANSWERS $(cat "$WORK/flood.result")" >> "$SUMMARY"
}

# drained: b's reassembly table is empty.
drained() {
	[ "$(stt_counter b reasm_bytes s1)" -eq 0 ] &&
		[ "$(stt_counter b reasm_frames s1)" -eq 0 ]
}

# ip_reasm_timeouts N: b's IP layer has expired N incomplete datagrams.
ip_reasm_timeouts() {
	[ "$(ip_mib b "$REASM_TIMEOUT")" -eq "$1" ]
}

# ---- the tunnel, the attacker's device, the attacker ------------------------

if [ "$UL_FAMILY" = ipv6 ]; then
	X=2001:db8:100::1 XB=2001:db8:100::2 X_PREFIX=64 UL_NET=2001:db8::/64
	REASM_TIMEOUT=Ip6ReasmTimeout TARGET="[$UL_B]"
	# An IPv4 peer for x's ipv6-saddr class to pass for.
	V4_PEER=198.51.100.1
else
	X=198.51.100.1 XB=198.51.100.2 X_PREFIX=24 UL_NET=192.0.2.0/24
	REASM_TIMEOUT=IpReasmTimeout TARGET=$UL_B
fi

run modprobe stt

stt_dev_pair a b $KEY
add_ns x
add_underlay x "$X/$X_PREFIX" b "$XB/$X_PREFIX" 1500 u1
run ip -n x route add "$UL_NET" via "$XB"
run in_ns b "$STT_CTL" add s1 remote "$X" id $ATTACK_KEY
# s1 only receives: no address, no IPv6, so it never sends.
in_ns b sysctl -qw net.ipv6.conf.s1.disable_ipv6=1
run ip -n b link set s1 up
if [ -n "${V4_PEER:-}" ]; then
	run in_ns b "$STT_CTL" add s2 remote $V4_PEER id $ATTACK_KEY
	in_ns b sysctl -qw net.ipv6.conf.s2.disable_ipv6=1
	run ip -n b link set s2 up
fi
# The parameters apply at once, to the receive port open already.
limit=$(stt_counter b reasm_limit_bytes s1)
[ "$limit" -eq $((8 << 20)) ] || fail "reasm_limit_bytes is $limit, not the default 8 MiB"
echo $LIMIT > /sys/module/stt/parameters/reasm_mem_limit
echo $TIMEOUT_MS > /sys/module/stt/parameters/reasm_timeout_ms
limit=$(stt_counter b reasm_limit_bytes s1)
[ "$limit" -eq $LIMIT ] || fail "reasm_limit_bytes is $limit after writing $LIMIT to reasm_mem_limit"
# The transfer's frames leave a in segments that b has to reassemble (with
# TSO, veth would carry each frame whole), so they compete with the flood
# for reassembly memory.
run in_ns a ethtool -K u0 tso off
# Incomplete outer fragments expire after 2 s instead of 30 (IPv4) or 60
# (netfilter's IPv6 reassembly, which the receive port has on).
in_ns b sysctl -qw net.ipv4.ipfrag_time=2 \
	net.netfilter.nf_conntrack_frag6_timeout=2

# A TCP listener on the STT port: it must never see a connection.
background "$WORK/listener.log" ip netns exec b \
	socat -u TCP-LISTEN:$STT_PORT,reuseaddr,fork OPEN:/dev/null
wait_listening b $STT_PORT || fail "[b] no listener on $STT_PORT"

log "+ [x] stt-attack --iface u1 --dst $UL_B --key $ATTACK_KEY --seed $SEED serve"
# Niced, so that the transfer and the sampler are not starved by the flood.
coproc ATTACK {
	exec nice -n 10 ip netns exec x "$STT_ATTACK" --iface u1 \
		--dst "$UL_B" --dst-mac "$(in_ns b cat /sys/class/net/u1/address)" \
		--dev-mac "$(in_ns b cat /sys/class/net/s1/address)" \
		${V4_PEER:+--v4-peer $V4_PEER} \
		--key $ATTACK_KEY --seed "$SEED" serve 2> "$WORK/attack.err"
}
BACKGROUND+=("$ATTACK_PID")
read -r -t 60 ready <&"${ATTACK[0]}" && [ "$ready" = ready ] ||
	fail "stt-attack did not start: $(cat "$WORK/attack.err")"
echo "class units packets answers counters" > "$SUMMARY"

# ---- the flood and every class, the transfer running ------------------------

# 16 MiB at 64 kbit/s take 2,100 s, longer than the debug kernel's 1,800 s
# timeout: the classes end before the transfer, whatever the host's load.
send_file_underway a b 10.0.0.2 16 64kbit
flood 5000 flood
send_file_unfinished b "the flood"

# Whole frames that pass every segment and header check: for s1, with
# offloads s1 must restore, from s1's own MAC address (a loop), for no
# device, with inner headers that contradict the STT header's flags.
attack valid 100 rx_frames=100
attack valid-offload 100 rx_frames=100
attack_errors own-mac=50:rx_err_loop no-device=100:rx_err_no_device \
	inner=99:rx_err_inner

# The TCP header.  Checksums are checked first, so a SYN with a bad one is
# a bad checksum.
attack_errors bad-csum=100:rx_err_bad_csum tcp-flags=120:rx_err_tcp_flags \
	tcp-doff=150:rx_err_tcp_doff tcp-truncated=160:rx_err_tcp_truncated
# Too short to name a port: the TCP stack's, which drops it.
attack tcp-stub 40

# The STT header's fields.
attack_errors version=255:rx_err_version \
	reserved-flags=150:rx_err_reserved_flags l4-offset=150:rx_err_l4_offset \
	mss=100:rx_err_mss mss-small=100:rx_err_mss_small

# The sequence number: frame length and offset against the payload.
attack_errors frame-len=128:rx_err_frame_len seg-empty=100:rx_err_seg_empty \
	seg-offset=100:rx_err_seg_offset seg-len=100:rx_err_seg_len

# Reassembly: every frame is completed after the offence, so each is also
# delivered to s1 and none is left to expire.  How long a frame takes to
# complete is the sender's pace, not the receiver's: on a loaded host the
# guest loses the CPU for seconds (CI's 6.12-debug run once, and one here at
# load 12: interleaved delivered 9 of 10, rx_reasm_timeouts +2), so these
# classes run with a timeout far above any such pause; TIMEOUT_MS comes back
# after them for the classes whose frames must expire.
echo $((TIMEOUT_MS * 30)) > /sys/module/stt/parameters/reasm_timeout_ms
attack split-header 68 rx_frames=68 rx_frames_reassembled=68+
attack overlap 50 rx_err_overlap=50 rx_frames=50 rx_frames_reassembled=50+
attack duplicate 50 rx_err_duplicate=50 rx_frames=50 rx_frames_reassembled=50+
attack len-mismatch 50 rx_err_len_mismatch=50 rx_frames=50 \
	rx_frames_reassembled=50+
attack too-fragmented 20 rx_err_too_fragmented=20 rx_frames=20 \
	rx_frames_reassembled=20+
# One-byte segments, 120 to a frame (a receiver walking a list for each is
# quadratic in that count).  Pieces that small are not worth a page
# fragment each: the frames are copied whole (the transfer's own frames may
# add to rx_frames_copied).
attack one-byte 10 rx_frames=10 rx_frames_reassembled=10+ rx_frames_copied=10+
attack interleaved 10 rx_frames=10 rx_frames_reassembled=10+ \
	rx_frames_copied=10+
attack frame-id-reuse 30 rx_frames=90 rx_frames_reassembled=90+
echo $TIMEOUT_MS > /sys/module/stt/parameters/reasm_timeout_ms

# mib_moved NAME BEFORE N: b's MIB counter NAME moved from BEFORE by N.
mib_moved() {
	local now
	now=$(ip_mib b "$1")
	[ "$now" -eq $(($2 + $3)) ] ||
		fail "$1 moved from $2 to $now, not by $3"
}

if [ "$UL_FAMILY" = ipv6 ]; then
	# Extension headers IPv6 input is done with before the TCP header
	# are skipped; a routing header with a segment left and one whose
	# length runs past the packet (one in 8 each) are IPv6 input's to
	# drop.
	hdr_errors=$(ip_mib b Ip6InHdrErrors)
	attack ip-options 70 rx_frames=54
	mib_moved Ip6InHdrErrors "$hdr_errors" 16
	# Sources that hold an IPv4 address, in the form of one b keeps s2
	# for, must not pass for it.
	attack ipv6-saddr 60 rx_err_ipv6_saddr=60
	for counter in rx_frames rx_drop_dev_down; do
		[ "$(stt_counter b $counter s2)" -eq 0 ] ||
			fail "[b] s2 counted $counter: an IPv6 source passed for its IPv4 peer"
	done
	# Netfilter's IPv6 reassembly counts what it completes or discards
	# nowhere: whole frames delivered, and none of the overlapping ones,
	# tell.
	attack ip-frag 64 rx_frames=64
	attack ip-frag-overlap 30
else
	# The IP header's options are not interpreted, but for a source route
	# (one in 7), which IP input drops: accept_source_route is off.
	attack ip-options 70 rx_frames=60
	# Outer fragments are reassembled by the IP layer before the hook, or
	# discarded by it: its counters move, STT's only for whole datagrams.
	oks=$(ip_mib b IpReasmOKs)
	attack ip-frag 64 rx_frames=64
	mib_moved IpReasmOKs "$oks" 64
	overlaps=$(ip_mib b IpExtReasmOverlaps)
	attack ip-frag-overlap 30
	mib_moved IpExtReasmOverlaps "$overlaps" 30
fi
timeouts=$(ip_mib b "$REASM_TIMEOUT")
attack ip-frag-incomplete 30
wait_for ip_reasm_timeouts $((timeouts + 30)) ||
	fail "$REASM_TIMEOUT moved from $timeouts to $(ip_mib b "$REASM_TIMEOUT"), not by 30"

# Each random input lands in exactly one outcome.
segment=rx_err_frame_len+rx_err_seg_empty+rx_err_seg_offset+rx_err_seg_len
reasm=rx_reasm_timeouts+rx_reasm_mem_drops
header=rx_err_version+rx_err_reserved_flags+rx_err_l4_offset+rx_err_mss
header=$header+rx_err_mss_small
frame=rx_err_no_device+rx_err_inner+rx_frames
attack random-segment 500 "$segment+$reasm=500"
attack random-frame 500 "$header+$frame=500"

run ip -n b link set s1 down
attack valid 100 rx_drop_dev_down=100
run ip -n b link set s1 up
send_file_unfinished b "the last class"

# A connect() from x: its SYNs are counted, never answered, and the
# listener in b never sees a connection.
baseline
log "+ [x] socat TCP:$TARGET:$STT_PORT,connect-timeout=3  (must time out)"
if in_ns x timeout 10 socat -u /dev/null \
	"TCP:$TARGET:$STT_PORT,connect-timeout=3" 2> "$WORK/connect.err"; then
	fail "a connection to b's port $STT_PORT succeeded"
fi
grep -q 'Connection timed out\|Operation timed out' "$WORK/connect.err" ||
	fail "connect to b's port $STT_PORT did not time out: $(cat "$WORK/connect.err")"
wait_for counters_as_expected "$WORK/before" rx_err_tcp_flags=1+ ||
	fail "connect(): the counters of b's s1 are not as expected (above)"
log "connect(): timed out, its SYNs counted as rx_err_tcp_flags"
sockets=$(ss -N b -Htn "sport = :$STT_PORT")
[ -z "$sockets" ] || fail "[b] TCP sockets on port $STT_PORT: $sockets"

# ---- after the transfer -----------------------------------------------------

send_file_check b

wait_for drained || fail "reassembly memory did not drain after the transfer"

# Once more without other traffic, to time the drain.
flood 5000 flood-idle drain
log "reassembly memory back to 0 $DRAIN_MS ms after the flood (timeout $TIMEOUT_MS ms)"

stt_check_no_errors a s0
for counter in rx_err_inner rx_drop_dev_down rx_err_nomem; do
	[ "$(stt_counter b $counter s0)" -eq 0 ] ||
		fail "[b] s0 counted $counter: the legitimate tunnel was hit"
done
cat "$SUMMARY"
log "PASS hostile over $UL_FAMILY"
