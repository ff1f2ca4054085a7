# SPDX-License-Identifier: GPL-2.0
"""The stt device without Open vSwitch, per installed kernel."""


def test_stt_device(scenario):
    scenario.run("stt-device.sh", modules_dir=scenario.modules(), timeout=300)


def test_stt_ctl(scenario):
    """Every stt-ctl verb and error path against the module, external and
    fixed-peer, including link-netns and the kernel's refusal messages."""
    scenario.run("stt-ctl.sh", modules_dir=scenario.modules(), timeout=600)
