/* SPDX-License-Identifier: GPL-2.0 */
#include <config.h>
#include "stt-link.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const df_names[] = {
    [STT_DF_UNSET] = "unset",
    [STT_DF_SET] = "set",
    [STT_DF_INHERIT] = "inherit",
};

/* The payload of 'nla' if it holds at least 'size' bytes, else NULL. */
static const void *
attr_data(const struct nlattr *nla, size_t size)
{
    if (!nla || nla->nla_len < NLA_HDRLEN + size) {
        return NULL;
    }
    return (const char *) nla + NLA_HDRLEN;
}

static bool
get_attr(const struct nlattr *nla, void *value, size_t size)
{
    const void *data = attr_data(nla, size);

    if (data) {
        memcpy(value, data, size);
    }
    return data != NULL;
}

static bool
get_addr(const struct nlattr *const tb[], int attr4, int attr6,
         struct stt_addr *addr)
{
    if (tb[attr6]) {
        addr->family = AF_INET6;
        return get_attr(tb[attr6], &addr->in6, sizeof addr->in6);
    }
    if (tb[attr4]) {
        addr->family = AF_INET;
        return get_attr(tb[attr4], &addr->in, sizeof addr->in);
    }
    return true;
}

bool
stt_link_info_parse(struct stt_link_info *info,
                    const struct nlattr *const tb[IFLA_STT_MAX + 1])
{
    struct ifla_stt_port_range range = { 0, 0 };
    uint16_t port = 0;
    bool ok = true;
    int i;

    memset(info, 0, sizeof *info);
    for (i = 1; i <= IFLA_STT_MAX; i++) {
        info->has[i] = tb[i] != NULL;
    }
    ok &= !tb[IFLA_STT_ID] || get_attr(tb[IFLA_STT_ID], &info->id,
                                       sizeof info->id);
    ok &= get_addr(tb, IFLA_STT_REMOTE, IFLA_STT_REMOTE6, &info->remote);
    ok &= get_addr(tb, IFLA_STT_LOCAL, IFLA_STT_LOCAL6, &info->local);
    ok &= !tb[IFLA_STT_PORT] || get_attr(tb[IFLA_STT_PORT], &port,
                                         sizeof port);
    ok &= !tb[IFLA_STT_PORT_RANGE] || get_attr(tb[IFLA_STT_PORT_RANGE],
                                               &range, sizeof range);
    ok &= !tb[IFLA_STT_TTL] || get_attr(tb[IFLA_STT_TTL], &info->ttl, 1);
    ok &= !tb[IFLA_STT_TOS] || get_attr(tb[IFLA_STT_TOS], &info->tos, 1);
    ok &= !tb[IFLA_STT_DF] || get_attr(tb[IFLA_STT_DF], &info->df, 1);
    info->dstport = ntohs(port);
    info->srcport_low = ntohs(range.low);
    info->srcport_high = ntohs(range.high);
    return ok;
}

static void
print_addr(const struct stt_printer *p, const char *key4, const char *key6,
           const char *fmt, const struct stt_addr *addr)
{
    char buf[INET6_ADDRSTRLEN];

    if (!addr->family
        || !inet_ntop(addr->family, &addr->in6, buf, sizeof buf)) {
        return;
    }
    p->string(p->aux, STT_PRINT_ANY,
              addr->family == AF_INET6 ? key6 : key4, fmt, buf);
}

/* The words of "ip -d link" for vxlan and geneve where STT has the same
 * setting, and their JSON keys and value formats ("port" for the
 * destination port, "port_range", ttl 0 as "auto" in text, tos in hex,
 * "df" "unset" in JSON only).  Where ip loses something in JSON (ttl
 * inherit), it is kept: "ttl": "inherit".  The 64-bit id is a hex string:
 * JSON readers (jq, JavaScript) round integers above 2^53. */
void
stt_link_info_print(const struct stt_link_info *info,
                    const struct stt_printer *p)
{
    char buf[32];

    if (info->has[IFLA_STT_COLLECT_METADATA]) {
        p->flag(p->aux, "external", "external ");
    }
    print_addr(p, "remote", "remote6", "remote %s ", &info->remote);
    print_addr(p, "local", "local6", "local %s ", &info->local);
    if (info->has[IFLA_STT_ID]) {
        snprintf(buf, sizeof buf, "0x%" PRIx64, info->id);
        p->string(p->aux, STT_PRINT_ANY, "id", "id %s ", buf);
    }
    if (info->has[IFLA_STT_PORT]) {
        p->uint(p->aux, STT_PRINT_ANY, "port", "dstport %u ", info->dstport);
    }
    if (info->has[IFLA_STT_PORT_RANGE]) {
        if (p->json) {
            p->object_start(p->aux, "port_range");
            p->uint(p->aux, STT_PRINT_JSON, "low", NULL, info->srcport_low);
            p->uint(p->aux, STT_PRINT_JSON, "high", NULL, info->srcport_high);
            p->object_end(p->aux);
        } else {
            p->uint(p->aux, STT_PRINT_TEXT, NULL, "srcport %u ",
                    info->srcport_low);
            p->uint(p->aux, STT_PRINT_TEXT, NULL, "%u ", info->srcport_high);
        }
    }
    if (info->has[IFLA_STT_TTL_INHERIT]) {
        p->string(p->aux, STT_PRINT_ANY, "ttl", "ttl %s ", "inherit");
    } else if (info->has[IFLA_STT_TTL]) {
        if (p->json || info->ttl) {
            p->uint(p->aux, STT_PRINT_ANY, "ttl", "ttl %u ", info->ttl);
        } else {
            p->string(p->aux, STT_PRINT_TEXT, NULL, "ttl %s ", "auto");
        }
    }
    if (info->tos) {
        snprintf(buf, sizeof buf, "%#x", info->tos);
        if (p->json || info->tos != 1) {
            p->string(p->aux, STT_PRINT_ANY, "tos", "tos %s ", buf);
        } else {
            p->string(p->aux, STT_PRINT_TEXT, NULL, "tos %s ", "inherit");
        }
    }
    if (info->has[IFLA_STT_DF]) {
        const char *df = buf;

        if (info->df < __STT_DF_END) {
            df = df_names[info->df];
        } else {
            snprintf(buf, sizeof buf, "%u", info->df);
        }
        /* Unset is the default: "ip -d link" leaves it out of the text. */
        p->string(p->aux,
                  info->df == STT_DF_UNSET ? STT_PRINT_JSON : STT_PRINT_ANY,
                  "df", "df %s ", df);
    }
}

bool
stt_parse_uint(const char *s, uint64_t max, uint64_t *value)
{
    int base = 10;
    char *end;

    /* strtoull() would take a sign, spaces and octal. */
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!isxdigit((unsigned char) s[0])) {
            return false;
        }
    } else if (!isdigit((unsigned char) s[0])) {
        return false;
    }
    errno = 0;
    *value = strtoull(s, &end, base);
    return !errno && !*end && *value <= max;
}

static bool
parse_u8(const char *s, uint8_t *value)
{
    uint64_t v;

    if (!stt_parse_uint(s, UINT8_MAX, &v)) {
        return false;
    }
    *value = v;
    return true;
}

/* "auto" is TTL 0 (the route's default), as "ip link" takes it for vxlan
 * and as show prints it. */
bool
stt_parse_ttl(const char *s, bool *inherit, uint8_t *ttl)
{
    *inherit = !strcmp(s, "inherit");
    if (*inherit || !strcmp(s, "auto")) {
        *ttl = 0;
        return true;
    }
    return parse_u8(s, ttl);
}

bool
stt_parse_tos(const char *s, uint8_t *tos)
{
    if (!strcmp(s, "inherit")) {
        *tos = 1;               /* The ABI's encoding of "inherit". */
        return true;
    }
    return parse_u8(s, tos);
}

bool
stt_parse_df(const char *s, uint8_t *df)
{
    int i;

    for (i = 0; i < __STT_DF_END; i++) {
        if (!strcmp(s, df_names[i])) {
            *df = i;
            return true;
        }
    }
    return false;
}

bool
stt_parse_addr(const char *s, struct stt_addr *addr)
{
    if (inet_pton(AF_INET, s, &addr->in) == 1) {
        addr->family = AF_INET;
        return true;
    }
    if (inet_pton(AF_INET6, s, &addr->in6) == 1) {
        addr->family = AF_INET6;
        return true;
    }
    return false;
}
