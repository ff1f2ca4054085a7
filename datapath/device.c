// SPDX-License-Identifier: GPL-2.0
/*
 * The stt net_device: rtnetlink kind "stt", its configuration, its life
 * cycle, and the per-namespace lists it lives on.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <net/netns/generic.h>
#include <net/rtnetlink.h>

#include "compat.h"
#include "device.h"
#include "port.h"
#include "stats.h"
#include "stt.h"
#include "stt_netlink.h"
#include "stt_wire.h"
#include "xmit.h"

static unsigned int stt_net_id;

struct stt_net *stt_net(struct net *net)
{
	return net_generic(net, stt_net_id);
}

static int stt_init(struct net_device *dev)
{
	struct stt_dev *stt = netdev_priv(dev);
	struct stt_port *port;
	int cpu, err;

	stt->frame_id = alloc_percpu(u32);
	if (!stt->frame_id)
		return -ENOMEM;
	/* Interleaved cursors: CPUs never hand out the same frame id. */
	for_each_possible_cpu(cpu)
		per_cpu(*stt->frame_id, cpu) = cpu;

	stt->counters = stt_counters_alloc();
	if (!stt->counters) {
		err = -ENOMEM;
		goto err_free_frame_id;
	}

	err = gro_cells_init(&stt->gro_cells, dev);
	if (err)
		goto err_free_counters;

	/* Last: from here on the receive path can hand us frames. */
	port = stt_port_attach(stt, NULL);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto err_destroy_gro_cells;
	}
	return 0;

err_destroy_gro_cells:
	gro_cells_destroy(&stt->gro_cells);
err_free_counters:
	stt_counters_free(stt->counters);
err_free_frame_id:
	free_percpu(stt->frame_id);
	return err;
}

static void stt_uninit(struct net_device *dev)
{
	struct stt_dev *stt = netdev_priv(dev);

	stt_port_detach(stt);
	gro_cells_destroy(&stt->gro_cells);
	stt_counters_free(stt->counters);
	free_percpu(stt->frame_id);
}

static const struct net_device_ops stt_netdev_ops = {
	.ndo_init		= stt_init,
	.ndo_uninit		= stt_uninit,
	.ndo_start_xmit		= stt_xmit,
	.ndo_get_stats64	= stt_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

static const struct device_type stt_type = {
	.name = "stt",
};

/* Inner frame (Ethernet header included) that still fits one STT frame. */
#define STT_MAX_INNER_LEN (STT_MAX_FRAME_LEN - STT_HDR_LEN)

static void stt_setup(struct net_device *dev)
{
	ether_setup(dev);

	dev->netdev_ops = &stt_netdev_ops;
	dev->ethtool_ops = &stt_ethtool_ops;
	dev->needs_free_netdev = true;
	SET_NETDEV_DEVTYPE(dev, &stt_type);

	/* Inner checksums and TCP/UDP segmentation ride in the STT header;
	 * the transmit path segments anything else in software.
	 */
	dev->features |= NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_FRAGLIST |
			 NETIF_F_RXCSUM | NETIF_F_GSO_SOFTWARE |
			 NETIF_F_HW_VLAN_CTAG_TX | NETIF_F_HW_VLAN_STAG_TX;
	dev->hw_features |= NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_FRAGLIST |
			    NETIF_F_RXCSUM | NETIF_F_GSO_SOFTWARE;
	stt_dev_set_lltx(dev);
	dev->pcpu_stat_type = NETDEV_PCPU_STAT_TSTATS;
	netif_keep_dst(dev);

	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->priv_flags |= IFF_LIVE_ADDR_CHANGE | IFF_NO_QUEUE;
	dev->needed_headroom = ETH_HLEN + sizeof(struct ipv6hdr) +
			       sizeof(struct tcphdr) + STT_HDR_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = STT_MAX_INNER_LEN - ETH_HLEN;
	/* Leave room for the STT header in one 64 KiB frame. */
	netif_set_tso_max_size(dev, STT_MAX_INNER_LEN - VLAN_ETH_HLEN);
	eth_hw_addr_random(dev);
}

static const struct nla_policy stt_policy[IFLA_STT_MAX + 1] = {
	[IFLA_STT_UNSPEC]		= { .strict_start_type = IFLA_STT_ID },
	[IFLA_STT_PORT]			= { .type = NLA_BE16 },
	[IFLA_STT_COLLECT_METADATA]	= { .type = NLA_FLAG },
};

static int stt_validate(struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
					    "address must be 6 bytes");
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
					    "address must be unicast");
			return -EADDRNOTAVAIL;
		}
	}
	if (!data || !data[IFLA_STT_COLLECT_METADATA]) {
		NL_SET_ERR_MSG(extack,
			       "only external mode is supported: set IFLA_STT_COLLECT_METADATA");
		return -EINVAL;
	}
	if (data[IFLA_STT_PORT] && !nla_get_be16(data[IFLA_STT_PORT])) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_PORT],
				    "destination port must not be 0");
		return -EINVAL;
	}
	return 0;
}

static int stt_configure(struct net *net, struct net_device *dev,
			 const struct stt_config *cfg,
			 struct netlink_ext_ack *extack)
{
	struct stt_dev *stt = netdev_priv(dev);
	struct stt_port *port;
	int err;

	port = stt_port_find(net, cfg->dst_port);
	if (cfg->collect_md && port && rtnl_dereference(port->collect_md_dev)) {
		NL_SET_ERR_MSG(extack,
			       "an external stt device already uses this destination port in this namespace");
		return -EBUSY;
	}

	stt->dev = dev;
	stt->net = net;
	stt->cfg = *cfg;

	err = register_netdevice(dev);
	if (err)
		return err;
	list_add(&stt->next, &stt_net(net)->dev_list);
	return 0;
}

static int stt_newlink(struct net *net, struct net_device *dev,
		       struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	struct stt_config cfg = {
		.dst_port = htons(STT_DEFAULT_PORT),
		.collect_md = true,
	};

	if (data[IFLA_STT_PORT])
		cfg.dst_port = nla_get_be16(data[IFLA_STT_PORT]);
	return stt_configure(net, dev, &cfg, extack);
}

static void stt_dellink(struct net_device *dev, struct list_head *head)
{
	struct stt_dev *stt = netdev_priv(dev);

	list_del(&stt->next);
	unregister_netdevice_queue(dev, head);
}

static size_t stt_get_size(const struct net_device *dev)
{
	return nla_total_size(sizeof(__be16)) +	/* IFLA_STT_PORT */
	       nla_total_size(0);		/* IFLA_STT_COLLECT_METADATA */
}

static int stt_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct stt_dev *stt = netdev_priv(dev);

	if (nla_put_be16(skb, IFLA_STT_PORT, stt->cfg.dst_port))
		return -EMSGSIZE;
	if (stt->cfg.collect_md &&
	    nla_put_flag(skb, IFLA_STT_COLLECT_METADATA))
		return -EMSGSIZE;
	return 0;
}

static struct net *stt_get_link_net(const struct net_device *dev)
{
	const struct stt_dev *stt = netdev_priv(dev);

	return stt->net;
}

static struct rtnl_link_ops stt_link_ops __read_mostly = {
	.kind		= STT_LINK_KIND,
	.maxtype	= IFLA_STT_MAX,
	.policy		= stt_policy,
	.priv_size	= sizeof(struct stt_dev),
	.setup		= stt_setup,
	.validate	= stt_validate,
	.newlink	= stt_newlink,
	.dellink	= stt_dellink,
	.get_size	= stt_get_size,
	.fill_info	= stt_fill_info,
	.get_link_net	= stt_get_link_net,
};

struct net_device *stt_dev_create_fb(struct net *net, const char *name,
				     u8 name_assign_type, u16 dst_port)
{
	struct stt_config cfg = {
		.dst_port = htons(dst_port),
		.collect_md = true,
	};
	struct nlattr *tb[IFLA_MAX + 1] = { };
	struct net_device *dev;
	LIST_HEAD(list_kill);
	int err;

	dev = rtnl_create_link(net, name, name_assign_type, &stt_link_ops,
			       tb, NULL);
	if (IS_ERR(dev))
		return dev;

	err = stt_configure(net, dev, &cfg, NULL);
	if (err) {
		free_netdev(dev);
		return ERR_PTR(err);
	}

	/* Open vSwitch expects tunnel ports not to limit packet sizes. */
	err = dev_set_mtu(dev, dev->max_mtu);
	if (err)
		goto err_dellink;

	err = rtnl_configure_link(dev, NULL, 0, NULL);
	if (err < 0)
		goto err_dellink;
	return dev;

err_dellink:
	stt_dellink(dev, &list_kill);
	unregister_netdevice_many(&list_kill);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(stt_dev_create_fb);

static __net_init int stt_init_net(struct net *net)
{
	struct stt_net *sn = stt_net(net);

	INIT_LIST_HEAD(&sn->dev_list);
	INIT_LIST_HEAD(&sn->port_list);
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
			stt_dellink(stt->dev, &list_kill);
	unregister_netdevice_many(&list_kill);
	rtnl_unlock();

	list_for_each_entry(net, net_list, exit_list)
		WARN_ON_ONCE(!list_empty(&stt_net(net)->port_list));
}

static struct pernet_operations stt_net_ops = {
	.init		= stt_init_net,
	.exit_batch	= stt_exit_batch_net,
	.id		= &stt_net_id,
	.size		= sizeof(struct stt_net),
};

int stt_device_init(void)
{
	int err;

	err = register_pernet_device(&stt_net_ops);
	if (err)
		return err;

	err = rtnl_link_register(&stt_link_ops);
	if (err)
		goto err_unregister_pernet;
	return 0;

err_unregister_pernet:
	unregister_pernet_device(&stt_net_ops);
	return err;
}

void stt_device_uninit(void)
{
	rtnl_link_unregister(&stt_link_ops);
	unregister_pernet_device(&stt_net_ops);
}
