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

/* Where 'w' keeps its value in 'info'. */
static void *
field(const struct stt_word *w, struct stt_link_info *info)
{
    return (char *) info + w->offset;
}

static const void *
field_const(const struct stt_word *w, const struct stt_link_info *info)
{
    return (const char *) info + w->offset;
}

/* ---- Parsing the values of a word -------------------------------------- */

static bool
uint_from_string(const char *s, uint64_t max, uint64_t *value)
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
u8_from_string(const char *s, uint8_t *value)
{
    uint64_t v;

    if (!uint_from_string(s, UINT8_MAX, &v)) {
        return false;
    }
    *value = v;
    return true;
}

/* A port, 1-65535, in network byte order. */
static bool
port_from_string(const char *s, uint16_t *port)
{
    uint64_t value;

    if (!uint_from_string(s, UINT16_MAX, &value) || !value) {
        return false;
    }
    *port = htons(value);
    return true;
}

/* Marks attrs[i] of 'w' as the one to send; returns "no complaint". */
static const char *
given(const struct stt_word *w, struct stt_link_info *info, int i)
{
    info->has[w->attrs[i].type] = true;
    return NULL;
}

static const char *
bad_value(const struct stt_word *w, int i, int *bad)
{
    *bad = i;
    return w->expected;
}

/* IPv4 in attrs[0], IPv6 in attrs[1]. */
static const char *
parse_addr(const struct stt_word *w, char *values[],
           struct stt_link_info *info, int *bad)
{
    union stt_addr *addr = field(w, info);

    if (inet_pton(AF_INET, values[0], &addr->in) == 1) {
        return given(w, info, 0);
    }
    if (inet_pton(AF_INET6, values[0], &addr->in6) == 1) {
        return given(w, info, 1);
    }
    return bad_value(w, 0, bad);
}

static const char *
parse_u64(const struct stt_word *w, char *values[],
          struct stt_link_info *info, int *bad)
{
    uint64_t *value = field(w, info);

    return (uint_from_string(values[0], UINT64_MAX, value)
            ? given(w, info, 0) : bad_value(w, 0, bad));
}

static const char *
parse_port(const struct stt_word *w, char *values[],
           struct stt_link_info *info, int *bad)
{
    return (port_from_string(values[0], field(w, info))
            ? given(w, info, 0) : bad_value(w, 0, bad));
}

static const char *
parse_port_range(const struct stt_word *w, char *values[],
                 struct stt_link_info *info, int *bad)
{
    struct ifla_stt_port_range *range = field(w, info);

    if (!port_from_string(values[0], &range->low)) {
        return bad_value(w, 0, bad);
    }
    if (!port_from_string(values[1], &range->high)) {
        return bad_value(w, 1, bad);
    }
    if (ntohs(range->low) > ntohs(range->high)) {
        *bad = 0;
        return "MIN is greater than MAX";
    }
    return given(w, info, 0);
}

/* A TTL in attrs[0], or "inherit" as the flag attrs[1].  "auto" is TTL 0
 * (the route's default), as "ip link" takes it for vxlan and as show
 * prints it. */
static const char *
parse_ttl(const struct stt_word *w, char *values[],
          struct stt_link_info *info, int *bad)
{
    uint8_t *ttl = field(w, info);

    if (!strcmp(values[0], "inherit")) {
        return given(w, info, 1);
    }
    if (!strcmp(values[0], "auto")) {
        *ttl = 0;
        return given(w, info, 0);
    }
    return u8_from_string(values[0], ttl) ? given(w, info, 0)
                                    : bad_value(w, 0, bad);
}

static const char *
parse_tos(const struct stt_word *w, char *values[],
          struct stt_link_info *info, int *bad)
{
    uint8_t *tos = field(w, info);

    if (!strcmp(values[0], "inherit")) {
        *tos = 1;               /* The ABI's encoding of "inherit". */
        return given(w, info, 0);
    }
    return u8_from_string(values[0], tos) ? given(w, info, 0)
                                    : bad_value(w, 0, bad);
}

static const char *
parse_df(const struct stt_word *w, char *values[],
         struct stt_link_info *info, int *bad)
{
    uint8_t *df = field(w, info);
    int i;

    for (i = 0; i < __STT_DF_END; i++) {
        if (!strcmp(values[0], df_names[i])) {
            *df = i;
            return given(w, info, 0);
        }
    }
    return bad_value(w, 0, bad);
}

static const char *
parse_flag(const struct stt_word *w, char *values[],
           struct stt_link_info *info, int *bad)
{
    (void) values;
    (void) bad;
    return given(w, info, 0);
}

/* ---- Printing a word and its value ------------------------------------- */

/* The values print themselves; the word goes before them in text only. */
static void
print_name(const struct stt_word *w, const struct stt_printer *p)
{
    p->string(p->aux, STT_PRINT_TEXT, NULL, "%s ", w->name);
}

static void
print_addr(const struct stt_word *w, const struct stt_link_info *info,
           const struct stt_printer *p)
{
    bool ipv6 = info->has[w->attrs[1].type];
    const struct stt_attr *a = &w->attrs[ipv6 ? 1 : 0];
    char buf[INET6_ADDRSTRLEN];

    if (inet_ntop(ipv6 ? AF_INET6 : AF_INET, field_const(w, info),
                  buf, sizeof buf)) {
        print_name(w, p);
        p->string(p->aux, STT_PRINT_ANY, a->key, "%s ", buf);
    }
}

/* In hex, as a string: JSON readers (jq, JavaScript) round integers above
 * 2^53. */
static void
print_u64_hex(const struct stt_word *w, const struct stt_link_info *info,
              const struct stt_printer *p)
{
    const uint64_t *value = field_const(w, info);
    char buf[32];

    snprintf(buf, sizeof buf, "0x%" PRIx64, *value);
    print_name(w, p);
    p->string(p->aux, STT_PRINT_ANY, w->attrs[0].key, "%s ", buf);
}

static void
print_port(const struct stt_word *w, const struct stt_link_info *info,
           const struct stt_printer *p)
{
    const uint16_t *port = field_const(w, info);

    print_name(w, p);
    p->uint(p->aux, STT_PRINT_ANY, w->attrs[0].key, "%u ", ntohs(*port));
}

/* "MIN MAX" in text, {"low": MIN, "high": MAX} in JSON. */
static void
print_port_range(const struct stt_word *w, const struct stt_link_info *info,
                 const struct stt_printer *p)
{
    const struct ifla_stt_port_range *range = field_const(w, info);

    p->object_start(p->aux, w->attrs[0].key);
    p->uint(p->aux, STT_PRINT_JSON, "low", NULL, ntohs(range->low));
    p->uint(p->aux, STT_PRINT_JSON, "high", NULL, ntohs(range->high));
    p->object_end(p->aux);
    print_name(w, p);
    p->uint(p->aux, STT_PRINT_TEXT, NULL, "%u ", ntohs(range->low));
    p->uint(p->aux, STT_PRINT_TEXT, NULL, "%u ", ntohs(range->high));
}

/* TTL 0 is "auto" in text and 0 in JSON, as ip prints vxlan's.  Where ip
 * leaves vxlan's inherited TTL out of JSON, it is "ttl_inherit": true in
 * place of "ttl", so that "ttl" is always a number. */
static void
print_ttl(const struct stt_word *w, const struct stt_link_info *info,
          const struct stt_printer *p)
{
    const uint8_t *ttl = field_const(w, info);

    print_name(w, p);
    if (info->has[w->attrs[1].type]) {
        p->string(p->aux, STT_PRINT_TEXT, NULL, "%s ", "inherit");
        p->boolean(p->aux, STT_PRINT_JSON, w->attrs[1].key, NULL, true);
    } else if (*ttl) {
        p->uint(p->aux, STT_PRINT_ANY, w->attrs[0].key, "%u ", *ttl);
    } else {
        p->uint(p->aux, STT_PRINT_JSON, w->attrs[0].key, NULL, 0);
        p->string(p->aux, STT_PRINT_TEXT, NULL, "%s ", "auto");
    }
}

/* In hex, left out when 0 (the default); 1 is "inherit" in text. */
static void
print_tos(const struct stt_word *w, const struct stt_link_info *info,
          const struct stt_printer *p)
{
    const uint8_t *tos = field_const(w, info);
    char buf[8];

    if (!*tos) {
        return;
    }
    snprintf(buf, sizeof buf, "%#x", *tos);
    print_name(w, p);
    p->string(p->aux, *tos == 1 ? STT_PRINT_JSON : STT_PRINT_ANY,
              w->attrs[0].key, "%s ", buf);
    if (*tos == 1) {
        p->string(p->aux, STT_PRINT_TEXT, NULL, "%s ", "inherit");
    }
}

/* Unset is the default: "ip -d link" leaves it out of the text. */
static void
print_df(const struct stt_word *w, const struct stt_link_info *info,
         const struct stt_printer *p)
{
    const uint8_t *df = field_const(w, info);
    char buf[8];

    if (*df < __STT_DF_END) {
        snprintf(buf, sizeof buf, "%s", df_names[*df]);
    } else {
        snprintf(buf, sizeof buf, "%u", *df);
    }
    if (*df != STT_DF_UNSET) {
        print_name(w, p);
    }
    p->string(p->aux, *df == STT_DF_UNSET ? STT_PRINT_JSON : STT_PRINT_ANY,
              w->attrs[0].key, "%s ", buf);
}

static void
print_flag(const struct stt_word *w, const struct stt_link_info *info,
           const struct stt_printer *p)
{
    (void) info;
    print_name(w, p);
    p->boolean(p->aux, STT_PRINT_JSON, w->attrs[0].key, NULL, true);
}

/* ---- The words ---------------------------------------------------------- */

#define FIELD(MEMBER) offsetof(struct stt_link_info, MEMBER)
#define FIXED STT_FIXED_PEER
#define BOTH (STT_FIXED_PEER | STT_EXTERNAL)

/* The words, the attributes and their JSON keys are those "ip -d link"
 * uses for vxlan and geneve where STT has the same setting ("port" for the
 * destination port, "port_range", ttl 0 as "auto", tos in hex).  In this
 * order stt-ctl --help lists them and a request carries them.
 *
 * Columns: name, n_values, value_names, help, expected, changeable, modes,
 * attrs (type, size, JSON key), offset, parse, print. */
const struct stt_word stt_words[] = {
    { "remote", 1, "ADDR", "peer's IPv4 or IPv6 address",
      "expected an IPv4 or IPv6 address", true, FIXED,
      { { IFLA_STT_REMOTE, sizeof(struct in_addr), "remote" },
        { IFLA_STT_REMOTE6, sizeof(struct in6_addr), "remote6" } },
      FIELD(remote), parse_addr, print_addr },
    { "local", 1, "ADDR", "source IPv4 or IPv6 address",
      "expected an IPv4 or IPv6 address", true, FIXED,
      { { IFLA_STT_LOCAL, sizeof(struct in_addr), "local" },
        { IFLA_STT_LOCAL6, sizeof(struct in6_addr), "local6" } },
      FIELD(local), parse_addr, print_addr },
    { "id", 1, "ID", "64-bit context id (decimal, or hex with 0x)",
      "expected 0-18446744073709551615 (decimal, or hex with 0x)",
      true, FIXED,
      { { IFLA_STT_ID, sizeof(uint64_t), "id" } },
      FIELD(id), parse_u64, print_u64_hex },
    { "dstport", 1, "PORT", "destination TCP port, 1-65535 (default 7471)",
      "expected 1-65535", false, BOTH,
      { { IFLA_STT_PORT, sizeof(uint16_t), "port" } },
      FIELD(dstport), parse_port, print_port },
    { "srcport", 2, "MIN MAX", "source port range, 1-65535",
      "expected MIN MAX, each 1-65535", true, BOTH,
      { { IFLA_STT_PORT_RANGE, sizeof(struct ifla_stt_port_range),
          "port_range" } },
      FIELD(srcport), parse_port_range, print_port_range },
    { "ttl", 1, "N|auto|inherit", "outer TTL or hop limit, 0-255",
      "expected 0-255, auto or inherit", true, FIXED,
      { { IFLA_STT_TTL, sizeof(uint8_t), "ttl" },
        { IFLA_STT_TTL_INHERIT, 0, "ttl_inherit" } },
      FIELD(ttl), parse_ttl, print_ttl },
    { "tos", 1, "N|inherit", "outer TOS, 0-255 (1 also means inherit)",
      "expected 0-255 or inherit", true, FIXED,
      { { IFLA_STT_TOS, sizeof(uint8_t), "tos" } },
      FIELD(tos), parse_tos, print_tos },
    { "df", 1, "set|unset|inherit", "outer IPv4 don't-fragment bit",
      "expected set, unset or inherit", true, FIXED,
      { { IFLA_STT_DF, sizeof(uint8_t), "df" } },
      FIELD(df), parse_df, print_df },
    { "external", 0, NULL, "metadata mode, as Open vSwitch uses it",
      NULL, false, STT_EXTERNAL,
      { { IFLA_STT_COLLECT_METADATA, 0, "external" } },
      0, parse_flag, print_flag },
};
const size_t stt_n_words = sizeof stt_words / sizeof stt_words[0];

const struct stt_word *
stt_word_find(const char *name)
{
    size_t i;

    for (i = 0; i < stt_n_words; i++) {
        if (!strcmp(stt_words[i].name, name)) {
            return &stt_words[i];
        }
    }
    return NULL;
}

/* The payload of 'nla' if it holds at least 'size' bytes, else NULL. */
static const void *
attr_data(const struct nlattr *nla, size_t size)
{
    if (nla->nla_len < NLA_HDRLEN + size) {
        return NULL;
    }
    return (const char *) nla + NLA_HDRLEN;
}

bool
stt_link_info_parse(struct stt_link_info *info,
                    const struct nlattr *const tb[IFLA_STT_MAX + 1])
{
    bool ok = true;
    size_t i;

    memset(info, 0, sizeof *info);
    for (i = 0; i < stt_n_words; i++) {
        const struct stt_word *w = &stt_words[i];
        const struct stt_attr *a;

        /* An IPv6 address after the IPv4 one, where both are given. */
        for (a = w->attrs; a < &w->attrs[2] && a->type; a++) {
            const struct nlattr *nla = tb[a->type];
            const void *data;

            if (!nla) {
                continue;
            }
            info->has[a->type] = true;
            data = attr_data(nla, a->size);
            if (data) {
                memcpy(field(w, info), data, a->size);
            } else {
                ok = false;
            }
        }
    }
    return ok;
}

int
stt_word_put(const struct stt_word *w, const struct stt_link_info *info,
             stt_put_fn *put, void *aux)
{
    const struct stt_attr *a;

    for (a = w->attrs; a < &w->attrs[2] && a->type; a++) {
        if (info->has[a->type]) {
            return put(aux, a->type, a->size ? field_const(w, info) : NULL,
                       a->size);
        }
    }
    return 0;
}

bool
stt_word_present(const struct stt_word *w, const struct stt_link_info *info)
{
    const struct stt_attr *a;

    for (a = w->attrs; a < &w->attrs[2] && a->type; a++) {
        if (info->has[a->type]) {
            return true;
        }
    }
    return false;
}

/* The words of 'info' that are (or are not) external devices' only. */
static void
print_words(const struct stt_link_info *info, const struct stt_printer *p,
            bool external_only)
{
    size_t i;

    for (i = 0; i < stt_n_words; i++) {
        const struct stt_word *w = &stt_words[i];

        if ((w->modes == STT_EXTERNAL) == external_only
            && stt_word_present(w, info)) {
            w->print(w, info, p);
        }
    }
}

/* A line starts with the mode ("external"), as "ip -d link" prints vxlan
 * and geneve; then the other words, in table order. */
void
stt_link_info_print(const struct stt_link_info *info,
                    const struct stt_printer *p)
{
    print_words(info, p, true);
    print_words(info, p, false);
}
