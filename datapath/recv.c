// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: take STT segments from the IPv4 and IPv6 input paths (port.c
 * says where and why), one hook per family, then the same for both:
 * validate them, reassemble frames, decapsulate, restore the inner packet's
 * offload state and hand it to the device with a metadata dst describing
 * the tunnel it came through.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/netfilter_bridge.h>
#include <net/dst_metadata.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/route.h>
#include <net/xfrm.h>

#include "compat.h"
#include "device.h"
#include "frame.h"
#include "inner.h"
#include "outer.h"
#include "recv.h"
#include "port.h"
#include "stats.h"
#include "stt_hdr.h"
#include "stt_reasm.h"
#include "stt_wire.h"

/*
 * Restores what the sender's stack knew about the inner packet, as far as
 * @dev takes it: with receive checksum offload off (ethtool -K DEV rx off)
 * not the sender's word that the inner checksum was verified.  A partial
 * checksum stays partial either way: no one has computed it, as for a
 * packet this host's own stack sends, and the bytes it would cover came
 * under the outer checksum this host verified.
 *
 * The segmentation state is the sender's word too: SKB_GSO_DODGY, as tun
 * and virtio_net_hdr_to_skb() mark what they did not build, so that GRO
 * leaves these packets alone (Debian's 6.1 would otherwise chain one into
 * another in a layout skb_segment() BUG()s on) and segmentation checks the
 * headers and gso_segs again before a device cuts them.
 */
static bool restore_offload(struct sk_buff *skb, const struct net_device *dev,
			    const struct stt_hdr_fields *f)
{
	u16 csum_offset = stt_hdr_csum_offset(f);

	skb->csum_valid = 0;
	skb->ip_summed = CHECKSUM_NONE;
	if ((f->flags & STT_FLAG_CSUM_VERIFIED) && (dev->features & NETIF_F_RXCSUM))
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	if (!(f->flags & STT_FLAG_CSUM_PARTIAL))
		return true;

	if (!stt_inner_layout_ok(skb, f->flags, f->l4_offset) ||
	    !skb_partial_csum_set(skb, f->l4_offset, csum_offset))
		return false;

	/* lib/ refused an MSS below STT_MIN_MSS, which bounds gso_segs, and
	 * the skb's frag_list members, if it has any, hold no linear data
	 * and no more pieces per MSS than fit an skb (frame.c), so
	 * skb_segment() may cut it at this MSS wherever it goes.
	 */
	if (f->mss) {
		unsigned int hdr_len = f->l4_offset;
		unsigned int type = SKB_GSO_DODGY;

		if (f->flags & STT_FLAG_TCP) {
			/* All of the header linear, options too, as in any
			 * TCP packet a local sender hands a driver for TSO.
			 */
			if (!pskb_may_pull(skb, hdr_len + tcp_hdrlen(skb)))
				return false;
			hdr_len += tcp_hdrlen(skb);
			type |= f->flags & STT_FLAG_IPV4 ? SKB_GSO_TCPV4 :
							   SKB_GSO_TCPV6;
			/* CWR goes on the first segment only (RFC 3168), which
			 * a device without NETIF_F_TSO_ECN cannot do: as
			 * tcp_gro_complete() says of what GRO merged.
			 */
			if (tcp_hdr(skb)->cwr)
				type |= SKB_GSO_TCP_ECN;
		} else {
			hdr_len += sizeof(struct udphdr);
			type |= SKB_GSO_UDP_L4;
		}
		if (skb->len <= hdr_len + f->mss)
			return true;
		skb_shinfo(skb)->gso_type = type;
		skb_shinfo(skb)->gso_size = f->mss;
		skb_shinfo(skb)->gso_segs = DIV_ROUND_UP(skb->len - hdr_len,
							 f->mss);
	}
	return true;
}

/*
 * Up the stack through GRO, or through the backlog when @stt's device
 * takes no GRO (ethtool -K DEV gro off, an XDP program), as
 * gro_cells_receive() would itself, in the same queue, so frames keep
 * their order.  Not through gro_cells_receive() then: from 6.12 it
 * forgets the transport header, which GRO sets again and the backlog
 * sets to the network header, and restore_offload() set it for a frame
 * the sender left to segment: a bridge's __dev_queue_xmit() drops such
 * a frame as SKB_BAD_GSO without it (6.12.118), and a NIC's TSO reads
 * its headers' length from it.
 */
static int deliver(struct stt_dev *stt, struct sk_buff *skb)
{
	if (netif_elide_gro(stt->dev))
		return netif_rx(skb);
	return gro_cells_receive(&stt->gro_cells, skb);
}

/*
 * RFC 6040, as geneve and vxlan: CE outside becomes CE inside; a packet
 * that cannot carry it gets more than 1 (drop).  @skb's data is at the
 * inner L3 header.  A frame whose IP header sits behind a VLAN tag in the
 * frame (802.1ad, stacked tags) keeps its ECN field: skb_protocol() would
 * look for the tag where the MAC header was, not where it is now.
 */
static int ecn_decapsulate(u8 outer_tos, struct sk_buff *skb)
{
	u8 inner;

	switch (skb->protocol) {
	case htons(ETH_P_IP):
		if (!pskb_may_pull(skb, sizeof(struct iphdr)))
			return 0;
		inner = ip_hdr(skb)->tos;
		break;
	case htons(ETH_P_IPV6):
		if (!pskb_may_pull(skb, sizeof(struct ipv6hdr)))
			return 0;
		inner = ipv6_get_dsfield(ipv6_hdr(skb));
		break;
	default:
		return 0;
	}
	return INET_ECN_decapsulate(skb, outer_tos, inner);
}

/* @skb holds one whole frame, data at the STT header, outer IP header at
 * its network header.
 */
static void rcv_frame(struct stt_port *port, struct sk_buff *skb,
		      const struct tcphdr *th_copy)
{
	struct stt_counters __percpu *counters = port->counters;
	struct stt_port_member *member;
	struct metadata_dst *tun_dst;
	struct in6_addr saddr;
	struct stt_hdr_fields f;
	struct stt_dev *stt;
	enum stt_counter err;
	enum stt_err hdr_err;
	unsigned int len;
	u8 outer_tos;

	if (!pskb_may_pull(skb, min_t(unsigned int, skb->len,
				      STT_HDR_LEN + ETH_HLEN))) {
		err = STT_RX_ERR_PORT_NOMEM;
		goto drop;
	}
	hdr_err = stt_hdr_parse(skb->data, skb_headlen(skb), skb->len, &f);
	if (hdr_err != STT_OK) {
		err = stt_err_counter(hdr_err);
		goto drop;
	}

	stt_outer_saddr(skb, &saddr);
	member = stt_port_lookup(port, &saddr, f.context_id);
	if (!member) {
		err = STT_RX_ERR_NO_DEVICE;
		goto drop;
	}
	stt = stt_dev_from_member(member);
	counters = stt->counters;
	if (!(stt->dev->flags & IFF_UP)) {
		err = STT_RX_DROP_DEV_DOWN;
		goto drop;
	}

	skb_scrub_packet(skb, !net_eq(port->net, dev_net(stt->dev)));
	/* As __iptunnel_pull_header(): the underlay's receive queue says
	 * nothing of the queue the inner packet leaves by, if forwarded.
	 */
	skb_set_queue_mapping(skb, 0);
	if (stt->cfg.collect_md) {
		tun_dst = stt_tun_rx_dst(skb, stt_outer_is_ipv6(skb),
					 cpu_to_be64(f.context_id));
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

	/* A tag the underlay's driver or bridge left is not the frame's. */
	__vlan_hwaccel_clear_tag(skb);
	if (f.vlan_present)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), f.vlan_tci);
	if (!restore_offload(skb, stt->dev, &f)) {
		err = STT_RX_ERR_INNER;
		goto drop;
	}

	outer_tos = stt_outer_dsfield(skb);
	skb->protocol = eth_type_trans(skb, stt->dev);
	/* Our own frame came back: a loop in the overlay (or a peer that
	 * reflects), which delivering would only feed.
	 */
	if (unlikely(ether_addr_equal(eth_hdr(skb)->h_source,
				      stt->dev->dev_addr))) {
		err = STT_RX_ERR_LOOP;
		goto drop;
	}
	skb_reset_network_header(skb);
	if (ecn_decapsulate(outer_tos, skb) > 1) {
		err = STT_RX_ERR_ECN;
		goto drop;
	}
	len = skb->len + ETH_HLEN;
	stt_count(counters, STT_RX_FRAMES);
	/* Both count their own drops in the device's rx_dropped. */
	if (likely(deliver(stt, skb) == NET_RX_SUCCESS))
		dev_sw_netstats_rx_add(stt->dev, len);
	return;

drop:
	stt_drop(counters, err, skb);
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

/* What TCP checks: the checksum over the outer family's pseudo-header. */
static bool csum_ok(struct sk_buff *skb)
{
	if (stt_outer_is_ipv6(skb))
		return !skb_checksum_validate(skb, IPPROTO_TCP,
					      ip6_compute_pseudo);
	return !skb_checksum_validate(skb, IPPROTO_TCP, inet_compute_pseudo);
}

/* A segment of either family, data at the outer IP header. */
static void rcv_segment(struct stt_port *port, struct sk_buff *skb)
{
	struct stt_reasm_key key = { };
	enum stt_counter err;
	enum stt_err seg_err;
	struct tcphdr th;
	u16 frame_len, offset;

	stt_count(port->counters, STT_RX_SEGMENTS);

	if (stt_outer_saddr_invalid(skb)) {
		err = STT_RX_ERR_IPV6_SADDR;
		goto drop;
	}
	if (skb->len < skb_transport_offset(skb) + sizeof(th)) {
		err = STT_RX_ERR_TCP_TRUNCATED;
		goto drop;
	}
	/* What TCP and UDP (so VXLAN and Geneve) apply once routed: where
	 * the policy wants ESP, only segments that came out of an SA pass
	 * (transport mode runs PRE_ROUTING again after decryption).
	 */
	if (!xfrm_policy_check(NULL, XFRM_POLICY_IN, skb,
			       stt_outer_is_ipv6(skb) ? AF_INET6 : AF_INET)) {
		err = STT_RX_ERR_XFRM_POLICY;
		goto drop;
	}
	/* The route has served; a segment may wait in reassembly for up to
	 * reasm_timeout_ms, and IPv4's is not even referenced (as
	 * ip_frag_queue() drops it).
	 */
	skb_dst_drop(skb);
	if (!pskb_may_pull(skb, skb_transport_offset(skb) + sizeof(th))) {
		err = STT_RX_ERR_PORT_NOMEM;
		goto drop;
	}
	__skb_pull(skb, skb_transport_offset(skb));

	if (!csum_ok(skb)) {
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
		err = stt_err_counter(seg_err);
		goto drop;
	}
	/* Until the frame is whole, the segment may be a clone (AF_PACKET,
	 * tc mirred): frame.c reads segments and never writes them.
	 */
	if (offset || skb->len != frame_len) {
		stt_outer_saddr(skb, &key.saddr);
		stt_outer_daddr(skb, &key.daddr);
		key.sport = th.source;
		key.frame_id = th.ack_seq;
		skb = stt_reasm_table_add(&port->reasm, skb, &key, frame_len,
					  offset);
		if (!skb)
			return;
	} else if (skb_has_frag_list(skb)) {
		/* A whole frame that GRO chained: frame.c says why it is
		 * rebuilt.
		 */
		STT_SEG_CB(skb)->offset = 0;
		skb->next = NULL;
		skb = stt_frame_build(skb, frame_len, skb->dev, port->counters);
		if (!skb)
			return;
	} else {
		/* The segment is the frame, its headers and shared info
		 * rewritten from here on: own them.
		 */
		if (skb_unclone(skb, GFP_ATOMIC)) {
			err = STT_RX_ERR_PORT_NOMEM;
			goto drop;
		}
		/* The outer segmentation is undone; only the inner one may
		 * remain.
		 */
		skb_gso_reset(skb);
	}
	rcv_frame(port, skb, &th);
	return;

drop:
	stt_drop(port->counters, err, skb);
}

/* Where @skb's TCP header is if it is an IPv4 segment to @port, else -1. */
static int ipv4_segment_offset(struct sk_buff *skb,
			       const struct stt_port *port)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct tcphdr *th;
	unsigned int thoff;

	if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
		return -1;
	thoff = skb_network_offset(skb) + iph->ihl * 4;
	/* Without the ports it cannot be ours: TCP will drop it.  With them,
	 * a truncated header to our port is ours to count.
	 */
	if (!pskb_may_pull(skb, thoff + offsetofend(struct tcphdr, dest)))
		return -1;
	th = (const struct tcphdr *)(skb->data + thoff);
	return th->dest == port->dst_port ? thoff : -1;
}

/* Takes @skb, a segment to @port with its TCP header at @thoff. */
static unsigned int steal_segment(struct stt_port *port, struct sk_buff *skb,
				  int thoff)
{
	skb_set_transport_header(skb, thoff);
	/* Softirq, but for nf_reinject() of an NFQUEUE verdict, which runs
	 * the hooks after the queue's in process context; the reassembly
	 * lock, per-CPU counters and gro_cells need bottom halves off.
	 */
	local_bh_disable();
	rcv_segment(port, skb);
	local_bh_enable();
	return NF_STOLEN;
}

/*
 * With br_netfilter (bridge-nf-call-iptables, as Docker and Kubernetes set
 * it), the IP hooks of PRE_ROUTING run in the bridge's receive path too,
 * for a frame whatever its destination MAC address, before the bridge
 * filters it by VLAN and before ebtables; and PRE_ROUTING is skipped when
 * the bridge then passes the frame up to this host.  A segment for this
 * host is left to the bridge there, untracked so that conntrack leaves it
 * alone as it does the segments we take in PRE_ROUTING, and taken in
 * LOCAL_IN if the bridge delivers it here (stt_rcv_bridged_hook()).
 */
static unsigned int leave_to_bridge(struct sk_buff *skb)
{
	if (!skb_nfct(skb))
		nf_ct_set(skb, NULL, IP_CT_UNTRACKED);
	return NF_ACCEPT;
}

/*
 * Whether IP input, right after this hook, would take @skb for itself
 * rather than deliver it to a transport: a source route option (it drops
 * such a packet, accept_source_route being off on a host, or forwards it
 * to the next hop the option names), or a unicast packet in a link-layer
 * broadcast or multicast where drop_unicast_in_l2_multicast is set.  Other
 * options are not interpreted, as TCP would not.
 */
static bool ipv4_input_takes(const struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	const u8 *opt = (const u8 *)(iph + 1);
	int len = iph->ihl * 4 - sizeof(*iph);
	struct in_device *in_dev;

	while (len > 0 && opt[0] != IPOPT_END) {
		if (opt[0] == IPOPT_LSRR || opt[0] == IPOPT_SSRR)
			return true;
		if (opt[0] == IPOPT_NOOP) {
			opt++;
			len--;
			continue;
		}
		if (len < 2 || opt[1] < 2)
			break;
		len -= opt[1];
		opt += opt[1];
	}
	if (skb->pkt_type != PACKET_BROADCAST &&
	    skb->pkt_type != PACKET_MULTICAST)
		return false;
	in_dev = __in_dev_get_rcu(skb->dev);
	return in_dev && IN_DEV_ORCONF(in_dev, DROP_UNICAST_IN_L2_MULTICAST);
}

unsigned int stt_rcv_hook(void *priv, struct sk_buff *skb,
			  const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	const struct iphdr *iph;
	int thoff;

	thoff = ipv4_segment_offset(skb, port);
	if (thoff < 0)
		return NF_ACCEPT;
	iph = ip_hdr(skb);
	/* Route it here as IP input would right after this hook, so that
	 * reverse-path filtering and the martian checks apply as they do to
	 * TCP and to VXLAN's UDP: what they refuse is left to IP input to
	 * drop and count (IPReversePathFilter, martians).  What is not for
	 * this host goes on without the route we found, to be routed again
	 * after the mangle and nat hooks, which may mark or rewrite it for
	 * policy routing.  A route attached already (IPsec transport mode
	 * passes what it decrypted through PRE_ROUTING again, route and all)
	 * is the one IP input would use.
	 */
	if (!skb_valid_dst(skb)) {
		if (ip_route_input_noref(skb, iph->daddr, iph->saddr,
					 ip4h_dscp(iph), skb->dev))
			return NF_ACCEPT;
		if (skb_rtable(skb)->rt_type != RTN_LOCAL) {
			skb_dst_drop(skb);
			return NF_ACCEPT;
		}
	} else if (skb_rtable(skb)->rt_type != RTN_LOCAL) {
		return NF_ACCEPT;
	}
	if (ipv4_input_takes(skb))
		return NF_ACCEPT;
	if (nf_bridge_in_prerouting(skb))
		return leave_to_bridge(skb);
	return steal_segment(port, skb, thoff);
}

/* True if IPv6 input, right after this hook, would deliver @skb here; the
 * route that says so is then attached.
 */
static bool ipv6_input_is_local(struct sk_buff *skb)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct flowi6 fl6 = {
		.flowi6_iif = skb->dev->ifindex,
		.daddr = ip6h->daddr,
		.saddr = ip6h->saddr,
		.flowlabel = ip6_flowinfo(ip6h),
		.flowi6_mark = skb->mark,
		.flowi6_proto = IPPROTO_TCP,
	};
	struct dst_entry *dst;
	bool local;

	/* A route attached already (IPsec transport mode passes what it
	 * decrypted through PRE_ROUTING again, route and all) is the one
	 * IPv6 input would use.
	 */
	if (skb_valid_dst(skb))
		return dst_rt6_info(skb_dst(skb))->rt6i_flags & RTF_LOCAL;
	/* Attached only to a segment we keep, as stt_rcv_hook() does IPv4's:
	 * the IPsec policy check reads it (disable_policy), as it does for
	 * TCP.  What IPv6 input finds for a segment not ours stays its own
	 * business.
	 */
	dst = ip6_route_input_lookup(dev_net(skb->dev), skb->dev, &fl6, skb,
				     RT6_LOOKUP_F_HAS_SADDR);
	local = !dst->error && dst_rt6_info(dst)->rt6i_flags & RTF_LOCAL;
	if (local)
		skb_dst_set(skb, dst);
	else
		dst_release(dst);
	return local;
}

/*
 * Where @skb's TCP header is, when IPv6 input would have nothing more to do
 * with the extension headers before it, else a negative number.  The
 * hop-by-hop header was processed before PRE_ROUTING (it is where GRO puts
 * the jumbo payload length of a BIG TCP packet); destination options are
 * ours to skip, as TCP would have them skipped; a routing header with no
 * segment left names this host as the destination.  A routing header with
 * segments left names another one (SRv6 transit), and AH or ESP must be
 * verified by IPsec first, which passes what it verified through
 * PRE_ROUTING again: those, and anything else, are IPv6 input's.
 */
static int ipv6_tcp_offset(const struct sk_buff *skb)
{
	int off = skb_network_offset(skb) + sizeof(struct ipv6hdr);
	u8 nexthdr = ipv6_hdr(skb)->nexthdr;
	const struct ipv6_rt_hdr *rt;
	struct ipv6_rt_hdr _rt;

	while (nexthdr != IPPROTO_TCP) {
		switch (nexthdr) {
		case NEXTHDR_HOP:
		case NEXTHDR_DEST:
		case NEXTHDR_ROUTING:
			/* The routing header starts as every option header. */
			rt = skb_header_pointer(skb, off, sizeof(_rt), &_rt);
			if (!rt || (nexthdr == NEXTHDR_ROUTING &&
				    rt->segments_left))
				return -1;
			nexthdr = rt->nexthdr;
			off += ipv6_optlen(rt);
			break;
		default:
			return -1;
		}
	}
	return off;
}

/* Where @skb's TCP header is if it is an IPv6 segment to @port, else -1. */
static int ipv6_segment_offset(struct sk_buff *skb,
			       const struct stt_port *port)
{
	const struct tcphdr *th;
	int thoff;

	thoff = ipv6_tcp_offset(skb);
	if (thoff < 0 ||
	    !pskb_may_pull(skb, thoff + offsetofend(struct tcphdr, dest)))
		return -1;
	th = (const struct tcphdr *)(skb->data + thoff);
	return th->dest == port->dst_port ? thoff : -1;
}

/*
 * stt_rcv_hook()'s sibling for IPv6 underlays, at the same place (port.c):
 * after IPv6 defragmentation, which takes the fragment header away, so
 * that a segment to a local address has its TCP header right after the
 * IPv6 header, or after extension headers IPv6 input is done with.
 */
unsigned int stt_rcv6_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	int thoff;

	thoff = ipv6_segment_offset(skb, port);
	if (thoff < 0 || !ipv6_input_is_local(skb))
		return NF_ACCEPT;
	if (nf_bridge_in_prerouting(skb)) {
		/* br_netfilter routes it itself. */
		skb_dst_drop(skb);
		return leave_to_bridge(skb);
	}
	return steal_segment(port, skb, thoff);
}

/* Whether br_netfilter ran PRE_ROUTING for @skb in a bridge (see above). */
static bool nf_bridged(const struct sk_buff *skb)
{
#if IS_ENABLED(CONFIG_BRIDGE_NETFILTER)
	return nf_bridge_info_exists(skb);
#else
	return false;
#endif
}

/*
 * LOCAL_IN, both families: a segment left to the bridge in PRE_ROUTING
 * (leave_to_bridge()) that the bridge delivered to this host.  Nothing else
 * comes here: this host's other segments were taken in PRE_ROUTING.
 */
unsigned int stt_rcv_bridged_hook(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	struct stt_port *port = priv;
	int thoff;

	if (!nf_bridged(skb))
		return NF_ACCEPT;
	thoff = state->pf == NFPROTO_IPV4 ? ipv4_segment_offset(skb, port) :
					    ipv6_segment_offset(skb, port);
	if (thoff < 0)
		return NF_ACCEPT;
	return steal_segment(port, skb, thoff);
}
