#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the underlay's inbound policies do to STT, as they do to TCP and to
# VXLAN's UDP.
#
# IPsec: a and b protect tcp/7471 between them with ESP in transport mode
# (static SAs, as an IKE daemon would install them), and b's inbound policy
# requires ESP for tcp/7471 from anyone.  Traffic between a and b flows
# encrypted (no plaintext STT on the wire, the hash matches).  c, on
# another link of b's, has an stt device for b but no SA: its plaintext
# STT must be refused by b's inbound policy and counted
# (rx_err_xfrm_policy), not decapsulated.  With disable_policy on c's link
# c's frames are accepted, as TCP would be; without the inbound policy too,
# which shows it was the policy that refused them.
#
# Reverse-path filtering: c then sends STT as a (source 192.0.2.1, a's
# address and tunnel key) over its own link.  With rp_filter=1 on b, IP
# input drops the segments and counts them (IPReversePathFilter) before any
# STT counter moves; with rp_filter=0 they are a's frames to b -- spoofing
# an underlay address is the underlay's to prevent, as for VXLAN.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ==ESP== 192.0.2.2 u0  s0 10.0.0.2  :b
#   c: s0 10.0.1.3  u1 192.0.3.3 ======= 192.0.3.2 u1  s1 10.0.1.2  :b
#      s1 10.0.0.3 (local 192.0.2.1, spoofing a)
#
#	underlay-policy.sh [ipv4|ipv6] [ipsec|rp_filter]
#
# runs both parts, or only the one named (for a module that fails the
# first, to see what it does with the second).  Over IPv6 (a 2001:db8::1,
# b 2001:db8::2 and 2001:db8:3::2, c 2001:db8:3::3) the IPsec part only:
# IPv6 has no rp_filter.
#
# Test: underlay_policy
#   timeout: 400
#   kernels: oldest distro: underlay_policy_ipv6 runs the IPsec part over
#     IPv6 on 6.12, and hostile takes the receive hook's drops and counters
#     on the debug kernel; ESP and the policy lookup are the kernel's own
#     xfrm code
#   underlay: either
#
# Test: underlay_policy_ipv6 ipv6
#   The IPsec part over an IPv6 underlay.
#   timeout: 400
#   kernels: newest distro: underlay_policy runs both parts over IPv4 on 6.1
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
KEY_C=0x5555
AEAD="rfc4106(gcm(aes))"
underlay_family "${1:-}" && shift
if [ "$UL_FAMILY" = ipv6 ]; then
	PARTS=${1:-ipsec}
	! part rp_filter || fail "rp_filter is IPv4's: no rp_filter part over IPv6"
	C=2001:db8:3::3 CB=2001:db8:3::2 ANY=::/0 HOST=128
else
	PARTS=${1:-ipsec rp_filter}
	C=192.0.3.3 CB=192.0.3.2 ANY=0.0.0.0/0 HOST=32
fi
A=$UL_A B=$UL_B

add_ns a
add_ns b
add_ns c
add_underlay a "$A/$UL_PREFIX" b "$B/$UL_PREFIX"
add_underlay c "$C/$UL_PREFIX" b "$CB/$UL_PREFIX" 1500 u1

# esp NS SRC DST SPI KEYHEX: one SA, transport mode, AES-GCM.
esp() {
	run ip -n "$1" xfrm state add src "$2" dst "$3" proto esp spi "$4" \
		mode transport aead "$AEAD" "$5" 128
}
# sa_pair NS: both SAs between a and b, the same keys on both ends.
sa_pair() {
	esp "$1" "$A" "$B" 0x101 0x0102030405060708090a0b0c0d0e0f1011121314
	esp "$1" "$B" "$A" 0x102 0x1112131415161718191a1b1c1d1e1f2021222324
}
# policy NS DIR SRC DST: ESP required for tcp/7471 from SRC to DST.
policy() {
	run ip -n "$1" xfrm policy add dir "$2" src "$3" dst "$4" \
		proto tcp dport "$STT_PORT" tmpl proto esp mode transport
}
run in_ns a "$STT_CTL" add s0 remote "$B" id $KEY
run in_ns b "$STT_CTL" add s0 remote "$A" id $KEY
run in_ns b "$STT_CTL" add s1 remote "$C" id $KEY_C
run in_ns c "$STT_CTL" add s0 remote "$CB" id $KEY_C
stt_dev_up a s0 10.0.0.1/24
stt_dev_up b s0 10.0.0.2/24
stt_dev_up b s1 10.0.1.2/24
stt_dev_up c s0 10.0.1.3/24
# No ARP through c's tunnel: only c's echo requests may count (an ARP
# retransmission after the ping would count at b but not in "sent").
run ip -n c neigh replace 10.0.1.2 dev s0 nud permanent \
	lladdr "$(in_ns b cat /sys/class/net/s1/address)"

# ---- a <-> b: encrypted ------------------------------------------------------

if part ipsec; then
	sa_pair a
	sa_pair b
	policy a out "$A/$HOST" "$B/$HOST"
	policy a in "$B/$HOST" "$A/$HOST"
	policy b out "$B/$HOST" "$A/$HOST"
	policy b in "$ANY" "$ANY"


	mib=$(transfer_mib 8)
	capture_start b u0 esp
	ping_sizes a 10.0.0.2 1 1400 8972
	send_file_and_hash a b 10.0.0.2 "$mib"
	capture_stop "$CAPTURE_PID" esp
	clear=$(tcpdump -nr "$WORK/esp.pcap" "tcp port $STT_PORT" 2>/dev/null | wc -l)
	sealed=$(tcpdump -nr "$WORK/esp.pcap" esp 2>/dev/null | wc -l)
	log "b's u0: $sealed ESP packets, $clear plaintext STT segments"
	[ "$clear" -eq 0 ] || fail "plaintext STT between a and b: $clear segments"
	[ "$sealed" -gt $((mib << 6)) ] ||
		fail "only $sealed ESP packets for $mib MiB"
	esp_in=$(ip -n b -s xfrm state show src "$A" dst "$B" |
		awk '/lifetime current:/ { getline; print $1 + 0; exit }')
	log "b's inbound SA decrypted $esp_in bytes"
	[ "$esp_in" -gt $((mib << 20)) ] ||
		fail "b's inbound SA decrypted $esp_in, less than the transfer"
	stt_check_no_errors a s0
	stt_check_no_errors b s0

	# ---- c -> b: plaintext, refused by b's inbound policy -------------------------

	# (A module without the policy check has no such counter: the ping below
	# says what it does.)
	refused_before=$(stt_counter b rx_err_xfrm_policy s1) || refused_before=none
	rx_before=$(stt_counter b rx_frames s1)
	tx_before=$(stt_counter c tx_frames s0)
	no_ping c 10.0.1.2
	[ "$refused_before" != none ] || fail "b's s1 has no rx_err_xfrm_policy counter"
	sent=$(($(stt_counter c tx_frames s0) - tx_before))
	wait_for bash -c "[ \$(ip netns exec b ethtool -S s1 | awk '\$1 == \"rx_err_xfrm_policy:\" { print \$2 }') -ge $((refused_before + sent)) ]" ||
		fail "b refused $(($(stt_counter b rx_err_xfrm_policy s1) - refused_before)) of c's $sent frames"
	refused=$(($(stt_counter b rx_err_xfrm_policy s1) - refused_before))
	[ "$sent" -ge 3 ] && [ "$refused" -eq "$sent" ] ||
		fail "c sent $sent frames, b refused $refused"
	[ "$(stt_counter b rx_frames s1)" -eq "$rx_before" ] ||
		fail "b decapsulated plaintext STT from c: rx_frames $rx_before -> $(stt_counter b rx_frames s1)"
	errors=$(ip -n b -j -s link show s1 | python3 -c \
		'import json, sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["errors"])')
	[ "$errors" -ge "$refused" ] || fail "ip -s link: b's s1 rx errors $errors < $refused refused"
	log "c sent $sent frames in plaintext; b refused $refused (rx_err_xfrm_policy), rx errors $errors, decapsulated none"

	# With disable_policy on c's link, b applies no policy to what comes
	# by it, to STT as to TCP (the input route says so).
	run in_ns b sysctl -qw "net.$UL_FAMILY.conf.u1.disable_policy=1"
	ping_sizes c 10.0.1.2 1
	run in_ns b sysctl -qw "net.$UL_FAMILY.conf.u1.disable_policy=0"

	# Without the inbound policy, the same frames are b's.
	run ip -n b xfrm policy del dir in src "$ANY" dst "$ANY" \
		proto tcp dport "$STT_PORT"
	ping_sizes c 10.0.1.2 1 1400
fi

# ---- c as a: reverse-path filtering --------------------------------------------

if part rp_filter; then
	run ip -n c addr add 192.0.2.1/32 dev u1
	# b would not answer ARP from 192.0.2.1 on u1 with rp_filter on: c
	# must reach b's link, so that b's IP input is what refuses it.
	run ip -n c neigh replace 192.0.3.2 dev u1 nud permanent \
		lladdr "$(in_ns b cat /sys/class/net/u1/address)"
	run in_ns c "$STT_CTL" add s1 remote 192.0.3.2 local 192.0.2.1 id $KEY
	stt_dev_up c s1 10.0.0.3/24
	# The inner ARP would be answered towards a: c's frames are what counts.
	run ip -n c neigh replace 10.0.0.2 dev s1 nud permanent \
		lladdr "$(in_ns b cat /sys/class/net/s0/address)"

	# spoof RP_FILTER: c pings b through s1; prints how many frames c sent and
	# how b's rx_segments, rx_frames and IPReversePathFilter moved.
	spoof() {
		local seg rx rpf sent
		in_ns b sysctl -qw net.ipv4.conf.all.rp_filter="$1" \
			net.ipv4.conf.u1.rp_filter="$1"
		seg=$(stt_counter b rx_segments s0)
		rx=$(stt_counter b rx_frames s0)
		rpf=$(ip_mib b TcpExtIPReversePathFilter)
		sent=$(stt_counter c tx_frames s1)
		in_ns c "${PING[@]}" -c 3 -i 0.2 -W 1 10.0.0.2 > /dev/null 2>&1 || true
		echo "$(($(stt_counter c tx_frames s1) - sent))" \
			"$(($(stt_counter b rx_segments s0) - seg))" \
			"$(($(stt_counter b rx_frames s0) - rx))" \
			"$(($(ip_mib b TcpExtIPReversePathFilter) - rpf))"
	}

	read -r sent seg rx rpf < <(spoof 1)
	log "rp_filter=1: c sent $sent frames as a; b: rx_segments +$seg, rx_frames +$rx, IPReversePathFilter +$rpf"
	[ "$sent" -eq 3 ] && [ "$seg" -eq 0 ] && [ "$rx" -eq 0 ] && [ "$rpf" -eq 3 ] ||
		fail "rp_filter=1 did not drop c's spoofed STT before the STT receive path"
	read -r sent seg rx rpf < <(spoof 0)
	log "rp_filter=0: c sent $sent frames as a; b: rx_segments +$seg, rx_frames +$rx, IPReversePathFilter +$rpf"
	[ "$sent" -eq 3 ] && [ "$seg" -eq 3 ] && [ "$rx" -eq 3 ] && [ "$rpf" -eq 0 ] ||
		fail "rp_filter=0: c's frames as a were not received as a's"
fi
log "PASS underlay-policy $PARTS over $UL_FAMILY"
