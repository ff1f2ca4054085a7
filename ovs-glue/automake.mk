# SPDX-License-Identifier: GPL-2.0
#
# ovs-glue/ovs-4.0: the STT series for Open vSwitch 4.0 and main.  build-ovs
# builds it on Debian's 4.0.0 (not part of "make": it fetches Debian's source
# package and takes 7 to 14 minutes, so the suite runs it once per machine).
# "make check" checks the series (check-series: its test cases are those of
# ovs-glue/autotest, it applies to 4.0 and to main and passes checkpatch.py),
# and runs the dummy-datapath STT cases of the built 4.0 (check-dummy-4.0;
# skipped until build-ovs has built it).  build-ovs-deb builds Debian
# packages of it for Debian 14 (forky), whose lane (tests/roots/forky.packages)
# installs them; like build-ovs, not part of "make".
TESTS += ovs-glue/check-series ovs-glue/check-dummy-4.0
EXTRA_DIST += \
	ovs-glue/build-ovs \
	ovs-glue/build-ovs-deb \
	ovs-glue/deb/nodpdk.patch \
	ovs-glue/cache-ovs-main \
	ovs-glue/check-series \
	ovs-glue/check-dummy-4.0 \
	ovs-glue/ovs-testsuite \
	ovs-glue/series-patches \
	ovs-glue/ovs-4.0/series \
	ovs-glue/ovs-4.0/autotest.sed \
	ovs-glue/ovs-4.0/0000-cover-letter.patch \
	ovs-glue/ovs-4.0/0001-netdev-vport-Add-the-STT-tunnel-port-type.patch \
	ovs-glue/ovs-4.0/0002-ofproto-dpif-Refuse-tunnels-that-userspace-cannot-carry.patch \
	ovs-glue/ovs-4.0/0003-ofproto-dpif-Report-STT-tunnels-in-IPFIX-and-sFlow.patch \
	ovs-glue/ovs-4.0/debian-4.0.0-post-v4.0.0.patch
