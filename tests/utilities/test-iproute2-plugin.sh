#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# link_stt.so against the ip of this machine, without root or the kernel
# module: the plugin is written for one iproute2 version
# (utilities/iproute2-abi.h), so "ip -V" must say the version written into
# the plugin; then ip must load it (IP_LIB_DIR) and reach its help and its
# parser through struct link_util.  Printing is checked in the guest
# (tests/guest/scenarios/stt-ctl.sh).
#
#	tests/utilities/test-iproute2-plugin.sh [PLUGIN]
#
# PLUGIN defaults to utilities/link_stt.so under the current directory (the
# build directory, as "make check" runs it); 77 (skipped) if it was not
# built.

set -u

PLUGIN=${1:-utilities/link_stt.so}
if [ ! -f "$PLUGIN" ]; then
	echo "test-iproute2-plugin: $PLUGIN was not built (see configure's summary)"
	exit 77
fi
dir=$(cd "$(dirname "$PLUGIN")" && pwd)

failed=0
fail() {
	echo "FAIL: $*" >&2
	failed=1
}

built=$(strings -a "$PLUGIN" | sed -n 's/^stt-iproute2-version=//p')
ip=$(ip -V | sed -n 's/.*iproute2-\([0-9][0-9.]*\).*/\1/p')
[ -n "$built" ] || fail "$PLUGIN says no iproute2 version"
[ "$ip" = "$built" ] ||
	fail "ip is iproute2 ${ip:-of unknown version} ($(ip -V)), $PLUGIN was built for iproute2 $built: rebuild it against this iproute2"

# "ip link help stt" calls print_help; "Usage: ... stt" comes from us.
out=$(IP_LIB_DIR=$dir ip link help stt 2>&1)
echo "$out" | grep -q '^Usage: \.\.\. stt \[ remote ADDR \]' ||
	fail "ip link help stt did not print the plugin's usage: $(echo "$out" | head -n 3)"

# The parser, and ip's invarg() and duparg() it calls, exit before
# anything is sent (were the parser not reached, the kernel would refuse a
# request without remote or external).
check_refusal() {
	local want=$1 out rc=0
	shift
	out=$(IP_LIB_DIR=$dir ip link add stt-test type stt "$@" 2>&1) || rc=$?
	[ "$rc" -ne 0 ] && [ "$out" = "$want" ] ||
		fail "ip link add stt-test type stt $*: exit $rc, \"$out\", expected \"$want\""
}
check_refusal 'Error: argument "300" is wrong: expected 0-255, auto or inherit' \
	ttl 300
check_refusal 'Error: argument "0x10000000000000000" is wrong: expected 0-18446744073709551615 (decimal, or hex with 0x)' \
	id 0x10000000000000000
check_refusal 'Error: duplicate "ttl": "2" is the second value.' ttl 1 ttl 2
check_refusal 'Error: missing value for "srcport": expected MIN MAX, each 1-65535' \
	srcport 1

[ $failed -eq 0 ] && echo "link_stt.so: iproute2 $built, loaded by ip, parses"
exit $failed
