# SPDX-License-Identifier: GPL-2.0
"""Hostile input from the underlay, per installed kernel, with the STT
modules under test:

    /usr/bin/python3 -m pytest -v tests/guest/test_hostile.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'

tools/stt-attack crafts the input; `stt-attack --list` names every class.
Timeouts are bounds for a busy 2-core machine, not expected durations.
"""


def test_hostile(scenario):
    """Every class of malformed, conflicting or abusive STT input, and a
    flood of 20000 first segments, while 64 MiB cross the tunnel: each
    class moves exactly its own counter and is never answered, reassembly
    memory reaches its bound and never exceeds it, drains within the
    timeout, and the transfer arrives whole.  Two CPUs: the attack and
    the transfer are received side by side."""
    scenario.on_debug_kernel_instead()
    scenario.run("hostile.sh", modules_dir=scenario.modules(), timeout=600,
                 cpus=2)


def test_hostile_unclaimed(scenario):
    """Where no stt device uses the port (no device in the namespace, or
    one on another port), STT input is the TCP stack's and no stt counter
    moves; with a device on the port nothing answers."""
    scenario.skip_on_debug_kernel("hostile (the same receive hook and drops)")
    scenario.run("hostile-unclaimed.sh", modules_dir=scenario.modules(),
                 timeout=300)


def test_underlay_policy(scenario):
    """STT protected by ESP (transport mode, static SAs): encrypted on the
    wire, the transfer whole; plaintext STT from a neighbour without an SA
    is refused by the inbound policy and counted (rx_err_xfrm_policy),
    never decapsulated, and accepted once the policy is gone.  STT spoofing
    another underlay address is dropped by rp_filter=1 before the STT
    receive path, as VXLAN's UDP is, and received with rp_filter=0."""
    scenario.on_debug_kernel_instead()
    scenario.run("underlay-policy.sh", modules_dir=scenario.modules(),
                 timeout=400)


def test_ovs_ipsec(scenario):
    """Two Open vSwitch hosts with type=stt options:psk=... as operators
    set up IPsec: ovs-monitor-ipsec and strongSwan's charon (each host's
    own) bring up the IKE SA and both transport-mode CHILD_SAs, a ping and
    2 MiB cross with SHA-256 matching, and the underlay carries IKE and ESP
    but no plaintext TCP.  Plaintext STT to an Open vSwitch host from a
    third address is refused by the inbound policy of the drop shunt that
    other_config:ipsec_skb_mark asks for (its use time shows it was that
    policy): rx_err_xfrm_policy counts every frame, rx_frames does not
    move, no datapath flow from that address appears; without the shunt
    the same frames are received."""
    scenario.skip_on_debug_kernel("underlay-policy (ESP in transport mode, "
                                  "the inbound policy's drop) and ovs-keys")
    scenario.run("ovs-ipsec.sh", modules_dir=scenario.modules(),
                 timeout=400)
