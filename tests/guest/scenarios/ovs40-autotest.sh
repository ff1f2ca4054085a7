#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The STT cases of Open vSwitch 4.0's own system-traffic.at (added by the
# last patch of ovs-glue/ovs-4.0), run by the patched tree's
# system-kmod-testsuite against its own build (ovs-glue/ovs-testsuite), as
# its "make check-kernel" would: no vport-stt on this path.  The testsuite's
# log, and the directory of every failed test, are kept in the results.
#
#   ovs40-autotest.sh PREFIX   (PREFIX: what ovs-glue/build-ovs printed)
#
# Test: ovs40_autotest
#   PREFIX comes from ovs-glue/build-ovs; the case skips when it is not built.
#   timeout: 600
#   host: ovs40
#   kernels: not debug: ovs-keys and dev-ovs
#   underlay: ipv4 only: the series' STT cases are system-stt.at's, all
#     IPv4 (system-stt6.at is not in the series yet); ovs40-stt runs over
#     either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

prefix=${1:?usage: ovs40-autotest.sh PREFIX}
suite=system-kmod-testsuite
count=$("$(dirname "$prefix")/src/tests/$suite" -l -k stt | grep -c '^ *[0-9]*: ')
[ "$count" -gt 0 ] || fail "$suite has no stt test"
log "Open vSwitch 4.0's $suite -k stt: $count tests"

# Under /tmp: ovsdb-server's unix sockets cannot live on the 9p results
# directory.  The tests call stt-ctl by name.
run=$WORK/ovs40-autotest
status=0
PATH=$(dirname "$STT_CTL"):$PATH "$STT_REPO/ovs-glue/ovs-testsuite" "$prefix" \
	$suite "$run" -k stt > "$STT_RESULTS/ovs40-autotest.out" 2>&1 ||
	status=$?
cat "$STT_RESULTS/ovs40-autotest.out"
cp "$run/$suite.log" "$STT_RESULTS/"
[ ! -d "$run/$suite.dir" ] || cp -R "$run/$suite.dir" "$STT_RESULTS/"

[ "$status" = 0 ] ||
	fail "$suite failed (exit $status): see $suite.log and $suite.dir/ in $STT_RESULTS"
grep -qxF "All $count tests were successful." "$STT_RESULTS/ovs40-autotest.out" ||
	fail "$suite did not run all $count tests to success"
! module_loaded vport_stt || fail "vport_stt was loaded"
log "all $count tests passed, vport_stt never loaded"
