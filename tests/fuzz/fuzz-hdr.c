// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the STT header parser and builder (lib/stt_hdr.c).
 *
 * Input: 5 control bytes, then the bytes at the start of the STT frame.
 *
 *   byte 0       avail: how many of the following bytes the parser may read
 *                (0xff: all of them; else at most this many)
 *   bytes 1-4    frame_len, big-endian (the length of the whole STT frame)
 *   bytes 5...   the header bytes, copied to a heap buffer of exactly
 *                avail bytes so that AddressSanitizer catches any read past
 *                avail
 *
 * Checked for every input:
 *  - the verdict of stt_hdr_parse() is the first rule that fails, in the
 *    documented order, according to ref_verdict() below, which is written
 *    from stt_wire.h and stt_err.h and shares no code with lib/;
 *  - on error the output fields are left untouched;
 *  - on STT_OK every field is what the wire says, as documented (reserved
 *    byte and padding ignored, vlan_tci without the V bit and 0 without a
 *    tag), and build(parse(x)) gives back the wire bytes except the reserved
 *    byte, the padding and, without a tag, the TCI;
 *  - parse(build(parse(x))) == parse(x);
 *  - the verdict does not depend on bytes past the header;
 *  - stt_hdr_build() of fields taken straight from the input writes exactly
 *    18 bytes laid out as documented.
 */

#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stt_hdr.h"

#define CTRL_LEN 5

/* Wire layout, from the table in stt_wire.h. */
#define W_VERSION 0
#define W_FLAGS 1
#define W_L4_OFFSET 2
#define W_RESERVED 3
#define W_MSS 4
#define W_TCI 6
#define W_CONTEXT 8
#define W_PADDING 16
#define W_LEN 18

#define V_BIT 0x1000

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * The reference: each rule is a predicate on (header, avail, frame_len) that
 * holds for a good header; the verdict is the error of the first that fails.
 * The order is the one stt_hdr.h and the unit tests document: whole header,
 * frame length, version, reserved flags, L4 offset, MSS.
 */
struct input {
	const uint8_t *b;
	uint64_t avail;
	uint64_t frame_len;
};

static bool has_whole_header(const struct input *in)
{
	return in->avail >= W_LEN;
}

static bool frame_holds_inner_eth(const struct input *in)
{
	return in->frame_len >= W_LEN + 14;
}

static bool version_zero(const struct input *in)
{
	return in->b[W_VERSION] == 0;
}

static bool no_reserved_flags(const struct input *in)
{
	return (in->b[W_FLAGS] & 0xf0) == 0;
}

static bool partial(const struct input *in)
{
	return in->b[W_FLAGS] & 0x02;
}

/*
 * With a partial checksum: Ethernet (14) + minimal L3 (IPv4 20, IPv6 40)
 * before the L4 header, and a minimal L4 header (TCP 20, UDP 8) inside the
 * inner frame.  Without: zero.
 */
static bool l4_offset_ok(const struct input *in)
{
	uint64_t off = in->b[W_L4_OFFSET];
	uint64_t l3 = (in->b[W_FLAGS] & 0x04) ? 20 : 40;
	uint64_t l4 = (in->b[W_FLAGS] & 0x08) ? 20 : 8;

	if (!partial(in))
		return off == 0;
	return off >= 14 + l3 && off + l4 + W_LEN <= in->frame_len;
}

static bool mss_ok(const struct input *in)
{
	return partial(in) || be16(in->b + W_MSS) == 0;
}

/* With a partial checksum: 0, or no finer than STT_MIN_MSS. */
static bool mss_floor_ok(const struct input *in)
{
	uint16_t mss = be16(in->b + W_MSS);

	return !partial(in) || mss == 0 || mss >= STT_MIN_MSS;
}

static const struct rule {
	bool (*holds)(const struct input *);
	enum stt_err err;
} rules[] = {
	{ has_whole_header, STT_ERR_TRUNCATED },
	{ frame_holds_inner_eth, STT_ERR_FRAME_LEN },
	{ version_zero, STT_ERR_VERSION },
	{ no_reserved_flags, STT_ERR_FLAGS },
	{ l4_offset_ok, STT_ERR_L4_OFFSET },
	{ mss_ok, STT_ERR_MSS },
	{ mss_floor_ok, STT_ERR_MSS_SMALL },
};

static enum stt_err ref_verdict(const struct input *in)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!rules[i].holds(in))
			return rules[i].err;
	return STT_OK;
}

static void check_fields(const struct input *in,
			 const struct stt_hdr_fields *f)
{
	const uint8_t *b = in->b;
	uint16_t tci = be16(b + W_TCI);

	FUZZ_CHECK(f->flags == b[W_FLAGS], "flags 0x%x", f->flags);
	FUZZ_CHECK(!(f->flags & STT_FLAG_RESERVED), "flags 0x%x", f->flags);
	FUZZ_CHECK(f->l4_offset == b[W_L4_OFFSET], "l4_offset %u",
		   f->l4_offset);
	FUZZ_CHECK(f->mss == be16(b + W_MSS), "mss %u", f->mss);
	if (!(f->flags & STT_FLAG_CSUM_PARTIAL))
		FUZZ_CHECK(!f->l4_offset && !f->mss, "l4_offset %u mss %u",
			   f->l4_offset, f->mss);
	FUZZ_CHECK(f->vlan_present == !!(tci & V_BIT), "tci 0x%04x", tci);
	FUZZ_CHECK(!(f->vlan_tci & V_BIT), "vlan_tci 0x%04x", f->vlan_tci);
	FUZZ_CHECK(f->vlan_tci == (f->vlan_present ? (tci & ~V_BIT) : 0),
		   "vlan_tci 0x%04x, wire 0x%04x", f->vlan_tci, tci);
	FUZZ_CHECK(f->context_id == be64(b + W_CONTEXT), "context_id");
}

static bool fields_equal(const struct stt_hdr_fields *a,
			 const struct stt_hdr_fields *b)
{
	return a->flags == b->flags && a->l4_offset == b->l4_offset &&
	       a->mss == b->mss && a->vlan_present == b->vlan_present &&
	       a->vlan_tci == b->vlan_tci && a->context_id == b->context_id;
}

/* build(parse(x)) against x, then parse(build(parse(x))) against parse(x). */
static void check_rebuild(const struct input *in,
			  const struct stt_hdr_fields *f)
{
	uint8_t *out = malloc(W_LEN);
	struct stt_hdr_fields again;
	size_t i;

	FUZZ_CHECK(out, "out of memory");
	stt_hdr_build(out, f);
	for (i = 0; i < W_LEN; i++) {
		uint8_t want = in->b[i];

		if (i == W_RESERVED || i == W_PADDING || i == W_PADDING + 1)
			want = 0;
		else if ((i == W_TCI || i == W_TCI + 1) && !f->vlan_present)
			want = 0;
		FUZZ_CHECK(out[i] == want, "rebuilt byte %zu: 0x%02x, want 0x%02x",
			   i, out[i], want);
	}

	memset(&again, 0xa5, sizeof(again));
	FUZZ_CHECK(stt_hdr_parse(out, W_LEN, (uint32_t)in->frame_len, &again) ==
		   STT_OK, "rebuilt header refused");
	FUZZ_CHECK(fields_equal(&again, f), "rebuilt header parses differently");
	free(out);
}

/* stt_hdr_build() from arbitrary fields, judged against the layout. */
static void check_build(const uint8_t *data, size_t size)
{
	struct stt_hdr_fields f;
	uint8_t *out;
	uint16_t tci;

	if (size < 16)
		return;
	memset(&f, 0, sizeof(f));
	f.flags = data[0];
	f.l4_offset = data[1];
	f.mss = be16(data + 2);
	f.vlan_present = data[4] & 1;
	f.vlan_tci = be16(data + 6);
	f.context_id = be64(data + 8);

	out = malloc(W_LEN);
	FUZZ_CHECK(out, "out of memory");
	stt_hdr_build(out, &f);
	tci = f.vlan_present ? (uint16_t)(f.vlan_tci | V_BIT) : 0;
	FUZZ_CHECK(out[W_VERSION] == 0, "built version");
	FUZZ_CHECK(out[W_FLAGS] == f.flags, "built flags");
	FUZZ_CHECK(out[W_L4_OFFSET] == f.l4_offset, "built l4_offset");
	FUZZ_CHECK(out[W_RESERVED] == 0, "built reserved byte");
	FUZZ_CHECK(be16(out + W_MSS) == f.mss, "built mss");
	FUZZ_CHECK(be16(out + W_TCI) == tci, "built tci 0x%04x, want 0x%04x",
		   be16(out + W_TCI), tci);
	FUZZ_CHECK(be64(out + W_CONTEXT) == f.context_id, "built context id");
	FUZZ_CHECK(!out[W_PADDING] && !out[W_PADDING + 1], "built padding");
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stt_hdr_fields f, sentinel, g;
	enum stt_err got, want;
	struct input in;
	uint8_t *buf;
	size_t avail;

	if (size < CTRL_LEN)
		return 0;
	avail = size - CTRL_LEN;
	if (data[0] != 0xff && data[0] < avail)
		avail = data[0];

	/* malloc(0) may return NULL; a 1-byte buffer is still exact enough
	 * for avail 0, as the parser must not read anything then.
	 */
	buf = malloc(avail ? avail : 1);
	FUZZ_CHECK(buf, "out of memory");
	memcpy(buf, data + CTRL_LEN, avail);

	in.b = buf;
	in.avail = avail;
	in.frame_len = (uint64_t)data[1] << 24 | data[2] << 16 |
		       data[3] << 8 | data[4];

	memset(&sentinel, 0x5a, sizeof(sentinel));
	f = sentinel;
	got = stt_hdr_parse(buf, (uint32_t)avail, (uint32_t)in.frame_len, &f);
	want = ref_verdict(&in);
	if (fuzz_trace())
		fprintf(stderr, "avail %zu, frame_len %llu: %s\n", avail,
			(unsigned long long)in.frame_len, stt_err_name(got));
	FUZZ_CHECK(got == want, "parse(avail %zu, frame_len %llu): %s, want %s",
		   avail, (unsigned long long)in.frame_len, stt_err_name(got),
		   stt_err_name(want));

	if (got != STT_OK) {
		FUZZ_CHECK(!memcmp(&f, &sentinel, sizeof(f)),
			   "fields written on error %s", stt_err_name(got));
	} else {
		check_fields(&in, &f);
		check_rebuild(&in, &f);
	}

	/* Bytes past the header are not the parser's business. */
	if (avail > W_LEN) {
		g = sentinel;
		FUZZ_CHECK(stt_hdr_parse(buf, W_LEN, (uint32_t)in.frame_len,
					 &g) == got,
			   "verdict depends on bytes past the header");
		FUZZ_CHECK(got != STT_OK || fields_equal(&f, &g),
			   "fields depend on bytes past the header");
	}
	free(buf);

	check_build(data + CTRL_LEN, size - CTRL_LEN);
	return 0;
}
