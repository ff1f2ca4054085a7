// SPDX-License-Identifier: GPL-2.0
/*
 * Counter blocks, their ethtool -S names and their share of ip -s link.
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "compat.h"
#include "device.h"
#include "port.h"
#include "stats.h"

/*
 * The drop reason a counter's packets are freed with: the kernel's (a module
 * cannot add one), the nearest where none fits exactly; the counter tells
 * apart what shares one.  LATER names a reason that came after 6.1 and the
 * nearest 6.1 has (compat.h).
 */
struct drop_reason {
	enum skb_drop_reason reason;
	const char *later;
};

#define NO_DROP			{ SKB_NOT_DROPPED_YET }
#define DROP(reason)		{ SKB_DROP_REASON_##reason }
#define LATER(reason, older)	{ SKB_DROP_REASON_##older, #reason }

/* The block a counter is charged to. */
enum charge {
	CHARGE_DEV,
	CHARGE_PORT,
};

/* The rtnl_link_stats64 fields a counter folds into (stt_get_stats64()). */
enum {
	TX_ERRORS		= BIT(0),
	TX_CARRIER_ERRORS	= BIT(1),
	COLLISIONS		= BIT(2),
	TX_DROPPED		= BIT(3),
	RX_ERRORS		= BIT(4),
	RX_CRC_ERRORS		= BIT(5),
	RX_FRAME_ERRORS		= BIT(6),
	RX_DROPPED		= BIT(7),
};

/* Each counter's row of stats-list.h; the lib/ block's have no name here:
 * stt_err_name() gives it.
 */
static const struct {
	const char *name;
	struct drop_reason drop;
	u8 charge;
	u8 folds;
} counter_desc[STT_COUNTER_MAX] = {
#define STT_COUNTER(counter, ethtool_name, charge, drop, folds)		\
	[STT_##counter] = { ethtool_name, drop, CHARGE_##charge, folds },
#define STT_LIB_COUNTER(err, charge, drop, folds)			\
	[STT_RX_ERR_LIB + STT_ERR_##err - 1] = {			\
		NULL, drop, CHARGE_##charge, folds },
#include "stats-list.h"
#undef STT_COUNTER
#undef STT_LIB_COUNTER
};

/*
 * The lib/ block has one row per enum stt_err but STT_OK: a row twice is two
 * enumerators of one name here, and the count catches one missing.
 */
enum {
#define STT_COUNTER(...)
#define STT_LIB_COUNTER(err, ...)	LIB_ROW_##err,
#include "stats-list.h"
#undef STT_COUNTER
#undef STT_LIB_COUNTER
	LIB_ROWS
};
static_assert(LIB_ROWS + 1 == STT_ERR_MAX);

static enum skb_drop_reason counter_reasons[STT_COUNTER_MAX] __ro_after_init;

static enum skb_drop_reason resolve(const struct drop_reason *d)
{
	/* 0 is SKB_NOT_DROPPED_YET, which the kernel warns about. */
	if (d->reason == SKB_NOT_DROPPED_YET)
		return SKB_DROP_REASON_NOT_SPECIFIED;
	if (d->later)
		return stt_drop_reason_named(d->later, d->reason);
	return d->reason;
}

/* Called once at load, before any device exists. */
void stt_stats_init(void)
{
	int i;

	for (i = 0; i < STT_COUNTER_MAX; i++)
		counter_reasons[i] = resolve(&counter_desc[i].drop);
}

enum skb_drop_reason stt_drop_reason(enum stt_counter c)
{
	return counter_reasons[c];
}

/* Gauges of the receive port's reassembly table, after the counters. */
enum {
	GAUGE_REASM_FRAMES,
	GAUGE_REASM_BYTES,
	GAUGE_REASM_LIMIT,
	GAUGE_MAX
};

static const char * const gauge_names[GAUGE_MAX] = {
	[GAUGE_REASM_FRAMES]	= "reasm_frames",
	[GAUGE_REASM_BYTES]	= "reasm_bytes",
	[GAUGE_REASM_LIMIT]	= "reasm_limit_bytes",
};

struct stt_counters __percpu *stt_counters_alloc(void)
{
	struct stt_counters __percpu *counters;
	int cpu;

	counters = alloc_percpu_gfp(struct stt_counters, GFP_KERNEL_ACCOUNT);
	if (!counters)
		return NULL;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(counters, cpu)->syncp);
	return counters;
}

void stt_counters_free(struct stt_counters __percpu *counters)
{
	free_percpu(counters);
}

/*
 * Adds (does not assign) so that a device and its port can be combined.
 * @block says whose block it is: a debug kernel checks that callers count
 * each counter in the block its row of stats-list.h charges.
 */
static void counters_sum(struct stt_counters __percpu *counters,
			 enum charge block, u64 sum[STT_COUNTER_MAX])
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		const struct stt_counters *p = per_cpu_ptr(counters, cpu);
		u64 snap[STT_COUNTER_MAX];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&p->syncp);
			for (i = 0; i < STT_COUNTER_MAX; i++)
				snap[i] = u64_stats_read(&p->count[i]);
		} while (u64_stats_fetch_retry(&p->syncp, start));

		for (i = 0; i < STT_COUNTER_MAX; i++) {
			DEBUG_NET_WARN_ON_ONCE(snap[i] &&
					       counter_desc[i].charge != block);
			sum[i] += snap[i];
		}
	}
}

/*
 * The device's counters and those of its receive port.  Readers come late:
 * Open vSwitch reads a port's stats after NETDEV_UNREGISTER, when the
 * device has left its receive port, which may be gone; the device's own
 * block lives until the device is freed.
 */
static void dev_counters(struct net_device *dev, u64 sum[STT_COUNTER_MAX],
			 u64 gauges[GAUGE_MAX])
{
	struct stt_dev *stt = netdev_priv(dev);
	const struct stt_port *port;

	memset(sum, 0, sizeof(u64) * STT_COUNTER_MAX);
	counters_sum(stt->counters, CHARGE_DEV, sum);

	rcu_read_lock();
	port = rcu_dereference(stt->rx.port);
	if (port) {
		counters_sum(port->counters, CHARGE_PORT, sum);
		if (gauges) {
			gauges[GAUGE_REASM_FRAMES] = READ_ONCE(port->reasm.nr_frames);
			gauges[GAUGE_REASM_BYTES] = READ_ONCE(port->reasm.mem);
			gauges[GAUGE_REASM_LIMIT] = stt_reasm_mem_limit();
		}
	} else if (gauges) {
		memset(gauges, 0, sizeof(u64) * GAUGE_MAX);
	}
	rcu_read_unlock();
}

void stt_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats)
{
	u64 c[STT_COUNTER_MAX];
	int i;

	dev_get_tstats64(dev, stats);
	dev_counters(dev, c, NULL);

	for (i = 0; i < STT_COUNTER_MAX; i++) {
		unsigned int folds = counter_desc[i].folds;

		if (folds & TX_ERRORS)
			stats->tx_errors += c[i];
		if (folds & TX_CARRIER_ERRORS)
			stats->tx_carrier_errors += c[i];
		if (folds & COLLISIONS)
			stats->collisions += c[i];
		if (folds & TX_DROPPED)
			stats->tx_dropped += c[i];
		if (folds & RX_ERRORS)
			stats->rx_errors += c[i];
		if (folds & RX_CRC_ERRORS)
			stats->rx_crc_errors += c[i];
		if (folds & RX_FRAME_ERRORS)
			stats->rx_frame_errors += c[i];
		if (folds & RX_DROPPED)
			stats->rx_dropped += c[i];
	}
}

static int stt_get_sset_count(struct net_device *dev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return STT_COUNTER_MAX + GAUGE_MAX;
}

static void stt_get_strings(struct net_device *dev, u32 sset, u8 *buf)
{
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < STT_RX_ERR_LIB; i++)
		ethtool_puts(&buf, counter_desc[i].name);
	for (i = STT_OK + 1; i < STT_ERR_MAX; i++)
		ethtool_sprintf(&buf, "rx_err_%s", stt_err_name(i));
	for (i = 0; i < GAUGE_MAX; i++)
		ethtool_puts(&buf, gauge_names[i]);
}

static void stt_get_ethtool_stats(struct net_device *dev,
				  struct ethtool_stats *estats, u64 *data)
{
	dev_counters(dev, data, data + STT_COUNTER_MAX);
}

static void stt_get_drvinfo(struct net_device *dev,
			    struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "stt", sizeof(info->driver));
	strscpy(info->version, STT_MODULE_VERSION, sizeof(info->version));
}

const struct ethtool_ops stt_ethtool_ops = {
	.get_drvinfo		= stt_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= stt_get_sset_count,
	.get_strings		= stt_get_strings,
	.get_ethtool_stats	= stt_get_ethtool_stats,
};
