// SPDX-License-Identifier: GPL-2.0
/*
 * The stt net_device: its life cycle from ndo_init to the destructor, its
 * features, and how a configured device comes up, changes and goes.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <net/ipv6.h>

#include "compat.h"
#include "device.h"
#include "netns.h"
#include "port.h"
#include "route.h"
#include "stats.h"
#include "stt_wire.h"
#include "xmit.h"

static int stt_init(struct net_device *dev)
{
	struct stt_dev *stt = netdev_priv(dev);
	u32 first_id;
	int cpu, err;

	stt->frame_id = alloc_percpu(u32);
	if (!stt->frame_id)
		return -ENOMEM;
	/* Interleaved cursors: CPUs never hand out the same frame id.  A
	 * random start, so that two devices (or one device before and after
	 * a restart) sending to the same receiver do not walk the same ids.
	 */
	first_id = get_random_u32();
	for_each_possible_cpu(cpu)
		per_cpu(*stt->frame_id, cpu) = first_id + cpu;

	stt->counters = stt_counters_alloc();
	if (!stt->counters) {
		err = -ENOMEM;
		goto err_free_frame_id;
	}

	err = dst_cache_init(&stt->cfg.info.dst_cache, GFP_KERNEL);
	if (err)
		goto err_free_counters;

	err = gro_cells_init(&stt->gro_cells, dev);
	if (err)
		goto err_destroy_dst_cache;

	/* Last: from here on the receive path can hand us frames.  The port
	 * is open already: stt_dev_register() opened it where a failure can be
	 * told to the user (ndo_init has no extack).
	 */
	err = stt_port_attach(&stt->rx, stt->net, stt->cfg.dst_port, NULL);
	if (err)
		goto err_destroy_gro_cells;
	return 0;

err_destroy_gro_cells:
	gro_cells_destroy(&stt->gro_cells);
err_destroy_dst_cache:
	dst_cache_destroy(&stt->cfg.info.dst_cache);
err_free_counters:
	stt_counters_free(stt->counters);
err_free_frame_id:
	free_percpu(stt->frame_id);
	return err;
}

static void stt_uninit(struct net_device *dev)
{
	struct stt_dev *stt = netdev_priv(dev);

	stt_port_detach(&stt->rx);
	/* A receive path that found the device before the detach may
	 * still read it (and drop the frame: the device is down) until a
	 * grace period has passed.  unregister_netdevice_many() waits for
	 * one after every device's ndo_uninit and before freeing any, so a
	 * namespace's exit waits once, not once per device; a
	 * register_netdevice() that failed after ndo_init does not, and
	 * its caller frees the device at once.
	 */
	if (dev->reg_state != NETREG_UNREGISTERING)
		synchronize_net();
	gro_cells_destroy(&stt->gro_cells);
	dst_cache_destroy(&stt->cfg.info.dst_cache);
}

/* After the last reference: Open vSwitch reads the stats of a device it
 * was told is unregistering.
 */
static void stt_destructor(struct net_device *dev)
{
	struct stt_dev *stt = netdev_priv(dev);

	stt_counters_free(stt->counters);
	free_percpu(stt->frame_id);
}

static const struct net_device_ops stt_netdev_ops = {
	.ndo_init		= stt_init,
	.ndo_uninit		= stt_uninit,
	.ndo_start_xmit		= stt_xmit,
	.ndo_fill_metadata_dst	= stt_fill_metadata_dst,
	.ndo_get_stats64	= stt_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

static const struct device_type stt_type = {
	.name = "stt",
};

/* Inner frame (Ethernet header included) that still fits one STT frame. */
#define STT_MAX_INNER_LEN (STT_MAX_FRAME_LEN - STT_HDR_LEN)

void stt_dev_setup(struct net_device *dev)
{
	ether_setup(dev);

	dev->netdev_ops = &stt_netdev_ops;
	dev->ethtool_ops = &stt_ethtool_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = stt_destructor;
	SET_NETDEV_DEVTYPE(dev, &stt_type);

	/* Inner checksums and TCP/UDP segmentation ride in the STT header;
	 * the transmit path segments anything else in software.  No
	 * NETIF_F_FRAGLIST: the outer segmentation could not cut a frag_list
	 * at its MSS, so the stack linearizes or segments those first.  The
	 * header carries an 802.1Q tag (not 802.1ad: it has no TPID).
	 */
	dev->features |= NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_RXCSUM |
			 NETIF_F_GSO_SOFTWARE | NETIF_F_HW_VLAN_CTAG_TX;
	dev->hw_features |= NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_RXCSUM |
			    NETIF_F_GSO_SOFTWARE;
	/* VLAN devices on top keep the offloads. */
	dev->vlan_features = dev->features & ~NETIF_F_HW_VLAN_CTAG_TX;
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

static int mtu_from_route4(struct stt_dev *stt)
{
	struct flowi4 fl4 = {
		.daddr = stt->cfg.info.key.u.ipv4.dst,
		.saddr = stt->cfg.info.key.u.ipv4.src,
	};
	struct rtable *rt;
	int mtu;

	rt = stt_route4(stt->net, stt->dev, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	mtu = rt->dst.dev->mtu;
	ip_rt_put(rt);
	return mtu;
}

static int mtu_from_route6(struct stt_dev *stt)
{
	struct flowi6 fl6 = {
		.daddr = stt->cfg.info.key.u.ipv6.dst,
		.saddr = stt->cfg.info.key.u.ipv6.src,
	};
	struct dst_entry *dst;
	int mtu;

	dst = stt_route6(stt->net, stt->dev, &fl6);
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	mtu = dst->dev->mtu;
	dst_release(dst);
	return mtu;
}

/* STT segments its frames, so the inner MTU need not shrink: it follows the
 * underlay device that reaches the remote.
 */
static void mtu_from_route(struct net_device *dev, struct stt_dev *stt)
{
	int mtu;

	if (ip_tunnel_info_af(&stt->cfg.info) == AF_INET6)
		mtu = mtu_from_route6(stt);
	else
		mtu = mtu_from_route4(stt);
	if (mtu < 0)
		return;
	dev->mtu = clamp_t(unsigned int, mtu, dev->min_mtu, dev->max_mtu);
}

/* What the receive port finds a device by. */
static void member_from_config(struct stt_port_member *member,
			       const struct stt_config *cfg)
{
	stt_config_remote(cfg, &member->remote);
	member->context_id = be64_to_cpu(cfg->info.key.tun_id);
	member->collect_md = cfg->collect_md;
}

/*
 * Registers @dev, configured as @cfg, with its underlay in @net; @cfg was
 * checked against the other devices (it claims frames no other claims).
 * The MTU follows the route to the remote unless the user gave one.
 */
int stt_dev_register(struct net *net, struct net_device *dev,
		     const struct stt_config *cfg, bool mtu_given,
		     struct netlink_ext_ack *extack)
{
	struct stt_dev *stt = netdev_priv(dev);
	struct stt_port *port;
	int err;

	stt->dev = dev;
	stt->net = net;
	stt->cfg = *cfg;
	member_from_config(&stt->rx, cfg);
	if (!cfg->collect_md && !mtu_given)
		mtu_from_route(dev, stt);

	/* Held across registration, whose ndo_init joins it. */
	port = stt_port_get(net, cfg->dst_port, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	err = register_netdevice(dev);
	stt_port_put(port);
	if (err)
		return err;
	list_add(&stt->next, &stt_net(net)->dev_list);
	return 0;
}

/* Under RTNL: a fixed-peer device takes @cfg, checked as for registration. */
void stt_dev_reconfigure(struct stt_dev *stt, const struct stt_config *cfg)
{
	/* Quiesce both directions while the configuration changes, as
	 * geneve does: out of the receive lookup, and transmit drops; the
	 * grace period waits for the receivers and senders already running.
	 */
	stt_port_unhash_peer(&stt->rx);
	WRITE_ONCE(stt->reconfiguring, true);
	synchronize_net();
	stt->cfg = *cfg;
	dst_cache_reset(&stt->cfg.info.dst_cache);
	member_from_config(&stt->rx, cfg);
	stt_port_hash_peer(&stt->rx);
	/* Pairs with stt_xmit()'s acquire: the new cfg is seen whole. */
	smp_store_release(&stt->reconfiguring, false);
}

/* Under RTNL: queues @dev for unregistration (rtnetlink's dellink). */
void stt_dev_unregister(struct net_device *dev, struct list_head *head)
{
	struct stt_dev *stt = netdev_priv(dev);

	list_del(&stt->next);
	unregister_netdevice_queue(dev, head);
}
