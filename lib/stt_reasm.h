/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Segment validation and reassembly bookkeeping.  The caller keeps the packet
 * buffers; this only tracks which byte ranges of a frame have arrived and
 * refuses segments that would make the frame ambiguous.
 */
#ifndef _STT_REASM_H
#define _STT_REASM_H

#include "stt_err.h"
#include "stt_types.h"

/*
 * Decodes the sequence number of a segment carrying @payload_len bytes.
 * *@frame_len and *@offset are written only when STT_OK is returned.
 */
enum stt_err stt_seg_check(u32 seq, u32 payload_len, u16 *frame_len,
			   u16 *offset);

/* Bounds the state per frame however hostile the segmentation. */
#define STT_REASM_MAX_RANGES 32

struct stt_range {
	u16 start;
	u16 end;		/* exclusive */
};

struct stt_reasm {
	u16 frame_len;
	u16 nr_ranges;
	u32 received;		/* bytes covered by ranges */
	/* sorted, disjoint, non-adjacent: adjacent ranges are merged */
	struct stt_range ranges[STT_REASM_MAX_RANGES];
};

void stt_reasm_init(struct stt_reasm *r, u16 frame_len);

/*
 * Records bytes [@offset, @offset + @len) of a frame of @frame_len bytes.
 * Accepts only segments made entirely of new bytes, so that no byte of the
 * frame can come from two different packets.  On error *@r is unchanged.
 */
enum stt_err stt_reasm_add(struct stt_reasm *r, u16 frame_len, u16 offset,
			   u16 len);

static inline bool stt_reasm_complete(const struct stt_reasm *r)
{
	return r->received == r->frame_len;
}

#endif /* _STT_REASM_H */
