// SPDX-License-Identifier: GPL-2.0

#include "stt_hdr.h"

enum {
	OFF_VERSION = 0,
	OFF_FLAGS = 1,
	OFF_L4_OFFSET = 2,
	OFF_RESERVED = 3,
	OFF_MSS = 4,
	OFF_VLAN = 6,
	OFF_CONTEXT = 8,
	OFF_PADDING = 16,
};

/* A TCI without the V bit: PCP and VID. */
#define TCI_PCP_VID ((u16)~STT_VLAN_PRESENT)

enum {
	INNER_IPV4_MIN_LEN = 20,
	INNER_IPV6_LEN = 40,
	INNER_TCP_MIN_LEN = 20,
	INNER_UDP_LEN = 8,
};

void stt_hdr_build(void *buf, const struct stt_hdr_fields *f)
{
	u8 *b = buf;
	u16 tci = 0;

	if (f->vlan_present)
		tci = (f->vlan_tci & TCI_PCP_VID) | STT_VLAN_PRESENT;

	b[OFF_VERSION] = STT_VERSION;
	b[OFF_FLAGS] = f->flags;
	b[OFF_L4_OFFSET] = f->l4_offset;
	b[OFF_RESERVED] = 0;
	stt_put_be16(b + OFF_MSS, f->mss);
	stt_put_be16(b + OFF_VLAN, tci);
	stt_put_be64(b + OFF_CONTEXT, f->context_id);
	stt_put_be16(b + OFF_PADDING, 0);
}

/*
 * The receiver of a partial checksum finishes it at l4_offset plus the
 * checksum offset, so at least a minimal L3 header has to precede the L4
 * header and a minimal L4 header has to fit in the inner frame.
 */
static bool l4_offset_valid(u8 flags, u8 l4_offset, u32 inner_len)
{
	u32 l3_len = (flags & STT_FLAG_IPV4) ? INNER_IPV4_MIN_LEN :
					       INNER_IPV6_LEN;
	u32 l4_len = (flags & STT_FLAG_TCP) ? INNER_TCP_MIN_LEN :
					      INNER_UDP_LEN;

	return l4_offset >= STT_INNER_MIN_LEN + l3_len &&
	       l4_offset + l4_len <= inner_len;
}

enum stt_err stt_hdr_parse(const void *buf, u32 avail, u32 frame_len,
			   struct stt_hdr_fields *f)
{
	const u8 *b = buf;
	u8 flags, l4_offset;
	u16 mss, tci;

	if (avail < STT_HDR_LEN)
		return STT_ERR_TRUNCATED;
	if (frame_len < STT_HDR_LEN + STT_INNER_MIN_LEN)
		return STT_ERR_FRAME_LEN;
	if (b[OFF_VERSION] != STT_VERSION)
		return STT_ERR_VERSION;

	flags = b[OFF_FLAGS];
	l4_offset = b[OFF_L4_OFFSET];
	mss = stt_get_be16(b + OFF_MSS);

	if (flags & STT_FLAG_RESERVED)
		return STT_ERR_FLAGS;
	if (flags & STT_FLAG_CSUM_PARTIAL) {
		if (!l4_offset_valid(flags, l4_offset,
				     frame_len - STT_HDR_LEN))
			return STT_ERR_L4_OFFSET;
		if (mss && mss < STT_MIN_MSS)
			return STT_ERR_MSS_SMALL;
	} else {
		if (l4_offset)
			return STT_ERR_L4_OFFSET;
		if (mss)
			return STT_ERR_MSS;
	}

	tci = stt_get_be16(b + OFF_VLAN);
	f->flags = flags;
	f->l4_offset = l4_offset;
	f->mss = mss;
	f->vlan_present = tci & STT_VLAN_PRESENT;
	f->vlan_tci = f->vlan_present ? tci & TCI_PCP_VID : 0;
	f->context_id = stt_get_be64(b + OFF_CONTEXT);
	return STT_OK;
}
