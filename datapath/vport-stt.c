// SPDX-License-Identifier: GPL-2.0
/*
 * vport-stt.ko: Open vSwitch vport type 106 ("stt") over the distro's own
 * openvswitch.ko.  ovs-vswitchd asks for a port named stt_sys_<dst_port>
 * with OVS_TUNNEL_ATTR_DST_PORT; openvswitch.ko, not knowing type 106, loads
 * us through the module alias and retries.  The port is an external-mode
 * stt device linked into the datapath like any other netdev.
 *
 * A failed request reaches ovs-vswitchd as a bare errno (vport creation
 * carries no extended ack), so each failure also says why in the kernel
 * log, rate limited.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <linux/openvswitch.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>
#include <net/stt.h>

#include "ovs-abi.h"
#include "vport-type.h"

static struct vport_ops stt_vport_ops;

static int stt_vport_get_options(const struct vport *vport,
				 struct sk_buff *skb)
{
	u16 dst_port = stt_dev_dst_port(stt_ovs_vport_dev(vport));

	if (nla_put_u16(skb, OVS_TUNNEL_ATTR_DST_PORT, dst_port))
		return -EMSGSIZE;
	return 0;
}

/* The destination port is the only option; refuse what we do not know. */
static int stt_vport_parse_options(const struct vport_parms *parms,
				   u16 *dst_port)
{
	struct nlattr *a;
	int rem;

	*dst_port = 0;
	if (parms->options) {
		nla_for_each_nested(a, parms->options, rem) {
			if (nla_type(a) != OVS_TUNNEL_ATTR_DST_PORT) {
				net_warn_ratelimited("%s: unknown tunnel option %d\n",
						     parms->name, nla_type(a));
				return -EINVAL;
			}
			if (nla_len(a) != sizeof(u16)) {
				net_warn_ratelimited("%s: destination port option of %d bytes, not 2\n",
						     parms->name, nla_len(a));
				return -EINVAL;
			}
			*dst_port = nla_get_u16(a);
		}
	}
	/* Port 0 would be a receive port nothing sends to. */
	if (!*dst_port) {
		net_warn_ratelimited("%s: no destination port given\n",
				     parms->name);
		return -EINVAL;
	}
	return 0;
}

static struct vport *stt_vport_create(const struct vport_parms *parms)
{
	struct net *net = stt_ovs_dp_net(parms->dp);
	struct net_device *dev;
	struct vport *vport;
	u16 dst_port;
	int err;

	err = stt_vport_parse_options(parms, &dst_port);
	if (err)
		return ERR_PTR(err);

	vport = ovs_vport_alloc(0, &stt_vport_ops, parms);
	if (IS_ERR(vport))
		return vport;

	rtnl_lock();
	dev = stt_dev_create_fb(net, parms->name, NET_NAME_USER, dst_port);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto err_unlock;
	}
	err = dev_change_flags(dev, dev->flags | IFF_UP, NULL);
	if (err < 0) {
		net_warn_ratelimited("%s: cannot bring the device up (%d)\n",
				     parms->name, err);
		rtnl_delete_link(dev, 0, NULL);
		goto err_unlock;
	}
	stt_ovs_vport_hold_dev(vport, dev);
	rtnl_unlock();

	return stt_ovs_netdev_link(vport, parms->name);

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
	.owner		= THIS_MODULE,
};

static int __init stt_vport_init(void)
{
	return __ovs_vport_ops_register(&stt_vport_ops);
}

static void __exit stt_vport_exit(void)
{
	ovs_vport_ops_unregister(&stt_vport_ops);
}

module_init(stt_vport_init);
module_exit(stt_vport_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(STT_MODULE_VERSION);
MODULE_DESCRIPTION("Open vSwitch STT vport");
MODULE_ALIAS(STT_VPORT_ALIAS);
