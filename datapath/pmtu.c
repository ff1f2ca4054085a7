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
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <net/icmp.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>

#include "pmtu.h"
#include "port.h"
#include "stats.h"

unsigned int stt_icmp_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	const struct icmphdr *icmph;
	const struct iphdr *inner;
	const struct tcphdr *th;
	unsigned int quote;		/* skb->data to the quoted IP header */

	if (ip_hdr(skb)->protocol != IPPROTO_ICMP ||
	    ip_is_fragment(ip_hdr(skb)))
		return NF_ACCEPT;
	quote = skb_network_offset(skb) + ip_hdrlen(skb) + sizeof(*icmph);
	if (!pskb_may_pull(skb, quote + sizeof(*inner)))
		return NF_ACCEPT;
	icmph = (const struct icmphdr *)(skb->data + quote - sizeof(*icmph));
	if (icmph->type != ICMP_DEST_UNREACH ||
	    icmph->code != ICMP_FRAG_NEEDED)
		return NF_ACCEPT;
	inner = (const struct iphdr *)(skb->data + quote);
	/* RFC 792 quotes the IP header and 8 bytes: our ports. */
	if (inner->protocol != IPPROTO_TCP || inner->ihl < 5 ||
	    !pskb_may_pull(skb, quote + inner->ihl * 4 +
				offsetofend(struct tcphdr, dest)))
		return NF_ACCEPT;
	icmph = (const struct icmphdr *)(skb->data + quote - sizeof(*icmph));
	inner = (const struct iphdr *)(skb->data + quote);
	th = (const struct tcphdr *)(skb->data + quote + inner->ihl * 4);
	if (th->dest != port->dst_port)
		return NF_ACCEPT;

	/* ipv4_update_pmtu() reads the quoted header at skb->data.  Bottom
	 * halves off for the counter: nf_reinject() may run this hook.
	 */
	__skb_pull(skb, quote);
	local_bh_disable();
	ipv4_update_pmtu(skb, state->net, ntohs(icmph->un.frag.mtu), 0,
			 IPPROTO_TCP);
	stt_count(port->counters, STT_PMTU_UPDATES);
	local_bh_enable();
	__skb_push(skb, quote);
	return NF_ACCEPT;
}

/* stt_icmp_hook()'s sibling, recording as ip6_update_pmtu() does. */
unsigned int stt_icmp6_hook(void *priv, struct sk_buff *skb,
			    const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	const struct icmp6hdr *icmp6h;
	const struct ipv6hdr *inner;
	const struct tcphdr *th;
	unsigned int quote;		/* skb->data to the quoted IPv6 header */
	__be16 frag_off;
	u8 nexthdr;
	int icmpoff;

	nexthdr = ipv6_hdr(skb)->nexthdr;
	icmpoff = ipv6_skip_exthdr(skb, skb_network_offset(skb) +
					sizeof(struct ipv6hdr),
				   &nexthdr, &frag_off);
	if (icmpoff < 0 || nexthdr != IPPROTO_ICMPV6 || frag_off)
		return NF_ACCEPT;
	quote = icmpoff + sizeof(*icmp6h);
	/* RFC 4443 quotes as much as fits: our ports at least. */
	if (!pskb_may_pull(skb, quote + sizeof(*inner) +
				offsetofend(struct tcphdr, dest)))
		return NF_ACCEPT;
	icmp6h = (const struct icmp6hdr *)(skb->data + icmpoff);
	if (icmp6h->icmp6_type != ICMPV6_PKT_TOOBIG)
		return NF_ACCEPT;
	inner = (const struct ipv6hdr *)(skb->data + quote);
	/* Our segments carry no extension headers. */
	th = (const struct tcphdr *)(inner + 1);
	if (inner->nexthdr != IPPROTO_TCP || th->dest != port->dst_port)
		return NF_ACCEPT;

	/* ip6_update_pmtu() reads the quoted header at skb->data. */
	__skb_pull(skb, quote);
	local_bh_disable();
	ip6_update_pmtu(skb, state->net, icmp6h->icmp6_mtu, 0, 0,
			sock_net_uid(state->net, NULL));
	stt_count(port->counters, STT_PMTU_UPDATES);
	local_bh_enable();
	__skb_push(skb, quote);
	return NF_ACCEPT;
}
