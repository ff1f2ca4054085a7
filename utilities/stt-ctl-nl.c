/* SPDX-License-Identifier: GPL-2.0 */
#include "stt-ctl-nl.h"

#include <errno.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/handlers.h>
#include <netlink/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* A kernel that has not answered by then is not going to. */
#define ANSWER_TIMEOUT_SEC 30

int
ctl_nle_to_errno(int nle)
{
    switch (nle < 0 ? -nle : nle) {
    case NLE_SUCCESS:
        return 0;
    case NLE_INTR:
        return EINTR;
    case NLE_BAD_SOCK:
        return EBADF;
    case NLE_AGAIN:
        return EAGAIN;
    case NLE_NOMEM:
        return ENOMEM;
    case NLE_EXIST:
        return EEXIST;
    case NLE_INVAL:
        return EINVAL;
    case NLE_RANGE:
        return ERANGE;
    case NLE_MSGSIZE:
        return EMSGSIZE;
    case NLE_OPNOTSUPP:
        return EOPNOTSUPP;
    case NLE_AF_NOSUPPORT:
        return EAFNOSUPPORT;
    case NLE_OBJ_NOTFOUND:
        return ENOENT;
    case NLE_NOADDR:
        return EADDRNOTAVAIL;
    case NLE_BUSY:
        return EBUSY;
    case NLE_PROTO_MISMATCH:
        return EPROTONOSUPPORT;
    case NLE_NOACCESS:
        return EACCES;
    case NLE_PERM:
        return EPERM;
    case NLE_NODEV:
        return ENODEV;
    case NLE_MSG_OVERFLOW:
        return ENOBUFS;
    case NLE_DUMP_INTR:
        return EINTR;
    case NLE_SEQ_MISMATCH:
    case NLE_MSG_TRUNC:
    case NLE_MSG_TOOSHORT:
    case NLE_PARSE_ERR:
    case NLE_ATTRSIZE:
        return EPROTO;
    default:
        return EIO;
    }
}

int
ctl_nl_open(struct nl_sock **skp)
{
    struct timeval timeout = { .tv_sec = ANSWER_TIMEOUT_SEC };
    struct nl_sock *sk;
    int one = 1;
    int fd, nle;

    *skp = NULL;
    sk = nl_socket_alloc();
    if (!sk) {
        return ENOMEM;
    }
    nle = nl_connect(sk, NETLINK_ROUTE);
    if (nle < 0) {
        nl_socket_free(sk);
        return ctl_nle_to_errno(nle);
    }

    /* Replies larger than a page (a dump with statistics) need the peek. */
    nl_socket_enable_msg_peek(sk);

    /* libnl 3.7 has no wrapper for these: ask for the kernel's error
     * messages, without the request echoed back in them, and for strict
     * checking of our own requests.  Kernels without them still work. */
    fd = nl_socket_get_fd(sk);
    setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof one);
    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof one);
    setsockopt(fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);

    *skp = sk;
    return 0;
}

struct transaction {
    ctl_reply_cb *reply_cb;
    void *aux;
    struct ctl_answer *answer;
    int reply_error;            /* First error from 'reply_cb'. */
    unsigned int n_received;    /* Messages seen by the last nl_recvmsgs(). */
    bool done;
};

/* Reads the extended ACK TLVs that start at 'tlvs' and end with 'nlh'. */
static void
parse_ext_ack(const struct nlmsghdr *nlh, const void *tlvs,
              struct ctl_answer *answer)
{
    struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
    const char *end = (const char *) nlh + nlh->nlmsg_len;
    int len = end - (const char *) tlvs;

    if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || len <= 0
        || nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *) tlvs, len,
                     NULL) < 0) {
        return;
    }
    if (tb[NLMSGERR_ATTR_MSG]) {
        size_t n = nla_len(tb[NLMSGERR_ATTR_MSG]);

        if (n >= sizeof answer->message) {
            n = sizeof answer->message - 1;
        }
        memcpy(answer->message, nla_data(tb[NLMSGERR_ATTR_MSG]), n);
        answer->message[n] = '\0';
    }
    if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4) {
        answer->has_offset = true;
        answer->offset = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
    }
}

/* The TLVs of an NLMSG_ERROR message follow the nlmsgerr and, unless the
 * kernel capped it, the whole request. */
static void
parse_error_msg(const struct nlmsghdr *nlh, struct ctl_answer *answer)
{
    const struct nlmsgerr *e = nlmsg_data(nlh);
    size_t skip = sizeof *e;

    if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
        skip += e->msg.nlmsg_len - sizeof e->msg;
    }
    if (skip <= nlh->nlmsg_len - NLMSG_HDRLEN) {
        parse_ext_ack(nlh, (const char *) e + skip, answer);
    }
}

static int
msg_in_handler(struct nl_msg *msg, void *tx_)
{
    struct transaction *tx = tx_;

    (void) msg;
    tx->n_received++;
    return NL_OK;
}

static int
valid_handler(struct nl_msg *msg, void *tx_)
{
    struct transaction *tx = tx_;

    if (tx->reply_cb && !tx->reply_error) {
        tx->reply_error = tx->reply_cb(msg, tx->aux);
    }
    return NL_OK;
}

/* The ACK of a request: maybe with a warning message. */
static int
ack_handler(struct nl_msg *msg, void *tx_)
{
    struct transaction *tx = tx_;

    parse_error_msg(nlmsg_hdr(msg), tx->answer);
    tx->done = true;
    return NL_STOP;
}

/* The end of a dump: its payload is the dump's error code. */
static int
finish_handler(struct nl_msg *msg, void *tx_)
{
    struct transaction *tx = tx_;
    const struct nlmsghdr *nlh = nlmsg_hdr(msg);

    if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
        int error = *(const int *) nlmsg_data(nlh);

        if (error < 0) {
            tx->answer->error = -error;
            parse_ext_ack(nlh, (const char *) nlmsg_data(nlh) + sizeof(int),
                          tx->answer);
        }
    }
    tx->done = true;
    return NL_STOP;
}

static int
error_handler(struct sockaddr_nl *nla, struct nlmsgerr *e, void *tx_)
{
    /* libnl hands over the payload only; its header precedes it. */
    const struct nlmsghdr *nlh = (const struct nlmsghdr *)
                                 ((const char *) e - NLMSG_HDRLEN);
    struct transaction *tx = tx_;

    (void) nla;
    tx->answer->error = e->error < 0 ? -e->error : e->error;
    parse_error_msg(nlh, tx->answer);
    tx->done = true;
    return NL_STOP;
}

int
ctl_nl_transact(struct nl_sock *sk, struct nl_msg *request,
                ctl_reply_cb *reply_cb, void *aux, struct ctl_answer *answer)
{
    struct transaction tx = {
        .reply_cb = reply_cb,
        .aux = aux,
        .answer = answer,
    };
    struct nl_cb *cb;
    int nle;

    memset(answer, 0, sizeof *answer);
    cb = nl_cb_alloc(NL_CB_DEFAULT);
    if (!cb) {
        return ENOMEM;
    }
    nl_cb_set(cb, NL_CB_MSG_IN, NL_CB_CUSTOM, msg_in_handler, &tx);
    nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_handler, &tx);
    nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_handler, &tx);
    nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_handler, &tx);
    nl_cb_err(cb, NL_CB_CUSTOM, error_handler, &tx);

    nle = nl_send_auto(sk, request);
    while (nle >= 0 && !tx.done) {
        tx.n_received = 0;
        nle = nl_recvmsgs(sk, cb);
        if (nle >= 0 && !tx.n_received && !tx.done) {
            /* nl_recvmsgs() returns 0 on a receive timeout too. */
            nl_cb_put(cb);
            return ETIMEDOUT;
        }
    }
    nl_cb_put(cb);

    if (tx.done) {
        /* Our error handler stops libnl with an NLE_* code: the kernel's
         * own errno is in the answer. */
        return answer->error ? answer->error : tx.reply_error;
    }
    return ctl_nle_to_errno(nle);
}

static int
nsid_reply(struct nl_msg *msg, void *nsid_)
{
    struct nlattr *tb[NETNSA_MAX + 1];
    int32_t *nsid = nsid_;
    const struct nlmsghdr *nlh = nlmsg_hdr(msg);

    if (nlh->nlmsg_type != RTM_NEWNSID
        || nlmsg_parse((struct nlmsghdr *) nlh, sizeof(struct rtgenmsg), tb,
                       NETNSA_MAX, NULL) < 0
        || !tb[NETNSA_NSID] || nla_len(tb[NETNSA_NSID]) < 4) {
        return EPROTO;
    }
    *nsid = nla_get_s32(tb[NETNSA_NSID]);
    return 0;
}

/* RTM_GETNSID or RTM_NEWNSID for the namespace at 'netns_fd'; libnl has no
 * wrapper for either. */
static int
nsid_request(struct nl_sock *sk, int type, int netns_fd, int32_t *nsid,
             struct ctl_answer *answer)
{
    struct rtgenmsg g = { .rtgen_family = AF_UNSPEC };
    struct nl_msg *msg;
    int error;

    msg = nlmsg_alloc_simple(type, 0);
    if (!msg) {
        return ENOMEM;
    }
    if (nlmsg_append(msg, &g, sizeof g, NLMSG_ALIGNTO) < 0
        || nla_put_u32(msg, NETNSA_FD, netns_fd) < 0
        || (type == RTM_NEWNSID
            && nla_put_s32(msg, NETNSA_NSID, *nsid) < 0)) {
        nlmsg_free(msg);
        return EMSGSIZE;
    }
    error = ctl_nl_transact(sk, msg, type == RTM_GETNSID ? nsid_reply : NULL,
                            nsid, answer);
    nlmsg_free(msg);
    return error;
}

int
ctl_netns_nsid(struct nl_sock *sk, int netns_fd, int32_t *nsid,
               struct ctl_answer *answer)
{
    int32_t id = NETNSA_NSID_NOT_ASSIGNED;
    int error;

    error = nsid_request(sk, RTM_GETNSID, netns_fd, nsid, answer);
    if (error || *nsid >= 0) {
        return error;
    }

    /* NETNSA_NSID -1: the kernel picks a free id.  Someone else may have
     * assigned one in the meantime, which is just as good. */
    error = nsid_request(sk, RTM_NEWNSID, netns_fd, &id, answer);
    if (error && error != EEXIST) {
        return error;
    }
    error = nsid_request(sk, RTM_GETNSID, netns_fd, nsid, answer);
    if (!error && *nsid < 0) {
        error = ENOENT;
    }
    return error;
}
