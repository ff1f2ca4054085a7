/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A receive port: the (underlay namespace, destination port) pair that stt
 * devices share.  It owns the netfilter hooks that take STT segments away
 * from the TCP stack, the reassembly table and the counters of everything
 * that happens before a frame is matched to a device.
 */
#ifndef _STT_PORT_H
#define _STT_PORT_H

#include <linux/hashtable.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/netfilter.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "pmtu.h"
#include "reasm.h"

struct net;
struct netlink_ext_ack;

/*
 * A device's place on the port it receives on, embedded in the device:
 * all the port knows of it.  The device sets the key before it attaches,
 * and changes it only while unhashed.
 */
struct stt_port_member {
	/* From attach to detach; RCU for late stats readers. */
	struct stt_port __rcu *port;
	struct hlist_node node;		/* fixed peer: in port->peers */
	struct hlist_node remote_node;	/* fixed peer: in port->remotes */
	/* Fixed peer: the key.  An IPv4 remote is IPv4-mapped (::ffff:a.b.c.d),
	 * as in the reassembly key.
	 */
	struct in6_addr remote;
	u64 context_id;
	bool collect_md;		/* the port's external device */
};

struct stt_port {
	struct list_head list;		/* in stt_net.port_list, under RTNL */
	struct net *net;		/* underlay namespace */
	__be16 dst_port;
	unsigned int refcnt;		/* devices, stt_port_get(); RTNL */
	struct stt_port_member __rcu *collect_md;
	DECLARE_HASHTABLE(peers, 6);	/* fixed-peer members by context id */
	/* The same members by remote, for pmtu.c: an ICMP error quotes a
	 * segment's addresses, not its context id.
	 */
	DECLARE_HASHTABLE(remotes, 6);
	struct nf_hook_ops hooks[6];	/* recv.c's, pmtu.c's; IPv4, IPv6 */
	struct stt_pmtu_dsts sent_to;	/* by the external device */
	struct stt_reasm_table reasm;
	struct stt_counters __percpu *counters;
	struct rcu_work free_work;	/* port_close() */
};

int stt_port_init(void);
void stt_port_uninit(void);
void stt_port_wait_closed(void);
struct stt_port *stt_port_find(struct net *net, __be16 dst_port);
struct stt_port *stt_port_get(struct net *net, __be16 dst_port,
			      struct netlink_ext_ack *extack);
void stt_port_put(struct stt_port *port);
int stt_port_attach(struct stt_port_member *member, struct net *net,
		    __be16 dst_port, struct netlink_ext_ack *extack);
void stt_port_detach(struct stt_port_member *member);
void stt_port_hash_peer(struct stt_port_member *member);
void stt_port_unhash_peer(struct stt_port_member *member);
struct stt_port_member *stt_port_find_peer(struct stt_port *port,
					   const struct in6_addr *remote,
					   u64 context_id);
struct stt_port_member *stt_port_lookup(struct stt_port *port,
					const struct in6_addr *saddr,
					u64 context_id);

#endif /* _STT_PORT_H */
