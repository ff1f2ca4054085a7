// SPDX-License-Identifier: GPL-2.0
/*
 * Receive ports.  A port exists while at least one device uses it.
 *
 * Interception point: IPv4 PRE_ROUTING at NF_IP_PRI_CONNTRACK - 1.  That is
 * after IP defragmentation (enabled here, so outer fragments are whole
 * again) and after the raw table, where an operator can still drop or
 * police STT traffic; and before connection tracking, so the TCP-looking
 * segments, whose sequence numbers are not a byte stream, never reach
 * conntrack's window checks or a filter table's "ctstate INVALID" rule.
 * IPv6 the same, at NF_IP6_PRI_CONNTRACK - 1 (the same number): every port
 * takes segments of both families, as a socket bound to both would.  Where
 * br_netfilter runs those hooks in a bridge's receive path, the segment is
 * taken in LOCAL_IN instead, at the same priority, once the bridge has
 * delivered it to this host (recv.c says why).
 */
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <net/netfilter/ipv4/nf_defrag_ipv4.h>
#include <net/netfilter/ipv6/nf_defrag_ipv6.h>
#include <net/netlink.h>

#include "netns.h"
#include "pmtu.h"
#include "recv.h"
#include "port.h"
#include "stats.h"

#define STT_NF_PRIORITY (NF_IP_PRI_CONNTRACK - 1)
#define STT_NF6_PRIORITY (NF_IP6_PRI_CONNTRACK - 1)

struct stt_port *stt_port_find(struct net *net, __be16 dst_port)
{
	struct stt_net *sn = stt_net(net);
	struct stt_port *port;

	ASSERT_RTNL();
	list_for_each_entry(port, &sn->port_list, list)
		if (port->dst_port == dst_port)
			return port;
	return NULL;
}

static struct stt_port *port_open(struct net *net, __be16 dst_port,
				  struct netlink_ext_ack *extack)
{
	struct stt_port *port;
	int err;

	/* Charged to the opener's memory cgroup, as the device is. */
	port = kzalloc(sizeof(*port), GFP_KERNEL_ACCOUNT);
	if (!port)
		return ERR_PTR(-ENOMEM);
	port->net = net;
	port->dst_port = dst_port;
	hash_init(port->peers);
	hash_init(port->remotes);
	stt_pmtu_dsts_init(&port->sent_to);

	port->counters = stt_counters_alloc();
	if (!port->counters) {
		err = -ENOMEM;
		goto err_free_port;
	}

	err = stt_reasm_table_init(&port->reasm, port->counters,
				   &stt_net(net)->reasm_mem);
	if (err)
		goto err_free_counters;

	err = nf_defrag_ipv4_enable(net);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot enable IPv4 defragmentation");
		goto err_destroy_reasm;
	}
	err = nf_defrag_ipv6_enable(net);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot enable IPv6 defragmentation");
		goto err_disable_defrag;
	}

	port->hooks[0] = (struct nf_hook_ops) {
		.hook = stt_rcv_hook, .priv = port, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_PRE_ROUTING, .priority = STT_NF_PRIORITY,
	};
	/* ICMP errors about our segments, once IP input has taken them as
	 * local; where in LOCAL_IN does not matter, they go on.
	 */
	port->hooks[1] = (struct nf_hook_ops) {
		.hook = stt_icmp_hook, .priv = port, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN, .priority = NF_IP_PRI_FILTER,
	};
	port->hooks[2] = (struct nf_hook_ops) {
		.hook = stt_rcv6_hook, .priv = port, .pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING, .priority = STT_NF6_PRIORITY,
	};
	port->hooks[3] = (struct nf_hook_ops) {
		.hook = stt_icmp6_hook, .priv = port, .pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN, .priority = NF_IP6_PRI_FILTER,
	};
	/* What br_netfilter kept from the hooks above (recv.c), before the
	 * filter table as they are.
	 */
	port->hooks[4] = (struct nf_hook_ops) {
		.hook = stt_rcv_bridged_hook, .priv = port, .pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN, .priority = STT_NF_PRIORITY,
	};
	port->hooks[5] = (struct nf_hook_ops) {
		.hook = stt_rcv_bridged_hook, .priv = port, .pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN, .priority = STT_NF6_PRIORITY,
	};
	err = nf_register_net_hooks(net, port->hooks, ARRAY_SIZE(port->hooks));
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot register the STT receive hooks");
		goto err_disable_defrag6;
	}

	list_add(&port->list, &stt_net(net)->port_list);
	return port;

err_disable_defrag6:
	nf_defrag_ipv6_disable(net);
err_disable_defrag:
	nf_defrag_ipv4_disable(net);
err_destroy_reasm:
	stt_reasm_table_destroy(&port->reasm);
err_free_counters:
	stt_counters_free(port->counters);
err_free_port:
	kfree(port);
	return ERR_PTR(err);
}

static struct workqueue_struct *port_free_wq;

static void port_free(struct work_struct *work)
{
	struct stt_port *port = container_of(to_rcu_work(work),
					     struct stt_port, free_work);

	stt_reasm_table_destroy(&port->reasm);
	stt_counters_free(port->counters);
	kfree(port);
}

/*
 * A hook may still be running on another CPU, and a device's stats reader
 * may still see the port, until a grace period has passed: only then are
 * the table and counters unused.  The port is freed after one, on a
 * workqueue rather than by waiting for it here under RTNL, once per port:
 * a namespace's exit closes all its ports in one batch.
 */
static void port_close(struct stt_port *port)
{
	list_del(&port->list);
	nf_unregister_net_hooks(port->net, port->hooks,
				ARRAY_SIZE(port->hooks));
	nf_defrag_ipv6_disable(port->net);
	nf_defrag_ipv4_disable(port->net);
	INIT_RCU_WORK(&port->free_work, port_free);
	queue_rcu_work(port_free_wq, &port->free_work);
}

/*
 * Waits until the ports closed so far are freed: their tables give back
 * what they hold to their namespace's reassembly budget, which must
 * still be there.
 */
void stt_port_wait_closed(void)
{
	rcu_barrier();			/* queue_rcu_work()'s grace periods */
	flush_workqueue(port_free_wq);
}

int stt_port_init(void)
{
	/* Unbound: a port's free needs no particular CPU (and 7.x warns
	 * about a workqueue that says neither WQ_PERCPU nor WQ_UNBOUND).
	 */
	port_free_wq = alloc_workqueue("stt_port_free", WQ_UNBOUND, 0);
	return port_free_wq ? 0 : -ENOMEM;
}

void stt_port_uninit(void)
{
	stt_port_wait_closed();
	destroy_workqueue(port_free_wq);
}

/*
 * Under RTNL: the port of @dst_port in @net, opened if there is none yet,
 * with a reference for the caller to drop with stt_port_put().
 */
struct stt_port *stt_port_get(struct net *net, __be16 dst_port,
			      struct netlink_ext_ack *extack)
{
	struct stt_port *port;

	ASSERT_RTNL();
	port = stt_port_find(net, dst_port);
	if (!port) {
		port = port_open(net, dst_port, extack);
		if (IS_ERR(port))
			return port;
	}
	port->refcnt++;
	return port;
}

/* Under RTNL: the last reference closes the port, once readers are done. */
void stt_port_put(struct stt_port *port)
{
	ASSERT_RTNL();
	if (--port->refcnt == 0)
		port_close(port);
}

static void hash_peer(struct stt_port *port, struct stt_port_member *member)
{
	hash_add_rcu(port->peers, &member->node, member->context_id);
	hash_add_rcu(port->remotes, &member->remote_node,
		     ipv6_addr_hash(&member->remote));
}

static void unhash_peer(struct stt_port_member *member)
{
	hash_del_rcu(&member->node);
	hash_del_rcu(&member->remote_node);
}

/* Under RTNL: @member joins the port of @dst_port in @net, opened if need be. */
int stt_port_attach(struct stt_port_member *member, struct net *net,
		    __be16 dst_port, struct netlink_ext_ack *extack)
{
	struct stt_port *port;

	port = stt_port_get(net, dst_port, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	if (member->collect_md)
		rcu_assign_pointer(port->collect_md, member);
	else
		hash_peer(port, member);
	rcu_assign_pointer(member->port, port);
	return 0;
}

/*
 * Under RTNL: @member leaves its port, closed if it was the last.  Receive
 * paths and stats readers that found @member or its port before may use
 * them until a grace period has passed, which the caller waits for before
 * freeing @member.
 */
void stt_port_detach(struct stt_port_member *member)
{
	struct stt_port *port = rtnl_dereference(member->port);

	if (member->collect_md)
		RCU_INIT_POINTER(port->collect_md, NULL);
	else
		unhash_peer(member);
	RCU_INIT_POINTER(member->port, NULL);
	stt_port_put(port);
}

/*
 * Under RTNL: a fixed peer's key may change between these two; lookups
 * that started before the unhash may still see it until a grace period.
 */
void stt_port_unhash_peer(struct stt_port_member *member)
{
	unhash_peer(member);
}

void stt_port_hash_peer(struct stt_port_member *member)
{
	hash_peer(rtnl_dereference(member->port), member);
}

static bool peer_matches(const struct stt_port_member *member,
			 const struct in6_addr *remote, u64 context_id)
{
	return member->context_id == context_id &&
	       ipv6_addr_equal(&member->remote, remote);
}

/* Under RTNL: the fixed-peer member of @port for (@remote, @context_id). */
struct stt_port_member *stt_port_find_peer(struct stt_port *port,
					   const struct in6_addr *remote,
					   u64 context_id)
{
	struct stt_port_member *member;

	hash_for_each_possible(port->peers, member, node, context_id)
		if (peer_matches(member, remote, context_id))
			return member;
	return NULL;
}

/*
 * Under RCU, for a received frame: the fixed-peer member for its sender and
 * context id, else the port's external device, else NULL.
 */
struct stt_port_member *stt_port_lookup(struct stt_port *port,
					const struct in6_addr *saddr,
					u64 context_id)
{
	struct stt_port_member *member;

	hash_for_each_possible_rcu(port->peers, member, node, context_id)
		if (peer_matches(member, saddr, context_id))
			return member;
	return rcu_dereference(port->collect_md);
}
