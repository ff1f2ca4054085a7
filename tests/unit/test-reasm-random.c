// SPDX-License-Identifier: GPL-2.0
/*
 * Random segmentations of random frames, delivered in random orders with
 * injected duplicates and overlapping junk, checked step by step against a
 * model that simply remembers every byte.
 */

#include "harness.h"
#include "tests.h"

#include <string.h>

#include "stt_reasm.h"
#include "stt_wire.h"

#define FRAMES 10000
#define MAX_SEGS 400
#define MAX_QUEUE 1024
#define MIN_FRAME (STT_HDR_LEN + STT_INNER_MIN_LEN)

struct seg {
	u16 frame_len;
	u16 offset;
	u16 len;
	/* Part of the sender's segmentation, so resent if refused for lack
	 * of ranges: without it the frame could never complete.
	 */
	bool original;
};

struct model {
	u16 frame_len;
	u32 count;		/* bytes present */
	u32 runs;		/* maximal runs of present bytes */
	u8 have[65536];
};

static enum stt_err model_verdict(const struct model *m,
				  const struct seg *s, u32 *runs)
{
	u32 end = (u32)s->offset + s->len, present = 0, i;

	if (s->frame_len != m->frame_len)
		return STT_ERR_LEN_MISMATCH;
	if (!s->len)
		return STT_ERR_SEG_EMPTY;
	if (end > m->frame_len)
		return STT_ERR_SEG_LEN;
	for (i = s->offset; i < end; i++)
		present += m->have[i];
	if (present == s->len)
		return STT_ERR_DUPLICATE;
	if (present)
		return STT_ERR_OVERLAP;

	*runs = m->runs + 1;
	if (s->offset > 0 && m->have[s->offset - 1])
		(*runs)--;
	if (end < m->frame_len && m->have[end])
		(*runs)--;
	return *runs > STT_REASM_MAX_RANGES ? STT_ERR_TOO_FRAGMENTED : STT_OK;
}

/* The ranges must be exactly the runs of present bytes. */
static bool ranges_match(const struct stt_reasm *r, const struct model *m)
{
	u32 pos = 0, start, i = 0;

	while (pos < m->frame_len) {
		if (!m->have[pos]) {
			pos++;
			continue;
		}
		start = pos;
		while (pos < m->frame_len && m->have[pos])
			pos++;
		if (i >= r->nr_ranges || r->ranges[i].start != start ||
		    r->ranges[i].end != pos)
			return false;
		i++;
	}
	return i == r->nr_ranges;
}

static bool same(const struct stt_reasm *a, const struct stt_reasm *b)
{
	return a->frame_len == b->frame_len &&
	       a->nr_ranges == b->nr_ranges && a->received == b->received &&
	       !memcmp(a->ranges, b->ranges,
		       a->nr_ranges * sizeof(a->ranges[0]));
}

static u16 pick_frame_len(uint64_t *rng)
{
	switch (prng_range(rng, 0, 9)) {
	case 0:
		return prng_next(rng) & 1 ? MIN_FRAME : 0xffff;
	case 1: case 2: case 3: case 4: case 5:
		return prng_range(rng, MIN_FRAME, 1024);
	default:
		return prng_range(rng, MIN_FRAME, 0xffff);
	}
}

/* Cuts the frame into segments, in order; returns how many. */
static unsigned int segment(uint64_t *rng, u16 frame_len, struct seg *segs,
			    u32 *max_len)
{
	u32 off = 0, n = 0, len;
	bool fixed = prng_range(rng, 0, 9) < 3;

	*max_len = 2 * frame_len / prng_range(rng, 1, 300);
	if (fixed)
		*max_len = prng_range(rng, 1, frame_len);
	if (!*max_len)
		*max_len = 1;

	while (off < frame_len) {
		len = fixed ? *max_len : prng_range(rng, 1, *max_len);
		if (len > frame_len - off || n == MAX_SEGS - 1)
			len = frame_len - off;
		segs[n].frame_len = frame_len;
		segs[n].offset = off;
		segs[n].len = len;
		segs[n].original = true;
		off += len;
		n++;
	}
	return n;
}

static void swap(struct seg *a, struct seg *b)
{
	struct seg t = *a;

	*a = *b;
	*b = t;
}

static void order(uint64_t *rng, struct seg *segs, unsigned int n)
{
	unsigned int i;

	switch (prng_range(rng, 0, 3)) {
	case 0:		/* as sent */
		break;
	case 1:		/* backwards */
		for (i = 0; i < n / 2; i++)
			swap(&segs[i], &segs[n - 1 - i]);
		break;
	case 2:		/* shuffled */
		for (i = n - 1; i > 0; i--)
			swap(&segs[i], &segs[prng_range(rng, 0, i)]);
		break;
	default:	/* mostly in order */
		for (i = 0; i < n / 4 && n > 1; i++) {
			unsigned int j = prng_range(rng, 0, n - 2);

			swap(&segs[j], &segs[j + 1]);
		}
		break;
	}
}

static struct seg junk(uint64_t *rng, u16 frame_len, u32 max_len)
{
	struct seg s = { .frame_len = frame_len };
	u32 room;

	switch (prng_range(rng, 0, 9)) {
	case 0:
		s.frame_len = frame_len + prng_range(rng, 1, 0xffff);
		s.offset = prng_range(rng, 0, frame_len - 1);
		s.len = prng_range(rng, 1, frame_len - s.offset);
		break;
	case 1:
		s.offset = prng_next(rng);
		break;
	case 2:
		s.offset = prng_range(rng, 0, frame_len);
		room = 0xffff - s.offset;
		s.len = prng_range(rng, frame_len - s.offset, room);
		break;
	default:
		s.offset = prng_range(rng, 0, frame_len - 1);
		room = frame_len - s.offset;
		s.len = prng_range(rng, 1, room < 2 * max_len ? room :
					   2 * max_len);
		break;
	}
	return s;
}

static void insert_at(struct seg *q, unsigned int *n, unsigned int pos,
		      struct seg s)
{
	memmove(&q[pos + 1], &q[pos], (*n - pos) * sizeof(*q));
	q[pos] = s;
	(*n)++;
}

struct totals {
	unsigned int verdicts[STT_ERR_MAX];
	unsigned int completed;
};

/*
 * Mode 0 delivers the segmentation only, mode 1 adds copies of segments,
 * mode 2 adds junk as well.  Junk that gets in first can leave the frame
 * impossible to finish; anything else must complete.
 */
static bool run_frame(uint64_t *rng, struct model *m, struct totals *t)
{
	static struct seg q[MAX_QUEUE];
	unsigned int mode = prng_range(rng, 0, 2);
	unsigned int n, nr_orig, extra, head = 0, stalled = 0, i;
	u16 frame_len = pick_frame_len(rng);
	struct stt_reasm r, before;
	u32 max_len;

	n = segment(rng, frame_len, q, &max_len);
	nr_orig = n;
	order(rng, q, n);
	extra = mode ? prng_range(rng, 0, nr_orig / 2 + 1) : 0;
	for (i = 0; i < extra; i++) {
		struct seg s = q[prng_range(rng, 0, nr_orig - 1)];

		s.original = false;
		insert_at(q, &n, prng_range(rng, 0, n), s);
	}
	extra = mode == 2 ? prng_range(rng, 1, 30) : 0;
	for (i = 0; i < extra; i++)
		insert_at(q, &n, prng_range(rng, 0, n),
			  junk(rng, frame_len, max_len));

	memset(m->have, 0, frame_len);
	m->frame_len = frame_len;
	m->count = 0;
	m->runs = 0;
	stt_reasm_init(&r, frame_len);

	/* q is a ring from here on; n counts what is still queued. */
	while (n && stalled <= n) {
		struct seg s = q[head];
		enum stt_err want, got;
		u32 runs = 0;

		head = (head + 1) % MAX_QUEUE;
		n--;
		want = model_verdict(m, &s, &runs);
		before = r;
		got = stt_reasm_add(&r, s.frame_len, s.offset, s.len);
		if (!CHECK_ERR(got, want))
			return false;
		if ((unsigned int)got < STT_ERR_MAX)
			t->verdicts[got]++;

		if (got == STT_OK) {
			memset(&m->have[s.offset], 1, s.len);
			m->count += s.len;
			m->runs = runs;
			stalled = 0;
		} else {
			if (!CHECK(same(&r, &before)))
				return false;
			if (got == STT_ERR_TOO_FRAGMENTED && s.original) {
				q[(head + n) % MAX_QUEUE] = s;
				n++;
				stalled++;
			}
		}

		if (!CHECK_EQ(r.received, m->count) ||
		    !CHECK_EQ(r.nr_ranges, m->runs) ||
		    !CHECK_EQ(stt_reasm_complete(&r), m->count == frame_len))
			return false;
		/* A full comparison per step is affordable on small frames. */
		if (frame_len <= 1024 && !CHECK(ranges_match(&r, m)))
			return false;
	}

	if (!CHECK(ranges_match(&r, m)))
		return false;
	if (mode < 2 && !CHECK(stt_reasm_complete(&r)))
		return false;
	if (stt_reasm_complete(&r))
		t->completed++;
	return true;
}

void test_reasm_random(void)
{
	static const enum stt_err expected[] = {
		STT_OK, STT_ERR_SEG_EMPTY, STT_ERR_SEG_LEN,
		STT_ERR_DUPLICATE, STT_ERR_OVERLAP, STT_ERR_LEN_MISMATCH,
		STT_ERR_TOO_FRAGMENTED,
	};
	static struct model m;
	struct totals t = { 0 };
	uint64_t rng = 0x57700000000000f5ULL;
	unsigned int i;

	for (i = 0; i < FRAMES; i++)
		if (!run_frame(&rng, &m, &t))
			break;

	/* A run that never reached some verdict proves nothing about it. */
	for (i = 0; i < ARRAY_SIZE(expected); i++)
		CHECK(t.verdicts[expected[i]] > 100);
	CHECK(t.completed > FRAMES / 2);
}
