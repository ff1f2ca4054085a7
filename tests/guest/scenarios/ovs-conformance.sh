#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What goes on the wire, judged by tshark's STT dissector and by stt-wire.  The
# underlay has no segmentation or checksum offload and no GRO, so the capture
# on host2's u0 holds the segments as a NIC would put them on the wire:
#
#   - every TCP packet to port 7471 decodes as STT;
#   - every frame: version 0, context id = the configured key, TCP data
#     offset 20; at least one frame reassembled from several segments;
#   - no STT expert information other than tshark 4.0's checksum note (see
#     check_stt_experts);
#   - stt-wire finds every outer TCP checksum correct, every TCP header as
#     STT writes it, the segments of every frame complete and contiguous,
#     and every STT header right for its inner frame;
#   - host2 reassembled frames itself and counted no error.
#
#	ovs-conformance.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: ovs_conformance
#   timeout: 600
#   kernels: oldest distro: dev_ovs_ipv6 judges Open vSwitch's segments over
#     IPv6 the same way on 6.12 (tshark and stt-wire), dev_dev_ipv6 a
#     device's on 6.1; on the debug kernel, nic-underlay dev
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: ovs-conformance.sh [ipv4|ipv6]"

stt_two_hosts key=$KEY
# Both ends keep Open vSwitch's tunnel defaults (vswitch.xml: df_default
# true, ttl the system default, which netdev-vport.c fixes at 64).
stt_judge_segments host1 host2 vm1 vm2 10.0.0.2 "conformance-$UL_FAMILY" $KEY \
	--df set --ttl 64

stt_check_frames_balanced host1 host2
for host in host1 host2; do
	stt_check_no_errors $host
done
reassembled=$(stt_counter host2 rx_frames_reassembled)
log "[host2] rx_frames_reassembled $reassembled, rx_segments $(stt_counter host2 rx_segments)"
[ "$reassembled" -gt 0 ] || fail "[host2] reassembled no frame"
