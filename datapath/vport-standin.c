// SPDX-License-Identifier: GPL-2.0
/*
 * The vport-stt.ko that DKMS installs for a kernel the real one cannot be
 * built for, beside a working stt.ko (debian/stt-dkms.mk builds it when
 * vport-stt.ko's build fails: an openvswitch.ko without BTF or of another
 * layout, headers installed without the kernel image).  openvswitch.ko
 * loads it for a "type=stt" port as it would the real one, and it refuses
 * to load, saying in the kernel log which kernel and why, so that Open
 * vSwitch's bare "Address family not supported" has a cause next to it.
 * modinfo shows the reason too (the "standin" field).
 *
 * STT_VPORT_STANDIN_REASON comes from vport-standin-reason.h, which the
 * DKMS build writes from the failed build's first error.
 */
#include <linux/module.h>
#include <generated/utsrelease.h>

#include "vport-standin-reason.h"
#include "vport-type.h"

static int __init stt_vport_standin_init(void)
{
	pr_err("stt %s has no vport-stt for kernel %s: %s; stt devices work, Open vSwitch type=stt ports do not\n",
	       STT_MODULE_VERSION, UTS_RELEASE, STT_VPORT_STANDIN_REASON);
	return -ENOEXEC;
}

module_init(stt_vport_standin_init);
MODULE_LICENSE("GPL");
MODULE_VERSION(STT_MODULE_VERSION);
MODULE_DESCRIPTION("Open vSwitch STT vport, not built for this kernel (a standin that refuses to load)");
MODULE_INFO(standin, STT_VPORT_STANDIN_REASON);
MODULE_ALIAS(STT_VPORT_ALIAS);
