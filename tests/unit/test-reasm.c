// SPDX-License-Identifier: GPL-2.0

#include "harness.h"
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "stt_reasm.h"
#include "stt_wire.h"

#define MIN_FRAME (STT_HDR_LEN + STT_INNER_MIN_LEN)

static bool seg_check_is(u32 seq, u32 payload_len, enum stt_err want,
			 int line)
{
	u16 frame_len = 0xdead, offset = 0xbeef;
	enum stt_err err = stt_seg_check(seq, payload_len, &frame_len, &offset);

	if (!check_err(__FILE__, line, "stt_seg_check()", err, want))
		return false;
	if (want == STT_OK)
		return check_eq(__FILE__, line, "frame_len", "seq >> 16",
				frame_len, seq >> 16) &&
		       check_eq(__FILE__, line, "offset", "seq & 0xffff",
				offset, seq & 0xffff);
	return check_true(__FILE__, line, "outputs untouched on error",
			  frame_len == 0xdead && offset == 0xbeef);
}

#define SEG_CHECK_IS(seq, payload_len, want) \
	seg_check_is(seq, payload_len, want, __LINE__)

void test_seg_check_ok(void)
{
	SEG_CHECK_IS(stt_seq_encode(MIN_FRAME, 0), MIN_FRAME, STT_OK);
	SEG_CHECK_IS(stt_seq_encode(MIN_FRAME, 0), 1, STT_OK);
	SEG_CHECK_IS(stt_seq_encode(MIN_FRAME, MIN_FRAME - 1), 1, STT_OK);
	SEG_CHECK_IS(stt_seq_encode(9000, 1448), 1448, STT_OK);
	SEG_CHECK_IS(stt_seq_encode(9000, 8000), 1000, STT_OK);
	SEG_CHECK_IS(stt_seq_encode(0xffff, 0), 0xffff, STT_OK);
	SEG_CHECK_IS(stt_seq_encode(0xffff, 0xfffe), 1, STT_OK);
}

void test_seg_check_errors(void)
{
	u32 len;

	for (len = 0; len < MIN_FRAME; len++) {
		SEG_CHECK_IS(stt_seq_encode(len, 0), 1, STT_ERR_FRAME_LEN);
		SEG_CHECK_IS(stt_seq_encode(len, 0), 0, STT_ERR_FRAME_LEN);
	}

	SEG_CHECK_IS(stt_seq_encode(100, 0), 0, STT_ERR_SEG_EMPTY);
	SEG_CHECK_IS(stt_seq_encode(100, 200), 0, STT_ERR_SEG_EMPTY);

	SEG_CHECK_IS(stt_seq_encode(100, 100), 1, STT_ERR_SEG_OFFSET);
	SEG_CHECK_IS(stt_seq_encode(100, 101), 1, STT_ERR_SEG_OFFSET);
	SEG_CHECK_IS(stt_seq_encode(100, 0xffff), 1, STT_ERR_SEG_OFFSET);
	SEG_CHECK_IS(stt_seq_encode(0xffff, 0xffff), 1, STT_ERR_SEG_OFFSET);

	SEG_CHECK_IS(stt_seq_encode(100, 0), 101, STT_ERR_SEG_LEN);
	SEG_CHECK_IS(stt_seq_encode(100, 99), 2, STT_ERR_SEG_LEN);
	SEG_CHECK_IS(stt_seq_encode(0xffff, 0xfffe), 2, STT_ERR_SEG_LEN);
	/* Must not wrap around to a small sum. */
	SEG_CHECK_IS(stt_seq_encode(100, 1), 0xffffffff, STT_ERR_SEG_LEN);
	SEG_CHECK_IS(stt_seq_encode(100, 1), 0xffffff9c, STT_ERR_SEG_LEN);
}

/* Checks the invariants stt_reasm documents, whatever was fed to it. */
static bool reasm_valid(const struct stt_reasm *r, int line)
{
	u32 sum = 0, i;

	if (!check_true(__FILE__, line, "nr_ranges <= MAX",
			r->nr_ranges <= STT_REASM_MAX_RANGES))
		return false;
	for (i = 0; i < r->nr_ranges; i++) {
		const struct stt_range *rg = &r->ranges[i];

		/* Sorted, non-empty, apart from the previous, in the frame. */
		if (!check_true(__FILE__, line, "range is well-formed",
				rg->start < rg->end &&
				rg->end <= r->frame_len &&
				(!i || rg[-1].end < rg->start)))
			return false;
		sum += rg->end - rg->start;
	}
	return check_eq(__FILE__, line, "received", "sum of ranges",
			r->received, sum) &&
	       check_eq(__FILE__, line, "complete", "received == frame_len",
			stt_reasm_complete(r), r->received == r->frame_len);
}

static bool reasm_same(const struct stt_reasm *a, const struct stt_reasm *b)
{
	return a->frame_len == b->frame_len &&
	       a->nr_ranges == b->nr_ranges && a->received == b->received &&
	       !memcmp(a->ranges, b->ranges,
		       a->nr_ranges * sizeof(a->ranges[0]));
}

/* Adds a segment, checks the verdict, the invariants and, on error, that
 * nothing changed.
 */
static bool add_is(struct stt_reasm *r, u16 frame_len, u16 offset, u16 len,
		   enum stt_err want, int line)
{
	struct stt_reasm before = *r;
	enum stt_err err = stt_reasm_add(r, frame_len, offset, len);

	if (!check_err(__FILE__, line, "stt_reasm_add()", err, want))
		return false;
	if (err != STT_OK &&
	    !check_true(__FILE__, line, "unchanged on error",
			reasm_same(r, &before)))
		return false;
	return reasm_valid(r, line);
}

#define ADD_IS(r, frame_len, offset, len, want) \
	add_is(r, frame_len, offset, len, want, __LINE__)
#define ADD_OK(r, offset, len) \
	ADD_IS(r, (r)->frame_len, offset, len, STT_OK)

/* Checks the exact ranges, given as start, end pairs. */
static bool ranges_are(const struct stt_reasm *r, const u16 *want,
		       unsigned int n, int line)
{
	unsigned int i;

	if (!check_eq(__FILE__, line, "nr_ranges", "expected", r->nr_ranges,
		      n))
		return false;
	for (i = 0; i < n; i++)
		if (!check_eq(__FILE__, line, "start", "expected",
			      r->ranges[i].start, want[2 * i]) ||
		    !check_eq(__FILE__, line, "end", "expected",
			      r->ranges[i].end, want[2 * i + 1]))
			return false;
	return true;
}

#define RANGES_ARE(r, ...) do { \
	const u16 want_[] = { __VA_ARGS__ }; \
	ranges_are(r, want_, ARRAY_SIZE(want_) / 2, __LINE__); \
} while (0)

void test_reasm_in_order(void)
{
	struct stt_reasm r;
	u32 off;

	stt_reasm_init(&r, 1000);
	CHECK_EQ(r.frame_len, 1000);
	CHECK_EQ(r.nr_ranges, 0);
	CHECK_EQ(r.received, 0);
	CHECK(!stt_reasm_complete(&r));

	for (off = 0; off < 1000; off += 100) {
		if (!ADD_OK(&r, off, 100))
			break;
		RANGES_ARE(&r, 0, off + 100);
		CHECK_EQ(r.received, off + 100);
		CHECK_EQ(stt_reasm_complete(&r), off + 100 == 1000);
	}

	/* A whole frame in one segment. */
	stt_reasm_init(&r, 0xffff);
	ADD_OK(&r, 0, 0xffff);
	RANGES_ARE(&r, 0, 0xffff);
	CHECK(stt_reasm_complete(&r));
}

void test_reasm_reverse_order(void)
{
	struct stt_reasm r;
	int off;

	stt_reasm_init(&r, 1050);
	for (off = 1000; off >= 0; off -= 100) {
		u16 len = off == 1000 ? 50 : 100;

		if (!ADD_OK(&r, off, len))
			break;
		RANGES_ARE(&r, off, 1050);
		CHECK_EQ(stt_reasm_complete(&r), off == 0);
	}
}

void test_reasm_holes(void)
{
	struct stt_reasm r;

	stt_reasm_init(&r, 100);
	ADD_OK(&r, 40, 10);
	ADD_OK(&r, 0, 10);
	ADD_OK(&r, 20, 10);
	RANGES_ARE(&r, 0, 10, 20, 30, 40, 50);
	CHECK_EQ(r.received, 30);

	/* Closing a hole merges both neighbours. */
	ADD_OK(&r, 10, 10);
	RANGES_ARE(&r, 0, 30, 40, 50);
	/* Touching one neighbour extends it. */
	ADD_OK(&r, 35, 5);
	RANGES_ARE(&r, 0, 30, 35, 50);
	ADD_OK(&r, 50, 5);
	RANGES_ARE(&r, 0, 30, 35, 55);
	/* Touching none inserts in the middle and at the end. */
	ADD_OK(&r, 31, 2);
	RANGES_ARE(&r, 0, 30, 31, 33, 35, 55);
	ADD_OK(&r, 99, 1);
	RANGES_ARE(&r, 0, 30, 31, 33, 35, 55, 99, 100);
	CHECK(!stt_reasm_complete(&r));

	ADD_OK(&r, 30, 1);
	ADD_OK(&r, 33, 2);
	ADD_OK(&r, 55, 44);
	RANGES_ARE(&r, 0, 100);
	CHECK(stt_reasm_complete(&r));
}

void test_reasm_duplicates(void)
{
	struct stt_reasm r;

	stt_reasm_init(&r, 300);
	ADD_OK(&r, 0, 100);
	ADD_OK(&r, 100, 50);
	ADD_OK(&r, 200, 50);
	RANGES_ARE(&r, 0, 150, 200, 250);

	ADD_IS(&r, 300, 0, 100, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 100, 50, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 200, 50, STT_ERR_DUPLICATE);
	/* Across two segments that were merged. */
	ADD_IS(&r, 300, 50, 100, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 0, 150, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 149, 1, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 0, 1, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 210, 10, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 249, 1, STT_ERR_DUPLICATE);

	ADD_OK(&r, 150, 50);
	ADD_OK(&r, 250, 50);
	CHECK(stt_reasm_complete(&r));
	ADD_IS(&r, 300, 0, 300, STT_ERR_DUPLICATE);
	ADD_IS(&r, 300, 299, 1, STT_ERR_DUPLICATE);
}

void test_reasm_overlaps(void)
{
	struct stt_reasm r;

	stt_reasm_init(&r, 300);
	ADD_OK(&r, 100, 50);
	ADD_OK(&r, 200, 50);
	RANGES_ARE(&r, 100, 150, 200, 250);

	/* Into the front, out of the back, around, and across a hole. */
	ADD_IS(&r, 300, 90, 11, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 0, 101, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 149, 2, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 149, 51, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 99, 52, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 140, 70, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 0, 300, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 249, 51, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 150, 51, STT_ERR_OVERLAP);
	ADD_IS(&r, 300, 199, 2, STT_ERR_OVERLAP);

	/* Right up to a range on either side is not an overlap. */
	ADD_OK(&r, 150, 50);
	RANGES_ARE(&r, 100, 250);
	ADD_IS(&r, 300, 250, 50, STT_OK);
	ADD_IS(&r, 300, 0, 100, STT_OK);
	CHECK(stt_reasm_complete(&r));
}

void test_reasm_len_mismatch(void)
{
	struct stt_reasm r;

	stt_reasm_init(&r, 1000);
	ADD_OK(&r, 0, 100);
	ADD_IS(&r, 999, 100, 100, STT_ERR_LEN_MISMATCH);
	ADD_IS(&r, 1001, 100, 100, STT_ERR_LEN_MISMATCH);
	ADD_IS(&r, 0, 100, 100, STT_ERR_LEN_MISMATCH);
	/* Reported before anything about the segment itself. */
	ADD_IS(&r, 2000, 100, 0, STT_ERR_LEN_MISMATCH);
	ADD_IS(&r, 2000, 0, 100, STT_ERR_LEN_MISMATCH);
	ADD_IS(&r, 2000, 1500, 100, STT_ERR_LEN_MISMATCH);
	ADD_OK(&r, 100, 900);
	CHECK(stt_reasm_complete(&r));
}

void test_reasm_bounds(void)
{
	struct stt_reasm r;

	stt_reasm_init(&r, 1000);
	ADD_IS(&r, 1000, 0, 0, STT_ERR_SEG_EMPTY);
	ADD_IS(&r, 1000, 5000, 0, STT_ERR_SEG_EMPTY);
	ADD_IS(&r, 1000, 0, 1001, STT_ERR_SEG_LEN);
	ADD_IS(&r, 1000, 999, 2, STT_ERR_SEG_LEN);
	ADD_IS(&r, 1000, 1000, 1, STT_ERR_SEG_LEN);
	ADD_IS(&r, 1000, 0xffff, 0xffff, STT_ERR_SEG_LEN);
	ADD_OK(&r, 500, 500);
	/* Past the end is reported before the overlap it also is. */
	ADD_IS(&r, 1000, 600, 401, STT_ERR_SEG_LEN);
	ADD_IS(&r, 1000, 500, 0, STT_ERR_SEG_EMPTY);
	CHECK_EQ(r.received, 500);

	stt_reasm_init(&r, 0xffff);
	ADD_OK(&r, 0xfffe, 1);
	ADD_IS(&r, 0xffff, 0xffff, 1, STT_ERR_SEG_LEN);
	ADD_IS(&r, 0xffff, 0xfffe, 2, STT_ERR_SEG_LEN);
	ADD_OK(&r, 0, 0xfffe);
	CHECK(stt_reasm_complete(&r));
}

void test_reasm_too_fragmented(void)
{
	struct stt_reasm r;
	unsigned int i;

	/* One byte out of every two, until the ranges run out. */
	stt_reasm_init(&r, 200);
	for (i = 0; i < STT_REASM_MAX_RANGES; i++)
		if (!ADD_OK(&r, 2 * i + 1, 1))
			return;
	CHECK_EQ(r.nr_ranges, STT_REASM_MAX_RANGES);
	ADD_IS(&r, 200, 2 * i + 1, 1, STT_ERR_TOO_FRAGMENTED);
	ADD_IS(&r, 200, 150, 10, STT_ERR_TOO_FRAGMENTED);
	ADD_IS(&r, 200, 199, 1, STT_ERR_TOO_FRAGMENTED);

	/* Extending a range costs nothing, even when full. */
	ADD_OK(&r, 2 * i, 10);
	ADD_OK(&r, 0, 1);
	CHECK_EQ(r.nr_ranges, STT_REASM_MAX_RANGES);
	/* The verdict on old bytes wins over running out of ranges. */
	ADD_IS(&r, 200, 1, 1, STT_ERR_DUPLICATE);
	ADD_IS(&r, 200, 1, 2, STT_ERR_OVERLAP);

	/* Closing a hole frees a range for a new island. */
	ADD_OK(&r, 2, 1);
	CHECK_EQ(r.nr_ranges, STT_REASM_MAX_RANGES - 1);
	ADD_OK(&r, 150, 10);
	CHECK_EQ(r.nr_ranges, STT_REASM_MAX_RANGES);
	ADD_IS(&r, 200, 190, 1, STT_ERR_TOO_FRAGMENTED);

	/* The same limit holds when islands arrive back to front. */
	stt_reasm_init(&r, 200);
	for (i = STT_REASM_MAX_RANGES; i > 0; i--)
		if (!ADD_OK(&r, 5 * i, 2))
			return;
	ADD_IS(&r, 200, 0, 2, STT_ERR_TOO_FRAGMENTED);
	ADD_IS(&r, 200, 199, 1, STT_ERR_TOO_FRAGMENTED);
	ADD_IS(&r, 200, 8, 1, STT_ERR_TOO_FRAGMENTED);
	ADD_OK(&r, 7, 1);
}

void test_reasm_complete_needs_all(void)
{
	static const u16 missing[] = { 0, 1, 500, 998, 999 };
	struct stt_reasm r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(missing); i++) {
		u16 hole = missing[i];

		stt_reasm_init(&r, 1000);
		if (hole)
			ADD_OK(&r, 0, hole);
		if (hole < 999)
			ADD_OK(&r, hole + 1, 999 - hole);
		CHECK_EQ(r.received, 999);
		CHECK(!stt_reasm_complete(&r));
		ADD_OK(&r, hole, 1);
		CHECK(stt_reasm_complete(&r));
		RANGES_ARE(&r, 0, 1000);
	}
}
