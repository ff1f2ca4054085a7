/* SPDX-License-Identifier: GPL-2.0 */
/*
 * STT wire format.
 *
 * An STT frame is an 18-byte STT header followed by the inner Ethernet frame
 * (no FCS), at most STT_MAX_FRAME_LEN bytes in all. It is carried in one or
 * more IP packets (protocol 6) whose 20-byte TCP-like header has no options:
 *
 *   source port      flow-entropy hash of the inner packet
 *   dest port        STT_DEFAULT_PORT unless configured otherwise
 *   sequence         frame length << 16 | offset of this segment's payload in
 *                    the frame (see stt_seq_encode())
 *   acknowledgment   frame identifier: the same in every segment of a frame,
 *                    different between frames that may be in flight together
 *                    (see stt_frame_id_next())
 *   data offset      STT_TCP_DOFF; flags ACK and PSH; window STT_TCP_WINDOW
 *   checksum         a real TCP checksum over pseudo-header and segment
 *
 * Only the first segment carries the STT header, all fields big-endian:
 *
 *   byte 0      version, STT_VERSION; anything else is dropped
 *   byte 1      flags, STT_FLAG_*
 *   byte 2      offset of the inner L4 header from the start of the inner
 *               Ethernet header; non-zero only with STT_FLAG_CSUM_PARTIAL
 *   byte 3      reserved, 0
 *   bytes 4-5   MSS for re-segmenting a large inner TCP packet; 0 without
 *               STT_FLAG_CSUM_PARTIAL, else 0 or at least STT_MIN_MSS
 *   bytes 6-7   PCP(3) V(1) VID(12) of the inner 802.1Q tag taken out of the
 *               frame; V (STT_VLAN_PRESENT) says a tag is present
 *   bytes 8-15  context ID, the 64-bit virtual network id
 *   bytes 16-17 padding, 0; aligns the inner IP header
 */
#ifndef _STT_WIRE_H
#define _STT_WIRE_H

#include "stt_types.h"

#define STT_HDR_LEN 18
#define STT_DEFAULT_PORT 7471
#define STT_MAX_FRAME_LEN 65535U	/* STT header + inner Ethernet frame */
#define STT_INNER_MIN_LEN 14		/* an inner Ethernet header */
#define STT_VERSION 0
/*
 * Smallest MSS a receiver re-segments at: bounds a 64 KiB frame to 256
 * segments (MSS 1 would make 65,000 of them).  Senders segment anything
 * finer in software before it becomes a frame.
 */
#define STT_MIN_MSS 256

#define STT_FLAG_CSUM_VERIFIED 0x01	/* inner checksum already verified */
#define STT_FLAG_CSUM_PARTIAL 0x02	/* L4 offset and MSS are meaningful */
#define STT_FLAG_IPV4 0x04		/* inner L3 is IPv4, else IPv6 */
#define STT_FLAG_TCP 0x08		/* inner L4 is TCP, else UDP */
#define STT_FLAG_RESERVED 0xF0

#define STT_VLAN_PRESENT 0x1000

#define STT_TCP_DOFF 5
#define STT_TCP_WINDOW 65535

/* Byte-wise so that callers need not care about alignment or host order. */
static inline u16 stt_get_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 stt_get_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 stt_get_be64(const void *p)
{
	const u8 *b = p;

	return (u64)stt_get_be32(b) << 32 | stt_get_be32(b + 4);
}

static inline void stt_put_be16(void *p, u16 v)
{
	u8 *b = p;

	b[0] = (u8)(v >> 8);
	b[1] = (u8)v;
}

static inline void stt_put_be32(void *p, u32 v)
{
	u8 *b = p;

	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

static inline void stt_put_be64(void *p, u64 v)
{
	u8 *b = p;

	stt_put_be32(b, (u32)(v >> 32));
	stt_put_be32(b + 4, (u32)v);
}

static inline u32 stt_seq_encode(u16 frame_len, u16 offset)
{
	return (u32)frame_len << 16 | offset;
}

static inline u16 stt_seq_frame_len(u32 seq)
{
	return (u16)(seq >> 16);
}

static inline u16 stt_seq_offset(u32 seq)
{
	return (u16)seq;
}

/*
 * Frame identifiers only have to differ between frames that may be in flight
 * together, but must be cheap to hand out on every CPU at once.  A sender
 * keeps one cursor per CPU, starts it at the CPU number and advances it by
 * the number of CPUs (stride > 0): each CPU then produces only ids congruent
 * to its own number modulo the stride, so ids from different CPUs never
 * collide until one CPU has sent 2^32 / stride frames and its cursor wraps.
 * The caller provides whatever exclusion the cursor needs (per-CPU data with
 * preemption disabled is enough).
 */
static inline u32 stt_frame_id_next(u32 *cursor, u32 stride)
{
	u32 id = *cursor;

	*cursor = id + stride;
	return id;
}

#endif /* _STT_WIRE_H */
