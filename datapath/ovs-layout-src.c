// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled to assembly, not linked: Kbuild turns the DEFINE()s into
 * ovs-layout.h when the modules are built against a full kernel tree, whose
 * net/openvswitch/ holds the private headers (the debug test kernel).
 * Distro kernels have no source; there ovs-btf-layout reads the same list
 * from openvswitch.ko's BTF.  Only numbers get out of here: types and
 * prototypes come from BTF alone, but for one: which form of
 * ovs_netdev_link() the tree has (ovs-abi.h).
 */
#include <linux/kbuild.h>

#include "datapath.h"
#include "vport.h"
#include "vport-netdev.h"

int main(void);

int main(void)
{
#define STT_OVS_SIZE(s) DEFINE(STT_OVS_SIZEOF_##s, sizeof(struct s))
#define STT_OVS_MEMBER(s, m) OFFSET(STT_OVS_OFFSETOF_##s##_##m, s, m)
#define STT_OVS_OPAQUE(s, m) OFFSET(STT_OVS_OFFSETOF_##s##_##m, s, m)
#include "ovs-layout-list.h"
	DEFINE(STT_OVS_NETDEV_LINK_HELD,
	       __builtin_types_compatible_p(typeof(ovs_netdev_link),
					    struct vport *(struct vport *, bool)));
	return 0;
}
