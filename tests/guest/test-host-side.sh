#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest rig's own tests that boot no guest ("make check"): the scenario
# headers' parser (test_scenario_cases.py) and the kernel matrix
# (test_matrix.py: where each case runs among the selected kernels, and a
# pytest session of the rig with a stand-in run-guest stopping on a
# selection that names no kernel, a case that would run nowhere, a missing
# kernel of the matrix or a module build of another version), and
# tools/stt-wire against the reference captures as made and with one field
# made wrong (test_stt_wire.py), lib.sh's flow helpers in a scratch
# scenario (test_lib.py) and run-guest refusing a bad --batch file
# (test_run_guest.py).  The guest session (tests/run-tests)
# collects them too.
#
# Run from the build directory ("make check"); srcdir from the environment.

src=${srcdir:-$(dirname "$0")/../..}
if ! /usr/bin/python3 -c 'import pytest, xdist' 2> /dev/null; then
	echo "SKIP: python3-pytest and python3-pytest-xdist are not installed"
	exit 77
fi
exec /usr/bin/python3 -m pytest -p no:cacheprovider -q \
	"$src/tests/guest/test_scenario_cases.py" \
	"$src/tests/guest/test_matrix.py" \
	"$src/tests/guest/test_stt_wire.py" \
	"$src/tests/guest/test_lib.py" \
	"$src/tests/guest/test_run_guest.py"
