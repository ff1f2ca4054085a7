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

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))
BUILD_TESTSUITES = os.path.join(REPO, "ovs-glue", "autotest",
                                "build-testsuites")


def build_testsuites():
    """The testsuite build directory, built (or found current) now."""
    build = os.path.join(REPO, "_build", "ovs-autotest")
    proc = subprocess.run([BUILD_TESTSUITES, build], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        pytest.fail("build-testsuites failed:\n" + proc.stdout + proc.stderr,
                    pytrace=False)
    return build


def test_ovs_autotest(scenario):
    """The STT cases of system-stt.at (ping up to 8972 bytes against a
    plain stt device; key=flow with a 64-bit tun_id and remote_ip=flow in
    the datapath flow; 802.1Q inside; a non-default dst_port) and Open
    vSwitch's stock vxlan, geneve and gre ping tests, all with vport_stt
    loaded by the start macro."""
    scenario.skip_on_debug_kernel("dev-ovs and ovs-keys (an Open vSwitch "
                                  "port against a plain stt device; "
                                  "key=flow, remote_ip=flow, 802.1Q)")
    modules = scenario.modules()
    scenario.run("ovs-autotest.sh", build_testsuites(), modules_dir=modules,
                 timeout=400)
