/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STT_XMIT_H
#define _STT_XMIT_H

#include <linux/netdevice.h>

netdev_tx_t stt_xmit(struct sk_buff *skb, struct net_device *dev);
int stt_fill_metadata_dst(struct net_device *dev, struct sk_buff *skb);

#endif /* _STT_XMIT_H */
