#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# link_stt.so in an ip, without root or the kernel module: ip must load it
# (IP_LIB_DIR) and reach its help and its parser, which calls ip's own
# invarg() and duparg(), through struct link_util.  An ip outside the
# iproute2 versions the plugin was checked against (utilities/
# iproute2-abi.h) must get no struct link_util, only the message naming the
# versions it needs: a copy of this ip that says it is iproute2 9.9.9
# shows it.  Printing is checked in the guest
# (tests/guest/scenarios/stt-ctl.sh).
#
#	tests/utilities/test-iproute2-plugin.sh [PLUGIN]
#
# PLUGIN defaults to utilities/link_stt.so under the current directory (the
# build directory, as "make check" runs it); 77 (skipped) if it was not
# built.  STT_IP (default "ip") is the ip command to run, such as "chroot
# ROOT /usr/sbin/ip" with PLUGIN's directory at STT_IP_LIB_DIR in ROOT
# (tests/iproute2/check-debian); only the ip in PATH is doctored.

set -u

PLUGIN=${1:-utilities/link_stt.so}
if [ ! -f "$PLUGIN" ]; then
	echo "test-iproute2-plugin: $PLUGIN was not built (see configure's summary)"
	exit 77
fi
dir=$(cd "$(dirname "$PLUGIN")" && pwd)
read -r -a IP <<< "${STT_IP:-ip}"
LIB_DIR=${STT_IP_LIB_DIR:-$dir}

failed=0
fail() {
	echo "FAIL: $*" >&2
	failed=1
}

# iproute2-abi.h's range, as the plugin's refusal names it.
abi=$(dirname "$0")/../../utilities/iproute2-abi.h
first=$(sed -n 's/^#define STT_IPROUTE2_FIRST "\(.*\)"$/\1/p' "$abi")
last=$(sed -n 's/^#define STT_IPROUTE2_LAST "\(.*\)"$/\1/p' "$abi")
needs="needs iproute2 $first to $last.x; stt-ctl does what \"ip link ... type stt\" does"
said=$("${IP[@]}" -V)
version=$(echo "$said" | sed -n 's/.*iproute2-\([0-9][0-9.]*\).*/\1/p')

# "ip link help stt" calls print_help; "Usage: ... stt" comes from us.
out=$(IP_LIB_DIR=$LIB_DIR "${IP[@]}" link help stt 2>&1)
echo "$out" | grep -q '^Usage: \.\.\. stt \[ remote ADDR \]' ||
	fail "${IP[*]} link help stt ($said) did not print the plugin's usage: $(echo "$out" | head -n 3)"

# The parser, and ip's invarg() and duparg() it calls, exit before
# anything is sent (were the parser not reached, the kernel would refuse a
# request without remote or external).
check_refusal() {
	local want=$1 out rc=0
	shift
	out=$(IP_LIB_DIR=$LIB_DIR "${IP[@]}" link add stt-test type stt "$@" 2>&1) || rc=$?
	[ "$rc" -ne 0 ] && [ "$out" = "$want" ] ||
		fail "${IP[*]} link add stt-test type stt $* ($said): exit $rc, \"$out\", expected \"$want\""
}
check_refusal 'Error: argument "300" is wrong: expected 0-255, auto or inherit' \
	ttl 300
check_refusal 'Error: argument "0x10000000000000000" is wrong: expected 0-18446744073709551615 (decimal, or hex with 0x)' \
	id 0x10000000000000000
check_refusal 'Error: duplicate "ttl": "2" is the second value.' ttl 1 ttl 2
check_refusal 'Error: missing value for "srcport": expected MIN MAX, each 1-65535' \
	srcport 1
[ $failed -eq 0 ] &&
	echo "link_stt.so: loaded by ${IP[*]} (iproute2 $version), parses"

# A copy of the ip in PATH with its version string, which only "ip -V"
# prints, changed to 9.9.9 (as long as the real one): the plugin refuses
# it, and ip goes on as for a kind without a plugin.
[ -n "${STT_IP:-}" ] && exit $failed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake=9.9.$(printf '9%.0s' $(seq 5 "${#version}"))
/usr/bin/python3 - "$(command -v ip)" "$tmp/ip" "$version" "$fake" <<'PY' ||
import sys
ip, copy, version, fake = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
body = open(ip, "rb").read()
old = b"\0" + version.encode() + b"\0"
if body.count(old) != 1:
    sys.exit("%s: %r is not once in it" % (ip, old))
open(copy, "wb").write(body.replace(old, b"\0" + fake.encode() + b"\0"))
PY
	fail "cannot make an ip that says it is iproute2 $fake"
chmod +x "$tmp/ip"
stt=$(sed -n 's/^#define STT_FULL_VERSION "\(.*\)"$/\1/p' "$dir/../stt-version.h")
want="stt: ip is iproute2 $fake; link_stt.so (stt $stt) $needs"
rc=0
out=$(IP_LIB_DIR=$LIB_DIR "$tmp/ip" link add stt-test type stt ttl 5 2>&1) || rc=$?
[ "$rc" -ne 0 ] && [ "$(echo "$out" | head -n 1)" = "$want" ] &&
	echo "$out" | sed -n 2p | grep -q '^Garbage instead of arguments "ttl \.\.\."' ||
	fail "an ip that says iproute2 $fake: exit $rc, \"$out\", expected \"$want\" and ip's \"Garbage instead of arguments\""
[ $failed -eq 0 ] && echo "link_stt.so: refused by iproute2 $fake: $want"
exit $failed
