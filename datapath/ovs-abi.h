/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of openvswitch.ko's private interface that vport-stt.ko uses,
 * declared here: linux-headers does not ship openvswitch.ko's headers.
 *
 * Declaring another module's structs and functions is only safe if they
 * match that module's build exactly, so everything listed in
 * ovs-layout-list.h is checked at compile time against ovs-layout.h, which
 * Kbuild generates from the target kernel's own openvswitch.ko.  From its
 * BTF: the size of each struct, the offset and the type of each member, and
 * each function's prototype, all as C types (the number and types of the
 * parameters, the return type, const, pointed-to structs by name).  From a
 * kernel source tree, which has no BTF: sizes and offsets only.  Any
 * difference stops the build with an error naming the struct and the
 * member, or the function: a vport-stt.ko that would corrupt openvswitch.ko's
 * memory is never built.
 *
 * Modversions checks none of this: the CRCs vport-stt.ko records are taken
 * from the kernel's Module.symvers, computed from openvswitch.ko's own
 * declarations when the kernel was built, never from these.
 *
 * BTF pins types, not behaviour.  What openvswitch.ko does with a call can
 * change under the same prototype: ovs_netdev_link() finding the device by
 * name and taking it over, ovs_netdev_tunnel_destroy() deleting the device
 * with the port.  That is pinned only by the kernel versions vport-stt was
 * tested on, by its tests (the guest tests ovs-basic, ovs-churn,
 * lifecycle-ovs).
 */
#ifndef _STT_OVS_ABI_H
#define _STT_OVS_ABI_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/openvswitch.h>
#include <linux/stddef.h>
#include <linux/stringify.h>
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

struct vport *ovs_vport_alloc(int priv_size, const struct vport_ops *ops,
			      const struct vport_parms *parms);
void ovs_vport_free(struct vport *vport);
/*
 * ovs_netdev_link() links a new vport's device into the datapath, in one
 * of two forms.  Up to 6.12 (at least) it takes the device's name, finds
 * the device and holds it in vport->dev itself; later kernels (7.2) take a
 * vport whose device its creator holds there already, and whether it is a
 * tunnel's, which a failure then deletes.  Each form is declared under a
 * name of its own for the one symbol, and STT_OVS_NETDEV_LINK_HELD says
 * which one openvswitch.ko has.
 */
struct vport *stt_ovs_netdev_link_name(struct vport *vport, const char *name)
	__asm__("ovs_netdev_link");
struct vport *stt_ovs_netdev_link_held(struct vport *vport, bool tunnel)
	__asm__("ovs_netdev_link");
void ovs_netdev_tunnel_destroy(struct vport *vport);
int __ovs_vport_ops_register(struct vport_ops *ops);
void ovs_vport_ops_unregister(struct vport_ops *ops);

#define STT_OVS_SIZE(s)							\
	static_assert(sizeof(struct s) == STT_OVS_SIZEOF_##s,		\
		      "struct " #s " does not match openvswitch.ko: its size")
/* Only used at its offset, through STT_OVS_FIELD() below. */
#define STT_OVS_OPAQUE(s, m)						\
	static_assert(STT_OVS_OFFSETOF_##s##_##m >= 0,			\
		      "struct " #s ": no offset for member " #m)
#define STT_OVS_OFFSET_OK(s, m)						\
	(offsetof(struct s, m) == STT_OVS_OFFSETOF_##s##_##m)
/*
 * A pointer to member @m, taken as a @qual @type, of the struct @s at @p
 * (@qual: const, or nothing to write it).
 */
#define STT_OVS_AT(qual, type, p, s, m)					\
	((qual typeof(type) *)((qual u8 *)(p) + STT_OVS_OFFSETOF_##s##_##m))

#ifdef STT_OVS_LAYOUT_TYPES
/* The layout was read from BTF: types and prototypes are checked too. */
#define STT_OVS_TYPE_OK(type, id)					\
	__builtin_types_compatible_p(type, stt_ovs_type_##id)
#define STT_OVS_MEMBER_DIFFERS(s, m)					\
	"struct " #s " does not match openvswitch.ko: member " #m	\
	" (openvswitch.ko has " STT_OVS_DECL_##s##_##m " at offset "	\
	__stringify(STT_OVS_OFFSETOF_##s##_##m) ")"
#define STT_OVS_MEMBER(s, m)						\
	static_assert(STT_OVS_OFFSET_OK(s, m) &&			\
		      STT_OVS_TYPE_OK(typeof(((struct s *)0)->m), s##_##m), \
		      STT_OVS_MEMBER_DIFFERS(s, m))
/* @f is pasted before it is expanded: ovs_netdev_link is a macro there. */
#define STT_OVS_FUNC(f)							\
	static_assert(__builtin_types_compatible_p(typeof(f),		\
						   stt_ovs_type_##f),	\
		      #f "() does not match openvswitch.ko (openvswitch.ko has " \
		      STT_OVS_DECL_##f ")")
#define STT_OVS_CHECKED_AT(qual, type, p, s, m) ({			\
	static_assert(STT_OVS_TYPE_OK(type, s##_##m),			\
		      STT_OVS_MEMBER_DIFFERS(s, m));			\
	STT_OVS_AT(qual, type, p, s, m);				\
})
#define STT_OVS_NETDEV_LINK_HELD					\
	STT_OVS_TYPE_OK(typeof(stt_ovs_netdev_link_held), ovs_netdev_link)
#else
/*
 * The layout was read from kernel source: sizes and offsets alone, and
 * STT_OVS_NETDEV_LINK_HELD.
 */
#define STT_OVS_MEMBER(s, m)						\
	static_assert(STT_OVS_OFFSET_OK(s, m),				\
		      "struct " #s " does not match openvswitch.ko: member " #m)
#define STT_OVS_CHECKED_AT(qual, type, p, s, m) STT_OVS_AT(qual, type, p, s, m)
#endif
/* Member @m of the struct @s at @p, to read, or to write (_W). */
#define STT_OVS_FIELD(type, p, s, m) STT_OVS_CHECKED_AT(const, type, p, s, m)
#define STT_OVS_FIELD_W(type, p, s, m) STT_OVS_CHECKED_AT(, type, p, s, m)

/* The list's ovs_netdev_link() is the form openvswitch.ko has. */
#define ovs_netdev_link							\
	__builtin_choose_expr(STT_OVS_NETDEV_LINK_HELD,			\
			      stt_ovs_netdev_link_held,			\
			      stt_ovs_netdev_link_name)
#include "ovs-layout-list.h"
#undef ovs_netdev_link
#undef STT_OVS_SIZE
#undef STT_OVS_MEMBER
#undef STT_OVS_OPAQUE
#undef STT_OVS_FUNC

/*
 * struct vport and struct datapath stay opaque: vport-stt uses only these
 * members, each through STT_OVS_FIELD() or STT_OVS_FIELD_W(), which check
 * the type it is used as where they can.
 */
static inline struct net_device *stt_ovs_vport_dev(const struct vport *vport)
{
	return *STT_OVS_FIELD(struct net_device *, vport, vport, dev);
}

/*
 * Gives a new @vport its device @dev, held, as the form of
 * ovs_netdev_link() that takes it so expects: with RTNL held, so that @dev
 * cannot go first.  The other form finds and holds the device itself.
 */
static inline void stt_ovs_vport_hold_dev(struct vport *vport,
					  struct net_device *dev)
{
	if (!STT_OVS_NETDEV_LINK_HELD)
		return;
	*STT_OVS_FIELD_W(struct net_device *, vport, vport, dev) = dev;
	netdev_hold(dev, STT_OVS_FIELD_W(netdevice_tracker, vport, vport,
					 dev_tracker), GFP_KERNEL);
}

/*
 * Links @vport's device, named @name, into the datapath: a tunnel's, which
 * the form that knows deletes on failure.  On failure @vport is freed.
 */
static inline struct vport *stt_ovs_netdev_link(struct vport *vport,
						const char *name)
{
	if (STT_OVS_NETDEV_LINK_HELD)
		return stt_ovs_netdev_link_held(vport, true);
	return stt_ovs_netdev_link_name(vport, name);
}

static inline struct net *stt_ovs_dp_net(const struct datapath *dp)
{
	return read_pnet(STT_OVS_FIELD(possible_net_t, dp, datapath, net));
}

#endif /* _STT_OVS_ABI_H */
