#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What deleting a namespace full of tunnel devices costs, stt against
# VXLAN (the baseline, measured in the same boot): the kernel re-review's
# N10 found one grace period waited per device.  Run in a guest, once per
# module build to compare:
#
#	tests/guest/run-guest --kernel 6.12 --smp 2 --timeout 1800 \
#		--modules _build/6.12/datapath/linux --results DIR \
#		-- tests/bench/netns-exit.sh [DEVICES...]
#
# For each count of devices (default 50 200) and each shape, a namespace t
# gets that many devices, then "ip netns del t", and the time is taken
# from there until the namespace's cleanup has gone past the tunnels'
# exit: a veth whose peer is in t vanishes from the initial namespace
# when the default device exit runs, which is after every tunnel
# module's.  Shapes:
#
#	ports   one external device per destination port (10000 + i)
#	peers   fixed-peer devices on one port, a context id (VNI) each
#
# One line each on stdout and in $STT_RESULTS/netns-exit.txt:
#
#	TYPE shape=S devices=N exit_ms=T
#
# and the ratio of stt's time to VXLAN's for each shape and count.

set -eu
. "$(dirname "$0")/../guest/lib.sh"
. "$(dirname "$0")/../guest/stt-lib.sh"

COUNTS=${*:-50 200}
OUT=$STT_RESULTS/netns-exit.txt

run modprobe stt
run modprobe vxlan

# batch TYPE SHAPE N: the ip -batch lines that make N devices of TYPE.
batch() {
	local type=$1 shape=$2 n=$3 i
	for ((i = 0; i < n; i++)); do
		case "$type/$shape" in
		stt/ports) echo "link add t$i type stt external dstport $((10000 + i))" ;;
		stt/peers) echo "link add t$i type stt remote 192.0.2.1 id $((i + 1))" ;;
		vxlan/ports) echo "link add t$i type vxlan external dstport $((10000 + i))" ;;
		vxlan/peers) echo "link add t$i type vxlan remote 192.0.2.1 id $((i + 1)) dstport 4789" ;;
		esac
	done
}

# exit_ms TYPE SHAPE N: the milliseconds namespace t with N devices takes
# to go.
exit_ms() {
	local type=$1 shape=$2 n=$3 start end
	ip netns add t
	ip link add m1 type veth peer name m0 netns t
	batch "$type" "$shape" "$n" > "$WORK/batch"
	if [ "$type" = stt ]; then
		# stt-ctl speaks for stt; ip link only with the iproute2 plugin.
		sed 's/^link add \(t[0-9]*\) type stt /add \1 /' "$WORK/batch" |
			while read -r line; do
				# shellcheck disable=SC2086 # the words of the line
				in_ns t "$STT_CTL" $line
			done
	else
		ip -n t -batch "$WORK/batch"
	fi
	[ "$(ip -n t -o link show type "$type" | wc -l)" -eq "$n" ] ||
		fail "t has $(ip -n t -o link show type "$type" | wc -l) $type devices, not $n"
	start=$(date +%s%N)
	ip netns del t
	while [ -e /sys/class/net/m1 ]; do
		sleep 0.01
	done
	end=$(date +%s%N)
	echo $(((end - start) / 1000000))
}

: > "$OUT"
for n in $COUNTS; do
	for shape in ports peers; do
		for type in vxlan stt; do
			ms=$(exit_ms "$type" "$shape" "$n")
			echo "$type shape=$shape devices=$n exit_ms=$ms" |
				tee -a "$OUT"
		done
	done
done
for n in $COUNTS; do
	for shape in ports peers; do
		vxlan=$(sed -n "s/^vxlan shape=$shape devices=$n exit_ms=//p" "$OUT")
		stt=$(sed -n "s/^stt shape=$shape devices=$n exit_ms=//p" "$OUT")
		awk -v s="$shape" -v n="$n" -v a="$stt" -v b="$vxlan" 'BEGIN {
			printf "ratio shape=%s devices=%d stt/vxlan=%.2f\n", s, n,
				a / (b > 0 ? b : 1) }'
	done
done | tee -a "$OUT"
log "PASS netns-exit"
