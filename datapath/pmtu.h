/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STT_PMTU_H
#define _STT_PMTU_H

#include <linux/netfilter.h>

unsigned int stt_icmp_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *state);
unsigned int stt_icmp6_hook(void *priv, struct sk_buff *skb,
			    const struct nf_hook_state *state);

#endif /* _STT_PMTU_H */
