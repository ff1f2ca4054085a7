# SPDX-License-Identifier: GPL-2.0
"""Classic pcap files and the Internet checksum, for stt-wire and
stt-replay: only struct, as both run in software-emulated guests."""

import struct

LINKTYPE_ETHERNET = 1
LINKTYPE_LINUX_SLL = 113


def read_pcap(path):
    """(link type, [packet, ...]) of a classic pcap file, in its order.
    ValueError, naming PATH, for anything but a whole classic pcap: a
    packet cut by the snap length or a file cut in a record."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError("%s: no pcap header" % path)
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        order = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        order = ">"
    else:
        raise ValueError("%s: not a classic pcap file (pcapng?)" % path)
    linktype, = struct.unpack_from(order + "I", data, 20)
    record = struct.Struct(order + "IIII")
    pos, packets = 24, []
    while pos < len(data):
        if pos + record.size > len(data):
            raise ValueError("%s: the record after packet %d cut short"
                             % (path, len(packets)))
        _, _, caplen, wirelen = record.unpack_from(data, pos)
        pos += record.size
        if caplen < wirelen or pos + caplen > len(data):
            raise ValueError("%s: packet %d truncated (snaplen?)"
                             % (path, len(packets) + 1))
        packets.append(data[pos:pos + caplen])
        pos += caplen
    return linktype, packets


def csum_sum(data, start=0):
    """One's-complement sum of DATA as 16-bit words, folded, not inverted."""
    if len(data) % 2:
        data = bytes(data) + b"\0"
    total = start + sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return total


def csum(data):
    """The Internet checksum of DATA, as a header's checksum field holds
    it (0 over data that holds its own correct checksum)."""
    return ~csum_sum(data) & 0xffff
