// SPDX-License-Identifier: GPL-2.0
/*
 * The vport-stt.ko of a kernel the real one cannot be built for, beside a
 * working stt.ko: one whose openvswitch.ko has no legacy vport types (Kbuild
 * builds it there), or one where vport-stt.ko's build failed under DKMS (an
 * openvswitch.ko without BTF or of another layout, headers installed
 * without the kernel image: debian/stt-dkms.mk builds it then).
 * openvswitch.ko loads it for a "type=stt" port of Open vSwitch 3.x as it
 * would the real one, and it refuses to load, saying in the kernel log
 * which kernel and why, so that Open vSwitch's bare "Address family not
 * supported" has a cause next to it.  modinfo shows the reason too (the
 * "standin" field).
 *
 * STT_VPORT_STANDIN_REASON comes from vport-standin-reason.h, which Kbuild
 * writes for a kernel without legacy vport types and the DKMS build from
 * the failed build's first error.
 */
#include <linux/module.h>
#include <generated/utsrelease.h>

#include "vport-standin-reason.h"
#include "vport-type.h"

static int __init stt_vport_standin_init(void)
{
	pr_err("stt %s has no vport-stt for kernel %s: %s; stt devices work, vport type 106 (the type=stt ports of Open vSwitch 3.x) does not\n",
	       STT_MODULE_VERSION, UTS_RELEASE, STT_VPORT_STANDIN_REASON);
	return -ENOEXEC;
}

module_init(stt_vport_standin_init);
MODULE_LICENSE("GPL");
MODULE_VERSION(STT_MODULE_VERSION);
MODULE_DESCRIPTION("Open vSwitch STT vport, not built for this kernel (a standin that refuses to load)");
MODULE_INFO(standin, STT_VPORT_STANDIN_REASON);
MODULE_ALIAS(STT_VPORT_ALIAS);
