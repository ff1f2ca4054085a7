/* SPDX-License-Identifier: GPL-2.0 */
#include "stt-ctl-ethtool.h"

#include <errno.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int
ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
    struct ifreq ifr;

    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, ifname, sizeof ifr.ifr_name - 1);
    ifr.ifr_data = cmd;
    return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? errno : 0;
}

/* The number of ETH_SS_STATS strings, 0 if the device has none. */
static int
get_n_stats(int fd, const char *ifname, size_t *n)
{
    struct {
        struct ethtool_sset_info hdr;
        uint32_t len;
    } info;
    int error;

    memset(&info, 0, sizeof info);
    info.hdr.cmd = ETHTOOL_GSSET_INFO;
    info.hdr.sset_mask = UINT64_C(1) << ETH_SS_STATS;
    error = ethtool_ioctl(fd, ifname, &info);
    if (error) {
        return error;
    }
    *n = info.hdr.sset_mask & (UINT64_C(1) << ETH_SS_STATS) ? info.len : 0;
    return 0;
}

int
eth_counters_get(const char *ifname, struct eth_counters *c)
{
    struct ethtool_gstrings *strings = NULL;
    struct ethtool_stats *stats = NULL;
    size_t i, n;
    int error, fd;

    memset(c, 0, sizeof *c);
    fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return errno;
    }

    error = get_n_stats(fd, ifname, &n);
    if (error || !n) {
        goto out;
    }

    strings = calloc(1, sizeof *strings + n * ETH_GSTRING_LEN);
    stats = calloc(1, sizeof *stats + n * sizeof(uint64_t));
    c->names = calloc(n, sizeof *c->names);
    c->values = calloc(n, sizeof *c->values);
    if (!strings || !stats || !c->names || !c->values) {
        error = ENOMEM;
        goto out;
    }

    strings->cmd = ETHTOOL_GSTRINGS;
    strings->string_set = ETH_SS_STATS;
    strings->len = n;
    error = ethtool_ioctl(fd, ifname, strings);
    if (error) {
        goto out;
    }

    stats->cmd = ETHTOOL_GSTATS;
    stats->n_stats = n;
    error = ethtool_ioctl(fd, ifname, stats);
    if (error) {
        goto out;
    }

    /* The kernel fills in how many it gave; a device whose set changed
     * between the calls is not worth more than a refusal. */
    if (strings->len != n || stats->n_stats != n) {
        error = EAGAIN;
        goto out;
    }
    for (i = 0; i < n; i++) {
        memcpy(c->names[i], strings->data + i * ETH_GSTRING_LEN,
               ETH_GSTRING_LEN);
        c->names[i][ETH_GSTRING_LEN] = '\0';
        c->values[i] = stats->data[i];
    }
    c->n = n;

out:
    if (error) {
        eth_counters_free(c);
    }
    free(strings);
    free(stats);
    close(fd);
    return error;
}

void
eth_counters_free(struct eth_counters *c)
{
    free(c->names);
    free(c->values);
    memset(c, 0, sizeof *c);
}
