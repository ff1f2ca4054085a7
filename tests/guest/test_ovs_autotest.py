# SPDX-License-Identifier: GPL-2.0
"""Open vSwitch's own autotest suite on the kernel datapath, per installed
kernel, with the STT modules under test:

    /usr/bin/python3 -m pytest -v tests/guest/test_ovs_autotest.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'

The testsuite is built on the host from the openvswitch-source tarball
(ovs-glue/autotest/build-testsuites, cached in _build/ovs-autotest) and run
in the guest against the installed Open vSwitch binaries.
"""
import os
import subprocess

import pytest

from conftest import guest_root, short_name

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))
BUILD_TESTSUITES = os.path.join(REPO, "ovs-glue", "autotest",
                                "build-testsuites")


def build_testsuites(scenario):
    """The testsuite build directory for the guest's Open vSwitch, built (or
    found current) now: from the macros of the openvswitch-source package
    of the root the guest boots with (Debian 12's tarball on the host,
    Debian 13's tree in that lane's root)."""
    root = guest_root(scenario.release)
    if root == "/":
        build, source = "ovs-autotest", []
    else:
        build = "ovs-autotest-" + short_name(scenario.release)
        source = ["--source", os.path.join(root, "usr/src/openvswitch")]
    build = os.path.join(REPO, "_build", build)
    proc = subprocess.run([BUILD_TESTSUITES] + source + [build],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail("build-testsuites failed:\n" + proc.stdout + proc.stderr,
                    pytrace=False)
    return build


@pytest.mark.trixie_lane
def test_ovs_autotest(scenario):
    """The STT cases of system-stt.at (ping up to 8972 bytes against a
    plain stt device; key=flow with a 64-bit tun_id and remote_ip=flow in
    the datapath flow; 802.1Q inside; a non-default dst_port) on every
    kernel, all with vport_stt loaded by the start macro; and Open vSwitch's
    stock vxlan, geneve and gre ping tests on the newest Debian 12 kernel
    only.  The stock tests are Open vSwitch's own: what they show is that
    loading vport_stt leaves the other tunnel types working, which does not
    depend on the kernel series or the Open vSwitch version, and each costs
    a minute of emulated Open vSwitch start and stop."""
    scenario.skip_on_debug_kernel("dev-ovs and ovs-keys (an Open vSwitch "
                                  "port against a plain stt device; "
                                  "key=flow, remote_ip=flow, 802.1Q)")
    modules = scenario.modules()
    stock = [] if scenario.on_newest_selected_distro_kernel() else \
        ["stt-only"]
    scenario.run("ovs-autotest.sh", build_testsuites(scenario), *stock,
                 modules_dir=modules, timeout=400)
