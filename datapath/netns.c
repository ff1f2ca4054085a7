// SPDX-License-Identifier: GPL-2.0
/*
 * Per-namespace state, and the devices that go when their underlay
 * namespace does.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "device.h"
#include "netns.h"
#include "port.h"

static unsigned int stt_net_id;

struct stt_net *stt_net(struct net *net)
{
	return net_generic(net, stt_net_id);
}

static __net_init int stt_init_net(struct net *net)
{
	struct stt_net *sn = stt_net(net);

	INIT_LIST_HEAD(&sn->dev_list);
	INIT_LIST_HEAD(&sn->port_list);
	atomic_set(&sn->reasm_mem, 0);
	return 0;
}

/* Devices whose underlay namespace is going away go with it. */
static void __net_exit stt_exit_batch_net(struct list_head *net_list)
{
	struct stt_dev *stt, *next;
	LIST_HEAD(list_kill);
	struct net *net;

	rtnl_lock();
	list_for_each_entry(net, net_list, exit_list)
		list_for_each_entry_safe(stt, next, &stt_net(net)->dev_list,
					 next)
			stt_dev_unregister(stt->dev, &list_kill);
	unregister_netdevice_many(&list_kill);
	rtnl_unlock();
	stt_port_wait_closed();

	list_for_each_entry(net, net_list, exit_list)
		WARN_ON_ONCE(!list_empty(&stt_net(net)->port_list));
}

static struct pernet_operations stt_net_ops = {
	.init		= stt_init_net,
	.exit_batch	= stt_exit_batch_net,
	.id		= &stt_net_id,
	.size		= sizeof(struct stt_net),
};

int stt_netns_init(void)
{
	return register_pernet_device(&stt_net_ops);
}

void stt_netns_uninit(void)
{
	unregister_pernet_device(&stt_net_ops);
}
