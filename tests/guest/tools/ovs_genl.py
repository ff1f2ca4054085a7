# SPDX-License-Identifier: GPL-2.0
"""Generic netlink as ovs-vswitchd speaks it to openvswitch.ko, for the
tools beside this file that ask the kernel what Open vSwitch would not say
(ovs-vport-new, ovs-vport-type).  Raw sockets and struct only: nothing the
guest lacks."""
import socket
import struct
import sys

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK, NLM_F_CREATE, NLM_F_EXCL = 1, 4, 0x400, 0x200
NLMSG_ERROR = 2
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
OVS_VPORT_CMD_NEW, OVS_VPORT_CMD_GET = 1, 3
OVS_VPORT_ATTR_TYPE, OVS_VPORT_ATTR_NAME = 2, 3
OVS_VPORT_ATTR_OPTIONS, OVS_VPORT_ATTR_UPCALL_PID = 4, 5
NLA_F_NESTED = 0x8000
# nlmsghdr, genlmsghdr, struct ovs_header: where a reply's attributes start.
OVS_ATTRS_OFFSET = 16 + 4 + 4


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + b"\0" * (-n % 4)


def attrs(msg, off):
    """{type: payload} of the attributes of MSG from OFF on."""
    found = {}
    while off + 4 <= len(msg):
        n, kind = struct.unpack_from("=HH", msg, off)
        if n < 4:
            break
        found[kind & ~NLA_F_NESTED] = msg[off + 4:off + n]
        off += (n + 3) & ~3
    return found


def request(sock, family, cmd, payload, flags=0, version=1):
    """Sends one request; returns the first message of the answer (with
    NLM_F_ACK in FLAGS, an error message: the acknowledgment)."""
    body = struct.pack("=BBH", cmd, version, 0) + payload
    sock.send(struct.pack("=IHHII", 16 + len(body), family,
                          NLM_F_REQUEST | flags, 1, 0) + body)
    return sock.recv(65536)


def error_of(reply):
    """The positive errno of an error message, 0 for an acknowledgment,
    None if REPLY is not an error message."""
    if struct.unpack_from("=H", reply, 4)[0] != NLMSG_ERROR:
        return None
    return -struct.unpack_from("=i", reply, 16)[0]


def open_family(tool, name):
    """A bound generic netlink socket and the id of family NAME."""
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    reply = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                    attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
    family = attrs(reply, 16 + 4).get(CTRL_ATTR_FAMILY_ID)
    if family is None:
        sys.exit("%s: no generic netlink family %s" % (tool, name))
    return sock, struct.unpack("=H", family[:2])[0]
