#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two Open vSwitch hosts joined by type=stt ports made with ovs-vsctl alone:
# openvswitch.ko must load vport-stt (and with it stt) by itself.  Checks ping
# of every size both ways, 16 MiB over TCP with SHA-256 compared, iperf3 both
# ways, and then the counters: every frame one host sent the other received,
# no error counter moved.  ovs-vswitchd logs no warning or error but, from
# Open vSwitch 3.5 (Debian 13) on, that type=stt is deprecated.
#
#   ovs-basic.sh [ipv4|ipv6] VERSION [FROM]
# ipv4|ipv6: the underlay's family;
# VERSION: the version both modules must report (/sys/module, ethtool -i);
# FROM: the directory modprobe must take them from (e.g. updates/dkms, where
# the stt-dkms package installs them), if given.
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: ovs_basic
#   VERSION is what the modules under test report; with pytest's
#   --stt-packaged, FROM is updates/dkms, where the stt-dkms package
#   installed on the host put them (not on a lane, whose guest has its own
#   root).  On 7.2 (sid's root, with Open vSwitch 3.5 from Debian 13),
#   vport-stt holds the device for openvswitch.ko's ovs_netdev_link().
#   timeout: 600
#   host: ovs-basic
#   lanes: 6.12-deb13 7.2-deb14
#   kernels: not debug: ovs-churn
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

underlay_family "${1:-}" && shift
version=${1:?usage: ovs-basic.sh [ipv4|ipv6] VERSION [FROM]}
from=${2:-}

for module in vport_stt stt; do
	! module_loaded $module || fail "$module is loaded before any stt port exists"
done

stt_two_hosts

# Nobody ran modprobe: openvswitch.ko asked for "vport-type-106".
run lsmod | grep -E '^(openvswitch|vport_stt|stt) '
module_loaded vport_stt || fail "openvswitch.ko did not load vport_stt"
module_loaded stt || fail "vport_stt did not bring stt along"
grep -Eq '^stt .* vport_stt,' /proc/modules || fail "stt is not used by vport_stt"
for module in stt vport_stt; do
	[ "$(cat /sys/module/$module/version)" = "$version" ] ||
		fail "/sys/module/$module/version is '$(cat /sys/module/$module/version)', not $version"
	[ -z "$from" ] || case $(modinfo -n $module) in
	*/"$from"/*) ;;
	*) fail "$module was loaded from $(modinfo -n $module), not $from" ;;
	esac
done
log "stt and vport_stt $version loaded${from:+ from $from}"

for host in host1 host2; do
	out=$(host_ovs "$host" ovs-dpctl show) || fail "[$host] ovs-dpctl show failed"
	echo "$out"
	echo "$out" | contains -E "^  port [0-9]+: $STT_DEV \(stt: packet_type=ptap\)\$" ||
		fail "[$host] ovs-dpctl show does not list $STT_DEV as an stt port"
	run ip -n "$host" -d link show "$STT_DEV"
	ip -n "$host" -d link show "$STT_DEV" | contains '^    stt ' ||
		fail "[$host] $STT_DEV is not of kind stt"
	drvinfo=$(ip netns exec "$host" ethtool -i "$STT_DEV")
	echo "$drvinfo" | contains -x "driver: stt" ||
		fail "[$host] ethtool -i $STT_DEV: $drvinfo"
	echo "$drvinfo" | contains -x "version: $version" ||
		fail "[$host] ethtool -i $STT_DEV does not give version $version: $drvinfo"
done

ping_sizes vm1 10.0.0.2 1 1400 1472 4000 8972
ping_sizes vm2 10.0.0.1 1 1400 1472 4000 8972
iperf3_check vm1 vm2 10.0.0.2 3
send_file_and_hash vm1 vm2 10.0.0.2 16

stt_check_frames_balanced host1 host2
for host in host1 host2; do
	run ip netns exec "$host" ethtool -S "$STT_DEV"
	stt_check_no_errors "$host"
	check_link_errors "$host" "$STT_DEV" u0
	stt_check_ovs_log "$host" tun0
done
