#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stt-dkms's maintainer scripts tell the administrator about loaded modules:
# prerm (remove) that stt stays loaded, and that Open vSwitch's stt ports
# fail after the next boot when vport_stt is in use; postinst (configure)
# that another version is loaded and how to replace it; and say nothing
# when nothing is loaded.  Each runs with /sys/module replaced by a made-up
# one, in a mount namespace of its own, with dkms a stub that reports every
# kernel installed (skipped without root or unshare).
#
#	tests/packaging/test-maintainer-notices.sh

set -u

src=${srcdir:-$(dirname "$0")/../..}
if [ "$(id -u)" != 0 ] || ! unshare -m true 2> /dev/null; then
	echo "test-maintainer-notices: needs root and unshare -m: skipped"
	exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/bin"
failed=0
fail() {
	echo "FAIL: $*" >&2
	failed=1
}
printf '#!/bin/sh\necho "stt/1, any, x86_64: installed"\n' > "$TMP/bin/dkms"
chmod +x "$TMP/bin/dkms"
# The #...# tokens as debhelper fills them in (its snippets left out).
for script in prerm postinst; do
	sed -e 's/#STT_VERSION#/0.1+2/g' -e '/#DEBHELPER#/d' \
		"$src/debian/stt-dkms.$script" > "$TMP/$script"
done

# run SCRIPT ARG STT_VERSION VPORT_REFCNT: the script's stderr and stdout,
# with a made-up /sys/module (no stt at all if STT_VERSION is empty).
run() {
	unshare -m env PATH="$TMP/bin:$PATH" sh -c '
		mount -t tmpfs none /sys/module
		if [ -n "$3" ]; then
			mkdir /sys/module/stt /sys/module/vport_stt
			echo "$3" > /sys/module/stt/version
			echo "$4" > /sys/module/vport_stt/refcnt
		fi
		sh "$1" "$2" 2>&1' run "$TMP/$1" "$2" "$3" "$4"
}

expect() {
	local want=$1 got
	shift
	got=$(run "$@")
	[ "$got" = "$want" ] || fail "$*: got '$got', expected '$want'"
}

STAYS="stt-dkms: stt 0.1+1 stays loaded until it is unloaded (rmmod vport_stt stt) or the host reboots"
expect "$STAYS
stt-dkms: Open vSwitch has type=stt ports: they keep working until then, and fail after the next boot" \
	prerm remove 0.1+1 1
expect "$STAYS" prerm remove 0.1+1 0
expect "" prerm remove "" 0
expect "" prerm upgrade 0.1+1 1
expect "stt-dkms: stt 0.1+1 is loaded; 0.1+2 takes its place at the next boot, or now by the procedure in /usr/share/doc/stt-dkms/README.Debian (\"Reloading a new version\")" \
	postinst configure 0.1+1 1
expect "" postinst configure 0.1+2 1
expect "" postinst configure "" 0

[ $failed -eq 0 ] && echo "maintainer notices: verified"
exit $failed
