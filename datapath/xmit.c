// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit: one inner Ethernet frame becomes one STT frame, sent as a single
 * TCP-looking packet marked for TCP segmentation, so that TSO on the NIC (or
 * GSO in software) cuts it to the path MTU and writes the per-segment offset
 * into the sequence number.  The outer header is IPv4 or IPv6, as the
 * tunnel's remote is: a route lookup and a send for each family around a
 * family-neutral frame.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/dst_metadata.h>
#include <net/ip6_checksum.h>
#include <net/ip6_tunnel.h>
#include <net/ip_tunnels.h>
#include <net/route.h>
#include <net/tcp.h>
#include <net/udp.h>

#include "compat.h"
#include "device.h"
#include "inner.h"
#include "route.h"
#include "stats.h"
#include "stt_hdr.h"
#include "stt_wire.h"
#include "xmit.h"

/* Everything one transmitted frame needs to know about its route. */
struct tx_path {
	u64 context_id;
	struct dst_entry *dst;
	bool ipv6;			/* the outer header's family */
	union {
		struct {
			__be32 saddr;
			__be32 daddr;
		} ip4;
		struct {
			struct in6_addr saddr;
			struct in6_addr daddr;
		} ip6;
	};
	__be16 sport;
	__be16 dport;
	u8 tos;				/* IPv6: the traffic class */
	u8 ttl;				/* IPv6: the hop limit */
	__be16 df;			/* IPv4 only: IPv6 routers never fragment */
	__be32 label;			/* IPv6 only: the flow label */
	bool tos_inherited;		/* route per packet, not from the cache */
	unsigned int mss;		/* outer TCP payload per segment */
};

/* Inner GSO types the STT header can describe (TCP, UDP; IPv4, IPv6). */
static bool gso_type_carried(const struct sk_buff *skb)
{
	unsigned int type = skb_shinfo(skb)->gso_type &
			    ~(SKB_GSO_DODGY | SKB_GSO_TCP_ECN |
			      SKB_GSO_TCP_FIXEDID);

	return type == SKB_GSO_TCPV4 || type == SKB_GSO_TCPV6 ||
	       type == SKB_GSO_UDP_L4;
}

static bool inner_is_ipv4(const struct sk_buff *skb)
{
	if (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV4)
		return true;
	if (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV6)
		return false;
	return skb_network_header_len(skb) && ip_hdr(skb)->version == 4;
}

/*
 * Describes @skb's partial checksum in @f if the STT header can carry it:
 * a TCP or UDP checksum, its L4 header within the first 255 bytes, in a
 * layout the receiver accepts (stt_inner_layout_ok()).
 */
static bool csum_carried(struct sk_buff *skb, struct stt_hdr_fields *f)
{
	int l4_offset = skb_checksum_start_offset(skb);
	u8 flags = STT_FLAG_CSUM_PARTIAL;

	if (skb_csum_is_sctp(skb) || l4_offset < 0 || l4_offset > U8_MAX ||
	    !skb_network_header_len(skb))
		return false;
	if (skb->csum_offset == offsetof(struct tcphdr, check))
		flags |= STT_FLAG_TCP;
	else if (skb->csum_offset != offsetof(struct udphdr, check))
		return false;
	if (inner_is_ipv4(skb))
		flags |= STT_FLAG_IPV4;
	if (!stt_inner_layout_ok(skb, flags, l4_offset))
		return false;

	f->flags |= flags;
	f->l4_offset = l4_offset;
	return true;
}

/*
 * Describes @skb's checksum and segmentation state in @f.  A partial
 * checksum the header cannot carry is completed here.  A GSO packet it
 * cannot carry (another protocol, a layout the receiver refuses, an MSS
 * below STT_MIN_MSS, more than one frame) gets -EPROTONOSUPPORT: the
 * caller segments it in software.
 */
static int fill_offload(struct sk_buff *skb, struct stt_hdr_fields *f)
{
	if (skb_is_gso(skb)) {
		if (!gso_type_carried(skb) ||
		    skb_shinfo(skb)->gso_size < STT_MIN_MSS ||
		    skb->len + STT_HDR_LEN > STT_MAX_FRAME_LEN ||
		    !csum_carried(skb, f))
			return -EPROTONOSUPPORT;
		f->mss = skb_shinfo(skb)->gso_size;
		return 0;
	}
	if (skb->ip_summed == CHECKSUM_UNNECESSARY)
		f->flags |= STT_FLAG_CSUM_VERIFIED;
	if (skb->ip_summed != CHECKSUM_PARTIAL || csum_carried(skb, f))
		return 0;
	return skb_csum_hwoffload_help(skb, 0);
}

static void push_tcp_header(struct stt_dev *stt, struct sk_buff *skb,
			    const struct tx_path *path, u16 frame_len)
{
	u32 frame_id = stt_frame_id_next(this_cpu_ptr(stt->frame_id),
					 nr_cpu_ids);
	struct tcphdr *th;

	th = skb_push(skb, sizeof(*th));
	skb_reset_transport_header(skb);
	memset(th, 0, sizeof(*th));
	th->source = path->sport;
	th->dest = path->dport;
	th->seq = htonl(stt_seq_encode(frame_len, 0));
	th->ack_seq = htonl(frame_id);
	th->doff = STT_TCP_DOFF;
	th->ack = 1;
	th->psh = 1;
	th->window = htons(STT_TCP_WINDOW);

	/* The outer checksum is the one that gets offloaded now; an inner
	 * partial checksum travels uncompleted, flagged in the STT header.
	 */
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_transport_header(skb) - skb->head;
	skb->csum_offset = offsetof(struct tcphdr, check);
	skb->encapsulation = 0;

	/* The checksum's pseudo-header and the GSO type are the outer
	 * family's: send_ipv4() and send_ipv6() write them.
	 */
	if (frame_len > path->mss) {
		skb_shinfo(skb)->gso_size = path->mss;
		skb_shinfo(skb)->gso_segs = DIV_ROUND_UP(frame_len, path->mss);
	} else {
		skb_gso_reset(skb);
	}
}

/*
 * iptunnel_xmit() and ip6tunnel_xmit() return nothing: they count a frame
 * IP output took in the device's per-CPU tstats and one it refused
 * (netfilter, neighbour queue, underlay device) in tx_dropped or
 * tx_errors.  Transmit runs with bottom halves off, so this CPU's
 * tx_packets moves only if IP took our frame.
 */
static u64 tx_packets_this_cpu(struct net_device *dev)
{
	return u64_stats_read(&this_cpu_ptr(dev->tstats)->tx_packets);
}

static void send_ipv4(struct stt_dev *stt, struct sk_buff *skb,
		      const struct tx_path *path, u8 tos)
{
	tcp_hdr(skb)->check = ~tcp_v4_check(skb->len, path->ip4.saddr,
					    path->ip4.daddr, 0);
	if (skb_is_gso(skb))
		skb_shinfo(skb)->gso_type = SKB_GSO_TCPV4;
	iptunnel_xmit(NULL, container_of(path->dst, struct rtable, dst), skb,
		      path->ip4.saddr, path->ip4.daddr, IPPROTO_TCP, tos,
		      path->ttl, path->df,
		      !net_eq(stt->net, dev_net(stt->dev)), 0);
}

/*
 * send_ipv4()'s sibling: what iptunnel_xmit() does before IP output, then
 * the IPv6 header as udp_tunnel6_xmit_skb() writes one, and
 * ip6tunnel_xmit(), which counts as iptunnel_xmit() does.
 */
static void send_ipv6(struct stt_dev *stt, struct sk_buff *skb,
		      const struct tx_path *path, u8 tclass)
{
	struct ipv6hdr *ip6h;

	tcp_hdr(skb)->check = ~tcp_v6_check(skb->len, &path->ip6.saddr,
					    &path->ip6.daddr, 0);
	if (skb_is_gso(skb))
		skb_shinfo(skb)->gso_type = SKB_GSO_TCPV6;

	skb_scrub_packet(skb, !net_eq(stt->net, dev_net(stt->dev)));
	skb_clear_hash_if_not_l4(skb);
	skb_dst_set(skb, path->dst);

	ip6h = skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6_flow_hdr(ip6h, tclass, path->label);
	/* ip6_local_out() writes payload_len (0 past IPV6_MAXPLEN, where
	 * segmentation writes each segment's).
	 */
	ip6h->payload_len = 0;
	ip6h->nexthdr = IPPROTO_TCP;
	ip6h->hop_limit = path->ttl;
	ip6h->saddr = path->ip6.saddr;
	ip6h->daddr = path->ip6.daddr;
	ip6tunnel_xmit(NULL, skb, stt->dev, 0);
}

/* Sends one inner frame whose offloads fill_offload() described in @f. */
static void xmit_frame(struct stt_dev *stt, struct sk_buff *skb,
		       const struct tx_path *path, struct stt_hdr_fields *f)
{
	unsigned int headroom;
	enum stt_counter err;
	u64 sent_before;
	u16 segs;
	u8 tos;

	f->context_id = path->context_id;

	headroom = LL_RESERVED_SPACE(path->dst->dev) + path->dst->header_len +
		   (path->ipv6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr)) +
		   sizeof(struct tcphdr) + STT_HDR_LEN;
	if (skb_cow_head(skb, headroom)) {
		err = STT_TX_ERR_NOMEM;
		goto drop;
	}

	if (skb_vlan_tag_present(skb)) {
		f->vlan_present = true;
		f->vlan_tci = skb_vlan_tag_get(skb);
		__vlan_hwaccel_clear_tag(skb);
	}

	tos = ip_tunnel_ecn_encap(path->tos, ip_hdr(skb), skb);
	if (skb->len + STT_HDR_LEN > STT_MAX_FRAME_LEN) {
		err = STT_TX_ERR_FRAME_TOO_BIG;
		goto drop;
	}

	/* The send counts tx_bytes from the inner network header:
	 * the inner Ethernet frame, as receive counts it.
	 */
	skb_set_inner_network_header(skb, 0);
	stt_hdr_build(skb_push(skb, STT_HDR_LEN), f);
	push_tcp_header(stt, skb, path, skb->len);
	segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;

	sent_before = tx_packets_this_cpu(stt->dev);
	/* The send takes a reference: segmented packets share the route. */
	dst_hold(path->dst);
	if (path->ipv6)
		send_ipv6(stt, skb, path, tos);
	else
		send_ipv4(stt, skb, path, tos);
	if (tx_packets_this_cpu(stt->dev) == sent_before) {
		stt_count(stt->counters, STT_TX_DROP_IP_OUTPUT);
		return;
	}
	stt_count(stt->counters, STT_TX_FRAMES);
	stt_count_add(stt->counters, STT_TX_SEGMENTS, segs);
	return;

drop:
	stt_drop(stt->counters, err, skb);
}

/*
 * Fills in @path from @info (the packet's metadata in external mode, the
 * device's configuration in fixed-peer mode), taking from the inner packet
 * whatever the configuration says to inherit.
 */
static void path_from_info(struct stt_dev *stt, struct sk_buff *skb,
			   const struct ip_tunnel_info *info,
			   struct tx_path *path)
{
	const struct stt_config *cfg = &stt->cfg;
	const struct iphdr *inner = ip_hdr(skb);
	int sport_low, sport_high;

	path->context_id = be64_to_cpu(info->key.tun_id);
	path->dport = info->key.tp_dst ?: cfg->dst_port;
	stt_sport_range(stt, &sport_low, &sport_high);
	path->sport = udp_flow_src_port(stt->net, skb, sport_low, sport_high,
					true);
	path->tos = info->key.tos;
	path->ttl = info->key.ttl;
	path->tos_inherited = false;
	if (cfg->collect_md) {
		path->df = stt_tun_info_df(info) ? htons(IP_DF) : 0;
		return;
	}

	if (path->tos == 1) {
		path->tos = ip_tunnel_get_dsfield(inner, skb);
		path->tos_inherited = true;
	}
	if (cfg->ttl_inherit)
		path->ttl = ip_tunnel_get_ttl(inner, skb);
	path->df = 0;
	if (cfg->df == STT_DF_SET ||
	    (cfg->df == STT_DF_INHERIT &&
	     ((skb->protocol == htons(ETH_P_IP) &&
	       inner->frag_off & htons(IP_DF)) ||
	      skb->protocol == htons(ETH_P_IPV6))))
		path->df = htons(IP_DF);
}

/* The counter of a failed route lookup. */
static enum stt_counter route_err(long err)
{
	switch (err) {
	case -ELOOP:
		return STT_TX_ERR_LOOP;
	case -EAFNOSUPPORT:		/* IPv6 disabled (ipv6.disable=1) */
		return STT_TX_ERR_FAMILY;
	default:
		return STT_TX_ERR_ROUTE;
	}
}

static int route_ipv4(struct stt_dev *stt, struct sk_buff *skb,
		      const struct ip_tunnel_info *info, struct tx_path *path,
		      enum stt_counter *err)
{
	/* The cached route was looked up for one TOS; policy routing may
	 * send another elsewhere.
	 */
	bool use_cache = ip_tunnel_dst_cache_usable(skb, info) &&
			 !path->tos_inherited;
	struct dst_cache *cache = (struct dst_cache *)&info->dst_cache;
	struct flowi4 fl4 = {
		.flowi4_mark = skb->mark,
		.daddr = info->key.u.ipv4.dst,
		.saddr = info->key.u.ipv4.src,
		.fl4_sport = path->sport,
		.fl4_dport = path->dport,
	};
	struct rtable *rt;

	stt_flowi4_set_tos(&fl4, path->tos);
	path->ipv6 = false;
	path->ip4.daddr = fl4.daddr;
	if (use_cache) {
		rt = dst_cache_get_ip4(cache, &path->ip4.saddr);
		if (rt)
			goto found;
	}

	rt = stt_route4(stt->net, stt->dev, &fl4);
	if (IS_ERR(rt)) {
		*err = route_err(PTR_ERR(rt));
		return PTR_ERR(rt);
	}
	path->ip4.saddr = fl4.saddr;
	if (use_cache)
		dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);

found:
	path->dst = &rt->dst;
	if (!path->ttl)
		path->ttl = ip4_dst_hoplimit(&rt->dst);
	path->mss = dst_mtu(&rt->dst) - sizeof(struct iphdr) -
		    sizeof(struct tcphdr);
	return 0;
}

/*
 * route_ipv4()'s sibling.  The flow label comes from the inner flow's hash
 * (udp_flow_src_port() computed it), so that the underlay can spread flows
 * as it would the inner packets, unless the tunnel key sets one.
 */
static int route_ipv6(struct stt_dev *stt, struct sk_buff *skb,
		      const struct ip_tunnel_info *info, struct tx_path *path,
		      enum stt_counter *err)
{
	bool use_cache = ip_tunnel_dst_cache_usable(skb, info) &&
			 !path->tos_inherited;
	struct dst_cache *cache = (struct dst_cache *)&info->dst_cache;
	struct flowi6 fl6 = {
		.flowi6_mark = skb->mark,
		.flowlabel = ip6_make_flowinfo(path->tos, info->key.label),
		.daddr = info->key.u.ipv6.dst,
		.saddr = info->key.u.ipv6.src,
		.fl6_sport = path->sport,
		.fl6_dport = path->dport,
	};
	struct dst_entry *dst;

	path->ipv6 = true;
	path->ip6.daddr = fl6.daddr;
	path->label = ip6_make_flowlabel(stt->net, skb, info->key.label, true,
					 &fl6);
	if (use_cache) {
		dst = dst_cache_get_ip6(cache, &path->ip6.saddr);
		if (dst)
			goto found;
	}

	dst = stt_route6(stt->net, stt->dev, &fl6);
	if (IS_ERR(dst)) {
		*err = route_err(PTR_ERR(dst));
		return PTR_ERR(dst);
	}
	path->ip6.saddr = fl6.saddr;
	if (use_cache)
		dst_cache_set_ip6(cache, dst, &fl6.saddr);

found:
	path->dst = dst;
	if (!path->ttl)
		path->ttl = ip6_dst_hoplimit(dst);
	path->mss = dst_mtu(dst) - sizeof(struct ipv6hdr) -
		    sizeof(struct tcphdr);
	return 0;
}

/* The route to @info's remote, of its family, into @path. */
static int route(struct stt_dev *stt, struct sk_buff *skb,
		 const struct ip_tunnel_info *info, struct tx_path *path,
		 enum stt_counter *err)
{
	if (ip_tunnel_info_af(info) == AF_INET6)
		return route_ipv6(stt, skb, info, path, err);
	return route_ipv4(stt, skb, info, path, err);
}

/*
 * An external device has no fixed remote for pmtu.c to check the ICMP
 * errors about its segments against: it tells its port where it sends.
 * Only to the port's own destination port, the one whose errors that port
 * reads.
 */
static void note_destination(struct stt_dev *stt, const struct tx_path *path)
{
	struct in6_addr daddr;

	if (!stt->cfg.collect_md || path->dport != stt->cfg.dst_port)
		return;
	if (path->ipv6)
		daddr = path->ip6.daddr;
	else
		ipv6_addr_set_v4mapped(path->ip4.daddr, &daddr);
	/* Attached from ndo_init to ndo_uninit, which no transmit outlives. */
	stt_pmtu_dst_sent(&rcu_dereference_bh(stt->rx.port)->sent_to, &daddr);
}

/* Tunnel parameters of @skb: its metadata (external) or the configuration. */
static const struct ip_tunnel_info *tx_info(struct stt_dev *stt,
					    struct sk_buff *skb)
{
	const struct ip_tunnel_info *info;

	if (!stt->cfg.collect_md)
		return &stt->cfg.info;
	info = skb_tunnel_info(skb);
	if (!info || !(info->mode & IP_TUNNEL_INFO_TX))
		return NULL;
	return info;
}

/*
 * ndo_fill_metadata_dst: completes the packet's egress tunnel metadata with
 * what transmit would choose (source address and ports), for sampling.
 */
int stt_fill_metadata_dst(struct net_device *dev, struct sk_buff *skb)
{
	struct ip_tunnel_info *info = skb_tunnel_info(skb);
	struct stt_dev *stt = netdev_priv(dev);
	enum stt_counter err;
	struct tx_path path;

	if (!info)
		return -EINVAL;
	path_from_info(stt, skb, info, &path);
	if (route(stt, skb, info, &path, &err))
		return -EHOSTUNREACH;
	dst_release(path.dst);
	if (path.ipv6)
		info->key.u.ipv6.src = path.ip6.saddr;
	else
		info->key.u.ipv4.src = path.ip4.saddr;
	info->key.tp_src = path.sport;
	info->key.tp_dst = path.dport;
	return 0;
}

/*
 * Sends @skb as one frame if the STT header can describe its offloads.
 * Returns STT_COUNTER_MAX once it is sent (or dropped and counted), else
 * why it was not sent: STT_TX_SW_SEGMENTED for a GSO packet to segment in
 * software, an error counter for one to drop.
 */
static enum stt_counter xmit_offloaded(struct stt_dev *stt,
				       struct sk_buff *skb,
				       const struct tx_path *path)
{
	struct stt_hdr_fields f = { };
	int err;

	err = fill_offload(skb, &f);
	if (err == -EPROTONOSUPPORT)
		return STT_TX_SW_SEGMENTED;
	if (err)
		return STT_TX_ERR_CSUM;
	xmit_frame(stt, skb, path, &f);
	return STT_COUNTER_MAX;
}

/*
 * Segments a GSO packet the STT header cannot describe and sends each
 * segment as a frame.  Returns STT_COUNTER_MAX once @skb is consumed, or
 * STT_TX_ERR_GSO with @skb untouched.
 */
static enum stt_counter xmit_segmented(struct stt_dev *stt,
				       struct sk_buff *skb,
				       const struct tx_path *path)
{
	struct sk_buff *segs, *next;
	enum stt_counter err;

	segs = skb_gso_segment(skb, stt->dev->features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return STT_TX_ERR_GSO;
	consume_skb(skb);
	stt_count(stt->counters, STT_TX_SW_SEGMENTED);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		err = xmit_offloaded(stt, skb, path);
		if (err != STT_COUNTER_MAX)
			stt_drop(stt->counters, err, skb);
	}
	return STT_COUNTER_MAX;
}

netdev_tx_t stt_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct stt_dev *stt = netdev_priv(dev);
	const struct ip_tunnel_info *info;
	enum stt_counter err;
	struct tx_path path;

	/* Pairs with stt_dev_reconfigure()'s release: cfg is read after it. */
	if (unlikely(smp_load_acquire(&stt->reconfiguring))) {
		err = STT_TX_DROP_RECONFIG;
		goto drop;
	}
	/* path_from_info() and the ECN encapsulation read the inner IP
	 * header.
	 */
	if (!pskb_inet_may_pull(skb)) {
		err = STT_TX_ERR_INNER;
		goto drop;
	}
	info = tx_info(stt, skb);
	if (!info) {
		err = STT_TX_NO_TUNNEL_INFO;
		goto drop;
	}
	/* The header's TCI has no TPID, and its DEI bit says "tag present":
	 * only an 802.1Q tag without DEI rides there.  Others go back into
	 * the frame before fill_offload() measures it.
	 */
	if (skb_vlan_tag_present(skb) &&
	    (skb->vlan_proto != htons(ETH_P_8021Q) ||
	     skb_vlan_tag_get(skb) & VLAN_CFI_MASK)) {
		/* On failure it has freed @skb itself. */
		skb = __vlan_hwaccel_push_inside(skb);
		if (!skb) {
			stt_count(stt->counters, STT_TX_ERR_NOMEM);
			return NETDEV_TX_OK;
		}
	}

	/* Before any header moves: the flow hash is over the inner frame. */
	path_from_info(stt, skb, info, &path);
	if (route(stt, skb, info, &path, &err))
		goto drop;
	note_destination(stt, &path);

	err = xmit_offloaded(stt, skb, &path);
	if (err == STT_TX_SW_SEGMENTED)
		err = xmit_segmented(stt, skb, &path);
	dst_release(path.dst);
	if (err == STT_COUNTER_MAX)
		return NETDEV_TX_OK;

drop:
	stt_drop(stt->counters, err, skb);
	return NETDEV_TX_OK;
}
