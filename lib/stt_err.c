// SPDX-License-Identifier: GPL-2.0

#include "stt_err.h"

static const char * const names[STT_ERR_MAX] = {
	[STT_OK] = "ok",
	[STT_ERR_FRAME_LEN] = "frame_len",
	[STT_ERR_SEG_EMPTY] = "seg_empty",
	[STT_ERR_SEG_OFFSET] = "seg_offset",
	[STT_ERR_SEG_LEN] = "seg_len",
	[STT_ERR_TRUNCATED] = "truncated",
	[STT_ERR_VERSION] = "version",
	[STT_ERR_FLAGS] = "reserved_flags",
	[STT_ERR_L4_OFFSET] = "l4_offset",
	[STT_ERR_MSS] = "mss",
	[STT_ERR_DUPLICATE] = "duplicate",
	[STT_ERR_OVERLAP] = "overlap",
	[STT_ERR_LEN_MISMATCH] = "len_mismatch",
	[STT_ERR_TOO_FRAGMENTED] = "too_fragmented",
	[STT_ERR_MSS_SMALL] = "mss_small",
};

const char *stt_err_name(enum stt_err err)
{
	/* The cast also catches negative values smuggled into the enum. */
	if ((unsigned int)err >= STT_ERR_MAX || !names[err])
		return "unknown";
	return names[err];
}
