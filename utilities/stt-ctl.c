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
#include <sched.h>
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

#define CONTAINER_OF(POINTER, STRUCT, MEMBER) \
    ((STRUCT *) (void *) ((char *) (POINTER) - offsetof(STRUCT, MEMBER)))

/* Where ip-netns(8) binds network namespaces by name. */
static const char *const netns_dirs[] = { "/run/netns", "/var/run/netns" };

static bool json_output;
static bool show_stats;
static const char *netns;      /* -n: the network namespace to work in. */

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

/* ---- Parsing the words of add and set ---------------------------------- */

/* What the words of add and set gave. */
struct stt_options {
    struct stt_link_info info;  /* The IFLA_STT_* attributes. */
    const char *link_netns;
};

#define NETNS_EXPECTED "expected a network namespace name, as in 'ip netns list'"

/* Whether 'name' can name a file in /run/netns, as "ip netns add" takes
 * it. */
static bool
is_netns_name(const char *name)
{
    return name[0] && !strchr(name, '/') && strcmp(name, ".")
           && strcmp(name, "..");
}

/* Opens network namespace 'name' as ip-netns(8) binds it, or exits naming
 * 'what' and the file. */
static int
open_netns(const char *what, const char *name)
{
    char path[PATH_MAX];
    int error = ENOENT;
    int fd = -1;
    size_t i;

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
        runtime_error(error, "%s: cannot open %s", what, path);
    }
    return fd;
}

/* A name for a file in /run/netns. */
static const char *
parse_link_netns(const struct stt_word *w, char *values[],
                 struct stt_link_info *info, int *bad)
{
    struct stt_options *o = CONTAINER_OF(info, struct stt_options, info);
    const char *name = values[0];

    if (!is_netns_name(name)) {
        *bad = 0;
        return w->expected;
    }
    o->link_netns = name;
    return NULL;
}

/* stt-ctl's words: those of stt-link.c, which are IFLA_STT_* attributes,
 * then its own, which are not. */
static const struct stt_word ctl_words[] = {
    { "link-netns", 1, "NS", "underlay network namespace (ip netns name)",
      NETNS_EXPECTED,
      false, STT_FIXED_PEER | STT_EXTERNAL, { { 0, 0, NULL } }, 0,
      parse_link_netns, NULL },
};
#define N_CTL_WORDS (sizeof ctl_words / sizeof ctl_words[0])

static size_t
n_words(void)
{
    return stt_n_words + N_CTL_WORDS;
}

static const struct stt_word *
nth_word(size_t i)
{
    return i < stt_n_words ? &stt_words[i] : &ctl_words[i - stt_n_words];
}

static size_t
find_word(const char *name)
{
    size_t i;

    for (i = 0; i < n_words() && strcmp(nth_word(i)->name, name); i++) {
        continue;
    }
    return i;
}

/* The words "set" takes: "remote, local, ...". */
static const char *
changeable_words(void)
{
    static char list[128];
    size_t i;

    for (i = 0; i < n_words(); i++) {
        if (nth_word(i)->changeable) {
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     list[0] ? ", " : "", nth_word(i)->name);
        }
    }
    return list;
}

static void
usage(void)
{
    size_t i;

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
Words:\n", PROGRAM_NAME);
    for (i = 0; i < n_words(); i++) {
        const struct stt_word *w = nth_word(i);
        char syntax[64];

        snprintf(syntax, sizeof syntax, "%s%s%s", w->name,
                 w->value_names ? " " : "",
                 w->value_names ? w->value_names : "");
        printf("  %-22s %c %s\n", syntax, w->changeable ? '*' : ' ', w->help);
    }
    printf("\
\n\
Options (before the command):\n\
  -n, --netns NS           work in network namespace NS (ip netns name)\n\
  -s, --statistics         show: link statistics and every counter\n\
  -j, --json               show: in JSON\n\
  -h, --help               print this help and exit\n\
  -V, --version            print the version and exit\n\
\n\
Exit status: 0 done, 1 refused by the kernel or failed, 2 usage error\n\
(nothing sent).  See stt-ctl(8).\n");
    exit(EXIT_OK);
}

/* An option found after the command, and how it is used: where it means
 * something with every command, before this one; where only with show or
 * with none, as it is used. */
struct option_use {
    const char *option;
    bool any_command;           /* Else "COMMAND" is show, if any. */
    const char *args;           /* What follows the command, if anything. */
};

static const struct option_use *
find_option(const char *word)
{
    static const struct option_use options[] = {
        { "-n", true, " NS" }, { "--netns", true, " NS" },
        { "-s", false, "show" }, { "--statistics", false, "show" },
        { "-j", false, "show" }, { "--json", false, "show" },
        { "-h", false, "" }, { "--help", false, "" },
        { "-V", false, "" }, { "--version", false, "" },
    };
    size_t i;

    for (i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (!strcmp(word, options[i].option)) {
            return &options[i];
        }
    }
    return NULL;
}

static bool
is_option(const char *word)
{
    return find_option(word) != NULL;
}

/* "options go before the command, as in 'stt-ctl -j show'": an example
 * that does what the option does ("stt-ctl -j add" would not). */
static void __attribute__((noreturn))
unknown_word(const char *command, const char *word)
{
    const struct option_use *o = find_option(word);

    if (o && o->any_command) {
        usage_error("options go before the command, as in '%s %s%s %s'",
                    PROGRAM_NAME, word, o->args, command);
    } else if (o) {
        usage_error("options go before the command, as in '%s %s%s%s'",
                    PROGRAM_NAME, word, o->args[0] ? " " : "", o->args);
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
    bool *given = calloc(n_words(), sizeof *given);
    int i = 0;

    if (!given) {
        runtime_error(ENOMEM, "%s", command);
    }
    memset(o, 0, sizeof *o);
    while (i < argc) {
        size_t index = find_word(argv[i]);
        const struct stt_word *w;
        const char *why;
        int bad, j;

        if (index == n_words()) {
            unknown_word(command, argv[i]);
        }
        w = nth_word(index);
        if (is_set && !w->changeable) {
            usage_error("%s cannot be changed on an existing device: "
                        "delete the device and add it again", w->name);
        }
        if (given[index]) {
            usage_error("%s given twice", w->name);
        }
        if (argc - i - 1 < w->n_values) {
            usage_error("missing value for %s: %s", w->name, w->expected);
        }
        why = w->parse(w, &argv[i + 1], &o->info, &bad);
        if (why) {
            char value[64] = "";

            for (j = 0; j < w->n_values; j++) {
                snprintf(value + strlen(value), sizeof value - strlen(value),
                         "%s%s", j ? " " : "", argv[i + 1 + j]);
            }
            usage_error("bad value '%s' for %s: %s", value, w->name, why);
        }
        given[index] = true;
        i += 1 + w->n_values;
    }
    free(given);
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

/* Moves into network namespace -n's, before the first socket: rtnetlink
 * and the ethtool ioctl then both work there, and link-netns's id is
 * relative to it, as with "ip -n". */
static void
enter_netns(void)
{
    char what[64];
    int fd;

    snprintf(what, sizeof what, "-n %s", netns);
    fd = open_netns(what, netns);
    if (setns(fd, CLONE_NEWNET)) {
        runtime_error(errno, "%s: cannot enter the network namespace", what);
    }
    close(fd);
}

/* After the words are checked: a usage error enters no namespace. */
static struct nl_sock *
open_rtnl(void)
{
    struct nl_sock *sk;
    int error;

    if (netns) {
        enter_netns();
    }
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

static int
parse_stt_data(struct nlattr *data, struct link *l)
{
    struct nlattr *tb[IFLA_STT_MAX + 1];

    /* stt_link_info_parse() checks each attribute's size. */
    if (nla_parse_nested(tb, IFLA_STT_MAX, data, NULL) < 0
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

/* An stt_put_fn for a libnl request, that names each attribute's word. */
struct ctl_put {
    struct nl_msg *msg;
    struct attr_words *aw;
    const char *word;
};

static int
ctl_put(void *put_, int type, const void *data, size_t size)
{
    struct ctl_put *put = put_;

    note_word(put->aw, put->msg, put->word);
    return nla_put(put->msg, type, size, data);
}

/* IFLA_LINKINFO with kind "stt" and the IFLA_STT_* attributes of 'o'. */
static void
put_linkinfo(struct nl_msg *msg, const struct stt_options *o,
             struct attr_words *aw)
{
    struct ctl_put put = { .msg = msg, .aw = aw };
    struct nlattr *linkinfo, *data;
    size_t i;

    linkinfo = nla_nest_start(msg, IFLA_LINKINFO);
    if (!linkinfo) {
        put_or_die(-NLE_NOMEM);
    }
    put_or_die(nla_put_string(msg, IFLA_INFO_KIND, STT_LINK_KIND));

    data = nla_nest_start(msg, IFLA_INFO_DATA);
    if (!data) {
        put_or_die(-NLE_NOMEM);
    }
    for (i = 0; i < stt_n_words; i++) {
        put.word = stt_words[i].name;
        put_or_die(stt_word_put(&stt_words[i], &o->info, ctl_put, &put));
    }
    nla_nest_end(msg, data);
    nla_nest_end(msg, linkinfo);
}

/* The id of network namespace 'name' as seen from ours. */
static int32_t
link_netnsid(struct nl_sock *sk, const char *name)
{
    struct ctl_answer answer;
    char what[64];
    int32_t nsid;
    int error, fd;

    snprintf(what, sizeof what, "link-netns %s", name);
    fd = open_netns(what, name);
    error = ctl_netns_nsid(sk, fd, &nsid, &answer);
    close(fd);
    if (error) {
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
    if (o.link_netns) {
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
        usage_error("set needs something to change: one or more of %s",
                    changeable_words());
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

/* A device's line of show in text, built field by field. */
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

/* Where show prints, iproute2's way: JSON into 'j' if set, else text into
 * 'line'; each field says which of them it is for (enum stt_print_to). */
struct ctl_out {
    struct json *j;
    struct text_line *line;
};

/* Whether a field printed 'to' goes to 'out'. */
static bool
out_takes(const struct ctl_out *out, enum stt_print_to to)
{
    return to & (out->j ? STT_PRINT_JSON : STT_PRINT_TEXT);
}

static void
out_string(void *out_, enum stt_print_to to, const char *key,
           const char *fmt, const char *value)
{
    struct ctl_out *out = out_;

    if (!out_takes(out, to)) {
        return;
    } else if (out->j) {
        json_string(out->j, key, value);
    } else {
        text_append(out->line, fmt, value);
    }
}

static void
out_uint(void *out_, enum stt_print_to to, const char *key,
         const char *fmt, unsigned int value)
{
    struct ctl_out *out = out_;

    if (!out_takes(out, to)) {
        return;
    } else if (out->j) {
        json_uint(out->j, key, value);
    } else {
        text_append(out->line, fmt, value);
    }
}

static void
out_int(struct ctl_out *out, enum stt_print_to to, const char *key,
        const char *fmt, int value)
{
    if (!out_takes(out, to)) {
        return;
    } else if (out->j) {
        json_int(out->j, key, value);
    } else {
        text_append(out->line, fmt, value);
    }
}

static void
out_boolean(void *out_, enum stt_print_to to, const char *key,
            const char *fmt, bool value)
{
    struct ctl_out *out = out_;

    if (!out_takes(out, to)) {
        return;
    } else if (out->j) {
        json_bool(out->j, key, value);
    } else {
        text_append(out->line, fmt, value ? "true" : "false");
    }
}

static void
out_object_start(void *out_, const char *key)
{
    struct ctl_out *out = out_;

    if (out->j) {
        json_object_start(out->j, key);
    }
}

static void
out_object_end(void *out_)
{
    struct ctl_out *out = out_;

    if (out->j) {
        json_object_end(out->j);
    }
}

static void
print_link_info(const struct stt_link_info *info, struct ctl_out *out)
{
    const struct stt_printer printer = {
        .aux = out,
        .string = out_string,
        .uint = out_uint,
        .boolean = out_boolean,
        .object_start = out_object_start,
        .object_end = out_object_end,
    };

    stt_link_info_print(info, &printer);
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

/* The "stats64" and "counters" objects of -j -s. */
static void
json_link_stats(struct json *j, const struct link *l,
                const struct eth_counters *c)
{
    size_t i;

    if (l->has_stats) {
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
    json_object_start(j, "counters");
    for (i = 0; i < c->n; i++) {
        json_uint(j, c->names[i], c->values[i]);
    }
    json_object_end(j);
}

/* A device as "ip -d link show" prints it in text, "NAME: stt" and the
 * words "add" takes (a line can be pasted back into "stt-ctl add"), and
 * in the shape of "ip -j -d link show" in JSON; then with -s its
 * statistics and counters, in columns or objects. */
static void
print_link(struct ctl_out *out, const struct link *l,
           const struct eth_counters *c)
{
    out_object_start(out, NULL);
    out_int(out, STT_PRINT_JSON, "ifindex", NULL, l->ifindex);
    out_string(out, STT_PRINT_ANY, "ifname", "%s: ", l->name);
    if (l->has_link_netnsid) {
        out_int(out, STT_PRINT_JSON, "link_netnsid", NULL, l->link_netnsid);
    }
    out_object_start(out, "linkinfo");
    out_string(out, STT_PRINT_ANY, "info_kind", "%s ", l->kind);
    out_object_start(out, "info_data");
    print_link_info(&l->info, out);
    out_object_end(out);
    out_object_end(out);
    /* At the end of the line in text, as "ip -d link" has it. */
    if (l->has_link_netnsid) {
        out_int(out, STT_PRINT_TEXT, NULL, "link-netnsid %d ",
                l->link_netnsid);
    }
    if (!out->j) {
        out->line->buf[out->line->len - 1] = '\0';   /* The last space. */
        puts(out->line->buf);
    }
    if (show_stats && out->j) {
        json_link_stats(out->j, l, c);
    } else if (show_stats) {
        print_link_stats(l, c);
    }
    out_object_end(out);
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
    size_t i, n;

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
    for (i = n = 0; show_stats && i < list.n; i++) {
        int error = eth_counters_get(list.links[i].name, &counters[n]);

        /* A device deleted since the dump is left out, as if the dump had
         * come later: Open vSwitch re-creates stt_sys_7471 when it
         * restarts, and a collector polling "-s show" must not lose every
         * device's data then.  A device named on the command line was
         * asked for: its absence is an error. */
        if (!name && (error == ENODEV || error == ENXIO)) {
            continue;
        } else if (error) {
            runtime_error(error, "show %s: cannot read ethtool statistics",
                          list.links[i].name);
        }
        list.links[n++] = list.links[i];
    }
    if (show_stats) {
        list.n = n;
    }

    if (json_output) {
        json_init(&j, stdout);
        json_array_start(&j, NULL);
    }
    for (i = 0; i < list.n; i++) {
        struct text_line line = { .len = 0 };
        struct ctl_out out = { .j = json_output ? &j : NULL, .line = &line };

        print_link(&out, &list.links[i], &counters[i]);
    }
    if (json_output) {
        json_array_end(&j);
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
        { "netns", required_argument, NULL, 'n' },
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
    while ((c = getopt_long(argc, argv, "+:n:sjhV", long_options, NULL))
           != -1) {
        switch (c) {
        case 'n':
            if (!is_netns_name(optarg)) {
                usage_error("bad value '%s' for -n: %s", optarg,
                            NETNS_EXPECTED);
            }
            netns = optarg;
            break;
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
        case ':':
            usage_error("missing value for %s: %s", argv[optind - 1],
                        NETNS_EXPECTED);
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
