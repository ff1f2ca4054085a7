/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels stt builds for (6.1, 6.12,
 * 7.2 and 7.3), so that the rest of the module reads as code for the
 * newest.  Every such test in the module lives here, behind a small helper
 * named after what it does, most often the newest kernel's own name.  The
 * tests look for the API itself rather than a version number, so a stable
 * backport cannot fool them: a preprocessor test where one can see it,
 * else one of Kbuild's probes of the headers (stt-probes.h).
 */
#ifndef _STT_COMPAT_H
#define _STT_COMPAT_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <net/dst_metadata.h>
#include <net/flow.h>
#include <net/inet_dscp.h>
#include <net/ip6_tunnel.h>
#include <net/ip_tunnels.h>
#include <net/route.h>
#include <net/rtnetlink.h>

#include "stt-probes.h"

/* 6.4 moved skb_gso_segment() out of netdevice.h; Kbuild looks for it. */
#ifdef STT_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

/* 6.10 turned the __be16 TUNNEL_* flags into a bitmap of IP_TUNNEL_*_BIT. */
#ifdef IP_TUNNEL_DECLARE_FLAGS

static inline struct metadata_dst *stt_tun_rx_dst(struct sk_buff *skb,
						  bool ipv6, __be64 tun_id)
{
	IP_TUNNEL_DECLARE_FLAGS(flags) = { };

	__set_bit(IP_TUNNEL_KEY_BIT, flags);
	__set_bit(IP_TUNNEL_CSUM_BIT, flags);
	if (ipv6)
		return ipv6_tun_rx_dst(skb, flags, tun_id, 0);
	return ip_tun_rx_dst(skb, flags, tun_id, 0);
}

static inline bool stt_tun_info_df(const struct ip_tunnel_info *info)
{
	return test_bit(IP_TUNNEL_DONT_FRAGMENT_BIT, info->key.tun_flags);
}

#else

static inline struct metadata_dst *stt_tun_rx_dst(struct sk_buff *skb,
						  bool ipv6, __be64 tun_id)
{
	if (ipv6)
		return ipv6_tun_rx_dst(skb, TUNNEL_KEY | TUNNEL_CSUM, tun_id,
				       0);
	return ip_tun_rx_dst(skb, TUNNEL_KEY | TUNNEL_CSUM, tun_id, 0);
}

static inline bool stt_tun_info_df(const struct ip_tunnel_info *info)
{
	return info->key.tun_flags & TUNNEL_DONT_FRAGMENT;
}

#endif

/* 6.12 moved "lockless transmit" from a feature bit to a device field. */
static inline void stt_dev_set_lltx(struct net_device *dev)
{
#ifdef NETIF_F_LLTX
	dev->features |= NETIF_F_LLTX;
#else
	dev->lltx = true;
#endif
}

/* 6.8 added ethtool_puts() for fixed strings. */
#ifndef STT_HAVE_ETHTOOL_PUTS
static inline void ethtool_puts(u8 **data, const char *str)
{
	strscpy(*data, str, ETH_GSTRING_LEN);
	*data += ETH_GSTRING_LEN;
}
#endif

/* Stable kernels of 2025 gained rtnl_dev_link_net_capable(); Kbuild looks. */
#ifndef STT_HAVE_RTNL_DEV_LINK_NET_CAPABLE
static inline bool rtnl_dev_link_net_capable(const struct net_device *dev,
					     const struct net *link_net)
{
	return net_eq(link_net, dev_net(dev)) ||
	       ns_capable(link_net->user_ns, CAP_NET_ADMIN);
}
#endif

/*
 * 6.15 hands newlink its arguments in struct rtnl_newlink_params, and the
 * namespace a link's underlay is in through rtnl_newlink_link_net(): the
 * one that earlier kernels passed as the first argument.  Before it,
 * STT_RTNL_NEWLINK_ADAPTER(fn) defines fn's adapter from the old
 * arguments, and STT_RTNL_NEWLINK(fn) names it for rtnl_link_ops; on a
 * kernel with the parameters, the first only checks fn's prototype.
 */
#ifdef STT_HAVE_RTNL_NEWLINK_PARAMS
#define STT_RTNL_NEWLINK_ADAPTER(fn)					\
	static_assert(__same_type(&(fn), ((struct rtnl_link_ops *)0)->newlink))
#define STT_RTNL_NEWLINK(fn) fn
#else
struct rtnl_newlink_params {
	struct net *link_net;
	struct nlattr **tb;
	struct nlattr **data;
};

static inline struct net *
rtnl_newlink_link_net(const struct rtnl_newlink_params *params)
{
	return params->link_net;
}

#define STT_RTNL_NEWLINK_ADAPTER(fn)					\
static int fn##_args(struct net *net, struct net_device *dev,		\
		     struct nlattr *tb[], struct nlattr *data[],	\
		     struct netlink_ext_ack *extack)			\
{									\
	struct rtnl_newlink_params params = {				\
		.link_net = net, .tb = tb, .data = data,			\
	};								\
									\
	return fn(dev, &params, extack);				\
}

#define STT_RTNL_NEWLINK(fn) fn##_args
#endif

/*
 * 6.17 has iptunnel_xmit() and ip6tunnel_xmit() set the control block's
 * flags to a last argument, where they cleared them: earlier ones can only
 * take 0.  A macro of the function's own name, after the header declaring
 * it.
 */
#ifndef STT_HAVE_IPTUNNEL_XMIT_IPCB_FLAGS
#define iptunnel_xmit(sk, rt, skb, src, dst, proto, tos, ttl, df, xnet,	\
		      ipcb_flags)					\
	do {								\
		BUILD_BUG_ON(ipcb_flags);				\
		iptunnel_xmit(sk, rt, skb, src, dst, proto, tos, ttl,	\
			      df, xnet);				\
	} while (0)
#endif
#ifndef STT_HAVE_IP6TUNNEL_XMIT_IP6CB_FLAGS
#define ip6tunnel_xmit(sk, skb, dev, ip6cb_flags)			\
	do {								\
		BUILD_BUG_ON(ip6cb_flags);				\
		ip6tunnel_xmit(sk, skb, dev);				\
	} while (0)
#endif

/* 6.16 renamed from_timer() to timer_container_of(). */
#ifndef STT_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, timer, field) from_timer(var, timer, field)
#endif

/*
 * The routing key's type of service: 6.18's flowi4 keeps its DSCP, earlier
 * ones the TOS bits of RT_TOS().
 */
static inline void stt_flowi4_set_tos(struct flowi4 *fl4, u8 tos)
{
#ifdef STT_HAVE_FLOWI4_DSCP
	fl4->flowi4_dscp = inet_dsfield_to_dscp(tos);
#else
	fl4->flowi4_tos = RT_TOS(tos);
#endif
}

/*
 * 6.13's ip_route_input_noref() takes the DSCP and answers a drop reason
 * (Kbuild finds drop reasons in route.h), earlier ones the TOS byte and an
 * errno; either answers 0 for a route.
 */
#ifndef STT_HAVE_IP_ROUTE_INPUT_DSCP
#define ip_route_input_noref(skb, daddr, saddr, dscp, dev)		\
	ip_route_input_noref(skb, daddr, saddr, inet_dscp_to_dsfield(dscp), dev)
#endif

/*
 * Drop reasons that came after 6.1 (TUNNEL_TXINFO, DUP_FRAG, ...).  The
 * enum skb_drop_reason is the kernel's: a module cannot add values to it,
 * so stt reports the nearest existing one, and its own counter (ethtool -S)
 * says exactly why.  An enum member is invisible to the preprocessor, but
 * the kernel lists every reason it has by name for the tracepoint
 * (DEFINE_DROP_REASON), so a reason is looked up there by @name, once at
 * load, and where the kernel lacks it @older stands in: the nearest 6.1
 * value.
 */
static inline enum skb_drop_reason
stt_drop_reason_named(const char *name, enum skb_drop_reason older)
{
#define STT_DROP_REASON(reason) { SKB_DROP_REASON_##reason, #reason },
	static const struct {
		enum skb_drop_reason reason;
		const char *name;
	} reasons[] = {
		DEFINE_DROP_REASON(STT_DROP_REASON, STT_DROP_REASON)
	};
#undef STT_DROP_REASON
	int i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++)
		if (!strcmp(reasons[i].name, name))
			return reasons[i].reason;
	return older;
}

#endif /* _STT_COMPAT_H */
