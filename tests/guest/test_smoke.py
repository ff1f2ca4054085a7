# SPDX-License-Identifier: GPL-2.0
"""Smoke tests of the guest rig with stock tunnels: two Open vSwitch hosts
in one guest, per installed kernel."""


def test_vxlan_smoke(scenario):
    scenario.run("vxlan-smoke.sh", "vxlan", timeout=480)
