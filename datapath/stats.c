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

static const char * const counter_names[STT_RX_ERR_LIB] = {
	[STT_TX_FRAMES]			= "tx_frames",
	[STT_TX_SEGMENTS]		= "tx_segments",
	[STT_TX_SW_SEGMENTED]		= "tx_sw_segmented",
	[STT_TX_NO_TUNNEL_INFO]	= "tx_drop_no_tunnel_info",
	[STT_TX_DROP_IP_OUTPUT]	= "tx_drop_ip_output",
	[STT_TX_DROP_RECONFIG]		= "tx_drop_reconfig",
	[STT_TX_ERR_FAMILY]		= "tx_err_family",
	[STT_TX_ERR_ROUTE]		= "tx_err_route",
	[STT_TX_ERR_LOOP]		= "tx_err_loop",
	[STT_TX_ERR_FRAME_TOO_BIG]	= "tx_err_frame_too_big",
	[STT_TX_ERR_NOMEM]		= "tx_err_nomem",
	[STT_TX_ERR_CSUM]		= "tx_err_csum",
	[STT_TX_ERR_GSO]		= "tx_err_gso",
	[STT_TX_ERR_INNER]		= "tx_err_inner",
	[STT_RX_FRAMES]			= "rx_frames",
	[STT_RX_ERR_INNER]		= "rx_err_inner",
	[STT_RX_ERR_ECN]		= "rx_err_ecn",
	[STT_RX_ERR_LOOP]		= "rx_err_loop",
	[STT_RX_DROP_DEV_DOWN]		= "rx_drop_dev_down",
	[STT_RX_ERR_NOMEM]		= "rx_err_nomem",
	[STT_RX_SEGMENTS]		= "rx_segments",
	[STT_RX_FRAMES_REASSEMBLED]	= "rx_frames_reassembled",
	[STT_RX_FRAMES_COPIED]		= "rx_frames_copied",
	[STT_RX_REASM_TIMEOUTS]		= "rx_reasm_timeouts",
	[STT_RX_REASM_MEM_DROPS]	= "rx_reasm_mem_drops",
	[STT_RX_ERR_BAD_CSUM]		= "rx_err_bad_csum",
	[STT_RX_ERR_TCP_FLAGS]		= "rx_err_tcp_flags",
	[STT_RX_ERR_TCP_DOFF]		= "rx_err_tcp_doff",
	[STT_RX_ERR_TCP_TRUNCATED]	= "rx_err_tcp_truncated",
	[STT_RX_ERR_NO_DEVICE]		= "rx_err_no_device",
	[STT_RX_ERR_PORT_NOMEM]		= "rx_err_port_nomem",
	[STT_RX_ERR_XFRM_POLICY]	= "rx_err_xfrm_policy",
	[STT_PMTU_UPDATES]		= "pmtu_updates",
};

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
	port = rcu_dereference(stt->port);
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
		ethtool_puts(&buf, counter_names[i]);
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
