#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch taking STT ports away and back under a bulk transfer (where
# ovs-churn cycles them under a ping): in the middle of a transfer from vm1
# to vm2, host2's stt port is deleted (its device, receive port and
# reassembly table with it) and added again, and host1's ovs-vswitchd is
# stopped and started again (it takes over the kernel datapath and ports it
# left).  Each transfer must resume and arrive with its SHA-256.  While an
# Open vSwitch stt port exists, vport_stt and stt refuse to unload; the
# reload procedure of debian/README.Debian, run as written there, replaces
# them under a ping, which measures the interruption.  Open vSwitch 4.0 with
# ovs-glue's series (the Debian 14 lane) makes its ports as stt devices
# over rtnetlink: vport_stt never loads, nothing holds stt, and the
# procedure's rmmod line for 4.0 replaces stt alone.
#
#	lifecycle-ovs.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: lifecycle_ovs
#   Two CPUs, so that teardown races with traffic on another CPU.
#   timeout: 600
#   cpus: 2
#   kernels: newest distro: on Debian's 6.12, and on 7.2, whose
#     openvswitch.ko takes a vport's device held (ovs_netdev_link(vport,
#     true)); ovs_churn takes ports, their devices, datapaths and the
#     modules away under traffic on every kernel, the debug kernel's
#     checks included
#   lanes: 7.2-deb14 7.2-deb14-ovs40
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

MIB=8
underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: lifecycle-ovs.sh [ipv4|ipv6]"

stt_two_hosts
# Real segments on the wire (sent without TSO, received without GRO), so
# that frames are reassembled and a port going away may find some pending.
for host in host1 host2; do
	run in_ns $host ethtool -K u0 tso off tx off gro off > /dev/null
done
ping_sizes vm1 10.0.0.2 1 8972

send_file_underway vm1 vm2 10.0.0.2 $MIB
host_ovs host2 ovs-vsctl del-port br0 tun0
! ip -n host2 link show "$STT_DEV" 2>/dev/null ||
	fail "[host2] $STT_DEV outlived its port"
send_file_unfinished vm2 "host2's port went away"
host_ovs host2 ovs-vsctl add-port br0 tun0 -- set Interface tun0 type=stt \
	options:remote_ip="$UL_A"
check_interface host2 tun0
send_file_check vm2

ifindex=$(ip -n host1 -o link show "$STT_DEV" | cut -d: -f1)
send_file_underway vm1 vm2 10.0.0.2 $MIB
# The kernel datapath and its ports stay, and keep forwarding with the
# flows they have.
stop_vswitchd host1
dp_ports host1 | contains -x "$STT_DEV" ||
	fail "[host1] $STT_DEV left the datapath with ovs-vswitchd"
send_file_unfinished vm2 "host1's ovs-vswitchd stopped"
start_vswitchd host1
ovs_sync host1
check_interface host1 tun0
log "[host1] $STT_DEV: ifindex $ifindex before the restart, $(ip -n host1 -o link show "$STT_DEV" | cut -d: -f1) after"
send_file_check vm2

for host in host1 host2; do
	stt_check_no_errors $host
done

# With vport_stt, its ports hold both modules.  Open vSwitch's stt devices
# hold none: rmmod stt would delete them, as ovs-churn's "ip link del" does.
read -ra modules <<< "$(ovs_stt_modules)"
if [ "${modules[*]}" = "vport_stt stt" ]; then
	log "+ rmmod vport_stt; rmmod stt  (must both be refused)"
	for module in "${modules[@]}"; do
		! rmmod $module 2> "$WORK/rmmod.err" ||
			fail "$module unloaded while Open vSwitch has stt ports"
		grep -q 'in use' "$WORK/rmmod.err" ||
			fail "rmmod $module failed, but not as in use: $(cat "$WORK/rmmod.err")"
	done
fi
ping_sizes vm1 10.0.0.2 1 8972

# ---- reloading the modules with Open vSwitch running ------------------------

# The procedure of debian/README.Debian ("Reloading a new version"), its
# lines run as written there, but for "systemctl stop|start ovs-vswitchd"
# (no systemd here: stop_vswitchd and start_vswitchd do what the unit does,
# ovs-appctl exit without --cleanup).  Both hosts share this kernel: each
# takes its stt port out of its own datapath before the one rmmod.
# doc_line PREFIX: the line of the procedure that starts with PREFIX.
doc_line() {
	sed -n "s/^    \($1.*\)$/\1/p" "$STT_REPO/debian/README.Debian" | sed -n 1p
}
DEL_IF=$(doc_line 'ovs-dpctl show')
RMMOD=$(doc_line "rmmod ${modules[*]}")
[ -n "$DEL_IF" ] && [ -n "$RMMOD" ] ||
	fail "debian/README.Debian has no reload procedure (del-if '$DEL_IF', rmmod '$RMMOD')"

# A parameter set now is back to its default once the module was replaced.
echo 500 > /sys/module/stt/parameters/reasm_timeout_ms
log "+ [vm1] ping -D -i 0.1 10.0.0.2 (through the reload)"
in_ns vm1 "${PING[@]}" -D -i 0.1 -W 1 10.0.0.2 > "$WORK/reload-ping.log" 2>&1 &
ping_pid=$!
wait_for grep -q 'icmp_seq=' "$WORK/reload-ping.log" ||
	fail "no answer to vm1's ping before the reload"

for host in host1 host2; do
	stop_vswitchd $host				# systemctl stop ovs-vswitchd
	host_ovs $host sh -c "$DEL_IF"
	dp_ports $host > "$WORK/dp-$host"
	! grep -qx "$STT_DEV" "$WORK/dp-$host" ||
		fail "[$host] $STT_DEV is still in the datapath: $(cat "$WORK/dp-$host")"
	grep -qx "vm${host#host}" "$WORK/dp-$host" ||
		fail "[$host] the VM's port left the datapath: $(cat "$WORK/dp-$host")"
done
log "+ $RMMOD"
sh -c "$RMMOD" || fail "'$RMMOD' failed"
for module in "${modules[@]}"; do
	! module_loaded $module || fail "$module still loaded after '$RMMOD'"
done
for host in host1 host2; do
	start_vswitchd $host				# systemctl start ovs-vswitchd
done
for host in host1 host2; do
	check_interface $host tun0
done
for module in "${modules[@]}"; do
	module_loaded $module || fail "ovs-vswitchd did not load $module again"
done
[ "$(cat /sys/module/stt/parameters/reasm_timeout_ms)" = 1000 ] ||
	fail "stt.reasm_timeout_ms is $(cat /sys/module/stt/parameters/reasm_timeout_ms): not the module loaded anew"
log "[host1] $STT_DEV is back; stt $(cat /sys/module/stt/version) loaded anew"

# The interruption: the longest time between two answers to vm1's ping.
ping_answers() {
	[ "$(grep -c 'icmp_seq=' "$WORK/reload-ping.log")" -ge "$1" ]
}
before=$(grep -c 'icmp_seq=' "$WORK/reload-ping.log")
wait_for ping_answers $((before + 10)) ||
	fail "vm1's ping gets no answers after the reload"
kill "$ping_pid"
wait "$ping_pid" || true
gap=$(sed -n 's/^\[\([0-9.]*\)\] .*icmp_seq=.*/\1/p' "$WORK/reload-ping.log" |
	awk 'NR > 1 && $1 - last > max { max = $1 - last } { last = $1 }
		END { printf "%.1f", max }')
log "reload: tunnel traffic interrupted for $gap s (longest gap between ping answers, 0.1 s apart)"
for host in host1 host2; do
	stt_check_no_errors $host
done
ping_sizes vm1 10.0.0.2 1 8972
log "PASS lifecycle-ovs"
