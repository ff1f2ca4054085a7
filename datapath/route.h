/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The underlay route of a device's outer packets.
 */
#ifndef _STT_ROUTE_H
#define _STT_ROUTE_H

#include <net/route.h>

struct net_device;
struct flowi6;

struct rtable *stt_route4(struct net *net, const struct net_device *dev,
			  struct flowi4 *fl4);
struct dst_entry *stt_route6(struct net *net, const struct net_device *dev,
			     struct flowi6 *fl6);

#endif /* _STT_ROUTE_H */
