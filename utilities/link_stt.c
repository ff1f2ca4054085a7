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
 * functions, declared in iproute2-abi.h for the iproute2 versions they were
 * checked against; in any other ip it stays out of the way.
 */
#include <config.h>

#include <linux/stt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iproute2-abi.h"
#include "iproute2-version.h"
#include "stt-link.h"

/* ip hands print_opt() its attributes as struct rtattr; stt-link.c reads
 * struct nlattr.  Both are the same netlink attribute header. */
_Static_assert(sizeof(struct rtattr) == sizeof(struct nlattr)
               && offsetof(struct rtattr, rta_len)
                  == offsetof(struct nlattr, nla_len)
               && offsetof(struct rtattr, rta_type)
                  == offsetof(struct nlattr, nla_type),
               "struct rtattr and struct nlattr differ");

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

/* An stt_put_fn for ip's request. */
static int
ip_put(void *n, int type, const void *data, size_t size)
{
    return addattr_l(n, IPROUTE2_REQ_MAXLEN, type, data, size);
}

/* ip has opened IFLA_INFO_DATA in 'n' and closes it after us.  Each word's
 * attribute goes in as the word is read, in the order of the command
 * line. */
static int
stt_parse_opt(struct link_util *lu, int argc, char **argv,
              struct nlmsghdr *n)
{
    struct stt_link_info info;

    (void) lu;
    memset(&info, 0, sizeof info);
    while (argc > 0) {
        const struct stt_word *w = stt_word_find(*argv);
        const char *why;
        int bad;

        if (!w) {
            if (strcmp(*argv, "help")) {
                fprintf(stderr, "stt: unknown word \"%s\"\n\n", *argv);
            }
            print_usage(stderr);
            return -1;
        }
        if (stt_word_present(w, &info)) {
            duparg(w->name, argc > 1 ? argv[1] : *argv);
        }
        if (argc - 1 < w->n_values) {
            fprintf(stderr, "Error: missing value for \"%s\": %s\n",
                    w->name, w->expected);
            return -1;
        }
        why = w->parse(w, argv + 1, &info, &bad);
        if (why) {
            char msg[128];

            /* ip's "argument "X" is wrong: MSG" names the value only. */
            if (why != w->expected) {
                snprintf(msg, sizeof msg, "%s %s", w->name, why);
                why = msg;
            }
            invarg(why, argv[1 + bad]);
        }
        if (stt_word_put(w, &info, ip_put, n)) {
            return -1;
        }
        argc -= 1 + w->n_values;
        argv += 1 + w->n_values;
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
ip_bool(void *aux, enum stt_print_to to, const char *key, const char *fmt,
        bool value)
{
    (void) aux;
    print_color_bool(output_type(to), COLOR_NONE, key, fmt, value);
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
        .string = ip_string,
        .uint = ip_uint,
        .boolean = ip_bool,
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

static struct link_util link_util = {
    .id = STT_LINK_KIND,
    .maxattr = IFLA_STT_MAX,
    .parse_opt = stt_parse_opt,
    .print_opt = stt_print_opt,
    .print_help = stt_print_help,
};

/* ip takes "stt_link_util" with dlsym(), which for an indirect function
 * returns what its resolver returns: the structure in an ip that
 * iproute2-abi.h fits, else NULL.  ip then treats stt as a kind without a
 * plugin ("ip -d link" shows no details, "ip link add" refuses the words)
 * after our message, and never calls into, or links its list through, a
 * structure it might lay out differently. */
typedef void indirect_fn(void);

static indirect_fn *
resolve_link_util(void)
{
    return (iproute2_running_fits()
            ? (indirect_fn *) (uintptr_t) &link_util : NULL);
}

indirect_fn stt_link_util
    __attribute__((ifunc("resolve_link_util"), visibility("default")));
