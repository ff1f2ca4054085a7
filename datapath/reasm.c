// SPDX-License-Identifier: GPL-2.0
/*
 * Reassembly table: holds the segments of incomplete frames until the frame
 * is whole, then has frame.c build the frame from them.  lib/stt_reasm.c
 * decides which segments are acceptable; this file owns memory, hashing and
 * expiry.
 */
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "compat.h"
#include "frame.h"
#include "reasm.h"
#include "stats.h"
#include "stt_reasm.h"

static unsigned int reasm_mem_limit = 8 << 20;
module_param(reasm_mem_limit, uint, 0644);
MODULE_PARM_DESC(reasm_mem_limit,
		 "Bytes the receive ports of a namespace may hold in reassembly, all together (default 8 MiB; applies at once)");

static unsigned int reasm_timeout_ms = 1000;
module_param(reasm_timeout_ms, uint, 0644);
MODULE_PARM_DESC(reasm_timeout_ms,
		 "Milliseconds an incomplete frame is kept (default 1000; applies to frames begun after a change)");

#define REASM_HASH_BITS 10

struct frame {
	struct hlist_node hnode;
	struct list_head lru;
	struct stt_reasm_key key;
	unsigned long expires;
	/* In arrival order, newest first: stt_frame_build() sorts them once
	 * the frame is whole; keeping them sorted here would cost a list walk
	 * per segment, quadratic for a hostile order.
	 */
	struct sk_buff *segs;
	unsigned int truesize;		/* of segs plus this struct */
	struct stt_reasm state;
};

static u32 key_hash(const struct stt_reasm_table *t,
		    const struct stt_reasm_key *key)
{
	return jhash2((const u32 *)key, sizeof(*key) / sizeof(u32), t->seed) &
	       ((1U << REASM_HASH_BITS) - 1);
}

static bool key_equal(const struct stt_reasm_key *a,
		      const struct stt_reasm_key *b)
{
	return a->frame_id == b->frame_id && a->sport == b->sport &&
	       ipv6_addr_equal(&a->saddr, &b->saddr) &&
	       ipv6_addr_equal(&a->daddr, &b->daddr);
}

/* What the table holds grows by @delta bytes (or shrinks), and so what the
 * namespace's tables do.
 */
static void mem_add(struct stt_reasm_table *t, int delta)
{
	t->mem += delta;
	atomic_add(delta, t->ns_mem);
}

/* Takes @fr out of the table and frees it; returns the segments it held. */
static struct sk_buff *frame_take(struct stt_reasm_table *t, struct frame *fr)
{
	struct sk_buff *segs = fr->segs;

	hlist_del(&fr->hnode);
	list_del(&fr->lru);
	t->nr_frames--;
	mem_add(t, -fr->truesize);
	kfree(fr);
	return segs;
}

/* Drops incomplete frame @fr, counted by @c. */
static void frame_drop(struct stt_reasm_table *t, struct frame *fr,
		       enum stt_counter c)
{
	kfree_skb_list_reason(frame_take(t, fr), stt_drop_reason(c));
	stt_count(t->counters, c);
}

static void expire_frames(struct stt_reasm_table *t)
{
	struct frame *fr, *tmp;

	list_for_each_entry_safe(fr, tmp, &t->lru, lru) {
		if (time_before(jiffies, fr->expires))
			break;
		frame_drop(t, fr, STT_RX_REASM_TIMEOUTS);
	}
}

static void gc_timer(struct timer_list *timer)
{
	struct stt_reasm_table *t = timer_container_of(t, timer, gc);

	spin_lock(&t->lock);
	expire_frames(t);
	if (!list_empty(&t->lru))
		mod_timer(&t->gc, list_first_entry(&t->lru, struct frame,
						   lru)->expires);
	spin_unlock(&t->lock);
}

int stt_reasm_table_init(struct stt_reasm_table *t,
			 struct stt_counters __percpu *counters,
			 atomic_t *ns_mem)
{
	int i;

	t->buckets = kcalloc(1U << REASM_HASH_BITS, sizeof(*t->buckets),
			     GFP_KERNEL_ACCOUNT);
	if (!t->buckets)
		return -ENOMEM;
	for (i = 0; i < (1U << REASM_HASH_BITS); i++)
		INIT_HLIST_HEAD(&t->buckets[i]);
	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->lru);
	t->nr_frames = 0;
	t->mem = 0;
	t->ns_mem = ns_mem;
	t->seed = get_random_u32();
	t->counters = counters;
	timer_setup(&t->gc, gc_timer, 0);
	return 0;
}

unsigned int stt_reasm_mem_limit(void)
{
	return READ_ONCE(reasm_mem_limit);
}

/* Called once the port's netfilter hook is gone and RCU readers are done. */
void stt_reasm_table_destroy(struct stt_reasm_table *t)
{
	struct frame *fr, *tmp;

	timer_delete_sync(&t->gc);
	spin_lock_bh(&t->lock);
	list_for_each_entry_safe(fr, tmp, &t->lru, lru)
		kfree_skb_list_reason(frame_take(t, fr),	/* devices gone */
				      SKB_DROP_REASON_DEV_READY);
	spin_unlock_bh(&t->lock);
	WARN_ON_ONCE(t->mem);
	kfree(t->buckets);
}

/*
 * Evicts this table's oldest frames until @need more bytes fit under the
 * limit, which bounds the namespace's tables together, as
 * ipfrag_high_thresh bounds a namespace's IP reassembly: whoever opens
 * ports in a namespace (a user namespace's root may) gets one budget, not
 * one per port.  A table does not evict another's frames: when what the
 * others hold leaves no room, the segment is dropped.  Tables on other CPUs
 * may add a segment each meanwhile.  The limit is read each time, so that
 * a change of the parameter applies at once: a lower one evicts down to it
 * with the next segment.
 */
static bool make_room(struct stt_reasm_table *t, unsigned int need)
{
	unsigned int limit = stt_reasm_mem_limit();

	if (need > limit)
		return false;
	while ((unsigned int)atomic_read(t->ns_mem) + need > limit &&
	       !list_empty(&t->lru))
		frame_drop(t, list_first_entry(&t->lru, struct frame, lru),
			   STT_RX_REASM_MEM_DROPS);
	return (unsigned int)atomic_read(t->ns_mem) + need <= limit;
}

static struct frame *frame_find(struct stt_reasm_table *t,
				const struct stt_reasm_key *key,
				struct hlist_head *bucket)
{
	struct frame *fr;

	hlist_for_each_entry(fr, bucket, hnode)
		if (key_equal(&fr->key, key))
			return fr;
	return NULL;
}

static struct frame *frame_create(struct stt_reasm_table *t,
				  const struct stt_reasm_key *key,
				  struct hlist_head *bucket, u16 frame_len)
{
	struct frame *fr;

	fr = kmalloc(sizeof(*fr), GFP_ATOMIC);
	if (!fr)
		return NULL;
	fr->key = *key;
	fr->expires = jiffies +
		      (msecs_to_jiffies(READ_ONCE(reasm_timeout_ms)) ?: 1);
	fr->segs = NULL;
	fr->truesize = sizeof(*fr);
	stt_reasm_init(&fr->state, frame_len);
	hlist_add_head(&fr->hnode, bucket);
	list_add_tail(&fr->lru, &t->lru);
	t->nr_frames++;
	mem_add(t, sizeof(*fr));
	if (!timer_pending(&t->gc))
		mod_timer(&t->gc, fr->expires);
	return fr;
}

/*
 * Takes @skb, whose data starts at the segment's payload.  Returns the whole
 * frame (data at the STT header) when @skb completed one, else NULL: the
 * segment was queued, or dropped and counted.
 */
struct sk_buff *stt_reasm_table_add(struct stt_reasm_table *t,
				    struct sk_buff *skb,
				    const struct stt_reasm_key *key,
				    u16 frame_len, u16 offset)
{
	struct hlist_head *bucket = &t->buckets[key_hash(t, key)];
	enum stt_counter drop;
	struct sk_buff *segs;
	struct frame *fr;
	enum stt_err err;

	STT_SEG_CB(skb)->offset = offset;

	spin_lock(&t->lock);
	/* Room first: once lib/ has recorded the bytes they must be kept. */
	if (!make_room(t, skb->truesize + sizeof(*fr)))
		goto drop_mem;
	fr = frame_find(t, key, bucket);
	if (fr && time_after_eq(jiffies, fr->expires)) {
		frame_drop(t, fr, STT_RX_REASM_TIMEOUTS);
		fr = NULL;
	}
	if (!fr) {
		fr = frame_create(t, key, bucket, frame_len);
		if (!fr)
			goto drop_mem;
	}

	err = stt_reasm_add(&fr->state, frame_len, offset, skb->len);
	if (err != STT_OK) {
		drop = stt_err_counter(err);
		goto drop;
	}

	skb->next = fr->segs;
	fr->segs = skb;
	fr->truesize += skb->truesize;
	mem_add(t, skb->truesize);

	if (!stt_reasm_complete(&fr->state)) {
		spin_unlock(&t->lock);
		return NULL;
	}

	segs = frame_take(t, fr);
	spin_unlock(&t->lock);

	stt_count(t->counters, STT_RX_FRAMES_REASSEMBLED);
	return stt_frame_build(segs, frame_len, skb->dev, t->counters);

drop_mem:
	drop = STT_RX_REASM_MEM_DROPS;
drop:
	spin_unlock(&t->lock);
	stt_drop(t->counters, drop, skb);
	return NULL;
}
