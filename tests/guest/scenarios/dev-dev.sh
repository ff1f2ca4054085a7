#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two plain stt devices, no Open vSwitch anywhere: fixed-peer tunnels made
# with stt-ctl between two namespaces over a veth underlay.  Ping of every
# size, iperf3 both ways, 64 MiB with SHA-256, counters, and the wire as
# tshark and scapy see it.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ===== 192.0.2.2 u0  s0 10.0.0.2 :b
#
# Test: dev_dev
#   timeout: 700
#   kernels: not debug: lifecycle-dev and underlay-routes

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788

add_ns a
add_ns b
add_underlay a 192.0.2.1/24 b 192.0.2.2/24

run in_ns a "$STT_CTL" add s0 remote 192.0.2.2 id $KEY
run in_ns b "$STT_CTL" add s0 remote 192.0.2.1 id $KEY
run in_ns a "$STT_CTL" show s0
stt_dev_up a s0 10.0.0.1/24
stt_dev_up b s0 10.0.0.2/24

ping_sizes a 10.0.0.2 1 1400 1472 4000 8972
ping_sizes b 10.0.0.1 1 8972
iperf3_check a b 10.0.0.2 3
send_file_and_hash a b 10.0.0.2 "$(transfer_mib 64)"

stt_judge_segments a b a b 10.0.0.2 dev-dev $KEY

stt_check_frames_balanced a b s0
stt_check_no_errors a s0
stt_check_no_errors b s0
check_link_errors a s0
check_link_errors b s0
log "PASS dev-dev"
