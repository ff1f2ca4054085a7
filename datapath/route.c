// SPDX-License-Identifier: GPL-2.0
/*
 * The underlay route of a device's outer packets, for transmit and for the
 * MTU a new device takes.
 */
#include <linux/err.h>
#include <linux/in.h>
#include <linux/netdevice.h>

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
