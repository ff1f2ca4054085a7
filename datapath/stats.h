/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-reason counters.  Each device and each receive port (struct stt_port)
 * owns a per-CPU block; ethtool -S shows a device's block added to the block
 * of the port it receives on, and ip -s link folds the error counters into
 * the standard rx/tx error and drop fields.  Each counter that counts
 * drops has the kernel's drop reason in its row of stats-list.h, so that
 * dropwatch, perf's skb:kfree_skb and pwru say why too.
 */
#ifndef _STT_STATS_H
#define _STT_STATS_H

#include <linux/ethtool.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>

#include "stt_err.h"

struct net_device;
struct rtnl_link_stats64;

/* In ethtool -S order, one per row of stats-list.h. */
enum stt_counter {
#define STT_COUNTER(counter, ...)	STT_##counter,
#define STT_LIB_COUNTER(...)
#include "stats-list.h"
#undef STT_COUNTER
#undef STT_LIB_COUNTER
	/* The lib/ block: stt_err_counter() maps an enum stt_err here. */
	STT_RX_ERR_LIB,
	STT_COUNTER_MAX = STT_RX_ERR_LIB + STT_ERR_MAX - 1,
};

struct stt_counters {
	u64_stats_t count[STT_COUNTER_MAX];
	struct u64_stats_sync syncp;
};

/* Callers run with bottom halves disabled (transmit, receive, timers;
 * the receive hook disables them itself for nf_reinject()).
 */
static inline void stt_count_add(struct stt_counters __percpu *counters,
				 enum stt_counter c, u64 n)
{
	struct stt_counters *p = this_cpu_ptr(counters);

	u64_stats_update_begin(&p->syncp);
	u64_stats_add(&p->count[c], n);
	u64_stats_update_end(&p->syncp);
}

static inline void stt_count(struct stt_counters __percpu *counters,
			     enum stt_counter c)
{
	stt_count_add(counters, c, 1);
}

static inline enum stt_counter stt_err_counter(enum stt_err err)
{
	return STT_RX_ERR_LIB + err - 1;
}

void stt_stats_init(void);
enum skb_drop_reason stt_drop_reason(enum stt_counter c);

/* Counts a drop and frees @skb with the counter's drop reason.  Inline, so
 * that the drop's location in skb:kfree_skb is the caller, not stats.c.
 */
static inline void stt_drop(struct stt_counters __percpu *counters,
			    enum stt_counter c, struct sk_buff *skb)
{
	stt_count(counters, c);
	kfree_skb_reason(skb, stt_drop_reason(c));
}

struct stt_counters __percpu *stt_counters_alloc(void);
void stt_counters_free(struct stt_counters __percpu *counters);

void stt_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats);
extern const struct ethtool_ops stt_ethtool_ops;

#endif /* _STT_STATS_H */
