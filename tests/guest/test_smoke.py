# SPDX-License-Identifier: GPL-2.0
"""Smoke test of the guest rig with a stock tunnel: two Open vSwitch hosts
joined by VXLAN.  It tells a broken rig from a broken STT module; the rig
does not depend on the kernel, so the newest distro kernel is enough."""

import pytest

from conftest import newest_distro_kernel


def test_vxlan_smoke(scenario):
    if scenario.release != newest_distro_kernel():
        pytest.skip("the rig's smoke test runs on the newest distro kernel "
                    "only")
    scenario.run("vxlan-smoke.sh", "vxlan", timeout=480)
