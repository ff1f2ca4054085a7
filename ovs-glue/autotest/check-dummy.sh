#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check": the STT tests of the dummy datapath (tunnel-stt.at,
# ofproto-dpif-stt.at) with Open vSwitch's own harness, built from the
# openvswitch-source tarball, against the installed ovs-vswitchd.  Fails when a test fails,
# printing its log.
#
# Open vSwitch's atlocal probes tc by creating veth0 and veth1 in the
# current network namespace; as root, the suite gets a namespace of its own
# so that the probe cannot touch the machine's, with its loopback up (the
# IPFIX case exports to a collector on 127.0.0.1).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$PWD/ovs-glue/autotest/build
run=$PWD/ovs-glue/autotest/run

"$here/build-testsuites" "$build"
rm -rf "$run"
netns=()
if [ "$(id -u)" = 0 ]; then
	netns=(unshare --net sh -c 'ip link set lo up && exec "$0" "$@"')
fi
status=0
"${netns[@]}" "$here/run-testsuite" "$build" testsuite "$run" || status=$?
if [ "$status" != 0 ]; then
	cat "$run/testsuite.log"
	exit 1
fi
# The suite holds the STT cases only: every one of them ran.
count=$("$build/testsuite" -l | grep -c '^ *[0-9]*: ')
grep -qxF "All $count tests were successful." "$run/testsuite.log" ||
	{ echo "not all $count tests ran and passed:"; tail -n 5 "$run/testsuite.log"; exit 1; }
