// SPDX-License-Identifier: GPL-2.0
/*
 * A received frame is handed on in an skb of its own: the STT and inner
 * headers in the linear part, the rest in page fragments, never a frag_list.
 *
 * Chaining the segments into a frag_list would save a copy, but the inner
 * packet may carry an MSS (a large TCP packet to resegment), and
 * skb_segment() can only split a frag_list at the boundaries of its members
 * when they line up with that MSS; ours line up with the outer path MTU.
 * Drivers that leave payload in a page-fragment head (igb, ixgbe, e1000e,
 * virtio-net without mergeable buffers) make it BUG() even under
 * SKB_GSO_DODGY.  Chaining would also relink the ->next of frag_list
 * members that a clone of the segment (AF_PACKET, tc mirred, a bridge
 * flooding the underlay) still shares.  Copying reads the segments and
 * never writes them.
 */
#include <linux/ip.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>
#include <net/ip.h>

#include "frame.h"

/* Enough for the STT header and any inner headers the STT header can
 * describe (L4 offset up to 255, then a TCP header with options).
 */
#define FRAME_LINEAR 384

static struct sk_buff *frame_alloc(const struct sk_buff *first,
				   unsigned int len)
{
	unsigned int linear = min_t(unsigned int, len, FRAME_LINEAR);
	unsigned int iph_len = ip_hdrlen(first);
	struct sk_buff *skb;
	int err;

	skb = alloc_skb_with_frags(NET_SKB_PAD + iph_len + linear,
				   len - linear, PAGE_ALLOC_COSTLY_ORDER, &err,
				   GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + iph_len);
	skb_put(skb, linear);
	skb->data_len = len - linear;
	skb->len = len;

	/* The outer IP header, for the tunnel metadata and ECN. */
	memcpy(skb_push(skb, iph_len), ip_hdr(first), iph_len);
	skb_reset_network_header(skb);
	__skb_pull(skb, iph_len);

	skb->dev = first->dev;
	skb->mark = first->mark;
	skb->protocol = first->protocol;
	return skb;
}

/* Copies @seg's payload into bytes [@offset, @offset + seg->len) of @frame. */
static bool copy_segment(struct sk_buff *frame, struct sk_buff *seg,
			 unsigned int offset)
{
	struct skb_seq_state st;
	unsigned int done = 0, n;
	const u8 *data;

	skb_prepare_seq_read(seg, 0, seg->len, &st);
	while ((n = skb_seq_read(done, &data, &st))) {
		if (WARN_ON_ONCE(skb_store_bits(frame, offset + done, data, n))) {
			skb_abort_seq_read(&st);
			return false;
		}
		done += n;
	}
	return true;
}

/*
 * Takes @segs, linked by ->next, each with its offset in STT_SEG_CB and
 * together covering @frame_len bytes exactly once (lib/stt_reasm.c saw to
 * that), and returns the frame as one new skb, data at the STT header,
 * outer IP header at its network header, or NULL without memory.  Frees
 * @segs either way.
 *
 * The outer header is the first segment's, with CE set if any segment
 * met congestion (RFC 6040: the frame is what gets decapsulated).
 */
struct sk_buff *stt_frame_build(struct sk_buff *segs, u16 frame_len)
{
	struct sk_buff *frame, *seg, *first = segs;
	bool ce = false;

	for (seg = segs; seg; seg = seg->next) {
		if (!STT_SEG_CB(seg)->offset)
			first = seg;
		ce |= INET_ECN_is_ce(ip_hdr(seg)->tos);
	}

	frame = frame_alloc(first, frame_len);
	for (seg = segs; frame && seg; seg = seg->next) {
		if (!copy_segment(frame, seg, STT_SEG_CB(seg)->offset)) {
			kfree_skb(frame);
			frame = NULL;
		}
	}
	if (frame && ce)
		IP_ECN_set_ce(ip_hdr(frame));

	while (segs) {
		seg = segs;
		segs = seg->next;
		if (frame)
			consume_skb(seg);
		else
			kfree_skb(seg);
	}
	return frame;
}
