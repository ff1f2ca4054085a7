#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Open vSwitch's own autotest suite on the kernel datapath, with the STT
# modules under test: the STT cases of ovs-glue/autotest/system-stt.at (one
# of them over IPv6) and Open vSwitch's stock vxlan tunnel test, each
# started by a macro that requires vport_stt to load.
# The testsuite's log, and the directory of every failed test, are kept in
# the results.
#
# Usage: ovs-autotest.sh BUILDDIR [stt-only]
#   BUILDDIR  made on the host by ovs-glue/autotest/build-testsuites (the
#             guest's root is read-only)
#   stt-only  without Open vSwitch's stock tunnel test
#
# Test: ovs_autotest
#   BUILDDIR is built on the host from the openvswitch-source of the guest's
#   root.  Open vSwitch's stock vxlan test runs on the host's root only
#   (stt-only in the lane): it shows that loading vport_stt leaves
#   openvswitch.ko's other tunnel vports working (geneve and gre register
#   as vxlan does), which does not depend on the kernel series or the Open
#   vSwitch version, and each such test costs most of a minute of emulated
#   Open vSwitch start and stop.
#   timeout: 600
#   host: ovs-autotest
#   lanes: 6.12-deb13
#   kernels: oldest distro: Debian 12's Open vSwitch 3.1 on 6.1; the lane
#     runs Debian 13's 3.5 on Debian's 6.12, ovs40_autotest_offloads 4.0 on
#     6.12; the debug kernel has ovs-churn (an Open vSwitch port's life
#     under traffic)
#   underlay: ipv4 only: the STT cases hold their own IPv6 one, which
#     every run runs

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

build=$1
suite=system-kmod-testsuite
STOCK=("datapath - ping over vxlan tunnel")
[ "${2:-}" != stt-only ] || STOCK=()

# The list of tests, read once (the testsuite is large, the guest slow).
list=$("$build/$suite" -l)

# test_number TITLE: the number of the test called exactly TITLE.
test_number() {
	echo "$list" | awk -v t="$1" '
		{ n = $1; sub(/^ *[0-9]+: [^ ]+ +/, "") }
		$0 == t { sub(/:$/, "", n); print n; found = 1 }
		END { exit !found }' || fail "$suite has no test called '$1'"
}

selection=()
for title in "${STOCK[@]}"; do
	selection+=("$(test_number "$title")")
done
# Each test's line is followed by one of its keywords.
stt_tests=$(echo "$list" | awk '/^ *[0-9]+: / { t = $1; next }
	t && / stt( |$)/ { n++ } { t = "" } END { print n + 0 }')
[ "$stt_tests" -gt 0 ] || fail "$suite has no test with keyword stt"
count=$(( ${#selection[@]} + stt_tests ))
log "Open vSwitch's $suite: the stt tests and ${STOCK[*]} (tests ${selection[*]}): $count tests"

[ -x "$STT_CTL" ] || fail "no stt-ctl ($STT_CTL): build the tree for $STT_KVER"

# The tests call stt-ctl by name.  The testsuite runs on the guest's tmpfs
# (its daemons' sockets and files stay off the 9p results directory); what
# a failure leaves is copied to the results.
run=$WORK/ovs-autotest
status=0
PATH=$(dirname "$STT_CTL"):$PATH \
	"$STT_REPO/ovs-glue/autotest/run-testsuite" "$build" "$suite" "$run" \
	-k stt "${selection[@]}" > "$STT_RESULTS/ovs-autotest.out" 2>&1 || status=$?
cat "$STT_RESULTS/ovs-autotest.out"
cp "$run/$suite.log" "$STT_RESULTS/"
[ ! -d "$run/$suite.dir" ] || cp -R "$run/$suite.dir" "$STT_RESULTS/"

[ "$status" = 0 ] || fail "$suite failed (exit $status): see $suite.log and $suite.dir/ in $STT_RESULTS"
grep -qxF "All $count tests were successful." "$STT_RESULTS/ovs-autotest.out" ||
	fail "$suite did not run all $count tests to success: $(tail -n 3 "$STT_RESULTS/ovs-autotest.out")"
log "all $count tests passed"
