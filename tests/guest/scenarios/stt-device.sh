#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The stt device on its own, without Open vSwitch: rtnetlink creation and its
# refusals (with the kernel's message, from a raw rtnetlink client that sends
# what stt-ctl would refuse before asking), receive interception only where a
# device exists (nothing answers as a TCP listener on its port), cleanup with
# the namespace, and module unload.
#
#   a: s0 (external, port 7471)  u0 192.0.2.1 === 192.0.2.2 u0  b
#
# Test: stt_device
#   timeout: 300
#   kernels: not debug: lifecycle-dev and ovs-churn (devices made,
#     refused and torn down)
#   underlay: ipv4 only: the kernel's refusals of device attributes, which
#     stt-ctl.sh checks for remote6 and local6

set -eu
. "$(dirname "$0")/../lib.sh"

STT_LINK=$STT_GUEST_DIR/tools/stt-link

# expect_refusal NS MESSAGE ARGS...: stt-link ARGS must fail with MESSAGE.
expect_refusal() {
	local ns=$1 want=$2 out
	shift 2
	log "+ [$ns] stt-link $*  (must be refused)"
	if out=$(in_ns "$ns" "$STT_LINK" "$@" 2>&1); then
		fail "stt-link $* succeeded"
	fi
	[ "$out" = "stt-link: $want" ] ||
		fail "stt-link $*: expected \"stt-link: $want\", got \"$out\""
}

counter() {
	in_ns "$1" ethtool -S "$2" | awk -v c="$3:" '$1 == c { print $2 }'
}

# connect_from NS ADDR PORT: prints "refused" when a RST answered, "timeout"
# when nothing did.
connect_from() {
	if in_ns "$1" timeout 5 socat -u /dev/null "TCP:$2:$3,connect-timeout=3" \
		2> "$WORK/connect.err"; then
		echo connected
	elif grep -q 'Connection refused' "$WORK/connect.err"; then
		echo refused
	else
		echo timeout
	fi
}

add_ns a
add_ns b
add_underlay a 192.0.2.1/24 b 192.0.2.2/24

# Without a device the port belongs to the TCP stack: a SYN gets a RST.
[ "$(connect_from b 192.0.2.1 7471)" = refused ] ||
	fail "without an stt device, port 7471 should answer with a RST"

run modprobe stt
run in_ns a "$STT_LINK" add s0 external
expect_refusal a "Device or resource busy: an external stt device already uses this destination port in this namespace" \
	add s1 external
expect_refusal a "Invalid argument: an stt device needs a remote address (fixed peer) or external mode" \
	add s1
expect_refusal a "Invalid argument: destination port must not be 0" \
	add s1 external dstport 0
# The kernel's own checks of what stt-ctl refuses before asking, sent raw.
expect_refusal a "Invalid argument: attribute not allowed in external mode: tunnel parameters come with each packet" \
	add s1 external remote 192.0.2.2
expect_refusal a "Invalid argument: ttl and ttl inherit are exclusive" \
	add s1 remote 192.0.2.2 ttl 64 ttl-inherit
expect_refusal a "Invalid argument: source port range must be non-zero and low <= high" \
	add s1 remote 192.0.2.2 srcport 5000 4000
expect_refusal a "Invalid argument: remote must be a unicast address" \
	add s1 remote 224.0.0.1
expect_refusal a "Invalid argument: local must be a unicast address" \
	add s1 remote 192.0.2.2 local 224.0.0.5
run in_ns a "$STT_LINK" add f0 remote 192.0.2.2 id 7
# A change without stt attributes changes nothing of stt's, and is no error.
run in_ns a "$STT_LINK" set f0
expect_refusal a "Operation not supported: destination port cannot be changed" \
	set f0 dstport 4000
expect_refusal a "Operation not supported: external mode cannot be changed" \
	set f0 external
expect_refusal a "Operation not supported: an external device has nothing to change: tunnel parameters come with each packet" \
	set s0 ttl 9
run in_ns a "$STT_LINK" del f0
run in_ns a "$STT_LINK" add s2 external dstport 4790
run in_ns a ip -d link show s0
in_ns a ip -d link show s0 | contains 'maxmtu 65503' ||
	fail "s0 should allow an MTU of 65503"

# The same port in another namespace is another receive port: allowed.
run in_ns b "$STT_LINK" add s0 external

# With a device, segments to its port are consumed, never answered.
run ip -n a link set s0 up
[ "$(connect_from b 192.0.2.1 7471)" = timeout ] ||
	fail "port 7471 answered although s0 receives on it"
flags=$(counter a s0 rx_err_tcp_flags)
[ "$flags" -ge 1 ] || fail "the SYN was not counted as rx_err_tcp_flags ($flags)"
log "s0: SYN to 7471 dropped and counted (rx_err_tcp_flags $flags)"
# Other ports are untouched.
[ "$(connect_from b 192.0.2.1 7472)" = refused ] ||
	fail "port 7472 should still answer with a RST"

run in_ns a "$STT_LINK" del s2
# Namespaces go with their devices and receive ports (the kernel log must
# stay clean); then the module unloads.
run ip netns del a
run ip netns del b
run rmmod stt
! lsmod | contains '^stt ' || fail "stt.ko still loaded"
log "PASS stt-device"
