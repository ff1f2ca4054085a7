#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every way transmit refuses a frame, provoked: each refusal must be counted
# in its own tx_err_* counter and in nothing else of ethtool -S, and
# reported to skb:kfree_skb (dropwatch, perf, pwru) from the stt module with
# the drop reason of the counter table (datapath/stats-list.h).  The frames
# are handed to a device by tools/raw-frames (a packet socket, as a bridge
# port would), so transmit sees exactly the frames sent:
#
#   tx_err_route          s1's remote has no route
#   tx_err_loop           the only route to s2's remote is s2 itself
#   tx_err_inner          a frame that ends inside its IPv4 header
#   tx_err_frame_too_big  an 802.1Q frame as long as the largest MTU allows:
#                         its tag in the frame, it is 4 bytes more than an
#                         STT frame holds
#
# Then a frame s0 sends normally reaches b.  tx_err_family (an IPv6 remote
# on a kernel booted with ipv6.disable=1) is not provoked here.
#
# With "alloc", on a kernel with fault injection (the debug kernel), every
# allocation of these fails once in turn (tools/fail_nth.py, failslab):
# sending a frame that a packet tap clones, so that transmit must copy its headers
# (raw-frames --fail-sweep): tx_err_nomem counts the copy that failed; for
# a partial checksum the STT header cannot carry (ICMP's), tx_err_csum the
# checksum that could not be completed; for a segmentation request it cannot
# carry (an MSS below 256), tx_err_gso the software segmentation that
# failed.  Then a ping crosses s0.  The run's kmemleak scan and KASAN judge
# what the failures left behind.
#
#	tx-errors.sh [alloc]
#
#   s0, s1, s2 [a] u0 ===== u0 [b] s0
#              192.0.2.1     192.0.2.2
#
# Test: tx_errors
#   timeout: 300
#   kernels: oldest distro: the causes are the module's, not the kernel's;
#     tx_errors_alloc takes the copies and allocations under the debug
#     kernel's checks
#
# Test: tx_errors_alloc alloc
#   timeout: 300
#   kernels: debug only: fault injection is built into the debug kernel
#     alone; tx_errors runs the causes that need none on 6.1

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

case ${1:-} in
'') mode=causes ;;
alloc) mode=alloc ;;
*) fail "usage: tx-errors.sh [alloc]" ;;
esac
RAW_FRAMES=$STT_GUEST_DIR/tools/raw-frames
KEY=0x5a5a5a5a00000001

stt_dev_pair a b $KEY

# send DEV RAW-FRAMES-ARGS...: raw-frames sends on a's DEV; the counters
# that moved go to $WORK/moved ("name increase" a line), the stt module's
# drops by reason to $WORK/drops (stt_drops).
send() {
	local dev=$1
	shift
	stt_counters a "$dev" > "$WORK/before"
	drops_trace_start
	log "+ [a] raw-frames $dev $*"
	in_ns a "$RAW_FRAMES" "$dev" "$@" > "$WORK/sent" 2>&1 ||
		fail "[a] raw-frames $dev $*: $(cat "$WORK/sent")"
	[ ! -s "$WORK/sent" ] || log "$(cat "$WORK/sent")"
	drops_trace_stop > "$WORK/trace"
	stt_counters a "$dev" > "$WORK/after"
	stt_counters_moved "$WORK/before" "$WORK/after" > "$WORK/moved"
	stt_drops "$WORK/trace" > "$WORK/drops"
}

# expect_drops DEV 'COUNTER N...' 'REASON N...' RAW-FRAMES-ARGS...: a's DEV
# moves exactly COUNTERs (sorted by name) while raw-frames sends on it, and
# the stt module's drops were REASONs.
expect_drops() {
	local dev=$1 want_moved=$2 want_drops=$3 moved drops
	shift 3
	send "$dev" "$@"
	moved=$(sort "$WORK/moved" | xargs)
	[ "$moved" = "$want_moved" ] ||
		fail "[a] $dev counters moved by '$moved', expected '$want_moved'"
	drops=$(cat "$WORK/drops")
	[ "$drops" = "$want_drops" ] ||
		fail "drops in the stt module by reason: '$drops', expected '$want_drops' ($(sort "$WORK/trace" | uniq -c | xargs))"
	log "[a] $dev: $moved; skb:kfree_skb in [stt]: $drops"
}

if [ $mode = causes ]; then
	run in_ns a "$STT_CTL" add s1 remote 203.0.113.9 id $KEY
	stt_dev_up a s1 10.1.0.1/24
	run in_ns a "$STT_CTL" add s2 remote 198.51.100.1 id $KEY
	stt_dev_up a s2 10.2.0.1/24
	run ip -n a route add 198.51.100.1/32 dev s2

	expect_drops s1 "tx_err_route 3" "IP_OUTNOROUTES 3" --count 3
	expect_drops s2 "tx_err_loop 3" "IP_OUTNOROUTES 3" --count 3
	expect_drops s0 "tx_err_inner 3" "HDR_TRUNC 3" --count 3 --cut-ip 10
	mtu=$(ip -n a -d link show s0 | sed -n 's/.* maxmtu \([0-9]*\).*/\1/p')
	[ -n "$mtu" ] || fail "[a] ip -d link show s0 gives no maxmtu"
	run ip -n a link set s0 mtu "$mtu"
	expect_drops s0 "tx_err_frame_too_big 1" "PKT_TOO_BIG 1" \
		--vlan --size $((mtu + 18))
	run ip -n a link set s0 mtu 1500
	expect_drops s0 "tx_frames 1 tx_segments 1" "" --size 200
	log "PASS tx-errors"
	exit 0
fi

# ---- alloc: every allocation failing once in turn ---------------------------

FAILSLAB=/sys/kernel/debug/failslab
[ -d $FAILSLAB ] || mount -t debugfs none /sys/kernel/debug
[ -f /proc/self/fail-nth ] && [ -d $FAILSLAB ] ||
	fail "kernel $(uname -r) has no fault injection (fail-nth, failslab)"
# Every slab allocation counts, those that may sleep too, without a stack
# dump for each failure forced.
echo N > $FAILSLAB/ignore-gfp-wait
echo 0 > $FAILSLAB/verbose

# expect_nomem COUNTER REASON RAW-FRAMES-ARGS...: a send on s0 that a packet
# tap clones, swept with each of its allocations failing, moves COUNTER
# and drops for REASON in the stt module.
expect_nomem() {
	local counter=$1 reason=$2 moved
	shift 2
	send s0 --tap --fail-sweep "$@"
	moved=$(cat "$WORK/moved")
	echo "$moved" | contains -x "$counter [1-9][0-9]*" ||
		fail "[a] s0 counters moved by '$(echo "$moved" | xargs)': no $counter"
	# What the sends that no fault stopped count (tx_sw_segmented: those
	# whose software segmentation went through).
	! echo "$moved" | awk '{ print $1 }' |
		contains -vx -e "$counter" -e tx_frames -e tx_segments \
			-e tx_sw_segmented ||
		fail "[a] s0 counters moved by '$(echo "$moved" | xargs)': more than $counter and sends"
	contains "^$reason [1-9]" < "$WORK/drops" ||
		fail "drops in the stt module by reason: '$(cat "$WORK/drops")', no $reason"
	log "[a] s0: $(echo "$moved" | xargs); skb:kfree_skb in [stt]: $(cat "$WORK/drops")"
}
expect_nomem tx_err_nomem NOMEM --size 200
expect_nomem tx_err_csum SKB_CSUM --icmp-csum --size 200
expect_nomem tx_err_gso SKB_GSO_SEG --tcp-gso 100 --size 1000
run in_ns a ping -c 1 -W 5 10.0.0.2 > /dev/null
log "PASS tx-errors alloc"
