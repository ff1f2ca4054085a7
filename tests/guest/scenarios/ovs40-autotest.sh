#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The STT cases of Open vSwitch 4.0's own system-traffic.at (added by
# ovs-glue/ovs-4.0's series), run by the patched tree's
# system-kmod-testsuite, or with "offloads" by its system-offloads-testsuite
# (the same cases with other_config:hw-offload=true), as its "make
# check-kernel" or "make check-offloads" would: no vport-stt on this path.
# Against build-ovs's build (ovs-glue/ovs-testsuite), or on the lane
# 7.2-deb14-ovs40 against the installed packages of build-ovs-deb, the
# system-kmod-testsuite that ovs-glue/autotest/build-testsuites --own made
# from their openvswitch-source (ovs-glue/autotest/run-testsuite).  The
# testsuite's log, and the directory of every failed test, are kept in the
# results.
#
#   ovs40-autotest.sh PREFIX|BUILDDIR [offloads]
# PREFIX: what ovs-glue/build-ovs printed; BUILDDIR: build-testsuites'.
#
# Test: ovs40_autotest
#   On the lane, BUILDDIR is built on the host from the root's
#   openvswitch-source: the packaged build's own STT cases.
#   timeout: 900
#   host: ovs40-autotest
#   kernels: lanes only: ovs40_autotest_offloads runs the same cases on
#     6.12 against build-ovs's build (with hw-offload=true); on the debug
#     kernel ovs-keys and dev-ovs take their paths
#   lanes: 7.2-deb14-ovs40
#   underlay: ipv4 only: the series' STT cases hold their own IPv6 one;
#     ovs40-stt runs over either
#
# Test: ovs40_autotest_offloads offloads
#   PREFIX comes from ovs-glue/build-ovs; the case fails when it is not
#   built.  With hw-offload=true, where TC would take STT flows if the stt
#   netdev class had get_ifindex: the case whose id differs only in the
#   upper 32 bits, and the 64-bit ids in the datapath flows, show they stay
#   out.  Staying out, every STT flow takes the kernel datapath as in
#   system-kmod-testsuite, which runs the same cases without offload
#   (ovs40_autotest, on the Debian 14 lane).
#   timeout: 900
#   host: ovs40-autotest
#   kernels: newest distro: Open vSwitch 4.0 runs on 6.1 in ovs40_stt
#   underlay: ipv4 only: as ovs40_autotest

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

usage="usage: ovs40-autotest.sh PREFIX|BUILDDIR [offloads]"
where=${1:?$usage}
case ${2:-} in
'') suite=system-kmod-testsuite ;;
offloads) suite=system-offloads-testsuite ;;
*) fail "$usage" ;;
esac
# The testsuite, and what runs it as "make check-kernel" would.
if [ -f "$where/atconfig" ]; then
	testsuite=$where/$suite
	runner=$STT_REPO/ovs-glue/autotest/run-testsuite
	log "installed: $(dpkg-query -W openvswitch-switch openvswitch-common | xargs)"
else
	testsuite=$(dirname "$where")/src/tests/$suite
	runner=$STT_REPO/ovs-glue/ovs-testsuite
fi
count=$("$testsuite" -l -k stt | grep -c '^ *[0-9]*: ')
[ "$count" -gt 0 ] || fail "$suite has no stt test"
log "Open vSwitch 4.0's $suite -k stt: $count tests"

# Under /tmp: ovsdb-server's unix sockets cannot live on the 9p results
# directory.  The tests call stt-ctl by name.
run=$WORK/ovs40-autotest
out=$STT_RESULTS/ovs40-autotest-$suite.out
status=0
PATH=$(dirname "$STT_CTL"):$PATH "$runner" "$where" $suite "$run" -k stt \
	> "$out" 2>&1 || status=$?
cat "$out"
cp "$run/$suite.log" "$STT_RESULTS/"
[ ! -d "$run/$suite.dir" ] || cp -R "$run/$suite.dir" "$STT_RESULTS/"

[ "$status" = 0 ] ||
	fail "$suite failed (exit $status): see $suite.log and $suite.dir/ in $STT_RESULTS"
grep -qxF "All $count tests were successful." "$out" ||
	fail "$suite did not run all $count tests to success"
! module_loaded vport_stt || fail "vport_stt was loaded"
log "all $count tests passed, vport_stt never loaded"
