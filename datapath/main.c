// SPDX-License-Identifier: GPL-2.0
/*
 * stt.ko: Stateless Transport Tunneling.  Brings the parts up in order and
 * down in reverse; each part lives in its own file.
 */
#include <linux/module.h>
#include <linux/stt.h>
#include <net/rtnetlink.h>

#include "link.h"
#include "netns.h"
#include "port.h"
#include "stats.h"

static int __init stt_mod_init(void)
{
	int err;

	stt_stats_init();
	err = stt_port_init();
	if (err)
		return err;
	/* Namespaces first: a device can be created once the kind is. */
	err = stt_netns_init();
	if (err)
		goto err_uninit_port;
	err = stt_link_init();
	if (err)
		goto err_uninit_netns;
	return 0;

err_uninit_netns:
	stt_netns_uninit();
err_uninit_port:
	stt_port_uninit();
	return err;
}

static void __exit stt_mod_exit(void)
{
	stt_link_uninit();
	stt_netns_uninit();
	stt_port_uninit();	/* after the last port closed */
}

module_init(stt_mod_init);
module_exit(stt_mod_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(STT_MODULE_VERSION);
MODULE_DESCRIPTION("Stateless Transport Tunneling (STT) network device");
MODULE_ALIAS_RTNL_LINK(STT_LINK_KIND);
