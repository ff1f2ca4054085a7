#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rig self-test: a run that leaves things behind, for fresh.sh to find gone
# in the next run of the same boot: a process in a session of its own, a
# network namespace with a veth pair, a link and an Open vSwitch datapath in
# the initial namespace (openvswitch.ko loaded with it), a module the
# scenario loaded, a mount and files in the tmpfs work directories.

set -eu
setsid sleep 100000 < /dev/null > /dev/null 2>&1 &
echo "left process $!"
ip netns add stt-leftover
ip -n stt-leftover link add left0 type veth peer name left1
ip link add stt-left0 type dummy
modprobe openvswitch
ovs-dpctl add-dp stt-leftover
mkdir -p /tmp/stt-leftover /var/log/stt-leftover
mount -t tmpfs leftover /tmp/stt-leftover
touch /tmp/stt-leftover/file /var/log/stt-leftover/file /run/stt-leftover \
	/root/.stt-leftover
grep -E '^(openvswitch|dummy) ' /proc/modules
echo "left: $(ip netns list | tr '\n' ' ')$(ip -o link show | cut -d: -f2 | tr '\n' ' ')"
