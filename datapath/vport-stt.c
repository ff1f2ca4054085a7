// SPDX-License-Identifier: GPL-2.0
/*
 * vport-stt.ko: Open vSwitch vport type 106 ("stt") over the distro's own
 * openvswitch.ko.  ovs-vswitchd asks for a port named stt_sys_<dst_port>
 * with OVS_TUNNEL_ATTR_DST_PORT; openvswitch.ko, not knowing type 106, loads
 * us through the module alias and retries.  The port is an external-mode
 * stt device linked into the datapath like any other netdev.
 */
#include <linux/module.h>
#include <linux/openvswitch.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>

#include "datapath.h"
#include "vport.h"
#include "vport-netdev.h"

#include "stt.h"

/* Upstream never named it; Open vSwitch userspace uses this number. */
#define OVS_VPORT_TYPE_STT 106

struct stt_vport {
	u16 dst_port;
};

static struct vport_ops stt_vport_ops;

static int stt_vport_get_options(const struct vport *vport,
				 struct sk_buff *skb)
{
	const struct stt_vport *sv = vport_priv(vport);

	if (nla_put_u16(skb, OVS_TUNNEL_ATTR_DST_PORT, sv->dst_port))
		return -EMSGSIZE;
	return 0;
}

static struct vport *stt_vport_create(const struct vport_parms *parms)
{
	struct net *net = ovs_dp_get_net(parms->dp);
	struct stt_vport *sv;
	struct net_device *dev;
	struct vport *vport;
	struct nlattr *a;
	int err;

	a = parms->options ? nla_find_nested(parms->options,
					     OVS_TUNNEL_ATTR_DST_PORT) : NULL;
	/* Port 0 would be a receive port nothing sends to. */
	if (!a || nla_len(a) != sizeof(u16) || !nla_get_u16(a))
		return ERR_PTR(-EINVAL);

	vport = ovs_vport_alloc(sizeof(*sv), &stt_vport_ops, parms);
	if (IS_ERR(vport))
		return vport;
	sv = vport_priv(vport);
	sv->dst_port = nla_get_u16(a);

	rtnl_lock();
	dev = stt_dev_create_fb(net, parms->name, NET_NAME_USER,
				sv->dst_port);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto err_unlock;
	}
	err = dev_change_flags(dev, dev->flags | IFF_UP, NULL);
	if (err < 0) {
		rtnl_delete_link(dev, 0, NULL);
		goto err_unlock;
	}
	rtnl_unlock();

	return ovs_netdev_link(vport, parms->name);

err_unlock:
	rtnl_unlock();
	ovs_vport_free(vport);
	return ERR_PTR(err);
}

static struct vport_ops stt_vport_ops = {
	.type		= OVS_VPORT_TYPE_STT,
	.create		= stt_vport_create,
	.destroy	= ovs_netdev_tunnel_destroy,
	.get_options	= stt_vport_get_options,
	.send		= dev_queue_xmit,
};

static int __init stt_vport_init(void)
{
	return ovs_vport_ops_register(&stt_vport_ops);
}

static void __exit stt_vport_exit(void)
{
	ovs_vport_ops_unregister(&stt_vport_ops);
}

module_init(stt_vport_init);
module_exit(stt_vport_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Open vSwitch STT vport");
MODULE_ALIAS("vport-type-106");
