/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stt network device (rtnetlink kind "stt") and per-namespace state.
 */
#ifndef _STT_DEVICE_H
#define _STT_DEVICE_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <net/gro_cells.h>

struct stt_port;

/* What the user asked for; fixed for the device's life. */
struct stt_config {
	__be16 dst_port;
	bool collect_md;		/* external: per-packet tunnel metadata */
};

struct stt_dev {
	struct net_device *dev;
	struct net *net;		/* underlay namespace */
	struct list_head next;		/* in stt_net.dev_list of ->net */
	struct stt_port *port;		/* from ndo_init to ndo_uninit */
	struct gro_cells gro_cells;
	u32 __percpu *frame_id;		/* per-CPU frame id cursor */
	struct stt_counters __percpu *counters;
	struct stt_config cfg;
};

struct stt_net {
	struct list_head dev_list;	/* devices whose underlay is here */
	struct list_head port_list;	/* receive ports open here */
};

struct stt_net *stt_net(struct net *net);

int stt_device_init(void);
void stt_device_uninit(void);

#endif /* _STT_DEVICE_H */
