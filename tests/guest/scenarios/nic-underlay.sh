#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# STT over emulated hardware NICs instead of veth, so that the receive path
# meets the skbs real drivers build: e1000e and virtio-net without mergeable
# receive buffers, each with and without GRO, and what hosts put around them
# (a packet socket, tc mirroring, an NFQUEUE consumer, an Open vSwitch flow
# that sends packets to userspace).  Needs two NICs:
#
#	run-guest --nic e1000e --nic virtio-net-pci,mrg_rxbuf=off ...
#
#   a/host1: u0 = e1000e 192.0.2.1 ===[QEMU hub]=== 192.0.2.2 u0 = virtio-net :b/host2
#                        2001:db8::1                2001:db8::2     (ipv6)
#
# nic-underlay.sh [ipv4|ipv6] dev [STEP...]: two plain stt devices s0 (10.0.0.1,
# 10.0.0.2), then these steps (all by default):
#   matrix: for each receiver GRO on/off and sender TSO on/off, ping 1,
#     1400 and 8972 bytes, 4 MiB with SHA-256 each way;
#   clones-gro-on, clones-gro-off: with b's GRO so, 16 MiB a -> b while b's
#     u0 is read by an AF_PACKET socket without the mmap ring and mirrored
#     by tc mirred (ingress and egress) to a dummy device: both clone every
#     skb;
#   nfqueue: 8 MiB a -> b while an NFQUEUE consumer hooked before the STT
#     hook (prerouting, priority raw) accepts every TCP packet.
# nic-underlay.sh [ipv4|ipv6] ovs [STEP...]: two Open vSwitch hosts with type=stt ports;
#   host2 sends every TCP packet to the controller and forwards it (the
#   datapath flow queues every packet, a GSO one segmented first, to
#   ovs-vswitchd); steps upcalls-gro-on and
#   upcalls-gro-off: with both underlays' GRO so, 8 MiB with SHA-256 each
#   way.
#
# Every part ends with the stt counters: rx_frames moved, no error counter
# moved, no RX/TX errors on the devices.  Each step is logged to the kernel
# log too ("stt-scenario: step ..."), so the console shows which step a
# crash came in.
#
# Test: nic_underlay_dev dev
#   timeout: 1500
#   nics: e1000e virtio-net-pci,mrg_rxbuf=off
#   kernels: not debug: nic_underlay_dev_ipv6 takes the same drivers'
#     skbs, over IPv6, on the debug kernel (what STT does with them does
#     not depend on the family)
#   underlay: either
# Test: nic_underlay_dev_ipv6 ipv6 dev
#   The same over an IPv6 underlay.
#   timeout: 1500
#   nics: e1000e virtio-net-pci,mrg_rxbuf=off
#   kernels: debug only: nic_underlay_dev runs it over IPv4 on Debian's
#     kernels
#   underlay: either
# Test: nic_underlay_ovs ovs
#   timeout: 1200
#   nics: e1000e virtio-net-pci,mrg_rxbuf=off
#   kernels: newest distro: nic-underlay dev takes the same drivers and
#     receive paths on every kernel series; what this case adds, Open
#     vSwitch's upcall of the GSO packets STT hands on, needs one kernel
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

USAGE="usage: nic-underlay.sh [ipv4|ipv6] dev [matrix|clones-gro-on|clones-gro-off|nfqueue]...
       nic-underlay.sh [ipv4|ipv6] ovs [upcalls-gro-on|upcalls-gro-off]..."
underlay_family "${1:-}" && shift
PART=${1:-}
shift || true
case $PART in
dev) ALL_STEPS="matrix clones-gro-on clones-gro-off nfqueue" ;;
ovs) ALL_STEPS="upcalls-gro-on upcalls-gro-off" ;;
*) fail "$USAGE" ;;
esac
# Named steps run alone (setup and the final checks always run): a kernel
# crash in one step ends the guest, and the others still want a verdict.
PARTS=${*:-$ALL_STEPS}
for name in $PARTS; do
	case " $ALL_STEPS " in
	*" $name "*) ;;
	*) fail "no step $name in part $PART: $USAGE" ;;
	esac
done

KEY=0x1122334455667788
# MiB per transfer (an eighth on the debug kernel, whose transfers take
# longer still).  The clone steps keep 16 (the use-after-free came 10-17 s
# into such a transfer); the upcall steps send 8 each way (the BUG came
# within 11 s); the offload matrix only has to show that every combination
# carries data; the NFQUEUE consumer costs a context switch per packet.
MIB=$(transfer_mib 16)
MATRIX_MIB=$(transfer_mib 4)
NFQUEUE_MIB=$(transfer_mib 8)
UPCALL_MIB=$(transfer_mib 8)
PACKET_COUNT=$STT_GUEST_DIR/tools/packet-count
# The NIC each side's underlay must be: a transfer over another would test
# something else.
DRIVER_A=e1000e
DRIVER_B=virtio_net
# VIRTIO_NET_F_MRG_RXBUF: off, so that virtio-net receives into one buffer
# per frame, not the merged page buffers of its default.
VIRTIO_MRG_RXBUF=15

STEP=
STEP_START=0

# step NAME: log the time the previous step took and start NAME, in the
# scenario log and in the kernel log.
step() {
	[ -z "$STEP" ] || log "step '$STEP' took $((SECONDS - STEP_START)) s"
	STEP=$1
	STEP_START=$SECONDS
	log "==== $STEP"
	echo "stt-scenario: step $STEP" > /dev/kmsg 2>/dev/null || true
}

# check_nics A B: A's underlay u0 is an e1000e, B's a virtio-net with
# mergeable receive buffers off.
check_nics() {
	local a=$1 b=$2 driver mrg
	driver=$(in_ns "$a" ethtool -i u0 | sed -n 's/^driver: //p')
	[ "$driver" = $DRIVER_A ] ||
		fail "[$a] u0 has driver ${driver:-none}, not $DRIVER_A (run-guest --nic e1000e first)"
	driver=$(in_ns "$b" ethtool -i u0 | sed -n 's/^driver: //p')
	[ "$driver" = $DRIVER_B ] ||
		fail "[$b] u0 has driver ${driver:-none}, not $DRIVER_B (run-guest --nic virtio-net-pci,mrg_rxbuf=off second)"
	mrg=$(virtio_feature "$b" u0 $VIRTIO_MRG_RXBUF) ||
		fail "[$b] cannot read u0's virtio features"
	[ "$mrg" = 0 ] ||
		fail "[$b] u0 negotiated VIRTIO_NET_F_MRG_RXBUF: pass virtio-net-pci,mrg_rxbuf=off"
	log "[$a] u0: $DRIVER_A; [$b] u0: $DRIVER_B, VIRTIO_NET_F_MRG_RXBUF off" \
		"(features $(in_ns "$b" cat /sys/class/net/u0/device/features))"
}

# transfer FROM TO ADDR DEV TO_HOST [MIB]: send_file_and_hash FROM -> TO, and
# TO_HOST's stt device DEV must count received frames for it: at least one
# per 64 KiB, the most an STT frame carries.  None may have been copied
# whole (rx_frames_copied): a NIC's segments are MTU-sized pieces a frame
# can share, or small ones it copies alone.  Logs how many IPv4 datagrams
# TO_HOST reassembled meanwhile: QEMU 7.2's e1000e sends a TSO packet as IP
# fragments (see part_dev).  (Netfilter's IPv6 reassembly, which the
# receive port turns on, counts none.)
transfer() {
	local from=$1 to=$2 addr=$3 dev=$4 host=$5 mib=${6:-$MIB} reasm
	local frames copied
	stt_counters "$host" "$dev" > "$WORK/transfer.before"
	reasm=$(ip_mib "$host" IpReasmOKs)
	send_file_and_hash "$from" "$to" "$addr" "$mib"
	stt_counters "$host" "$dev" > "$WORK/transfer.after"
	reasm=$(($(ip_mib "$host" IpReasmOKs) - reasm))
	grep -q '^rx_frames_copied ' "$WORK/transfer.after" ||
		fail "[$host] $dev has no rx_frames_copied counter"
	read -r frames copied < <(stt_counters_moved "$WORK/transfer.before" \
		"$WORK/transfer.after" | awk '$1 == "rx_frames" { f = $2 }
			$1 == "rx_frames_copied" { c = $2 }
			END { print f + 0, c + 0 }')
	[ "$frames" -ge $((mib << 4)) ] ||
		fail "[$host] $dev rx_frames moved by $frames for $mib MiB"
	[ "$copied" -eq 0 ] ||
		fail "[$host] $dev copied $copied frames whole (rx_frames_copied)"
	log "[$host] $dev rx_frames +$frames, rx_frames_copied +$copied," \
		"IP reassemblies +$reasm"
}

# check_underlay_errors NS: no RX or TX errors on NS's u0, but for what
# QEMU's e1000e counts as one and delivers all the same: a frame shorter than
# 64 bytes (an ARP packet from the virtio-net peer, which does not pad it;
# ethtool -S: rx_short_length_errors).
check_underlay_errors() {
	local ns=$1 rx tx rxd txd runts
	read -r rx tx rxd txd < <(link_errors "$ns" u0) ||
		fail "[$ns] ip -s link show u0 failed"
	runts=$(in_ns "$ns" ethtool -S u0 |
		awk '$1 == "rx_short_length_errors:" { n = $2 } END { print n + 0 }')
	[ "$rx" -eq "$runts" ] && [ "$tx" -eq 0 ] ||
		fail "[$ns] ip -s link show u0: RX errors $rx ($runts of them short frames), TX errors $tx"
	log "[$ns] ip -s link show u0: RX/TX errors $rx $tx ($runts short frames" \
		"that the NIC delivered), dropped $rxd $txd"
}

# counts_field LINE NAME: the number after NAME in "NAME N NAME N ...".
counts_field() {
	echo "$1" | awk -v n="$2" '{ for (i = 1; i < NF; i += 2)
		if ($i == n) { print $(i + 1); found = 1 } }
		END { exit !found }'
}

# ---- plain stt devices ------------------------------------------------------

# The AF_PACKET reader and tc mirred on b's u0 during a transfer a -> b.
# a's u0 sends TCP segments (no TSO, see part_dev) for b's GRO to merge.
clone_transfer() {
	local gro=$1 reader counts dir pkts dum
	underlay_offloads a u0 tso off
	underlay_offloads b u0 gro "$gro"
	run ip -n b link add dum0 type dummy
	run ip -n b link set dum0 up
	run tc -n b qdisc add dev u0 clsact
	run tc -n b filter add dev u0 ingress matchall \
		action mirred egress mirror dev dum0
	run tc -n b filter add dev u0 egress matchall \
		action mirred egress mirror dev dum0
	log "+ [b] $PACKET_COUNT u0"
	background "$WORK/packet-count.log" ip netns exec b "$PACKET_COUNT" u0
	reader=$BG_PID
	# Python takes seconds to start in an emulated guest.
	wait_for -t 120 grep -q "listening on u0" "$WORK/packet-count.log" ||
		fail "[b] packet-count did not start: $(cat "$WORK/packet-count.log")"

	transfer a b 10.0.0.2 s0 b

	kill -TERM "$reader"
	wait_background "$reader" "$WORK/packet-count.log" ||
		fail "[b] packet-count failed"
	counts=$(tail -n 1 "$WORK/packet-count.log")
	log "[b] packet-count u0: $counts"
	[ "$(counts_field "$counts" rx_port)" -gt 0 ] ||
		fail "[b] the packet socket on u0 received no STT segment"
	for dir in ingress egress; do
		pkts=$(tc -n b -s filter show dev u0 $dir |
			sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | sed -n 1p)
		[ "${pkts:-0}" -gt 0 ] ||
			fail "[b] tc mirred on u0 $dir mirrored nothing"
		log "[b] tc mirred on u0 $dir: $pkts packets mirrored to dum0"
	done
	dum=$(in_ns b cat /sys/class/net/dum0/statistics/tx_packets)
	[ "$dum" -gt 0 ] || fail "[b] dum0 sent nothing"
	log "[b] dum0 tx_packets $dum"
	run tc -n b qdisc del dev u0 clsact
	run ip -n b link del dum0
}

# /proc/net/netfilter/nfnetlink_queue of NS, queue 0: "queue_total
# queue_dropped user_dropped id_sequence".
nfq_state() {
	in_ns "$1" cat /proc/net/netfilter/nfnetlink_queue |
		awk '$1 == 0 { print $3, $6, $7, $8; found = 1 } END { exit !found }'
}

nfq_queued_at_least() {
	local total dropped udropped seq
	read -r total dropped udropped seq < <(nfq_state "$1") &&
		[ "$seq" -ge "$2" ]
}

nfq_idle() {
	local total dropped udropped seq
	read -r total dropped udropped seq < <(nfq_state "$1") &&
		[ "$total" -eq 0 ]
}

# An NFQUEUE consumer on b accepting every TCP packet before the STT hook
# (NF_IP_PRI_CONNTRACK - 1) sees it, during a transfer a -> b.  It does not
# ask for GSO packets (NFQA_CFG_F_GSO), so the kernel segments each GRO
# aggregate before queueing it, and reinjects the segments one by one.
nfqueue_transfer() {
	local nfq consumer total dropped udropped seq counts packets port
	nfq=$(find_built tests/guest/tools/nfq-accept) ||
		fail "no tests/guest/tools/nfq-accept in $STT_REPO/_build/*: install libnetfilter-queue-dev, re-run configure and make"
	underlay_offloads a u0 tso off
	underlay_offloads b u0 gro on
	log "+ [b] $nfq -q 0"
	background "$WORK/nfq-accept.log" ip netns exec b "$nfq" -q 0
	consumer=$BG_PID
	wait_for grep -q "queue 0 bound" "$WORK/nfq-accept.log" ||
		fail "[b] nfq-accept did not start: $(cat "$WORK/nfq-accept.log")"
	cat > "$WORK/nfq.nft" <<-'EOF'
	table inet stt_nfq {
		chain prerouting {
			type filter hook prerouting priority raw;
			meta l4proto tcp queue num 0
		}
	}
	EOF
	run in_ns b nft -f "$WORK/nfq.nft"

	send_file_start a b 10.0.0.2 $NFQUEUE_MIB
	wait_for -t 300 nfq_queued_at_least b 1000 ||
		fail "[b] NFQUEUE 0 is not getting packets during the transfer"
	log "[b] NFQUEUE 0 under way: $(nfq_state b) (total dropped user_dropped id)"
	send_file_check b

	# Let the queue drain before the hook goes: packets still queued
	# when it goes are dropped.
	wait_for nfq_idle b || fail "[b] NFQUEUE 0 does not drain"
	run in_ns b nft delete table inet stt_nfq
	wait_for nfq_idle b || fail "[b] NFQUEUE 0 does not drain"
	read -r total dropped udropped seq < <(nfq_state b)
	kill -TERM "$consumer"
	wait_background "$consumer" "$WORK/nfq-accept.log" ||
		fail "[b] nfq-accept failed"
	counts=$(tail -n 1 "$WORK/nfq-accept.log")
	log "[b] nfq-accept: $counts; kernel: queued $seq, queue full $dropped," \
		"undeliverable $udropped"
	packets=$(counts_field "$counts" packets)
	port=$(counts_field "$counts" port)
	# Every packet the kernel queued and delivered got its verdict.
	[ "$packets" -eq $((seq - dropped - udropped)) ] ||
		fail "[b] nfq-accept gave $packets verdicts for $((seq - dropped - udropped)) packets delivered"
	[ "$port" -gt 0 ] || fail "[b] nfq-accept saw no STT segment"
	[ "$(counts_field "$counts" other)" -gt 0 ] ||
		fail "[b] nfq-accept saw no decapsulated inner TCP packet"
}

part_dev() {
	local gro tso ns
	step "NIC underlay"
	add_ns a
	add_ns b
	add_nic_underlay a "$UL_A/$UL_PREFIX" b "$UL_B/$UL_PREFIX"
	check_nics a b

	step "stt devices"
	run in_ns a "$STT_CTL" add s0 remote "$UL_B" id $KEY
	run in_ns b "$STT_CTL" add s0 remote "$UL_A" id $KEY
	stt_dev_up a s0 10.0.0.1/24
	stt_dev_up b s0 10.0.0.2/24

	# Both ends get the same settings, so that each direction has the
	# receiver's GRO and the sender's TSO as named.  The virtio-net NIC
	# has no TSO on a QEMU hub ("off [fixed]": the hub gives it no
	# virtio-net header to pass one in), so b always segments in software.
	# QEMU 7.2's e1000e has TSO, but on a hub it sends a TSO packet as IP
	# fragments of the whole packet, not as TCP segments (seen in captures:
	# 1490-byte fragments, the TCP header in the first only): with a's TSO
	# on, b's IP reassembles each STT frame's segments into one datagram.
	# Over IPv6 it is worse: it writes IPv4's length, identification and
	# checksum into a TSO packet's IPv6 header (seen in captures: payload
	# length 0, the source address's second word overwritten), so a's
	# frames are segmented in software only.
	local sender_tso="on off"
	[ "$UL_FAMILY" = ipv4 ] || sender_tso=off
	if part matrix; then
		for gro in on off; do
			for tso in $sender_tso; do
				step "receiver GRO $gro, sender TSO $tso"
				for ns in a b; do
					underlay_offloads "$ns" u0 gro $gro tso $tso
				done
				ping_sizes a 10.0.0.2 1 1400 8972
				transfer a b 10.0.0.2 s0 b $MATRIX_MIB
				transfer b a 10.0.0.1 s0 a $MATRIX_MIB
			done
		done
		for ns in a b; do
			underlay_offloads "$ns" u0 gro on tso "${sender_tso%% *}"
		done
	fi

	for gro in on off; do
		part clones-gro-$gro || continue
		step "packet socket and tc mirred on b's u0, GRO $gro"
		clone_transfer $gro
	done

	if part nfqueue; then
		step "NFQUEUE consumer on b before the STT hook"
		nfqueue_transfer
	fi

	step "counters"
	log "$(frames_balanced a b s0 || true)"
	stt_check_no_errors a s0
	stt_check_no_errors b s0
	check_link_errors a s0
	check_link_errors b s0
	check_underlay_errors a
	check_underlay_errors b
}

# ---- Open vSwitch -------------------------------------------------------------

# Packets of HOST's datapath flows that queue them to ovs-vswitchd for a
# controller action: actions:userspace(pid=...,controller(...)),... (Open
# vSwitch 3.1), or userspace(...slow_path(controller)) (older ones).
controller_packets() {
	dp_flows "$1" | awk '/userspace\(.*controller/ {
		if (match($0, /packets:[0-9]+/))
			n += substr($0, RSTART + 8, RLENGTH - 8) }
		END { print n + 0 }'
}

part_ovs() {
	local flows
	step "Open vSwitch hosts over the NIC underlay"
	add_host host1 host2
	host_ovs host1 ovs-vsctl add-br br0
	host_ovs host2 ovs-vsctl add-br br0
	add_nic_underlay host1 "$UL_A/$UL_PREFIX" host2 "$UL_B/$UL_PREFIX"
	check_nics host1 host2
	add_tunnel_port host1 tun0 stt remote_ip="$UL_B"
	add_tunnel_port host2 tun0 stt remote_ip="$UL_A"
	add_vm vm1 host1 10.0.0.1/24
	add_vm vm2 host2 10.0.0.2/24
	wait_for_ports
	ping_sizes vm1 10.0.0.2 1 1400 8972

	step "every TCP packet to the controller on host2"
	# The controller action becomes a userspace action in the datapath
	# flow: the kernel queues every TCP packet to ovs-vswitchd (for a
	# packet-in nobody reads) and forwards it.  A GSO packet -- what STT's
	# receive path hands on -- is segmented by the kernel before it is
	# queued (queue_gso_packets).
	run host_ovs host2 ovs-ofctl add-flow br0 \
		"priority=10,tcp,actions=controller,NORMAL"
	# TCP segments on the wire from host1, as a real NIC's TSO sends them
	# (QEMU's e1000e would send IP fragments, see part_dev).
	underlay_offloads host1 u0 tso off
	for gro in on off; do
		part upcalls-gro-$gro || continue
		step "upcalls on host2, host2's GRO $gro"
		underlay_offloads host2 u0 gro $gro
		underlay_offloads host1 u0 gro $gro
		transfer vm1 vm2 10.0.0.2 "$STT_DEV" host2 $UPCALL_MIB
		transfer vm2 vm1 10.0.0.1 "$STT_DEV" host1 $UPCALL_MIB
	done
	flows=$(controller_packets host2)
	[ "$flows" -gt 0 ] ||
		fail "[host2] no datapath flow sent TCP to userspace: $(dp_flows host2)"
	log "[host2] datapath flows with a controller upcall: $flows packets"

	step "counters"
	stt_check_no_errors host1
	stt_check_no_errors host2
	check_underlay_errors host1
	check_underlay_errors host2
}

"part_$PART"
step "done"
log "PASS nic-underlay $PART over $UL_FAMILY"
