#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two plain stt devices, no Open vSwitch anywhere: fixed-peer tunnels made
# with stt-ctl between two namespaces over a veth underlay.  Ping of every
# size, iperf3 both ways, 16 MiB with SHA-256, counters, and the wire as
# tshark and stt-wire see it; the reference captures of
# tests/unit/reference received and delivered as their "expected" says.
#
#	dev-dev.sh [ipv4|ipv6]
#
# With "ipv6" the underlay is IPv6 (remote 2001:db8::2 and so on) and
# everything else the same: the inner network stays IPv4.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ===== 192.0.2.2 u0  s0 10.0.0.2 :b
#                      2001:db8::1      2001:db8::2   (ipv6)
#
# Test: dev_dev
#   timeout: 700
#   kernels: lanes only: on the newest kernel, Debian 13's backported 7.3;
#     dev_dev_ipv6 runs it over IPv6 on 6.1, where hostile, faults-netem,
#     inner-marks and dev-netns take plain devices over IPv4; on the debug
#     kernel, lifecycle-dev and underlay-routes
#   lanes: 7.3-deb13
#   underlay: either
#
# Test: dev_dev_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 700
#   kernels: oldest distro: dev_dev runs it over IPv4 on 7.3, where
#     dev-external, dev-netns and hostile-unclaimed take plain devices over
#     IPv6; hostile, faults-netem and inner-marks do on the debug kernel
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: dev-dev.sh [ipv4|ipv6]"
A=$UL_A B=$UL_B

stt_dev_pair a b $KEY
shown=$(in_ns a "$STT_CTL" show s0)
log "$shown"
case "$shown" in
"s0: stt remote $B id $KEY "*) ;;
*) fail "stt-ctl show s0 does not say remote $B id $KEY" ;;
esac
# STT segments: the MTU is the underlay's, from the route to the remote.
mtu=$(ip -n a -o link show s0 | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
[ "$mtu" = 1500 ] || fail "s0's MTU is ${mtu:-unknown}, not u0's 1500"

ping_sizes a 10.0.0.2 1 1400 1472 4000 8972
ping_sizes b 10.0.0.1 1 8972
iperf3_check a b 10.0.0.2 3
send_file_and_hash a b 10.0.0.2 "$(transfer_mib 16)"

# A fixed ttl and tos on a's device are its segments' TTL and TOS, over
# IPv6 their hop limit and traffic class (inner packets are not
# ECN-capable, so the ECN bits stay 0); df set is DF on every one of them.
# b's device inherits TTL and DF from the packets it carries and keeps its
# source ports in a range of its own: b's packets leave with TTL 77, not
# the usual 64, and its route to a says hop limit 99, what a device that
# ignored "ttl inherit" would use, and what it uses for frames that are not
# IP (ARP).
run in_ns a "$STT_CTL" set s0 ttl 33 tos 0x20 df set
run in_ns b "$STT_CTL" set s0 ttl inherit df inherit srcport 40000 40999
run in_ns b sysctl -qw net.ipv4.ip_default_ttl=77
if [ "$UL_FAMILY" = ipv6 ]; then
	run ip -n b -6 route add "$A" dev u0 hoplimit 99
else
	run ip -n b route add "$A" dev u0 hoplimit 99
fi
stt_judge_segments a b a b 10.0.0.2 "dev-dev-$UL_FAMILY" $KEY
# DF exists over IPv4 only; stt-wire judges it only there.
stt_wire "$STT_RESULTS/dev-dev-$UL_FAMILY.pcap" --from "$A" --df set --ttl 33
stt_wire "$STT_RESULTS/dev-dev-$UL_FAMILY.pcap" --from "$B" --df inherit \
	--ttl inherit:99 --srcport 40000-40999
if [ "$UL_FAMILY" = ipv6 ]; then
	fields=(-e ipv6.hlim -e ipv6.tclass -Y "ipv6.src == $A")
else
	fields=(-e ip.ttl -e ip.dsfield -Y "ip.src == $A")
fi
marks=$(tshark -r "$STT_RESULTS/dev-dev-$UL_FAMILY.pcap" -n -T fields \
	"${fields[@]}" 2>/dev/null | sort | uniq -c | xargs)
log "a's segments (count, TTL, TOS): $marks"
read -r count ttl tos rest <<< "$marks"
[ -z "$rest" ] && [ "${count:-0}" -gt 0 ] && [ "$ttl" = 33 ] &&
	[ "$((tos))" = $((0x20)) ] ||
	fail "a's segments do not all carry TTL 33 and TOS 0x20: $marks"

# An 802.1Q tag is taken out of the frame into the header's VLAN field:
# VLAN 100 devices on both ends, pings between them captured on b's
# underlay end, every frame tagged 100 in the field (V set) as stt-wire
# reads it.
for ns in a b; do
	run ip -n $ns link add link s0 name v100 type vlan id 100
done
stt_dev_up a v100 10.0.100.1/24
stt_dev_up b v100 10.0.100.2/24
capture_start b u0 "dev-dev-vlan-$UL_FAMILY" tcp dst port $STT_PORT
capture=$CAPTURE_PID
ping_sizes a 10.0.100.2 1 1400 4000
capture_stop "$capture" "dev-dev-vlan-$UL_FAMILY"
dropped=$(capture_dropped "dev-dev-vlan-$UL_FAMILY")
[ "$dropped" = 0 ] ||
	fail "tcpdump dropped ${dropped:-an unknown number of} packets"
stt_wire "$STT_RESULTS/dev-dev-vlan-$UL_FAMILY.pcap" --context $KEY \
	--vlan 100 --require vlan

# From here the tunnel must carry only what the checks send: the counts
# below are exact.  b's neighbour entry for a's v100 address, made by a's
# ARP request and used unconfirmed by the echo replies, would send a
# unicast ARP probe five seconds later (delay_first_probe_time), and a's
# answer would be one more frame for b to count.  The VLAN devices go with
# their entries, b's first (its probe timer with it), and s0's entries
# too; a probe already sent and its answer land before the balance below.
for ns in b a; do
	run ip -n $ns link del v100
	run ip -n $ns neigh flush dev s0
done
stt_check_frames_balanced a b s0
stt_check_no_errors a s0
stt_check_no_errors b s0
check_link_errors a s0
check_link_errors b s0

# The reference captures (tests/unit/reference: STT made by hand from the
# wire format, not by lib/), sent again from a's underlay end with a's
# address and a packet socket, a's stt device not involved: b's device
# must deliver each one's inner frame as "expected" says, byte for byte,
# and count every segment and frame.  Their inner frames go to addresses
# nobody has; nothing answers them.  Last, as a never sent them.
REF=$STT_REPO/tests/unit/reference
STT_REPLAY=$STT_GUEST_DIR/tools/stt-replay
refs=(single-tcp multi-segment vlan ipv6-inner udp arp)
pcaps=()
for ref in "${refs[@]}"; do
	pcaps+=("$REF/$ref.pcap")
done
frames=$(stt_counter b rx_frames s0)
segments=$(stt_counter b rx_segments s0)
name=dev-dev-reference-$UL_FAMILY
capture_start b s0 "$name" -Q in
capture=$CAPTURE_PID
mac=$(ip -n b -br link show u0 | awk '{ print $3 }')
run in_ns a "$STT_REPLAY" send u0 "$A" "$B" "$mac" "${pcaps[@]}" ||
	fail "[a] could not send the reference captures"
wait_for stt_counter_above b rx_frames $((frames + ${#refs[@]} - 1)) s0 ||
	fail "[b] s0 did not receive the ${#refs[@]} reference frames:" \
		"rx_frames $(stt_counter b rx_frames s0), was $frames"
capture_stop "$capture" "$name"
run "$STT_REPLAY" expect "$STT_RESULTS/$name.pcap" "$REF/expected" \
	"${refs[@]}" || fail "[b] s0 did not deliver the reference frames as sent"
# Eight segments: the multi-segment frame has three.
for counter in "rx_frames $((frames + ${#refs[@]}))" \
	       "rx_segments $((segments + 8))"; do
	read -r counter want <<< "$counter"
	got=$(stt_counter b "$counter" s0)
	[ "$got" = "$want" ] || fail "[b] s0 $counter $got, expected $want"
done
log "[b] s0 received the ${#refs[@]} reference frames in 8 segments"
stt_check_no_errors b s0
log "PASS dev-dev over $UL_FAMILY"
