#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo (tests/demo): two Open vSwitch hosts joined by an STT tunnel, one
# VM on each; shows the configuration, a ping, an iperf3 rate and one STT
# frame as tshark decodes it from the underlay.

set -eu
. "$(dirname "$0")/../lib.sh"

for host in host1 host2; do
	add_host $host
	host_ovs $host ovs-vsctl add-br br0
done
add_underlay host1 192.0.2.1/24 host2 192.0.2.2/24
add_tunnel_port host1 stt0 stt remote_ip=192.0.2.2 key=0x1122334455667788
add_tunnel_port host2 stt0 stt remote_ip=192.0.2.1 key=0x1122334455667788
add_vm vm1 host1 10.0.0.1/24
add_vm vm2 host2 10.0.0.2/24

log "---- host1: ovs-vsctl show ----"
host_ovs host1 ovs-vsctl show
log "---- host1: ovs-dpctl show ----"
host_ovs host1 ovs-dpctl show
log "---- modules loaded by openvswitch.ko on demand ----"
lsmod | grep -E '^(vport_stt|stt|openvswitch) '

# Real segments on the wire: no offloads on the sender, no GRO on the
# receiver.
in_ns host1 ethtool -K u0 tso off tx off > /dev/null
in_ns host2 ethtool -K u0 gro off > /dev/null
capture_start host2 u0 demo tcp dst port 7471
log "---- vm1: ping 10.0.0.2 ----"
ping_sizes vm1 10.0.0.2 56 4000
in_ns vm1 ping -c 3 -s 4000 10.0.0.2
capture_stop "$CAPTURE_PID" demo
in_ns host1 ethtool -K u0 tso on tx on > /dev/null

log "---- iperf3 vm1 -> vm2 through STT ----"
iperf3_check vm1 vm2 10.0.0.2 5

log "---- one multi-segment STT frame as tshark decodes it ----"
frame=$(tshark_fields "$STT_RESULTS/demo.pcap" 'stt.segments' frame.number |
	head -n 1)
[ -n "$frame" ] || fail "no reassembled STT frame in the capture"
tshark -r "$STT_RESULTS/demo.pcap" -n -o ip.try_heuristic_first:TRUE \
	-Y "frame.number == $frame" -O stt 2>/dev/null |
	sed -n '/Stateless Transport Tunneling/,/^Ethernet II/p'

log "---- host2: STT counters (non-zero) ----"
in_ns host2 ethtool -S "$(tunnel_device host2 stt)" | grep -v ': 0$'
