#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Plain stt devices coming and going under traffic:
#  - two namespace pairs configured identically (addresses, key, port 7471)
#    carry a transfer each at the same time: each receiving namespace's own
#    port delivers its own frames only, and each pair's counters balance;
#  - b's device is set down and up again in the middle of a transfer: while
#    down it drops what arrives (rx_drop_dev_down), once up the transfer
#    resumes and completes;
#  - a's device is reconfigured (ttl, tos) 40 times (10 on the debug kernel)
#    during a transfer;
#  - d, holding a device and its underlay, is deleted under a ping flood;
#  - the underlay namespace of two devices living elsewhere (link-netns) is
#    deleted under traffic, and takes the devices with it;
#  - stt refuses to unload while vport_stt uses it, then unloads under a
#    ping flood with devices still present, removing them (as every
#    rtnetlink link type does: devices hold no reference on their module).
# The kernel log must stay clean throughout, and the final unload waits for
# every device unregistered so far to be released.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ===== 192.0.2.2 u0  s0 10.0.0.2 :b
#   c: s0 10.0.0.1  u0 192.0.2.1 ===== 192.0.2.2 u0  s0 10.0.0.2 :d
#   e: s0 10.0.1.1 \                                 / s0 10.0.1.2 :f
#                   under: 2001:db8::1, 2001:db8::2 (dummy)
#
#	lifecycle-dev.sh [ipv4|ipv6]
#
# The underlay of a, b, c and d is of the family given (IPv4 by default),
# the one e and f share of the other: every run takes devices of both
# families down under traffic.
#
# Test: lifecycle_dev
#   Two CPUs, so that teardown races with traffic on another CPU.
#   timeout: 600
#   cpus: 2
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
MIB=8
underlay_family "${1:-}" && shift

# pair A B: stt_dev_pair over an underlay that shows real segments (sent
# without TSO, received without GRO), so that frames are reassembled and
# reassembly may hold some when things go away.
pair() {
	local ns
	stt_dev_pair "$1" "$2" $KEY
	for ns in "$1" "$2"; do
		in_ns "$ns" ethtool -K u0 tso off tx off gro off > /dev/null
	done
}

# stt_devices: the stt devices of every namespace, "namespace: device" a
# line.
stt_devices() {
	local ns
	ip -o link show type stt | awk -F': ' '{ print "init: " $2 }'
	for ns in "${NAMESPACES[@]}"; do
		ip -n "$ns" -o link show type stt | awk -v ns="$ns" -F': ' \
			'{ print ns ": " $2 }'
	done
}

# flood NS DEST: a ping flood with 8000-byte echoes from NS to DEST in the
# background (each 1500-byte fragment an STT frame of two segments); sets
# FLOOD.
flood() {
	log "+ [$1] ping -f -s 8000 $2 &"
	background "$WORK/flood-$1.log" ip netns exec "$1" \
		"${PING[@]}" -f -s 8000 "$2"
	FLOOD=$BG_PID
	wait_for stt_counter_above "$1" rx_frames 20 s0 ||
		fail "[$1] no replies to the ping flood"
}

# stop_flood PID: end a ping flood that may have lost its way.
stop_flood() {
	kill -INT "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

pair a b
pair c d
ping_sizes a 10.0.0.2 1 8972
ping_sizes c 10.0.0.2 1 8972

# Same port, same addresses, same key, two namespaces, both busy: each
# port must keep its frames.
send_file_start a b 10.0.0.2 "$(transfer_mib $MIB)"
send_file_start c d 10.0.0.2 "$(transfer_mib $MIB)"
send_file_check b
send_file_check d
stt_check_frames_balanced a b s0
stt_check_frames_balanced c d s0
for ns in a b c d; do
	stt_check_no_errors $ns s0
done

# Down and up in the middle of a transfer.
drops=$(stt_counter b rx_drop_dev_down s0)
send_file_underway a b 10.0.0.2 $MIB
run ip -n b link set s0 down
send_file_unfinished b "s0 of b went down"
wait_for stt_counter_above b rx_drop_dev_down "$drops" s0 ||
	fail "[b] s0 is down, but rx_drop_dev_down stays at $drops"
run ip -n b link set s0 up
down_drops=$(stt_counter b rx_drop_dev_down s0)
log "[b] s0 down: rx_drop_dev_down $drops -> $down_drops"
send_file_check b
[ "$(stt_counter b rx_drop_dev_down s0)" -eq "$down_drops" ] ||
	fail "[b] s0 is up, but rx_drop_dev_down moved on from $down_drops"

# Reconfigured in the middle of a transfer: a's s0 changes its ttl and tos
# 40 times (10 on the debug kernel, whose checks need no race won to see a
# lock or a lifetime misused) while frames leave it on the other CPU.
# Transmit never reads a half-written configuration (it drops while
# changelink runs, counted in tx_drop_reconfig) and every frame that left
# carries whole settings.
ROUNDS=40
case $STT_KVER in *-stt-debug) ROUNDS=10 ;; esac
send_file_underway a b 10.0.0.2 $MIB
reconf=$(stt_counter a tx_drop_reconfig s0)
log "+ [a] $ROUNDS x stt-ctl set s0 ttl N tos N"
for ((i = 1; i <= ROUNDS; i++)); do
	in_ns a "$STT_CTL" set s0 ttl $((i % 2 ? 64 : 65)) tos $((i % 2 * 4)) ||
		fail "[a] stt-ctl set s0 failed (round $i)"
done
send_file_unfinished b "a's s0 reconfigured $ROUNDS times"
log "[a] tx_drop_reconfig $reconf -> $(stt_counter a tx_drop_reconfig s0)"
send_file_check b
run in_ns a "$STT_CTL" show s0

# A namespace holding a device and its underlay goes away under a ping
# flood; the veth peer in c goes with it, so watching c's u0 tells when
# d's devices are unregistered.
flood c 10.0.0.2
del_ns d
wait_for sh -c "! ip -n c link show u0" || fail "[c] u0 outlived namespace d"
stop_flood "$FLOOD"
log "namespace d and its devices are gone"

# Devices whose underlay namespace goes away under traffic go with it,
# wherever they live (dev-netns shows this topology working).
add_ns under
add_ns e
add_ns f
if [ "$UL_FAMILY" = ipv4 ]; then
	E=2001:db8::1 F=2001:db8::2 HOST_PREFIX=128
else
	E=192.0.2.1 F=192.0.2.2 HOST_PREFIX=32
fi
add_dummy under "$E/$HOST_PREFIX" "$F/$HOST_PREFIX"
run in_ns e "$STT_CTL" add s0 local "$E" remote "$F" id $KEY link-netns under
run in_ns f "$STT_CTL" add s0 local "$F" remote "$E" id $KEY link-netns under
stt_dev_up e s0 10.0.1.1/24
stt_dev_up f s0 10.0.1.2/24
flood e 10.0.1.2
del_ns under
wait_for sh -c "! ip -n e link show s0 && ! ip -n f link show s0" ||
	fail "s0 of e or f outlived its underlay namespace"
stop_flood "$FLOOD"
log "the underlay namespace took s0 of e and f with it"

# vport_stt holds stt; stt itself is held by nothing, not even by devices.
run modprobe vport-stt
log "+ rmmod stt  (must be refused)"
! rmmod stt 2> "$WORK/rmmod.err" || fail "stt unloaded under vport_stt"
grep -q 'in use' "$WORK/rmmod.err" ||
	fail "rmmod stt failed, but not as in use: $(cat "$WORK/rmmod.err")"
run rmmod vport_stt
flood a 10.0.0.2
log "stt devices before unloading: $(stt_devices | tr '\n' ' ')"
run rmmod stt
! module_loaded stt || fail "stt is still loaded"
left=$(stt_devices)
[ -z "$left" ] || fail "stt devices left after unloading stt: $left"
stop_flood "$FLOOD"
log "stt unloaded under traffic and removed every device"
log "PASS lifecycle-dev over $UL_FAMILY"
