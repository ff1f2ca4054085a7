#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Receive CPU per frame of STT frames cut into one-byte segments, sent in
# order (one-byte) and as the FragmentSmack-style attack (interleaved: the
# last segment first, so that a receiver keeping a sorted list walks it for
# every other segment).  Run in a 2-CPU guest, once per module build to
# compare:
#
#	tests/guest/run-guest --kernel 6.12 --smp 2 --timeout 1800 \
#		--modules _build/6.12/datapath/linux --results DIR \
#		-- tests/bench/reasm-cpu.sh [FRAME-BYTES...]
#
# x sends from CPU 0; receive packet steering puts b's receive processing on
# CPU 1, so CPU 1's busy time (/proc/stat) over the class is the receiver's
# cost.  For each frame length (default 1000 4000 16000) and order, one
# line on stdout and in $STT_RESULTS/reasm-cpu.txt:
#
#	ORDER bytes=B frames=N segments=S cpu1_ms=C ms_per_frame=F us_per_segment=U
#
# and every frame must have been delivered whole (rx_frames), or the run
# fails: a cost is only comparable for the same work done.

set -eu
. "$(dirname "$0")/../guest/lib.sh"
. "$(dirname "$0")/../guest/stt-lib.sh"

SIZES=${*:-1000 4000 16000}
KEY=0x77
STT_ATTACK=$STT_GUEST_DIR/tools/stt-attack
OUT=$STT_RESULTS/reasm-cpu.txt

[ "$(nproc)" -ge 2 ] || fail "needs a guest with 2 CPUs (run-guest --smp 2)"
add_ns x
add_ns b
add_underlay x 198.51.100.1/24 b 198.51.100.2/24 1500 u1
# Every segment of a frame stays in reassembly until the last: room and
# time for the largest frame's segments (about 1 KiB of memory each, and
# the sender is Python).  Both are read when the receive port opens.
modprobe stt
echo $((64 << 20)) > /sys/module/stt/parameters/reasm_mem_limit
echo 60000 > /sys/module/stt/parameters/reasm_timeout_ms
run in_ns b "$STT_CTL" add s1 remote 198.51.100.1 id $KEY
stt_dev_up b s1 10.9.0.2/24
in_ns b sh -c 'echo 2 > /sys/class/net/u1/queues/rx-0/rps_cpus'

# cpu1_busy: CPU 1's non-idle time, in USER_HZ ticks.
cpu1_busy() {
	awk '$1 == "cpu1" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

: > "$OUT"
for size in $SIZES; do
	# Enough frames for about 80,000 segments a class, at least 3.
	frames=$((80000 / size))
	[ "$frames" -ge 3 ] || frames=3
	for order in one-byte interleaved; do
		delivered=$(stt_counter b rx_frames s1)
		busy=$(cpu1_busy)
		report=$(in_ns x taskset -c 0 "$STT_ATTACK" --iface u1 \
			--dst 198.51.100.2 \
			--dst-mac "$(in_ns b cat /sys/class/net/u1/address)" \
			--key $KEY --one-byte-frame "$size" "$order=$frames" \
			2> "$WORK/attack.err") ||
			fail "stt-attack: $(cat "$WORK/attack.err")"
		wait_for stt_counter_above b rx_frames \
			$((delivered + frames - 1)) s1 ||
			fail "$order, $size bytes: $(($(stt_counter b rx_frames s1) - delivered)) of $frames frames delivered"
		busy=$(($(cpu1_busy) - busy))
		segments=$(echo "$report" | sed -n 's/.* segments=\([0-9]*\).*/\1/p')
		awk -v o="$order" -v b="$size" -v n="$frames" -v s="$segments" \
			-v t="$busy" -v hz="$(getconf CLK_TCK)" 'BEGIN {
			ms = t * 1000 / hz
			printf "%s bytes=%d frames=%d segments=%d cpu1_ms=%d ms_per_frame=%.2f us_per_segment=%.2f\n",
				o, b, n, s, ms, ms / n, ms * 1000 / s }' | tee -a "$OUT"
	done
done
log "PASS reasm-cpu"
