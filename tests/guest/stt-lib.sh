# SPDX-License-Identifier: GPL-2.0
#
# STT helpers for guest scenarios, sourced after lib.sh:
#
#	. "$(dirname "$0")/../lib.sh"
#	. "$(dirname "$0")/../stt-lib.sh"
#	stt_two_hosts key=0x1122334455667788
#	ping_sizes vm1 10.0.0.2 1 8972
#	stt_check_frames_balanced host1 host2
#
# What an operator looks at: `ethtool -S stt_sys_7471` (the device Open
# vSwitch creates for a type=stt port), `ip -s link`, `ovs-dpctl`, tshark.

# The kernel device of an Open vSwitch stt port on the default TCP port.
STT_PORT=7471
STT_DEV=stt_sys_$STT_PORT

# Options for every tshark run: tshark's STT dissector is a heuristic one,
# which IP tries before the TCP dissector only when asked to.
TSHARK_STT=(-n -o ip.try_heuristic_first:TRUE -o ipv6.try_heuristic_first:TRUE
	-o stt.check_checksum:TRUE)

# underlay_family ipv4|ipv6: the address family of the underlay that
# stt_two_hosts and stt_dev_pair build, for a scenario that runs over
# either.  Such a scenario takes the family as its first argument:
#
#	underlay_family "${1:-}" && shift
#
# Sets UL_FAMILY, UL_A and UL_B (the two ends' underlay addresses),
# UL_PREFIX, and UL_TUN: what Open vSwitch writes before "src" and "dst" of
# tunnel addresses of the family, "ipv6_" or nothing (datapath flows'
# tunnel(ipv6_src=...,ipv6_dst=...), OpenFlow's tun_ipv6_dst); returns
# false, changing nothing, if the word is no family.  IPv4 until a scenario
# says otherwise.
underlay_family() {
	case "$1" in
	ipv4) UL_A=192.0.2.1 UL_B=192.0.2.2 UL_PREFIX=24 UL_TUN= ;;
	ipv6) UL_A=2001:db8::1 UL_B=2001:db8::2 UL_PREFIX=64 UL_TUN=ipv6_ ;;
	*) return 1 ;;
	esac
	UL_FAMILY=$1
}
underlay_family ipv4

# stt_two_hosts [OPTION=VALUE...]: two Open vSwitch hosts joined by type=stt
# ports tun0 (OPTIONS added to both) over a veth underlay, one VM on each; all
# MTUs 1500.  Returns with every port configured.
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1             $UL_A         $UL_B               10.0.0.2
stt_two_hosts() {
	add_host host1
	add_host host2
	host_ovs host1 ovs-vsctl add-br br0
	host_ovs host2 ovs-vsctl add-br br0
	add_underlay host1 "$UL_A/$UL_PREFIX" host2 "$UL_B/$UL_PREFIX"
	add_tunnel_port host1 tun0 stt remote_ip="$UL_B" "$@"
	add_tunnel_port host2 tun0 stt remote_ip="$UL_A" "$@"
	add_vm vm1 host1 10.0.0.1/24
	add_vm vm2 host2 10.0.0.2/24
	wait_for_ports
}

# stt_dev_pair A B KEY: namespaces A and B joined by a veth underlay and by
# fixed-peer stt devices s0 with context id KEY, addressed and up.
#
#   A: s0 10.0.0.1  u0 $UL_A ===== $UL_B u0  s0 10.0.0.2 :B
stt_dev_pair() {
	local a=$1 b=$2 key=$3
	add_ns "$a"
	add_ns "$b"
	add_underlay "$a" "$UL_A/$UL_PREFIX" "$b" "$UL_B/$UL_PREFIX"
	run in_ns "$a" "$STT_CTL" add s0 remote "$UL_B" id "$key"
	run in_ns "$b" "$STT_CTL" add s0 remote "$UL_A" id "$key"
	stt_dev_up "$a" s0 10.0.0.1/24
	stt_dev_up "$b" s0 10.0.0.2/24
}

# module_loaded NAME: NAME (with underscores, as lsmod prints it) is loaded.
module_loaded() {
	grep -q "^$1 " /proc/modules
}

# ---- counters ---------------------------------------------------------------

# stt_counter HOST NAME [DEV]: one counter of `ethtool -S DEV` in HOST.
stt_counter() {
	local host=$1 name=$2 dev=${3:-$STT_DEV}
	in_ns "$host" ethtool -S "$dev" |
		awk -v n="$name:" '$1 == n { print $2; found = 1 }
			END { exit !found }'
}

# stt_counter_above HOST NAME VALUE [DEV]: counter NAME is above VALUE.
stt_counter_above() {
	[ "$(stt_counter "$1" "$2" "${4:-$STT_DEV}")" -gt "$3" ]
}

# stt_counters HOST [DEV]: every counter and gauge of `ethtool -S DEV` in
# HOST, "name value" a line, for stt_counters_moved.
stt_counters() {
	in_ns "$1" ethtool -S "${2:-$STT_DEV}" |
		awk -F: 'NR > 1 { sub(/^ +/, "", $1); print $1, $2 + 0 }'
}

# stt_counters_moved BEFORE AFTER: the counters that moved between two
# stt_counters outputs (files), "name increase" a line, in ethtool's order.
stt_counters_moved() {
	awk 'NR == FNR { before[$1] = $2; next }
		$2 != before[$1] { print $1, $2 - before[$1] }' "$1" "$2"
}

# stt_check_no_errors HOST [DEV]: every counter whose name says "err" is 0.
stt_check_no_errors() {
	local host=$1 dev=${2:-$STT_DEV} stats bad
	stats=$(in_ns "$host" ethtool -S "$dev") ||
		fail "[$host] ethtool -S $dev failed"
	echo "$stats" | contains 'rx_err_' ||
		fail "[$host] ethtool -S $dev has no rx_err_* counters"
	bad=$(echo "$stats" | awk '$1 ~ /err/ && $2 != 0 { printf " %s %s", $1, $2 }')
	[ -z "$bad" ] || fail "[$host] ethtool -S $dev error counters:$bad"
	log "[$host] ethtool -S $dev: every *err* counter is 0"
}

# frames_balanced A B [DEV]: A's tx_frames equal B's rx_frames and the
# reverse; prints the four numbers.
frames_balanced() {
	local a=$1 b=$2 dev=${3:-$STT_DEV} atx arx btx brx
	atx=$(stt_counter "$a" tx_frames "$dev") &&
		arx=$(stt_counter "$a" rx_frames "$dev") &&
		btx=$(stt_counter "$b" tx_frames "$dev") &&
		brx=$(stt_counter "$b" rx_frames "$dev") || return 1
	echo "$a tx_frames $atx rx_frames $arx, $b tx_frames $btx rx_frames $brx"
	[ "$atx" -gt 0 ] && [ "$btx" -gt 0 ] &&
		[ "$atx" -eq "$brx" ] && [ "$btx" -eq "$arx" ]
}

# stt_check_frames_balanced A B [DEV]: when only the tunnel carries traffic
# between A and B, every frame one sent the other received.  Call after the
# traffic stopped; polls until late frames (IPv6 neighbour discovery of the
# VMs, say) have landed.
stt_check_frames_balanced() {
	local a=$1 b=$2 dev=${3:-$STT_DEV} host
	if wait_for frames_balanced "$a" "$b" "$dev"; then
		log "$(frames_balanced "$a" "$b" "$dev")"
		return
	fi
	for host in "$a" "$b"; do
		log "[$host] ethtool -S $dev"
		in_ns "$host" ethtool -S "$dev"
	done
	fail "frames sent and received differ: $(frames_balanced "$a" "$b" "$dev")"
}

# link_errors NS DEV: "RX-errors TX-errors RX-dropped TX-dropped" from
# `ip -s link show DEV`.
link_errors() {
	ip -n "$1" -s link show dev "$2" |
		awk '$1 == "RX:" { getline; rx = $3; rxd = $4 }
			$1 == "TX:" { getline; tx = $3; txd = $4 }
			END { if (rx == "" || tx == "") exit 1; print rx, tx, rxd, txd }'
}

# check_link_errors NS DEV...: `ip -s link` shows no RX or TX errors (drops
# are logged, not judged: a full queue is not a fault of the device).
check_link_errors() {
	local ns=$1 dev rx tx rxd txd
	shift
	for dev in "$@"; do
		read -r rx tx rxd txd < <(link_errors "$ns" "$dev") ||
			fail "[$ns] ip -s link show $dev failed"
		[ "$rx" -eq 0 ] && [ "$tx" -eq 0 ] ||
			fail "[$ns] ip -s link show $dev: RX errors $rx, TX errors $tx"
		log "[$ns] ip -s link show $dev: RX/TX errors 0 0, dropped $rxd $txd"
	done
}

# ---- Open vSwitch -----------------------------------------------------------

# dp_flows HOST: the kernel datapath's flows in HOST, one a line.
dp_flows() {
	host_ovs_q "$1" ovs-dpctl dump-flows
}

# ovs_log_warnings HOST: the warning and error lines of HOST's ovs-vswitchd
# log, as "module|LEVEL|message", but timeval's ("Unreasonably long ... poll
# interval" and its statistics), from the main thread ("timeval") or another
# ("timeval(revalidator4)"), ovs_rcu's "blocked N ms waiting for THREAD to
# quiesce" and a revalidator's "Spent an unreasonably long Nms dumping
# flows": under emulation on a loaded host a loop iteration takes that long
# now and then, whichever Open vSwitch it is (the last seen at load 9).
ovs_log_warnings() {
	awk -F'|' '($4 == "WARN" || $4 == "ERR" || $4 == "EMER") &&
		$3 !~ /^timeval(\(|$)/ &&
		!($3 ~ /^ovs_rcu(\(|$)/ &&
		  $5 ~ /^blocked [0-9]+ ms waiting for [^ ]+ to quiesce$/) &&
		!($3 ~ /^ofproto_dpif_upcall\(revalidator[0-9]+\)$/ &&
		  $5 ~ /^Spent an unreasonably long [0-9]+ms dumping flows$/) {
		sub(/^[^|]*\|[^|]*\|/, ""); print }' \
		"$(ovs_dir "$1")/ovs-vswitchd.log"
}

# ovs_version: the version of the Open vSwitch in PATH ("3.1.0", "4.0.0").
ovs_version() {
	ovs-vswitchd --version | sed -n '1s/.* //p'
}

# ovs_makes_stt_devices: whether the Open vSwitch in PATH makes its stt ports
# as stt devices over rtnetlink, attached to the datapath as netdev vports
# (4.0 with ovs-glue's series), rather than asking openvswitch.ko for vport
# type 106, which vport-stt provides (3.x).  Its device is $STT_DEV either
# way.
ovs_makes_stt_devices() {
	local major
	major=$(ovs_version)
	[ "${major%%.*}" -ge 4 ]
}

# ovs_stt_modules: the modules the Open vSwitch in PATH loads for its stt
# ports, in the order rmmod takes them: "vport_stt stt" (3.x), or "stt"
# (ovs_makes_stt_devices), where it fails if vport_stt is loaded.
ovs_stt_modules() {
	if ! ovs_makes_stt_devices; then
		echo vport_stt stt
		return
	fi
	! module_loaded vport_stt ||
		fail "vport_stt was loaded, though Open vSwitch $(ovs_version) makes stt devices"
	echo stt
}

# stt_check_ovs_log HOST PORT: HOST's ovs-vswitchd logged no warning or error
# (ovs_log_warnings) but, from Open vSwitch 3.5 on, what it tells every user
# of an stt port (lib/netdev-vport.c; 3.6 removed type=stt from userspace):
#	PORT: 'stt' port type is deprecated.
# and the same of the datapath's device $STT_DEV each time it opens that
# (a dozen times while the bridge settles), which this checks is all.
stt_check_ovs_log() {
	local host=$1 port=$2 version major minor line deprecated=
	version=$(ovs_version)
	IFS=. read -r major minor _ <<< "$version"
	if [ "$major" -gt 3 ] || { [ "$major" = 3 ] && [ "$minor" -ge 5 ]; }; then
		deprecated=": 'stt' port type is deprecated."
		ovs_log_warnings "$host" |
			grep -qxF "netdev_vport|WARN|$port$deprecated" ||
			fail "[$host] Open vSwitch $version did not log" \
			     "\"$port$deprecated\""
		log "[$host] Open vSwitch $version logged \"$port$deprecated\"" \
		    "$(ovs_log_warnings "$host" | grep -cF "$deprecated") times" \
		    "(for $port and $STT_DEV)"
	fi
	while IFS= read -r line; do
		case $line in
		"netdev_vport|WARN|$port$deprecated" | \
		"netdev_vport|WARN|$STT_DEV$deprecated")
			[ -n "$deprecated" ] && continue ;;
		esac
		fail "[$host] ovs-vswitchd (Open vSwitch $version) logged: $line"
	done < <(ovs_log_warnings "$host")
}

# ---- traffic ----------------------------------------------------------------

# no_ping VM DEST [PING-OPTION...]: three echo requests all go unanswered.
no_ping() {
	local vm=$1 dest=$2
	shift 2
	log "+ [$vm] ping -c 3 ${*:+$* }$dest  (must fail)"
	! in_ns "$vm" "${PING[@]}" -c 3 -i 0.2 -W 1 "$@" "$dest" > /dev/null 2>&1 ||
		fail "[$vm] $dest answered, but must not be reachable"
}

# ---- captures ---------------------------------------------------------------

# capture_dropped NAME: packets the kernel dropped during capture NAME.
capture_dropped() {
	sed -n 's/^\([0-9]*\) packets dropped by kernel$/\1/p' \
		"$WORK/capture-$1.log"
}

# ---- conformance --------------------------------------------------------------

# check_stt_experts EXPERTS SEGMENTS CORRECT: tshark's expert information
# for STT (EXPERTS, the output of -z expert) holds exactly one checksum
# note per segment but the CORRECT ones (below), and it must read "should
# be 0x0000".
#
# Why a "Bad checksum" is the good outcome: tshark 4.0's STT dissector (with
# stt.check_checksum) computes the one's-complement sum over pseudo-header
# and segment, checksum field included, which is 0 when the checksum is
# right, and then treats that sum as the value the field should hold.  So a
# correct checksum is reported as "Bad checksum [should be 0x0000]" and a
# wrong one as "should be 0x<nonzero>" (seen with scapy-built packets of
# either kind).  A segment whose right checksum is 0x0000 (one in 65536)
# is the exception: field and sum agree, tshark calls it correct and adds no
# note.  stt-wire recomputes every checksum independently.
check_stt_experts() {
	local experts=$1 segments=$2 correct=$3
	log "tshark's expert information ($correct segments with checksum 0x0000):"
	cat "$experts"
	awk -v segments=$((segments - correct)) '
		$1 ~ /^[0-9]+$/ && $3 == "STT" {
			summary = $0
			sub(/^ *[0-9]+ +[^ ]+ +STT +/, "", summary)
			if (summary == "Bad checksum [should be 0x0000]")
				checked += $1
			else
				bad = bad "\n" $0
		}
		END {
			if (bad != "")
				printf "STT expert information:%s\n", bad
			else if (checked != segments)
				printf "%d of %d segments had their checksum checked\n", checked, segments
			else
				exit 0
			exit 1
		}' "$experts" ||
		fail "tshark's STT expert information is not as expected (see above)"
}

# The STT header judged without lib/ (tools/stt-wire): flags, L4 offset and
# MSS against the inner frames, and the outer fields its options name.
STT_WIRE=$STT_GUEST_DIR/tools/stt-wire

# stt_wire PCAP [OPTION...]: stt-wire judges PCAP, or the scenario fails.
stt_wire() {
	local pcap=$1
	shift
	log "+ stt-wire $* $(basename "$pcap")"
	"$STT_WIRE" "$@" "$pcap" ||
		fail "stt-wire $*: $(basename "$pcap") fails (see above)"
}

# stt_judge_capture PCAP KEY [STT-WIRE OPTION...]: every packet of PCAP (a
# capture of STT traffic to the default port, with segmentation visible) is
# judged by tshark's STT dissector -- STT to the port, version 0, context id
# KEY, TCP data offset 20, at least one frame reassembled from several
# segments, no STT expert information but the checksum note above -- and by
# stt-wire with the OPTIONs given: every segment's checksum and TCP-like
# header, every frame's layout in its segments and its STT header against
# its inner frame, and frames of TCP and of UDP with checksum partial, a TSO
# frame (an MSS) and a frame of several segments among them.  One tshark run
# gives both the fields and the expert information: under emulation,
# starting tshark takes longer than dissecting the capture.
stt_judge_capture() {
	local pcap=$1 key=$2 segments correct
	shift 2
	log "+ tshark -r $(basename "$pcap") -T fields -e frame.protocols -e stt.dport -e stt.version -e stt.context_id -e stt.tcp.data_offset -e stt.segment.count -e stt.checksum -e stt.checksum.status -z expert"
	tshark -r "$pcap" "${TSHARK_STT[@]}" -T fields -e frame.protocols \
		-e stt.dport -e stt.version -e stt.context_id -e stt.tcp.data_offset \
		-e stt.segment.count -e stt.checksum -e stt.checksum.status \
		-z expert 2>/dev/null > "$WORK/tshark"
	# A line of fields for each packet, then after an empty line the
	# expert information.
	sed '/^$/,$d' "$WORK/tshark" > "$WORK/fields"
	sed -n '/^$/,$p' "$WORK/tshark" > "$WORK/experts"
	awk -F'\t' -v key="$key" -v port=$STT_PORT '
		{ packets++ }
		$1 !~ /^eth:ethertype:ip(v6)?:stt(:|$)/ || $2 != port {
			print "frame " NR " is not STT to port " port ": " $1; bad++; next }
		$5 != 20 { print "frame " NR ": TCP data offset " $5; bad++ }
		$3 != "" {
			frames++
			if ($3 != 0) { print "frame " NR ": version " $3; bad++ }
			if ($4 != key) { print "frame " NR ": context id " $4; bad++ }
		}
		$6 > 1 { multi++ }
		END {
			printf "tshark: %d packets, all STT: %d frames, %d of them from several segments\n",
				packets, frames, multi
			exit !(packets > 0 && bad == 0 && frames > 0 && multi > 0)
		}' "$WORK/fields" || fail "tshark does not see conforming STT (see above)"
	segments=$(wc -l < "$WORK/fields")
	# Status 1 is tshark's "Good".
	correct=$(awk -F'\t' '$7 == "0x0000" && $8 == 1 { n++ } END { print n + 0 }' \
		"$WORK/fields")
	check_stt_experts "$WORK/experts" "$segments" "$correct"

	# tshark 4.0 counts the first segment's 20-byte TCP header into the
	# frame, so it declares a frame complete one segment early when the last
	# segment holds fewer than 20 bytes: the layout of the segments is
	# judged by stt-wire alone, which fails on any packet of PCAP that is
	# not an STT segment to the port.
	stt_wire "$pcap" --context "$key" --require tcp,udp,mss,multi "$@"
}

# stt_send_udp FROM ADDR: FROM sends ADDR three UDP datagrams (1, 1000 and
# 1400 bytes, none fragmented) to the discard port, so that a capture holds
# frames whose STT header says UDP, not TCP; nothing needs to answer.
stt_send_udp() {
	local from=$1 addr=$2 size
	for size in 1 1000 1400; do
		log "+ [$from] $size bytes > /dev/udp/$addr/9"
		in_ns "$from" bash -c "head -c $size /dev/zero > /dev/udp/$addr/9" ||
			fail "[$from] could not send a UDP datagram to $addr"
	done
}

# stt_judge_segments A B FROM TO ADDR NAME KEY [STT-WIRE OPTION...]: with
# segmentation visible (no TSO or checksum offload on either underlay end u0
# of namespaces A and B, no GRO), capture on B's u0 the STT arriving there
# while FROM pings TO's ADDR with 8972 bytes, sends it 1 MiB and a few UDP
# datagrams, check tcpdump lost nothing, and judge the capture
# (stt_judge_capture, the OPTIONs for stt-wire) as $STT_RESULTS/NAME.pcap.
stt_judge_segments() {
	local a=$1 b=$2 from=$3 to=$4 addr=$5 name=$6 key=$7 ns capture dropped
	shift 7
	for ns in "$a" "$b"; do
		run ip netns exec "$ns" ethtool -K u0 tso off tx off gro off
	done
	capture_start "$b" u0 "$name" tcp dst port $STT_PORT
	capture=$CAPTURE_PID
	ping_sizes "$from" "$addr" 8972
	send_file_and_hash "$from" "$to" "$addr" 1
	stt_send_udp "$from" "$addr"
	capture_stop "$capture" "$name"
	dropped=$(capture_dropped "$name")
	[ "$dropped" = 0 ] ||
		fail "tcpdump dropped ${dropped:-an unknown number of} packets"
	stt_judge_capture "$STT_RESULTS/$name.pcap" "$key" "$@"
}

# find_built PATH: the program PATH (relative to a build tree, e.g.
# utilities/stt-ctl) from the build tree of the guest's kernel, or else any
# (it is the same userspace).
find_built() {
	local short dir
	short=$(echo "$STT_KVER" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
	for dir in "$STT_REPO/_build/$short" "$STT_REPO"/_build/*; do
		if [ -x "$dir/$1" ]; then
			echo "$dir/$1"
			return
		fi
	done
	return 1
}
# Not fatal here: only scenarios that run it need it, and they fail naming it.
STT_CTL=${STT_CTL:-$(find_built utilities/stt-ctl)} ||
	STT_CTL="stt-ctl-not-built--make-C-_build/KVER"

# stt_dev_up NS DEV ADDR: address and bring up a plain stt device, IPv6 off:
# its autoconfiguration would send frames before the peer device is up,
# which the peer drops (rx_drop_dev_down), and exact frame counts are what
# the scenarios check.
stt_dev_up() {
	local ns=$1 dev=$2 addr=$3
	in_ns "$ns" sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=1"
	set_address "$ns" "$dev" "$addr"
	run ip -n "$ns" link set "$dev" up
}

# Drops as the kernel reports them to dropwatch, perf and pwru: the
# skb:kfree_skb tracepoint, recorded in a tracing instance of its own.
DROPS_TRACE=/sys/kernel/tracing/instances/stt-drops

# drops_trace_start: records every drop from now on.
drops_trace_start() {
	[ -d /sys/kernel/tracing/instances ] ||
		run mount -t tracefs nodev /sys/kernel/tracing ||
		fail "cannot mount tracefs"
	# 6.1 prints the location as an address: drop-locations needs them.
	sysctl -qw kernel.kptr_restrict=0
	mkdir "$DROPS_TRACE" || fail "cannot create tracing instance $DROPS_TRACE"
	echo 4096 > "$DROPS_TRACE/buffer_size_kb"
	echo 1 > "$DROPS_TRACE/events/skb/kfree_skb/enable"
}

# drops_trace_stop: stops recording and prints "REASON FUNCTION MODULE" per
# drop recorded (tools/drop-locations).
drops_trace_stop() {
	echo 0 > "$DROPS_TRACE/events/skb/kfree_skb/enable"
	"$STT_GUEST_DIR/tools/drop-locations" < "$DROPS_TRACE/trace" ||
		fail "cannot read the drops from $DROPS_TRACE/trace"
	rmdir "$DROPS_TRACE"
}

# stt_drops FILE: the reasons of the drops in the stt module that FILE (as
# drops_trace_stop wrote it) holds, counted, e.g. "TCP_CSUM 100 TCP_FLAGS 9".
stt_drops() {
	awk '$3 == "[stt]" { n[$1]++ } END { for (r in n) print r, n[r] }' \
		"$1" | sort | xargs
}

# drop_reason_known REASON: the running kernel has drop reason REASON.
drop_reason_known() {
	grep -qw "$1" /sys/kernel/tracing/events/skb/kfree_skb/format
}
