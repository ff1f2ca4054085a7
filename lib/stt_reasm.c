// SPDX-License-Identifier: GPL-2.0

#include "stt_reasm.h"
#include "stt_wire.h"

enum stt_err stt_seg_check(u32 seq, u32 payload_len, u16 *frame_len,
			   u16 *offset)
{
	u16 len = stt_seq_frame_len(seq);
	u16 off = stt_seq_offset(seq);

	if (len < STT_HDR_LEN + STT_INNER_MIN_LEN)
		return STT_ERR_FRAME_LEN;
	if (!payload_len)
		return STT_ERR_SEG_EMPTY;
	if (off >= len)
		return STT_ERR_SEG_OFFSET;
	if (payload_len > (u32)(len - off))
		return STT_ERR_SEG_LEN;

	*frame_len = len;
	*offset = off;
	return STT_OK;
}

void stt_reasm_init(struct stt_reasm *r, u16 frame_len)
{
	r->frame_len = frame_len;
	r->nr_ranges = 0;
	r->received = 0;
}

/* Index of the first range ending after @pos, or nr_ranges if none does. */
static unsigned int first_ending_after(const struct stt_reasm *r, u16 pos)
{
	unsigned int lo = 0, hi = r->nr_ranges;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (r->ranges[mid].end > pos)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Puts [start, end) at index @i, where every range before @i ends at or
 * before @start and every range from @i on begins at or after @end.
 */
static enum stt_err insert(struct stt_reasm *r, unsigned int i, u16 start,
			   u16 end)
{
	struct stt_range *rg = r->ranges;
	bool join_prev = i > 0 && rg[i - 1].end == start;
	bool join_next = i < r->nr_ranges && rg[i].start == end;
	unsigned int j;

	if (join_prev && join_next) {
		rg[i - 1].end = rg[i].end;
		for (j = i + 1; j < r->nr_ranges; j++)
			rg[j - 1] = rg[j];
		r->nr_ranges--;
	} else if (join_prev) {
		rg[i - 1].end = end;
	} else if (join_next) {
		rg[i].start = start;
	} else {
		if (r->nr_ranges == STT_REASM_MAX_RANGES)
			return STT_ERR_TOO_FRAGMENTED;
		for (j = r->nr_ranges; j > i; j--)
			rg[j] = rg[j - 1];
		rg[i].start = start;
		rg[i].end = end;
		r->nr_ranges++;
	}
	r->received += end - start;
	return STT_OK;
}

enum stt_err stt_reasm_add(struct stt_reasm *r, u16 frame_len, u16 offset,
			   u16 len)
{
	const struct stt_range *rg = r->ranges;
	unsigned int n = r->nr_ranges, i;
	u32 end = (u32)offset + len;

	if (frame_len != r->frame_len)
		return STT_ERR_LEN_MISMATCH;
	if (!len)
		return STT_ERR_SEG_EMPTY;
	if (end > frame_len)
		return STT_ERR_SEG_LEN;
	/* So end fits in a u16 from here on. */

	/* Segments mostly arrive in order: appending needs no search. */
	if (!n || offset >= rg[n - 1].end)
		return insert(r, n, offset, (u16)end);

	/*
	 * rg[i] is the first range that can hold bytes of the segment; as
	 * ranges never touch, a segment of received bytes lies within it.
	 */
	i = first_ending_after(r, offset);
	if (offset >= rg[i].start && end <= rg[i].end)
		return STT_ERR_DUPLICATE;
	if (end > rg[i].start)
		return STT_ERR_OVERLAP;
	return insert(r, i, offset, (u16)end);
}
