// SPDX-License-Identifier: GPL-2.0
/*
 * A partial checksum or an MSS in the STT header makes the receiver trust
 * an offset into the inner frame.  It does so only when the inner headers
 * are what the header's flags claim: the L3 header right after the
 * Ethernet header and at most one 802.1Q/802.1ad tag, of the flagged
 * version, its L4 protocol the flagged one, starting exactly at the L4
 * offset.  Anything else (IPv6 extension headers, stacked tags) would let
 * a remote sender point the checksum or segmentation code at arbitrary
 * bytes; the transmit path finishes such packets in software instead.
 */
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "inner.h"
#include "stt_wire.h"

/* @skb's data is at the inner Ethernet header. */
bool stt_inner_layout_ok(struct sk_buff *skb, u8 flags, u8 l4_offset)
{
	u8 l4_proto = flags & STT_FLAG_TCP ? IPPROTO_TCP : IPPROTO_UDP;
	unsigned int l4_len = flags & STT_FLAG_TCP ? sizeof(struct tcphdr) :
				sizeof(struct udphdr);
	unsigned int nh = ETH_HLEN;
	__be16 proto;

	if (!pskb_may_pull(skb, l4_offset + l4_len))
		return false;
	proto = eth_hdr(skb)->h_proto;
	if (eth_type_vlan(proto)) {
		nh += VLAN_HLEN;
		proto = ((struct vlan_hdr *)(skb->data + ETH_HLEN))->
			h_vlan_encapsulated_proto;
	}

	if (flags & STT_FLAG_IPV4) {
		const struct iphdr *iph = (const struct iphdr *)(skb->data + nh);

		return proto == htons(ETH_P_IP) && iph->version == 4 &&
		       iph->ihl >= 5 && nh + iph->ihl * 4 == l4_offset &&
		       iph->protocol == l4_proto;
	} else {
		const struct ipv6hdr *ip6h =
			(const struct ipv6hdr *)(skb->data + nh);

		return proto == htons(ETH_P_IPV6) && ip6h->version == 6 &&
		       nh + sizeof(*ip6h) == l4_offset &&
		       ip6h->nexthdr == l4_proto;
	}
}
