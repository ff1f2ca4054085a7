#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bringing up plain devices at boot: the examples of utilities/examples/
# (installed in /usr/share/doc/stt-utils/examples/) and the systemd unit and
# generator of utilities/boot/.  stt@.service passes "systemd-analyze
# verify" (with the build tree's stt-ctl in its command lines), stt-generator
# wants it for each /etc/stt/NAME.conf, and the words that stt1.conf and the
# ifupdown stanza give "stt-ctl add" are all accepted (checked as test-stt-ctl-args.sh does: a
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

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The generator wants stt@NAME.service for /etc/stt/NAME.conf, and skips a
# NAME no unit instance can have, saying so.
mkdir "$dir/conf" "$dir/gen"
cp "$examples/stt1.conf" "$dir/conf/"
cp "$examples/stt1.conf" "$dir/conf/a+b.conf"
out=$(STT_CONF_DIR=$dir/conf utilities/boot/stt-generator "$dir/gen" \
	"$dir/gen" "$dir/gen" 2>&1) || fail "stt-generator failed: $out"
link=$(readlink "$dir/gen/multi-user.target.wants/stt@stt1.service") ||
	fail "stt-generator made no multi-user.target.wants/stt@stt1.service"
case $link in
/*/system/stt@.service) ;;
*) fail "stt-generator: stt@stt1.service links to '$link'" ;;
esac
[ "$(ls "$dir/gen/multi-user.target.wants")" = "stt@stt1.service" ] ||
	fail "stt-generator made: $(ls "$dir/gen/multi-user.target.wants")"
[ "$out" = "stt-generator: $dir/conf/a+b.conf: 'a+b' cannot name a unit instance: skipped" ] ||
	fail "stt-generator said: '$out'"

if command -v systemd-analyze > /dev/null; then
	# The installed unit, with the build tree's stt-ctl in its command lines.
	sed "s|^\(Exec[A-Za-z]*=-\{0,1\}\)/[^ ]*/stt-ctl |\1$STT_CTL |" \
		utilities/boot/stt@.service > "$dir/stt@stt1.service"
	grep -q "^ExecStart=$STT_CTL add %i \\\$STT_WORDS$" "$dir/stt@stt1.service" &&
		grep -q "^ExecStop=-$STT_CTL del %i$" "$dir/stt@stt1.service" ||
		fail "stt@.service: ExecStart or ExecStop changed? $(grep ^Exec "$dir/stt@stt1.service")"
	# --man=no: its Documentation= names pages that need not be installed.
	out=$(systemd-analyze verify --man=no "$dir/stt@stt1.service" 2>&1) ||
		fail "systemd-analyze verify stt@.service: $out"
	[ -z "$out" ] || fail "systemd-analyze verify stt@.service: $out"
else
	echo "note: no systemd-analyze here: stt@.service not verified"
fi

[ $failed -eq 0 ] && echo "boot examples: verified"
exit $failed
