#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The boot examples of utilities/examples/ (installed in
# /usr/share/doc/stt-utils/examples/): stt@.service passes
# "systemd-analyze verify" (with the build tree's stt-ctl in its command
# lines), and the words that stt1.conf and the ifupdown stanza give
# "stt-ctl add" are all accepted (checked as test-stt-ctl-args.sh does: a
# bogus word after them must be the first complaint, so nothing is sent).
#
#	tests/utilities/test-boot-examples.sh [STT_CTL]
#
# Run from the build directory ("make check"); srcdir from the environment.

set -u

STT_CTL=$(realpath "${1:-utilities/stt-ctl}")
examples=${srcdir:-$(dirname "$0")/../..}/utilities/examples
failed=0
fail() {
	echo "FAIL: $*" >&2
	failed=1
}

# add_accepts WORDS...: "stt-ctl add stt1 WORDS bogus" complains of bogus.
add_accepts() {
	local out rc=0
	out=$("$STT_CTL" add stt1 "$@" bogus 2>&1) || rc=$?
	[ $rc -eq 2 ] &&
		[ "$out" = "stt-ctl: unknown word 'bogus' (try 'stt-ctl --help')" ] ||
		fail "stt-ctl add stt1 $*: $out (exit $rc)"
}

# stt1.conf, read as systemd's EnvironmentFile= reads this one (a shell
# assignment), split at spaces as ExecStart= splits $STT_WORDS.
words=$(. "$examples/stt1.conf" && echo "$STT_WORDS")
[ -n "$words" ] || fail "stt1.conf sets no STT_WORDS"
# shellcheck disable=SC2086 # split as systemd splits it
add_accepts $words

# The ifupdown stanza's pre-up command.
pre_up=$(sed -n 's/^[[:space:]]*pre-up stt-ctl add stt1 //p' "$examples/interfaces")
[ -n "$pre_up" ] || fail "interfaces has no 'pre-up stt-ctl add stt1' line"
# shellcheck disable=SC2086
add_accepts $pre_up
grep -q '^[[:space:]]*post-down stt-ctl del stt1$' "$examples/interfaces" ||
	fail "interfaces has no 'post-down stt-ctl del stt1' line"

if command -v systemd-analyze > /dev/null; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	sed "s|/usr/bin/stt-ctl|$STT_CTL|" "$examples/stt@.service" \
		> "$dir/stt@stt1.service"
	# --man=no: its Documentation= names stt-ctl(8), which the build tree
	# has but need not be installed.
	out=$(systemd-analyze verify --man=no "$dir/stt@stt1.service" 2>&1) ||
		fail "systemd-analyze verify stt@.service: $out"
	[ -z "$out" ] || fail "systemd-analyze verify stt@.service: $out"
	grep -q '^ExecStart=/usr/bin/stt-ctl add %i \$STT_WORDS$' \
		"$examples/stt@.service" || fail "stt@.service: ExecStart changed?"
else
	echo "note: no systemd-analyze here: stt@.service not verified"
fi

[ $failed -eq 0 ] && echo "boot examples: verified"
exit $failed
