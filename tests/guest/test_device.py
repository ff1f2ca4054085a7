# SPDX-License-Identifier: GPL-2.0
"""The stt device without Open vSwitch, per installed kernel."""


def test_stt_device(scenario):
    scenario.skip_on_debug_kernel("lifecycle-dev and dev-ovs (devices made, "
                                  "refused and torn down)")
    scenario.run("stt-device.sh", modules_dir=scenario.modules(), timeout=300)


def test_stt_ctl(scenario):
    """Every stt-ctl verb and error path against the module, external and
    fixed-peer, including link-netns and the kernel's refusal messages, and
    the iproute2 plugin against stt-ctl."""
    scenario.skip_on_debug_kernel("lifecycle-dev and dev-ovs (the same "
                                  "rtnetlink paths; the rest is userspace)")
    scenario.run("stt-ctl.sh", modules_dir=scenario.modules(), timeout=600)


def test_dev_dev(scenario):
    """Fixed-peer device against fixed-peer device, no Open vSwitch."""
    scenario.skip_on_debug_kernel("lifecycle-dev and underlay-routes")
    scenario.run("dev-dev.sh", modules_dir=scenario.modules(), timeout=700)


def test_dev_ovs(scenario):
    """Open vSwitch (type=stt, key=flow) against a fixed-peer device."""
    scenario.on_debug_kernel_instead()
    scenario.run("dev-ovs.sh", modules_dir=scenario.modules(), timeout=700)


def test_dev_netns(scenario):
    """Devices of one underlay namespace serving two others (link-netns)."""
    scenario.skip_on_debug_kernel("lifecycle-dev (link-netns devices whose "
                                  "namespaces go under traffic)")
    scenario.run("dev-netns.sh", modules_dir=scenario.modules(), timeout=500)


def test_inner_marks(scenario):
    """VLAN tags and ECN across the tunnel: an 802.1Q tag rides in the
    STT header and an 802.1ad tag stays an 802.1ad tag; VLAN devices on
    stt keep its offloads; CE on the outer header reaches the inner
    packets, and CE on a Not-ECT packet drops it (rx_err_ecn)."""
    scenario.on_debug_kernel_instead()
    scenario.run("inner-marks.sh", modules_dir=scenario.modules(),
                 timeout=400)


def test_underlay_routes(scenario):
    """What the underlay's routes do to STT.  A router with a 1400-byte
    link between two devices that set DF: the sender learns the path MTU
    from the router's ICMP errors (pmtu_updates) and the transfer arrives
    whole.  A route for TOS 0x10 over a second link: with "tos
    inherit" each frame takes the route of its own TOS."""
    scenario.on_debug_kernel_instead()
    scenario.run("underlay-routes.sh", modules_dir=scenario.modules(),
                 timeout=400)
