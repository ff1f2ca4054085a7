#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the inner frame carries besides its bytes: VLAN tags, an MSS below
# what the header may carry, and ECN.
#
# VLAN: the STT header has room for one 802.1Q tag (PCP, VID; its DEI bit
# is the "tag present" flag, and it has no TPID).  An 802.1Q tag rides in
# the header; an 802.1ad (S-)tag must stay in the frame, so that b's
# 802.1ad VLAN device receives it as such.
#
# Layouts the header's offload fields cannot describe (two tags, IPv6
# extension headers) are finished by the sender, not refused by b.
#
# ECN (RFC 6040): b's raw table marks CE on the outer header of segments
# that a sent as ECN-capable, as a congested router would.  The inner
# packets must arrive with CE; a's Not-ECT packets whose outer header
# says CE (no router does that, nft can) must be dropped and counted as
# rx_err_ecn.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ===== 192.0.2.2 u0  s0 10.0.0.2 :b
#      s0.10 (802.1Q) 10.1.0.1                     10.1.0.2 s0.10
#      s0.20 (802.1ad) 10.2.0.1                    10.2.0.2 s0.20
#      s0.21 (802.1ad) and s0.21.30 (802.1Q in it) 10.3.0.1   10.3.0.2
#      s0 fd00::1                                  fd00::2 s0
#
#	inner-marks.sh [ipv4|ipv6] [vlan|qinq|ipv6-ext|mss|ecn]...
#
# runs every part, or the ones named (for a module that fails one, to see
# what it does with the next), over an underlay of the family given (the
# inner marks do not depend on it, but the outer ECN field does).
#
# Test: inner_marks
#   timeout: 400
#   kernels: oldest distro: inner_marks_ipv6 runs it over IPv6 on 6.12
#     (only ECN reads the outer header)
#   underlay: either
#
# Test: inner_marks_ipv6 ipv6
#   The same over an IPv6 underlay.
#   timeout: 400
#   kernels: newest distro: inner_marks runs it over IPv4 on 6.1; the
#     marks are header fields copied on paths that the debug kernel's
#     cases (hostile, lifecycle, nic-underlay) already run under its checks
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788
underlay_family "${1:-}" && shift
PARTS=${*:-vlan qinq ipv6-ext mss ecn}

stt_dev_pair a b $KEY

# ---- VLAN -------------------------------------------------------------------

if part vlan; then
	for ns in a b; do
		n=${ns/a/1}
		n=${n/b/2}
		run ip -n $ns link add link s0 name s0.10 type vlan proto 802.1Q id 10
		run ip -n $ns link add link s0 name s0.20 type vlan proto 802.1ad id 20
		for v in 10 20; do
			in_ns $ns sysctl -qw "net.ipv6.conf.s0/$v.disable_ipv6=1"
			set_address $ns s0.$v 10.$((v / 10)).0.$n/24
			ip -n $ns link set s0.$v up
		done
	done
	capture_start b s0 vlan
	ping_sizes a 10.1.0.2 1 1400 4000
	ping_sizes a 10.2.0.2 1 1400 4000
	capture_stop "$CAPTURE_PID" vlan
	q=$(tcpdump -enr "$WORK/vlan.pcap" 'vlan 10 and icmp' 2>/dev/null |
		grep -c 'ethertype 802.1Q (0x8100), length [0-9]*: vlan 10') || true
	ad=$(tcpdump -enr "$WORK/vlan.pcap" 2>/dev/null |
		grep -c 'ethertype 802.1Q-QinQ (0x88a8), length [0-9]*: vlan 20') || true
	log "b's s0 received $q 802.1Q frames of vlan 10 and $ad 802.1ad frames of vlan 20"
	[ "$q" -ge 9 ] && [ "$ad" -ge 9 ] ||
		fail "tags changed on the way: $q 802.1Q (vlan 10), $ad 802.1ad (vlan 20) of 9 each"
	for v in 10 20; do
		feats=$(in_ns a ethtool -k s0.$v | awk '$1 == "tcp-segmentation-offload:" { print $2 }')
		[ "$feats" = on ] || fail "[a] s0.$v has TSO $feats: the VLAN device lost stt's offloads"
	done
	log "VLAN devices on s0 keep TSO"
fi

# ---- inner layouts the header cannot describe --------------------------------

# The receiver trusts a checksum offset or an MSS only for one tag at most
# and no IPv6 extension header (datapath/inner.c), so a must finish such
# packets itself: TCP in two stacked tags (802.1ad, then 802.1Q; the stack
# segments those before stt, but leaves their checksums to it) and TSO'd
# TCP over IPv6 with a destination-options header.  None may die at b as
# rx_err_inner.

if part qinq; then
	for ns in a b; do
		n=${ns/a/1}
		n=${n/b/2}
		run ip -n $ns link add link s0 name s0.21 type vlan proto 802.1ad id 21
		run ip -n $ns link add link s0.21 name s0.21.30 type vlan proto 802.1Q id 30
		for v in 21 21/30; do
			in_ns $ns sysctl -qw "net.ipv6.conf.s0/$v.disable_ipv6=1"
		done
		set_address $ns s0.21.30 10.3.0.$n/24
		ip -n $ns link set s0.21 up
		ip -n $ns link set s0.21.30 up
	done
	bad=$(stt_counter b rx_err_inner s0)
	send_file_and_hash a b 10.3.0.2 4
	bad=$(($(stt_counter b rx_err_inner s0) - bad))
	[ "$bad" -eq 0 ] || fail "TCP in two tags: b refused $bad frames as rx_err_inner"
fi

if part ipv6-ext; then
	for ns in a b; do
		n=${ns/a/1}
		n=${n/b/2}
		in_ns $ns sysctl -qw net.ipv6.conf.s0.disable_ipv6=0
		run ip -n $ns addr add fd00::$n/64 dev s0 nodad
	done
	bad=$(stt_counter b rx_err_inner s0)
	sw=$(stt_counter a tx_sw_segmented s0)
	capture_start b s0 dstopts "ip6 and ip6[6] == 60"
	# IPV6_DSTOPTS (59) at IPPROTO_IPV6 (41): an 8-byte header of PadN.
	SEND_SOCKET_OPTS=,setsockopt=41:59:x0000010400000000 \
		send_file_and_hash a b fd00::2 4
	capture_stop "$CAPTURE_PID" dstopts
	dstopts=$(tcpdump -nr "$WORK/dstopts.pcap" 2>/dev/null | wc -l)
	bad=$(($(stt_counter b rx_err_inner s0) - bad))
	sw=$(($(stt_counter a tx_sw_segmented s0) - sw))
	log "IPv6 with destination options: b's s0 received $dstopts such packets; a segmented $sw GSO packets in software; rx_err_inner +$bad"
	[ "$dstopts" -gt 100 ] || fail "IPv6 with destination options: only $dstopts packets seen"
	[ "$bad" -eq 0 ] || fail "b refused $bad frames as rx_err_inner: a sent layouts b cannot take"
	[ "$sw" -gt 0 ] || fail "TCP over IPv6 with destination options: a segmented nothing in software"
fi

# ---- an MSS below the floor ---------------------------------------------------

if part mss; then
	# TCP segments of 200 bytes: the header may not carry an MSS that fine
	# (STT_MIN_MSS), so a segments them in software rather than send frames b
	# would refuse.
	sw=$(stt_counter a tx_sw_segmented s0)
	small=$(stt_counter b rx_err_mss_small s0)
	iperf3_check a b 10.0.0.2 2 -M 200
	sw=$(($(stt_counter a tx_sw_segmented s0) - sw))
	small=$(($(stt_counter b rx_err_mss_small s0) - small))
	log "MSS 200: a segmented $sw GSO packets in software, b refused $small"
	[ "$sw" -gt 0 ] && [ "$small" -eq 0 ] ||
		fail "MSS 200: tx_sw_segmented +$sw, rx_err_mss_small +$small"
fi

# ---- ECN --------------------------------------------------------------------

if part ecn; then
	# mark WHICH [MATCH]: b's raw table sets CE on incoming STT segments whose
	# outer ECN field is WHICH (ect0, not-ect) and that MATCH (nft) selects.
	nft_family=$([ "$UL_FAMILY" = ipv6 ] && echo ip6 || echo ip)
	mark() {
		in_ns b nft -f - <<-NFT
			table $nft_family stt_ecn
			delete table $nft_family stt_ecn
			table $nft_family stt_ecn {
				chain pre {
					type filter hook prerouting priority raw;
					tcp dport $STT_PORT ${2:-} $nft_family ecn $1 $nft_family ecn set ce
				}
			}
		NFT
	}

	in_ns a sysctl -qw net.ipv4.tcp_ecn=1
	in_ns b sysctl -qw net.ipv4.tcp_ecn=1
	mark ect0
	capture_start b s0 ecn "tcp and ip[1] & 3 == 3"
	send_file_and_hash a b 10.0.0.2 4
	capture_stop "$CAPTURE_PID" ecn
	ce=$(tcpdump -nr "$WORK/ecn.pcap" 2>/dev/null | wc -l)
	log "b's s0: $ce inner TCP packets with CE"
	[ "$ce" -gt 100 ] || fail "CE on the outer header did not reach the inner packets ($ce)"

	# Only the echo requests are marked, by size: a's stack sends small
	# Not-ECT frames of its own at times no test controls (ARP; a router
	# solicitation, backing off, since IPv6 came back on s0 for ipv6-ext).
	mark not-ect "$nft_family length > 1000"
	drops=$(stt_counter b rx_err_ecn s0)
	no_ping a 10.0.0.2 -s 1200
	[ "$(stt_counter b rx_err_ecn s0)" -eq $((drops + 3)) ] ||
		fail "rx_err_ecn moved from $drops to $(stt_counter b rx_err_ecn s0), not by the 3 echo requests"
	log "Not-ECT under CE: 3 echo requests dropped, rx_err_ecn $drops -> $((drops + 3))"
	in_ns b nft delete table $nft_family stt_ecn
fi

ping_sizes a 10.0.0.2 1
log "PASS inner-marks $PARTS over $UL_FAMILY"
