# SPDX-License-Identifier: GPL-2.0
"""Faults, per installed kernel: a lossy, reordering, duplicating and
corrupting underlay, and devices, ports, Open vSwitch, namespaces and the
modules going away under traffic.

    /usr/bin/python3 -m pytest -v tests/guest/test_faults.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'

Timeouts are bounds for a busy 2-core machine, not expected durations.
"""


def test_faults_netem(scenario):
    """netem on the underlay's segments (loss 1% and 5%, reordering 25%,
    jitter, duplication 5%, corruption 1%): every file arrives intact, the
    counters account for every segment and frame, and reassembly is empty
    once reasm_timeout_ms has passed."""
    scenario.on_debug_kernel_instead()
    scenario.run("faults-netem.sh", modules_dir=scenario.modules(),
                 timeout=600)


def test_lifecycle_dev(scenario):
    """Plain devices: two namespaces busy on the same port at once, a
    device down and up mid-transfer, namespaces (a device's own, an
    underlay's) deleted under traffic, stt unloaded under traffic.  Two
    CPUs, so that teardown races with traffic on another CPU."""
    scenario.on_debug_kernel_instead()
    scenario.run("lifecycle-dev.sh", modules_dir=scenario.modules(),
                 timeout=600, cpus=2)


def test_lifecycle_ovs(scenario):
    """Open vSwitch: an stt port deleted and added again, ovs-vswitchd
    restarted, both mid-transfer; the modules refuse to unload while a port
    exists.  Two CPUs, as for the plain devices."""
    scenario.on_debug_kernel_instead()
    scenario.run("lifecycle-ovs.sh", modules_dir=scenario.modules(),
                 timeout=600, cpus=2)
