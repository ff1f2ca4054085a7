#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two Open vSwitch hosts joined by a VXLAN tunnel over a veth underlay, one VM
# on each; proves the rig end to end.  Checks ping (small and fragmented),
# 64 MiB over TCP with SHA-256 compared, and iperf3 both ways.
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#
# Usage: vxlan-smoke.sh [TYPE]   (TYPE vxlan, the default, or geneve)

set -eu
. "$(dirname "$0")/../lib.sh"

type=${1:-vxlan}

add_host host1 host2
# --no-wait: both hosts' ovs-vswitchd work at once; wait_for_ports waits.
host_ovs host1 ovs-vsctl --no-wait add-br br0
host_ovs host2 ovs-vsctl --no-wait add-br br0
add_underlay host1 192.0.2.1/24 host2 192.0.2.2/24

# The VMs keep MTU 1500 over a 1500-byte underlay: the outer packets are sent
# without DF, so what path MTU discovery has not yet shrunk is fragmented.
add_tunnel_port host1 tun0 "$type" remote_ip=192.0.2.2 key=flow df_default=false
add_tunnel_port host2 tun0 "$type" remote_ip=192.0.2.1 key=flow df_default=false
add_vm vm1 host1 10.0.0.1/24
add_vm vm2 host2 10.0.0.2/24
wait_for_ports
run ip -n host1 -d link show "$(tunnel_device host1 "$type")"

ping_sizes vm1 10.0.0.2 1 1472 8972
ping_sizes vm2 10.0.0.1 1 8972
send_file_and_hash vm1 vm2 10.0.0.2 64
iperf3_check vm1 vm2 10.0.0.2 3
