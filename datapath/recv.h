/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STT_RECV_H
#define _STT_RECV_H

#include <linux/netfilter.h>

unsigned int stt_rcv_hook(void *priv, struct sk_buff *skb,
			  const struct nf_hook_state *state);
unsigned int stt_rcv6_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *state);
unsigned int stt_rcv_bridged_hook(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state);

#endif /* _STT_RECV_H */
