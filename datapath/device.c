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
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/stt.h>
#include <linux/tcp.h>
#include <net/netns/generic.h>
#include <net/rtnetlink.h>
#include <net/stt.h>

#include "compat.h"
#include "device.h"
#include "port.h"
#include "stats.h"
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
	 * is open already: stt_configure() opened it where a failure can be
	 * told to the user (ndo_init has no extack).
	 */
	port = stt_port_attach(stt, NULL);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto err_destroy_gro_cells;
	}
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

	stt_port_detach(stt);
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

static void stt_setup(struct net_device *dev)
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

#define NO_IPV6 "IPv6 underlay is not supported yet"
#define NEEDS_MODE "an stt device needs a remote address (fixed peer) or external mode"

static const struct nla_policy stt_policy[IFLA_STT_MAX + 1] = {
	[IFLA_STT_UNSPEC]		= { .strict_start_type = IFLA_STT_ID },
	[IFLA_STT_ID]			= { .type = NLA_U64 },
	[IFLA_STT_REMOTE]		= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[IFLA_STT_REMOTE6]		= { .type = NLA_REJECT,
					    .reject_message = NO_IPV6 },
	[IFLA_STT_LOCAL]		= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[IFLA_STT_LOCAL6]		= { .type = NLA_REJECT,
					    .reject_message = NO_IPV6 },
	[IFLA_STT_PORT]			= { .type = NLA_BE16 },
	[IFLA_STT_PORT_RANGE]		=
		NLA_POLICY_EXACT_LEN(sizeof(struct ifla_stt_port_range)),
	[IFLA_STT_TTL]			= { .type = NLA_U8 },
	[IFLA_STT_TTL_INHERIT]		= { .type = NLA_FLAG },
	[IFLA_STT_TOS]			= { .type = NLA_U8 },
	[IFLA_STT_DF]			= NLA_POLICY_MAX(NLA_U8, STT_DF_INHERIT),
	[IFLA_STT_COLLECT_METADATA]	= { .type = NLA_FLAG },
};

/* Attributes that only make sense for a fixed peer. */
static const int fixed_peer_attrs[] = {
	IFLA_STT_ID, IFLA_STT_REMOTE, IFLA_STT_LOCAL, IFLA_STT_TTL,
	IFLA_STT_TTL_INHERIT, IFLA_STT_TOS, IFLA_STT_DF,
};

static int stt_validate(struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	int i;

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
	if (!data) {
		NL_SET_ERR_MSG(extack, NEEDS_MODE);
		return -EINVAL;
	}
	if (data[IFLA_STT_COLLECT_METADATA]) {
		for (i = 0; i < ARRAY_SIZE(fixed_peer_attrs); i++) {
			if (data[fixed_peer_attrs[i]]) {
				NL_SET_ERR_MSG_ATTR(extack,
						    data[fixed_peer_attrs[i]],
						    "attribute not allowed in external mode: tunnel parameters come with each packet");
				return -EINVAL;
			}
		}
	}
	if (data[IFLA_STT_PORT] && !nla_get_be16(data[IFLA_STT_PORT])) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_PORT],
				    "destination port must not be 0");
		return -EINVAL;
	}
	if (data[IFLA_STT_PORT_RANGE]) {
		const struct ifla_stt_port_range *r =
			nla_data(data[IFLA_STT_PORT_RANGE]);

		if (!r->low || ntohs(r->high) < ntohs(r->low)) {
			NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_PORT_RANGE],
					    "source port range must be non-zero and low <= high");
			return -EINVAL;
		}
	}
	if (data[IFLA_STT_TTL] && data[IFLA_STT_TTL_INHERIT]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_TTL_INHERIT],
				    "ttl and ttl inherit are exclusive");
		return -EINVAL;
	}
	return 0;
}

/* Applies the attributes in @data to @cfg (a copy, on changelink). */
static int nl_to_config(struct nlattr *data[], struct stt_config *cfg,
			bool changelink, struct netlink_ext_ack *extack)
{
	struct ip_tunnel_key *key = &cfg->info.key;

	if (changelink && data[IFLA_STT_PORT]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_PORT],
				    "destination port cannot be changed");
		return -EOPNOTSUPP;
	}
	if (changelink && data[IFLA_STT_COLLECT_METADATA]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_COLLECT_METADATA],
				    "external mode cannot be changed");
		return -EOPNOTSUPP;
	}

	if (data[IFLA_STT_COLLECT_METADATA])
		cfg->collect_md = true;
	if (data[IFLA_STT_PORT])
		cfg->dst_port = nla_get_be16(data[IFLA_STT_PORT]);
	if (data[IFLA_STT_ID])
		key->tun_id = cpu_to_be64(nla_get_u64(data[IFLA_STT_ID]));
	if (data[IFLA_STT_REMOTE])
		key->u.ipv4.dst = nla_get_in_addr(data[IFLA_STT_REMOTE]);
	if (data[IFLA_STT_LOCAL])
		key->u.ipv4.src = nla_get_in_addr(data[IFLA_STT_LOCAL]);
	if (data[IFLA_STT_PORT_RANGE]) {
		const struct ifla_stt_port_range *r =
			nla_data(data[IFLA_STT_PORT_RANGE]);

		cfg->sport_min = ntohs(r->low);
		cfg->sport_max = ntohs(r->high);
	}
	if (data[IFLA_STT_TTL]) {
		key->ttl = nla_get_u8(data[IFLA_STT_TTL]);
		cfg->ttl_inherit = false;
	}
	if (data[IFLA_STT_TTL_INHERIT]) {
		key->ttl = 0;
		cfg->ttl_inherit = true;
	}
	if (data[IFLA_STT_TOS])
		key->tos = nla_get_u8(data[IFLA_STT_TOS]);
	if (data[IFLA_STT_DF])
		cfg->df = nla_get_u8(data[IFLA_STT_DF]);

	key->tp_dst = cfg->dst_port;
	cfg->info.mode = IP_TUNNEL_INFO_TX;

	if (cfg->collect_md)
		return 0;
	if (!key->u.ipv4.dst) {
		NL_SET_ERR_MSG(extack, NEEDS_MODE);
		return -EINVAL;
	}
	if (ipv4_is_multicast(key->u.ipv4.dst) ||
	    ipv4_is_lbcast(key->u.ipv4.dst)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_REMOTE],
				    "remote must be a unicast address");
		return -EINVAL;
	}
	return 0;
}

/* Refuses what would make two devices claim the same received frames. */
static int check_unique(struct net *net, const struct stt_config *cfg,
			const struct stt_dev *self,
			struct netlink_ext_ack *extack)
{
	struct stt_port *port = stt_port_find(net, cfg->dst_port);
	struct stt_dev *other;

	if (!port)
		return 0;
	if (cfg->collect_md) {
		other = rtnl_dereference(port->collect_md_dev);
		if (other && other != self) {
			NL_SET_ERR_MSG(extack,
				       "an external stt device already uses this destination port in this namespace");
			return -EBUSY;
		}
		return 0;
	}
	other = stt_port_find_peer(port, cfg->info.key.u.ipv4.dst,
				   be64_to_cpu(cfg->info.key.tun_id));
	if (other && other != self) {
		NL_SET_ERR_MSG(extack,
			       "an stt device with this remote and id already uses this destination port in this namespace");
		return -EBUSY;
	}
	return 0;
}

/* STT segments its frames, so the inner MTU need not shrink: it follows the
 * underlay device that reaches the remote.
 */
static void mtu_from_route(struct net_device *dev, struct stt_dev *stt)
{
	struct flowi4 fl4 = {
		.daddr = stt->cfg.info.key.u.ipv4.dst,
		.saddr = stt->cfg.info.key.u.ipv4.src,
		.flowi4_proto = IPPROTO_TCP,
	};
	struct rtable *rt;

	rt = ip_route_output_key(stt->net, &fl4);
	if (IS_ERR(rt))
		return;
	if (rt->dst.dev != dev)
		dev->mtu = clamp_t(unsigned int, rt->dst.dev->mtu,
				   dev->min_mtu, dev->max_mtu);
	ip_rt_put(rt);
}

static int stt_configure(struct net *net, struct net_device *dev,
			 const struct stt_config *cfg, bool mtu_given,
			 struct netlink_ext_ack *extack)
{
	struct stt_dev *stt = netdev_priv(dev);
	struct stt_port *port;
	int err;

	err = check_unique(net, cfg, NULL, extack);
	if (err)
		return err;

	stt->dev = dev;
	stt->net = net;
	stt->cfg = *cfg;
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

static void default_config(struct stt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->dst_port = htons(STT_DEFAULT_PORT);
	cfg->df = STT_DF_UNSET;
}

static int stt_newlink(struct net *net, struct net_device *dev,
		       struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	struct stt_config cfg;
	int err;

	default_config(&cfg);
	err = nl_to_config(data, &cfg, false, extack);
	if (err)
		return err;
	return stt_configure(net, dev, &cfg, tb[IFLA_MTU], extack);
}

static int stt_changelink(struct net_device *dev, struct nlattr *tb[],
			  struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	struct stt_dev *stt = netdev_priv(dev);
	struct stt_config cfg = stt->cfg;
	int err;

	if (!data)
		return 0;
	/* Being root in the device's namespace is not enough: what changes
	 * is where packets go in the underlay's, which may belong to another
	 * user namespace (a device moved into a container).
	 */
	if (!rtnl_dev_link_net_capable(dev, stt->net)) {
		NL_SET_ERR_MSG(extack,
			       "changing an stt device needs CAP_NET_ADMIN in its underlay namespace");
		return -EPERM;
	}
	if (stt->cfg.collect_md) {
		NL_SET_ERR_MSG(extack,
			       "an external device has nothing to change: tunnel parameters come with each packet");
		return -EOPNOTSUPP;
	}
	err = nl_to_config(data, &cfg, true, extack);
	if (err)
		return err;
	err = check_unique(stt->net, &cfg, stt, extack);
	if (err)
		return err;

	/* Quiesce both directions while the configuration changes, as
	 * geneve does: out of the receive lookup, and transmit drops; the
	 * grace period waits for the receivers and senders already running.
	 */
	hash_del_rcu(&stt->peer_node);
	WRITE_ONCE(stt->reconfiguring, true);
	synchronize_net();
	stt->cfg = cfg;
	dst_cache_reset(&stt->cfg.info.dst_cache);
	hash_add_rcu(rtnl_dereference(stt->port)->peers, &stt->peer_node,
		     stt_dev_context_id(stt));
	/* Pairs with stt_xmit()'s acquire: the new cfg is seen whole. */
	smp_store_release(&stt->reconfiguring, false);
	return 0;
}

static void stt_dellink(struct net_device *dev, struct list_head *head)
{
	struct stt_dev *stt = netdev_priv(dev);

	list_del(&stt->next);
	unregister_netdevice_queue(dev, head);
}

static size_t stt_get_size(const struct net_device *dev)
{
	return nla_total_size_64bit(sizeof(u64)) +	/* IFLA_STT_ID */
	       nla_total_size(sizeof(__be32)) +	/* IFLA_STT_REMOTE */
	       nla_total_size(sizeof(__be32)) +	/* IFLA_STT_LOCAL */
	       nla_total_size(sizeof(__be16)) +	/* IFLA_STT_PORT */
	       nla_total_size(sizeof(struct ifla_stt_port_range)) +
	       nla_total_size(sizeof(u8)) +	/* IFLA_STT_TTL */
	       nla_total_size(0) +		/* IFLA_STT_TTL_INHERIT */
	       nla_total_size(sizeof(u8)) +	/* IFLA_STT_TOS */
	       nla_total_size(sizeof(u8)) +	/* IFLA_STT_DF */
	       nla_total_size(0);		/* IFLA_STT_COLLECT_METADATA */
}

static int fill_fixed_peer(struct sk_buff *skb, const struct stt_config *cfg)
{
	const struct ip_tunnel_key *key = &cfg->info.key;

	if (nla_put_u64_64bit(skb, IFLA_STT_ID, be64_to_cpu(key->tun_id),
			      IFLA_STT_UNSPEC) ||
	    nla_put_in_addr(skb, IFLA_STT_REMOTE, key->u.ipv4.dst) ||
	    (key->u.ipv4.src &&
	     nla_put_in_addr(skb, IFLA_STT_LOCAL, key->u.ipv4.src)) ||
	    nla_put_u8(skb, IFLA_STT_TOS, key->tos) ||
	    nla_put_u8(skb, IFLA_STT_DF, cfg->df))
		return -EMSGSIZE;
	if (cfg->ttl_inherit)
		return nla_put_flag(skb, IFLA_STT_TTL_INHERIT);
	return nla_put_u8(skb, IFLA_STT_TTL, key->ttl);
}

static int stt_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct stt_dev *stt = netdev_priv(dev);
	const struct stt_config *cfg = &stt->cfg;

	if (nla_put_be16(skb, IFLA_STT_PORT, cfg->dst_port))
		return -EMSGSIZE;
	if (cfg->sport_min) {
		struct ifla_stt_port_range r = {
			.low = htons(cfg->sport_min),
			.high = htons(cfg->sport_max),
		};

		if (nla_put(skb, IFLA_STT_PORT_RANGE, sizeof(r), &r))
			return -EMSGSIZE;
	}
	if (cfg->collect_md)
		return nla_put_flag(skb, IFLA_STT_COLLECT_METADATA) ? -EMSGSIZE : 0;
	return fill_fixed_peer(skb, cfg) ? -EMSGSIZE : 0;
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
	.changelink	= stt_changelink,
	.dellink	= stt_dellink,
	.get_size	= stt_get_size,
	.fill_info	= stt_fill_info,
	.get_link_net	= stt_get_link_net,
};

/* Apart from stt_dev_create_fb(), whose frame holds an extack already. */
static noinline struct net_device *stt_dev_alloc_fb(struct net *net,
						    const char *name,
						    u8 name_assign_type)
{
	struct nlattr *tb[IFLA_MAX + 1] = { };

	return rtnl_create_link(net, name, name_assign_type, &stt_link_ops,
				tb, NULL);
}

struct net_device *stt_dev_create_fb(struct net *net, const char *name,
				     u8 name_assign_type, u16 dst_port)
{
	struct netlink_ext_ack extack = { };
	struct stt_config cfg;
	struct net_device *dev;
	LIST_HEAD(list_kill);
	int err;

	default_config(&cfg);
	cfg.dst_port = htons(dst_port);
	cfg.collect_md = true;
	cfg.info.mode = IP_TUNNEL_INFO_TX;

	dev = stt_dev_alloc_fb(net, name, name_assign_type);
	if (IS_ERR(dev))
		return dev;

	/* Open vSwitch's vport requests carry no extended ack: the reason a
	 * port cannot be made goes to the kernel log instead.
	 */
	err = stt_configure(net, dev, &cfg, false, &extack);
	if (err) {
		net_warn_ratelimited("cannot create %s: %s (%d)\n", name,
				     extack._msg ?: "error", err);
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

u16 stt_dev_dst_port(const struct net_device *dev)
{
	const struct stt_dev *stt = netdev_priv(dev);

	return ntohs(stt->cfg.dst_port);
}
EXPORT_SYMBOL_GPL(stt_dev_dst_port);

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
