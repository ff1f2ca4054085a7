# SPDX-License-Identifier: GPL-2.0
"""Smoke test of the guest rig with a stock tunnel: two Open vSwitch hosts
joined by VXLAN.  It tells a broken rig from a broken STT module; the rig
does not depend on the kernel, so the newest one is enough."""

import pytest

from conftest import installed_kernels


def test_vxlan_smoke(scenario):
    newest = installed_kernels()[-1][1]
    if scenario.release != newest:
        pytest.skip("the rig's smoke test runs on the newest kernel only")
    scenario.run("vxlan-smoke.sh", "vxlan", timeout=480)
