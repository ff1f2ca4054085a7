/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of openvswitch.ko's private interface that vport-stt.ko uses,
 * declared here: linux-headers does not ship openvswitch.ko's headers.
 *
 * Declaring another module's structs is only safe if they match that
 * module's build exactly, so every size and offset listed in
 * ovs-layout-list.h is checked at compile time against ovs-layout.h, which
 * Kbuild generates from the target kernel's own openvswitch.ko (its BTF) or
 * source.  Any difference stops the build with an error naming the struct
 * and the member: a vport-stt.ko that would corrupt openvswitch.ko's memory
 * is never built.  The functions are checked by modversions (their CRCs in
 * the kernel's Module.symvers).
 */
#ifndef _STT_OVS_ABI_H
#define _STT_OVS_ABI_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/openvswitch.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <net/net_namespace.h>

#include "ovs-layout.h"

struct datapath;
struct module;
struct net_device;
struct nlattr;
struct sk_buff;
struct vport;

/* The arguments of a vport creation request. */
struct vport_parms {
	const char *name;
	enum ovs_vport_type type;
	int desired_ifindex;
	struct nlattr *options;
	struct datapath *dp;		/* for ovs_vport_alloc() */
	u16 port_no;
	struct nlattr *upcall_portids;
};

/* A vport type; openvswitch.ko links it into its list of types. */
struct vport_ops {
	enum ovs_vport_type type;
	struct vport *(*create)(const struct vport_parms *parms);
	void (*destroy)(struct vport *vport);
	int (*set_options)(struct vport *vport, struct nlattr *options);
	int (*get_options)(const struct vport *vport, struct sk_buff *skb);
	int (*send)(struct sk_buff *skb);
	struct module *owner;
	struct list_head list;
};

#define STT_OVS_SIZE(s)							\
	static_assert(sizeof(struct s) == STT_OVS_SIZEOF_##s,		\
		      "struct " #s " does not match openvswitch.ko: its size")
#define STT_OVS_MEMBER(s, m)						\
	static_assert(offsetof(struct s, m) == STT_OVS_OFFSETOF_##s##_##m, \
		      "struct " #s " does not match openvswitch.ko: member " #m)
/* Only read at its offset, below. */
#define STT_OVS_OPAQUE(s, m)						\
	static_assert(STT_OVS_OFFSETOF_##s##_##m >= 0,			\
		      "struct " #s ": no offset for member " #m)
#include "ovs-layout-list.h"
#undef STT_OVS_SIZE
#undef STT_OVS_MEMBER
#undef STT_OVS_OPAQUE

/* struct vport and struct datapath stay opaque: only these members are read. */
static inline struct net_device *stt_ovs_vport_dev(const struct vport *vport)
{
	const void *p = (const u8 *)vport + STT_OVS_OFFSETOF_vport_dev;

	return *(struct net_device * const *)p;
}

static inline struct net *stt_ovs_dp_net(const struct datapath *dp)
{
	const void *p = (const u8 *)dp + STT_OVS_OFFSETOF_datapath_net;

	return read_pnet(p);
}

struct vport *ovs_vport_alloc(int priv_size, const struct vport_ops *ops,
			      const struct vport_parms *parms);
void ovs_vport_free(struct vport *vport);
struct vport *ovs_netdev_link(struct vport *vport, const char *name);
void ovs_netdev_tunnel_destroy(struct vport *vport);
int __ovs_vport_ops_register(struct vport_ops *ops);
void ovs_vport_ops_unregister(struct vport_ops *ops);

#endif /* _STT_OVS_ABI_H */
