/* SPDX-License-Identifier: GPL-2.0 */
/*
 * link_stt.so: link kind "stt" for iproute2's ip, which loads it from
 * IP_LIB_DIR (ip -V's build: /usr/lib/x86_64-linux-gnu/ip) when a command
 * names the kind:
 *
 *     ip link add stt1 type stt remote 192.0.2.2 id 0x1122334455667788
 *     ip -d link show stt1
 *     ip -j -d link show stt1
 *
 * The words are those of "stt-ctl add"; the output is stt-ctl's too
 * (stt-link.c prints for both).  It runs inside ip and calls ip's own
 * functions, declared in iproute2-abi.h for one iproute2 version only.
 */
#include <config.h>

#include <arpa/inet.h>
#include <linux/stt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iproute2-abi.h"
#include "stt-link.h"

/* ip hands print_opt() its attributes as struct rtattr; stt-link.c reads
 * struct nlattr.  Both are the same netlink attribute header. */
_Static_assert(sizeof(struct rtattr) == sizeof(struct nlattr)
               && offsetof(struct rtattr, rta_len)
                  == offsetof(struct nlattr, nla_len)
               && offsetof(struct rtattr, rta_type)
                  == offsetof(struct nlattr, nla_type),
               "struct rtattr and struct nlattr differ");

/* What this file was built for, readable with "strings link_stt.so". */
static const char version_note[] __attribute__((used))
    = STT_IPROUTE2_VERSION_NOTE;

static void
print_usage(FILE *f)
{
    fputs("\
Usage: ... stt [ remote ADDR ] [ local ADDR ] [ id ID ] [ dstport PORT ]\n\
               [ srcport MIN MAX ] [ ttl TTL ] [ tos TOS ]\n\
               [ df { set | unset | inherit } ] [ external ]\n\
\n\
Where: ADDR  := IPv4 or IPv6 address\n\
       ID    := 0-18446744073709551615 (decimal, or hex with 0x)\n\
       PORT  := 1-65535\n\
       TTL   := { 0-255 | auto | inherit }\n\
       TOS   := { 0-255 | inherit }\n\
The same words as stt-ctl add; see stt-ctl(8).\n", f);
}

enum word {
    W_REMOTE, W_LOCAL, W_ID, W_DSTPORT, W_SRCPORT, W_TTL, W_TOS, W_DF,
    W_EXTERNAL, N_WORDS
};

static const struct {
    const char *name;
    int n_values;
    const char *expected;
} words[N_WORDS] = {
    [W_REMOTE] = { "remote", 1, "expected an IPv4 or IPv6 address" },
    [W_LOCAL] = { "local", 1, "expected an IPv4 or IPv6 address" },
    [W_ID] = { "id", 1,
               "expected 0-18446744073709551615 (decimal, or hex with 0x)" },
    [W_DSTPORT] = { "dstport", 1, "expected 1-65535" },
    [W_SRCPORT] = { "srcport", 2, "expected MIN MAX, each 1-65535" },
    [W_TTL] = { "ttl", 1, "expected 0-255, auto or inherit" },
    [W_TOS] = { "tos", 1, "expected 0-255 or inherit" },
    [W_DF] = { "df", 1, "expected set, unset or inherit" },
    [W_EXTERNAL] = { "external", 0, NULL },
};

static int
put_addr(struct nlmsghdr *n, enum word w, int attr4, int attr6,
         const char *s)
{
    struct stt_addr addr;

    if (!stt_parse_addr(s, &addr)) {
        invarg(words[w].expected, s);
    }
    if (addr.family == AF_INET) {
        return addattr_l(n, IPROUTE2_REQ_MAXLEN, attr4, &addr.in,
                         sizeof addr.in);
    }
    return addattr_l(n, IPROUTE2_REQ_MAXLEN, attr6, &addr.in6,
                     sizeof addr.in6);
}

static uint16_t
get_port(const char *s, enum word w)
{
    uint64_t port;

    if (!stt_parse_uint(s, UINT16_MAX, &port) || !port) {
        invarg(words[w].expected, s);
    }
    return port;
}

/* Adds the IFLA_STT_* attribute of word 'w' with 'v' its values. */
static int
put_word(struct nlmsghdr *n, enum word w, char **v)
{
    struct ifla_stt_port_range range;
    bool inherit;
    uint64_t id;
    uint8_t u8;

    switch (w) {
    case W_REMOTE:
        return put_addr(n, w, IFLA_STT_REMOTE, IFLA_STT_REMOTE6, v[0]);
    case W_LOCAL:
        return put_addr(n, w, IFLA_STT_LOCAL, IFLA_STT_LOCAL6, v[0]);
    case W_ID:
        if (!stt_parse_uint(v[0], UINT64_MAX, &id)) {
            invarg(words[w].expected, v[0]);
        }
        return addattr64(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_ID, id);
    case W_DSTPORT:
        return addattr16(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_PORT,
                         htons(get_port(v[0], w)));
    case W_SRCPORT:
        range.low = htons(get_port(v[0], w));
        range.high = htons(get_port(v[1], w));
        if (ntohs(range.low) > ntohs(range.high)) {
            invarg("srcport MIN is greater than MAX", v[0]);
        }
        return addattr_l(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_PORT_RANGE,
                         &range, sizeof range);
    case W_TTL:
        if (!stt_parse_ttl(v[0], &inherit, &u8)) {
            invarg(words[w].expected, v[0]);
        }
        return (inherit
                ? addattr(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_TTL_INHERIT)
                : addattr8(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_TTL, u8));
    case W_TOS:
        if (!stt_parse_tos(v[0], &u8)) {
            invarg(words[w].expected, v[0]);
        }
        return addattr8(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_TOS, u8);
    case W_DF:
        if (!stt_parse_df(v[0], &u8)) {
            invarg(words[w].expected, v[0]);
        }
        return addattr8(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_DF, u8);
    case W_EXTERNAL:
        return addattr(n, IPROUTE2_REQ_MAXLEN, IFLA_STT_COLLECT_METADATA);
    case N_WORDS:
        break;
    }
    return -1;
}

/* ip has opened IFLA_INFO_DATA in 'n' and closes it after us. */
static int
stt_parse_opt(struct link_util *lu, int argc, char **argv,
              struct nlmsghdr *n)
{
    bool given[N_WORDS] = { false };

    (void) lu;
    while (argc > 0) {
        int w;

        for (w = 0; w < N_WORDS && strcmp(*argv, words[w].name); w++) {
            continue;
        }
        if (w == N_WORDS) {
            if (strcmp(*argv, "help")) {
                fprintf(stderr, "stt: unknown word \"%s\"\n\n", *argv);
            }
            print_usage(stderr);
            return -1;
        }
        if (given[w]) {
            duparg(words[w].name, argc > 1 ? argv[1] : *argv);
        }
        if (argc - 1 < words[w].n_values) {
            fprintf(stderr, "Error: missing value for \"%s\": %s\n",
                    words[w].name, words[w].expected);
            return -1;
        }
        if (put_word(n, w, argv + 1)) {
            return -1;
        }
        given[w] = true;
        argc -= 1 + words[w].n_values;
        argv += 1 + words[w].n_values;
    }
    return 0;
}

static enum output_type
output_type(enum stt_print_to to)
{
    return (to == STT_PRINT_TEXT ? PRINT_FP
            : to == STT_PRINT_JSON ? PRINT_JSON : PRINT_ANY);
}

static void
ip_string(void *aux, enum stt_print_to to, const char *key, const char *fmt,
          const char *value)
{
    (void) aux;
    print_color_string(output_type(to), COLOR_NONE, key, fmt, value);
}

static void
ip_uint(void *aux, enum stt_print_to to, const char *key, const char *fmt,
        unsigned int value)
{
    (void) aux;
    print_color_uint(output_type(to), COLOR_NONE, key, fmt, value);
}

static void
ip_flag(void *aux, const char *key, const char *fmt)
{
    (void) aux;
    print_color_bool(PRINT_ANY, COLOR_NONE, key, fmt, true);
}

static void
ip_object_start(void *aux, const char *key)
{
    (void) aux;
    open_json_object(key);
}

static void
ip_object_end(void *aux)
{
    (void) aux;
    close_json_object();
}

/* ip has opened "info_data" in JSON and printed "stt " in text. */
static void
stt_print_opt(struct link_util *lu, FILE *f, struct rtattr *tb[])
{
    const struct stt_printer printer = {
        .json = is_json_context(),
        .string = ip_string,
        .uint = ip_uint,
        .flag = ip_flag,
        .object_start = ip_object_start,
        .object_end = ip_object_end,
    };
    struct stt_link_info info;

    (void) lu;
    (void) f;
    if (!tb) {
        return;
    }
    if (!stt_link_info_parse(&info, (const struct nlattr **) tb)) {
        print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s ",
                           "(malformed stt attributes)");
        return;
    }
    stt_link_info_print(&info, &printer);
}

static void
stt_print_help(struct link_util *lu, int argc, char **argv, FILE *f)
{
    (void) lu;
    (void) argc;
    (void) argv;
    print_usage(f);
}

__attribute__((visibility("default"))) struct link_util stt_link_util = {
    .id = STT_LINK_KIND,
    .maxattr = IFLA_STT_MAX,
    .parse_opt = stt_parse_opt,
    .print_opt = stt_print_opt,
    .print_help = stt_print_help,
};
