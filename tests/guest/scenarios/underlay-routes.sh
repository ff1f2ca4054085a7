#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Path MTU: a router between a and b forwards onto a link of MTU 1400.  a's
# device sets DF (as Open vSwitch does by default), so the router answers
# a's 1500-byte segments with ICMP "fragmentation needed".  a must learn
# the path MTU from them (pmtu_updates, and the route's cached mtu) and cut
# its frames to it: the transfer arrives whole instead of black-holing.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 --- 192.0.2.254 r 198.51.100.254 === 198.51.100.2 u1  s0 10.0.0.2 :b
#                        MTU 1500                   MTU 1400

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788

add_ns a
add_ns r
add_ns b
add_underlay a 192.0.2.1/24 r 192.0.2.254/24
add_underlay r 198.51.100.254/24 b 198.51.100.2/24 1400 u1
in_ns r sysctl -qw net.ipv4.ip_forward=1
run ip -n a route add 198.51.100.0/24 via 192.0.2.254
run ip -n b route add 192.0.2.0/24 via 198.51.100.254

run in_ns a "$STT_CTL" add s0 remote 198.51.100.2 id $KEY df set
run in_ns b "$STT_CTL" add s0 remote 192.0.2.1 id $KEY df set
stt_dev_up a s0 10.0.0.1/24
stt_dev_up b s0 10.0.0.2/24

# (A module without path MTU discovery has no such counter: the transfer
# says what it does.)
updates=$(stt_counter a pmtu_updates s0) || updates=none
ping_sizes a 10.0.0.2 1 1400 8972
send_file_and_hash a b 10.0.0.2 8
[ "$updates" != none ] || fail "a's s0 has no pmtu_updates counter"
updates=$(($(stt_counter a pmtu_updates s0) - updates))
frag_needed=$(ip_mib r IcmpOutDestUnreachs)
cached=$(ip -n a route get 198.51.100.2 | grep -o 'mtu [0-9]*' || true)
log "r sent $frag_needed destination-unreachable errors; a took $updates (pmtu_updates), route to b: ${cached:-no mtu}"
[ "$updates" -ge 1 ] || fail "a took no ICMP fragmentation-needed error"
[ "$cached" = "mtu 1400" ] || fail "a's route to b has ${cached:-no mtu}, not mtu 1400"
stt_check_no_errors a s0
stt_check_no_errors b s0
log "PASS pmtu"
