# SPDX-License-Identifier: GPL-2.0
"""Open vSwitch over STT, end to end: two Open vSwitch hosts in one guest
joined by type=stt ports, per installed kernel, with the STT modules under
test (stt.ko, vport-stt.ko):

    /usr/bin/python3 -m pytest -v tests/guest/test_ovs_stt.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'

Each test boots a fresh guest and runs one scenario in scenarios/; a test
fails, naming what to pass, when the module build for its kernel is missing.
Timeouts are bounds for a busy 2-core machine, not expected durations.
"""
import os
import subprocess

import pytest


@pytest.mark.trixie_lane
def test_ovs_basic(scenario):
    """ovs-vsctl alone makes openvswitch.ko load vport-stt; ping of every
    size, iperf3 and 64 MiB with SHA-256 both work; counters balance; the
    ovs-vswitchd log has no warning but Open vSwitch 3.5's deprecation of
    type=stt."""
    scenario.skip_on_debug_kernel("ovs-keys, dev-ovs and ovs-churn")
    # The Debian 13 lane's guest has its own root: DKMS installed the
    # package on this host, not there.
    if scenario.config.getoption("stt_packaged") and \
            not scenario.on_trixie_lane():
        # No module directory: the guest sees the host's /lib/modules, where
        # DKMS installed the package's build.
        version = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "stt-dkms"],
            capture_output=True, text=True, check=True).stdout
        scenario.run("ovs-basic.sh", version, "updates/dkms", timeout=600)
    else:
        modules = scenario.modules()
        version = subprocess.run(
            ["modinfo", "-F", "version", os.path.join(modules, "stt.ko")],
            capture_output=True, text=True, check=True).stdout.strip()
        scenario.run("ovs-basic.sh", version, modules_dir=modules,
                     timeout=600)


def test_ovs_keys(scenario):
    """Fixed keys, key=flow, remote_ip=flow and 802.1Q inner frames."""
    scenario.only_on_debug_kernel("ovs-autotest's STT cases (key=flow with "
                                  "a 64-bit tun_id, remote_ip=flow, 802.1Q, "
                                  "another id unanswered)")
    scenario.run("ovs-keys.sh", modules_dir=scenario.modules(), timeout=600)


def test_ovs_firewall(scenario):
    """STT through a stateful nftables policy with conntrack loaded;
    conntrack never sees an STT segment."""
    scenario.skip_on_debug_kernel("underlay-policy (netfilter around the "
                                  "STT hook) and ovs-keys")
    scenario.run("ovs-firewall.sh", modules_dir=scenario.modules(),
                 timeout=600)


def test_ovs_churn(scenario):
    """100 del-port/add-port cycles under traffic, then vport_stt and stt
    unload and leave no device behind."""
    scenario.on_debug_kernel_instead()
    scenario.run("ovs-churn.sh", modules_dir=scenario.modules(), timeout=900)


def test_ovs_conformance(scenario):
    """Real segments on the wire, judged by tshark's STT dissector and by
    scapy's checksums."""
    scenario.skip_on_debug_kernel("dev-ovs (judged the same way), "
                                  "ovs-keys and nic-underlay dev")
    scenario.run("ovs-conformance.sh", modules_dir=scenario.modules(),
                 timeout=600)
