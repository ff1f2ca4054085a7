# SPDX-License-Identifier: GPL-2.0
#
# ovs-glue/ovs-4.0: the STT series for Open vSwitch 4.0; build-ovs builds it
# (not part of "make": it fetches Debian's source package and takes half an
# hour, so the suite runs it once per machine).  "make check" checks that the
# series' test cases are those of ovs-glue/autotest.  The whole directory goes
# into the tarball with the tests (DIST_TEST_DIRS).
TESTS += ovs-glue/check-series
