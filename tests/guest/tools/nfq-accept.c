/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfq-accept: a consumer of one NFQUEUE queue that gives every packet back
 * to the kernel unchanged, with verdict ACCEPT, and counts what it saw.
 *
 *     nfq-accept [-q QUEUE] [-p PORT] [-g]
 *
 * Prints "nfq-accept: queue QUEUE bound" once packets can be queued to it,
 * and on SIGTERM or SIGINT one line of counts:
 *
 *     packets N port N other N gso N enobufs N
 *
 * packets: verdicts given; port: of those, TCP over IPv4 or IPv6 to PORT
 * (default 7471, STT); other: the rest; gso: packets the kernel handed over as one GSO
 * packet (only with -g); enobufs: times the kernel could not deliver a
 * packet to us (it dropped that packet).
 *
 * Without -g the kernel segments a GSO packet (a GRO aggregate, say) before
 * queueing it and reinjects each segment on its own verdict; -g
 * (NFQA_CFG_F_GSO) has it queue the GSO packet whole.  Either way what the
 * kernel reinjects continues at the next hook, here the STT receive hook.
 *
 * A test tool for the guest rig (tests/guest/scenarios/nic-underlay.sh),
 * built by "make", not installed.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/netfilter.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libnetfilter_queue/libnetfilter_queue.h>

#define PROGRAM_NAME "nfq-accept"

/* Enough for the largest IPv4 header and the TCP ports: the verdict does not
 * carry a payload, so the kernel keeps the packet as it was. */
#define COPY_RANGE 128

/* Room for the packets queued while this process waits for the CPU in a
 * slow emulated guest; beyond it the kernel drops (queue_dropped in
 * /proc/net/netfilter/nfnetlink_queue). */
#define QUEUE_MAXLEN 8192
#define RCVBUF_SIZE (16 * 1024 * 1024)

struct counts {
    uint64_t packets;
    uint64_t port;
    uint64_t other;
    uint64_t gso;
    uint64_t enobufs;
};

static volatile sig_atomic_t stop;
static uint16_t match_port = 7471;

static void fatal(const char *what) __attribute__((noreturn));
static void usage(FILE *stream, int status) __attribute__((noreturn));

static void
fatal(const char *what)
{
    fprintf(stderr, "%s: %s: %s\n", PROGRAM_NAME, what, strerror(errno));
    exit(1);
}

static void
usage(FILE *stream, int status)
{
    fprintf(stream,
            "usage: %s [-q QUEUE] [-p PORT] [-g]\n"
            "Accepts every packet of NFQUEUE queue QUEUE (default 0) and, on\n"
            "SIGTERM or SIGINT, prints how many it saw, how many of them were\n"
            "IPv4 TCP to PORT (default 7471).  -g: let the kernel queue GSO\n"
            "packets whole (NFQA_CFG_F_GSO) rather than segmenting them.\n",
            PROGRAM_NAME);
    exit(status);
}

static unsigned long
parse_number(const char *arg, unsigned long max, const char *what)
{
    unsigned long value;
    char *end;

    errno = 0;
    value = strtoul(arg, &end, 0);
    if (errno || end == arg || *end || value > max) {
        fprintf(stderr, "%s: %s must be a number up to %lu, not '%s'\n",
                PROGRAM_NAME, what, max, arg);
        exit(2);
    }
    return value;
}

static void
on_signal(int signo)
{
    (void) signo;
    stop = 1;
}

/* The length of the IP header before a TCP header in 'data', or -1 if no
 * TCP header follows it: an IPv4 header with its options (not a later
 * fragment, which has none), or an IPv6 header with no extension header
 * (STT sends none). */
static int
tcp_offset(const unsigned char *data, int len)
{
    const struct ip6_hdr *ip6 = (const struct ip6_hdr *) data;
    const struct iphdr *ip = (const struct iphdr *) data;

    if (len >= (int) sizeof *ip && ip->version == 4) {
        return (ip->protocol == IPPROTO_TCP
                && !(ntohs(ip->frag_off) & IP_OFFMASK)) ? ip->ihl * 4 : -1;
    }
    if (len >= (int) sizeof *ip6 && ip->version == 6) {
        return ip6->ip6_nxt == IPPROTO_TCP ? (int) sizeof *ip6 : -1;
    }
    return -1;
}

/* TCP to match_port? */
static bool
to_port(const unsigned char *data, int len)
{
    const struct tcphdr *tcp;
    int off = tcp_offset(data, len);

    if (off < 0 || len < off + (int) sizeof *tcp) {
        return false;
    }
    tcp = (const struct tcphdr *) (data + off);
    return ntohs(tcp->dest) == match_port;
}

static int
on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg,
          struct nfq_data *nfa, void *counts_)
{
    struct counts *counts = counts_;
    struct nfqnl_msg_packet_hdr *ph;
    unsigned char *data;
    int len;

    (void) msg;
    ph = nfq_get_msg_packet_hdr(nfa);
    if (!ph) {
        return 0;
    }
    len = nfq_get_payload(nfa, &data);
    if (len >= 0 && to_port(data, len)) {
        counts->port++;
    } else {
        counts->other++;
    }
    if (nfq_get_skbinfo(nfa) & NFQA_SKB_GSO) {
        counts->gso++;
    }
    counts->packets++;
    return nfq_set_verdict(qh, ntohl(ph->packet_id), NF_ACCEPT, 0, NULL);
}

int
main(int argc, char *argv[])
{
    struct counts counts = { 0 };
    struct nfq_q_handle *qh;
    struct nfq_handle *h;
    struct sigaction sa;
    uint16_t queue = 0;
    bool gso = false;
    /* A netlink message holds the packet's first COPY_RANGE bytes and its
     * attributes; a page of room is plenty. */
    char buf[COPY_RANGE + 4096] __attribute__((aligned));
    int opt, fd;

    while ((opt = getopt(argc, argv, "q:p:gh")) != -1) {
        switch (opt) {
        case 'q':
            queue = parse_number(optarg, UINT16_MAX, "QUEUE");
            break;
        case 'p':
            match_port = parse_number(optarg, UINT16_MAX, "PORT");
            break;
        case 'g':
            gso = true;
            break;
        case 'h':
            usage(stdout, 0);
        default:
            usage(stderr, 2);
        }
    }
    if (optind != argc) {
        usage(stderr, 2);
    }

    /* No SA_RESTART: the signal must end the blocking recv(). */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL)) {
        fatal("sigaction");
    }

    h = nfq_open();
    if (!h) {
        fatal("nfq_open");
    }
    qh = nfq_create_queue(h, queue, on_packet, &counts);
    if (!qh) {
        fatal("binding the queue (is another consumer bound to it?)");
    }
    if (nfq_set_mode(qh, NFQNL_COPY_PACKET, COPY_RANGE) < 0) {
        fatal("nfq_set_mode");
    }
    if (nfq_set_queue_maxlen(qh, QUEUE_MAXLEN) < 0) {
        fatal("nfq_set_queue_maxlen");
    }
    if (gso && nfq_set_queue_flags(qh, NFQA_CFG_F_GSO, NFQA_CFG_F_GSO) < 0) {
        fatal("nfq_set_queue_flags(NFQA_CFG_F_GSO)");
    }
    /* Where a burst of queued packets waits for us: its overflow is a
     * packet the kernel drops (ENOBUFS below), which TCP would then have to
     * retransmit. */
    nfnl_rcvbufsiz(nfq_nfnlh(h), RCVBUF_SIZE);
    fd = nfq_fd(h);

    printf("%s: queue %u bound\n", PROGRAM_NAME, (unsigned int) queue);
    fflush(stdout);

    while (!stop) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);

        if (n < 0) {
            if (errno == EINTR) {
                continue;
            } else if (errno == ENOBUFS) {
                counts.enobufs++;
                continue;
            }
            fatal("recv");
        }
        nfq_handle_packet(h, buf, n);
    }

    printf("packets %" PRIu64 " port %" PRIu64 " other %" PRIu64
           " gso %" PRIu64 " enobufs %" PRIu64 "\n", counts.packets,
           counts.port, counts.other, counts.gso, counts.enobufs);
    fflush(stdout);
    nfq_destroy_queue(qh);
    nfq_close(h);
    return 0;
}
