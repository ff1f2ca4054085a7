#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The STT cases of Open vSwitch 4.0's own system-traffic.at (added by
# ovs-glue/ovs-4.0's series), run by the patched tree's
# system-kmod-testsuite, or with "offloads" by its system-offloads-testsuite
# (the same cases with other_config:hw-offload=true), against its own build
# (ovs-glue/ovs-testsuite), as its "make check-kernel" or "make
# check-offloads" would: no vport-stt on this path.  The testsuite's log,
# and the directory of every failed test, are kept in the results.
#
#   ovs40-autotest.sh PREFIX [offloads]
# PREFIX: what ovs-glue/build-ovs printed.
#
# Test: ovs40_autotest_offloads offloads
#   PREFIX comes from ovs-glue/build-ovs; the case fails when it is not
#   built.  With hw-offload=true, where TC would take STT flows if the stt
#   netdev class had get_ifindex: the case whose id differs only in the
#   upper 32 bits, and the 64-bit ids in the datapath flows, show they stay
#   out.  Staying out, every STT flow takes the kernel datapath as in
#   system-kmod-testsuite, which runs the same cases without offload (the
#   script without "offloads"); the suite runs the one that checks more.
#   timeout: 900
#   host: ovs40
#   kernels: newest distro: Open vSwitch 4.0 runs on 6.1 in ovs40_stt
#   underlay: ipv4 only: the series' STT cases hold their own IPv6 one;
#     ovs40-stt runs over either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

prefix=${1:?usage: ovs40-autotest.sh PREFIX [offloads]}
case ${2:-} in
'') suite=system-kmod-testsuite ;;
offloads) suite=system-offloads-testsuite ;;
*) fail "usage: ovs40-autotest.sh PREFIX [offloads]" ;;
esac
count=$("$(dirname "$prefix")/src/tests/$suite" -l -k stt | grep -c '^ *[0-9]*: ')
[ "$count" -gt 0 ] || fail "$suite has no stt test"
log "Open vSwitch 4.0's $suite -k stt: $count tests"

# Under /tmp: ovsdb-server's unix sockets cannot live on the 9p results
# directory.  The tests call stt-ctl by name.
run=$WORK/ovs40-autotest
out=$STT_RESULTS/ovs40-autotest-$suite.out
status=0
PATH=$(dirname "$STT_CTL"):$PATH "$STT_REPO/ovs-glue/ovs-testsuite" "$prefix" \
	$suite "$run" -k stt > "$out" 2>&1 || status=$?
cat "$out"
cp "$run/$suite.log" "$STT_RESULTS/"
[ ! -d "$run/$suite.dir" ] || cp -R "$run/$suite.dir" "$STT_RESULTS/"

[ "$status" = 0 ] ||
	fail "$suite failed (exit $status): see $suite.log and $suite.dir/ in $STT_RESULTS"
grep -qxF "All $count tests were successful." "$out" ||
	fail "$suite did not run all $count tests to success"
! module_loaded vport_stt || fail "vport_stt was loaded"
log "all $count tests passed, vport_stt never loaded"
