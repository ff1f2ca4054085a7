// SPDX-License-Identifier: GPL-2.0
/*
 * vport-stt.ko for a kernel whose openvswitch.ko has no legacy vport types
 * (it exports no __ovs_vport_ops_register), which Open vSwitch plans to
 * remove from Linux.  Open vSwitch 3.5 and earlier ask for vport type 106
 * to create an stt port, and openvswitch.ko loads the module of that alias:
 * this one, which says in the kernel log why there is no such port type and
 * what to use instead, and refuses to load.  The port then fails in
 * ovs-vswitchd with EAFNOSUPPORT ("Address family not supported by
 * protocol").  Kbuild builds it in place of vport-stt.c on such a kernel.
 */
#include <linux/module.h>

static int __init stt_vport_absent_init(void)
{
	pr_err("this kernel's openvswitch module has no legacy vport types, so Open vSwitch 3.5 and earlier cannot create stt ports (vport type 106) on it: use Open vSwitch 4.0 or later with the stt series (ovs-glue/ovs-4.0), which creates them as stt devices over rtnetlink\n");
	return -EOPNOTSUPP;
}

module_init(stt_vport_absent_init);
MODULE_LICENSE("GPL");
MODULE_VERSION(STT_MODULE_VERSION);
MODULE_DESCRIPTION("Open vSwitch STT vport: not on this kernel (no legacy vport types)");
MODULE_ALIAS("vport-type-106");
