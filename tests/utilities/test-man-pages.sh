#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The manual pages: stt(4) and stt-ctl(8) format without a groff warning;
# stt(4) has an entry for every counter ethtool -S shows (the table's rows,
# lib/'s reasons as rx_err_NAME, the gauges of datapath/stats.c) and for
# every module parameter; and docs/man/stt-man, which makes stt(4), refuses a
# template that lacks a counter, names one the table lacks, or describes one
# twice, naming it.
#
#	tests/utilities/test-man-pages.sh
#
# Run from the build directory ("make check"); srcdir from the environment.

set -u

src=${srcdir:-$(dirname "$0")/../..}
page=docs/man/stt.4
template=$src/docs/man/stt.4.in
failed=0
fail() {
	echo "FAIL: $*" >&2
	failed=1
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for man in "$page" "$src/utilities/stt-ctl.8"; do
	warnings=$(LC_ALL=C.UTF-8 groff -ww -z -man -Tutf8 "$man" 2>&1)
	[ -z "$warnings" ] || fail "groff warns on $man: $warnings"
done

# What the module shows, read from its sources as text, independently of
# stt-man's own reading of the table.
names=$(sed -n 's/^STT_COUNTER([A-Z0-9_]*, "\([a-z0-9_]*\)".*/\1/p' \
		"$src/datapath/stats-list.h"
	sed -n 's/^\t\[STT_ERR_[A-Z0-9_]*\] = "\([a-z0-9_]*\)",$/rx_err_\1/p' \
		"$src/lib/stt_err.c"
	sed -n 's/^\t\[GAUGE_[A-Z_]*\]\t*= "\([a-z_]*\)",$/\1/p' \
		"$src/datapath/stats.c"
	sed -n 's/^module_param(\([a-z_]*\),.*/\1/p' "$src"/datapath/*.c)
[ "$(echo "$names" | wc -l)" -ge 50 ] ||
	fail "found only $(echo "$names" | wc -l) counters and parameters in the sources"
for name in $names; do
	grep -qx "\.B $name" "$page" || fail "$page has no entry for $name"
done

# stt-man TEMPLATE must fail with MESSAGE.
refuses() {
	local template=$1 want=$2 rc=0
	docs/man/stt-man "$template" > /dev/null 2> "$TMP/err" || rc=$?
	[ $rc -eq 1 ] && grep -qxF "$want" "$TMP/err" ||
		fail "stt-man with $3: exit $rc, '$(cat "$TMP/err")', expected '$want'"
}
grep -v '^\.\\" counter rx_err_mss_small$' "$template" > "$TMP/lacks.in"
refuses "$TMP/lacks.in" \
	"stt-man: $TMP/lacks.in does not describe counter rx_err_mss_small" \
	"a counter left out"
{ cat "$template"; echo '.\" counter rx_err_bogus'; } > "$TMP/extra.in"
refuses "$TMP/extra.in" "stt-man: counter rx_err_bogus is not in stats-list.h" \
	"a counter the table lacks"
{ cat "$template"; echo '.\" counter tx_frames'; } > "$TMP/twice.in"
refuses "$TMP/twice.in" "stt-man: counter tx_frames described twice" \
	"a counter described twice"

# One entry as made from its row, with a LATER reason and two folds.
grep -A1 -x '\.B rx_err_ecn' "$page" | grep -qxF '(device; drop reason \fBIP_TUNNEL_ECN\fR (6.1: \fBIP_INHDR\fR); ip \-s link: rx_errors, rx_frame_errors)' ||
	fail "rx_err_ecn's entry: $(grep -A1 -x '\.B rx_err_ecn' "$page")"

exit $failed
