/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Open vSwitch's vport type for STT, and the module alias openvswitch.ko
 * asks for when a port of that type is added and no module registered it.
 * vport-stt.ko answers it, and so does its standin (vport-standin.c), so
 * that the port's failure on a kernel the real one was not built for ends
 * in a kernel log line saying why.
 */
#ifndef _STT_VPORT_TYPE_H
#define _STT_VPORT_TYPE_H

#include <linux/stringify.h>

/* Upstream never named it; Open vSwitch userspace uses this number. */
#define OVS_VPORT_TYPE_STT 106
#define STT_VPORT_ALIAS "vport-type-" __stringify(OVS_VPORT_TYPE_STT)

#endif /* _STT_VPORT_TYPE_H */
