/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stt network device: its configuration and its state.
 */
#ifndef _STT_DEVICE_H
#define _STT_DEVICE_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/stt.h>
#include <net/gro_cells.h>
#include <net/ip.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>

#include "port.h"

struct netlink_ext_ack;

/* What the user asked for (rtnetlink attributes IFLA_STT_*). */
struct stt_config {
	/* Fixed-peer mode: remote, local, context id, tos (1: inherit), ttl
	 * and destination port, as the transmit path consumes them.  The
	 * addresses are IPv6 when info.mode has IP_TUNNEL_INFO_IPV6.
	 */
	struct ip_tunnel_info info;
	__be16 dst_port;
	u16 sport_min;			/* 0, 0: the local port range */
	u16 sport_max;
	bool collect_md;		/* external: per-packet tunnel metadata */
	bool ttl_inherit;
	enum ifla_stt_df df;
};

struct stt_dev {
	struct net_device *dev;
	struct net *net;		/* underlay namespace */
	struct list_head next;		/* in stt_net.dev_list of ->net */
	struct stt_port_member rx;	/* on its port from ndo_init on */
	struct gro_cells gro_cells;
	u32 __percpu *frame_id;		/* per-CPU frame id cursor */
	/* Until the device is freed: stats are read after unregister. */
	struct stt_counters __percpu *counters;
	struct stt_config cfg;
	/* Set while changelink rewrites cfg: transmit drops, as it cannot
	 * read cfg whole meanwhile (smp_load_acquire pairs with the release
	 * that clears it).
	 */
	bool reconfiguring;
};

/* The device of a member a receive port found. */
static inline struct stt_dev *stt_dev_from_member(struct stt_port_member *m)
{
	return container_of(m, struct stt_dev, rx);
}

/*
 * A fixed peer's remote as receive ports key it: an IPv4 remote
 * IPv4-mapped (::ffff:a.b.c.d), as in the reassembly key.
 */
static inline void stt_config_remote(const struct stt_config *cfg,
				     struct in6_addr *remote)
{
	if (ip_tunnel_info_af(&cfg->info) == AF_INET6)
		*remote = cfg->info.key.u.ipv6.dst;
	else
		ipv6_addr_set_v4mapped(cfg->info.key.u.ipv4.dst, remote);
}

/*
 * The range from *@low to *@high that @stt's source ports are drawn from:
 * the configured one, else the namespace's local port range, as
 * udp_flow_src_port() chooses.
 */
static inline void stt_sport_range(const struct stt_dev *stt, int *low,
				   int *high)
{
	*low = stt->cfg.sport_min;
	*high = stt->cfg.sport_max;
	if (*low >= *high)
		inet_get_local_port_range(stt->net, low, high);
}

void stt_dev_setup(struct net_device *dev);
int stt_dev_register(struct net *net, struct net_device *dev,
		     const struct stt_config *cfg, bool mtu_given,
		     struct netlink_ext_ack *extack);
void stt_dev_reconfigure(struct stt_dev *stt, const struct stt_config *cfg);
void stt_dev_unregister(struct net_device *dev, struct list_head *head);

#endif /* _STT_DEVICE_H */
