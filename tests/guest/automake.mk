# SPDX-License-Identifier: GPL-2.0
# tests/guest/automake.mk -- programs the guest scenarios run, built by "make"
# into the build tree (not installed); a scenario finds them under
# _build/<X.Y>/ as it finds stt-ctl.
#
# tools/nfq-accept: an NFQUEUE consumer (libnetfilter_queue) that gives every
# packet back with verdict ACCEPT and counts what it saw; the nic-underlay
# scenario puts it in front of the STT receive hook.
if HAVE_NFQ
noinst_PROGRAMS += tests/guest/tools/nfq-accept
tests_guest_tools_nfq_accept_SOURCES = tests/guest/tools/nfq-accept.c
tests_guest_tools_nfq_accept_CFLAGS = $(AM_CFLAGS) $(NFQ_CFLAGS)
tests_guest_tools_nfq_accept_LDADD = $(NFQ_LIBS)
endif

# test-host-side.sh: the rig's tests that boot no guest: the scenario
# headers' parser, the kernel matrix each run is checked against
# (test_matrix.py, with a stand-in run-guest; about 20 s of CPU), the wire
# checker and lib.sh's flow helpers.
TESTS += tests/guest/test-host-side.sh
EXTRA_DIST += tests/guest/test-host-side.sh
