# SPDX-License-Identifier: GPL-2.0
"""tools/stt-wire against the reference captures (tests/unit/reference),
as made and with one field of a frame made wrong: each wrong field gives
the failure line that names it and exit status 1, so that a check of the guest
scenarios cannot pass because stt-wire stopped looking.  Boots no guest
("make check", through test-host-side.sh)."""

import importlib.machinery
import importlib.util
import os
import struct
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
STT_WIRE = os.path.join(HERE, "tools", "stt-wire")
# stt-replay, loaded below as a module, imports stt_pcap from there.
sys.path.insert(0, os.path.join(HERE, "tools"))
REFERENCE = os.path.join(HERE, "..", "unit", "reference")
CONTEXT = "0x1122334455667788"
# The first packet of a reference capture: pcap file and record headers,
# then Ethernet, IPv4 and the STT "TCP" header, each without options.
PACKET = 24 + 16
IPV4 = PACKET + 14
STT = IPV4 + 20 + 20


def stt_wire(pcap, *options):
    run = subprocess.run([sys.executable, STT_WIRE, *options, pcap],
                         capture_output=True, text=True, check=False)
    return run.returncode, run.stdout + run.stderr


def checksum_field(data):
    """The checksum field that makes DATA (whose field reads 0) hold its
    own correct Internet checksum: see checksum_holds() below."""
    remainder = int.from_bytes(data + b"\0" * (len(data) % 2), "big") % 0xffff
    return 0xffff - remainder


def changed(tmp_path, name, offset, value, fix_checksum=True):
    """A copy of reference capture NAME with byte OFFSET of the packet that
    holds the STT header (the frame's first segment, not always the first
    packet) set to VALUE; OFFSET as if that packet came first.  The TCP
    checksum of that packet is made right again unless FIX_CHECKSUM is
    false, so that the byte changed is the one thing wrong."""
    with open(os.path.join(REFERENCE, name + ".pcap"), "rb") as f:
        data = bytearray(f.read())
    record = 24
    while struct.unpack_from("!I", data, record + 16 + IPV4 - PACKET + 24)[0] \
            & 0xffff:
        record += 16 + struct.unpack_from("<I", data, record + 8)[0]
    data[offset - 24 + record] = value
    if fix_checksum:
        ip = record + 16 + IPV4 - PACKET
        total, = struct.unpack_from("!H", data, ip + 2)
        tcp = ip + 20
        data[tcp + 16:tcp + 18] = b"\0\0"
        pseudo = data[ip + 12:ip + 20] + struct.pack("!BBH", 0, 6, total - 20)
        struct.pack_into("!H", data, tcp + 16,
                         checksum_field(bytes(pseudo + data[tcp:ip + total])))
    path = tmp_path / (name + ".pcap")
    path.write_bytes(bytes(data))
    return str(path)


@pytest.mark.parametrize("name", ["single-tcp", "multi-segment", "vlan",
                                  "ipv6-inner", "udp", "arp"])
def test_reference_passes(name):
    status, out = stt_wire(os.path.join(REFERENCE, name + ".pcap"),
                           "--context", CONTEXT, "--df", "set", "--ttl",
                           "64", "--srcport", "50001-50006", "--vlan", "100")
    assert status == 0 and "FAIL" not in out, out


def test_requirements_met():
    pcaps = [os.path.join(REFERENCE, n + ".pcap")
             for n in ("multi-segment", "vlan", "ipv6-inner", "udp")]
    for pcap, kind in zip(pcaps, ("mss", "vlan", "ipv6", "udp")):
        status, out = stt_wire(pcap, "--require", kind)
        assert status == 0, out
    status, out = stt_wire(pcaps[0], "--require", "vlan")
    assert status == 1 and "FAIL no frame of the kind required: vlan" in out


# (capture, byte, value, the failure stt-wire must name)
WRONG = [
    ("single-tcp", STT + 1, 0x06, "TCP flag does not match"),
    ("single-tcp", STT + 1, 0x0a, "IPv4 flag does not match"),
    ("udp", STT + 1, 0x0e, "TCP flag does not match"),
    ("single-tcp", STT + 1, 0x0f, "checksum verified and partial both set"),
    ("single-tcp", STT + 1, 0x1e, "reserved flag bits set"),
    ("single-tcp", STT + 0, 1, "version not 0"),
    ("single-tcp", STT + 2, 38, "L4 offset is not where"),
    ("single-tcp", STT + 3, 1, "reserved byte or padding not 0"),
    ("single-tcp", STT + 1, 0x0c, "L4 offset or MSS without checksum"),
    ("vlan", STT + 6, 0x60, "VLAN field without the V bit not 0"),
    ("vlan", STT + 7, 101, "VLAN id not one expected"),
    ("vlan", STT + 15, 0x89, "context id"),
    ("arp", STT + 1, 0x02, "checksum partial on a frame that is not IP"),
    # The MSS (1460) below 256, then above the payload of two MSS.
    ("multi-segment", STT + 4, 0x00, "MSS below 256"),
    ("multi-segment", STT + 4, 0x0b, "MSS on a packet that needs no"),
    # The inner TCP checksum field of a frame with checksum partial.
    ("single-tcp", STT + 18 + 34 + 16, 0, "not the pseudo-header's sum"),
    # The outer header: TTL, DF, source port, destination port.
    ("single-tcp", IPV4 + 8, 63, "TTL or hop limit not as configured"),
    ("single-tcp", IPV4 + 6, 0x00, "DF clear, --df set"),
    ("single-tcp", IPV4 + 20, 0x10, "source port outside 50001-50006"),
    ("single-tcp", IPV4 + 23, 0x30, "not to the STT port 7471"),
    # The frame length in the sequence number: the frame is incomplete.
    ("single-tcp", IPV4 + 24, 0x01, "frame incomplete"),
    # The TCP-like header: data offset, flags, window, urgent pointer.
    ("single-tcp", IPV4 + 20 + 12, 0x60, "TCP header not data offset 5"),
    ("single-tcp", IPV4 + 20 + 13, 0x19, "TCP header not data offset 5"),
    ("single-tcp", IPV4 + 20 + 14, 0x7f, "TCP header not data offset 5"),
    ("single-tcp", IPV4 + 20 + 19, 0x01, "TCP header not data offset 5"),
    # PSH off the last segment, then on the first of three.
    ("single-tcp", IPV4 + 20 + 13, 0x10, "PSH not on exactly the last"),
    ("multi-segment", IPV4 + 20 + 13, 0x18, "PSH not on exactly the last"),
]


@pytest.mark.parametrize("name,offset,value,failure", WRONG)
def test_wrong_field_fails(tmp_path, name, offset, value, failure):
    pcap = changed(tmp_path, name, offset, value)
    status, out = stt_wire(pcap, "--context", CONTEXT, "--df", "set",
                           "--ttl", "64", "--srcport", "50001-50006",
                           "--vlan", "100")
    assert status == 1, out
    assert any(failure in line for line in out.splitlines()
               if line.startswith("stt-wire: FAIL")), out


def test_tcp_checksum_wrong_fails(tmp_path):
    for offset in (IPV4 + 20 + 16, STT + 10):
        status, out = stt_wire(changed(tmp_path, "single-tcp", offset, 0x5a,
                                       fix_checksum=False))
        assert status == 1 and "FAIL TCP checksum wrong: 1" in out, out


def ipv6_capture(tmp_path, labels):
    """A capture of single-tcp's segment over IPv6, once per flow label of
    LABELS, each time as another frame (acknowledgment number) from the
    same source port."""
    segment = bytearray(replay_module().tcp_segment(
        replay_module().pcap_frames(os.path.join(REFERENCE,
                                                 "single-tcp.pcap"))[0]))
    records = b""
    for frame_id, label in enumerate(labels, 1):
        struct.pack_into("!I", segment, 8, frame_id)
        _, packet = replay_module().outer("2001:db8::1", "2001:db8::2",
                                          bytes(segment))
        packet = struct.pack("!I", 6 << 28 | label) + packet[4:]
        frame = b"\2" * 6 + b"\4" * 6 + b"\x86\xdd" + packet
        records += struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame
    path = tmp_path / "ipv6.pcap"
    path.write_bytes(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535,
                                 1) + records)
    return str(path)


@pytest.mark.parametrize("labels,failure", [
    ((0x12345, 0x12345), None),
    ((0x12345, 0x54321), "IPv6 flow label not one, or 0"),
    ((0, 0), "IPv6 flow label not one, or 0"),
])
def test_ipv6_flow_label_per_source_port(tmp_path, labels, failure):
    status, out = stt_wire(ipv6_capture(tmp_path, labels))
    if failure is None:
        assert status == 0, out
    else:
        assert status == 1 and "FAIL " + failure in out, out


def test_ttl_inherit_and_df_inherit(tmp_path):
    """The reference frames' inner packets have TTL 64 and DF set (IPv4),
    the ARP frame neither: inherit takes the default given for it."""
    for name in ("single-tcp", "udp", "ipv6-inner"):
        status, out = stt_wire(os.path.join(REFERENCE, name + ".pcap"),
                               "--ttl", "inherit:99", "--df", "inherit")
        assert status == 0, out
    status, out = stt_wire(os.path.join(REFERENCE, "arp.pcap"),
                           "--ttl", "inherit:99")
    assert status == 1 and "64, expected 99" in out, out
    # Inner TTL 63 in single-tcp: the outer 64 is then not inherited.
    status, out = stt_wire(changed(tmp_path, "single-tcp",
                                   STT + 18 + 14 + 8, 63),
                           "--ttl", "inherit")
    assert status == 1 and "64, expected 63 (inherited)" in out, out


def test_from_restricts_outer_checks():
    pcap = os.path.join(REFERENCE, "single-tcp.pcap")
    status, out = stt_wire(pcap, "--from", "192.0.2.9", "--ttl", "1")
    assert status == 1 and "FAIL no segment from 192.0.2.9" in out, out
    status, out = stt_wire(pcap, "--from", "192.0.2.1", "--ttl", "64")
    assert status == 0, out


def duplicated(tmp_path, name, record_index):
    """A copy of reference capture NAME with its RECORD_INDEX-th packet
    (from 0) appearing twice in a row."""
    with open(os.path.join(REFERENCE, name + ".pcap"), "rb") as f:
        data = f.read()
    start = 24
    for _ in range(record_index):
        start += 16 + struct.unpack_from("<I", data, start + 8)[0]
    end = start + 16 + struct.unpack_from("<I", data, start + 8)[0]
    path = tmp_path / (name + "-twice.pcap")
    path.write_bytes(data[:end] + data[start:end] + data[end:])
    return str(path)


# multi-segment's three packets: the frame's last, first and middle
# segment.
@pytest.mark.parametrize("name,record_index", [("single-tcp", 0),
                                               ("multi-segment", 0),
                                               ("multi-segment", 1),
                                               ("multi-segment", 2)])
def test_segment_sent_twice_fails(tmp_path, name, record_index):
    """A segment sent twice is the sender's fault, even when one copy
    completes the frame; nor does a frame seen twice count as one of
    several segments."""
    status, out = stt_wire(duplicated(tmp_path, name, record_index),
                           "--require", "multi", "--df", "inherit",
                           "--ttl", "inherit")
    assert status == 1, out
    assert "FAIL frame incomplete, overlapping or inconsistent" in out, out
    # Nothing to inherit from a frame that did not reassemble: no DF or
    # TTL failure besides.
    assert "FAIL DF" not in out and "FAIL TTL" not in out, out


def test_usage_and_unreadable_capture_exit_2(tmp_path):
    status, out = stt_wire(os.path.join(REFERENCE, "single-tcp.pcap"),
                           "--from", "192.0.2")
    assert status == 2 and "--from: not an IPv4 or IPv6 address" in out, out
    cut = tmp_path / "cut.pcap"
    with open(os.path.join(REFERENCE, "single-tcp.pcap"), "rb") as f:
        cut.write_bytes(f.read()[:30])
    status, out = stt_wire(str(cut))
    assert status == 2 and "stt-wire:" in out, out
    status, out = stt_wire(str(tmp_path / "missing.pcap"))
    assert status == 2 and "missing.pcap" in out, out


def checksum_holds(data):
    """DATA holds its own correct Internet checksum: the one's-complement
    sum of its 16-bit words is 0xffff.  Worked out without stt_pcap's sum,
    which stt-replay uses: as 2**16 is 1 modulo 0xffff, that sum is the
    number DATA spells, modulo 0xffff."""
    return int.from_bytes(data + b"\0" * (len(data) % 2), "big") % 0xffff == 0


def replay_module():
    """tools/stt-replay, loaded as a module."""
    path = os.path.join(HERE, "tools", "stt-replay")
    loader = importlib.machinery.SourceFileLoader("stt_replay", path)
    spec = importlib.util.spec_from_loader("stt_replay", loader)
    replay = importlib.util.module_from_spec(spec)
    loader.exec_module(replay)
    return replay


def test_replay_rewrites_outer_header():
    """stt-replay's segments carry a correct TCP checksum for their new
    addresses: summed with the pseudo-header it gives 0xffff."""
    replay = replay_module()
    frame = replay.pcap_frames(os.path.join(REFERENCE,
                                            "single-tcp.pcap"))[0]
    segment = replay.tcp_segment(frame)
    for src, dst, ethertype in (("192.0.2.7", "192.0.2.8", 0x0800),
                                ("2001:db8::7", "2001:db8::8", 0x86dd)):
        got, packet = replay.outer(src, dst, segment)
        assert got == ethertype
        header = 20 if ethertype == 0x0800 else 40
        tcp = packet[header:]
        assert tcp[:16] == segment[:16] and tcp[18:] == segment[18:]
        if ethertype == 0x0800:
            assert checksum_holds(packet[:20])
            pseudo = packet[12:20] + struct.pack("!BBH", 0, 6, len(tcp))
        else:
            pseudo = packet[8:40] + struct.pack("!IxxxB", len(tcp), 6)
        assert checksum_holds(pseudo + tcp)
