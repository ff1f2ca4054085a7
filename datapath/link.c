// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink kind "stt": the attributes a device is made and changed with,
 * how they are checked, and what a dump reports; and the external device
 * that vport-stt.ko creates without netlink.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/stt.h>
#include <net/ipv6.h>
#include <net/rtnetlink.h>
#include <net/stt.h>

#include "compat.h"
#include "device.h"
#include "link.h"
#include "port.h"
#include "stt_wire.h"

#define NEEDS_MODE "an stt device needs a remote address (fixed peer) or external mode"

static const struct nla_policy stt_policy[IFLA_STT_MAX + 1] = {
	[IFLA_STT_UNSPEC]		= { .strict_start_type = IFLA_STT_ID },
	[IFLA_STT_ID]			= { .type = NLA_U64 },
	[IFLA_STT_REMOTE]		= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[IFLA_STT_REMOTE6]		=
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[IFLA_STT_LOCAL]		= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[IFLA_STT_LOCAL6]		=
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
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
	IFLA_STT_ID, IFLA_STT_REMOTE, IFLA_STT_REMOTE6, IFLA_STT_LOCAL,
	IFLA_STT_LOCAL6, IFLA_STT_TTL, IFLA_STT_TTL_INHERIT, IFLA_STT_TOS,
	IFLA_STT_DF,
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
	/* Nothing of ours: a change of the generic attributes alone
	 * (changelink); stt_newlink() refuses it.
	 */
	if (!data)
		return 0;
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
	if (data[IFLA_STT_REMOTE] && data[IFLA_STT_REMOTE6]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_REMOTE6],
				    "remote and remote6 are exclusive: the remote is IPv4 or IPv6");
		return -EINVAL;
	}
	if (data[IFLA_STT_LOCAL] && data[IFLA_STT_LOCAL6]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_LOCAL6],
				    "local and local6 are exclusive: the local address is IPv4 or IPv6");
		return -EINVAL;
	}
	if (data[IFLA_STT_TTL] && data[IFLA_STT_TTL_INHERIT]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_TTL_INHERIT],
				    "ttl and ttl inherit are exclusive");
		return -EINVAL;
	}
	return 0;
}

/* Switches @info's addresses to @ipv6's family, the old ones cleared. */
static void set_family(struct ip_tunnel_info *info, bool ipv6)
{
	if (!!(info->mode & IP_TUNNEL_INFO_IPV6) == ipv6)
		return;
	memset(&info->key.u, 0, sizeof(info->key.u));
	info->mode ^= IP_TUNNEL_INFO_IPV6;
}

/*
 * The remote and local addresses: both of one family, the remote's.  A
 * remote of the other family replaces the old remote and local both.
 */
static int nl_to_addrs(struct nlattr *data[], struct ip_tunnel_info *info,
		       struct netlink_ext_ack *extack)
{
	struct ip_tunnel_key *key = &info->key;

	if (data[IFLA_STT_REMOTE]) {
		set_family(info, false);
		key->u.ipv4.dst = nla_get_in_addr(data[IFLA_STT_REMOTE]);
	}
	if (data[IFLA_STT_REMOTE6]) {
		set_family(info, true);
		key->u.ipv6.dst = nla_get_in6_addr(data[IFLA_STT_REMOTE6]);
	}
	if (data[IFLA_STT_LOCAL]) {
		if (info->mode & IP_TUNNEL_INFO_IPV6) {
			NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_LOCAL],
					    "local is IPv4 but the remote is IPv6: give local6");
			return -EINVAL;
		}
		key->u.ipv4.src = nla_get_in_addr(data[IFLA_STT_LOCAL]);
	}
	if (data[IFLA_STT_LOCAL6]) {
		if (!(info->mode & IP_TUNNEL_INFO_IPV6)) {
			NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_LOCAL6],
					    "local6 is IPv6 but the remote is not: give remote6");
			return -EINVAL;
		}
		key->u.ipv6.src = nla_get_in6_addr(data[IFLA_STT_LOCAL6]);
	}
	return 0;
}

/* A fixed peer's IPv4 remote: there, and unicast; its local unicast too. */
static int check_addrs4(struct nlattr *data[], const struct ip_tunnel_key *key,
			struct netlink_ext_ack *extack)
{
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
	/* 0 is "any": the route's source. */
	if (ipv4_is_multicast(key->u.ipv4.src) ||
	    ipv4_is_lbcast(key->u.ipv4.src)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_LOCAL],
				    "local must be a unicast address");
		return -EINVAL;
	}
	return 0;
}

/*
 * An IPv6 remote and local as the IPv4 ones are checked: a unicast remote.
 * Also neither link-local (a device has no underlay interface to scope it
 * to) nor IPv4-mapped (an IPv4 remote is given as one, and a receive port
 * keys it so).
 */
static int check_addrs6(struct nlattr *data[], const struct ip_tunnel_key *key,
			struct netlink_ext_ack *extack)
{
	int remote = ipv6_addr_type(&key->u.ipv6.dst);
	int local = ipv6_addr_type(&key->u.ipv6.src);

	if (remote == IPV6_ADDR_ANY) {
		NL_SET_ERR_MSG(extack, NEEDS_MODE);
		return -EINVAL;
	}
	if (remote & IPV6_ADDR_MAPPED) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_REMOTE6],
				    "remote6 must not be IPv4-mapped: give an IPv4 remote as remote");
		return -EINVAL;
	}
	if (!(remote & IPV6_ADDR_UNICAST)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_REMOTE6],
				    "remote6 must be a unicast address");
		return -EINVAL;
	}
	if (remote & IPV6_ADDR_LINKLOCAL) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_REMOTE6],
				    "remote6 must not be link-local: an stt device has no underlay interface to scope it to");
		return -EINVAL;
	}
	if (local != IPV6_ADDR_ANY &&
	    (!(local & IPV6_ADDR_UNICAST) || local & IPV6_ADDR_LINKLOCAL)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_STT_LOCAL6],
				    "local6 must be a unicast address, not link-local");
		return -EINVAL;
	}
	return 0;
}

/* Applies the attributes in @data to @cfg (a copy, on changelink). */
static int nl_to_config(struct nlattr *data[], struct stt_config *cfg,
			bool changelink, struct netlink_ext_ack *extack)
{
	struct ip_tunnel_key *key = &cfg->info.key;
	int err;

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
	err = nl_to_addrs(data, &cfg->info, extack);
	if (err)
		return err;
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
	cfg->info.mode |= IP_TUNNEL_INFO_TX;

	if (cfg->collect_md)
		return 0;
	if (cfg->info.mode & IP_TUNNEL_INFO_IPV6)
		return check_addrs6(data, key, extack);
	return check_addrs4(data, key, extack);
}

/* Refuses what would make two devices claim the same received frames. */
static int check_unique(struct net *net, const struct stt_config *cfg,
			const struct stt_dev *self,
			struct netlink_ext_ack *extack)
{
	struct stt_port *port = stt_port_find(net, cfg->dst_port);
	struct stt_port_member *other;
	struct in6_addr remote;

	if (!port)
		return 0;
	if (cfg->collect_md) {
		other = rtnl_dereference(port->collect_md);
		if (other && stt_dev_from_member(other) != self) {
			NL_SET_ERR_MSG(extack,
				       "an external stt device already uses this destination port in this namespace");
			return -EBUSY;
		}
		return 0;
	}
	stt_config_remote(cfg, &remote);
	other = stt_port_find_peer(port, &remote,
				   be64_to_cpu(cfg->info.key.tun_id));
	if (other && stt_dev_from_member(other) != self) {
		NL_SET_ERR_MSG(extack,
			       "an stt device with this remote and id already uses this destination port in this namespace");
		return -EBUSY;
	}
	return 0;
}

/* A new device: unique among those on its port, then registered. */
static int stt_configure(struct net *net, struct net_device *dev,
			 const struct stt_config *cfg, bool mtu_given,
			 struct netlink_ext_ack *extack)
{
	int err;

	err = check_unique(net, cfg, NULL, extack);
	if (err)
		return err;
	return stt_dev_register(net, dev, cfg, mtu_given, extack);
}

static void default_config(struct stt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->dst_port = htons(STT_DEFAULT_PORT);
	cfg->df = STT_DF_UNSET;
}

static int stt_newlink(struct net_device *dev,
		       struct rtnl_newlink_params *params,
		       struct netlink_ext_ack *extack)
{
	struct nlattr **data = params->data;
	struct stt_config cfg;
	int err;

	if (!data) {
		NL_SET_ERR_MSG(extack, NEEDS_MODE);
		return -EINVAL;
	}
	default_config(&cfg);
	err = nl_to_config(data, &cfg, false, extack);
	if (err)
		return err;
	return stt_configure(rtnl_newlink_link_net(params), dev, &cfg,
			     params->tb[IFLA_MTU], extack);
}

STT_RTNL_NEWLINK_ADAPTER(stt_newlink);

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
	stt_dev_reconfigure(stt, &cfg);
	return 0;
}

static size_t stt_get_size(const struct net_device *dev)
{
	return nla_total_size_64bit(sizeof(u64)) +	/* IFLA_STT_ID */
	       nla_total_size(sizeof(__be32)) +	/* IFLA_STT_REMOTE */
	       nla_total_size(sizeof(__be32)) +	/* IFLA_STT_LOCAL */
	       nla_total_size(sizeof(struct in6_addr)) + /* IFLA_STT_REMOTE6 */
	       nla_total_size(sizeof(struct in6_addr)) + /* IFLA_STT_LOCAL6 */
	       nla_total_size(sizeof(__be16)) +	/* IFLA_STT_PORT */
	       nla_total_size(sizeof(struct ifla_stt_port_range)) +
	       nla_total_size(sizeof(u8)) +	/* IFLA_STT_TTL */
	       nla_total_size(0) +		/* IFLA_STT_TTL_INHERIT */
	       nla_total_size(sizeof(u8)) +	/* IFLA_STT_TOS */
	       nla_total_size(sizeof(u8)) +	/* IFLA_STT_DF */
	       nla_total_size(0);		/* IFLA_STT_COLLECT_METADATA */
}

static int fill_addrs(struct sk_buff *skb, const struct ip_tunnel_info *info)
{
	const struct ip_tunnel_key *key = &info->key;

	if (ip_tunnel_info_af(info) == AF_INET6)
		return nla_put_in6_addr(skb, IFLA_STT_REMOTE6,
					&key->u.ipv6.dst) ||
		       (!ipv6_addr_any(&key->u.ipv6.src) &&
			nla_put_in6_addr(skb, IFLA_STT_LOCAL6,
					 &key->u.ipv6.src));
	return nla_put_in_addr(skb, IFLA_STT_REMOTE, key->u.ipv4.dst) ||
	       (key->u.ipv4.src &&
		nla_put_in_addr(skb, IFLA_STT_LOCAL, key->u.ipv4.src));
}

static int fill_fixed_peer(struct sk_buff *skb, const struct stt_config *cfg)
{
	const struct ip_tunnel_key *key = &cfg->info.key;

	if (nla_put_u64_64bit(skb, IFLA_STT_ID, be64_to_cpu(key->tun_id),
			      IFLA_STT_UNSPEC) ||
	    fill_addrs(skb, &cfg->info) ||
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
	.setup		= stt_dev_setup,
	.validate	= stt_validate,
	.newlink	= STT_RTNL_NEWLINK(stt_newlink),
	.changelink	= stt_changelink,
	.dellink	= stt_dev_unregister,
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
	stt_dev_unregister(dev, &list_kill);
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

int stt_link_init(void)
{
	return rtnl_link_register(&stt_link_ops);
}

void stt_link_uninit(void)
{
	rtnl_link_unregister(&stt_link_ops);
}
