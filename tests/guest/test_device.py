# SPDX-License-Identifier: GPL-2.0
"""The stt device without Open vSwitch, per installed kernel."""


def test_stt_device(scenario):
    scenario.run("stt-device.sh", modules_dir=scenario.modules(), timeout=300)
