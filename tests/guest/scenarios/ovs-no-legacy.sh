#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch 3.x on a kernel whose openvswitch.ko has no legacy vport
# types (Debian 13's backported 7.3): an stt port cannot exist there, and
# what the operator sees is what docs/openvswitch.rst and
# docs/troubleshooting.rst say.  Such an openvswitch.ko never asks for a
# vport-type-N module, so stt's build made stt.ko alone (no vport-stt.ko
# could be loaded to explain).  ovs-vsctl adds a type=stt port: the
# Interface shows "Address family not supported by protocol", ovs-vswitchd
# logs that and nothing else new, the datapath has no stt port, no stt
# module was loaded; the bridge's VXLAN port still carries a ping, and stt
# devices still work (stt-ctl makes one beside it).
#
#   vm1 --- br0 [host1] vx0 --- u0 ===== u0 --- vx0 [host2] br0 --- vm2
#                      tun0 (stt, refused)
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

! modinfo vport-stt > /dev/null 2>&1 ||
	fail "a vport-stt.ko was built for kernel $(uname -r): $(modinfo -n vport-stt)"

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
err=$(interface_state host1 tun0 | sed -n 1p)
log "[host1] tun0's error: $err"
case $err in
*"Address family not supported by protocol"*) ;;
*) fail "[host1] tun0's error is $err, not the kernel's refusal of vport type 106" ;;
esac
! dp_ports host1 | contains '^stt' ||
	fail "[host1] the datapath has an stt port: $(dp_ports host1 | tr '\n' ' ')"

for module in vport_stt stt; do
	! module_loaded $module || fail "$module was loaded for Open vSwitch's stt port"
done
# What ovs-vswitchd logged of tun0: the deprecation (3.5) and the failure,
# each line once or more: every reconfiguration tries the port again, and
# a link change in the namespace (a carrier coming up late on a loaded
# host) reconfigures the bridge (vswitchd/bridge.c, if_notifier).
expected="bridge|WARN|could not add network device tun0 to ofproto (Address family not supported by protocol)
dpif|WARN|system@ovs-system: failed to add tun0 as port: Address family not supported by protocol
netdev_vport|WARN|tun0: 'stt' port type is deprecated."
got=$(ovs_log_warnings host1 | LC_ALL=C sort -u)
[ "$got" = "$expected" ] ||
	fail "[host1] ovs-vswitchd logged \"$got\", not \"$expected\""
[ -z "$(ovs_log_warnings host2)" ] ||
	fail "[host2] ovs-vswitchd logged: $(ovs_log_warnings host2)"
log "Open vSwitch $(ovs_version) refused tun0 as docs/openvswitch.rst says"

ping_sizes vm1 10.0.0.2 1 1400
run in_ns host1 "$STT_CTL" add s9 remote 192.0.2.2 id 9
ip -n host1 -d link show s9 | contains '^    stt ' ||
	fail "[host1] stt-ctl made no stt device s9"
module_loaded stt || fail "stt.ko did not load for stt-ctl"
