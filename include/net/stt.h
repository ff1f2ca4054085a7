/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What stt.ko exports to other modules (vport-stt.ko).
 */
#ifndef _NET_STT_H
#define _NET_STT_H

#include <linux/types.h>

struct net;
struct net_device;

/*
 * Creates, registers and configures an external-mode stt device receiving on
 * @dst_port (host order) in @net, as Open vSwitch needs it.  Under RTNL.
 */
struct net_device *stt_dev_create_fb(struct net *net, const char *name,
				     u8 name_assign_type, u16 dst_port);

/* The destination port (host order) an stt device receives on. */
u16 stt_dev_dst_port(const struct net_device *dev);

#endif /* _NET_STT_H */
