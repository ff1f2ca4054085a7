# SPDX-License-Identifier: GPL-2.0
#
# ovs-glue/ovs-4.0: the STT series for Open vSwitch 4.0.  build-ovs builds
# it (not part of "make": it fetches Debian's source package and takes 7 to
# 14 minutes, so the suite runs it once per machine).  "make check" checks that
# the series' test cases are those of ovs-glue/autotest (check-series), and
# runs the dummy-datapath STT cases of the built 4.0 (check-dummy-4.0; skipped
# until build-ovs has built it).
TESTS += ovs-glue/check-series ovs-glue/check-dummy-4.0
EXTRA_DIST += \
	ovs-glue/build-ovs \
	ovs-glue/check-series \
	ovs-glue/check-dummy-4.0 \
	ovs-glue/ovs-testsuite \
	ovs-glue/ovs-4.0/series \
	ovs-glue/ovs-4.0/autotest.sed \
	ovs-glue/ovs-4.0/0001-netdev-vport-Add-the-STT-tunnel-port-type.patch \
	ovs-glue/ovs-4.0/0002-dpif-netlink-Create-STT-ports-over-rtnetlink.patch \
	ovs-glue/ovs-4.0/0003-ofproto-dpif-Report-STT-tunnels-in-IPFIX-and-sFlow.patch \
	ovs-glue/ovs-4.0/0004-tests-Add-STT-tunnel-tests.patch
