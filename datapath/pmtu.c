// SPDX-License-Identifier: GPL-2.0
/*
 * Path MTU discovery for the segments we send.  A router that cannot
 * forward a segment with DF set (Open vSwitch's default) answers with an
 * ICMP "fragmentation needed"; TCP would take it through its socket, but
 * STT has none, so the error would be dropped and every frame larger than
 * the path black-holed.  This hook reads such errors on their way to
 * local delivery, records the path MTU for the remote as IP tunnels do
 * (ipv4_update_pmtu()), and lets them go on; transmit cuts the next frames
 * to the smaller MTU its route then has.
 */
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <net/icmp.h>
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
