#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch 4.0 with the STT series (ovs-glue/ovs-4.0, built by
# ovs-glue/build-ovs, or on the lane 7.2-deb14-ovs40 installed from the
# packages of ovs-glue/build-ovs-deb): type=stt is an external stt device
# made over rtnetlink and attached as a netdev vport, so vport-stt never
# loads.
#   (a) ovs-vsctl add-port ... type=stt options:remote_ip=flow
#       options:key=flow works; a fixed-peer device that sat on the port's
#       device name is verified, found wrong and replaced;
#   (b) the device is kind stt, external, a netdev vport of the datapath;
#   (c) 64-bit tun_ids and the destination set by OpenFlow are in the
#       datapath flows, one key per direction;
#   (d) ping and 16 MiB with SHA-256 pass; counters balance.
#
#   ovs40-stt.sh [ipv4|ipv6] PREFIX
# ipv4|ipv6: the underlay's family; PREFIX: what ovs-glue/build-ovs printed,
# or /usr for the installed packages.
#
#   vm1 --- br0 [host1] stt0 --- u0 ===== u0 --- stt0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: ovs40_stt
#   PREFIX comes from ovs-glue/build-ovs; the case skips when it is not built.
#   timeout: 600
#   host: ovs40
#   kernels: oldest distro: ovs40_stt_ipv6 runs it over IPv6 on the
#     Debian 14 lane; on the debug kernel, ovs-churn takes the external
#     device's metadata receive and set(tunnel()) transmit, lifecycle-dev
#     its rtnetlink creation
#   underlay: either
#
# Test: ovs40_stt_ipv6 ipv6
#   The same over an IPv6 underlay, on the Debian 14 lane with the packages
#   of ovs-glue/build-ovs-deb as installed (PREFIX /usr).
#   timeout: 600
#   host: ovs40
#   kernels: lanes only: ovs40_stt runs build-ovs's build over IPv4 on 6.1
#     (it ran on 6.12 before the lane)
#   lanes: 7.2-deb14-ovs40
#   underlay: either

set -eu
# lib.sh takes Open vSwitch from STT_OVS_PREFIX when sourced, before
# stt-lib.sh's underlay_family can read the family.
family=ipv4
case ${1:-} in ipv4 | ipv6) family=$1 && shift ;; esac
STT_OVS_PREFIX=${1:?usage: ovs40-stt.sh [ipv4|ipv6] PREFIX}
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"
underlay_family $family

# One 64-bit key per direction, all of whose bytes matter.
KEY_12=0xfedcba9876543210
KEY_21=0x8877665544332211

# vport_stt_unloaded: what this Open vSwitch must never need.
vport_stt_unloaded() {
	! module_loaded vport_stt || fail "vport_stt is loaded"
}

version=$(ovs-vswitchd --version | sed -n 1p)
log "$(command -v ovs-vswitchd): $version"
[[ $version == "ovs-vswitchd (Open vSwitch) 4.0."* ]] ||
	fail "ovs-vswitchd from $STT_OVS_PREFIX is not Open vSwitch 4.0"
vport_stt_unloaded

add_host host1 host2
host_ovs host1 ovs-vsctl add-br br0
host_ovs host2 ovs-vsctl add-br br0
add_underlay host1 "$UL_A/$UL_PREFIX" host2 "$UL_B/$UL_PREFIX"
add_vm vm1 host1 10.0.0.1/24
add_vm vm2 host2 10.0.0.2/24

log "(a) add-port, over a wrong device of the same name on host1"
run in_ns host1 "$STT_CTL" add "$STT_DEV" remote "${UL_A%1}99" id 0x5  # .99, ::99
for host in host1 host2; do
	host_ovs $host ovs-vsctl add-port br0 stt0 -- set interface stt0 \
		type=stt options:remote_ip=flow options:key=flow
	check_interface $host stt0
done
wait_for_ports
vport_stt_unloaded

log "(b) an external stt device, attached as a netdev vport"
for host in host1 host2; do
	out=$(in_ns $host "$STT_CTL" show "$STT_DEV")
	log "[$host] stt-ctl show $STT_DEV: $out"
	[ "$out" = "$STT_DEV: stt external dstport $STT_PORT" ] ||
		fail "[$host] $STT_DEV is not an external stt device on port $STT_PORT"
	# Open vSwitch's tools name the type after the port's name, the same
	# for a netdev vport and a legacy one: the kernel's own word is asked.
	out=$(host_ovs $host ovs-dpctl show)
	echo "$out"
	echo "$out" | contains -Ex "  port [0-9]+: $STT_DEV \(stt: packet_type=ptap\)" ||
		fail "[$host] ovs-dpctl show does not list $STT_DEV as an stt port"
	vtype=$(in_ns $host "$STT_GUEST_DIR/tools/ovs-vport-type" "$STT_DEV")
	log "[$host] openvswitch.ko: vport $STT_DEV has type $vtype"
	[ "$vtype" = 1 ] ||
		fail "[$host] vport $STT_DEV has type $vtype, not 1 (OVS_VPORT_TYPE_NETDEV)"
	link=$(ip -n $host -d link show "$STT_DEV")
	echo "$link"
	echo "$link" | contains "master ovs-system " &&
		echo "$link" | contains "openvswitch_slave" ||
		fail "[$host] $STT_DEV is not linked below the datapath (ovs-system)"
	out=$(host_ovs $host ovs-appctl dpif/show)
	echo "$out"
	echo "$out" | contains -E "^    stt0 [0-9]+/[0-9]+: \(stt: key=flow, remote_ip=flow\)\$" ||
		fail "[$host] ovs-appctl dpif/show does not show stt0 as configured"
done

log "(c) 64-bit keys and remote_ip from OpenFlow"
host_ovs host1 ovs-ofctl del-flows br0
host_ovs host1 ovs-ofctl add-flows br0 - <<EOF
in_port=vm1,actions=set_field:$UL_B->tun_${UL_TUN}dst,set_field:$KEY_12->tun_id,output:stt0
in_port=stt0,tun_${UL_TUN}src=$UL_B,tun_id=$KEY_21,actions=output:vm1
EOF
host_ovs host2 ovs-ofctl del-flows br0
host_ovs host2 ovs-ofctl add-flows br0 - <<EOF
in_port=vm2,actions=set_field:$UL_A->tun_${UL_TUN}dst,set_field:$KEY_21->tun_id,output:stt0
in_port=stt0,tun_${UL_TUN}src=$UL_A,tun_id=$KEY_12,actions=output:vm2
EOF
ping_sizes vm1 10.0.0.2 1 1472 8972

# expect_flow HOST PATTERN: HOST's datapath has a flow with the fixed string
# PATTERN, as ovs-vswitchd itself reports its datapath's flows.
expect_flow() {
	local flows
	flows=$(host_ovs_q "$1" ovs-appctl dpctl/dump-flows)
	echo "$flows" | contains -F -- "$2" || {
		echo "$flows"
		fail "[$1] no datapath flow with $2"
	}
	log "[$1] ovs-appctl dpctl/dump-flows: $(echo "$flows" | grep -F -- "$2" | sed -n 1p)"
}
# The tunnel address fields of the family, as datapath flows write them.
src=${UL_TUN}src dst=${UL_TUN}dst
expect_flow host1 "set(tunnel(tun_id=$KEY_12,$dst=$UL_B,"
expect_flow host1 "tunnel(tun_id=$KEY_21,$src=$UL_B,$dst=$UL_A,"
expect_flow host2 "set(tunnel(tun_id=$KEY_21,$dst=$UL_A,"
expect_flow host2 "tunnel(tun_id=$KEY_12,$src=$UL_A,$dst=$UL_B,"

log "(d) 16 MiB with SHA-256"
send_file_and_hash vm1 vm2 10.0.0.2 16
stt_check_frames_balanced host1 host2
for host in host1 host2; do
	stt_check_no_errors "$host"
done
vport_stt_unloaded
run lsmod | grep -E '^(openvswitch|vport_stt|stt) '
