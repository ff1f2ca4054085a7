/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STT_PMTU_H
#define _STT_PMTU_H

#include <linux/in6.h>
#include <linux/netfilter.h>
#include <linux/siphash.h>

#define STT_PMTU_DST_SETS 64
#define STT_PMTU_DST_WAYS 4

/*
 * Where a port's external device sent segments lately, for the ICMP hooks
 * to tell errors about them from forged ones: unlike a fixed peer, it has
 * no remote to compare with.  Bounded: a destination takes a slot in the
 * set its hash picks, evicting the way written longest ago.  A slot holds
 * a keyed hash of the address and when it was last written, two words
 * written without a lock; a torn pair only ever mixes two destinations
 * really sent to, and the secret key keeps an attacker from choosing an
 * address whose hash matches one of them.
 */
struct stt_pmtu_dst {
	unsigned long tag;		/* 0: empty; never a destination's */
	unsigned long stamp;		/* jiffies when written */
};

struct stt_pmtu_dsts {
	siphash_key_t key;
	struct stt_pmtu_dst slot[STT_PMTU_DST_SETS][STT_PMTU_DST_WAYS];
};

void stt_pmtu_dsts_init(struct stt_pmtu_dsts *dsts);
void stt_pmtu_dst_sent(struct stt_pmtu_dsts *dsts,
		       const struct in6_addr *daddr);

unsigned int stt_icmp_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *state);
unsigned int stt_icmp6_hook(void *priv, struct sk_buff *skb,
			    const struct nf_hook_state *state);

#endif /* _STT_PMTU_H */
