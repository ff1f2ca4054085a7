/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words that configure an stt device, one row each in stt_words[]: how
 * "stt-ctl add" and "ip link add ... type stt" parse a word, which
 * IFLA_STT_* attribute (inside IFLA_INFO_DATA) carries it, and how "stt-ctl
 * show" and "ip -d link show" print it back, so that both programs say the
 * same words and "stt-ctl -j show" and "ip -j -d link show" give the same
 * info_data, key by key.
 *
 * Neither libnl nor iproute2 is used here: each program passes its own
 * function to put an attribute into a request (stt_put_fn) and its own
 * printing functions (struct stt_printer).
 */
#ifndef STT_LINK_H
#define STT_LINK_H 1

#include <linux/netlink.h>
#include <linux/stt.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An stt device's configuration, each value as its attribute carries it
 * (network byte order where the attribute has it).  has[] says which
 * attributes are present: what the kernel reported, or what the command
 * line gave. */
struct stt_link_info {
    bool has[IFLA_STT_MAX + 1];
    union stt_addr {
        struct in_addr in;          /* IFLA_STT_REMOTE, IFLA_STT_LOCAL. */
        struct in6_addr in6;        /* IFLA_STT_REMOTE6, IFLA_STT_LOCAL6. */
    } remote, local;
    uint64_t id;
    uint16_t dstport;               /* Network byte order. */
    struct ifla_stt_port_range srcport;
    uint8_t ttl;
    uint8_t tos;                    /* 1 means inherit. */
    uint8_t df;                     /* enum ifla_stt_df. */
};

/* The device modes a word applies to (the kernel refuses it in the
 * other). */
enum stt_mode {
    STT_FIXED_PEER = 1 << 0,
    STT_EXTERNAL = 1 << 1,
};

/* Where a field goes, as iproute2's PRINT_FP, PRINT_JSON and PRINT_ANY. */
enum stt_print_to {
    STT_PRINT_TEXT = 1,
    STT_PRINT_JSON = 2,
    STT_PRINT_ANY = 3,
};

/* Output functions with the meaning of iproute2's print_string(),
 * print_uint() and print_bool(): 'fmt' formats the value in text (each
 * field ends in a space, as in "ip -d link"), 'key' names it in JSON; a
 * call prints only in the output it is for.  object_start() and
 * object_end() print nothing in text. */
struct stt_printer {
    void *aux;
    void (*string)(void *aux, enum stt_print_to, const char *key,
                   const char *fmt, const char *value);
    void (*uint)(void *aux, enum stt_print_to, const char *key,
                 const char *fmt, unsigned int value);
    void (*boolean)(void *aux, enum stt_print_to, const char *key,
                    const char *fmt, bool value);
    void (*object_start)(void *aux, const char *key);
    void (*object_end)(void *aux);
};

/* One of the attributes that can carry a word's value. */
struct stt_attr {
    int type;                   /* IFLA_STT_*; 0 ends attrs[]. */
    size_t size;                /* Of the payload; 0 for a flag. */
    const char *key;            /* In JSON. */
};

/* A word of "stt-ctl add" and "ip link add ... type stt". */
struct stt_word {
    const char *name;
    int n_values;
    const char *value_names;    /* In stt-ctl --help: "MIN MAX". */
    const char *help;           /* What it sets, in stt-ctl --help. */
    const char *expected;       /* What the values must look like. */
    bool changeable;            /* Accepted by "stt-ctl set". */
    enum stt_mode modes;

    /* The value is put into a request with exactly one of attrs[] (which
     * one, the parsed value decides), from 'offset' in struct
     * stt_link_info. */
    struct stt_attr attrs[2];
    size_t offset;

    /* Parses 'values' into 'info' and marks the attribute to send in
     * info->has[].  On failure, sets '*bad' to the index of the value at
     * fault and returns what is wrong with it ('expected', or narrower). */
    const char *(*parse)(const struct stt_word *, char *values[],
                         struct stt_link_info *info, int *bad);

    /* Prints the value, if 'info' has one of attrs[]. */
    void (*print)(const struct stt_word *, const struct stt_link_info *,
                  const struct stt_printer *);
};

extern const struct stt_word stt_words[];
extern const size_t stt_n_words;

const struct stt_word *stt_word_find(const char *name);

/* Fills 'info' from the attributes of IFLA_INFO_DATA, indexed by type
 * (NULL where absent).  Returns false if one is too short to hold its
 * value. */
bool stt_link_info_parse(struct stt_link_info *info,
                         const struct nlattr *const tb[IFLA_STT_MAX + 1]);

/* Puts attribute 'type' with 'size' bytes of 'data' into a request.
 * Returns 0 or a negative value. */
typedef int stt_put_fn(void *aux, int type, const void *data, size_t size);

/* Whether 'info' has one of the attributes of 'w'. */
bool stt_word_present(const struct stt_word *w,
                      const struct stt_link_info *info);

/* Puts the attribute of 'w' that 'info' has, if any. */
int stt_word_put(const struct stt_word *w, const struct stt_link_info *info,
                 stt_put_fn *, void *aux);

/* The words of 'info', in text or in JSON, as "ip -d link" prints them. */
void stt_link_info_print(const struct stt_link_info *,
                         const struct stt_printer *);

#endif /* stt-link.h */
