/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reassembly of STT frames that arrive in several segments.
 *
 * One table per receive port (struct stt_port), so the namespace and the
 * destination port are implied; the key holds the rest: outer addresses,
 * source port and frame id.  Chained hashing, so colliding keys never cost a
 * frame; memory (skb truesize plus bookkeeping) is bounded, for a
 * namespace's tables together, and a table's oldest frames are evicted to
 * make room; frames that do not complete within the timeout are expired.
 */
#ifndef _STT_REASM_TABLE_H
#define _STT_REASM_TABLE_H

#include <linux/in6.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

struct sk_buff;
struct stt_counters;

struct stt_reasm_key {
	struct in6_addr saddr;		/* IPv4 stored v4-mapped */
	struct in6_addr daddr;
	__be16 sport;
	__be32 frame_id;
};

struct stt_reasm_table {
	spinlock_t lock;		/* everything below */
	struct hlist_head *buckets;
	struct list_head lru;		/* oldest first */
	unsigned int nr_frames;
	unsigned int mem;
	atomic_t *ns_mem;		/* all the namespace's tables hold */
	u32 seed;
	struct timer_list gc;
	struct stt_counters __percpu *counters;
};

int stt_reasm_table_init(struct stt_reasm_table *t,
			 struct stt_counters __percpu *counters,
			 atomic_t *ns_mem);
void stt_reasm_table_destroy(struct stt_reasm_table *t);
/* The bound on a namespace's tables together: reasm_mem_limit, which
 * applies live.
 */
unsigned int stt_reasm_mem_limit(void);
struct sk_buff *stt_reasm_table_add(struct stt_reasm_table *t,
				    struct sk_buff *skb,
				    const struct stt_reasm_key *key,
				    u16 frame_len, u16 offset);

#endif /* _STT_REASM_TABLE_H */
