/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration of an stt device as rtnetlink reports it (IFLA_STT_*
 * inside IFLA_INFO_DATA), read and printed the same way by stt-ctl and by
 * the iproute2 plugin link_stt.so, so that "stt-ctl show" and "ip -d link
 * show" say the same words and "stt-ctl -j show" and "ip -j -d link show"
 * give the same info_data, key by key.
 *
 * Neither libnl nor iproute2 is used here: each program passes its own
 * printing functions (struct stt_printer).
 */
#ifndef STT_LINK_H
#define STT_LINK_H 1

#include <linux/netlink.h>
#include <linux/stt.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

struct stt_addr {
    int family;                 /* AF_INET or AF_INET6; 0 if absent. */
    union {
        struct in_addr in;
        struct in6_addr in6;
    };
};

struct stt_link_info {
    bool has[IFLA_STT_MAX + 1];
    uint64_t id;
    struct stt_addr remote;
    struct stt_addr local;
    uint16_t dstport;
    uint16_t srcport_low;
    uint16_t srcport_high;
    uint8_t ttl;
    uint8_t tos;                /* 1 means inherit. */
    uint8_t df;                 /* enum ifla_stt_df. */
};

/* Fills 'info' from the attributes of IFLA_INFO_DATA, indexed by type
 * (NULL where absent).  Returns false if one is too short to hold its
 * value. */
bool stt_link_info_parse(struct stt_link_info *info,
                         const struct nlattr *const tb[IFLA_STT_MAX + 1]);

/* Where a field goes, as iproute2's PRINT_FP, PRINT_JSON and PRINT_ANY. */
enum stt_print_to {
    STT_PRINT_TEXT = 1,
    STT_PRINT_JSON = 2,
    STT_PRINT_ANY = 3,
};

/* Output functions with the meaning of iproute2's print_string() and
 * print_uint(): 'fmt' formats the value in text (each field ends in a
 * space, as in "ip -d link"), 'key' names it in JSON. */
struct stt_printer {
    bool json;
    void *aux;
    void (*string)(void *aux, enum stt_print_to, const char *key,
                   const char *fmt, const char *value);
    void (*uint)(void *aux, enum stt_print_to, const char *key,
                 const char *fmt, unsigned int value);
    void (*flag)(void *aux, const char *key, const char *fmt);
    void (*object_start)(void *aux, const char *key);
    void (*object_end)(void *aux);
};

void stt_link_info_print(const struct stt_link_info *,
                         const struct stt_printer *);

/* Parsing the words of "stt-ctl add" and "ip link add ... type stt". */
bool stt_parse_uint(const char *, uint64_t max, uint64_t *value);
bool stt_parse_ttl(const char *, bool *inherit, uint8_t *ttl);
bool stt_parse_tos(const char *, uint8_t *tos);
bool stt_parse_df(const char *, uint8_t *df);
bool stt_parse_addr(const char *, struct stt_addr *);

#endif /* stt-link.h */
