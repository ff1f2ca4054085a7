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
# ECN (RFC 6040): b's raw table marks CE on the outer header of segments
# that a sent as ECN-capable, as a congested router would.  The inner
# packets must arrive with CE; a's Not-ECT packets whose outer header
# says CE (no router does that, nft can) must be dropped and counted as
# rx_err_ecn.
#
#   a: s0 10.0.0.1  u0 192.0.2.1 ===== 192.0.2.2 u0  s0 10.0.0.2 :b
#      s0.10 (802.1Q) 10.1.0.1                     10.1.0.2 s0.10
#      s0.20 (802.1ad) 10.2.0.1                    10.2.0.2 s0.20

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

KEY=0x1122334455667788

stt_dev_pair a b $KEY

# ---- VLAN -------------------------------------------------------------------

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

# ---- an MSS below the floor ---------------------------------------------------

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

# ---- ECN --------------------------------------------------------------------

# mark WHICH: b's raw table sets CE on incoming STT segments whose outer ECN
# field is WHICH (ect0, not-ect).
mark() {
	in_ns b nft -f - <<-NFT
		table ip stt_ecn
		delete table ip stt_ecn
		table ip stt_ecn {
			chain pre {
				type filter hook prerouting priority raw;
				tcp dport $STT_PORT ip ecn $1 ip ecn set ce
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

# No ARP through the tunnel while Not-ECT frames are dropped: only the
# echo requests may count.
run ip -n a neigh replace 10.0.0.2 dev s0 nud permanent \
	lladdr "$(in_ns b cat /sys/class/net/s0/address)"
mark not-ect
drops=$(stt_counter b rx_err_ecn s0)
no_ping a 10.0.0.2
[ "$(stt_counter b rx_err_ecn s0)" -eq $((drops + 3)) ] ||
	fail "rx_err_ecn moved from $drops to $(stt_counter b rx_err_ecn s0), not by the 3 echo requests"
log "Not-ECT under CE: 3 echo requests dropped, rx_err_ecn $drops -> $((drops + 3))"
in_ns b nft delete table ip stt_ecn
ping_sizes a 10.0.0.2 1
log "PASS inner-marks"
