/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-namespace state: the devices whose underlay is a namespace and the
 * receive ports open in it.
 */
#ifndef _STT_NETNS_H
#define _STT_NETNS_H

#include <linux/atomic.h>
#include <linux/list.h>

struct net;

struct stt_net {
	struct list_head dev_list;	/* devices whose underlay is here */
	struct list_head port_list;	/* receive ports open here */
	atomic_t reasm_mem;		/* what their reassembly tables hold */
};

struct stt_net *stt_net(struct net *net);

int stt_netns_init(void);
void stt_netns_uninit(void);

#endif /* _STT_NETNS_H */
