/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What link_stt.so uses of the "ip" program that loads it, declared here
 * because iproute2 installs no headers: ip/ip_common.h (struct link_util,
 * struct iplink_req), include/json_print.h and include/color.h
 * (print_color_*(), open_json_object()), include/libnetlink.h
 * (addattr_l()), include/utils.h (invarg(), duparg()).  Written from
 * iproute2 v6.1.0, Debian 12's iproute2 6.1.0-3.
 *
 * Every declaration is the same, to the byte and the type, in every
 * iproute2 from STT_IPROUTE2_FIRST up to any release of STT_IPROUTE2_LAST:
 * tests/iproute2/check-source compiles them beside each version's own
 * headers (Debian's source packages; upstream's tags v6.1.0 to v7.1.0 were
 * read the same way), and tests/iproute2/check-debian runs the plugin in
 * each Debian suite's ip.  link_stt.so asks the ip that loads it for its
 * version (iproute2-version.c) and refuses any other; the Debian package
 * depends on this range.  A new iproute2 release is added by running
 * check-source on its sources and moving STT_IPROUTE2_LAST.
 */
#ifndef STT_IPROUTE2_ABI_H
#define STT_IPROUTE2_ABI_H 1

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stdio.h>

/* configure and debian/rules read the range from these two lines. */
#define STT_IPROUTE2_FIRST "6.1.0"
#define STT_IPROUTE2_LAST "7.3"

/* ip/ip_common.h.  ip finds "<kind>_link_util" in IP_LIB_DIR/link_<kind>.so
 * and links it into its list through 'next'. */
struct link_util {
    struct link_util *next;
    const char *id;
    int maxattr;
    int (*parse_opt)(struct link_util *, int argc, char **argv,
                     struct nlmsghdr *);
    void (*print_opt)(struct link_util *, FILE *, struct rtattr *tb[]);
    void (*print_xstats)(struct link_util *, FILE *, struct rtattr *);
    void (*print_help)(struct link_util *, int argc, char **argv, FILE *);
    int (*parse_ifla_xstats)(struct link_util *, int argc, char **argv);
    int (*print_ifla_xstats)(struct nlmsghdr *, void *);
};

/* The room parse_opt() has in the request: ip/ip_common.h's struct
 * iplink_req ends in char buf[1024], and ip's own link types pass 1024
 * as addattr*()'s maxlen, which counts from the start of the message. */
#define IPROUTE2_REQ_MAXLEN 1024

/* include/json_print.h: where print_color_*() print. */
enum output_type {
    PRINT_FP = 1,
    PRINT_JSON = 2,
    PRINT_ANY = 4,
};

/* include/color.h: the last member, "no colour". */
enum color_attr {
    COLOR_IFNAME,
    COLOR_MAC,
    COLOR_INET,
    COLOR_INET6,
    COLOR_OPERSTATE_UP,
    COLOR_OPERSTATE_DOWN,
    COLOR_NONE
};

/* include/json_print.h.  print_string() and friends are static inline
 * wrappers there: these are the functions ip exports. */
bool is_json_context(void);
void open_json_object(const char *key);
void close_json_object(void);
int print_color_string(enum output_type, enum color_attr, const char *key,
                       const char *fmt, const char *value);
int print_color_uint(enum output_type, enum color_attr, const char *key,
                     const char *fmt, unsigned int value);
int print_color_bool(enum output_type, enum color_attr, const char *key,
                     const char *fmt, bool value);

/* include/libnetlink.h: 0 or, when the attribute does not fit, -1 after
 * saying so on stderr. */
int addattr_l(struct nlmsghdr *, int maxlen, int type, const void *data,
              int alen);

/* include/utils.h: print "Error: ..." and exit. */
void invarg(const char *msg, const char *arg) __attribute__((noreturn));
void duparg(const char *key, const char *arg) __attribute__((noreturn));

#endif /* iproute2-abi.h */
