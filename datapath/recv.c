// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: take STT segments from the IPv4 input path (port.c says where
 * and why), validate them, reassemble frames, decapsulate, restore the
 * inner packet's offload state and hand it to the device with a metadata
 * dst describing the tunnel it came through.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/dst_metadata.h>
#include <net/ip.h>
#include <net/route.h>

#include "compat.h"
#include "device.h"
#include "recv.h"
#include "port.h"
#include "stats.h"
#include "stt_hdr.h"
#include "stt_reasm.h"
#include "stt_wire.h"

/*
 * Checks that the inner headers are what the STT header claims before a
 * checksum offset or a GSO type is trusted: the L3 header right after the
 * Ethernet header, of the flagged version, its L4 protocol the flagged one
 * and starting exactly at the L4 offset.  Anything else would let a remote
 * sender point the checksum or segmentation code at arbitrary bytes.
 */
static bool inner_matches(struct sk_buff *skb, const struct stt_hdr_fields *f)
{
	u8 l4_proto = f->flags & STT_FLAG_TCP ? IPPROTO_TCP : IPPROTO_UDP;
	unsigned int l4_len = f->flags & STT_FLAG_TCP ? sizeof(struct tcphdr) :
				sizeof(struct udphdr);
	unsigned int nh = ETH_HLEN;
	__be16 proto;

	if (!pskb_may_pull(skb, f->l4_offset + l4_len))
		return false;
	proto = eth_hdr(skb)->h_proto;
	if (eth_type_vlan(proto)) {
		nh += VLAN_HLEN;
		proto = ((struct vlan_hdr *)(skb->data + ETH_HLEN))->
			h_vlan_encapsulated_proto;
	}

	if (f->flags & STT_FLAG_IPV4) {
		const struct iphdr *iph = (const struct iphdr *)(skb->data + nh);

		return proto == htons(ETH_P_IP) && iph->version == 4 &&
		       nh + iph->ihl * 4 == f->l4_offset &&
		       iph->protocol == l4_proto;
	} else {
		const struct ipv6hdr *ip6h =
			(const struct ipv6hdr *)(skb->data + nh);

		return proto == htons(ETH_P_IPV6) && ip6h->version == 6 &&
		       nh + sizeof(*ip6h) == f->l4_offset &&
		       ip6h->nexthdr == l4_proto;
	}
}

/* Restores what the sender's stack knew about the inner packet. */
static bool restore_offload(struct sk_buff *skb,
			    const struct stt_hdr_fields *f)
{
	u16 csum_offset = stt_hdr_csum_offset(f);

	skb->csum_valid = 0;
	skb->ip_summed = CHECKSUM_NONE;
	if (f->flags & STT_FLAG_CSUM_VERIFIED)
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	if (!(f->flags & STT_FLAG_CSUM_PARTIAL))
		return true;

	if (!inner_matches(skb, f) ||
	    !skb_partial_csum_set(skb, f->l4_offset, csum_offset))
		return false;

	if (f->mss) {
		unsigned int hdr_len = f->l4_offset;

		if (f->flags & STT_FLAG_TCP) {
			hdr_len += tcp_hdrlen(skb);
			skb_shinfo(skb)->gso_type = f->flags & STT_FLAG_IPV4 ?
						    SKB_GSO_TCPV4 :
						    SKB_GSO_TCPV6;
		} else {
			hdr_len += sizeof(struct udphdr);
			skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
		}
		if (skb->len <= hdr_len + f->mss)
			return true;
		skb_shinfo(skb)->gso_size = f->mss;
		skb_shinfo(skb)->gso_segs = DIV_ROUND_UP(skb->len - hdr_len,
							 f->mss);
		/* skb_segment() cannot trust a frag_list built from segments
		 * cut at the sender's path MTU rather than at this MSS; DODGY
		 * makes it fall back to copying for those.
		 */
		if (skb_has_frag_list(skb))
			skb_shinfo(skb)->gso_type |= SKB_GSO_DODGY;
	}
	return true;
}

/* @skb holds one whole frame, data at the STT header, outer IP header at
 * its network header.
 */
static void rcv_frame(struct stt_port *port, struct sk_buff *skb,
		      const struct tcphdr *th_copy)
{
	struct stt_counters __percpu *counters = port->counters;
	struct metadata_dst *tun_dst;
	struct stt_hdr_fields f;
	struct stt_dev *stt;
	enum stt_counter err;
	enum stt_err hdr_err;
	unsigned int len;

	if (!pskb_may_pull(skb, min_t(unsigned int, skb->len,
				      STT_HDR_LEN + ETH_HLEN))) {
		err = STT_RX_ERR_PORT_NOMEM;
		goto drop;
	}
	hdr_err = stt_hdr_parse(skb->data, skb_headlen(skb), skb->len, &f);
	if (hdr_err != STT_OK) {
		stt_count_err(counters, hdr_err);
		goto free;
	}

	stt = stt_port_lookup(port, ip_hdr(skb)->saddr, f.context_id);
	if (!stt) {
		err = STT_RX_ERR_NO_DEVICE;
		goto drop;
	}
	counters = stt->counters;
	if (!(stt->dev->flags & IFF_UP)) {
		err = STT_RX_DROP_DEV_DOWN;
		goto drop;
	}

	skb_scrub_packet(skb, !net_eq(port->net, dev_net(stt->dev)));
	if (stt->cfg.collect_md) {
		tun_dst = stt_tun_rx_dst(skb, cpu_to_be64(f.context_id));
		if (!tun_dst) {
			err = STT_RX_ERR_NOMEM;
			goto drop;
		}
		tun_dst->u.tun_info.key.tp_src = th_copy->source;
		tun_dst->u.tun_info.key.tp_dst = th_copy->dest;
		skb_dst_set(skb, &tun_dst->dst);
	}

	__skb_pull(skb, STT_HDR_LEN);
	skb_reset_mac_header(skb);

	if (f.vlan_present)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), f.vlan_tci);
	if (!restore_offload(skb, &f)) {
		err = STT_RX_ERR_INNER;
		goto drop;
	}

	skb->protocol = eth_type_trans(skb, stt->dev);
	skb_reset_network_header(skb);
	len = skb->len + ETH_HLEN;
	stt_count(counters, STT_RX_FRAMES);
	if (likely(gro_cells_receive(&stt->gro_cells, skb) == NET_RX_SUCCESS))
		dev_sw_netstats_rx_add(stt->dev, len);
	else
		DEV_STATS_INC(stt->dev, rx_dropped);
	return;

drop:
	stt_count(counters, err);
free:
	kfree_skb(skb);
}

/* TCP header fields that make a segment STT rather than something else. */
static enum stt_counter check_tcp(const struct tcphdr *th)
{
	/* Flags first: a SYN with options is a connection attempt, not a
	 * malformed STT segment.
	 */
	if (!th->ack || th->syn || th->rst || th->fin || th->urg)
		return STT_RX_ERR_TCP_FLAGS;
	if (th->doff != STT_TCP_DOFF)
		return STT_RX_ERR_TCP_DOFF;
	return STT_COUNTER_MAX;
}

static void rcv_segment(struct stt_port *port, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct stt_reasm_key key = { };
	enum stt_counter err;
	enum stt_err seg_err;
	struct tcphdr th;
	u16 frame_len, offset;

	stt_count(port->counters, STT_RX_SEGMENTS);

	if (skb->len < skb_transport_offset(skb) + sizeof(th)) {
		err = STT_RX_ERR_TCP_TRUNCATED;
		goto drop;
	}
	/* Headers and shared info are rewritten below: own them. */
	if (skb_unclone(skb, GFP_ATOMIC) ||
	    !pskb_may_pull(skb, skb_transport_offset(skb) + sizeof(th))) {
		err = STT_RX_ERR_PORT_NOMEM;
		goto drop;
	}
	iph = ip_hdr(skb);
	__skb_pull(skb, skb_transport_offset(skb));

	if (skb_checksum_validate(skb, IPPROTO_TCP, inet_compute_pseudo)) {
		err = STT_RX_ERR_BAD_CSUM;
		goto drop;
	}
	th = *tcp_hdr(skb);
	err = check_tcp(&th);
	if (err != STT_COUNTER_MAX)
		goto drop;

	__skb_pull(skb, sizeof(th));
	seg_err = stt_seg_check(ntohl(th.seq), skb->len, &frame_len, &offset);
	if (seg_err != STT_OK) {
		stt_count_err(port->counters, seg_err);
		kfree_skb(skb);
		return;
	}
	/* The outer segmentation is undone; only the inner one may remain. */
	skb_gso_reset(skb);

	if (offset || skb->len != frame_len) {
		ipv6_addr_set_v4mapped(iph->saddr, &key.saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &key.daddr);
		key.sport = th.source;
		key.frame_id = th.ack_seq;
		skb = stt_reasm_table_add(&port->reasm, skb, &key, frame_len,
					  offset);
		if (!skb)
			return;
	}
	rcv_frame(port, skb, &th);
	return;

drop:
	stt_count(port->counters, err);
	kfree_skb(skb);
}

unsigned int stt_rcv_hook(void *priv, struct sk_buff *skb,
			  const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	const struct iphdr *iph = ip_hdr(skb);
	const struct tcphdr *th;
	unsigned int thoff;

	if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
		return NF_ACCEPT;
	thoff = iph->ihl * 4;
	/* Without the ports it cannot be ours: TCP will drop it.  With them,
	 * a truncated header to our port is ours to count.
	 */
	if (!pskb_may_pull(skb, thoff + offsetofend(struct tcphdr, dest)))
		return NF_ACCEPT;
	iph = ip_hdr(skb);
	th = (const struct tcphdr *)(skb->data + thoff);
	if (th->dest != port->dst_port ||
	    inet_addr_type_dev_table(state->net, skb->dev, iph->daddr) !=
	    RTN_LOCAL)
		return NF_ACCEPT;

	skb_set_transport_header(skb, thoff);
	rcv_segment(port, skb);
	return NF_STOLEN;
}
