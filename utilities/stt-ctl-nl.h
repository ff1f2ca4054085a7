/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stt-ctl's rtnetlink transport over libnl-3: one request, its replies and
 * the kernel's answer, with the extended ACK (the kernel's error message and
 * the offset of the attribute it refused).
 *
 * Error convention: every function here returns 0 or a positive errno value.
 * The kernel's negative errno and libnl's negative NLE_* codes are converted
 * here, once, and nowhere else.
 */
#ifndef STT_CTL_NL_H
#define STT_CTL_NL_H 1

#include <stdbool.h>
#include <stdint.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>

/* What the kernel said about a request. */
struct ctl_answer {
    int error;              /* Positive errno, 0 if accepted. */
    char message[256];      /* Extack message (error or warning), or "". */
    bool has_offset;        /* Offset of the refused attribute... */
    uint32_t offset;        /* ...from the start of the request. */
};

/* Called for each reply message other than ACKs and errors.  Returns 0 or a
 * positive errno value (which ends the transaction once it is drained). */
typedef int ctl_reply_cb(struct nl_msg *, void *aux);

int ctl_nl_open(struct nl_sock **);
int ctl_nl_transact(struct nl_sock *, struct nl_msg *request,
                    ctl_reply_cb *, void *aux, struct ctl_answer *);
int ctl_nle_to_errno(int nle);

/* The id, as seen from our network namespace, of the namespace open at
 * 'netns_fd', assigning one if it has none (as "ip netns set NS auto"). */
int ctl_netns_nsid(struct nl_sock *, int netns_fd, int32_t *nsid,
                   struct ctl_answer *);

#endif /* stt-ctl-nl.h */
