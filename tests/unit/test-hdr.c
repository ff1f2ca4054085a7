// SPDX-License-Identifier: GPL-2.0

#include "harness.h"
#include "tests.h"

#include <string.h>

#include "stt_hdr.h"

#define PARTIAL STT_FLAG_CSUM_PARTIAL
#define V4 STT_FLAG_IPV4
#define TCP STT_FLAG_TCP

/* Big enough for any L4 offset a header can carry. */
#define BIG_FRAME STT_MAX_FRAME_LEN

static const struct stt_hdr_fields sentinel = {
	.flags = 0x5a, .l4_offset = 0x5a, .mss = 0x5a5a,
	.vlan_present = true, .vlan_tci = 0x5a5a,
	.context_id = 0x5a5a5a5a5a5a5a5aULL,
};

static bool fields_equal(const struct stt_hdr_fields *a,
			 const struct stt_hdr_fields *b)
{
	return a->flags == b->flags && a->l4_offset == b->l4_offset &&
	       a->mss == b->mss && a->vlan_present == b->vlan_present &&
	       a->vlan_tci == b->vlan_tci && a->context_id == b->context_id;
}

/* Parses @buf and checks the verdict, and that *f is untouched on error. */
static bool parse_is(const void *buf, u32 avail, u32 frame_len,
		     enum stt_err want, int line)
{
	struct stt_hdr_fields f = sentinel;
	enum stt_err err = stt_hdr_parse(buf, avail, frame_len, &f);

	if (!check_err(__FILE__, line, "stt_hdr_parse()", err, want))
		return false;
	if (want != STT_OK)
		return check_true(__FILE__, line, "fields untouched on error",
				  fields_equal(&f, &sentinel));
	return true;
}

#define PARSE_IS(buf, avail, frame_len, want) \
	parse_is(buf, avail, frame_len, want, __LINE__)

/* A header that parses cleanly in any frame of at least 32 bytes. */
static void plain_hdr(u8 *buf)
{
	static const struct stt_hdr_fields f = {
		.flags = STT_FLAG_CSUM_VERIFIED | V4 | TCP,
		.context_id = 7,
	};

	stt_hdr_build(buf, &f);
}

void test_hdr_wire_bytes(void)
{
	static const struct stt_hdr_fields f = {
		.flags = PARTIAL | V4 | TCP,
		.l4_offset = 34,
		.mss = 1448,
		.vlan_present = true,
		.vlan_tci = 5 << 13 | 0x123,
		.context_id = 0x1122334455667788ULL,
	};
	static const u8 want[STT_HDR_LEN + 4] = {
		0x00, 0x0e, 0x22, 0x00, 0x05, 0xa8, 0xb1, 0x23,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x00, 0x00, 0xee, 0xee, 0xee, 0xee,
	};
	struct stt_hdr_fields got = sentinel;
	u8 buf[STT_HDR_LEN + 4];

	/* Every byte it owns is written, and not one beyond. */
	memset(buf, 0xee, sizeof(buf));
	stt_hdr_build(buf, &f);
	CHECK_MEM(buf, want, sizeof(buf));

	CHECK_ERR(stt_hdr_parse(buf, STT_HDR_LEN, 100, &got), STT_OK);
	CHECK(fields_equal(&got, &f));
}

void test_hdr_vlan_bits(void)
{
	struct stt_hdr_fields f = { .context_id = 1 }, got;
	u8 buf[STT_HDR_LEN];
	u32 tci;

	/* No tag: nothing of vlan_tci leaks onto the wire. */
	f.vlan_present = false;
	f.vlan_tci = 0xffff;
	stt_hdr_build(buf, &f);
	CHECK_EQ(stt_get_be16(buf + 6), 0);
	CHECK_ERR(stt_hdr_parse(buf, sizeof(buf), 64, &got), STT_OK);
	CHECK(!got.vlan_present);
	CHECK_EQ(got.vlan_tci, 0);

	/* The V bit comes from vlan_present only, in either direction. */
	f.vlan_present = true;
	for (tci = 0; tci <= 0xffff; tci++) {
		f.vlan_tci = tci;
		stt_hdr_build(buf, &f);
		if (!CHECK_EQ(stt_get_be16(buf + 6), tci | STT_VLAN_PRESENT))
			break;
		if (!CHECK_ERR(stt_hdr_parse(buf, sizeof(buf), 64, &got),
			       STT_OK) ||
		    !CHECK(got.vlan_present) ||
		    !CHECK_EQ(got.vlan_tci, tci & ~STT_VLAN_PRESENT))
			break;
	}

	/* PCP/VID bits without V on the wire mean no tag at all. */
	stt_put_be16(buf + 6, 0xefff);
	CHECK_ERR(stt_hdr_parse(buf, sizeof(buf), 64, &got), STT_OK);
	CHECK(!got.vlan_present);
	CHECK_EQ(got.vlan_tci, 0);
}

static u8 min_l4_offset(u8 flags)
{
	return 14 + ((flags & V4) ? 20 : 40);
}

static u8 l4_hdr_len(u8 flags)
{
	return (flags & TCP) ? 20 : 8;
}

void test_hdr_roundtrip(void)
{
	uint64_t rng = 0xdeadbeefcafef00dULL;
	struct stt_hdr_fields f, got;
	u8 buf[STT_HDR_LEN];
	unsigned int i, bit;

	for (i = 0; i < 20000; i++) {
		memset(&f, 0, sizeof(f));
		f.flags = prng_range(&rng, 0, 15);
		if (f.flags & PARTIAL) {
			f.l4_offset = prng_range(&rng, min_l4_offset(f.flags),
						 255);
			/* 0 (nothing to resegment) or from the floor up. */
			f.mss = prng_next(&rng) & 1 ?
				prng_range(&rng, STT_MIN_MSS, 0xffff) : 0;
		}
		f.vlan_present = prng_next(&rng) & 1;
		if (f.vlan_present)
			f.vlan_tci = prng_next(&rng) & ~STT_VLAN_PRESENT;
		f.context_id = prng_next(&rng);
		if (i < 64)
			f.context_id = 1ULL << i;
		else if (i == 64)
			f.context_id = ~0ULL;

		stt_hdr_build(buf, &f);
		memset(&got, 0x5a, sizeof(got));
		if (!CHECK_ERR(stt_hdr_parse(buf, sizeof(buf), BIG_FRAME, &got),
			       STT_OK) ||
		    !CHECK(fields_equal(&got, &f)))
			break;
	}

	/* Every field lands in its own bytes, most significant first. */
	memset(&f, 0, sizeof(f));
	for (bit = 0; bit < 64; bit++) {
		u8 want[STT_HDR_LEN] = { 0 };

		f.context_id = 1ULL << bit;
		want[15 - bit / 8] = 1 << (bit % 8);
		stt_hdr_build(buf, &f);
		CHECK_MEM(buf, want, sizeof(buf));
	}
	for (bit = 0; bit < 16; bit++) {
		u8 want[STT_HDR_LEN] = { 0 };

		f.context_id = 0;
		f.flags = PARTIAL | V4;
		f.l4_offset = 34;
		f.mss = 1 << bit;
		want[1] = PARTIAL | V4;
		want[2] = 34;
		want[5 - bit / 8] = 1 << (bit % 8);
		stt_hdr_build(buf, &f);
		CHECK_MEM(buf, want, sizeof(buf));
	}
}

void test_hdr_parse_truncated(void)
{
	u8 buf[STT_HDR_LEN];
	u32 avail;

	plain_hdr(buf);
	for (avail = 0; avail < STT_HDR_LEN; avail++)
		PARSE_IS(buf, avail, 100, STT_ERR_TRUNCATED);
	PARSE_IS(buf, STT_HDR_LEN, 100, STT_OK);
	PARSE_IS(buf, 100, 100, STT_OK);

	/* Nothing else is looked at without a whole header. */
	buf[0] = 1;
	PARSE_IS(buf, STT_HDR_LEN - 1, 0, STT_ERR_TRUNCATED);
}

void test_hdr_parse_frame_len(void)
{
	u8 buf[STT_HDR_LEN];
	u32 len;

	plain_hdr(buf);
	for (len = 0; len < STT_HDR_LEN + STT_INNER_MIN_LEN; len++)
		PARSE_IS(buf, sizeof(buf), len, STT_ERR_FRAME_LEN);
	PARSE_IS(buf, sizeof(buf), STT_HDR_LEN + STT_INNER_MIN_LEN, STT_OK);
	PARSE_IS(buf, sizeof(buf), BIG_FRAME, STT_OK);

	buf[0] = 1;
	PARSE_IS(buf, sizeof(buf), 31, STT_ERR_FRAME_LEN);
}

void test_hdr_parse_version(void)
{
	u8 buf[STT_HDR_LEN];
	unsigned int v;

	plain_hdr(buf);
	for (v = 1; v <= 255; v++) {
		buf[0] = v;
		PARSE_IS(buf, sizeof(buf), 100, STT_ERR_VERSION);
	}

	buf[0] = 1;
	buf[1] = 0xff;
	PARSE_IS(buf, sizeof(buf), 100, STT_ERR_VERSION);
}

void test_hdr_parse_reserved_flags(void)
{
	u8 buf[STT_HDR_LEN];
	unsigned int flags;

	for (flags = 0; flags <= 255; flags++) {
		plain_hdr(buf);
		buf[1] = flags;
		if (flags & PARTIAL)
			buf[2] = 54;
		PARSE_IS(buf, sizeof(buf), 100,
			 (flags & STT_FLAG_RESERVED) ? STT_ERR_FLAGS : STT_OK);
	}

	/* Reserved flags are reported before a bad L4 offset or MSS. */
	plain_hdr(buf);
	buf[1] = 0x80;
	buf[2] = 1;
	stt_put_be16(buf + 4, 1);
	PARSE_IS(buf, sizeof(buf), 100, STT_ERR_FLAGS);
}

void test_hdr_parse_l4_offset_unused(void)
{
	u8 buf[STT_HDR_LEN];
	unsigned int off, flags;

	for (flags = 0; flags < 16; flags++) {
		if (flags & PARTIAL)
			continue;
		for (off = 1; off <= 255; off++) {
			plain_hdr(buf);
			buf[1] = flags;
			buf[2] = off;
			PARSE_IS(buf, sizeof(buf), BIG_FRAME,
				 STT_ERR_L4_OFFSET);
		}
	}

	/* ... and before a bad MSS. */
	plain_hdr(buf);
	buf[2] = 34;
	stt_put_be16(buf + 4, 1448);
	PARSE_IS(buf, sizeof(buf), BIG_FRAME, STT_ERR_L4_OFFSET);
}

void test_hdr_parse_mss_unused(void)
{
	u8 buf[STT_HDR_LEN];
	unsigned int bit;

	for (bit = 0; bit < 16; bit++) {
		plain_hdr(buf);
		stt_put_be16(buf + 4, 1 << bit);
		PARSE_IS(buf, sizeof(buf), BIG_FRAME, STT_ERR_MSS);
	}
	plain_hdr(buf);
	PARSE_IS(buf, sizeof(buf), BIG_FRAME, STT_OK);
}

void test_hdr_parse_l4_offset_partial(void)
{
	static const u8 combos[] = { 0, V4, TCP, V4 | TCP };
	struct stt_hdr_fields f = { 0 };
	u8 buf[STT_HDR_LEN];
	unsigned int i, off;

	for (i = 0; i < ARRAY_SIZE(combos); i++) {
		u8 flags = PARTIAL | combos[i];
		u8 min = min_l4_offset(flags), l4 = l4_hdr_len(flags);

		f.flags = flags;
		f.mss = 1400;
		for (off = 0; off <= 255; off++) {
			f.l4_offset = off;
			stt_hdr_build(buf, &f);
			PARSE_IS(buf, sizeof(buf), BIG_FRAME,
				 off < min ? STT_ERR_L4_OFFSET : STT_OK);
		}

		/* The minimal L4 header must end inside the inner frame. */
		f.l4_offset = min;
		stt_hdr_build(buf, &f);
		PARSE_IS(buf, sizeof(buf), STT_HDR_LEN + min + l4, STT_OK);
		PARSE_IS(buf, sizeof(buf), STT_HDR_LEN + min + l4 - 1,
			 STT_ERR_L4_OFFSET);
		f.l4_offset = 255;
		stt_hdr_build(buf, &f);
		PARSE_IS(buf, sizeof(buf), STT_HDR_LEN + 255 + l4, STT_OK);
		PARSE_IS(buf, sizeof(buf), STT_HDR_LEN + 255 + l4 - 1,
			 STT_ERR_L4_OFFSET);
	}

	/* With a partial checksum a zero MSS is fine (UDP, small TCP). */
	f.flags = PARTIAL | V4;
	f.l4_offset = 34;
	f.mss = 0;
	stt_hdr_build(buf, &f);
	PARSE_IS(buf, sizeof(buf), 100, STT_OK);
}

void test_hdr_parse_mss_floor(void)
{
	struct stt_hdr_fields f = { .flags = PARTIAL | V4 | TCP,
				    .l4_offset = 34 };
	u8 buf[STT_HDR_LEN];
	unsigned int mss;

	for (mss = 1; mss <= STT_MIN_MSS + 1; mss++) {
		f.mss = mss;
		stt_hdr_build(buf, &f);
		PARSE_IS(buf, sizeof(buf), BIG_FRAME,
			 mss < STT_MIN_MSS ? STT_ERR_MSS_SMALL : STT_OK);
	}
	f.mss = 0xffff;
	stt_hdr_build(buf, &f);
	PARSE_IS(buf, sizeof(buf), BIG_FRAME, STT_OK);
}

void test_hdr_parse_liberal(void)
{
	static const struct stt_hdr_fields f = {
		.flags = STT_FLAG_CSUM_VERIFIED | TCP,
		.vlan_present = true,
		.vlan_tci = 100,
		.context_id = 0x0102030405060708ULL,
	};
	struct stt_hdr_fields got;
	u8 buf[STT_HDR_LEN];

	stt_hdr_build(buf, &f);
	buf[3] = 0xff;
	buf[16] = 0xff;
	buf[17] = 0xff;
	memset(&got, 0, sizeof(got));
	CHECK_ERR(stt_hdr_parse(buf, sizeof(buf), 100, &got), STT_OK);
	CHECK(fields_equal(&got, &f));
}

void test_hdr_csum_offset(void)
{
	struct stt_hdr_fields f = { 0 };
	unsigned int flags;

	for (flags = 0; flags <= 255; flags++) {
		f.flags = flags;
		CHECK_EQ(stt_hdr_csum_offset(&f), (flags & TCP) ? 16 : 6);
	}
}
