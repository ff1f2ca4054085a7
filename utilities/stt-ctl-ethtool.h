/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's ethtool statistics (what "ethtool -S" prints), read with the
 * SIOCETHTOOL ioctl: names from ETHTOOL_GSSET_INFO and ETHTOOL_GSTRINGS,
 * values from ETHTOOL_GSTATS.
 */
#ifndef STT_CTL_ETHTOOL_H
#define STT_CTL_ETHTOOL_H 1

#include <linux/ethtool.h>
#include <stddef.h>
#include <stdint.h>

struct eth_counters {
    size_t n;
    char (*names)[ETH_GSTRING_LEN + 1];   /* NUL-terminated copies */
    uint64_t *values;
};

/* Returns 0 or a positive errno value. */
int eth_counters_get(const char *ifname, struct eth_counters *);
void eth_counters_free(struct eth_counters *);

#endif /* stt-ctl-ethtool.h */
