# SPDX-License-Identifier: GPL-2.0
#
# Library for guest scenarios: builds Open vSwitch "hosts" (network namespaces
# with their own ovsdb-server, ovs-vswitchd and kernel datapath), an underlay
# between them, "VMs" (namespaces on a host's bridge), and checks traffic by
# content.  A scenario sources this file, then reads like an operator's shell
# session:
#
#	. "$(dirname "$0")/../lib.sh"
#	add_host host1 host2
#	host_ovs host1 ovs-vsctl add-br br0
#	host_ovs host2 ovs-vsctl add-br br0
#	add_underlay host1 192.0.2.1/24 host2 192.0.2.2/24
#	add_tunnel_port host1 tun0 vxlan remote_ip=192.0.2.2 key=flow
#	add_tunnel_port host2 tun0 vxlan remote_ip=192.0.2.1 key=flow
#	add_vm vm1 host1 10.0.0.1/24
#	add_vm vm2 host2 10.0.0.2/24
#	wait_for_ports
#	ping_sizes vm1 10.0.0.2 1 1472 8972
#	send_file_and_hash vm1 vm2 10.0.0.2 64
#	iperf3_check vm1 vm2 10.0.0.2 3
#
# Topology: add_host, add_ns, del_ns, add_underlay, add_nic_underlay, add_vm,
# add_tunnel_port, wait_for_ports, check_interface, ovs_sync, tunnel_device,
# dp_ports.  Emulated NICs (run-guest --nic): load_nic_drivers, nic_devices,
# underlay_offloads, virtio_feature.
# Commands: host_ovs (logged), host_ovs_q (quiet), in_ns, run, log, fail.
# Traffic: ping_sizes, send_file_and_hash (send_file_start, send_file_check,
# send_file_underway, send_file_unfinished, received_bytes), iperf3_check,
# wait_listening.
# Captures: capture_start, capture_stop, tshark_fields, tshark_count.
# Flow: wait_for, background, wait_background, on_exit, check_kernel_log,
# kernel_logged.
#
# Every helper logs what it runs.  Waits poll for a state (wait_for), they never
# sleep blindly.  On exit everything is torn down in reverse, Open vSwitch logs
# are kept (and the whole Open vSwitch and namespace state if the scenario
# failed) in the results directory, and the kernel log is checked.
#
# Runs inside the rig guest (run-guest sets STT_RESULTS, STT_REPO, STT_KVER),
# or on any scratch machine as root for debugging.

set -o pipefail

STT_GUEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STT_RESULTS=${STT_RESULTS:-$PWD/results}
STT_SCENARIO=$(basename "$0" .sh)
mkdir -p "$STT_RESULTS"
WORK=$(mktemp -d /tmp/stt-scenario.XXXXXX)

SECONDS=0
HOSTS=()
NAMESPACES=()
BACKGROUND=()
CLEANUPS=()
PENDING_PORTS=()

# Default wait for a state to be reached, seconds.  Software-emulated guests
# are slow; this is a bound, not a delay.
WAIT_TIMEOUT=${WAIT_TIMEOUT:-60}

log() {
	printf '[%4d s] %s\n' "$SECONDS" "$*"
}

fail() {
	log "FAIL: $*"
	exit 1
}

# Run a command and log it first, as an operator would type it.
run() {
	log "+ $*"
	"$@"
}

# ... | contains [GREP-OPTION...] PATTERN: a line of the input matches, as
# grep -q says, with the input read to its end.  A pipeline never ends in a
# reader that stops early (grep -q, head): under pipefail the writer, still
# writing, dies of SIGPIPE and the pipeline's status is 141, a match taken
# for a failure.  bash's echo writes line by line, so even
# 'echo "$out" | grep -q' lost that race on a loaded guest (Open vSwitch's
# two-line answer in ovs-no-legacy).  For the first line, sed -n 1p.
contains() {
	local status=0
	grep -q "$@" || status=$?
	cat > /dev/null
	return "$status"
}

# STT_OVS_PREFIX=DIR: the hosts run the Open vSwitch installed under DIR
# (e.g. the patched 4.0 that ovs-glue/build-ovs prints) instead of the
# distribution's: its programs come first in PATH, its ovsdb-server gets its
# own schema.  Its run, log and database directories are the hosts' own, as
# for any Open vSwitch here.
OVS_SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
if [ -n "${STT_OVS_PREFIX:-}" ]; then
	[ -x "$STT_OVS_PREFIX/sbin/ovs-vswitchd" ] ||
		fail "STT_OVS_PREFIX=$STT_OVS_PREFIX has no sbin/ovs-vswitchd"
	PATH=$STT_OVS_PREFIX/bin:$STT_OVS_PREFIX/sbin:$PATH
	OVS_SCHEMA=$STT_OVS_PREFIX/share/openvswitch/vswitch.ovsschema
fi

# part NAME: a scenario made of parts runs the ones in PARTS, which it sets
# from its arguments (all of its parts by default, e.g. PARTS=${*:-a b}), so
# that a module failing one part can still be tried on the next.
part() {
	[[ " $PARTS " == *" $1 "* ]]
}

# Register a command to run at exit, before namespaces are deleted; the last
# registered runs first.
on_exit() {
	CLEANUPS+=("$*")
}

# wait_for [-t SECONDS] COMMAND...: poll COMMAND until it succeeds.  The
# pause between tries grows from 0.1 s to 1 s: under emulation each try
# costs a process or more (about 0.1 s of a CPU), so a wait that polls ten
# times a second keeps half a CPU busy that the guest's work and the other
# guest on the host need.
wait_for() {
	local timeout=$WAIT_TIMEOUT
	if [ "$1" = -t ]; then
		timeout=$2
		shift 2
	fi
	local deadline=$((SECONDS + timeout)) naps=(0.1 0.2 0.4 0.8 1) nap=0
	until "$@" > /dev/null 2>&1; do
		if [ $SECONDS -ge $deadline ]; then
			log "timed out after $timeout s waiting for: $*"
			"$@" || true
			return 1
		fi
		sleep "${naps[nap]}"
		[ $nap -eq $((${#naps[@]} - 1)) ] || nap=$((nap + 1))
	done
}

# background FILE COMMAND...: start COMMAND in the background, its output to
# FILE, and remember it for cleanup.  Sets BG_PID.  Give a program, not a
# shell function (a function would run in a subshell whose PID is not the
# program's): e.g. "ip netns exec NS prog", which execs prog.
background() {
	local out=$1
	shift
	"$@" > "$out" 2>&1 &
	BG_PID=$!
	BACKGROUND+=("$BG_PID")
}

# Wait for a background command and return its status; a failure (or not
# ending within TIMEOUT seconds) is logged with its output.  tail --pid
# watches it from the foreground, looking ten times a second whether it is
# still there without starting a process each time (under emulation a
# process costs about 0.1 s of CPU), and timeout(1) bounds the watch.  No
# watchdog in the background: one killed between its fork and its first
# command ran the EXIT trap it inherited from this shell.
wait_background() {
	local pid=$1 out=$2 timeout=${3:-$WAIT_TIMEOUT} rc=0
	if ! timeout "$timeout" tail -s 0.1 --pid="$pid" -f /dev/null; then
		log "background command $pid still running after $timeout s"
		kill "$pid" 2> /dev/null
	fi
	wait "$pid" || rc=$?
	[ $rc -eq 0 ] || { log "background command failed ($rc):"; cat "$out"; }
	return $rc
}

# ---- namespaces, hosts and Open vSwitch -------------------------------------

in_ns() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

add_ns() {
	run ip netns add "$1"
	NAMESPACES+=("$1")
	ip -n "$1" link set lo up
}

# del_ns NS: delete NS now, rather than at exit.
del_ns() {
	local i
	run ip netns del "$1"
	for i in "${!NAMESPACES[@]}"; do
		[ "${NAMESPACES[i]}" != "$1" ] || unset "NAMESPACES[i]"
	done
	# Dense again: cleanup walks it by index.
	NAMESPACES=("${NAMESPACES[@]}")
}

ovs_dir() {
	echo "$WORK/ovs-$1"
}

# host_ovs HOST COMMAND...: run an Open vSwitch program against HOST's own
# database and daemons, in HOST's namespace.
host_ovs() {
	local host=$1 dir
	dir=$(ovs_dir "$1")
	shift
	log "+ [$host] $*"
	ip netns exec "$host" env OVS_RUNDIR="$dir" OVS_DBDIR="$dir" \
		OVS_LOGDIR="$dir" OVS_SYSCONFDIR="$dir" "$@"
}

# Same, without logging: for queries in conditions and loops.
host_ovs_q() {
	local host=$1 dir
	dir=$(ovs_dir "$1")
	shift
	ip netns exec "$host" env OVS_RUNDIR="$dir" OVS_DBDIR="$dir" \
		OVS_LOGDIR="$dir" OVS_SYSCONFDIR="$dir" "$@"
}

# start_ovs HOST: create HOST's database and start its ovsdb-server and
# ovs-vswitchd.
start_ovs() {
	local host=$1 dir
	dir=$(ovs_dir "$host")
	host_ovs "$host" ovsdb-tool create "$dir/conf.db" "$OVS_SCHEMA"
	# --detach returns once the database socket is listening.
	host_ovs "$host" ovsdb-server "$dir/conf.db" \
		--remote="punix:$dir/db.sock" --pidfile --detach --no-chdir \
		--log-file -vconsole:off
	# Datapath flows live a minute unused, not the default 10 s: on the
	# emulated debug kernel a check of the flow a ping made can come more
	# than 10 s after the ping.
	host_ovs "$host" ovs-vsctl --no-wait -- init \
		-- set Open_vSwitch . external-ids:system-id="$host" \
		external-ids:hostname="$host" other_config:max-idle=60000
	start_vswitchd "$host"
}

# stop_vswitchd HOST: stop HOST's ovs-vswitchd the way a restart or upgrade
# does, without --cleanup: the kernel datapath and its ports stay.
stop_vswitchd() {
	local host=$1 pid
	pid=$(cat "$(ovs_dir "$host")/ovs-vswitchd.pid") ||
		fail "[$host] ovs-vswitchd is not running"
	host_ovs "$host" ovs-appctl -t ovs-vswitchd exit
	wait_for process_gone "$pid" || fail "[$host] ovs-vswitchd did not exit"
}

process_gone() {
	! kill -0 "$1" 2>/dev/null
}

# start_vswitchd HOST: start HOST's ovs-vswitchd (again: it takes over the
# kernel datapath and ports a previous one left behind).
start_vswitchd() {
	local host=$1 dir
	dir=$(ovs_dir "$host")
	# --detach returns after the first pass over the database, i.e. with
	# the daemon ready; later ovs-vsctl calls (without --no-wait) each wait
	# for ovs-vswitchd to apply their change.
	host_ovs "$host" ovs-vswitchd "unix:$dir/db.sock" --pidfile --detach \
		--no-chdir --log-file -vconsole:off
}

# ovs_clock_ready: the machine has been up for more than 10 s.  Open
# vSwitch 3.1 counts the CPUs only once its monotonic clock (time since
# boot) has passed 10 s; before that it sizes its per-CPU upcall handlers for
# none and loses every upcall (ovs-dpctl show: "lost"), even after it adds
# handlers.  A guest can be that fast.
ovs_clock_ready() {
	local up _
	read -r up _ < /proc/uptime
	[ "${up%.*}" -ge 11 ]
}

# on_each_host_at_once FUNCTION FAILURE HOST...: FUNCTION HOST for every HOST
# at the same time (each start waits on its own daemons); each one's output
# is shown once it ends, and the first that failed fails the scenario with
# "[HOST] FAILURE".
on_each_host_at_once() {
	local func=$1 failure=$2 host pids=() i=0 rc
	shift 2
	for host; do
		"$func" "$host" > "$WORK/$func-$host.log" 2>&1 &
		pids+=($!)
	done
	for host; do
		rc=0
		wait "${pids[i]}" || rc=$?
		grep -v 'opened log file' "$WORK/$func-$host.log" || true
		[ $rc -eq 0 ] || fail "[$host] $failure"
		i=$((i + 1))
	done
}

# add_host NAME...: for each NAME a namespace with its own ovsdb-server and
# ovs-vswitchd (and so its own kernel datapath, made with the first bridge).
# Several hosts start at the same time.
add_host() {
	local host
	wait_for ovs_clock_ready
	modprobe openvswitch
	for host; do
		mkdir -p "$(ovs_dir "$host")"
		add_ns "$host"
		HOSTS+=("$host")
	done
	on_each_host_at_once start_ovs "Open vSwitch did not start" "$@"
}

stop_host() {
	local host=$1 dir daemon pid
	dir=$(ovs_dir "$host")
	# --cleanup removes the kernel datapath and its vports.
	host_ovs_q "$host" ovs-appctl -t ovs-vswitchd exit --cleanup \
		2>/dev/null || true
	for daemon in ovs-vswitchd ovsdb-server; do
		pid=$(cat "$dir/$daemon.pid" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null || continue
		local deadline=$((SECONDS + 10))
		while kill -0 "$pid" 2>/dev/null; do
			if [ $SECONDS -ge $deadline ]; then
				log "[$host] $daemon did not exit, killing it"
				kill -9 "$pid" 2>/dev/null || true
				break
			fi
			sleep 0.1
		done
	done
}

# Ports of the datapath in HOST's namespace, one name a line.
dp_ports() {
	host_ovs_q "$1" ovs-dpctl show | sed -n 's/^ *port [0-9]*: \([^ ]*\).*/\1/p'
}

# interface_state HOST IFACE: succeeds once ovs-vswitchd has dealt with IFACE,
# printing its error (or []) and OpenFlow port number.
interface_state() {
	local out
	out=$(host_ovs_q "$1" ovs-vsctl get Interface "$2" error ofport) &&
		[ "$(echo "$out" | sed -n 2p)" != '[]' ] &&
		echo "$out"
}

# check_interface HOST IFACE: wait until Open vSwitch has configured IFACE,
# which must be without error and with an OpenFlow port (so it is in the kernel
# datapath).
check_interface() {
	local host=$1 iface=$2 err ofport
	wait_for interface_state "$host" "$iface" ||
		fail "[$host] ovs-vswitchd did not configure $iface"
	{
		read -r err
		read -r ofport
	} < <(interface_state "$host" "$iface")
	[ "$err" = '[]' ] || fail "[$host] interface $iface: $err"
	[ "$ofport" -gt 0 ] 2>/dev/null ||
		fail "[$host] interface $iface has no OpenFlow port ($ofport)"
}

# ovs_sync HOST: wait until HOST's ovs-vswitchd has applied every change made
# to its database so far (any ovs-vsctl transaction without --no-wait bumps
# next_cfg and blocks until cur_cfg catches up; "init" changes nothing else).
ovs_sync() {
	host_ovs "$1" ovs-vsctl --timeout="$WAIT_TIMEOUT" init ||
		fail "[$1] ovs-vswitchd did not apply its configuration"
}

# wait_for_ports: check every port added by add_tunnel_port and add_vm, which
# do not wait, so that both hosts' daemons work at the same time.  The traffic
# helpers call it first.
wait_for_ports() {
	local port host synced=" "
	for port in "${PENDING_PORTS[@]}"; do
		host=${port%% *}
		case "$synced" in
		*" $host "*) ;;
		*) ovs_sync "$host"; synced="$synced$host " ;;
		esac
	done
	for port in "${PENDING_PORTS[@]}"; do
		# shellcheck disable=SC2086
		check_interface $port
	done
	PENDING_PORTS=()
}

# add_tunnel_port HOST NAME TYPE [OPTION=VALUE...]: a tunnel port on HOST's
# br0 (or $TUNNEL_BRIDGE), e.g.
#	add_tunnel_port host1 tun0 vxlan remote_ip=192.0.2.2 key=flow
#	add_tunnel_port host1 tun0 stt remote_ip=192.0.2.2 key=flow
add_tunnel_port() {
	local host=$1 name=$2 type=$3 opt
	shift 3
	local args=(ovs-vsctl --no-wait add-port
		"${TUNNEL_BRIDGE:-br0}" "$name" -- set Interface "$name"
		type="$type")
	for opt in "$@"; do
		args+=("options:$opt")
	done
	host_ovs "$host" "${args[@]}"
	PENDING_PORTS+=("$host $name")
}

# The kernel device Open vSwitch made for a tunnel port, e.g. vxlan_sys_4789
# or stt_sys_7471.
tunnel_device() {
	local host=$1 type=$2
	dp_ports "$host" | grep "^${type}_sys_" | sed -n 1p
}

# ---- links ------------------------------------------------------------------

# add_underlay HOST_A ADDR_A HOST_B ADDR_B [MTU [NAME]]: a veth pair named
# NAME (default u0) at both ends joining two hosts' namespaces.
add_underlay() {
	local a=$1 addr_a=$2 b=$3 addr_b=$4 mtu=${5:-1500} name=${6:-u0}
	run ip link add "$name" netns "$a" mtu "$mtu" type veth \
		peer name "$name" netns "$b" mtu "$mtu"
	set_address "$a" "$name" "$addr_a"
	set_address "$b" "$name" "$addr_b"
	ip -n "$a" link set "$name" up
	ip -n "$b" link set "$name" up
}

# ---- emulated NICs (run-guest --nic) -----------------------------------------
#
# veth never builds the skb layouts real NIC drivers build (a page-fragment
# head, GRO's frag_list members, a driver's own checksum and segmentation
# offloads).  run-guest --nic gives the guest emulated PCI NICs, all on one
# QEMU hub and nothing else, so two of them make a wire between namespaces.

# load_nic_drivers: load the driver of every emulated NIC that has none yet.
# Debian builds e1000e, igb and virtio_net as modules and the guest has no
# udev to load them; the debug test kernel has them built in (bound already).
# By modalias, so that any --nic model finds its driver.
load_nic_drivers() {
	local dev class aliases=()
	for dev in /sys/bus/pci/devices/*; do
		read -r class < "$dev/class"
		# Class 0x02: network controller.
		[ "${class:0:4}" = 0x02 ] || continue
		[ -e "$dev/driver" ] || aliases+=("$(cat "$dev/modalias")")
	done
	# A virtio NIC is virtio device 1 under virtio_pci, with a driver of
	# its own.
	for dev in /sys/bus/virtio/devices/*; do
		[ -e "$dev/device" ] || continue
		[ "$(cat "$dev/device")" = 0x0001 ] || continue
		[ -e "$dev/driver" ] || aliases+=("$(cat "$dev/modalias")")
	done
	if [ ${#aliases[@]} -gt 0 ]; then
		run modprobe -a "${aliases[@]}" ||
			fail "cannot load the emulated NICs' drivers"
	fi
}

# nic_devices: the emulated NICs in the initial namespace, "PCI-ADDRESS NAME"
# a line, by PCI address: run-guest gives them slots in --nic order.
nic_devices() {
	local dev pci
	for dev in /sys/class/net/*; do
		[ -e "$dev/device" ] || continue
		# A virtio NIC's device is virtioN below its PCI function.
		pci=$(readlink -f "$dev/device" |
			grep -oE '[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]' |
			tail -n 1) || true
		[ -z "$pci" ] || echo "$pci ${dev##*/}"
	done | sort
}

nic_count_at_least() {
	[ "$(nic_devices | wc -l)" -ge "$1" ]
}

has_carrier() {
	[ "$(in_ns "$1" cat "/sys/class/net/$2/carrier" 2>/dev/null)" = 1 ]
}

# add_nic_underlay HOST_A ADDR_A HOST_B ADDR_B [NAME]: the underlay of
# add_underlay, made of the guest's first two emulated NICs (by PCI
# address: the first --nic goes to HOST_A) instead of a veth pair.  Both are
# moved into their namespace, renamed NAME (default u0), get MTU 1500 and
# their address, and are up with carrier on return.
add_nic_underlay() {
	local a=$1 addr_a=$2 b=$3 addr_b=$4 name=${5:-u0} nics ns pci dev driver
	load_nic_drivers
	wait_for nic_count_at_least 2 ||
		fail "the guest has fewer than two emulated NICs (run-guest --nic MODEL, twice): $(nic_devices | tr '\n' ' ')"
	mapfile -t nics < <(nic_devices)
	for ns in "$a" "$b"; do
		read -r pci dev <<< "${nics[0]}"
		nics=("${nics[@]:1}")
		driver=$(ethtool -i "$dev" | sed -n 's/^driver: //p')
		log "[$ns] $name is $dev, PCI $pci, driver $driver"
		run ip link set dev "$dev" netns "$ns"
		run ip -n "$ns" link set dev "$dev" name "$name" mtu 1500
	done
	set_address "$a" "$name" "$addr_a"
	set_address "$b" "$name" "$addr_b"
	run ip -n "$a" link set "$name" up
	run ip -n "$b" link set "$name" up
	# A NIC reports carrier some time after it is up (e1000e's watchdog).
	for ns in "$a" "$b"; do
		wait_for has_carrier "$ns" "$name" ||
			fail "[$ns] $name has no carrier"
	done
}

# virtio_feature NS DEV BIT: prints 1 if the virtio driver of NS's DEV
# negotiated feature BIT (VIRTIO_NET_F_*), 0 if not.  sysfs lists them as
# a string of 0s and 1s, bit 0 first.
virtio_feature() {
	local features
	features=$(in_ns "$1" cat "/sys/class/net/$2/device/features") ||
		return 1
	echo "${features:$3:1}"
}

# ethtool -k's name of an ethtool -K feature word.
offload_name() {
	case "$1" in
	gro) echo generic-receive-offload ;;
	gso) echo generic-segmentation-offload ;;
	tso) echo tcp-segmentation-offload ;;
	lro) echo large-receive-offload ;;
	tx) echo tx-checksumming ;;
	rx) echo rx-checksumming ;;
	sg) echo scatter-gather ;;
	*) echo "$1" ;;
	esac
}

# underlay_offloads NS DEV FEATURE on|off...: ethtool -K DEV with those
# features (gro, tso, tx, ...), then log what the driver actually has: a NIC
# can refuse (virtio-net on a QEMU hub has no TX checksum or segmentation
# offload, "off [fixed]"), and turning one off can take another with it
# (tx off takes tso).  OFFLOADS_REFUSED lists "FEATURE=STATE" for each
# feature left otherwise than asked.
underlay_offloads() {
	local ns=$1 dev=$2 features feature want have
	shift 2
	OFFLOADS_REFUSED=()
	# ethtool -K fails when it cannot make one of the changes; what the
	# driver has is judged below, feature by feature.
	run in_ns "$ns" ethtool -K "$dev" "$@" || true
	features=$(in_ns "$ns" ethtool -k "$dev") ||
		fail "[$ns] ethtool -k $dev failed"
	while [ $# -ge 2 ]; do
		feature=$1 want=$2
		shift 2
		have=$(echo "$features" |
			sed -n "s/^$(offload_name "$feature"): //p")
		[ "${have%% *}" = "$want" ] ||
			OFFLOADS_REFUSED+=("$feature=${have:-unknown}")
	done
	log "[$ns] $dev offloads: $(echo "$features" |
		awk -F': ' '/^(generic-receive-offload|tcp-segmentation-offload|tx-checksumming|rx-checksumming|scatter-gather|rx-gro-list|large-receive-offload|rx-gro-hw):/ {
			sub(/ \[fixed\]/, "(fixed)", $2); printf " %s=%s", $1, $2 }')"
	[ ${#OFFLOADS_REFUSED[@]} -eq 0 ] ||
		log "[$ns] $dev did not take: ${OFFLOADS_REFUSED[*]}"
}

# add_dummy NS ADDR...: a dummy device dummy0 in NS holding every ADDR, an
# underlay that needs no wire (its traffic crosses NS's loopback).
add_dummy() {
	local ns=$1 addr
	shift
	run ip -n "$ns" link add dummy0 type dummy
	for addr; do
		set_address "$ns" dummy0 "$addr"
	done
	ip -n "$ns" link set dummy0 up
}

set_address() {
	local ns=$1 dev=$2 addr=$3
	case "$addr" in
	*:*) run ip -n "$ns" addr add "$addr" dev "$dev" nodad ;;
	*) run ip -n "$ns" addr add "$addr" dev "$dev" ;;
	esac
}

# add_vm VM HOST ADDR [MTU]: a namespace VM with eth0 (address ADDR) whose
# peer, named VM, is a port of HOST's br0.
add_vm() {
	local vm=$1 host=$2 addr=$3 mtu=${4:-1500}
	add_ns "$vm"
	run ip link add eth0 netns "$vm" mtu "$mtu" type veth \
		peer name "$vm" netns "$host" mtu "$mtu"
	set_address "$vm" eth0 "$addr"
	ip -n "$vm" link set eth0 up
	ip -n "$host" link set "$vm" up
	host_ovs "$host" ovs-vsctl --no-wait add-port "${VM_BRIDGE:-br0}" "$vm"
	PENDING_PORTS+=("$host $vm")
}

# Address of a namespace's device without prefix length.
address_of() {
	ip -n "$1" -o addr show dev "$2" scope global |
		awk '{ split($4, a, "/"); print a[1]; exit }'
}

# ---- traffic ----------------------------------------------------------------

if command -v ping > /dev/null; then
	PING=(ping)
else
	PING=(busybox ping)
fi

# ping_sizes VM DEST SIZE...: ICMP echo with each payload size (IPv4 fragments
# what exceeds the MTU).  A size's first request may be answered by "frag
# needed" from a tunnel (path MTU discovery); once one has been answered, every
# request must be.
ping_sizes() {
	local vm=$1 dest=$2 size out
	shift 2
	wait_for_ports
	for size in "$@"; do
		wait_for in_ns "$vm" "${PING[@]}" -c 1 -W 1 -s "$size" "$dest" ||
			fail "[$vm] no answer from $dest to ping -s $size"
		log "+ [$vm] ping -c 3 -s $size $dest"
		out=$(in_ns "$vm" "${PING[@]}" -c 3 -i 0.2 -W 2 -s "$size" "$dest" 2>&1) ||
			fail "[$vm] ping -s $size $dest: $(echo "$out" | tail -n 2)"
		echo "$out" | contains ' 0% packet loss' ||
			fail "[$vm] ping -s $size $dest lost packets: $(echo "$out" | tail -n 2)"
	done
}

# Wait until something listens on TCP PORT in namespace NS.
wait_listening() {
	local ns=$1 port=$2
	wait_for sh -c "ss -N '$ns' -Hltn 'sport = :$port' | grep -q ."
}

rate() {
	# bytes seconds -> human-readable bit rate
	awk -v b="$1" -v s="$2" 'BEGIN {
		if (s <= 0) s = 0.001
		r = b * 8 / s
		if (r >= 1e9) printf "%.2f Gbit/s", r / 1e9
		else printf "%.1f Mbit/s", r / 1e6 }'
}

# transfer_mib MIB: the size of a transfer the scenario wants to be MIB MiB:
# MIB, but an eighth of it (at least 1) on the debug test kernel.  Under
# emulation its KASAN, lockdep and kmemleak make a transfer 20 to 50 times
# slower; a megabyte is still hundreds of inner TCP segments, which take
# the same code paths under the same checks, and the distro kernels carry
# the volume.  Not for transfers that must outlast
# something (send_file_underway).
transfer_mib() {
	if [ "${STT_DEBUG_KERNEL:-0}" = 1 ]; then
		echo $(($1 > 8 ? $1 / 8 : 1))
	else
		echo "$1"
	fi
}

# send_file_and_hash FROM_VM TO_VM TO_ADDR [MIB]: send MIB (default 64) MiB of
# random bytes over one TCP connection and compare SHA-256 of what was sent and
# what arrived.
send_file_and_hash() {
	send_file_start "$@"
	send_file_check "$2"
}

# Transfers in progress, by receiving namespace: "FROM MIB SHA-256 START
# RECEIVER-PID SENDER-PID".
declare -A TRANSFERS=()

# send_file_start FROM_VM TO_VM TO_ADDR [MIB]: the same in the background, so
# that the scenario can act while the bytes flow (one transfer per receiving
# namespace at a time, any number at once); send_file_check TO_VM waits for it
# and checks it, received_bytes TO_VM tells how far it got.  TO_ADDR may be
# IPv6; SEND_SOCKET_OPTS, if set, is appended to the sender's socat address
# (",setsockopt=LEVEL:NAME:VALUE").
send_file_start() {
	local from=$1 to=$2 addr=$3 mib=${4:-64} port=5001
	local src=$WORK/send.$to.bin dst=$WORK/recv.$to.bin sent receiver
	local family= opts=${SEND_SOCKET_OPTS:-}
	[[ $addr != *:* ]] || { family=6; addr=[$addr]; }
	wait_for_ports
	head -c "$((mib << 20))" /dev/urandom > "$src"
	sent=$(sha256sum < "$src" | cut -d' ' -f1)
	rm -f "$dst"
	log "+ [$to] socat -u TCP$family-LISTEN:$port OPEN:$dst"
	background "$WORK/socat-recv.$to.log" ip netns exec "$to" \
		socat -u "TCP$family-LISTEN:$port,reuseaddr" "OPEN:$dst,creat,trunc"
	receiver=$BG_PID
	wait_listening "$to" "$port" || fail "[$to] receiver not listening"
	log "+ [$from] socat -u OPEN:$src TCP$family:$addr:$port$opts  ($mib MiB)"
	# No time limit here: send_file_check gives the sender 300 s from when
	# it lifts send_file_underway's throttle, however long the scenario
	# acted before.
	background "$WORK/socat-send.$to.log" ip netns exec "$from" \
		socat -u "OPEN:$src" "TCP$family:$addr:$port$opts"
	TRANSFERS[$to]="$from $mib $sent $(date +%s.%N) $receiver $BG_PID"
}

# received_bytes TO_VM: bytes the transfer to TO_VM has delivered so far.
received_bytes() {
	stat -c %s "$WORK/recv.$1.bin" 2>/dev/null || echo 0
}

received_at_least() {
	[ "$(received_bytes "$1")" -ge "$2" ]
}

# Devices slowed down by send_file_underway, by receiving namespace: "NS DEV".
declare -A THROTTLED=()

# send_file_underway FROM_VM TO_VM TO_ADDR MIB [RATE]: send_file_start,
# returning once the bytes flow, for a scenario to act under traffic.  They
# flow at RATE (netem's rate on FROM_VM's device towards TO_ADDR, default
# 1mbit), so that the transfer outlasts whatever the scenario does until
# send_file_check lets it go at full speed.  A loaded host slows the
# scenario down, never netem's clock: what runs under the transfer for long
# needs MIB at RATE to last longer than the scenario's timeout.  The same
# on the debug kernel: a quarter of the bytes at a quarter of the rate left
# TCP backing off at the slow rate (in one try, hostile's 4 MiB at
# 16 kbit/s took 68 s to finish once the throttle lifted, 16 MiB at
# 64 kbit/s 26 s).
send_file_underway() {
	local from=$1 to=$2 addr=$3 mib=$4 rate=${5:-1mbit} dev
	dev=$(ip -n "$from" route get "$addr" | sed -n 's/.* dev \([^ ]*\).*/\1/p')
	run tc -n "$from" qdisc add dev "$dev" root netem rate "$rate"
	THROTTLED[$to]="$from $dev"
	send_file_start "$from" "$to" "$addr" "$mib"
	wait_for received_at_least "$to" $((64 << 10)) ||
		fail "the transfer to $to does not get going"
}

# send_file_unfinished TO_VM WHAT: the transfer to TO_VM had not finished
# when WHAT (just done) happened.
send_file_unfinished() {
	local got total
	got=$(received_bytes "$1")
	total=$(($(echo "${TRANSFERS[$1]}" | cut -d' ' -f2) << 20))
	[ "$got" -lt "$total" ] ||
		fail "the transfer to $1 ended before $2: make it longer"
	log "$2 at $got of $total bytes"
}

send_file_check() {
	local to=$1 from mib sent start receiver sender end bytes got
	local src dst=$WORK/recv.$to.bin ns dev
	read -r from mib sent start receiver sender <<< "${TRANSFERS[$to]}"
	src=$WORK/send.$to.bin
	unset "TRANSFERS[$to]"
	if [ -n "${THROTTLED[$to]:-}" ]; then
		read -r ns dev <<< "${THROTTLED[$to]}"
		unset "THROTTLED[$to]"
		run tc -n "$ns" qdisc del dev "$dev" root
	fi
	# One bound for the whole transfer: the sender is done once its last
	# bytes are in its socket buffers, which can hold most of a small file,
	# so the receiver may still need most of the transfer's time after it
	# (on the debug kernel under load, more than a minute for 2 MiB).
	local deadline=$((SECONDS + 300))
	wait_background "$sender" "$WORK/socat-send.$to.log" 300 ||
		fail "[$from] sending $mib MiB to $to failed"
	wait_background "$receiver" "$WORK/socat-recv.$to.log" \
		$((deadline - SECONDS > WAIT_TIMEOUT ? deadline - SECONDS : WAIT_TIMEOUT)) ||
		fail "[$to] receiving $mib MiB failed"
	end=$(date +%s.%N)
	bytes=$(stat -c %s "$dst")
	got=$(sha256sum < "$dst" | cut -d' ' -f1)
	[ "$bytes" -eq "$((mib << 20))" ] ||
		fail "$from -> $to: sent $((mib << 20)) bytes, received $bytes"
	[ "$got" = "$sent" ] ||
		fail "$from -> $to: SHA-256 differs: sent $sent, received $got"
	log "$from -> $to: $bytes bytes, SHA-256 $sent matches," \
		"$(rate "$bytes" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')")"
	rm -f "$src" "$dst"
}

# From iperf3 -J output: bytes and bit/s received, and the sender's
# retransmits.  iperf3 pretty-prints its JSON one member a line; a Python
# interpreter would cost seconds to start in an emulated guest.
iperf3_summary() {
	awk -F'[:,]' '
		/"end":/ { end = 1 }
		end && /"sum_sent":/ { block = "tx" }
		end && /"sum_received":/ { block = "rx" }
		block == "rx" && /"bytes":/ && rx_bytes == "" { rx_bytes = $2 + 0 }
		block == "rx" && /"bits_per_second":/ && rx_bps == "" { rx_bps = $2 + 0 }
		block == "tx" && /"retransmits":/ && tx_retr == "" { tx_retr = $2 + 0 }
		END { printf "%d %d %d\n", rx_bytes, rx_bps, tx_retr }' "$1"
}

# iperf3_check CLIENT_VM SERVER_VM SERVER_ADDR [SECONDS] [iperf3 options...]:
# one iperf3 run client -> server, then reversed (-R); both must move bytes.
# Sets IPERF_FORWARD and IPERF_REVERSE to the received rates in bit/s.
iperf3_check() {
	local client=$1 server=$2 addr=$3 secs=${4:-3}
	shift 3
	[ $# -eq 0 ] || shift
	local rev json mode
	wait_for_ports
	for mode in forward reverse; do
		json=$WORK/iperf3-$client-$server-$mode.json
		background "$WORK/iperf3-server.log" ip netns exec "$server" \
			iperf3 -s -1 -p 5201
		local srv=$BG_PID
		wait_listening "$server" 5201 || fail "[$server] iperf3 -s not listening"
		if [ $mode = forward ]; then
			rev=()
		else
			rev=(-R)
		fi
		log "+ [$client] iperf3 -c $addr -t $secs ${rev[*]} $*"
		in_ns "$client" timeout $((secs + 60)) iperf3 -c "$addr" -p 5201 \
			-t "$secs" -J "${rev[@]}" "$@" > "$json" ||
			fail "[$client] iperf3 -c $addr ${rev[*]} failed: $(tail -n 5 "$json")"
		wait_background "$srv" "$WORK/iperf3-server.log" ||
			fail "[$server] iperf3 server failed"
		cp "$json" "$STT_RESULTS/"
		local bytes bps retrans
		read -r bytes bps retrans < <(iperf3_summary "$json")
		[ "$bytes" -gt 0 ] || fail "iperf3 $client -> $server ($mode): no bytes"
		log "iperf3 $mode ($client -c $addr ${rev[*]}): $bytes bytes received," \
			"$(rate "$bytes" "$(awk -v b="$bytes" -v r="$bps" 'BEGIN { print b * 8 / r }')")," \
			"$retrans retransmits"
		# shellcheck disable=SC2034 # for the scenario
		if [ $mode = forward ]; then
			IPERF_FORWARD=$bps
		else
			IPERF_REVERSE=$bps
		fi
	done
}

# ip_mib NS NAME: one of the kernel's own protocol counters in NS, by its
# nstat name (IpReasmOKs, IpExtReasmOverlaps, TcpInErrs, ...).
ip_mib() {
	in_ns "$1" nstat -asz "$2" | awk -v n="$2" '$1 == n { print $2; found = 1 }
		END { exit !found }'
}

# ---- captures ---------------------------------------------------------------

# capture_start NS IFACE NAME [FILTER...]: capture on IFACE with tcpdump
# (quick to start); sets CAPTURE_PID.  It writes to tmpfs with a 32 MiB
# buffer, so that it keeps up with a burst of segments in a slow guest;
# capture_stop puts the result in $STT_RESULTS/NAME.pcap.  Immediate mode:
# otherwise libpcap's ring hands packets over a block at a time, up to a
# second late, and a capture stopped soon after the last packet loses the
# block still open (a CI run kept 9 of 14 packets).
capture_start() {
	local ns=$1 iface=$2 name=$3
	shift 3
	log "+ [$ns] tcpdump -i $iface -w $name.pcap $*"
	# ip netns exec execs tcpdump, so the background PID is tcpdump's and
	# capture_stop's SIGINT reaches it (a backgrounded shell function would
	# be a subshell, which ignores SIGINT).
	background "$WORK/capture-$name.log" ip netns exec "$ns" \
		tcpdump -i "$iface" --immediate-mode -U -Z root -s 0 -B 32768 \
		-w "$WORK/$name.pcap" "$@"
	# shellcheck disable=SC2034 # for the scenario
	CAPTURE_PID=$BG_PID
	wait_for grep -q "listening on" "$WORK/capture-$name.log" ||
		fail "[$ns] capture on $iface did not start"
}

# pcap_settled FILE: FILE has not grown for half a second.
pcap_settled() {
	local size
	size=$(stat -c %s "$1")
	sleep 0.5
	[ "$(stat -c %s "$1")" = "$size" ]
}

# capture_stop PID NAME: once tcpdump has written what it was given (it
# would drop what it has not read yet on SIGINT), stop it; the capture is
# then $STT_RESULTS/NAME.pcap.
capture_stop() {
	local pid=$1 name=$2
	wait_for pcap_settled "$WORK/$name.pcap" || true
	kill -INT "$pid" 2>/dev/null || true
	wait_background "$pid" "$WORK/capture-$name.log" || true
	log "capture $name: $(grep -E 'packets (captured|received)' \
		"$WORK/capture-$name.log" | tr '\n' ' ')"
	cp "$WORK/$name.pcap" "$STT_RESULTS/$name.pcap"
}

# tshark_fields PCAP DISPLAY_FILTER FIELD...: print the fields of matching
# packets, tab separated, with the STT dissector enabled on TCP/7471.
tshark_fields() {
	local pcap=$1 filter=$2 field
	shift 2
	local args=()
	for field in "$@"; do
		args+=(-e "$field")
	done
	tshark -r "$pcap" -n -o ip.try_heuristic_first:TRUE \
		-o stt.check_checksum:TRUE -Y "$filter" -T fields "${args[@]}" \
		2>/dev/null
}

# tshark_count PCAP DISPLAY_FILTER: number of matching packets.
tshark_count() {
	tshark_fields "$1" "$2" frame.number | wc -l
}

# ---- kernel log and teardown ------------------------------------------------

KMSG_START=$(wc -l < <(dmesg 2>/dev/null) || echo 0)

# kernel_logged TEXT: the kernel logged a line containing TEXT since the
# scenario started.
kernel_logged() {
	dmesg | tail -n +"$((KMSG_START + 1))" | contains -F -- "$1"
}

# Fail when the kernel logged a warning, bug, oops, leak, lockdep or RCU
# complaint since the scenario started.
check_kernel_log() {
	local bad
	bad=$(dmesg | tail -n +"$((KMSG_START + 1))" |
		grep -E -f <(grep -v '^#' "$STT_GUEST_DIR/bad-log-patterns")) || true
	if [ -n "$bad" ]; then
		log "kernel log:"
		echo "$bad" | sed -n 1,40p
		return 1
	fi
}

# On failure: what Open vSwitch and the namespaces looked like, in
# $STT_RESULTS/state.  (Open vSwitch logs are always kept, in ovs-HOST/.)
save_state() {
	local host ns dev dir=$STT_RESULTS/state
	mkdir -p "$dir"
	for host in "${HOSTS[@]}"; do
		{
			host_ovs_q "$host" ovs-vsctl show
			host_ovs_q "$host" ovs-dpctl show -s
			host_ovs_q "$host" ovs-dpctl dump-flows
			host_ovs_q "$host" ovs-ofctl dump-flows br0
			host_ovs_q "$host" ovs-appctl fdb/show br0
		} > "$dir/$host-ovs.txt" 2>&1 || true
	done
	for ns in "${NAMESPACES[@]}"; do
		{
			ip -n "$ns" -d -s link
			ip -n "$ns" addr
			ip -n "$ns" route
			ss -N "$ns" -tanp
			# Every stt device's counters, for a failure to be read.
			for dev in $(ip -n "$ns" -o link show type stt |
				     sed -n 's/^[0-9]*: \([^:@]*\).*/\1/p'); do
				echo "ethtool -S $dev"
				ip netns exec "$ns" ethtool -S "$dev"
			done
		} > "$dir/$ns-ip.txt" 2>&1 || true
	done
	dmesg > "$dir/dmesg.txt" 2>&1 || true
}

cleanup() {
	local rc=$? i host
	# A background job killed between its fork and its first command runs
	# the EXIT trap it inherited from this shell: only the scenario's own
	# shell cleans up, or a child would tear the scenario down under it.
	[ "$BASHPID" = "$$" ] || exit $rc
	set +e
	trap - EXIT
	log "cleaning up (status $rc)"
	[ $rc -eq 0 ] || save_state
	for host in "${HOSTS[@]}"; do
		mkdir -p "$STT_RESULTS/ovs-$host"
		cp "$(ovs_dir "$host")"/*.log "$STT_RESULTS/ovs-$host/"
	done
	for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${CLEANUPS[i]}"
	done
	for pid in "${BACKGROUND[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	for ((i = ${#HOSTS[@]} - 1; i >= 0; i--)); do
		stop_host "${HOSTS[i]}"
	done
	for ((i = ${#NAMESPACES[@]} - 1; i >= 0; i--)); do
		ip netns del "${NAMESPACES[i]}"
	done
	rm -rf "$WORK"
	if ! check_kernel_log; then
		log "FAIL: the kernel log has warnings (see above)"
		[ $rc -ne 0 ] || rc=1
	fi
	if [ $rc -eq 0 ]; then
		log "PASS $STT_SCENARIO"
	else
		log "FAIL $STT_SCENARIO (status $rc)"
	fi
	exit $rc
}
trap cleanup EXIT
