// SPDX-License-Identifier: GPL-2.0
/*
 * A received frame is handed on in an skb of its own, built afresh from the
 * segments that carried it: the STT header and the inner headers copied into
 * its linear part, the payload referenced in the segments' pages where that
 * is safe and copied where it is not.  The segments are read, never written
 * or relinked: a clone of one (AF_PACKET, tc mirred, a bridge flooding the
 * underlay) may still share their data and frag_list members.
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
 * A piece the frame may not share is copied into a page of its own: one in
 * a kmalloc()ed linear part (a driver's copybreak, a head reallocated by
 * pskb_expand_head()), or in pages a page_pool or a zerocopy sender owns
 * (they go back to their owner by the rules of the skb holding them).  The
 * whole frame is copied when pieces are too short (one-byte segments, say),
 * when such a piece is larger than a page, and when a frag_list member has
 * members again.  The frame marks its fragments shared (SKBFL_SHARED_FRAG),
 * so that nothing decrypts or rewrites them in place: the sender's
 * retransmit queue may still hold the same pages, when it sent through veth.
 */
#include <linux/list_sort.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <net/inet_ecn.h>

#include "frame.h"
#include "outer.h"
#include "stats.h"
#include "stt_err.h"
#include "stt_hdr.h"
#include "stt_wire.h"

/* Enough for the STT header and any inner headers the STT header can
 * describe (L4 offset up to 255, then a TCP header with options).
 */
#define FRAME_LINEAR 384

/*
 * A segment skb_segment() cuts holds MSS bytes.  When every piece but the
 * first and the last holds at least MSS / FRAME_PIECES_PER_MSS, the MSS
 * bytes span at most that many such pieces, the short first and last ones
 * and the piece they start in: MAX_SKB_FRAGS - 1 fragments.
 */
#define FRAME_PIECES_PER_MSS (MAX_SKB_FRAGS - 4)

/* Why the segments and a frame half built are freed when there is no frame:
 * the caller counts it as rx_err_port_nomem.
 */
#define NO_FRAME stt_drop_reason(STT_RX_ERR_PORT_NOMEM)

struct frame_builder {
	struct sk_buff *frame;		/* NULL while planning */
	struct sk_buff *tail;		/* frame or its last frag_list member */
	unsigned int min_piece;		/* 0: no MSS, the frame has no members */
	unsigned int pieces;
	unsigned int prev_len;		/* of the last piece */
};

static struct sk_buff *frame_alloc(const struct sk_buff *first,
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

/* The whole frame copied, the first @linear bytes into the linear part. */
static struct sk_buff *frame_copy(struct list_head *segs,
				  const struct sk_buff *first, u16 frame_len,
				  unsigned int linear)
{
	struct sk_buff *frame, *seg;

	frame = frame_alloc(first, linear, frame_len - linear);
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

/* Appends @len bytes at @off in @page to the frame, taking a reference. */
static bool frame_add_page(struct frame_builder *b, struct page *page,
			   unsigned int off, unsigned int len)
{
	struct sk_buff *tail = b->tail;
	int i = skb_shinfo(tail)->nr_frags;

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
	tail->len += len;
	tail->data_len += len;
	if (tail != b->frame) {
		tail->truesize += len;
		b->frame->len += len;
		b->frame->data_len += len;
	}
	return true;
}

/* Planning: whether the frame can take one more piece of @len bytes. */
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
	if (!b->frame)
		return frame_plan_piece(b, len);
	return frame_add_page(b, page, off, len);
}

/* A piece copied into a page of its own: @len bytes at @pos in @skb. */
static bool frame_copy_piece(struct frame_builder *b, struct sk_buff *skb,
			     unsigned int pos, unsigned int len)
{
	struct page *page;
	bool ok;

	if (len > PAGE_SIZE)
		return false;
	if (!b->frame)
		return frame_plan_piece(b, len);
	page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
	if (!page)
		return false;
	ok = !skb_copy_bits(skb, pos, page_address(page), len) &&
	     frame_add_page(b, page, 0, len);
	put_page(page);
	b->frame->truesize += PAGE_SIZE;
	return ok;
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

/* Every segment's payload beyond the frame's linear part, in order. */
static bool frame_walk(struct frame_builder *b, struct list_head *segs,
		       unsigned int linear)
{
	struct sk_buff *seg, *member;
	unsigned int skip;

	list_for_each_entry(seg, segs, list) {
		unsigned int offset = STT_SEG_CB(seg)->offset;

		skip = offset < linear ? linear - offset : 0;
		if (!frame_walk_pages(b, seg, &skip))
			return false;
		skb_walk_frags(seg, member) {
			if (skb_has_frag_list(member) ||
			    !frame_walk_pages(b, member, &skip))
				return false;
		}
	}
	return true;
}

/*
 * The frame with its first @linear bytes copied and the rest referenced, or
 * NULL when it must be copied (*nomem false) or memory ran out (*nomem
 * true).  @segs are in offset order.
 */
static struct sk_buff *frame_share(struct list_head *segs,
				   const struct sk_buff *first, u16 frame_len,
				   unsigned int linear, bool *nomem)
{
	struct frame_builder b = { };
	struct stt_hdr_fields f;
	struct sk_buff *seg;
	u8 buf[STT_HDR_LEN];
	const void *hdr;

	*nomem = false;
	/* A header rcv_frame() will refuse is not worth planning for. */
	hdr = skb_header_pointer(first, 0, STT_HDR_LEN, buf);
	if (!hdr || stt_hdr_parse(hdr, STT_HDR_LEN, frame_len, &f) != STT_OK)
		return NULL;
	if ((f.flags & STT_FLAG_CSUM_PARTIAL) && f.mss)
		b.min_piece = DIV_ROUND_UP(f.mss, FRAME_PIECES_PER_MSS);
	if (!frame_walk(&b, segs, linear))
		return NULL;

	*nomem = true;
	b.frame = frame_alloc(first, linear, 0);
	if (!b.frame)
		return NULL;
	b.tail = b.frame;
	skb_shinfo(b.frame)->flags |= SKBFL_SHARED_FRAG;
	list_for_each_entry(seg, segs, list) {
		unsigned int offset = STT_SEG_CB(seg)->offset;

		if (offset >= linear)
			break;
		if (skb_copy_bits(seg, 0, b.frame->data + offset,
				  min_t(unsigned int, seg->len,
					linear - offset)))
			goto fail;
	}
	if (!frame_walk(&b, segs, linear))
		goto fail;
	if (WARN_ON_ONCE(b.frame->len != frame_len))
		goto fail;
	/* The frame holds on to the segments' buffers, as GRO's packets do
	 * to the buffers they took over: it is charged what they were.
	 */
	list_for_each_entry(seg, segs, list)
		b.frame->truesize += seg->truesize;
	return b.frame;

fail:
	kfree_skb_reason(b.frame, NO_FRAME);
	return NULL;
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
 * that), and returns the frame as one new skb, data at the STT header,
 * outer IP header at its network header, or NULL without memory.  Frees
 * @segs either way.  A frame whose payload had to be copied counts in
 * @counters (rx_frames_copied).
 *
 * The outer header is the first segment's, with CE set if any segment
 * met congestion (RFC 6040: the frame is what gets decapsulated).
 */
struct sk_buff *stt_frame_build(struct sk_buff *segs, u16 frame_len,
				struct stt_counters __percpu *counters)
{
	unsigned int linear = min_t(unsigned int, frame_len, FRAME_LINEAR);
	struct sk_buff *frame, *seg, *next, *first = segs;
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

	frame = frame_share(&list, first, frame_len, linear, &nomem);
	if (!frame && !nomem) {
		frame = frame_copy(&list, first, frame_len, linear);
		if (frame)
			stt_count(counters, STT_RX_FRAMES_COPIED);
	}
	if (frame && ce)
		stt_outer_set_ce(frame);

	list_for_each_entry_safe(seg, next, &list, list) {
		skb_list_del_init(seg);
		if (frame)
			consume_skb(seg);
		else
			kfree_skb_reason(seg, NO_FRAME);
	}
	return frame;
}
