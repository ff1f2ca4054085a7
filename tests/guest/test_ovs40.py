# SPDX-License-Identifier: GPL-2.0
"""Open vSwitch 4.0 with the STT series of ovs-glue/ovs-4.0, end to end:
type=stt is an external stt device made over rtnetlink and attached as a
netdev vport, without vport-stt:

    ovs-glue/build-ovs          # once per machine, prints the prefix
    /usr/bin/python3 -m pytest -v tests/guest/test_ovs40.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'

The test skips, saying how to build it, when that Open vSwitch is not built.
"""
import os
import subprocess

import pytest

BUILD_OVS = os.path.join(os.path.dirname(os.path.realpath(__file__)),
                         "..", "..", "ovs-glue", "build-ovs")


def built_ovs_prefix():
    """The prefix of the patched Open vSwitch 4.0; skips the test when it
    is not built (build-ovs --if-built builds nothing)."""
    out = subprocess.run([BUILD_OVS, "--if-built"], capture_output=True,
                         text=True)
    if out.returncode != 0:
        pytest.fail("ovs-glue/build-ovs --if-built failed:\n" + out.stderr,
                    pytrace=False)
    if not out.stdout.strip():
        pytest.skip("Open vSwitch 4.0 with the STT series is not built: "
                    "run ovs-glue/build-ovs (a cold build took 7 to 14 "
                    "minutes on this 2-core machine)")
    return out.stdout.strip()


def test_ovs40_stt(scenario):
    """ovs-vsctl add-port ... type=stt options:remote_ip=flow
    options:key=flow with vport-stt unloaded; 64-bit keys and remote_ip from
    OpenFlow in the datapath flows; ping and 64 MiB with SHA-256."""
    scenario.skip_on_debug_kernel(
        "ovs-keys (the same external device, metadata receive and "
        "set(tunnel()) transmit) and stt-device (rtnetlink creation)")
    scenario.run("ovs40-stt.sh", built_ovs_prefix(),
                 modules_dir=scenario.modules(), timeout=600)


def test_ovs40_autotest(scenario):
    """The STT cases of the patched tree's own system-traffic.at, run by
    its system-kmod-testsuite."""
    scenario.skip_on_debug_kernel("ovs-keys and dev-ovs")
    scenario.run("ovs40-autotest.sh", built_ovs_prefix(),
                 modules_dir=scenario.modules(), timeout=600)
