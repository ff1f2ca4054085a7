#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One external (metadata mode) stt device with peers of both families, as
# a geneve or vxlan device in external mode has them: a's e0 reaches b over
# IPv4 and c over IPv6.  The tunnel parameters of each packet come from tc
# (act_tunnel_key on e0's egress, per inner destination), and those of each
# received frame go up with it (flower on e0's ingress matches its outer
# source address and context id).  b and c are plain fixed-peer devices.
#
#   b: s0 10.0.0.2  u0 192.0.2.2 ====== 192.0.2.1 u0  \
#                                                      a: e0 10.0.0.1 (external)
#   c: s0 10.0.0.3  u1 2001:db8::3 ==== 2001:db8::1 u1 /
#
# b's underlay has IPv4 addresses only, c's IPv6 ones: each delivery shows
# its family.
#
# Pings of every size and 16 MiB with SHA-256 to each peer; each peer's
# frames arrive with its own metadata (the flower filter of its address and
# context id counts them, and none other does); no error counter moves.
#
# Test: dev_external
#   timeout: 500
#   kernels: newest distro: the families' transmit and receive paths run
#     on every kernel in dev-dev, ovs-basic and dev-ovs; this is the one
#     device holding both
#   underlay: both: e0 has a peer of each family

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

# tc takes 32-bit ids: the low half of the context id.
KEY_B=0x2b KEY_C=0x3c

add_ns a
add_ns b
add_ns c
add_underlay b 192.0.2.2/24 a 192.0.2.1/24
add_underlay c 2001:db8::3/64 a 2001:db8::1/64 1500 u1

run in_ns b "$STT_CTL" add s0 remote 192.0.2.1 id $KEY_B
run in_ns c "$STT_CTL" add s0 remote 2001:db8::1 id $KEY_C
run in_ns a "$STT_CTL" add e0 external
stt_dev_up a e0 10.0.0.1/24
stt_dev_up b s0 10.0.0.2/24
stt_dev_up c s0 10.0.0.3/24

# No neighbour discovery through the tunnel: tc gives ARP no metadata.
for peer in b:10.0.0.2 c:10.0.0.3; do
	run ip -n a neigh replace "${peer#*:}" dev e0 nud permanent \
		lladdr "$(in_ns "${peer%%:*}" cat /sys/class/net/s0/address)"
	run ip -n "${peer%%:*}" neigh replace 10.0.0.1 dev s0 nud permanent \
		lladdr "$(in_ns a cat /sys/class/net/e0/address)"
done

# Transmit: each inner destination's tunnel, set on e0's way out.
run tc -n a qdisc add dev e0 clsact
run tc -n a filter add dev e0 egress protocol ip flower dst_ip 10.0.0.2 \
	action tunnel_key set src_ip 192.0.2.1 dst_ip 192.0.2.2 id $((KEY_B))
run tc -n a filter add dev e0 egress protocol ip flower dst_ip 10.0.0.3 \
	action tunnel_key set src_ip 2001:db8::1 dst_ip 2001:db8::3 id $((KEY_C))
# Receive: one filter per peer's tunnel, and two that match a peer's
# address with the other's id, which nothing may hit.
pref=10
for tunnel in 192.0.2.2:$KEY_B 2001:db8::3:$KEY_C 192.0.2.2:$KEY_C \
	2001:db8::3:$KEY_B; do
	run tc -n a filter add dev e0 ingress pref $pref protocol ip flower \
		enc_src_ip "${tunnel%:*}" enc_key_id "$((${tunnel##*:}))" \
		action pass
	pref=$((pref + 1))
done

# received PREF: the packets e0's ingress filter PREF has matched.
received() {
	tc -n a -s -j filter show dev e0 ingress pref "$1" | python3 -c '
import json, sys
print(sum(f["options"]["actions"][0]["stats"]["packets"]
          for f in json.load(sys.stdin) if "options" in f))'
}

ping_sizes a 10.0.0.2 1 1400 8972
ping_sizes a 10.0.0.3 1 1400 8972
send_file_and_hash a b 10.0.0.2 "$(transfer_mib 16)"
send_file_and_hash a c 10.0.0.3 "$(transfer_mib 16)"

from_b=$(received 10) from_c=$(received 11)
log "[a] e0 received $from_b packets from b's tunnel, $from_c from c's"
[ "$from_b" -gt 0 ] && [ "$from_c" -gt 0 ] ||
	fail "[a] e0 received $from_b packets with b's tunnel metadata and $from_c with c's"
[ "$(received 12)" = 0 ] && [ "$(received 13)" = 0 ] ||
	fail "[a] e0 received packets with one peer's address and the other's id"

for ns in a b c; do
	dev=s0
	[ $ns = a ] && dev=e0
	stt_check_no_errors $ns $dev
	check_link_errors $ns $dev
done
log "PASS dev-external"
