# SPDX-License-Identifier: GPL-2.0
# ovs-glue/autotest/automake.mk -- STT tests in Open vSwitch's autotest
# format, run by Open vSwitch's own harness against the installed Open
# vSwitch (docs/testing.rst, "Open vSwitch's own tests").
#
# check-dummy.sh: the dummy-datapath "tunnel - STT" tests ("make check").
# The kernel-datapath ones (system-stt.at) run in the guest
# (the guest test ovs_autotest, scenarios/ovs-autotest.sh).
TESTS += ovs-glue/autotest/check-dummy.sh
EXTRA_DIST += \
	ovs-glue/autotest/build-testsuites \
	ovs-glue/autotest/check-dummy.sh \
	ovs-glue/autotest/check-stt.at \
	ovs-glue/autotest/ofproto-dpif-stt.at \
	ovs-glue/autotest/run-testsuite \
	ovs-glue/autotest/stt-kmod-macros.at \
	ovs-glue/autotest/system-kmod-testsuite.at \
	ovs-glue/autotest/system-stt.at \
	ovs-glue/autotest/testsuite.at \
	ovs-glue/autotest/tunnel-stt.at
CLEANFILES += ovs-glue/autotest/build.lock
# (clean-local is conditional in datapath/automake.mk; automake wants one.)
mostlyclean-local: clean-ovs-autotest
clean-ovs-autotest:
	rm -rf ovs-glue/autotest/build ovs-glue/autotest/run
.PHONY: clean-ovs-autotest
