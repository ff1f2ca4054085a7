#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One kernel, no veth: both tunnel ends live in one underlay namespace
# (addresses on a dummy device) while the devices serve two other
# namespaces.  a's s0 is made in the underlay and moved out; b's s0 is made
# in b with link-netns naming the underlay.  Their traffic crosses
# the underlay's loopback, where the capture is judged.
#
#   a: s0 10.0.0.1 \                                   / s0 10.0.0.2 :b
#                   under: 192.0.2.1, 192.0.2.2 (lo)
#                          2001:db8::1, 2001:db8::2 (dev-netns.sh ipv6)
#
# Test: dev_netns
#   timeout: 500
#   kernels: oldest distro: dev_netns_ipv6 runs it over IPv6 on 6.12, and
#     lifecycle-dev has link-netns devices whose namespaces go under traffic
#     on the debug kernel
#   underlay: either
#
# Test: dev_netns_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 500
#   kernels: newest distro: dev_netns runs it over IPv4 on 6.1
#   underlay: either
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x0000000000000005
underlay_family "${1:-}" && shift
HOST_PREFIX=$([ "$UL_FAMILY" = ipv6 ] && echo 128 || echo 32)

add_ns under
add_ns a
add_ns b
add_dummy under "$UL_A/$HOST_PREFIX" "$UL_B/$HOST_PREFIX"

run in_ns under "$STT_CTL" add s0 local "$UL_A" remote "$UL_B" id $KEY
run ip -n under link set s0 netns a
run in_ns b "$STT_CTL" add s0 local "$UL_B" remote "$UL_A" id $KEY \
	link-netns under
run in_ns a "$STT_CTL" show s0
run in_ns b "$STT_CTL" show s0
in_ns under ip -o link show | contains ' s0[:@]' &&
	fail "a device stayed in the underlay namespace"
stt_dev_up a s0 10.0.0.1/24
stt_dev_up b s0 10.0.0.2/24

capture_start under lo dev-netns tcp dst port $STT_PORT
capture=$CAPTURE_PID
ping_sizes a 10.0.0.2 1 8972
ping_sizes b 10.0.0.1 1 8972
capture_stop "$capture" dev-netns
send_file_and_hash a b 10.0.0.2 "$(transfer_mib 16)"
send_file_and_hash b a 10.0.0.1 "$(transfer_mib 16)"

# Loopback carries whole frames (GSO), so tshark sees one packet a frame;
# it must still decode every one as STT with the right id.
tshark -r "$STT_RESULTS/dev-netns.pcap" "${TSHARK_STT[@]}" -T fields \
	-e stt.version -e stt.context_id 2>/dev/null | sort | uniq -c |
	tee "$WORK/netns-fields"
awk -v key=$KEY '$2 != 0 || $3 != key { bad++ } END { exit bad || NR == 0 }' \
	"$WORK/netns-fields" || fail "tshark: not every frame is STT version 0 with id $KEY"

stt_check_frames_balanced a b s0
stt_check_no_errors a s0
stt_check_no_errors b s0
log "PASS dev-netns over $UL_FAMILY"
