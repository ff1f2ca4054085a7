// SPDX-License-Identifier: GPL-2.0
/*
 * The underlay route of a device's outer packets, for transmit and for the
 * MTU a new device takes: one lookup per address family.
 */
#include <linux/err.h>
#include <linux/in.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <net/ipv6.h>

#include "route.h"

/*
 * The route in @net of @dev's outer packets described by @fl4 (source
 * address filled in), or an ERR_PTR: -ELOOP when it leads back into @dev,
 * where a frame would only be encapsulated again.
 */
struct rtable *stt_route4(struct net *net, const struct net_device *dev,
			  struct flowi4 *fl4)
{
	struct rtable *rt;

	fl4->flowi4_proto = IPPROTO_TCP;
	rt = ip_route_output_key(net, fl4);
	if (IS_ERR(rt))
		return rt;
	if (rt->dst.dev == dev) {
		ip_rt_put(rt);
		return ERR_PTR(-ELOOP);
	}
	return rt;
}

/*
 * stt_route4()'s sibling for an IPv6 underlay: the route of the outer
 * packets described by @fl6 (source address filled in), through the IPsec
 * policy as a socket's would go, or an ERR_PTR (-ELOOP as there).
 * -EAFNOSUPPORT when IPv6 is disabled (ipv6.disable=1): its routing was
 * never set up then, which ipv6_stub once answered for.
 */
struct dst_entry *stt_route6(struct net *net, const struct net_device *dev,
			     struct flowi6 *fl6)
{
	struct dst_entry *dst;

	if (!ipv6_mod_enabled())
		return ERR_PTR(-EAFNOSUPPORT);
	fl6->flowi6_proto = IPPROTO_TCP;
	dst = ip6_dst_lookup_flow(net, NULL, fl6, NULL);
	if (IS_ERR(dst))
		return dst;
	if (dst->dev == dev) {
		dst_release(dst);
		return ERR_PTR(-ELOOP);
	}
	return dst;
}
