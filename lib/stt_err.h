/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every reason lib/ rejects input.  The names returned by stt_err_name() are
 * user-visible (ethtool -S shows them as rx_err_<name>), so they must stay
 * stable once released; add new reasons just before STT_ERR_MAX.
 */
#ifndef _STT_ERR_H
#define _STT_ERR_H

#include "stt_types.h"

enum stt_err {
	STT_OK = 0,
	/* "frame_len": frame length shorter than header + inner Ethernet */
	STT_ERR_FRAME_LEN,
	/* "seg_empty": segment carries no payload */
	STT_ERR_SEG_EMPTY,
	/* "seg_offset": offset at or past the end of the frame */
	STT_ERR_SEG_OFFSET,
	/* "seg_len": offset + payload runs past the end of the frame */
	STT_ERR_SEG_LEN,
	/* "truncated": fewer than STT_HDR_LEN bytes to read the header from */
	STT_ERR_TRUNCATED,
	/* "version": version is not STT_VERSION */
	STT_ERR_VERSION,
	/* "reserved_flags": a bit of STT_FLAG_RESERVED is set */
	STT_ERR_FLAGS,
	/*
	 * "l4_offset": non-zero without checksum partial, or the inner L4
	 * header would not lie inside the inner frame
	 */
	STT_ERR_L4_OFFSET,
	/* "mss": MSS non-zero without checksum partial */
	STT_ERR_MSS,
	/* "duplicate": every byte of the segment was already received */
	STT_ERR_DUPLICATE,
	/* "overlap": some, but not all, bytes of the segment were received */
	STT_ERR_OVERLAP,
	/* "len_mismatch": frame length differs from the frame being built */
	STT_ERR_LEN_MISMATCH,
	/* "too_fragmented": would need more than STT_REASM_MAX_RANGES ranges */
	STT_ERR_TOO_FRAGMENTED,
	/* "mss_small": MSS non-zero and below STT_MIN_MSS */
	STT_ERR_MSS_SMALL,
	STT_ERR_MAX
};

/* Never NULL; "unknown" for values outside the enum. */
const char *stt_err_name(enum stt_err err);

#endif /* _STT_ERR_H */
