# SPDX-License-Identifier: GPL-2.0
"""STT over emulated hardware NICs rather than veth (run-guest --nic): the
receive path meets the skbs real drivers build, with and without GRO, and
what hosts put around them (packet sockets, tc mirred, NFQUEUE, Open vSwitch
upcalls).  Per installed kernel, with the STT modules under test:

    /usr/bin/python3 -m pytest -v tests/guest/test_hardware.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'

One guest boot per test; scenarios/nic-underlay.sh says what each does.
Transfers over emulated NICs without KVM are slow: the timeouts are bounds
for a busy 2-core machine, not expected durations.
"""

# host1/a gets the first NIC, host2/b the second (by PCI address).  Without
# mergeable receive buffers virtio-net receives each frame into a buffer of
# its own; e1000e is an Intel driver with its own checksum and TSO offloads.
NICS = ("e1000e", "virtio-net-pci,mrg_rxbuf=off")


def test_nic_underlay_dev(scenario):
    """Two plain stt devices over e1000e and virtio-net: every combination
    of receiver GRO and sender TSO, clones from a packet socket and tc
    mirred, an NFQUEUE consumer in front of the STT hook."""
    scenario.on_debug_kernel_instead()
    scenario.run("nic-underlay.sh", "dev", modules_dir=scenario.modules(),
                 timeout=1500, nics=NICS)


def test_nic_underlay_ovs(scenario):
    """Open vSwitch over the same NICs, with every TCP packet on host2 sent
    to userspace (a controller upcall) as well as forwarded: the kernel
    segments the GSO packets STT hands on before it queues them."""
    scenario.skip_on_debug_kernel("nic-underlay dev (the same drivers and "
                                  "receive paths) and dev-ovs")
    scenario.run("nic-underlay.sh", "ovs", modules_dir=scenario.modules(),
                 timeout=1200, nics=NICS)
