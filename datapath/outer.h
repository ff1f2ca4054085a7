/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outer IP header of a received segment or frame, until decapsulation:
 * IPv4 or IPv6 as skb->protocol says (the underlay's), at the network
 * header.  What the family-neutral receive path reads of it, one small
 * helper each, so that recv.c and frame.c hold no per-family branches.
 */
#ifndef _STT_OUTER_H
#define _STT_OUTER_H

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>

static inline bool stt_outer_is_ipv6(const struct sk_buff *skb)
{
	return skb->protocol == htons(ETH_P_IPV6);
}

/* The sender's address, an IPv4 one IPv4-mapped as peers are keyed. */
static inline void stt_outer_saddr(const struct sk_buff *skb,
				   struct in6_addr *saddr)
{
	if (stt_outer_is_ipv6(skb))
		*saddr = ipv6_hdr(skb)->saddr;
	else
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, saddr);
}

/* The receiver's address, as stt_outer_saddr(). */
static inline void stt_outer_daddr(const struct sk_buff *skb,
				   struct in6_addr *daddr)
{
	if (stt_outer_is_ipv6(skb))
		*daddr = ipv6_hdr(skb)->daddr;
	else
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, daddr);
}

/*
 * An IPv6 source no IPv6 peer can send from: unspecified, or one that holds
 * an IPv4 address (IPv4-mapped or -compatible), with which a segment would
 * pass for one from an IPv4 peer (peers are keyed IPv4-mapped) without
 * IPv4's reverse-path filter ever seeing it.  IPv6 input has already dropped
 * loopback and multicast sources.
 */
static inline bool stt_outer_saddr_invalid(const struct sk_buff *skb)
{
	int type;

	if (!stt_outer_is_ipv6(skb))
		return false;
	type = ipv6_addr_type(&ipv6_hdr(skb)->saddr);
	return type == IPV6_ADDR_ANY ||
	       type & (IPV6_ADDR_MAPPED | IPV6_ADDR_COMPATv4);
}

/* The TOS byte or traffic class: DSCP and ECN. */
static inline u8 stt_outer_dsfield(const struct sk_buff *skb)
{
	if (stt_outer_is_ipv6(skb))
		return ipv6_get_dsfield(ipv6_hdr(skb));
	return ip_hdr(skb)->tos;
}

static inline void stt_outer_set_ce(struct sk_buff *skb)
{
	if (stt_outer_is_ipv6(skb))
		IP6_ECN_set_ce(skb, ipv6_hdr(skb));
	else
		IP_ECN_set_ce(ip_hdr(skb));
}

#endif /* _STT_OUTER_H */
