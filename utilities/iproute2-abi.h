/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What link_stt.so uses of the "ip" program that loads it, declared here
 * because iproute2 installs no headers.  Written from iproute2 v6.1.0
 * (tag v6.1.0, commit 83699d3d5077bbb3957030938f746601317767d2), Debian
 * 12's iproute2 6.1.0-3: ip/ip_common.h (struct link_util), include/
 * json_print.h and include/color.h (print_color_*(), open_json_object()),
 * include/libnetlink.h (addattr*()), include/utils.h (invarg(),
 * duparg()).
 *
 * Nothing checks these declarations against the ip that loads the plugin:
 * configure builds the plugin only for an ip that says it is this version
 * ("ip -V"), the package depends on exactly this upstream version, and
 * tests compare "ip -V" with the version written into the plugin
 * (STT_IPROUTE2_VERSION_NOTE) and run it.  Another iproute2 version needs
 * this file read again against its sources.
 */
#ifndef STT_IPROUTE2_ABI_H
#define STT_IPROUTE2_ABI_H 1

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stdio.h>

/* configure reads the version from this line. */
#define STT_IPROUTE2_VERSION "6.1.0"

/* In link_stt.so, so that "strings" shows what it was built for. */
#define STT_IPROUTE2_VERSION_NOTE "stt-iproute2-version=" STT_IPROUTE2_VERSION

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
