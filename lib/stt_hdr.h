/* SPDX-License-Identifier: GPL-2.0 */
/* Build and validate the STT header; the layout is described in stt_wire.h. */
#ifndef _STT_HDR_H
#define _STT_HDR_H

#include "stt_err.h"
#include "stt_types.h"
#include "stt_wire.h"

struct stt_hdr_fields {
	u8 flags;		/* STT_FLAG_* */
	u8 l4_offset;		/* only with STT_FLAG_CSUM_PARTIAL */
	u16 mss;		/* only with STT_FLAG_CSUM_PARTIAL */
	bool vlan_present;
	u16 vlan_tci;		/* PCP and VID; never has STT_VLAN_PRESENT */
	u64 context_id;
};

/*
 * Writes exactly STT_HDR_LEN bytes.  Flags are written as given, so a caller
 * that sets reserved bits gets them on the wire.
 */
void stt_hdr_build(void *buf, const struct stt_hdr_fields *f);

/*
 * @buf is the start of the STT header with @avail bytes readable there, and
 * @frame_len is the length of the whole STT frame (header and inner frame).
 * Reserved byte 3 and the padding are not checked.  Without a VLAN tag
 * vlan_tci is reported as 0 whatever the wire says.  *@f is written only when
 * STT_OK is returned.
 */
enum stt_err stt_hdr_parse(const void *buf, u32 avail, u32 frame_len,
			   struct stt_hdr_fields *f);

/* Offset of the checksum field within the inner L4 header. */
static inline u16 stt_hdr_csum_offset(const struct stt_hdr_fields *f)
{
	return (f->flags & STT_FLAG_TCP) ? 16 : 6;
}

#endif /* _STT_HDR_H */
