#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Frames an attacker on the underlay shapes through their segments: what
# the receiver builds of them must be safe to segment again and must not
# pin more memory than a small multiple of their size (kernel re-review N1
# and N2).
#
# bridge, ovs: GRO.  stt-attack's gro-chain sends pairs of frames that
# continue one inner TCP flow, each "checksum partial" with MSS 256 (A with
# 256 bytes of payload, B with 512, each in two segments), held by a plug
# qdisc and released at once, so that the receiver decapsulates them in one
# poll.  Were B's GSO state trusted, GRO on the stt device would chain B
# behind A with B's payload in a linear part longer than the MSS, and the
# first thing to segment the result would BUG() in skb_segment() (Debian's
# 6.1 lacks the guard 6.12 has in GRO).  Two receivers segment what they
# receive:
#
#   - b, a Linux bridge forwarding to a veth without frag_list support
#     (tx-scatter-gather-fraglist off):
#       x: u1 198.51.100.1 ==== u1 198.51.100.2 :b  s1 (remote x) - br0 - v0
#                                                  v0 ==== eth0 :vm0
#   - host1, Open vSwitch: every pair is a new inner flow (its source MAC),
#     so a flow miss, and the upcall segments the packet in software:
#       x: u2 203.0.113.1 ==== u2 203.0.113.2 :host1  tun0 (stt) - br0 - vm1
#   (ipv6: 2001:db8:100::/64 and 2001:db8:200::/64)
#
# Both must deliver every frame: each A as one packet, each B as two
# segments of 256 bytes (the output ports segment in software: TSO off);
# the VM's capture must hold exactly those segments, and the stt device
# count every frame and no error.
#
# ecn: a frame whose inner TCP segment has ECN's CWR set is a GSO packet
# marked ECN (kernel re-review N9), so that a device that cannot keep CWR
# to the first segment it cuts (v0 with tx-tcp-ecn-segmentation off) gets
# it cut in software: vm0 must see CWR on the first segment of each frame
# only (RFC 3168), never the frame whole or CWR on every segment.  With
# GRO off on s1, as GRO marks what it completes itself; which also takes
# the frames up through the backlog, where 6.12's gro_cells lost the
# transport header the bridge's transmit then needs (it dropped every
# frame as SKB_BAD_GSO).
#
# csum: ethtool -K DEV rx off stops the receiver taking the header's
# "checksum verified" (kernel re-review N9): frames so flagged whose inner
# UDP checksum is wrong reach a UDP socket with rx on, and are counted as
# bad (UdpInCsumErrors) with rx off.
#
# pin: what a frame holds.  stt-attack's small-pieces sends frames of 65535
# bytes cut into segments of 24 bytes, each in a buffer of its own on the
# way in.  An unread packet socket on b's s1 is charged the truesize of
# every frame s1 receives: per frame it must stay within what frame.c lets
# a frame pin, 3 * 65535 + 64 KiB.
#
# budget: reasm_mem_limit bounds a namespace's reassembly, all its ports
# together (kernel re-review N10: a user namespace's root may open any
# number of ports).  p floods its ports 7471 and 7472 with first segments
# of frames that never complete, under a limit of 512 KiB: what the two
# ports hold never adds up to more, and the second is turned away.
#
# Usage: hostile-frames.sh [ipv4|ipv6] [bridge] [ecn] [ovs] [pin] [csum]
# [budget] (the parts to run; all by default, so that one can be shown
# failing without the others).
#
# Test: hostile_frames
#   timeout: 500
#   kernels: oldest distro: the lane 6.12-deb13 runs it on Debian's 6.12;
#     hostile_frames_debug runs all but the Open vSwitch part on the debug
#     kernel (which takes two minutes to start it)
#   lanes: 6.12-deb13
#   underlay: either
#
# Test: hostile_frames_debug ipv4 bridge ecn pin csum budget
#   All but the Open vSwitch part.
#   timeout: 500
#   kernels: debug only: hostile_frames runs every part on Debian's kernels
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

underlay_family "${1:-}" && shift
PARTS=${*:-bridge ecn ovs pin csum budget}
KEY=0x00000000000000aa
PAIRS=12
STT_ATTACK=$STT_GUEST_DIR/tools/stt-attack

if [ "$UL_FAMILY" = ipv6 ]; then
	X1=2001:db8:100::1 B1=2001:db8:100::2
	X2=2001:db8:200::1 H2=2001:db8:200::2
	X3=2001:db8:300::1 P3=2001:db8:300::2 PREFIX=64
else
	X1=198.51.100.1 B1=198.51.100.2
	X2=203.0.113.1 H2=203.0.113.2
	X3=192.0.2.101 P3=192.0.2.102 PREFIX=24
fi

# counter_is NS NAME N DEV: DEV's counter NAME in NS is N.
counter_is() {
	[ "$(stt_counter "$1" "$2" "$4")" -eq "$3" ]
}

# pcap_packets FILE N: capture FILE holds N packets or more.
pcap_packets() {
	[ "$(tcpdump -r "$1" 2>/dev/null | wc -l)" -ge "$2" ]
}

# queued DEV N: x's plug qdisc on DEV holds N packets or more (x's own
# IPv6 chatter, neighbour discovery and MLD, may be held there too).
queued() {
	tc -n x -s qdisc show dev "$1" |
		awk -v n="$2" '/backlog/ { held = $3 + 0 } END { exit held < n }'
}

# attack_burst IFACE DST DST_MAC: PAIRS pairs from x through IFACE, held
# by a plug qdisc until all are queued, then released at once.
attack_burst() {
	local iface=$1 dst=$2 dst_mac=$3
	run tc -n x qdisc add dev "$iface" root plug
	run in_ns x "$STT_ATTACK" --iface "$iface" --dst "$dst" \
		--dst-mac "$dst_mac" --key $KEY gro-chain=$PAIRS
	wait_for queued "$iface" $((4 * PAIRS)) ||
		fail "[x] the plug qdisc on $iface does not hold $((4 * PAIRS)) packets: $(tc -n x -s qdisc show dev "$iface")"
	run tc -n x qdisc change dev "$iface" root plug release_indefinite
}

# capture_vm VM: capture what VM's eth0 receives of the attacker's inner
# flow (its own chatter and the bridge's, IGMP and the like, aside).
capture_vm() {
	capture_start "$1" eth0 "$1" tcp port 2222
}

# check_delivered HOST DEV VM: DEV in HOST received every frame (rx_frames
# 2 a pair, no error) and VM every segment of them, 3 a pair: for pair I
# the TCP sequence numbers I * 65536 + 0, 256 and 512, 256 bytes each.
check_delivered() {
	local host=$1 dev=$2 vm=$3 want=$((3 * PAIRS)) i k
	wait_for pcap_packets "$WORK/$vm.pcap" $want ||
		fail "[$vm] received $(tcpdump -r "$WORK/$vm.pcap" 2>/dev/null | wc -l) of the $want segments of $PAIRS pairs"
	capture_stop "$CAPTURE_PID" "$vm"
	[ "$(capture_dropped "$vm")" = 0 ] ||
		fail "[$vm] the capture dropped packets"
	# tcpdump rather than tshark, which takes a minute to start on the
	# debug kernel: "seq FIRST:END, ..., length LEN" a line.
	tcpdump -r "$STT_RESULTS/$vm.pcap" -nn -S 2>/dev/null |
		sed -n 's/.* seq \([0-9]*\):[0-9]*,.* length \([0-9]*\).*/\1 \2/p' |
		sort -n > "$WORK/$vm.got"
	for ((i = 0; i < PAIRS; i++)); do
		for k in 0 256 512; do
			echo "$((i * 65536 + k)) 256"
		done
	done > "$WORK/$vm.want"
	diff "$WORK/$vm.want" "$WORK/$vm.got" ||
		fail "[$vm] the segments received (sequence, length) are not those sent (above)"
	[ "$(stt_counter "$host" rx_frames "$dev")" -eq $((2 * PAIRS)) ] ||
		fail "[$host] $dev rx_frames is $(stt_counter "$host" rx_frames "$dev"), not $((2 * PAIRS))"
	stt_check_no_errors "$host" "$dev"
	log "[$vm] $want segments of 256 bytes: every frame of $PAIRS pairs, B cut in two"
}

run modprobe stt
run modprobe sch_plug
add_ns x

# ---- a bridge forwarding to a port without frag_list support ----------------

if part bridge || part ecn; then
add_ns b
add_ns vm0
add_underlay x "$X1/$PREFIX" b "$B1/$PREFIX" 1500 u1
run ip -n b link add br0 type bridge
run in_ns b "$STT_CTL" add s1 remote "$X1" id $KEY
run ip link add v0 netns b type veth peer name eth0 netns vm0
run ip -n b link set s1 master br0
run ip -n b link set v0 master br0
for dev in br0 s1 v0; do
	ip -n b link set "$dev" up
done
ip -n vm0 link set eth0 up
fi

if part bridge; then
run in_ns b ethtool -K v0 tx-scatter-gather-fraglist off tso off
capture_vm vm0
attack_burst u1 "$B1" "$(in_ns b cat /sys/class/net/u1/address)"
check_delivered b s1 vm0
fi

# ---- ECN's CWR on the first segment only ------------------------------------------

if part ecn; then
CWR_FRAMES=8
# v0 cuts TCP itself but cannot keep CWR to the first segment, like a NIC
# without TSO ECN: the stack must cut a frame marked ECN for it, in
# software, which clears CWR after the first segment.
# (Two commands: "tso on" turns tx-tcp-ecn-segmentation on with the rest.)
# GRO off on s1: GRO marks what it completes itself (tcp_gro_complete()),
# which would hide whether the receive path does; Open vSwitch's vport
# takes no GRO either.
run in_ns b ethtool -K s1 gro off
run in_ns b ethtool -K v0 tso on
run in_ns b ethtool -K v0 tx-tcp-ecn-segmentation off
capture_start vm0 eth0 vm0-ecn tcp port 2222
run in_ns x "$STT_ATTACK" --iface u1 --dst "$B1" \
	--dst-mac "$(in_ns b cat /sys/class/net/u1/address)" --key $KEY \
	cwr=$CWR_FRAMES
wait_for pcap_packets "$WORK/vm0-ecn.pcap" $((4 * CWR_FRAMES)) ||
	fail "[vm0] received $(tcpdump -r "$WORK/vm0-ecn.pcap" 2>/dev/null | wc -l) packets, not the $((4 * CWR_FRAMES)) segments of $CWR_FRAMES frames"
capture_stop "$CAPTURE_PID" vm0-ecn
# "SEQUENCE LENGTH FLAGS" a segment; tcpdump writes ACK as ., CWR as W.
tcpdump -r "$STT_RESULTS/vm0-ecn.pcap" -nn -S 2>/dev/null |
	sed -n 's/.* Flags \[\([^]]*\)\], seq \([0-9]*\):[0-9]*,.* length \([0-9]*\).*/\2 \3 \1/p' |
	sort -n > "$WORK/cwr.got"
for ((i = 0; i < CWR_FRAMES; i++)); do
	echo "$((i * 65536)) 256 .W"
	for k in 256 512 768; do
		echo "$((i * 65536 + k)) 256 ."
	done
done > "$WORK/cwr.want"
diff "$WORK/cwr.want" "$WORK/cwr.got" ||
	fail "[vm0] the segments received (sequence, length, flags) are not those sent (above): CWR belongs on the first of each frame only"
stt_check_no_errors b s1
log "[vm0] $CWR_FRAMES frames with CWR arrived as $((4 * CWR_FRAMES)) segments of 256 bytes, CWR on the first of each only"
fi

# ---- what a frame pins ---------------------------------------------------------

# packet_rmem NS IFINDEX: the receive memory charged to NS's packet
# socket bound to IFINDEX (/proc/net/packet's Rmem).
packet_rmem() {
	in_ns "$1" awk -v i="$2" 'NR > 1 && $5 == i { print $7 }' /proc/net/packet
}

# p: an stt device s1 for x, which only receives.
if part pin || part csum || part budget; then
add_ns p
add_underlay x "$X3/$PREFIX" p "$P3/$PREFIX" 1500 u3
run in_ns p "$STT_CTL" add s1 remote "$X3" id $KEY
in_ns p sysctl -qw net.ipv6.conf.s1.disable_ipv6=1
run ip -n p link set s1 up
fi

if part pin; then
PIN_FRAMES=4
PIN_LIMIT=$((3 * 65535 + 65536))
# 2,731 segments a frame: more than the default second to arrive in a
# slow guest.
echo 30000 > /sys/module/stt/parameters/reasm_timeout_ms
# A packet socket on s1 that never reads: each frame s1 receives is charged
# to it at its truesize.
log "+ [p] a packet socket on s1, never read"
background "$WORK/pin-socket.log" ip netns exec p python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.setsockopt(socket.SOL_SOCKET, 33, 1 << 30)    # SO_RCVBUFFORCE
s.bind(("s1", 0))
print("ready", flush=True)
time.sleep(3600)'
wait_for grep -q ready "$WORK/pin-socket.log" ||
	fail "[p] the packet socket did not open: $(cat "$WORK/pin-socket.log")"
ifindex=$(in_ns p cat /sys/class/net/s1/ifindex)
run in_ns x "$STT_ATTACK" --iface u3 --dst "$P3" \
	--dst-mac "$(in_ns p cat /sys/class/net/u3/address)" --key $KEY \
	small-pieces=$PIN_FRAMES
wait_for counter_is p rx_frames $PIN_FRAMES s1 ||
	fail "[p] s1 rx_frames is $(stt_counter p rx_frames s1), not $PIN_FRAMES"
rmem=$(packet_rmem p "$ifindex")
log "[p] $PIN_FRAMES frames of 65535 bytes in 24-byte segments hold $rmem bytes: $((rmem / PIN_FRAMES)) a frame (at most $PIN_LIMIT)"
[ "$((rmem / PIN_FRAMES))" -le $PIN_LIMIT ] ||
	fail "[p] a frame of 65535 bytes holds $((rmem / PIN_FRAMES)) bytes, more than $PIN_LIMIT"
stt_check_no_errors p s1
fi

# ---- the receive checksum offload toggle ------------------------------------------

# udp_moved NAME N: p's UDP counter NAME moved by N since $WORK/udp.before.
udp_moved() {
	[ "$(ip_mib p "$1")" -eq $(($(grep "^$1 " "$WORK/udp.before" | cut -d' ' -f2) + $2)) ]
}

# csum_verified_to_p RX N COUNTER: with s1's receive checksum offload RX,
# N frames "checksum verified" whose inner UDP checksum is wrong move p's
# UDP counter COUNTER by N.
csum_verified_to_p() {
	local rx=$1 n=$2 counter=$3 name
	run in_ns p ethtool -K s1 rx "$rx"
	for name in UdpInDatagrams UdpInCsumErrors; do
		echo "$name $(ip_mib p $name)"
	done > "$WORK/udp.before"
	run in_ns x "$STT_ATTACK" --iface u3 --dst "$P3" \
		--dst-mac "$(in_ns p cat /sys/class/net/u3/address)" --key $KEY \
		csum-verified=$n
	wait_for udp_moved "$counter" "$n" ||
		fail "[p] rx $rx: $counter moved from $(grep "^$counter " "$WORK/udp.before" | cut -d' ' -f2) to $(ip_mib p "$counter"), not by $n"
	log "[p] rx $rx: $n frames \"checksum verified\" with a bad inner UDP checksum: $counter +$n"
}

if part csum; then
# s1 is the inner frames' destination: their MAC and IP address, and a UDP
# socket on their port (so that nothing answers), which reads what comes:
# UDP counts a datagram in UdpInDatagrams when it is read.
run ip -n p link set s1 address 02:00:5e:00:53:01
set_address p s1 10.9.0.3/24
log "+ [p] a UDP socket on port 9"
background "$WORK/udp-socket.log" ip netns exec p python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.9.0.3", 9))
print("ready", flush=True)
while True:
    s.recv(65536)'
wait_for grep -q ready "$WORK/udp-socket.log" ||
	fail "[p] the UDP socket did not open: $(cat "$WORK/udp-socket.log")"
csum_verified_to_p on 20 UdpInDatagrams
csum_verified_to_p off 20 UdpInCsumErrors
fi

# ---- one reassembly budget a namespace ------------------------------------------

if part budget; then
BUDGET=$((512 << 10))
run in_ns p "$STT_CTL" add s2 external dstport 7472
in_ns p sysctl -qw net.ipv6.conf.s2.disable_ipv6=1
run ip -n p link set s2 up
echo $BUDGET > /sys/module/stt/parameters/reasm_mem_limit
# Flood frames stay until the budget evicts them, not the timeout.
echo 30000 > /sys/module/stt/parameters/reasm_timeout_ms
for port in 7471 7472; do
	run in_ns x "$STT_ATTACK" --iface u3 --dst "$P3" \
		--dst-mac "$(in_ns p cat /sys/class/net/u3/address)" \
		--port $port flood=2000
done
held1=$(stt_counter p reasm_bytes s1)
held2=$(stt_counter p reasm_bytes s2)
log "[p] port 7471 holds $held1 bytes, port 7472 $held2 (budget $BUDGET)"
[ $((held1 + held2)) -le $BUDGET ] ||
	fail "[p] the ports of p hold $((held1 + held2)) bytes in reassembly, more than the budget of $BUDGET"
[ "$(stt_counter p rx_reasm_mem_drops s2)" -gt 0 ] ||
	fail "[p] port 7472 was never turned away by the budget (rx_reasm_mem_drops 0)"
echo $((8 << 20)) > /sys/module/stt/parameters/reasm_mem_limit
fi

# ---- Open vSwitch: a flow miss per pair --------------------------------------

if part ovs; then
add_host host1
host_ovs host1 ovs-vsctl add-br br0
add_underlay x "$X2/$PREFIX" host1 "$H2/$PREFIX" 1500 u2
add_tunnel_port host1 tun0 stt remote_ip="$X2" key=$KEY
add_vm vm1 host1 10.0.0.1/24
wait_for_ports
run in_ns host1 ethtool -K vm1 tso off
dev=$(tunnel_device host1 stt)

capture_vm vm1
attack_burst u2 "$H2" "$(in_ns host1 cat /sys/class/net/u2/address)"
check_delivered host1 "$dev" vm1
lost=$(host_ovs_q host1 ovs-dpctl show | sed -n 's/.*lost:\([0-9]*\).*/\1/p')
[ "$lost" = 0 ] || fail "[host1] the datapath lost $lost upcalls"
stt_check_ovs_log host1 tun0
fi

log "PASS hostile-frames over $UL_FAMILY"
