#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two Open vSwitch hosts joined by a VXLAN tunnel over a veth underlay, one VM
# on each.  Proves the rig end to end: ping (small and fragmented), 64 MiB with
# SHA-256 compared, iperf3 both ways.
#
#   vm1 10.0.0.1 -- br0 [host1] tun0 -- u0 192.0.2.1 === 192.0.2.2 u0 -- tun0 [host2] br0 -- vm2 10.0.0.2

set -eu
. "$(dirname "$0")/../lib.sh"

TYPE=${1:-vxlan}

for host in host1 host2; do
	add_host $host
	host_ovs $host ovs-vsctl add-br br0
done
add_underlay host1 192.0.2.1/24 host2 192.0.2.2/24
add_tunnel_port host1 tun0 "$TYPE" remote_ip=192.0.2.2 key=flow
add_tunnel_port host2 tun0 "$TYPE" remote_ip=192.0.2.1 key=flow
add_vm vm1 host1 10.0.0.1/24
add_vm vm2 host2 10.0.0.2/24

run in_ns host1 ip -d link show "$(tunnel_device host1 "$TYPE")"

ping_sizes vm1 10.0.0.2 1 1400 1472 8972
ping_sizes vm2 10.0.0.1 1 8972
send_file_and_hash vm1 vm2 10.0.0.2 64
iperf3_check vm1 vm2 10.0.0.2 3
