#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch 3.x on a kernel whose openvswitch.ko has no legacy vport
# types (Debian 13's backported 7.3): an stt port cannot exist there, and
# the operator is told why.  ovs-vsctl adds a type=stt port; openvswitch.ko
# asks for vport type 106 and loads the standin vport-stt.ko, which refuses
# to load and logs the reason; the Interface shows Open vSwitch's error; the
# bridge and its other ports go on working (a VXLAN port carries a ping),
# and stt devices still work (stt-ctl makes one beside it).
#
#   vm1 --- br0 [host1] tun0 (stt, refused)  vx0 --- u0 ===== u0 --- vx0 [host2] br0 --- vm2
#
# Test: ovs_no_legacy
#   timeout: 300
#   kernels: lanes only: the one kernel without legacy vport types
#   lanes: 7.3-deb13

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

symbols=/lib/modules/$(uname -r)/modules.symbols
! grep -q 'symbol:__ovs_vport_ops_register ' "$symbols" ||
	fail "kernel $(uname -r) has legacy vport types: this scenario is for one without"

reason=$(modinfo -F standin vport-stt) ||
	fail "vport-stt.ko is not a standin on kernel $(uname -r)"
case $reason in
"its openvswitch module has no legacy vport types (vport type 106)"*) ;;
*) fail "the standin vport-stt.ko gives '$reason' as its reason" ;;
esac
log "vport-stt.ko is the standin: $reason"

add_host host1 host2
host_ovs host1 ovs-vsctl add-br br0
host_ovs host2 ovs-vsctl add-br br0
add_underlay host1 192.0.2.1/24 host2 192.0.2.2/24
add_tunnel_port host1 vx0 vxlan remote_ip=192.0.2.2
add_tunnel_port host2 vx0 vxlan remote_ip=192.0.2.1
add_vm vm1 host1 10.0.0.1/24
add_vm vm2 host2 10.0.0.2/24
wait_for_ports

host_ovs host1 ovs-vsctl add-port br0 tun0 -- set Interface tun0 type=stt \
	options:remote_ip=192.0.2.2
wait_for interface_state host1 tun0 ||
	fail "[host1] ovs-vswitchd did not deal with tun0"
err=$(interface_state host1 tun0 | head -n1)
log "[host1] tun0's error: $err"
case $err in
*"Address family not supported by protocol"*) ;;
*) fail "[host1] tun0's error is $err, not the kernel's refusal of vport type 106" ;;
esac
! dp_ports host1 | grep -q '^stt' ||
	fail "[host1] the datapath has an stt port: $(dp_ports host1 | tr '\n' ' ')"

line="has no vport-stt for kernel $(uname -r): $reason; stt devices work"
kernel_logged "$line" || fail "the kernel log does not say why: no '$line'"
! module_loaded vport_stt || fail "the standin vport_stt stayed loaded"
log "the kernel log says why there is no stt port"

ping_sizes vm1 10.0.0.2 1 1400
run in_ns host1 "$STT_CTL" add s9 remote 192.0.2.2 id 9
run ip -n host1 -d link show s9
module_loaded stt || fail "stt.ko did not load for stt-ctl"
