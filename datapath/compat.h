/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels stt builds for (6.1 and 6.12).
 * Every such test in the module lives here, behind a small helper named
 * after what it does.  The tests look for the API itself rather than a
 * version number, so a stable backport cannot fool them.
 */
#ifndef _STT_COMPAT_H
#define _STT_COMPAT_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/dst_metadata.h>
#include <net/ip_tunnels.h>

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
