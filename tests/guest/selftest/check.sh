# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the rig's self-tests: check COMMAND... says "ok: COMMAND" or
# "not ok: COMMAND", and a failed one makes the script's status 1
# (exit $status at its end).

check() {
	if "$@" > /dev/null 2>&1; then
		echo "ok: $*"
	else
		echo "not ok: $*"
		status=1
	fi
}
status=0
