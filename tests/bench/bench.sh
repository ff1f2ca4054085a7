#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark, run in one guest boot by tests/bench/run (make bench): every
# path over every underlay family through every underlay offload profile,
# each measurement repeated, the paths of a round in a rotating order so that
# drift hits all alike.
#
# Paths (the sender always on the left, the receiver on the right), F the
# family's digit (4 or 6):
#
#   ovs-TYPE:  vmF-TYPE1 -- br0 [host1] tF-TYPE -- u0 HOST1 == HOST2 u0 -- tF-TYPE [host2] br0 -- vmF-TYPE2
#   dev-TYPE:  [a] TYPE device -- u0 A ==== B u0 -- TYPE device [b]
#   none:      [a] u0 A ==== B u0 [b]
#
# with TYPE stt, vxlan and geneve: Open vSwitch tunnel ports (kernel
# datapath) and plain devices (stt-ctl, ip link).  Underlay families
# (--families), both on the same underlay devices:
#
#   ipv4: A 198.51.100.1, B 198.51.100.2, HOST1 192.0.2.1, HOST2 192.0.2.2
#   ipv6: A 2001:db8:100::1, B 2001:db8:100::2, HOST1 2001:db8:2::1, HOST2 2001:db8:2::2
#
# A path over IPv6 is the same path with IPv6 remotes, its own tunnel
# devices, ports and VMs beside the IPv4 ones; the inner packets stay IPv4.
# Every tunnel's inner MTU is what VXLAN and Geneve leave of a 1500-byte
# underlay, so that all tunnels of a family carry the same inner packets:
# 1450 over IPv4, 1430 over IPv6 (the IPv6 header is 20 bytes longer).  The
# untunneled path's TCP segments are 20 bytes shorter over IPv6 as well.
#
# Underlay profiles (--profiles):
#
#   1  veth u0, all offloads
#   2  veth u0, TSO and checksum offload but no UDP-tunnel segmentation
#   3  veth u0, no checksum or segmentation offload, no GRO
#   4  emulated Intel 82574 NICs (e1000e) instead of u0: TSO and checksum
#      offload, no UDP-tunnel segmentation (the NIC has none), GRO
#   5  emulated virtio-net NICs (mergeable receive buffers off), as 4
#
# Profiles 4 and 5 are the NIC STT was made for, as hardware: the guest has
# four NICs of each model from boot (tests/bench/run: run-guest --wire
# bridge), in a, b, host1 and host2 in PCI order, named nic-e1000e and
# nic-virtio there.  A profile moves the underlay addresses above from u0 to
# its NICs (and profiles 1-3 back), so the tunnels stay as they are.  The
# wire is a bridge of tap devices on the host side, which takes a NIC's TSO
# packets as they are and cuts them into TCP segments of the MTU for the
# receiving NIC, which negotiated no large receive: TCP segmentation done
# outside the guest, as a NIC does it.  (On a QEMU hub, QEMU 7.2's e1000e
# sends a TSO packet as IP fragments, which the receiver reassembles before
# STT or GRO see them, and virtio-net has no offloads at all.)  Each
# measurement records the packets every underlay device at the sending end
# sent and at the receiving end received (underlay_packets), and fails
# unless the profile's devices moved the most: each namespace has all
# models on the one wire, and only the NIC holding the address answers ARP.
#
# CPU placement: the sender's programs run on CPU 0, the receiver's on CPU 1,
# and receive packet steering (RPS) puts the receive processing of every
# device where packets arrive (the underlays and the VMs' eth0) on the CPU
# of that side; an emulated NIC's interrupts go to the CPU of its side
# instead, so its receive processing starts there.  So the data direction's
# transmit work (sender, encapsulation, underlay transmit) lands on CPU 0
# and its receive work (decapsulation, Open vSwitch, the receiving TCP) on
# CPU 1; acknowledgments and replies take the mirror image.  /proc/stat's
# per-CPU counters then give the cost of each side.
#
# Output in $STT_RESULTS: runs.jsonl (one JSON object a measurement),
# raw/ (iperf3 JSON), profile-N.txt (ethtool -k of the underlays; for 4 and
# 5 ethtool -i too), guest.txt, perf/ (with --perf).  tests/bench/report
# makes the tables and charts.
#
# Usage: bench.sh [--runs N] [--seconds S] [--profiles 1,2,3,4,5]
#                 [--families ipv4,ipv6] [--paths none,ovs-stt,...]
#                 [--tests tcp1,tcp4,rr1,rr32,udp64]
#                 [--perf PROFILE:PATH:TEST[:FAMILY],...] [--resume]
#
# --perf cells are over IPv4 unless they name their family.
#
# --resume keeps the runs.jsonl of an earlier boot of the same benchmark
# (one that crashed) and measures only the cells it lacks.

set -eu
. "$(dirname "$0")/../guest/lib.sh"
. "$(dirname "$0")/../guest/stt-lib.sh"

RUNS=3
SECS=5
PROFILES=1,2,3,4,5
FAMILIES=ipv4,ipv6
PATHS=none,ovs-stt,ovs-vxlan,ovs-geneve,dev-stt,dev-vxlan,dev-geneve
TESTS=tcp1,tcp4,rr1,rr32,udp64
PERF=
RESUME=false
while [ $# -gt 0 ]; do
	case "$1" in
	--resume) RESUME=true; shift; continue ;;
	--runs) RUNS=$2 ;;
	--seconds) SECS=$2 ;;
	--profiles) PROFILES=$2 ;;
	--families) FAMILIES=$2 ;;
	--paths) PATHS=$2 ;;
	--tests) TESTS=$2 ;;
	--perf) PERF=$2 ;;
	*) fail "unknown option $1" ;;
	esac
	shift 2
done

SENDER_CPU=0
RECEIVER_CPU=1
RR_PORT=11111
IPERF_PORT=5201
RAW=$STT_RESULTS/raw
mkdir -p "$RAW"
# --resume: a guest that crashed left runs.jsonl; measure what it lacks.
$RESUME || : > "$STT_RESULTS/runs.jsonl"
BOOT_ID=$(cat /proc/sys/kernel/random/boot_id)

[ "$(nproc)" -ge 2 ] || fail "the benchmark needs two CPUs (run-guest --smp 2)"

# ---- topology ---------------------------------------------------------------

read -r -a FAMS <<< "${FAMILIES//,/ }"
[ ${#FAMS[@]} -gt 0 ] || fail "--families names no family"
for family in "${FAMS[@]}"; do
	case "$family" in
	ipv4 | ipv6) ;;
	*) fail "unknown family $family" ;;
	esac
done

# Each family's underlay address of every namespace that ends an underlay,
# keyed FAMILY/NS, the family's prefix length, and the tunnels' inner MTU
# over it (see the top).
declare -A UNDERLAY_ADDR=(
	[ipv4/a]=198.51.100.1 [ipv4/b]=198.51.100.2
	[ipv4/host1]=192.0.2.1 [ipv4/host2]=192.0.2.2
	[ipv6/a]=2001:db8:100::1 [ipv6/b]=2001:db8:100::2
	[ipv6/host1]=2001:db8:2::1 [ipv6/host2]=2001:db8:2::2)
declare -A PREFIX_LEN=([ipv4]=24 [ipv6]=64)
declare -A INNER_MTU=([ipv4]=1450 [ipv6]=1430)

# underlay_cidr FAMILY NS: NS's underlay address in FAMILY, with its prefix.
underlay_cidr() {
	echo "${UNDERLAY_ADDR[$1/$2]}/${PREFIX_LEN[$1]}"
}

# Per path over a family, a lane, keyed PATH/FAMILY (ovs-stt/ipv6): the
# client's namespace, the server's, the address the client reaches, and the
# namespaces at the underlay's ends, "SENDER RECEIVER".
declare -A CLIENT SERVER ADDR UNDERLAY_NS

# ovs_path TYPE FAMILY NET: an Open vSwitch tunnel port tF-TYPE over FAMILY
# (F its digit) on both hosts and a VM on each end of it, 10.NET.0.1 ->
# 10.NET.0.2, joined by OpenFlow rules (no learning: the same two datapath
# flows for the whole run).  VXLAN and Geneve without outer UDP checksums:
# Open vSwitch's default over IPv4, and over IPv6 too (where it would
# otherwise send them) so that both families' tunnels do the same work.
ovs_path() {
	local type=$1 family=$2 net=$3 f=${2#ipv} csum=()
	local lane=ovs-$1/$2
	[ "$type" = stt ] || csum=(csum=false)
	add_tunnel_port host1 "t$f-$type" "$type" \
		remote_ip="${UNDERLAY_ADDR[$family/host2]}" key="$net" "${csum[@]}"
	add_tunnel_port host2 "t$f-$type" "$type" \
		remote_ip="${UNDERLAY_ADDR[$family/host1]}" key="$net" "${csum[@]}"
	add_vm "vm$f-${type}1" host1 "10.$net.0.1/24" "${INNER_MTU[$family]}"
	add_vm "vm$f-${type}2" host2 "10.$net.0.2/24" "${INNER_MTU[$family]}"
	CLIENT[$lane]=vm$f-${type}1
	SERVER[$lane]=vm$f-${type}2
	ADDR[$lane]=10.$net.0.2
	UNDERLAY_NS[$lane]="host1 host2"
}

# ovs_flows TYPE FAMILY: ovs_path's OpenFlow rules.
ovs_flows() {
	local type=$1 f=${2#ipv} host i
	for i in 1 2; do
		host=host$i
		host_ovs "$host" ovs-ofctl add-flow br0 \
			"in_port=vm$f-$type$i,actions=output:t$f-$type"
		host_ovs "$host" ovs-ofctl add-flow br0 \
			"in_port=t$f-$type,actions=output:vm$f-$type$i"
	done
}

# dev_path TYPE FAMILY NET: plain tunnel devices over FAMILY in a and b,
# named by TYPE's first two letters and FAMILY's digit (st4, vx6), no Open
# vSwitch.  Outer UDP checksums off, as ovs_path's VXLAN and Geneve ports
# send (over IPv6 the receiver must be told to take them).
dev_path() {
	local type=$1 family=$2 net=$3 ns peer here there csum
	local dev=${1:0:2}${2#ipv} lane=dev-$1/$2
	case "$family" in
	ipv4) csum=(noudpcsum) ;;
	ipv6) csum=(udp6zerocsumtx udp6zerocsumrx) ;;
	esac
	for ns in a b; do
		peer=b
		[ $ns = a ] || peer=a
		here=${UNDERLAY_ADDR[$family/$ns]}
		there=${UNDERLAY_ADDR[$family/$peer]}
		case "$type" in
		stt) run in_ns $ns "$STT_CTL" add "$dev" remote "$there" local "$here" id "$net" ;;
		vxlan) run ip -n $ns link add "$dev" type vxlan id "$net" \
			remote "$there" local "$here" dstport 4789 "${csum[@]}" ;;
		geneve) run ip -n $ns link add "$dev" type geneve id "$net" \
			remote "$there" "${csum[@]}" ;;
		esac
		run ip -n $ns link set "$dev" mtu "${INNER_MTU[$family]}"
	done
	stt_dev_up a "$dev" "10.$net.0.1/24"
	stt_dev_up b "$dev" "10.$net.0.2/24"
	CLIENT[$lane]=a
	SERVER[$lane]=b
	ADDR[$lane]=10.$net.0.2
	UNDERLAY_NS[$lane]="a b"
}

# selected PATH: PATH is to be measured.
selected() {
	case ",$PATHS," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}

# profile_wanted N: profile N is measured (--profiles or --perf).
profile_wanted() {
	local cell
	case ",$PROFILES," in
	*",$1,"*) return 0 ;;
	esac
	for cell in ${PERF//,/ }; do
		[ "${cell%%:*}" != "$1" ] || return 0
	done
	return 1
}

# What profiles 4 and 5 run over: the driver of their NICs and the name
# those get in each namespace.
declare -A NIC_DRIVER=([4]=e1000e [5]=virtio_net)
declare -A NIC_NAME=([4]=nic-e1000e [5]=nic-virtio)

# nics_of DRIVER: the emulated NICs of DRIVER still in the initial
# namespace, "PCI-ADDRESS NAME" a line, by PCI address.
nics_of() {
	local pci dev driver
	while read -r pci dev; do
		driver=$(readlink -f "/sys/class/net/$dev/device/driver")
		[ "${driver##*/}" != "$1" ] || echo "$pci $dev"
	done < <(nic_devices)
}

nic_count_of() {
	[ "$(nics_of "$1" | wc -l)" -ge "$2" ]
}

# add_nics PROFILE: a NIC of PROFILE's model at each underlay end, in PCI
# order (run-guest gives them slots in --nic order), moved to the end's
# namespace as NIC_NAME, up and without an address (use_underlay gives it
# the end's), its interrupts on the CPU of the end's side.
add_nics() {
	local profile=$1 driver=${NIC_DRIVER[$1]} name=${NIC_NAME[$1]}
	local nics end ns cpu pci dev irq
	wait_for nic_count_of "$driver" ${#UNDERLAYS[@]} ||
		fail "profile $profile needs ${#UNDERLAYS[@]} $driver NICs;" \
			"the guest has $(nics_of "$driver" | wc -l)" \
			"(tests/bench/run adds them: run-guest --wire bridge --nic ...)"
	mapfile -t nics < <(nics_of "$driver")
	for end in "${UNDERLAYS[@]}"; do
		read -r ns cpu _ <<< "$end"
		read -r pci dev <<< "${nics[0]}"
		nics=("${nics[@]:1}")
		log "[$ns] $name is $dev, PCI $pci, driver $driver, interrupts on CPU $cpu"
		run ip link set dev "$dev" netns "$ns"
		run ip -n "$ns" link set dev "$dev" name "$name" mtu 1500
		# All NICs share one wire, and a namespace has one of each
		# model: only the one that holds an address answers ARP for
		# it, so that the peer sends to the NIC of the profile.
		run in_ns "$ns" sysctl -qw "net.ipv4.conf.$name.arp_ignore=1"
		run ip -n "$ns" link set dev "$name" up
		# Once up: e1000e requests its interrupts when opened.
		for irq in /sys/bus/pci/devices/"$pci"/msi_irqs/*; do
			echo "$cpu" > "/proc/irq/${irq##*/}/smp_affinity_list" ||
				fail "cannot put IRQ ${irq##*/} of $name on CPU $cpu"
		done
		echo "nic profile $profile [$ns] $name: $driver, PCI $pci," \
			"interrupts on CPU $cpu" >> "$WORK/nics.txt"
	done
	for end in "${UNDERLAYS[@]}"; do
		read -r ns _ <<< "$end"
		# A NIC reports carrier some time after it is up.
		wait_for has_carrier "$ns" "$name" || fail "[$ns] $name has no carrier"
	done
}

# bench_underlay A B: the veth u0 joining A and B, each end holding its
# address of every family measured.
bench_underlay() {
	local a=$1 b=$2 family
	add_underlay "$a" "$(underlay_cidr "${FAMS[0]}" "$a")" \
		"$b" "$(underlay_cidr "${FAMS[0]}" "$b")"
	for family in "${FAMS[@]:1}"; do
		set_address "$a" u0 "$(underlay_cidr "$family" "$a")"
		set_address "$b" u0 "$(underlay_cidr "$family" "$b")"
	done
}

add_ns a
add_ns b
bench_underlay a b
for family in "${FAMS[@]}"; do
	CLIENT[none/$family]=a
	SERVER[none/$family]=b
	ADDR[none/$family]=${UNDERLAY_ADDR[$family/b]}
	UNDERLAY_NS[none/$family]="a b"
done
# The underlay's ends: "NS CPU", CPU that of NS's side.
UNDERLAYS=("a $SENDER_CPU" "b $RECEIVER_CPU")
RPS=("a u0 $SENDER_CPU" "b u0 $RECEIVER_CPU")

OVS_TYPES=()
for type in stt vxlan geneve; do
	! selected "ovs-$type" || OVS_TYPES+=("$type")
done
if [ ${#OVS_TYPES[@]} -gt 0 ]; then
	add_host host1 host2
	# Secure: no NORMAL flow until ovs_flows installs the paths' own, or
	# the three tunnels to one peer make an L2 loop while ports come up.
	host_ovs host1 ovs-vsctl --no-wait add-br br0 -- set-fail-mode br0 secure
	host_ovs host2 ovs-vsctl --no-wait add-br br0 -- set-fail-mode br0 secure
	bench_underlay host1 host2
	UNDERLAYS+=("host1 $SENDER_CPU" "host2 $RECEIVER_CPU")
	RPS+=("host1 u0 $SENDER_CPU" "host2 u0 $RECEIVER_CPU")
	net=1
	for family in "${FAMS[@]}"; do
		for type in "${OVS_TYPES[@]}"; do
			ovs_path "$type" "$family" $net
			RPS+=("${CLIENT[ovs-$type/$family]} eth0 $SENDER_CPU"
				"${SERVER[ovs-$type/$family]} eth0 $RECEIVER_CPU")
			net=$((net + 1))
		done
	done
	wait_for_ports
	for host in host1 host2; do
		host_ovs $host ovs-ofctl del-flows br0
		# Datapath flows idle between a path's turns; keep them, so
		# that no measurement starts with upcalls.
		host_ovs $host ovs-vsctl set Open_vSwitch . \
			other_config:max-idle=3600000
	done
	for family in "${FAMS[@]}"; do
		for type in "${OVS_TYPES[@]}"; do
			ovs_flows "$type" "$family"
		done
	done
fi
# Plain devices' inner networks from 10.7.0.0/24 on, after the six that
# Open vSwitch's paths may take (three types, two families).
net=7
for family in "${FAMS[@]}"; do
	for type in stt vxlan geneve; do
		! selected "dev-$type" || dev_path "$type" "$family" $net
		net=$((net + 1))
	done
done

# Every lane measured, in the order of a round's first rotation: a path's
# families side by side, so that drift over a round hits a path's IPv4 and
# IPv6 alike, as it hits the paths of one family alike.
LANES=()
for path in ${PATHS//,/ }; do
	for family in "${FAMS[@]}"; do
		[ -n "${ADDR[$path/$family]:-}" ] || fail "unknown path $path"
		LANES+=("$path/$family")
	done
done

: > "$WORK/nics.txt"
if profile_wanted 4 || profile_wanted 5; then
	load_nic_drivers
fi
for profile in 4 5; do
	! profile_wanted $profile || add_nics $profile
done

# Receive processing of each device where packets arrive on the CPU of its
# side: veth hands every packet to netif_rx(), which RPS steers.
for dev in "${RPS[@]}"; do
	# shellcheck disable=SC2086 # "NS DEV CPU"
	set -- $dev
	run in_ns "$1" sh -c \
		"echo $((1 << $3)) > /sys/class/net/$2/queues/rx-0/rps_cpus"
done

# paths_answer: every lane answers (ARP and neighbour discovery, datapath
# flows), before anything is measured and whenever the underlay changed.
paths_answer() {
	local lane
	for lane in "${LANES[@]}"; do
		ping_sizes "${CLIENT[$lane]}" "${ADDR[$lane]}" 1 1400
	done
}

paths_answer

# ---- offload profiles -----------------------------------------------------

TNL_OFF=(tx-udp_tnl-segmentation off tx-udp_tnl-csum-segmentation off)
TNL_ON=(tx-udp_tnl-segmentation on tx-udp_tnl-csum-segmentation on)

profile_name() {
	case "$1" in
	1) echo "all offloads" ;;
	2) echo "TSO, no UDP-tunnel offloads" ;;
	3) echo "no offloads" ;;
	4) echo "e1000e NICs: TSO, no UDP-tunnel offloads" ;;
	5) echo "virtio-net NICs: TSO, no UDP-tunnel offloads" ;;
	esac
}

# The device that holds the underlay addresses in every namespace: u0, or
# the NICs of profile 4 or 5.
UNDERLAY_DEV=u0

# use_underlay DEV: move every underlay address (of every family) to DEV,
# then wait until every lane answers over it.
use_underlay() {
	local dev=$1 end ns family addr
	[ "$dev" != "$UNDERLAY_DEV" ] || return 0
	for end in "${UNDERLAYS[@]}"; do
		read -r ns _ <<< "$end"
		for family in "${FAMS[@]}"; do
			addr=$(underlay_cidr "$family" "$ns")
			run ip -n "$ns" addr del "$addr" dev "$UNDERLAY_DEV"
			set_address "$ns" "$dev" "$addr"
		done
	done
	UNDERLAY_DEV=$dev
	paths_answer
}

# offload_on NS DEV FEATURE: ethtool -k says FEATURE (its long name) is on.
offload_on() {
	in_ns "$1" ethtool -k "$2" | grep -q "^[[:space:]]*$3: on"
}

# apply_profile N: set the underlay's offloads.
#   1: everything on;
#   2: TCP segmentation and checksum offload on, UDP-tunnel segmentation
#      (with and without outer checksum) off: the NIC STT was designed for;
#   3: no checksum offload, no segmentation offload, no GRO;
#   4, 5: profile 2's offloads, on the NICs: the same NIC, in hardware.
apply_profile() {
	local profile=$1 dev=u0 end ns args feature
	case "$profile" in
	1) args=(rx on tx-checksum-ip-generic on sg on tso on gso on gro on
		"${TNL_ON[@]}") ;;
	2) args=(rx on tx-checksum-ip-generic on sg on tso on gso on gro on
		"${TNL_OFF[@]}") ;;
	3) args=(rx off tx-checksum-ip-generic off tso off gso off gro off
		"${TNL_OFF[@]}") ;;
	4 | 5) dev=${NIC_NAME[$profile]}
		args=(rx on tx-checksum-ip-generic on sg on tso on gso on gro on
		"${TNL_OFF[@]}") ;;
	*) fail "unknown profile $profile" ;;
	esac
	log "profile $profile: $(profile_name "$profile")"
	for end in "${UNDERLAYS[@]}"; do
		read -r ns _ <<< "$end"
		in_ns "$ns" ethtool -K "$dev" "${args[@]}" >> "$WORK/ethtool.log" 2>&1 ||
			fail "[$ns] ethtool -K $dev ${args[*]}: $(tail -n 3 "$WORK/ethtool.log")"
		[ "$dev" != u0 ] || continue
		# What the profile is about, as the NIC reports it.
		offload_on "$ns" "$dev" tx-tcp-segmentation ||
			fail "[$ns] $dev has no TSO: $(in_ns "$ns" ethtool -k "$dev" | grep segmentation)"
		for feature in tx-udp_tnl-segmentation tx-udp_tnl-csum-segmentation; do
			! offload_on "$ns" "$dev" $feature ||
				fail "[$ns] $dev kept $feature on"
		done
	done
	use_underlay "$dev"
	if [ ! -e "$STT_RESULTS/profile-$profile.txt" ]; then
		{
			[ "$dev" = u0 ] || in_ns a ethtool -i "$dev"
			in_ns a ethtool -k "$dev"
		} > "$STT_RESULTS/profile-$profile.txt"
	fi
}

# ---- measurements -----------------------------------------------------------

# cpu_jiffies: "user nice system idle iowait irq softirq steal" of the
# sender's and the receiver's CPU, one line each (bash builtins: cheap).
cpu_jiffies() {
	local name rest
	while read -r name rest; do
		case "$name" in
		"cpu$SENDER_CPU"|"cpu$RECEIVER_CPU") echo "$rest" | cut -d' ' -f1-8 ;;
		esac
	done < /proc/stat
}

# tcp_retrans LANE: TCP segments retransmitted so far (over either IP) by
# the namespaces at both ends of LANE.
tcp_retrans() {
	local ns sum=0
	for ns in "${CLIENT[$1]}" "${SERVER[$1]}"; do
		sum=$((sum + $(in_ns "$ns" awk '$1 == "Tcp:" && !seen++ {
				for (i = 2; i <= NF; i++) col[$i] = i; next }
			$1 == "Tcp:" { print $col["RetransSegs"] }' /proc/net/snmp)))
	done
	echo $sum
}

# json_cpu BEFORE AFTER: the per-CPU jiffy deltas as a JSON object.
json_cpu() {
	paste -d' ' <(echo "$1") <(echo "$2") | awk -v s=$SENDER_CPU -v r=$RECEIVER_CPU '
		{ line = "["
		  for (i = 1; i <= 8; i++)
			line = line (i > 1 ? "," : "") ($(i + 8) - $i)
		  cpu[NR] = line "]" }
		END { printf "{\"sender\":%s,\"receiver\":%s}", cpu[s + 1], cpu[r + 1] }'
}

# in_cpu CPU NS COMMAND...: run COMMAND in NS on CPU (ip netns exec execs
# taskset, which execs COMMAND: usable with background()).
in_cpu() {
	local cpu=$1 ns=$2
	shift 2
	ip netns exec "$ns" taskset -c "$cpu" "$@"
}

# underlay_packets LANE: the packets each underlay device (u0 and the NICs)
# has sent so far at LANE's sending end and received at its receiving end,
# "tx DEV PACKETS" and "rx DEV PACKETS" lines.  (/proc/net/dev pads names
# to six characters: a longer one starts its line.)
underlay_packets() {
	local sender receiver
	read -r sender receiver <<< "${UNDERLAY_NS[$1]}"
	in_ns "$sender" awk -F'[: ]+' -v devs=" u0 ${NIC_NAME[*]} " '
		{ sub(/^ +/, "") }
		NR > 2 && index(devs, " " $1 " ") { print "tx", $1, $11 }' /proc/net/dev
	in_ns "$receiver" awk -F'[: ]+' -v devs=" u0 ${NIC_NAME[*]} " '
		{ sub(/^ +/, "") }
		NR > 2 && index(devs, " " $1 " ") { print "rx", $1, $3 }' /proc/net/dev
}

# underlay_moved BEFORE AFTER: what the devices sent and received between
# two underlay_packets readings, as JSON {"tx":{DEV:N,...},"rx":{...}};
# fails unless $UNDERLAY_DEV sent, and received, more than any other.
underlay_moved() {
	paste -d' ' <(echo "$1") <(echo "$2") | awk -v dev="$UNDERLAY_DEV" '
		{ n = $6 - $3
		  json[$1] = json[$1] (json[$1] == "" ? "" : ",") "\"" $2 "\":" n
		  if ($2 == dev) mine[$1] = n
		  else if (n > other[$1]) other[$1] = n }
		END { printf "{\"tx\":{%s},\"rx\":{%s}}\n", json["tx"], json["rx"]
		      exit !(mine["tx"] > other["tx"] && mine["rx"] > other["rx"]) }'
}

SEQ=$(wc -l < "$STT_RESULTS/runs.jsonl")
CELL=
CELL_NAME=
CELL_LANE=
RETRANS=0
UNDERLAY_BEFORE=

# record KEY=JSON...: one line of runs.jsonl for the measurement just made,
# unless its packets did not go over the profile's underlay.
record() {
	local kv moved line="{\"seq\":$SEQ,$CELL"
	moved=$(underlay_moved "$UNDERLAY_BEFORE" "$(underlay_packets "$CELL_LANE")") ||
		fail "$CELL_NAME: not over $UNDERLAY_DEV: packets sent by the" \
			"underlay devices of [${UNDERLAY_NS[$CELL_LANE]% *}] and" \
			"received by those of [${UNDERLAY_NS[$CELL_LANE]#* }]: $moved"
	line="$line,\"tcp_retransmits\":$(($(tcp_retrans "$CELL_LANE") - RETRANS))"
	line="$line,\"underlay\":\"$UNDERLAY_DEV\",\"underlay_packets\":$moved"
	for kv; do
		line="$line,\"${kv%%=*}\":${kv#*=}"
	done
	echo "$line}" >> "$STT_RESULTS/runs.jsonl"
}

# perf_start: for a --perf cell, start perf sampling every CPU with call
# graphs, its events disabled until window_open.  perf's own cost taints the
# measurement: such measurements are recorded as "perf":true and left out of
# the statistics.
PERF_PID=
perf_start() {
	mkdir -p "$STT_RESULTS/perf"
	rm -f "$WORK/perf.data" "$WORK/perf.ctl" "$WORK/perf.ack"
	mkfifo "$WORK/perf.ctl" "$WORK/perf.ack"
	background "$WORK/perf.log" perf record -e cpu-clock -a -g -D -1 \
		--control "fifo:$WORK/perf.ctl,$WORK/perf.ack" -o "$WORK/perf.data"
	PERF_PID=$BG_PID
	# perf answers once it is ready, however long it takes to start.
	perf_ctl disable
}

# perf_ctl COMMAND: tell perf (if running) to enable or disable its events,
# and wait for its acknowledgment.
perf_ctl() {
	[ -n "$PERF_PID" ] || return 0
	echo "$1" > "$WORK/perf.ctl"
	read -r _ < "$WORK/perf.ack"
}

perf_stop() {
	local name=$1
	[ -n "$PERF_PID" ] || return 0
	kill -INT "$PERF_PID"
	wait "$PERF_PID" 2>/dev/null || true
	cp "$WORK/perf.data" "$STT_RESULTS/perf/$name.data"
	cat /proc/kallsyms > "$STT_RESULTS/perf/kallsyms"
	log "perf: perf/$name.data (perf report -i ... --kallsyms=perf/kallsyms)"
}

# window_open, window_close: the measurement window, whose CPU time goes in
# CPU_BEFORE and CPU_AFTER (and which perf samples, with --perf).
window_open() {
	perf_ctl enable
	CPU_BEFORE=$(cpu_jiffies)
}

window_close() {
	CPU_AFTER=$(cpu_jiffies)
	perf_ctl disable
}

# connected NS PORT N: NS has N established TCP connections to PORT.
connected() {
	[ "$(ss -N "$1" -Htn state established "( dport = :$2 )" | wc -l)" -ge "$3" ]
}

# iperf3_cell LANE NAME CONNECTIONS OPTIONS...: one iperf3 run over LANE,
# client on the sender's CPU, server on the receiver's; JSON in
# raw/NAME.json.  The CPU window opens once the client has its
# CONNECTIONS (control and data): starting a program costs a lot in an
# emulated guest, and that is not the tunnel's cost.
iperf3_cell() {
	local lane=$1 name=$2 conns=$3 srv client json
	shift 3
	json=$RAW/$name.json
	background "$WORK/iperf3-server.log" in_cpu $RECEIVER_CPU \
		"${SERVER[$lane]}" iperf3 -s -1 -p $IPERF_PORT
	srv=$BG_PID
	wait_listening "${SERVER[$lane]}" $IPERF_PORT ||
		fail "[${SERVER[$lane]}] iperf3 -s not listening"
	in_cpu $SENDER_CPU "${CLIENT[$lane]}" timeout -k 10 $((SECS + 120)) \
		iperf3 -c "${ADDR[$lane]}" -p $IPERF_PORT -t "$SECS" -J "$@" \
		> "$json" &
	client=$!
	wait_for connected "${CLIENT[$lane]}" $IPERF_PORT "$conns" || true
	window_open
	wait "$client" || log "iperf3 $name failed: $(tail -n 3 "$json")"
	window_close
	wait_background "$srv" "$WORK/iperf3-server.log" || true
	record "cpu=$(json_cpu "$CPU_BEFORE" "$CPU_AFTER")" "raw=\"raw/$name.json\"" \
		"iperf3_args=\"$*\""
}

# started DIR N: all N sockperf clients logging to DIR/c*.log are past their
# warm-up.
started() {
	[ "$(grep -l 'Starting test' "$1"/c*.log 2>/dev/null | wc -l)" -eq "$2" ]
}

# uptime_now: seconds since boot, the clock of sockperf --no-rdtsc
# (CLOCK_MONOTONIC; the guest never suspends).
uptime_now() {
	cut -d' ' -f1 /proc/uptime
}

# rr_cell LANE NAME CONNECTIONS: TCP request/response, 64 bytes each way:
# CONNECTIONS sockperf ping-pong clients (one connection each, one request
# in flight) against one sockperf server.  Starting a program costs a lot
# in an emulated guest and the clients start one after the other, so they
# get a long run time; once all are past their warm-up, SECS seconds are
# measured, and SIGALRM (their own end-of-test timer) stops them.
# sockperf keeps every sample in memory, sized by --mps times -t: the caps
# are far above what one connection does in the guest.  Transactions per
# second and round-trip percentiles come from the clients' full logs, over
# the part of the window all of them cover.
rr_cell() {
	local lane=$1 name=$2 conns=$3 mps=100000 t0 t1 srv addr
	local launcher dir=$WORK/rr
	[ "$conns" -eq 1 ] || mps=20000
	rm -rf "$dir"
	mkdir -p "$dir"
	# A feed file's IPv6 address goes in brackets (sockperf 3.8 on).
	addr=${ADDR[$lane]}
	[[ "$addr" != *:* ]] || addr="[$addr]"
	echo "T:$addr:$RR_PORT" > "$dir/feed"
	background "$dir/server.log" in_cpu $RECEIVER_CPU "${SERVER[$lane]}" \
		sockperf server -f "$dir/feed" -F epoll --uc-reuseaddr
	srv=$BG_PID
	wait_listening "${SERVER[$lane]}" $RR_PORT ||
		fail "[${SERVER[$lane]}] sockperf server not listening"
	# One shell starts them all (one ip netns exec, not CONNECTIONS);
	# stdbuf makes their logs line-buffered for started().
	in_cpu $SENDER_CPU "${CLIENT[$lane]}" sh -c '
		i=0
		while [ $i -lt "$1" ]; do
			stdbuf -oL sockperf ping-pong --tcp -i "$2" -p "$3" \
				-t "$4" --mps "$5" -m 64 --no-rdtsc \
				--full-log "$6/c$i.csv" > "$6/c$i.log" 2>&1 &
			echo $! >> "$6/pids"
			i=$((i + 1))
		done
		wait' sh "$conns" "${ADDR[$lane]}" $RR_PORT $((SECS + 30)) $mps \
		"$dir" &
	launcher=$!
	if ! wait_for -t 300 started "$dir" "$conns"; then
		mkdir -p "$RAW/$name"
		cp "$dir"/*.log "$RAW/$name/"
		fail "rr $name: $(grep -L 'Starting test' "$dir"/c*.log | wc -l)" \
			"of $conns sockperf clients did not start (raw/$name/)"
	fi
	t0=$(uptime_now)
	window_open
	sleep "$SECS"
	t1=$(uptime_now)
	window_close
	# shellcheck disable=SC2046 # one PID a word
	kill -ALRM $(cat "$dir/pids")
	wait "$launcher" || true
	kill "$srv" 2>/dev/null || true
	wait "$srv" 2>/dev/null || true
	# Full log lines: "packet, tx time, rx time, latency".  Counted are
	# the transactions within [t0, t1] that every client's log covers
	# (sockperf leaves the first and last moments of its run out).
	local stats n span mean p50 p99 clients
	stats=$(awk -F', *' -v t0="$t0" -v t1="$t1" '
		NF == 4 && $1 ~ /^[0-9]+$/ {
			if (!(FILENAME in first)) { first[FILENAME] = $3; files++ }
			last[FILENAME] = $3
			rtt[FILENAME, ++count[FILENAME]] = ($3 - $2) * 1e6
			at[FILENAME, count[FILENAME]] = $3 }
		END {
			lo = t0; hi = t1
			for (f in first) {
				if (first[f] > lo) lo = first[f]
				if (last[f] < hi) hi = last[f] }
			for (f in count)
				for (i = 1; i <= count[f]; i++)
					if (at[f, i] >= lo && at[f, i] <= hi)
						printf "%.3f\n", rtt[f, i]
			printf "window %.6f %d\n", hi - lo, files }' "$dir"/c*.csv |
		sort -n | awk '
		$1 == "window" { span = $2; files = $3; next }
		{ v[++n] = $1; sum += $1 }
		END {
			if (n == 0 || span <= 0) { print 0, 0, 0, 0, 0, files + 0; exit }
			printf "%d %.6f %.3f %.3f %.3f %d\n", n, span, sum / n,
				v[int(n * 0.50 + 0.999999)], v[int(n * 0.99 + 0.999999)], files }')
	read -r n span mean p50 p99 clients <<< "$stats"
	if [ "$clients" -ne "$conns" ] || [ "$n" -eq 0 ]; then
		log "rr $name: $n transactions from $clients of $conns clients;" \
			"logs in raw/$name/"
		mkdir -p "$RAW/$name"
		cp "$dir"/*.log "$RAW/$name/"
	fi
	record "cpu=$(json_cpu "$CPU_BEFORE" "$CPU_AFTER")" "connections=$conns" \
		"clients_measured=$clients" "transactions=$n" "window_s=$span" \
		"rtt_mean_us=$mean" "rtt_p50_us=$p50" "rtt_p99_us=$p99"
}

# measure RUN PROFILE LANE TEST [perf]
measure() {
	local run=$1 profile=$2 lane=$3 test=$4 perf=${5:-} name
	local path=${3%/*} family=${3#*/}
	name=p$profile-$family-$path-$test-r$run
	SEQ=$((SEQ + 1))
	CELL="\"run\":$run,\"profile\":$profile,\"family\":\"$family\",\"path\":\"$path\",\"test\":\"$test\",\"seconds\":$SECS"
	[ -z "$perf" ] || { CELL="$CELL,\"perf\":true"; name=$name-perf; }
	if grep -qF "$CELL,\"uptime\"" "$STT_RESULTS/runs.jsonl"; then
		log "measured $name in an earlier boot"
		return 0
	fi
	CELL="$CELL,\"uptime\":$(cut -d' ' -f1 /proc/uptime),\"boot\":\"$BOOT_ID\""
	log "measure $name"
	CELL_NAME=$name
	CELL_LANE=$lane
	RETRANS=$(tcp_retrans "$lane")
	UNDERLAY_BEFORE=$(underlay_packets "$lane")
	[ -z "$perf" ] || perf_start
	case "$test" in
	tcp1) iperf3_cell "$lane" "$name" 2 ;;
	tcp4) iperf3_cell "$lane" "$name" 5 -P 4 ;;
	udp64) iperf3_cell "$lane" "$name" 1 -u -l 64 -b 0 ;;
	rr1) rr_cell "$lane" "$name" 1 ;;
	rr32) rr_cell "$lane" "$name" 32 ;;
	*) fail "unknown test $test" ;;
	esac
	[ -z "$perf" ] || perf_stop "$name"
}

{
	echo "kernel $(uname -r)"
	echo "cpus $(nproc)"
	echo "clk_tck $(getconf CLK_TCK)"
	echo "iperf3 $(iperf3 --version | head -n 1)"
	echo "sockperf $(sockperf --version 2>&1 | head -n 1)"
	echo "runs $RUNS seconds $SECS profiles $PROFILES families $FAMILIES paths $PATHS tests $TESTS"
	lsmod | grep -E '^(stt|vport_stt|vxlan|geneve|openvswitch) ' || true
	echo "slab_debug red_zone=$(cat /sys/kernel/slab/kmalloc-64/red_zone 2>/dev/null) poison=$(cat /sys/kernel/slab/kmalloc-64/poison 2>/dev/null)"
	echo "cmdline $(cat /proc/cmdline)"
	cat "$WORK/nics.txt"
} > "$STT_RESULTS/guest.txt"

# ---- the matrix -------------------------------------------------------------

rotation=0
for ((run = 1; run <= RUNS; run++)); do
	for profile in ${PROFILES//,/ }; do
		apply_profile "$profile"
		for test in ${TESTS//,/ }; do
			# Each round starts one lane later than the last.
			for ((i = 0; i < ${#LANES[@]}; i++)); do
				lane=${LANES[(i + rotation) % ${#LANES[@]}]}
				measure "$run" "$profile" "$lane" "$test"
			done
			rotation=$((rotation + 1))
		done
	done
done

for cell in ${PERF//,/ }; do
	IFS=: read -r profile path test family <<< "$cell"
	family=${family:-ipv4}
	[ -n "${ADDR[$path/$family]:-}" ] ||
		fail "--perf $cell: $path over $family is not set up (--paths, --families)"
	apply_profile "$profile"
	measure 1 "$profile" "$path/$family" "$test" perf
done

# The tunnels stayed healthy throughout; their counters go with the results.
STT_DEVS=()
! selected ovs-stt || STT_DEVS+=("host1 $STT_DEV" "host2 $STT_DEV")
for family in "${FAMS[@]}"; do
	! selected dev-stt || STT_DEVS+=("a st${family#ipv}" "b st${family#ipv}")
done
for dev in "${STT_DEVS[@]}"; do
	# shellcheck disable=SC2086 # "NS DEV"
	set -- $dev
	stt_check_no_errors "$1" "$2"
	echo "[$1] ethtool -S $2" >> "$STT_RESULTS/stt-counters.txt"
	in_ns "$1" ethtool -S "$2" | grep -v ': 0$' >> "$STT_RESULTS/stt-counters.txt"
done
log "bench: $SEQ measurements in $SECONDS s"
