// SPDX-License-Identifier: GPL-2.0
/*
 * Path MTU discovery for the segments we send.  A router that cannot
 * forward a segment with DF set (Open vSwitch's default) answers with an
 * ICMP "fragmentation needed"; TCP would take it through its socket, but
 * STT has none, so the error would be dropped and every frame larger than
 * the path black-holed.  This hook reads such errors on their way to
 * local delivery, records the path MTU for the remote as IP tunnels do
 * (ipv4_update_pmtu()), and lets them go on; transmit cuts the next frames
 * to the smaller MTU its route then has.  Over IPv6 every router answers
 * a segment larger than its next link so (ICMPv6 Packet Too Big): there is
 * no DF to leave clear, and the same hook for IPv6 takes those.
 *
 * Anyone can send an ICMP error, and the path MTU it teaches holds for all
 * of the host's traffic to the destination it quotes.  TCP believes one
 * only about a connection it has, within its window (RFC 5927); STT has
 * neither, so the hooks believe only an error that could be about a
 * segment this host sent: its checksum holds, and it quotes a TCP header
 * as transmit writes them, from one of the host's addresses and a source
 * port of the sending device's range, to the port's destination port at a
 * remote that one of the port's devices sends to.  Any other error goes on
 * untouched, for ICMP input to judge as ever.
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/tcp.h>
#include <net/addrconf.h>
#include <net/icmp.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/tcp.h>

#include "device.h"
#include "pmtu.h"
#include "port.h"
#include "stats.h"
#include "stt_wire.h"

/*
 * A destination of the external device counts as one for this long after
 * its last segment: far longer than an ICMP error takes to come back.
 * Its slot is written again at most once a refresh, so that CPUs sending
 * to it do not take turns at writing the same cache line.
 */
#define DST_MAX_AGE (30 * HZ)
#define DST_REFRESH HZ

void stt_pmtu_dsts_init(struct stt_pmtu_dsts *dsts)
{
	get_random_bytes(&dsts->key, sizeof(dsts->key));
}

static unsigned long dst_tag(const struct stt_pmtu_dsts *dsts,
			     const struct in6_addr *daddr)
{
	return siphash(daddr, sizeof(*daddr), &dsts->key) | 1;	/* not empty */
}

static struct stt_pmtu_dst *dst_set(struct stt_pmtu_dsts *dsts,
				    unsigned long tag)
{
	return dsts->slot[(tag >> 1) % STT_PMTU_DST_SETS];
}

/*
 * The external device's transmit, on any CPU: it sends a frame to @daddr
 * (IPv4-mapped for IPv4).
 */
void stt_pmtu_dst_sent(struct stt_pmtu_dsts *dsts,
		       const struct in6_addr *daddr)
{
	unsigned long tag = dst_tag(dsts, daddr), now = jiffies;
	struct stt_pmtu_dst *set = dst_set(dsts, tag), *oldest = set;
	int i;

	for (i = 0; i < STT_PMTU_DST_WAYS; i++) {
		if (READ_ONCE(set[i].tag) == tag) {
			if (time_after(now, READ_ONCE(set[i].stamp) +
					    DST_REFRESH))
				WRITE_ONCE(set[i].stamp, now);
			return;
		}
		if (time_before(READ_ONCE(set[i].stamp),
				READ_ONCE(oldest->stamp)))
			oldest = &set[i];
	}
	WRITE_ONCE(oldest->stamp, now);
	WRITE_ONCE(oldest->tag, tag);
}

static bool dst_sent_lately(struct stt_pmtu_dsts *dsts,
			    const struct in6_addr *daddr)
{
	unsigned long tag = dst_tag(dsts, daddr);
	struct stt_pmtu_dst *set = dst_set(dsts, tag);
	int i;

	/* Two CPUs may have written the same destination to two ways. */
	for (i = 0; i < STT_PMTU_DST_WAYS; i++)
		if (READ_ONCE(set[i].tag) == tag &&
		    time_before(jiffies, READ_ONCE(set[i].stamp) + DST_MAX_AGE))
			return true;
	return false;
}

static bool sport_in_range(const struct stt_dev *stt, __be16 sport)
{
	int low, high;

	stt_sport_range(stt, &low, &high);
	return ntohs(sport) >= low && ntohs(sport) <= high;
}

/*
 * Under RCU: whether a device of @port sends segments from @sport to
 * @daddr (IPv4-mapped for IPv4): a fixed-peer device whose remote it is,
 * or the external device if it sent there lately.  A fixed-peer device's
 * configuration holds still while the device is hashed
 * (stt_dev_reconfigure()), the external device's for its life.
 */
static bool port_sends_to(struct stt_port *port, const struct in6_addr *daddr,
			  __be16 sport)
{
	struct stt_port_member *member;

	hash_for_each_possible_rcu(port->remotes, member, remote_node,
				   ipv6_addr_hash(daddr))
		if (ipv6_addr_equal(&member->remote, daddr) &&
		    sport_in_range(stt_dev_from_member(member), sport))
			return true;
	member = rcu_dereference(port->collect_md);
	return member && sport_in_range(stt_dev_from_member(member), sport) &&
	       dst_sent_lately(&port->sent_to, daddr);
}

/*
 * Whether @th, quoted by an ICMP error about a segment sent to @daddr, is
 * a TCP header that @port's devices could have written (push_tcp_header();
 * segmentation clears PSH on all but a frame's last segment).
 */
static bool quote_is_ours(struct stt_port *port, const struct in6_addr *daddr,
			  const struct tcphdr *th)
{
	return th->dest == port->dst_port && th->doff == STT_TCP_DOFF &&
	       (tcp_flag_byte(th) & ~TCPHDR_PSH) == TCPHDR_ACK &&
	       port_sends_to(port, daddr, th->source);
}

/*
 * The checksums are summed here in software and the skb's checksum state
 * left alone: ICMP input checks again as it always does, errors are rare,
 * and only those that quote a segment of ours get this far.
 */
static bool icmp_csum_ok(struct sk_buff *skb, unsigned int icmp)
{
	return !csum_fold(skb_checksum(skb, icmp, skb->len - icmp, 0));
}

/* icmp_csum_ok()'s sibling: ICMPv6 sums the IPv6 pseudo-header too. */
static bool icmp6_csum_ok(struct sk_buff *skb, unsigned int icmp)
{
	unsigned int len = skb->len - icmp;

	return !csum_ipv6_magic(&ipv6_hdr(skb)->saddr, &ipv6_hdr(skb)->daddr,
				len, IPPROTO_ICMPV6,
				skb_checksum(skb, icmp, len, 0));
}

/*
 * The offset from skb->data of the IPv4 header that the ICMP
 * "fragmentation needed" in @skb quotes, pulled with a whole TCP header
 * after it; 0 if @skb is no such error about a TCP segment.
 */
static unsigned int frag_needed_quote(struct sk_buff *skb)
{
	const struct icmphdr *icmph;
	const struct iphdr *inner;
	unsigned int quote;

	if (ip_hdr(skb)->protocol != IPPROTO_ICMP ||
	    ip_is_fragment(ip_hdr(skb)))
		return 0;
	/* icmp_rcv() discards errors sent to broadcast or multicast. */
	if (skb_rtable(skb)->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST))
		return 0;
	quote = skb_network_offset(skb) + ip_hdrlen(skb) + sizeof(*icmph);
	if (!pskb_may_pull(skb, quote))
		return 0;
	icmph = (const struct icmphdr *)(skb->data + quote - sizeof(*icmph));
	if (icmph->type != ICMP_DEST_UNREACH ||
	    icmph->code != ICMP_FRAG_NEEDED)
		return 0;
	/* Routers quote as much as fits in 576 bytes (RFC 1812): the 8 bytes
	 * of TCP header that RFC 792 asks for do not show the flags.  Our
	 * segments carry no IP options.
	 */
	if (!pskb_may_pull(skb, quote + sizeof(*inner) + sizeof(struct tcphdr)))
		return 0;
	inner = (const struct iphdr *)(skb->data + quote);
	if (inner->version != 4 || inner->ihl != 5 ||
	    inner->protocol != IPPROTO_TCP)
		return 0;
	return quote;
}

unsigned int stt_icmp_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	const struct iphdr *inner;
	struct in6_addr daddr;
	unsigned int quote;		/* skb->data to the quoted IP header */
	unsigned int icmp;
	u16 mtu;

	quote = frag_needed_quote(skb);
	if (!quote)
		return NF_ACCEPT;
	icmp = quote - sizeof(struct icmphdr);
	inner = (const struct iphdr *)(skb->data + quote);
	ipv6_addr_set_v4mapped(inner->daddr, &daddr);
	/* A local source as an output route lookup tells one (__ip_dev_find());
	 * the checksum last, as the dearest test.
	 */
	if (!quote_is_ours(port, &daddr, (const struct tcphdr *)(inner + 1)) ||
	    !__ip_dev_find(state->net, inner->saddr, false) ||
	    !icmp_csum_ok(skb, icmp))
		return NF_ACCEPT;

	/* ipv4_update_pmtu() reads the quoted header at skb->data.  Bottom
	 * halves off for the counter: nf_reinject() may run this hook.
	 */
	mtu = ntohs(((const struct icmphdr *)(skb->data + icmp))->un.frag.mtu);
	__skb_pull(skb, quote);
	local_bh_disable();
	ipv4_update_pmtu(skb, state->net, mtu, 0, IPPROTO_TCP);
	stt_count(port->counters, STT_PMTU_UPDATES);
	local_bh_enable();
	__skb_push(skb, quote);
	return NF_ACCEPT;
}

/*
 * frag_needed_quote()'s sibling for an ICMPv6 "packet too big", which
 * quotes as much as fits in 1280 bytes (RFC 4443); *@icmp is set to the
 * offset of the ICMPv6 header.
 */
static unsigned int pkt_too_big_quote(struct sk_buff *skb, unsigned int *icmp)
{
	const struct icmp6hdr *icmp6h;
	const struct ipv6hdr *inner;
	unsigned int quote;
	__be16 frag_off;
	u8 nexthdr;
	int off;

	nexthdr = ipv6_hdr(skb)->nexthdr;
	off = ipv6_skip_exthdr(skb, skb_network_offset(skb) +
				    sizeof(struct ipv6hdr),
			       &nexthdr, &frag_off);
	if (off < 0 || nexthdr != IPPROTO_ICMPV6 || frag_off)
		return 0;
	quote = off + sizeof(*icmp6h);
	/* Our segments carry no extension headers. */
	if (!pskb_may_pull(skb, quote + sizeof(*inner) + sizeof(struct tcphdr)))
		return 0;
	icmp6h = (const struct icmp6hdr *)(skb->data + off);
	inner = (const struct ipv6hdr *)(skb->data + quote);
	if (icmp6h->icmp6_type != ICMPV6_PKT_TOOBIG || inner->version != 6 ||
	    inner->nexthdr != IPPROTO_TCP)
		return 0;
	*icmp = off;
	return quote;
}

/* stt_icmp_hook()'s sibling, recording as ip6_update_pmtu() does. */
unsigned int stt_icmp6_hook(void *priv, struct sk_buff *skb,
			    const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	const struct ipv6hdr *inner;
	unsigned int quote;		/* skb->data to the quoted IPv6 header */
	unsigned int icmp;
	__be32 mtu;

	quote = pkt_too_big_quote(skb, &icmp);
	if (!quote)
		return NF_ACCEPT;
	inner = (const struct ipv6hdr *)(skb->data + quote);
	/* Ports key an IPv4 remote IPv4-mapped: an IPv6 segment of ours never
	 * goes to such an address.
	 */
	if (ipv6_addr_v4mapped(&inner->daddr) ||
	    !quote_is_ours(port, &inner->daddr,
			   (const struct tcphdr *)(inner + 1)) ||
	    !ipv6_chk_addr(state->net, &inner->saddr, NULL, 0) ||
	    !icmp6_csum_ok(skb, icmp))
		return NF_ACCEPT;

	/* ip6_update_pmtu() reads the quoted header at skb->data. */
	mtu = ((const struct icmp6hdr *)(skb->data + icmp))->icmp6_mtu;
	__skb_pull(skb, quote);
	local_bh_disable();
	ip6_update_pmtu(skb, state->net, mtu, 0, 0,
			sock_net_uid(state->net, NULL));
	stt_count(port->counters, STT_PMTU_UPDATES);
	local_bh_enable();
	__skb_push(skb, quote);
	return NF_ACCEPT;
}
