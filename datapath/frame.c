// SPDX-License-Identifier: GPL-2.0
/*
 * A received frame is handed on in an skb of its own, built afresh from the
 * segments that carried it: the STT header and the inner headers copied into
 * its linear part, the payload referenced in the segments' pages where that
 * is safe and copied where it is not.  The segments are read, never written
 * or relinked: a clone of one (AF_PACKET, tc mirred, a bridge flooding the
 * underlay) may still share their data and frag_list members.
 *
 * The linear part holds the headers and nothing else, as drivers size the
 * heads they build (eth_get_headlen()): payload in a linear part that is
 * not a page fragment is what GRO chains into a frag_list as it is, and
 * skb_segment() cannot cut such a member at an MSS smaller than it (it
 * BUG()s; Debian's 6.1 lets GRO build that from frames whose MSS came off
 * the wire).  In page fragments GRO merges payload by reference.
 *
 * Referenced payload goes into page fragments, MAX_SKB_FRAGS to an skb, and
 * past that into frag_list members that hold no linear data.  skb_segment()
 * can cut such a chain anywhere; it could not cut the segments themselves
 * wherever the inner MSS falls: drivers that leave payload in the linear
 * part (igb, ixgbe, e1000e, virtio-net without mergeable buffers) make it
 * BUG() even under SKB_GSO_DODGY.  It can only fail on a segment that needs
 * more than MAX_SKB_FRAGS fragments, so every piece but the first and the
 * last must hold at least the MSS over FRAME_PIECES_PER_MSS bytes, and only
 * a frame with an MSS gets members.
 *
 * A piece the frame may not share is copied: one in a kmalloc()ed linear
 * part (a driver's copybreak, a head reallocated by pskb_expand_head()), or
 * in pages a page_pool or a zerocopy sender owns (they go back to their
 * owner by the rules of the skb holding them).  Copies are packed into
 * pages one after the other, so that a frame of small pieces costs its
 * size in pages, not a page a piece.  The whole frame is copied when pieces
 * are too short (one-byte segments, say), when such a piece is larger than
 * a page, when a frag_list member has members again, and when sharing
 * would pin more than FRAME_PIN_LIMIT(): small segments each in a buffer of
 * a few KiB would hold megabytes for one frame once it leaves reassembly,
 * where the reassembly bound no longer counts it, in queues bounded by
 * packet count (a paused VM's tap, a qdisc).  The frame marks its
 * fragments shared (SKBFL_SHARED_FRAG), so that nothing decrypts or
 * rewrites them in place: the sender's retransmit queue may still hold the
 * same pages, when it sent through veth.
 */
#include <linux/etherdevice.h>
#include <linux/list_sort.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>

#include "frame.h"
#include "outer.h"
#include "stats.h"
#include "stt_err.h"
#include "stt_hdr.h"
#include "stt_wire.h"

/* The most of a frame's start its linear part may take: the STT header and
 * any inner headers the STT header can describe (L4 offset up to 255, then
 * a TCP header with options).
 */
#define FRAME_HDRS_MAX 384

/*
 * A segment skb_segment() cuts holds MSS bytes.  When every piece but the
 * first and the last holds at least MSS / FRAME_PIECES_PER_MSS, the MSS
 * bytes span at most that many such pieces, the short first and last ones
 * and the piece they start in: MAX_SKB_FRAGS - 1 fragments.
 */
#define FRAME_PIECES_PER_MSS (MAX_SKB_FRAGS - 4)

/*
 * What a frame may hold of the segments it shares, in truesize.  Segments of
 * MTU size in the buffers NICs give them come to less than three times their
 * payload (a 4 KiB page for 1448 bytes is the most seen); one that pins more
 * is copied whole.
 */
#define FRAME_PIN_LIMIT(frame_len) (3 * (frame_len) + SZ_64K)

/* Why a frame half built is freed: no memory (rx_err_port_nomem). */
#define NO_FRAME stt_drop_reason(STT_RX_ERR_PORT_NOMEM)

struct frame_builder {
	struct sk_buff *frame;		/* NULL while planning */
	struct sk_buff *tail;		/* frame or its last frag_list member */
	unsigned int min_piece;		/* 0: no MSS, the frame has no members */
	unsigned int pieces;
	unsigned int prev_len;		/* of the last piece */
	unsigned int pinned;		/* truesize of the segments shared */
	bool seg_shared;		/* the segment walked shares a piece */
	struct page *copy_page;		/* where copied pieces are packed */
	unsigned int copy_off;		/* its first free byte */
};

/*
 * A frame of @linear bytes in its linear part and @frags_len in page
 * fragments, the outer IP header of @first (the segment at offset 0) before
 * its data.  @dev received the segment that completed it, the one device
 * known to be there still.
 */
static struct sk_buff *frame_alloc(const struct sk_buff *first,
				   struct net_device *dev,
				   unsigned int linear, unsigned int frags_len)
{
	/* To the TCP header: an IPv4 header with its options, or IPv6's. */
	unsigned int iph_len = skb_network_header_len(first);
	struct sk_buff *skb;
	int err;

	skb = alloc_skb_with_frags(NET_SKB_PAD + iph_len + linear, frags_len,
				   PAGE_ALLOC_COSTLY_ORDER, &err, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + iph_len);
	skb_put(skb, linear);
	skb->data_len = frags_len;
	skb->len += frags_len;

	/* The outer IP header, for the tunnel metadata and ECN. */
	memcpy(skb_push(skb, iph_len), skb_network_header(first), iph_len);
	skb_reset_network_header(skb);
	__skb_pull(skb, iph_len);

	skb->dev = dev;
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

/* The whole frame copied, its first @linear bytes into the linear part. */
static struct sk_buff *frame_copy(struct list_head *segs,
				  const struct sk_buff *first,
				  struct net_device *dev, u16 frame_len,
				  unsigned int linear)
{
	struct sk_buff *frame, *seg;

	frame = frame_alloc(first, dev, linear, frame_len - linear);
	if (!frame)
		return NULL;
	list_for_each_entry(seg, segs, list) {
		if (!copy_segment(frame, seg, STT_SEG_CB(seg)->offset)) {
			kfree_skb_reason(frame, NO_FRAME);
			return NULL;
		}
	}
	return frame;
}

/*
 * Appends @len bytes at @off in @page to the frame: to its last fragment
 * when they follow it in the same page (packed copies do), else as a
 * fragment of their own, taking a reference.
 */
static bool frame_add_page(struct frame_builder *b, struct page *page,
			   unsigned int off, unsigned int len)
{
	struct sk_buff *tail = b->tail;
	int i = skb_shinfo(tail)->nr_frags;

	if (skb_can_coalesce(tail, i, page, off)) {
		skb_frag_size_add(&skb_shinfo(tail)->frags[i - 1], len);
	} else {
		if (i == MAX_SKB_FRAGS) {
			struct sk_buff *member = alloc_skb(0, GFP_ATOMIC);

			if (!member)
				return false;
			skb_shinfo(member)->flags |= SKBFL_SHARED_FRAG;
			if (tail == b->frame)
				skb_shinfo(tail)->frag_list = member;
			else
				tail->next = member;
			b->frame->truesize += member->truesize;
			b->tail = tail = member;
			i = 0;
		}
		get_page(page);
		skb_fill_page_desc(tail, i, page, off, len);
	}
	tail->len += len;
	tail->data_len += len;
	if (tail != b->frame) {
		tail->truesize += len;
		b->frame->len += len;
		b->frame->data_len += len;
	}
	return true;
}

/*
 * Planning: whether the frame can take one more piece of @len bytes.  Pieces
 * packed into one fragment count as several here: the plan is the most the
 * frame can hold.
 */
static bool frame_plan_piece(struct frame_builder *b, unsigned int len)
{
	/* The piece before this one was neither first nor last. */
	if (b->pieces >= 2 && b->prev_len < b->min_piece)
		return false;
	b->prev_len = len;
	return ++b->pieces <= MAX_SKB_FRAGS || b->min_piece;
}

/* A piece shared: @len bytes at @off in @page. */
static bool frame_share_piece(struct frame_builder *b, struct page *page,
			      unsigned int off, unsigned int len)
{
	if (!b->frame) {
		b->seg_shared = true;
		return frame_plan_piece(b, len);
	}
	return frame_add_page(b, page, off, len);
}

/* A piece copied, packed after the last one: @len bytes at @pos in @skb. */
static bool frame_copy_piece(struct frame_builder *b, struct sk_buff *skb,
			     unsigned int pos, unsigned int len)
{
	if (len > PAGE_SIZE)
		return false;
	if (!b->frame)
		return frame_plan_piece(b, len);
	if (!b->copy_page || b->copy_off + len > PAGE_SIZE) {
		/* The fragments hold the page now, or nothing does. */
		if (b->copy_page)
			put_page(b->copy_page);
		b->copy_page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
		if (!b->copy_page)
			return false;
		b->copy_off = 0;
		b->frame->truesize += PAGE_SIZE;
	}
	if (skb_copy_bits(skb, pos, page_address(b->copy_page) + b->copy_off,
			  len) ||
	    !frame_add_page(b, b->copy_page, b->copy_off, len))
		return false;
	b->copy_off += len;
	return true;
}

/*
 * @len bytes at @pos in @skb, at @off in @page if the frame may share them
 * (else @page is NULL), less what *@skip still says to skip: those went into
 * the frame's linear part.
 */
static bool frame_walk_piece(struct frame_builder *b, struct sk_buff *skb,
			     unsigned int pos, unsigned int len,
			     struct page *page, unsigned int off,
			     unsigned int *skip)
{
	unsigned int n = min(*skip, len);

	*skip -= n;
	if (n == len)
		return true;
	if (!page)
		return frame_copy_piece(b, skb, pos + n, len - n);
	return frame_share_piece(b, page, off + n, len - n);
}

/* The payload in @skb's linear part and page fragments, a piece each. */
static bool frame_walk_pages(struct frame_builder *b, struct sk_buff *skb,
			     unsigned int *skip)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	bool shared = !skb->pp_recycle && !skb_zcopy(skb);
	unsigned int i, off = 0, pos = skb_headlen(skb);
	struct page *page = NULL;

	if (shared && skb->head_frag) {
		page = virt_to_head_page(skb->head);
		off = skb->data - (u8 *)page_address(page);
	}
	if (!frame_walk_piece(b, skb, 0, pos, page, off, skip))
		return false;

	for (i = 0; i < sh->nr_frags; i++) {
		const skb_frag_t *frag = &sh->frags[i];
		unsigned int len = skb_frag_size(frag);

		if (!frame_walk_piece(b, skb, pos, len,
				      shared ? skb_frag_page(frag) : NULL,
				      skb_frag_off(frag), skip))
			return false;
		pos += len;
	}
	return true;
}

/*
 * Every segment's payload beyond the frame's linear part, in order.  While
 * planning, totals what the segments the frame shares pieces of hold.
 */
static bool frame_walk(struct frame_builder *b, struct list_head *segs,
		       unsigned int linear)
{
	struct sk_buff *seg, *member;
	unsigned int skip;

	list_for_each_entry(seg, segs, list) {
		unsigned int offset = STT_SEG_CB(seg)->offset;

		skip = offset < linear ? linear - offset : 0;
		b->seg_shared = false;
		if (!frame_walk_pages(b, seg, &skip))
			return false;
		skb_walk_frags(seg, member) {
			if (skb_has_frag_list(member) ||
			    !frame_walk_pages(b, member, &skip))
				return false;
		}
		if (b->seg_shared)
			b->pinned += seg->truesize;
	}
	return true;
}

/*
 * The frame with its first @linear bytes, @hdrs, copied and the rest
 * referenced, or NULL when it must be copied (*nomem false) or memory ran
 * out (*nomem true).  @segs are in offset order, @f the frame's STT header.
 */
static struct sk_buff *frame_share(struct list_head *segs,
				   const struct sk_buff *first,
				   struct net_device *dev, u16 frame_len,
				   const u8 *hdrs, unsigned int linear,
				   const struct stt_hdr_fields *f, bool *nomem)
{
	struct frame_builder b = { };

	*nomem = false;
	if ((f->flags & STT_FLAG_CSUM_PARTIAL) && f->mss)
		b.min_piece = DIV_ROUND_UP(f->mss, FRAME_PIECES_PER_MSS);
	if (!frame_walk(&b, segs, linear) ||
	    b.pinned > FRAME_PIN_LIMIT(frame_len))
		return NULL;

	*nomem = true;
	b.frame = frame_alloc(first, dev, linear, 0);
	if (!b.frame)
		return NULL;
	b.tail = b.frame;
	skb_shinfo(b.frame)->flags |= SKBFL_SHARED_FRAG;
	memcpy(b.frame->data, hdrs, linear);
	if (!frame_walk(&b, segs, linear) ||
	    WARN_ON_ONCE(b.frame->len != frame_len)) {
		kfree_skb_reason(b.frame, NO_FRAME);
		b.frame = NULL;
	} else {
		/* The frame holds on to the buffers of the segments it
		 * shares, as GRO's packets do to the buffers they took over:
		 * it is charged what they were.
		 */
		b.frame->truesize += b.pinned;
	}
	if (b.copy_page)
		put_page(b.copy_page);
	return b.frame;
}

/* Copies the first @len bytes of the frame @segs carry, in offset order. */
static bool frame_read(struct list_head *segs, u8 *to, unsigned int len)
{
	struct sk_buff *seg;

	list_for_each_entry(seg, segs, list) {
		unsigned int offset = STT_SEG_CB(seg)->offset;

		if (offset >= len)
			break;
		if (skb_copy_bits(seg, 0, to + offset,
				  min_t(unsigned int, seg->len, len - offset)))
			return false;
	}
	return true;
}

/* The frame's linear part: the STT header and the inner headers in @hdrs,
 * the first @len bytes of the frame.
 */
static unsigned int frame_headlen(const struct net_device *dev, const u8 *hdrs,
				  unsigned int len)
{
	if (len < STT_HDR_LEN + ETH_HLEN)
		return len;
	return STT_HDR_LEN + eth_get_headlen(dev, hdrs + STT_HDR_LEN,
					     len - STT_HDR_LEN);
}

static int seg_offset_cmp(void *priv, const struct list_head *a,
			  const struct list_head *b)
{
	return STT_SEG_CB(list_entry(a, struct sk_buff, list))->offset -
	       STT_SEG_CB(list_entry(b, struct sk_buff, list))->offset;
}

/*
 * Takes @segs, linked by ->next, each with its offset in STT_SEG_CB and
 * together covering @frame_len bytes exactly once (lib/stt_reasm.c saw to
 * that), the last of them received on @dev, and returns the frame as one new
 * skb, data at the STT header, outer IP header at its network header.  Frees
 * @segs either way.  Counts in @counters a frame whose payload had to be
 * copied (rx_frames_copied), and why there is no frame: an STT header that
 * the frame's device would refuse, or no memory (rx_err_port_nomem).
 *
 * The outer header is the first segment's, with CE set if any segment
 * met congestion (RFC 6040: the frame is what gets decapsulated).
 */
struct sk_buff *stt_frame_build(struct sk_buff *segs, u16 frame_len,
				struct net_device *dev,
				struct stt_counters __percpu *counters)
{
	unsigned int avail = min_t(unsigned int, frame_len, FRAME_HDRS_MAX);
	struct sk_buff *frame = NULL, *seg, *next, *first = segs;
	enum stt_counter err = STT_RX_ERR_PORT_NOMEM;
	struct stt_hdr_fields f;
	u8 hdrs[FRAME_HDRS_MAX];
	unsigned int linear;
	enum stt_err hdr_err;
	LIST_HEAD(list);
	bool ce = false;
	bool nomem;

	for (seg = segs; seg; seg = next) {
		next = seg->next;
		if (!STT_SEG_CB(seg)->offset)
			first = seg;
		ce |= INET_ECN_is_ce(stt_outer_dsfield(seg));
		list_add_tail(&seg->list, &list);
	}
	list_sort(NULL, &list, seg_offset_cmp);

	if (!frame_read(&list, hdrs, avail))
		goto out;
	/* A header rcv_frame() will refuse is not worth building for. */
	hdr_err = stt_hdr_parse(hdrs, avail, frame_len, &f);
	if (hdr_err != STT_OK) {
		err = stt_err_counter(hdr_err);
		goto out;
	}
	linear = frame_headlen(dev, hdrs, avail);

	frame = frame_share(&list, first, dev, frame_len, hdrs, linear, &f,
			    &nomem);
	if (!frame && !nomem) {
		frame = frame_copy(&list, first, dev, frame_len, linear);
		if (frame)
			stt_count(counters, STT_RX_FRAMES_COPIED);
	}
	if (frame && ce)
		stt_outer_set_ce(frame);

out:
	if (!frame)
		stt_count(counters, err);
	list_for_each_entry_safe(seg, next, &list, list) {
		skb_list_del_init(seg);
		if (frame)
			consume_skb(seg);
		else
			kfree_skb_reason(seg, stt_drop_reason(err));
	}
	return frame;
}
