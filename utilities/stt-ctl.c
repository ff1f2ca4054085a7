/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stt-ctl: create, change, delete and show stt tunnel devices (rtnetlink
 * link kind "stt", attributes in include/uapi/linux/stt.h) and their counters.
 *
 * Every word of a command line is checked before anything is sent to the
 * kernel; what the kernel refuses is reported with its own message.
 */
#include <config.h>
#include "stt-version.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/stt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "stt-ctl-ethtool.h"
#include "stt-ctl-json.h"
#include "stt-ctl-nl.h"
#include "stt-link.h"

/* Exit codes, as documented in stt-ctl(8). */
enum {
    EXIT_OK = 0,
    EXIT_RUNTIME = 1,           /* Refused by the kernel, or failed. */
    EXIT_USAGE = 2,             /* Bad command line: nothing was sent. */
};

#define PROGRAM_NAME "stt-ctl"
#define TRY_HELP "(try '" PROGRAM_NAME " --help')"

/* Where ip-netns(8) binds network namespaces by name. */
static const char *const netns_dirs[] = { "/run/netns", "/var/run/netns" };

static bool json_output;
static bool show_stats;

static void usage_error(const char *format, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static void runtime_error(int error, const char *format, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void usage(void) __attribute__((noreturn));

/* Prints "stt-ctl: MESSAGE" and exits with EXIT_USAGE. */
static void
usage_error(const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s: ", PROGRAM_NAME);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    exit(EXIT_USAGE);
}

/* Prints "stt-ctl: MESSAGE[: strerror(error)]" and exits with
 * EXIT_RUNTIME. */
static void
runtime_error(int error, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s: ", PROGRAM_NAME);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    if (error) {
        fprintf(stderr, ": %s", strerror(error));
    }
    putc('\n', stderr);
    exit(EXIT_RUNTIME);
}

static void
usage(void)
{
    printf("\
Usage: %s [OPTIONS] COMMAND\n\
Create, change, delete and show STT tunnel devices (link kind \"stt\").\n\
\n\
Commands:\n\
  add NAME [WORD...]       create device NAME\n\
  set NAME WORD...         change device NAME (the words marked *)\n\
  del NAME                 delete device NAME\n\
  show [NAME]              show device NAME, or every stt device\n\
\n\
Words:\n\
  remote ADDR            * peer's IPv4 or IPv6 address\n\
  local ADDR             * source IPv4 or IPv6 address\n\
  id ID                  * 64-bit context id (decimal, or hex with 0x)\n\
  dstport PORT             destination TCP port, 1-65535 (default 7471)\n\
  srcport MIN MAX        * source port range, 1-65535\n\
  ttl N|inherit          * outer TTL or hop limit, 0-255\n\
  tos N|inherit          * outer TOS, 0-255 (1 also means inherit)\n\
  df set|unset|inherit   * outer IPv4 don't-fragment bit\n\
  external                 metadata mode, as Open vSwitch uses it\n\
  link-netns NS            underlay network namespace (ip netns name)\n\
\n\
Options (before the command):\n\
  -s, --statistics         show link statistics and every counter\n\
  -j, --json               show in JSON\n\
  -h, --help               print this help and exit\n\
  -V, --version            print the version and exit\n\
\n\
Exit status: 0 done, 1 refused by the kernel or failed, 2 usage error\n\
(nothing sent).  See stt-ctl(8).\n", PROGRAM_NAME);
    exit(EXIT_OK);
}

/* ---- Parsing the words of add and set ---------------------------------- */

enum opt {
    OPT_REMOTE,
    OPT_LOCAL,
    OPT_ID,
    OPT_DSTPORT,
    OPT_SRCPORT,
    OPT_TTL,
    OPT_TOS,
    OPT_DF,
    OPT_EXTERNAL,
    OPT_LINK_NETNS,
    N_OPTS
};

struct stt_options {
    bool given[N_OPTS];
    struct stt_addr remote;
    struct stt_addr local;
    uint64_t id;
    uint16_t dstport;
    uint16_t srcport_low;
    uint16_t srcport_high;
    bool ttl_inherit;
    uint8_t ttl;
    uint8_t tos;
    uint8_t df;
    const char *link_netns;
};

struct word {
    const char *name;
    enum opt opt;
    int n_values;
    bool changeable;            /* Accepted by "set". */
    const char *expected;       /* What a value must look like. */
    bool (*parse)(struct stt_options *, char *values[]);
};

static bool
parse_port(const char *s, uint16_t *port)
{
    uint64_t value;

    if (!stt_parse_uint(s, UINT16_MAX, &value) || !value) {
        return false;
    }
    *port = value;
    return true;
}

static bool
parse_remote(struct stt_options *o, char *values[])
{
    return stt_parse_addr(values[0], &o->remote);
}

static bool
parse_local(struct stt_options *o, char *values[])
{
    return stt_parse_addr(values[0], &o->local);
}

static bool
parse_id(struct stt_options *o, char *values[])
{
    return stt_parse_uint(values[0], UINT64_MAX, &o->id);
}

static bool
parse_dstport(struct stt_options *o, char *values[])
{
    return parse_port(values[0], &o->dstport);
}

static bool
parse_srcport(struct stt_options *o, char *values[])
{
    return (parse_port(values[0], &o->srcport_low)
            && parse_port(values[1], &o->srcport_high));
}

static bool
parse_ttl(struct stt_options *o, char *values[])
{
    return stt_parse_ttl(values[0], &o->ttl_inherit, &o->ttl);
}

static bool
parse_tos(struct stt_options *o, char *values[])
{
    return stt_parse_tos(values[0], &o->tos);
}

static bool
parse_df(struct stt_options *o, char *values[])
{
    return stt_parse_df(values[0], &o->df);
}

static bool
parse_external(struct stt_options *o, char *values[])
{
    (void) o;
    (void) values;
    return true;
}

/* A name for a file in /run/netns, as "ip netns add" accepts. */
static bool
parse_link_netns(struct stt_options *o, char *values[])
{
    const char *name = values[0];

    if (!name[0] || strchr(name, '/') || !strcmp(name, ".")
        || !strcmp(name, "..")) {
        return false;
    }
    o->link_netns = name;
    return true;
}

static const struct word words[] = {
    { "remote", OPT_REMOTE, 1, true,
      "expected an IPv4 or IPv6 address", parse_remote },
    { "local", OPT_LOCAL, 1, true,
      "expected an IPv4 or IPv6 address", parse_local },
    { "id", OPT_ID, 1, true,
      "expected 0-18446744073709551615 (decimal, or hex with 0x)", parse_id },
    { "dstport", OPT_DSTPORT, 1, false,
      "expected 1-65535", parse_dstport },
    { "srcport", OPT_SRCPORT, 2, true,
      "expected MIN MAX, each 1-65535", parse_srcport },
    { "ttl", OPT_TTL, 1, true,
      "expected 0-255, auto or inherit", parse_ttl },
    { "tos", OPT_TOS, 1, true,
      "expected 0-255 or inherit", parse_tos },
    { "df", OPT_DF, 1, true,
      "expected set, unset or inherit", parse_df },
    { "external", OPT_EXTERNAL, 0, false, NULL, parse_external },
    { "link-netns", OPT_LINK_NETNS, 1, false,
      "expected a network namespace name, as in 'ip netns list'",
      parse_link_netns },
};

static const struct word *
find_word(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (!strcmp(words[i].name, name)) {
            return &words[i];
        }
    }
    return NULL;
}

static bool
is_option(const char *word)
{
    static const char *const options[] = {
        "-s", "-j", "-h", "-V", "--statistics", "--json", "--help",
        "--version",
    };
    size_t i;

    for (i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (!strcmp(word, options[i])) {
            return true;
        }
    }
    return false;
}

static void __attribute__((noreturn))
unknown_word(const char *command, const char *word)
{
    if (is_option(word)) {
        usage_error("options go before the command, as in '%s %s %s'",
                    PROGRAM_NAME, word, command);
    }
    usage_error("unknown word '%s' %s", word, TRY_HELP);
}

/* Device names as the kernel's dev_valid_name() accepts them. */
static const char *
parse_name(const char *command, char *argv[], int argc)
{
    const char *name, *p;

    if (argc < 1) {
        usage_error("%s needs a device name %s", command, TRY_HELP);
    }
    name = argv[0];
    if (is_option(name)) {
        unknown_word(command, name);
    }
    if (!name[0] || strlen(name) >= IFNAMSIZ || !strcmp(name, ".")
        || !strcmp(name, "..")) {
        goto bad;
    }
    for (p = name; *p; p++) {
        if (*p == '/' || *p == ':' || isspace((unsigned char) *p)) {
            goto bad;
        }
    }
    return name;

bad:
    usage_error("bad device name '%s': expected 1-%d characters, "
                "none of them '/', ':' or white space", name, IFNAMSIZ - 1);
}

static void
parse_words(const char *command, bool is_set, char *argv[], int argc,
            struct stt_options *o)
{
    int i = 0;

    memset(o, 0, sizeof *o);
    while (i < argc) {
        const struct word *w = find_word(argv[i]);
        int j;

        if (!w) {
            unknown_word(command, argv[i]);
        }
        if (is_set && !w->changeable) {
            usage_error("%s cannot be changed on an existing device: "
                        "delete the device and add it again", w->name);
        }
        if (o->given[w->opt]) {
            usage_error("%s given twice", w->name);
        }
        if (argc - i - 1 < w->n_values) {
            usage_error("missing value for %s: %s", w->name, w->expected);
        }
        if (!w->parse(o, &argv[i + 1])) {
            char value[64] = "";

            for (j = 0; j < w->n_values; j++) {
                snprintf(value + strlen(value), sizeof value - strlen(value),
                         "%s%s", j ? " " : "", argv[i + 1 + j]);
            }
            usage_error("bad value '%s' for %s: %s",
                        value, w->name, w->expected);
        }
        if (w->opt == OPT_SRCPORT && o->srcport_low > o->srcport_high) {
            usage_error("bad value '%s %s' for srcport: MIN is greater "
                        "than MAX", argv[i + 1], argv[i + 2]);
        }
        o->given[w->opt] = true;
        i += 1 + w->n_values;
    }
}

/* ---- Talking to the kernel --------------------------------------------- */

/* Which attribute of a request stands for which word, so that the kernel's
 * complaint about an attribute can name the word. */
struct attr_words {
    size_t n;
    struct {
        uint32_t offset;
        const char *word;
    } map[16];
};

/* Records that the next attribute put into 'msg' comes from 'word'. */
static void
note_word(struct attr_words *aw, struct nl_msg *msg, const char *word)
{
    if (aw && aw->n < sizeof aw->map / sizeof aw->map[0]) {
        aw->map[aw->n].offset = NLMSG_ALIGN(nlmsg_hdr(msg)->nlmsg_len);
        aw->map[aw->n].word = word;
        aw->n++;
    }
}

static const char *
word_at(const struct attr_words *aw, const struct ctl_answer *answer)
{
    size_t i;

    if (aw && answer->has_offset) {
        for (i = 0; i < aw->n; i++) {
            if (aw->map[i].offset == answer->offset) {
                return aw->map[i].word;
            }
        }
    }
    return NULL;
}

/* What rtnetlink answers to a link kind it does not know: for kind "stt",
 * the module is not loaded and modprobe found none for this kernel. */
#define UNKNOWN_KIND "Unknown device type"

/* Exits with the kernel's refusal of 'what': "stt-ctl: WHAT: strerror:
 * extack message (word)[; hint]". */
static void
kernel_refused(const char *what, int error, const struct ctl_answer *answer,
               const struct attr_words *aw)
{
    const char *word = word_at(aw, answer);

    fprintf(stderr, "%s: %s: %s", PROGRAM_NAME, what, strerror(error));
    if (answer->message[0]) {
        fprintf(stderr, ": %s", answer->message);
    }
    if (word) {
        fprintf(stderr, " (%s)", word);
    }
    if (error == EOPNOTSUPP && !strcmp(answer->message, UNKNOWN_KIND)) {
        fprintf(stderr, "; is stt installed for this kernel? modinfo stt");
    }
    putc('\n', stderr);
    exit(EXIT_RUNTIME);
}

static void
transact(struct nl_sock *sk, struct nl_msg *msg, ctl_reply_cb *reply_cb,
         void *aux, const char *what, const struct attr_words *aw)
{
    struct ctl_answer answer;
    int error;

    error = ctl_nl_transact(sk, msg, reply_cb, aux, &answer);
    nlmsg_free(msg);
    if (error) {
        kernel_refused(what, error, &answer, aw);
    }
    if (answer.message[0]) {
        fprintf(stderr, "%s: %s: warning: %s\n",
                PROGRAM_NAME, what, answer.message);
    }
}

static struct nl_sock *
open_rtnl(void)
{
    struct nl_sock *sk;
    int error;

    error = ctl_nl_open(&sk);
    if (error) {
        runtime_error(error, "cannot open an rtnetlink socket");
    }
    return sk;
}

static struct nl_msg *
alloc_msg(int type, int flags, const struct ifinfomsg *ifi)
{
    struct nl_msg *msg = nlmsg_alloc_simple(type, flags);

    if (!msg || nlmsg_append(msg, (void *) ifi, sizeof *ifi,
                             NLMSG_ALIGNTO) < 0) {
        runtime_error(ENOMEM, "cannot build a netlink message");
    }
    return msg;
}

/* What RTM_NEWLINK said about a device. */
struct link {
    int ifindex;
    char name[IFNAMSIZ];
    char kind[32];
    struct stt_link_info info;
    bool has_link_netnsid;
    int32_t link_netnsid;
    bool has_stats;
    struct rtnl_link_stats64 stats;
};

struct link_list {
    struct link *links;
    size_t n;
    size_t allocated;
    bool stt_only;              /* Keep only stt devices. */
};

static struct nla_policy link_policy[IFLA_MAX + 1] = {
    [IFLA_IFNAME] = { .type = NLA_STRING, .maxlen = IFNAMSIZ },
    [IFLA_LINKINFO] = { .type = NLA_NESTED },
    [IFLA_LINK_NETNSID] = { .type = NLA_S32 },
};

static struct nla_policy linkinfo_policy[IFLA_INFO_MAX + 1] = {
    [IFLA_INFO_KIND] = { .type = NLA_STRING },
    [IFLA_INFO_DATA] = { .type = NLA_NESTED },
};

static struct nla_policy stt_policy[IFLA_STT_MAX + 1] = {
    [IFLA_STT_ID] = { .type = NLA_U64 },
    [IFLA_STT_REMOTE] = { .minlen = sizeof(struct in_addr) },
    [IFLA_STT_REMOTE6] = { .minlen = sizeof(struct in6_addr) },
    [IFLA_STT_LOCAL] = { .minlen = sizeof(struct in_addr) },
    [IFLA_STT_LOCAL6] = { .minlen = sizeof(struct in6_addr) },
    [IFLA_STT_PORT] = { .type = NLA_U16 },
    [IFLA_STT_PORT_RANGE] = { .minlen = sizeof(struct ifla_stt_port_range) },
    [IFLA_STT_TTL] = { .type = NLA_U8 },
    [IFLA_STT_TTL_INHERIT] = { .type = NLA_FLAG },
    [IFLA_STT_TOS] = { .type = NLA_U8 },
    [IFLA_STT_DF] = { .type = NLA_U8 },
    [IFLA_STT_COLLECT_METADATA] = { .type = NLA_FLAG },
};

static int
parse_stt_data(struct nlattr *data, struct link *l)
{
    struct nlattr *tb[IFLA_STT_MAX + 1];

    if (nla_parse_nested(tb, IFLA_STT_MAX, data, stt_policy) < 0
        || !stt_link_info_parse(&l->info, (const struct nlattr **) tb)) {
        return EPROTO;
    }
    return 0;
}

/* ctl_reply_cb for RTM_GETLINK: appends the device to a struct link_list. */
static int
parse_link(struct nl_msg *msg, void *list_)
{
    struct link_list *list = list_;
    struct nlmsghdr *nlh = nlmsg_hdr(msg);
    struct nlattr *tb[IFLA_MAX + 1];
    struct nlattr *info[IFLA_INFO_MAX + 1];
    const struct ifinfomsg *ifi;
    struct link l;
    int error;

    if (nlh->nlmsg_type != RTM_NEWLINK) {
        return 0;
    }
    if (nlmsg_parse(nlh, sizeof *ifi, tb, IFLA_MAX, link_policy) < 0
        || !tb[IFLA_IFNAME]) {
        return EPROTO;
    }
    ifi = nlmsg_data(nlh);

    memset(&l, 0, sizeof l);
    l.ifindex = ifi->ifi_index;
    snprintf(l.name, sizeof l.name, "%s", nla_get_string(tb[IFLA_IFNAME]));
    if (tb[IFLA_LINKINFO]) {
        if (nla_parse_nested(info, IFLA_INFO_MAX, tb[IFLA_LINKINFO],
                             linkinfo_policy) < 0) {
            return EPROTO;
        }
        if (info[IFLA_INFO_KIND]) {
            snprintf(l.kind, sizeof l.kind, "%s",
                     nla_get_string(info[IFLA_INFO_KIND]));
        }
        if (!strcmp(l.kind, STT_LINK_KIND) && info[IFLA_INFO_DATA]) {
            error = parse_stt_data(info[IFLA_INFO_DATA], &l);
            if (error) {
                return error;
            }
        }
    }
    if (list->stt_only && strcmp(l.kind, STT_LINK_KIND)) {
        return 0;
    }
    if (tb[IFLA_LINK_NETNSID]) {
        l.has_link_netnsid = true;
        l.link_netnsid = nla_get_s32(tb[IFLA_LINK_NETNSID]);
    }
    if (tb[IFLA_STATS64]) {
        size_t n = nla_len(tb[IFLA_STATS64]);

        /* Older kernels send fewer counters, newer ones more. */
        l.has_stats = true;
        memcpy(&l.stats, nla_data(tb[IFLA_STATS64]),
               n < sizeof l.stats ? n : sizeof l.stats);
    }

    if (list->n >= list->allocated) {
        size_t allocated = list->allocated ? 2 * list->allocated : 8;
        struct link *links = realloc(list->links,
                                     allocated * sizeof *links);

        if (!links) {
            return ENOMEM;
        }
        list->links = links;
        list->allocated = allocated;
    }
    list->links[list->n++] = l;
    return 0;
}

/* Reads device 'name' back from the kernel; exits if it is not an stt
 * device. */
static void
get_stt_link(struct nl_sock *sk, const char *command, const char *name,
             struct link *l)
{
    struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
    struct link_list list = { .stt_only = false };
    struct nl_msg *msg;
    char what[64];

    snprintf(what, sizeof what, "%s %s", command, name);
    msg = alloc_msg(RTM_GETLINK, 0, &ifi);
    if (nla_put_string(msg, IFLA_IFNAME, name) < 0) {
        runtime_error(ENOMEM, "cannot build a netlink message");
    }
    transact(sk, msg, parse_link, &list, what, NULL);
    if (list.n != 1) {
        runtime_error(EPROTO, "%s: unexpected reply from the kernel", what);
    }
    if (strcmp(list.links[0].kind, STT_LINK_KIND)) {
        if (list.links[0].kind[0]) {
            runtime_error(0, "%s: not an stt device (kind %s)", what,
                          list.links[0].kind);
        }
        runtime_error(0, "%s: not an stt device", what);
    }
    *l = list.links[0];
    free(list.links);
}

static void
put_or_die(int nle)
{
    if (nle < 0) {
        runtime_error(ctl_nle_to_errno(nle),
                      "cannot build a netlink message");
    }
}

static void
put_addr(struct nl_msg *msg, struct attr_words *aw, const char *word,
         int attr4, int attr6, const struct stt_addr *addr)
{
    note_word(aw, msg, word);
    if (addr->family == AF_INET) {
        put_or_die(nla_put(msg, attr4, sizeof addr->in, &addr->in));
    } else {
        put_or_die(nla_put(msg, attr6, sizeof addr->in6, &addr->in6));
    }
}

/* IFLA_LINKINFO with kind "stt" and the IFLA_STT_* attributes of 'o'. */
static void
put_linkinfo(struct nl_msg *msg, const struct stt_options *o,
             struct attr_words *aw)
{
    struct nlattr *linkinfo, *data;

    linkinfo = nla_nest_start(msg, IFLA_LINKINFO);
    if (!linkinfo) {
        put_or_die(-NLE_NOMEM);
    }
    put_or_die(nla_put_string(msg, IFLA_INFO_KIND, STT_LINK_KIND));

    data = nla_nest_start(msg, IFLA_INFO_DATA);
    if (!data) {
        put_or_die(-NLE_NOMEM);
    }
    if (o->given[OPT_REMOTE]) {
        put_addr(msg, aw, "remote", IFLA_STT_REMOTE, IFLA_STT_REMOTE6,
                 &o->remote);
    }
    if (o->given[OPT_LOCAL]) {
        put_addr(msg, aw, "local", IFLA_STT_LOCAL, IFLA_STT_LOCAL6,
                 &o->local);
    }
    if (o->given[OPT_ID]) {
        note_word(aw, msg, "id");
        put_or_die(nla_put_u64(msg, IFLA_STT_ID, o->id));
    }
    if (o->given[OPT_DSTPORT]) {
        note_word(aw, msg, "dstport");
        put_or_die(nla_put_u16(msg, IFLA_STT_PORT, htons(o->dstport)));
    }
    if (o->given[OPT_SRCPORT]) {
        struct ifla_stt_port_range range = {
            .low = htons(o->srcport_low),
            .high = htons(o->srcport_high),
        };

        note_word(aw, msg, "srcport");
        put_or_die(nla_put(msg, IFLA_STT_PORT_RANGE, sizeof range, &range));
    }
    if (o->given[OPT_TTL]) {
        note_word(aw, msg, "ttl");
        if (o->ttl_inherit) {
            put_or_die(nla_put_flag(msg, IFLA_STT_TTL_INHERIT));
        } else {
            put_or_die(nla_put_u8(msg, IFLA_STT_TTL, o->ttl));
        }
    }
    if (o->given[OPT_TOS]) {
        note_word(aw, msg, "tos");
        put_or_die(nla_put_u8(msg, IFLA_STT_TOS, o->tos));
    }
    if (o->given[OPT_DF]) {
        note_word(aw, msg, "df");
        put_or_die(nla_put_u8(msg, IFLA_STT_DF, o->df));
    }
    if (o->given[OPT_EXTERNAL]) {
        note_word(aw, msg, "external");
        put_or_die(nla_put_flag(msg, IFLA_STT_COLLECT_METADATA));
    }
    nla_nest_end(msg, data);
    nla_nest_end(msg, linkinfo);
}

/* The id of network namespace 'name' as seen from ours. */
static int32_t
link_netnsid(struct nl_sock *sk, const char *name)
{
    struct ctl_answer answer;
    char path[PATH_MAX];
    int32_t nsid;
    size_t i;
    int error, fd = -1;

    error = ENOENT;
    for (i = 0; i < sizeof netns_dirs / sizeof netns_dirs[0] && fd < 0;
         i++) {
        snprintf(path, sizeof path, "%s/%s", netns_dirs[i], name);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && (i == 0 || errno != ENOENT)) {
            error = errno;
        }
    }
    if (fd < 0) {
        snprintf(path, sizeof path, "%s/%s", netns_dirs[0], name);
        runtime_error(error, "link-netns %s: cannot open %s", name, path);
    }

    error = ctl_netns_nsid(sk, fd, &nsid, &answer);
    close(fd);
    if (error) {
        char what[64];

        snprintf(what, sizeof what, "link-netns %s", name);
        kernel_refused(what, error, &answer, NULL);
    }
    return nsid;
}

/* ---- Commands ---------------------------------------------------------- */

static int
cmd_add(int argc, char *argv[])
{
    struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
    struct attr_words aw = { .n = 0 };
    struct stt_options o;
    struct nl_sock *sk;
    struct nl_msg *msg;
    const char *name;
    char what[64];

    name = parse_name("add", argv, argc);
    parse_words("add", false, argv + 1, argc - 1, &o);

    sk = open_rtnl();
    msg = alloc_msg(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifi);
    note_word(&aw, msg, "NAME");
    put_or_die(nla_put_string(msg, IFLA_IFNAME, name));
    if (o.given[OPT_LINK_NETNS]) {
        int32_t nsid = link_netnsid(sk, o.link_netns);

        note_word(&aw, msg, "link-netns");
        put_or_die(nla_put_s32(msg, IFLA_LINK_NETNSID, nsid));
    }
    put_linkinfo(msg, &o, &aw);

    snprintf(what, sizeof what, "add %s", name);
    transact(sk, msg, NULL, NULL, what, &aw);
    nl_socket_free(sk);
    return EXIT_OK;
}

static int
cmd_set(int argc, char *argv[])
{
    struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
    struct attr_words aw = { .n = 0 };
    struct stt_options o;
    struct nl_sock *sk;
    struct nl_msg *msg;
    const char *name;
    struct link l;
    char what[64];

    name = parse_name("set", argv, argc);
    parse_words("set", true, argv + 1, argc - 1, &o);
    if (argc < 2) {
        usage_error("set needs something to change: one or more of "
                    "remote, local, id, srcport, ttl, tos, df");
    }

    sk = open_rtnl();
    get_stt_link(sk, "set", name, &l);

    ifi.ifi_index = l.ifindex;
    msg = alloc_msg(RTM_NEWLINK, 0, &ifi);
    put_linkinfo(msg, &o, &aw);

    snprintf(what, sizeof what, "set %s", name);
    transact(sk, msg, NULL, NULL, what, &aw);
    nl_socket_free(sk);
    return EXIT_OK;
}

static int
cmd_del(int argc, char *argv[])
{
    struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
    struct nl_sock *sk;
    struct nl_msg *msg;
    const char *name;
    struct link l;
    char what[64];

    name = parse_name("del", argv, argc);
    if (argc > 1) {
        unknown_word("del", argv[1]);
    }

    /* RTM_DELLINK deletes a device of any kind: make sure it is ours. */
    sk = open_rtnl();
    get_stt_link(sk, "del", name, &l);

    ifi.ifi_index = l.ifindex;
    msg = alloc_msg(RTM_DELLINK, 0, &ifi);
    snprintf(what, sizeof what, "del %s", name);
    transact(sk, msg, NULL, NULL, what, NULL);
    nl_socket_free(sk);
    return EXIT_OK;
}

/* ---- show -------------------------------------------------------------- */

/* Text output of stt_link_info_print(): one line, built field by field. */
struct text_line {
    char buf[512];
    size_t len;
};

static void text_append(struct text_line *, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void
text_append(struct text_line *line, const char *format, ...)
{
    va_list args;
    int n;

    va_start(args, format);
    n = vsnprintf(line->buf + line->len, sizeof line->buf - line->len,
                  format, args);
    va_end(args);
    if (n > 0) {
        line->len += n;
        if (line->len >= sizeof line->buf) {
            line->len = sizeof line->buf - 1;
        }
    }
}

/* Where stt_link_info_print() writes for stt-ctl: JSON into 'j' if set,
 * else text into 'line'. */
struct ctl_out {
    struct json *j;
    struct text_line *line;
};

static void
out_string(void *out_, enum stt_print_to to, const char *key,
           const char *fmt, const char *value)
{
    struct ctl_out *out = out_;

    if (out->j && to != STT_PRINT_TEXT) {
        json_string(out->j, key, value);
    } else if (!out->j && to != STT_PRINT_JSON) {
        text_append(out->line, fmt, value);
    }
}

static void
out_uint(void *out_, enum stt_print_to to, const char *key,
         const char *fmt, unsigned int value)
{
    struct ctl_out *out = out_;

    if (out->j && to != STT_PRINT_TEXT) {
        json_uint(out->j, key, value);
    } else if (!out->j && to != STT_PRINT_JSON) {
        text_append(out->line, fmt, value);
    }
}

static void
out_flag(void *out_, const char *key, const char *fmt)
{
    struct ctl_out *out = out_;

    if (out->j) {
        json_bool(out->j, key, true);
    } else {
        text_append(out->line, "%s", fmt);
    }
}

static void
out_object_start(void *out_, const char *key)
{
    json_object_start(((struct ctl_out *) out_)->j, key);
}

static void
out_object_end(void *out_)
{
    json_object_end(((struct ctl_out *) out_)->j);
}

static void
print_link_info(const struct stt_link_info *info, struct ctl_out *out)
{
    const struct stt_printer printer = {
        .json = out->j != NULL,
        .aux = out,
        .string = out_string,
        .uint = out_uint,
        .flag = out_flag,
        .object_start = out_object_start,
        .object_end = out_object_end,
    };

    stt_link_info_print(info, &printer);
}

/* "NAME: stt" and the words of "ip -d link show", which are those "add"
 * takes: a line can be pasted back into "stt-ctl add". */
static void
print_link_config(const struct link *l)
{
    struct text_line line = { .len = 0 };
    struct ctl_out out = { .j = NULL, .line = &line };

    text_append(&line, "%s: %s ", l->name, l->kind);
    print_link_info(&l->info, &out);
    if (l->has_link_netnsid) {
        text_append(&line, "link-netnsid %d ", l->link_netnsid);
    }
    line.buf[line.len - 1] = '\0';     /* The last field's space. */
    puts(line.buf);
}

struct stat_column {
    const char *text;           /* Column title in text output. */
    const char *json;           /* Key in JSON output. */
    size_t offset;              /* In struct rtnl_link_stats64. */
};

#define STAT(TEXT, JSON, MEMBER) \
    { TEXT, JSON, offsetof(struct rtnl_link_stats64, MEMBER) }

/* The columns of "ip -s -s link". */
static const struct stat_column rx_columns[] = {
    STAT("bytes", "bytes", rx_bytes),
    STAT("packets", "packets", rx_packets),
    STAT("errors", "errors", rx_errors),
    STAT("dropped", "dropped", rx_dropped),
    STAT("missed", "missed_errors", rx_missed_errors),
    STAT("mcast", "multicast", multicast),
};
static const struct stat_column rx_error_columns[] = {
    STAT("length", "length_errors", rx_length_errors),
    STAT("crc", "crc_errors", rx_crc_errors),
    STAT("frame", "frame_errors", rx_frame_errors),
    STAT("fifo", "fifo_errors", rx_fifo_errors),
    STAT("overrun", "over_errors", rx_over_errors),
};
static const struct stat_column tx_columns[] = {
    STAT("bytes", "bytes", tx_bytes),
    STAT("packets", "packets", tx_packets),
    STAT("errors", "errors", tx_errors),
    STAT("dropped", "dropped", tx_dropped),
    STAT("carrier", "carrier_errors", tx_carrier_errors),
    STAT("collsns", "collisions", collisions),
};
static const struct stat_column tx_error_columns[] = {
    STAT("aborted", "aborted_errors", tx_aborted_errors),
    STAT("fifo", "fifo_errors", tx_fifo_errors),
    STAT("window", "window_errors", tx_window_errors),
    STAT("heartbt", "heartbeat_errors", tx_heartbeat_errors),
};

#define N_COLUMNS(ARRAY) (sizeof ARRAY / sizeof ARRAY[0])

static uint64_t
stat_value(const struct rtnl_link_stats64 *stats,
           const struct stat_column *c)
{
    uint64_t value;

    memcpy(&value, (const char *) stats + c->offset, sizeof value);
    return value;
}

/* A title line and a value line, each column as wide as its widest. */
static void
print_stat_rows(const char *title, const struct rtnl_link_stats64 *stats,
                const struct stat_column *columns, size_t n)
{
    char values[8][24];
    int widths[8];
    size_t i;

    for (i = 0; i < n && i < 8; i++) {
        int len = strlen(columns[i].text);

        snprintf(values[i], sizeof values[i], "%" PRIu64,
                 stat_value(stats, &columns[i]));
        widths[i] = (int) strlen(values[i]) > len ? (int) strlen(values[i])
                                                  : len;
    }
    printf("    %s", title);
    for (i = 0; i < n; i++) {
        printf(" %*s", widths[i], columns[i].text);
    }
    printf("\n    %*s", (int) strlen(title), "");
    for (i = 0; i < n; i++) {
        printf(" %*s", widths[i], values[i]);
    }
    putchar('\n');
}

static void
print_link_stats(const struct link *l, const struct eth_counters *c)
{
    size_t i;

    if (l->has_stats) {
        print_stat_rows("RX:", &l->stats, rx_columns, N_COLUMNS(rx_columns));
        print_stat_rows("RX errors:", &l->stats, rx_error_columns,
                        N_COLUMNS(rx_error_columns));
        print_stat_rows("TX:", &l->stats, tx_columns, N_COLUMNS(tx_columns));
        print_stat_rows("TX errors:", &l->stats, tx_error_columns,
                        N_COLUMNS(tx_error_columns));
    }
    if (c->n) {
        printf("    counters:\n");
        for (i = 0; i < c->n; i++) {
            printf("        %s: %" PRIu64 "\n", c->names[i], c->values[i]);
        }
    }
}

static void
json_stat_columns(struct json *j, const struct rtnl_link_stats64 *stats,
                  const struct stat_column *columns, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        json_uint(j, columns[i].json, stat_value(stats, &columns[i]));
    }
}

static void
json_link(struct json *j, const struct link *l, const struct eth_counters *c)
{
    struct ctl_out out = { .j = j, .line = NULL };
    size_t i;

    /* The shape of "ip -j -d link show". */
    json_object_start(j, NULL);
    json_int(j, "ifindex", l->ifindex);
    json_string(j, "ifname", l->name);
    if (l->has_link_netnsid) {
        json_int(j, "link_netnsid", l->link_netnsid);
    }
    json_object_start(j, "linkinfo");
    json_string(j, "info_kind", l->kind);
    json_object_start(j, "info_data");
    print_link_info(&l->info, &out);
    json_object_end(j);
    json_object_end(j);
    if (show_stats && l->has_stats) {
        json_object_start(j, "stats64");
        json_object_start(j, "rx");
        json_stat_columns(j, &l->stats, rx_columns, N_COLUMNS(rx_columns));
        json_stat_columns(j, &l->stats, rx_error_columns,
                          N_COLUMNS(rx_error_columns));
        json_object_end(j);
        json_object_start(j, "tx");
        json_stat_columns(j, &l->stats, tx_columns, N_COLUMNS(tx_columns));
        json_stat_columns(j, &l->stats, tx_error_columns,
                          N_COLUMNS(tx_error_columns));
        json_object_end(j);
        json_object_end(j);
    }
    if (show_stats) {
        json_object_start(j, "counters");
        for (i = 0; i < c->n; i++) {
            json_uint(j, c->names[i], c->values[i]);
        }
        json_object_end(j);
    }
    json_object_end(j);
}

static int
cmd_show(int argc, char *argv[])
{
    struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
    struct link_list list = { .stt_only = true };
    struct eth_counters *counters;
    const char *name = NULL;
    struct nl_sock *sk;
    struct json j;
    size_t i;

    if (argc > 0) {
        name = parse_name("show", argv, argc);
        if (argc > 1) {
            unknown_word("show", argv[1]);
        }
    }

    sk = open_rtnl();
    if (name) {
        list.links = malloc(sizeof *list.links);
        if (!list.links) {
            runtime_error(ENOMEM, "show");
        }
        get_stt_link(sk, "show", name, &list.links[0]);
        list.n = list.allocated = 1;
    } else {
        struct nl_msg *msg = alloc_msg(RTM_GETLINK, NLM_F_DUMP, &ifi);
        struct nlattr *linkinfo;

        /* Ask the kernel to dump stt devices only; parse_link() filters
         * too, for a kernel that cannot (the module is not loaded). */
        linkinfo = nla_nest_start(msg, IFLA_LINKINFO);
        put_or_die(linkinfo ? nla_put_string(msg, IFLA_INFO_KIND,
                                             STT_LINK_KIND) : -NLE_NOMEM);
        nla_nest_end(msg, linkinfo);
        transact(sk, msg, parse_link, &list, "show", NULL);
    }
    nl_socket_free(sk);

    /* The ioctls after the dump, not in the middle of it. */
    counters = calloc(list.n ? list.n : 1, sizeof *counters);
    if (!counters) {
        runtime_error(ENOMEM, "show");
    }
    for (i = 0; show_stats && i < list.n; i++) {
        int error = eth_counters_get(list.links[i].name, &counters[i]);

        if (error) {
            runtime_error(error, "show %s: cannot read ethtool statistics",
                          list.links[i].name);
        }
    }

    if (json_output) {
        json_init(&j, stdout);
        json_array_start(&j, NULL);
        for (i = 0; i < list.n; i++) {
            json_link(&j, &list.links[i], &counters[i]);
        }
        json_array_end(&j);
    } else {
        for (i = 0; i < list.n; i++) {
            print_link_config(&list.links[i]);
            if (show_stats) {
                print_link_stats(&list.links[i], &counters[i]);
            }
        }
    }

    for (i = 0; i < list.n; i++) {
        eth_counters_free(&counters[i]);
    }
    free(counters);
    free(list.links);
    if (fflush(stdout) || ferror(stdout)) {
        runtime_error(errno, "show: cannot write the output");
    }
    return EXIT_OK;
}

/* ---- main -------------------------------------------------------------- */

static const struct command {
    const char *name;
    int (*run)(int argc, char *argv[]);
} commands[] = {
    { "add", cmd_add },
    { "set", cmd_set },
    { "del", cmd_del },
    { "delete", cmd_del },
    { "show", cmd_show },
};

int
main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        { "statistics", no_argument, NULL, 's' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    size_t i;
    int c;

    /* '+': the words after the command are not options, even "-1". */
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+sjhV", long_options, NULL)) != -1) {
        switch (c) {
        case 's':
            show_stats = true;
            break;
        case 'j':
            json_output = true;
            break;
        case 'h':
            usage();
        case 'V':
            printf("%s (%s) %s\n", PROGRAM_NAME, PACKAGE_NAME,
                   STT_FULL_VERSION);
            return EXIT_OK;
        default:
            usage_error("unknown option '%s' %s", argv[optind - 1],
                        TRY_HELP);
        }
    }
    argc -= optind;
    argv += optind;

    if (argc < 1) {
        usage_error("missing command %s", TRY_HELP);
    }
    if (!strcmp(argv[0], "help")) {
        usage();
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (!strcmp(argv[0], commands[i].name)) {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    usage_error("unknown command '%s' %s", argv[0], TRY_HELP);
}
