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

#define DROP(reason)		{ SKB_DROP_REASON_##reason }
#define LATER(reason, older)	{ SKB_DROP_REASON_##older, #reason }

/* Each counter's ethtool -S name and, if it counts drops, their reason. */
static const struct {
	const char *name;
	struct drop_reason drop;
} counter_desc[STT_RX_ERR_LIB] = {
	[STT_TX_FRAMES]		= { "tx_frames" },
	[STT_TX_SEGMENTS]	= { "tx_segments" },
	[STT_TX_SW_SEGMENTED]	= { "tx_sw_segmented" },
	/* Without tunnel metadata a packet has nowhere to be routed. */
	[STT_TX_NO_TUNNEL_INFO]	= { "tx_drop_no_tunnel_info",
				    LATER(TUNNEL_TXINFO, IP_OUTNOROUTES) },
	/* IP output frees what it refuses, with its own reason. */
	[STT_TX_DROP_IP_OUTPUT]	= { "tx_drop_ip_output" },
	[STT_TX_DROP_RECONFIG]	= { "tx_drop_reconfig", DROP(DEV_READY) },
	[STT_TX_ERR_FAMILY]	= { "tx_err_family", DROP(UNHANDLED_PROTO) },
	[STT_TX_ERR_ROUTE]	= { "tx_err_route", DROP(IP_OUTNOROUTES) },
	/* The only route leads back into the device. */
	[STT_TX_ERR_LOOP]	= { "tx_err_loop", DROP(IP_OUTNOROUTES) },
	[STT_TX_ERR_FRAME_TOO_BIG] = { "tx_err_frame_too_big",
				    DROP(PKT_TOO_BIG) },
	[STT_TX_ERR_NOMEM]	= { "tx_err_nomem", DROP(NOMEM) },
	[STT_TX_ERR_CSUM]	= { "tx_err_csum", DROP(SKB_CSUM) },
	[STT_TX_ERR_GSO]	= { "tx_err_gso", DROP(SKB_GSO_SEG) },
	[STT_TX_ERR_INNER]	= { "tx_err_inner", DROP(HDR_TRUNC) },
	[STT_RX_FRAMES]		= { "rx_frames" },
	[STT_RX_ERR_INNER]	= { "rx_err_inner", DROP(INVALID_PROTO) },
	/* On 6.1, what IP says of a header it cannot accept. */
	[STT_RX_ERR_ECN]	= { "rx_err_ecn",
				    LATER(IP_TUNNEL_ECN, IP_INHDR) },
	/* 6.1's vxlan drops its own frames unspecified too. */
	[STT_RX_ERR_LOOP]	= { "rx_err_loop",
				    LATER(LOCAL_MAC, NOT_SPECIFIED) },
	[STT_RX_DROP_DEV_DOWN]	= { "rx_drop_dev_down", DROP(DEV_READY) },
	[STT_RX_ERR_NOMEM]	= { "rx_err_nomem", DROP(NOMEM) },
	[STT_RX_SEGMENTS]	= { "rx_segments" },
	[STT_RX_FRAMES_REASSEMBLED] = { "rx_frames_reassembled" },
	[STT_RX_FRAMES_COPIED]	= { "rx_frames_copied" },
	/* 6.1's IP reassembly expires fragments unspecified too. */
	[STT_RX_REASM_TIMEOUTS]	= { "rx_reasm_timeouts",
				    LATER(FRAG_REASM_TIMEOUT, NOT_SPECIFIED) },
	/* A limit of our own, not the allocator failing. */
	[STT_RX_REASM_MEM_DROPS] = { "rx_reasm_mem_drops", DROP(PROTO_MEM) },
	[STT_RX_ERR_BAD_CSUM]	= { "rx_err_bad_csum", DROP(TCP_CSUM) },
	[STT_RX_ERR_TCP_FLAGS]	= { "rx_err_tcp_flags", DROP(TCP_FLAGS) },
	[STT_RX_ERR_TCP_DOFF]	= { "rx_err_tcp_doff", DROP(INVALID_PROTO) },
	/* What TCP says of a header cut short. */
	[STT_RX_ERR_TCP_TRUNCATED] = { "rx_err_tcp_truncated",
				    DROP(PKT_TOO_SMALL) },
	/* No device takes this sender's context id: TCP's "no socket". */
	[STT_RX_ERR_NO_DEVICE]	= { "rx_err_no_device", DROP(NO_SOCKET) },
	[STT_RX_ERR_PORT_NOMEM]	= { "rx_err_port_nomem", DROP(NOMEM) },
	[STT_RX_ERR_XFRM_POLICY] = { "rx_err_xfrm_policy", DROP(XFRM_POLICY) },
	[STT_PMTU_UPDATES]	= { "pmtu_updates" },
};

/* The drop reason of each lib/ rejection (rx_err_<stt_err_name()>). */
static const struct drop_reason lib_drop[STT_ERR_MAX] = {
	[STT_ERR_FRAME_LEN]	= DROP(PKT_TOO_SMALL),
	[STT_ERR_SEG_EMPTY]	= DROP(PKT_TOO_SMALL),
	/* The offset is the low half of the TCP sequence number. */
	[STT_ERR_SEG_OFFSET]	= DROP(TCP_INVALID_SEQUENCE),
	[STT_ERR_SEG_LEN]	= DROP(TCP_INVALID_SEQUENCE),
	[STT_ERR_TRUNCATED]	= DROP(HDR_TRUNC),
	[STT_ERR_VERSION]	= DROP(UNHANDLED_PROTO),
	[STT_ERR_FLAGS]		= DROP(INVALID_PROTO),
	[STT_ERR_L4_OFFSET]	= DROP(INVALID_PROTO),
	[STT_ERR_MSS]		= DROP(INVALID_PROTO),
	/* On 6.1, what TCP says of data it already has. */
	[STT_ERR_DUPLICATE]	= LATER(DUP_FRAG, TCP_OLD_DATA),
	[STT_ERR_OVERLAP]	= LATER(DUP_FRAG, TCP_OLD_DATA),
	[STT_ERR_LEN_MISMATCH]	= DROP(INVALID_PROTO),
	/* A bound on what one frame may cost, as PROTO_MEM is. */
	[STT_ERR_TOO_FRAGMENTED] = DROP(PROTO_MEM),
	[STT_ERR_MSS_SMALL]	= DROP(INVALID_PROTO),
};

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

	for (i = 0; i < STT_RX_ERR_LIB; i++)
		counter_reasons[i] = resolve(&counter_desc[i].drop);
	for (i = STT_OK + 1; i < STT_ERR_MAX; i++)
		counter_reasons[stt_err_counter(i)] = resolve(&lib_drop[i]);
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

	counters = alloc_percpu(struct stt_counters);
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

/* Adds (does not assign) so that a device and its port can be combined. */
void stt_counters_sum(struct stt_counters __percpu *counters,
		      u64 sum[STT_COUNTER_MAX])
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

		for (i = 0; i < STT_COUNTER_MAX; i++)
			sum[i] += snap[i];
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
	stt_counters_sum(stt->counters, sum);

	rcu_read_lock();
	port = rcu_dereference(stt->rx.port);
	if (port) {
		stt_counters_sum(port->counters, sum);
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

static u64 sum_range(const u64 *c, int first, int last)
{
	u64 total = 0;

	while (first <= last)
		total += c[first++];
	return total;
}

void stt_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats)
{
	u64 c[STT_COUNTER_MAX];

	dev_get_tstats64(dev, stats);
	dev_counters(dev, c, NULL);

	stats->tx_errors += sum_range(c, STT_TX_ERR_FAMILY, STT_TX_ERR_INNER);
	stats->tx_carrier_errors += c[STT_TX_ERR_ROUTE];
	stats->collisions += c[STT_TX_ERR_LOOP];
	/* STT_TX_DROP_IP_OUTPUT is in tx_dropped or tx_errors already:
	 * iptunnel_xmit() counted it in the device's own stats.
	 */
	stats->tx_dropped += c[STT_TX_NO_TUNNEL_INFO] + c[STT_TX_ERR_NOMEM] +
			     c[STT_TX_DROP_RECONFIG];

	stats->rx_errors += c[STT_RX_ERR_INNER] + c[STT_RX_ERR_ECN] +
			    c[STT_RX_ERR_LOOP] +
			    c[STT_RX_ERR_BAD_CSUM] + c[STT_RX_ERR_XFRM_POLICY] +
			    sum_range(c, STT_RX_ERR_TCP_FLAGS,
				      STT_RX_ERR_TCP_TRUNCATED) +
			    sum_range(c, STT_RX_ERR_LIB, STT_COUNTER_MAX - 1);
	stats->rx_crc_errors += c[STT_RX_ERR_BAD_CSUM];
	stats->rx_frame_errors += c[STT_RX_REASM_TIMEOUTS] + c[STT_RX_ERR_ECN];
	stats->rx_dropped += c[STT_RX_DROP_DEV_DOWN] + c[STT_RX_ERR_NOMEM] +
			     c[STT_RX_REASM_TIMEOUTS] +
			     c[STT_RX_REASM_MEM_DROPS] +
			     c[STT_RX_ERR_NO_DEVICE] + c[STT_RX_ERR_PORT_NOMEM];
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
