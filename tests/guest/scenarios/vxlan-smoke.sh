#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two Open vSwitch hosts joined by a VXLAN tunnel over a veth underlay, one VM
# on each; proves the rig end to end.  Checks ping (small and fragmented),
# 16 MiB over TCP with SHA-256 compared, and iperf3 both ways.
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#
# Usage: vxlan-smoke.sh [TYPE]   (TYPE vxlan, the default, geneve or stt;
# stt needs the modules under test)
#
# Test: vxlan_smoke vxlan
#   It tells a broken rig from a broken STT module.
#   timeout: 480
#   modules: no
#   kernels: newest distro: the rig does not depend on the kernel
#   underlay: ipv4 only: the rig's own check, without STT

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

# What the pings look like on the underlay, judged by tshark.
case "$type" in
vxlan) filter=(udp port 4789) ;;
geneve) filter=(udp port 6081) ;;
stt) filter=(tcp port 7471) ;;
*) fail "unknown tunnel type $type" ;;
esac
capture_start host1 u0 underlay "${filter[@]}"
ping_sizes vm1 10.0.0.2 1 1472 8972
ping_sizes vm2 10.0.0.1 1 8972
capture_stop "$CAPTURE_PID" underlay
frames=$(tshark_count "$STT_RESULTS/underlay.pcap" "$type && icmp")
[ "$frames" -gt 0 ] || fail "tshark found no ICMP in $type on the underlay"
log "tshark: $frames $type frames carrying ICMP on the underlay"
send_file_and_hash vm1 vm2 10.0.0.2 16
iperf3_check vm1 vm2 10.0.0.2 3
