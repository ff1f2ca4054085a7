// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for segment checks and reassembly bookkeeping (lib/stt_reasm.c).
 *
 * The input drives a small reassembly table built, like the kernel's
 * (datapath/reasm.c), on stt_seg_check() and stt_reasm_*(): frames found by
 * id through a chained hash, a memory budget charged per frame and per queued
 * segment, oldest-first eviction to make room, expiry after a number of clock
 * ticks.  Next to it runs a reference model that knows nothing of ranges: one
 * byte-map per frame.  After every event the two must agree on the verdict,
 * on which frames are alive, on every byte received and on every counter; a
 * completed frame must be exactly the bytes of the segments accepted for it.
 *
 * Input layout:
 *
 *   bytes 0-1   budget = FRAME_COST + SEG_COST + 16 * value (big-endian)
 *   byte 2      timeout = 1 + (value & 63) ticks
 *   then events, each an opcode byte (type in the top two bits) and its
 *   arguments:
 *
 *   000 b a kkk raw segment for key k: seq (4 bytes) and payload length
 *               (2 bytes), big-endian; b adds 0x10000 to the payload length;
 *               a ("unchecked") skips stt_seg_check() and the one-segment
 *               shortcut and hands the fields straight to stt_reasm_add(),
 *               whose own checks the kernel's order of calls never reaches
 *   001 r x kkk a comb of segments for key k, the way to fragment a frame
 *               in one step: frame length (2 bytes, used when key k has no
 *               frame), first offset (2 bytes), count n, and a byte whose
 *               high nibble + 1 is the length of each segment and low
 *               nibble the gap between them; r sends them last first
 *   01 sss kkk  next piece of key k's frame from the front: starts at the
 *               first hole of the model's frame, as long as the hole but at
 *               most size class s; 2 argument bytes: without a frame, the
 *               frame length (big-endian); with one, two signed bytes added
 *               to the piece's start and length, so that pieces that
 *               overlap their neighbours by a byte or two are easy to make
 *   10 sss kkk  the same from the back: the piece ends where the last hole
 *               ends (segments arriving in reverse)
 *   11 g nnnnn  clock advances by n + 1 ticks; then, unless g is set, the
 *               garbage collector expires old frames (as the kernel's timer)
 *
 * At the end of the input the clock moves past every frame's expiry and the
 * collector runs: nothing may be left, and memory must be back to zero.
 */

#define _GNU_SOURCE		/* memrchr() */
#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stt_reasm.h"
#include "stt_wire.h"

/* Budget charged per frame and per queued segment on top of its payload
 * (the kernel charges sizeof(struct frame) and skb->truesize).
 */
#define FRAME_COST 384
#define SEG_COST 256

#define NR_KEYS 8
#define NR_BUCKETS 4		/* fewer than keys, so chains form */
#define MIN_FRAME (STT_HDR_LEN + STT_INNER_MIN_LEN)

static const uint32_t key_ids[NR_KEYS] = {
	0, 1, 2, 7, 0x1000, 0x7fffffff, 0x80000000, 0xffffffff,
};

static const uint32_t size_classes[8] = {
	1, 8, 100, 512, 1448, 4000, 9000, 65536,
};

enum kind {
	V_ERR,			/* a lib check refused the segment */
	V_DIRECT,		/* the whole frame in one segment: no table */
	V_MEM_DROP,		/* larger than the whole budget */
	V_QUEUED,
	V_COMPLETE,
};

struct verdict {
	enum kind kind;
	enum stt_err err;	/* for V_ERR */
};

struct counters {
	uint64_t segments;
	uint64_t direct;
	uint64_t mem_drops;
	uint64_t evictions;
	uint64_t timeouts;
	uint64_t queued;
	uint64_t reassembled;
	uint64_t err[STT_ERR_MAX];
};

struct seg_event {
	unsigned int key;
	uint32_t seq;
	uint32_t len;
	bool unchecked;
	uint32_t serial;	/* seeds the payload bytes */
};

static unsigned int key_index(uint32_t id)
{
	unsigned int k;

	for (k = 0; k < NR_KEYS && key_ids[k] != id; k++)
		continue;
	return k;
}

/*
 * What the sender put in the frame: segment @serial carries, for frame bytes
 * from @pos on, the bytes from pattern[pos + serial % 251] on, so a byte
 * depends on both where it belongs and which segment brought it.
 */
static uint8_t pattern[65536 + 256];

static const uint8_t *payload(uint32_t serial, uint32_t pos)
{
	static bool ready;

	if (!ready) {
		uint32_t i, x = 1;

		for (i = 0; i < sizeof(pattern); i++) {
			x = x * 1103515245 + 12345;
			pattern[i] = (uint8_t)(x >> 16);
		}
		ready = true;
	}
	return pattern + pos + serial % 251;
}

/*
 * The table: the kernel's policy (datapath/reasm.c) over lib's bookkeeping.
 */

struct seg {
	struct seg *next;
	uint16_t offset;
	uint16_t len;
	uint8_t data[];		/* exactly len bytes */
};

struct frame {
	struct frame *hnext;
	struct frame *older, *newer;
	uint32_t id;
	uint64_t expires;
	struct seg *segs;	/* sorted by offset */
	size_t cost;
	/* Last, so that an overrun of ranges[] leaves the allocation. */
	struct stt_reasm state;
};

struct table {
	struct frame *buckets[NR_BUCKETS];
	struct frame *oldest, *newest;
	unsigned int nr_frames;
	size_t mem;
	size_t budget;
	uint64_t now;
	uint64_t timeout;
	struct counters c;
};

static struct frame **bucket(struct table *t, uint32_t id)
{
	return &t->buckets[id % NR_BUCKETS];
}

static struct frame *frame_find(struct table *t, uint32_t id)
{
	struct frame *fr;

	for (fr = *bucket(t, id); fr; fr = fr->hnext)
		if (fr->id == id)
			return fr;
	return NULL;
}

static void segs_free(struct seg *s)
{
	while (s) {
		struct seg *next = s->next;

		free(s);
		s = next;
	}
}

static void frame_free(struct table *t, struct frame *fr)
{
	struct frame **pp;

	for (pp = bucket(t, fr->id); *pp != fr; pp = &(*pp)->hnext)
		continue;
	*pp = fr->hnext;
	if (fr->older)
		fr->older->newer = fr->newer;
	else
		t->oldest = fr->newer;
	if (fr->newer)
		fr->newer->older = fr->older;
	else
		t->newest = fr->older;

	FUZZ_CHECK(t->nr_frames > 0 && t->mem >= fr->cost,
		   "accounting underflow: %u frames, mem %zu, cost %zu",
		   t->nr_frames, t->mem, fr->cost);
	t->nr_frames--;
	t->mem -= fr->cost;
	segs_free(fr->segs);
	free(fr);
}

static struct frame *frame_create(struct table *t, uint32_t id,
				  uint16_t frame_len)
{
	struct frame *fr = calloc(1, sizeof(*fr));

	FUZZ_CHECK(fr, "out of memory");
	fr->id = id;
	fr->expires = t->now + t->timeout;
	fr->cost = FRAME_COST;
	stt_reasm_init(&fr->state, frame_len);
	fr->hnext = *bucket(t, id);
	*bucket(t, id) = fr;
	fr->older = t->newest;
	if (t->newest)
		t->newest->newer = fr;
	else
		t->oldest = fr;
	t->newest = fr;
	t->nr_frames++;
	t->mem += FRAME_COST;
	return fr;
}

static void table_gc(struct table *t)
{
	while (t->oldest && t->now >= t->oldest->expires) {
		frame_free(t, t->oldest);
		t->c.timeouts++;
	}
}

static bool make_room(struct table *t, size_t need)
{
	if (need > t->budget)
		return false;
	while (t->mem + need > t->budget && t->oldest) {
		frame_free(t, t->oldest);
		t->c.evictions++;
	}
	return true;
}

static void seg_insert(struct frame *fr, struct seg *s)
{
	struct seg **pp;

	for (pp = &fr->segs; *pp; pp = &(*pp)->next)
		if ((*pp)->offset > s->offset)
			break;
	s->next = *pp;
	*pp = s;
}

/* Chains the segments of a complete frame into one buffer, as frame_build()
 * chains skbs: they have to follow each other without gap or overlap.
 */
static uint8_t *frame_build(const struct frame *fr)
{
	uint32_t len = fr->state.frame_len, pos = 0;
	uint8_t *out = malloc(len ? len : 1);
	const struct seg *s;

	FUZZ_CHECK(out, "out of memory");
	for (s = fr->segs; s; s = s->next) {
		FUZZ_CHECK(s->offset == pos, "complete frame %#x: segment at %u, "
			   "previous ends at %u", fr->id, s->offset, pos);
		FUZZ_CHECK(pos + s->len <= len, "complete frame %#x: segment "
			   "[%u, %u) past its %u bytes", fr->id, s->offset,
			   s->offset + s->len, len);
		memcpy(out + pos, s->data, s->len);
		pos += s->len;
	}
	FUZZ_CHECK(pos == len, "complete frame %#x: %u of %u bytes", fr->id,
		   pos, len);
	return out;
}

static struct verdict table_rx(struct table *t, const struct seg_event *ev,
			       uint8_t **built, uint16_t *built_len)
{
	struct verdict v = { V_QUEUED, STT_OK };
	uint16_t frame_len, offset, len;
	uint32_t id = key_ids[ev->key];
	enum stt_err err;
	struct frame *fr;
	struct seg *s;

	t->c.segments++;
	if (ev->unchecked) {
		frame_len = stt_seq_frame_len(ev->seq);
		offset = stt_seq_offset(ev->seq);
		len = (uint16_t)ev->len;
	} else {
		err = stt_seg_check(ev->seq, ev->len, &frame_len, &offset);
		if (err != STT_OK)
			goto refused;
		FUZZ_CHECK((uint32_t)offset + ev->len <= frame_len,
			   "stt_seg_check passed [%u, +%u) of a %u-byte frame",
			   offset, ev->len, frame_len);
		if (!offset && ev->len == frame_len) {
			t->c.direct++;
			v.kind = V_DIRECT;
			return v;
		}
		len = (uint16_t)ev->len;
	}

	/* Room first: once lib has recorded the bytes they must be kept. */
	if (!make_room(t, (size_t)len + SEG_COST + FRAME_COST)) {
		t->c.mem_drops++;
		v.kind = V_MEM_DROP;
		return v;
	}
	fr = frame_find(t, id);
	if (fr && t->now >= fr->expires) {
		frame_free(t, fr);
		t->c.timeouts++;
		fr = NULL;
	}
	if (!fr)
		fr = frame_create(t, id, frame_len);

	err = stt_reasm_add(&fr->state, frame_len, offset, len);
	if (err != STT_OK)
		goto refused;
	FUZZ_CHECK((uint32_t)offset + len <= fr->state.frame_len,
		   "stt_reasm_add accepted [%u, %u) of a %u-byte frame",
		   offset, offset + len, fr->state.frame_len);

	s = malloc(sizeof(*s) + len);
	FUZZ_CHECK(s, "out of memory");
	s->offset = offset;
	s->len = len;
	memcpy(s->data, payload(ev->serial, offset), len);
	seg_insert(fr, s);
	fr->cost += (size_t)len + SEG_COST;
	t->mem += (size_t)len + SEG_COST;
	t->c.queued++;

	if (!stt_reasm_complete(&fr->state))
		return v;
	*built = frame_build(fr);
	*built_len = fr->state.frame_len;
	frame_free(t, fr);
	t->c.reassembled++;
	v.kind = V_COMPLETE;
	return v;

refused:
	FUZZ_CHECK(err > STT_OK && err < STT_ERR_MAX, "verdict %d", err);
	t->c.err[err]++;
	v.kind = V_ERR;
	v.err = err;
	return v;
}

static void table_destroy(struct table *t)
{
	while (t->oldest)
		frame_free(t, t->oldest);
}

/*
 * The reference model: a byte map per key, rules written from the comments
 * in stt_err.h, stt_reasm.h and datapath/reasm.c.
 */

struct mframe {
	bool live;
	uint16_t frame_len;
	uint64_t born;		/* creation order: the eviction order */
	uint64_t expires;
	uint32_t bytes;		/* present */
	uint32_t nr_segs;	/* accepted */
	uint32_t runs;		/* maximal runs of present bytes */
	uint8_t *have;		/* frame_len flags */
	uint8_t *content;	/* frame_len bytes, valid where have[] */
};

/* The model's maps, allocated once: fresh 64 KiB blocks for every frame
 * would cost more in page faults than all the rest of an execution.
 */
static uint8_t maps[NR_KEYS][2][65536];

struct model {
	struct mframe f[NR_KEYS];
	uint64_t births;
	size_t budget;
	uint64_t now;
	uint64_t timeout;
	struct counters c;
};

static size_t model_mem(const struct model *m)
{
	size_t mem = 0;
	unsigned int k;

	for (k = 0; k < NR_KEYS; k++)
		if (m->f[k].live)
			mem += FRAME_COST + (size_t)m->f[k].nr_segs * SEG_COST +
			       m->f[k].bytes;
	return mem;
}

static void mframe_drop(struct mframe *mf)
{
	memset(mf, 0, sizeof(*mf));
}

static struct mframe *model_oldest(struct model *m)
{
	struct mframe *oldest = NULL;
	unsigned int k;

	for (k = 0; k < NR_KEYS; k++)
		if (m->f[k].live && (!oldest || m->f[k].born < oldest->born))
			oldest = &m->f[k];
	return oldest;
}

static void model_gc(struct model *m)
{
	unsigned int k;

	for (k = 0; k < NR_KEYS; k++) {
		if (m->f[k].live && m->now >= m->f[k].expires) {
			mframe_drop(&m->f[k]);
			m->c.timeouts++;
		}
	}
}

static enum stt_err model_seg_check(uint32_t seq, uint32_t len)
{
	uint32_t frame_len = seq >> 16, offset = seq & 0xffff;

	if (frame_len < MIN_FRAME)
		return STT_ERR_FRAME_LEN;
	if (len == 0)
		return STT_ERR_SEG_EMPTY;
	if (offset >= frame_len)
		return STT_ERR_SEG_OFFSET;
	if (offset + len > frame_len)
		return STT_ERR_SEG_LEN;
	return STT_OK;
}

/* Also says how many runs of present bytes there would be after. */
static enum stt_err model_add(const struct mframe *mf, uint32_t frame_len,
			      uint32_t offset, uint32_t len, uint32_t *runs)
{
	if (frame_len != mf->frame_len)
		return STT_ERR_LEN_MISMATCH;
	if (len == 0)
		return STT_ERR_SEG_EMPTY;
	if (offset + len > frame_len)
		return STT_ERR_SEG_LEN;
	if (!memchr(mf->have + offset, 0, len))
		return STT_ERR_DUPLICATE;
	if (memchr(mf->have + offset, 1, len))
		return STT_ERR_OVERLAP;
	*runs = mf->runs + 1;
	if (offset > 0 && mf->have[offset - 1])
		(*runs)--;
	if (offset + len < frame_len && mf->have[offset + len])
		(*runs)--;
	return *runs > STT_REASM_MAX_RANGES ? STT_ERR_TOO_FRAGMENTED : STT_OK;
}

static struct verdict model_rx(struct model *m, const struct seg_event *ev,
			       const uint8_t **content)
{
	struct verdict v = { V_QUEUED, STT_OK };
	uint32_t frame_len = ev->seq >> 16, offset = ev->seq & 0xffff;
	struct mframe *mf = &m->f[ev->key], *old;
	uint32_t len = ev->len, runs;
	enum stt_err err;
	size_t need;

	m->c.segments++;
	if (ev->unchecked) {
		len &= 0xffff;
	} else {
		err = model_seg_check(ev->seq, ev->len);
		if (err != STT_OK)
			goto refused;
		if (offset == 0 && len == frame_len) {
			m->c.direct++;
			v.kind = V_DIRECT;
			return v;
		}
	}

	need = len + SEG_COST + FRAME_COST;
	if (need > m->budget) {
		m->c.mem_drops++;
		v.kind = V_MEM_DROP;
		return v;
	}
	while (model_mem(m) + need > m->budget && (old = model_oldest(m))) {
		mframe_drop(old);
		m->c.evictions++;
	}
	if (mf->live && m->now >= mf->expires) {
		mframe_drop(mf);
		m->c.timeouts++;
	}
	if (!mf->live) {
		mf->live = true;
		mf->frame_len = (uint16_t)frame_len;
		mf->born = m->births++;
		mf->expires = m->now + m->timeout;
		mf->have = maps[ev->key][0];
		mf->content = maps[ev->key][1];
		memset(mf->have, 0, frame_len);
	}

	err = model_add(mf, frame_len, offset, len, &runs);
	if (err != STT_OK)
		goto refused;
	memset(mf->have + offset, 1, len);
	memcpy(mf->content + offset, payload(ev->serial, offset), len);
	mf->runs = runs;
	mf->bytes += len;
	mf->nr_segs++;
	m->c.queued++;
	if (mf->bytes < mf->frame_len)
		return v;

	/* Stays readable until the key's next frame is born. */
	*content = mf->content;
	mframe_drop(mf);
	m->c.reassembled++;
	v.kind = V_COMPLETE;
	return v;

refused:
	m->c.err[err]++;
	v.kind = V_ERR;
	v.err = err;
	return v;
}

static void model_destroy(struct model *m)
{
	unsigned int k;

	for (k = 0; k < NR_KEYS; k++)
		mframe_drop(&m->f[k]);
}

/*
 * Comparisons.
 */

static const char *kind_name(enum kind kind)
{
	static const char *const names[] = {
		[V_ERR] = "refused", [V_DIRECT] = "direct",
		[V_MEM_DROP] = "mem_drop", [V_QUEUED] = "queued",
		[V_COMPLETE] = "complete",
	};

	return names[kind];
}

static void check_verdict(const struct seg_event *ev, struct verdict got,
			  struct verdict want)
{
	FUZZ_CHECK(got.kind == want.kind && got.err == want.err,
		   "event %u (key %u, seq %#x, len %u%s): %s %s, model says "
		   "%s %s", ev->serial, ev->key, ev->seq, ev->len,
		   ev->unchecked ? ", unchecked" : "", kind_name(got.kind),
		   stt_err_name(got.err), kind_name(want.kind),
		   stt_err_name(want.err));
}

/*
 * The ranges must be sane on their own and be exactly the maximal runs of
 * the map: every range byte present, present bytes on neither side, and
 * together as many bytes as the model has.
 */
static void check_ranges(const struct frame *fr, const struct mframe *mf)
{
	const struct stt_reasm *r = &fr->state;
	uint32_t i, sum = 0;

	FUZZ_CHECK(r->nr_ranges <= STT_REASM_MAX_RANGES, "%u ranges",
		   r->nr_ranges);
	FUZZ_CHECK(r->nr_ranges == mf->runs, "frame %#x: %u ranges, model "
		   "%u runs", fr->id, r->nr_ranges, mf->runs);
	for (i = 0; i < r->nr_ranges; i++) {
		const struct stt_range *rg = &r->ranges[i];

		FUZZ_CHECK(rg->start < rg->end && rg->end <= r->frame_len,
			   "frame %#x range %u [%u, %u) of %u bytes", fr->id, i,
			   rg->start, rg->end, r->frame_len);
		FUZZ_CHECK(!i || rg->start > r->ranges[i - 1].end,
			   "frame %#x ranges %u and %u unsorted or touching",
			   fr->id, i - 1, i);
		FUZZ_CHECK(!memchr(mf->have + rg->start, 0,
				   rg->end - rg->start) &&
			   (!rg->start || !mf->have[rg->start - 1]) &&
			   (rg->end == mf->frame_len || !mf->have[rg->end]),
			   "frame %#x range %u [%u, %u) is not a run of the "
			   "model's bytes", fr->id, i, rg->start, rg->end);
		sum += rg->end - rg->start;
	}
	FUZZ_CHECK(sum == r->received && sum == mf->bytes,
		   "frame %#x: ranges hold %u bytes, received %u, model %u",
		   fr->id, sum, r->received, mf->bytes);
}

/* The queued segments hold exactly the model's bytes, each once. */
static void check_segs(const struct frame *fr, const struct mframe *mf)
{
	const struct seg *s;
	uint32_t pos = 0, n = 0, sum = 0;

	for (s = fr->segs; s; s = s->next) {
		FUZZ_CHECK(s->offset >= pos, "frame %#x: segments overlap or "
			   "unsorted at %u", fr->id, s->offset);
		FUZZ_CHECK(s->len && s->offset + s->len <= mf->frame_len,
			   "frame %#x: segment [%u, +%u)", fr->id, s->offset,
			   s->len);
		FUZZ_CHECK(!memchr(mf->have + s->offset, 0, s->len),
			   "frame %#x: segment [%u, +%u) holds bytes the model "
			   "never accepted", fr->id, s->offset, s->len);
		FUZZ_CHECK(!memcmp(mf->content + s->offset, s->data, s->len),
			   "frame %#x: segment [%u, +%u) content", fr->id,
			   s->offset, s->len);
		pos = s->offset + s->len;
		sum += s->len;
		n++;
	}
	FUZZ_CHECK(n == mf->nr_segs && sum == mf->bytes,
		   "frame %#x: %u segments with %u bytes, model %u with %u",
		   fr->id, n, sum, mf->nr_segs, mf->bytes);
}

/* After every event.  Frames the event did not touch only get the cheap
 * checks: nothing but the event can have changed them.
 */
static void check_state(struct table *t, const struct model *m, int touched)
{
	const struct frame *fr, *prev = NULL;
	unsigned int k, live = 0;

	FUZZ_CHECK(t->mem <= t->budget, "memory %zu over budget %zu", t->mem,
		   t->budget);
	FUZZ_CHECK(t->mem == model_mem(m), "memory %zu, model %zu", t->mem,
		   model_mem(m));
	FUZZ_CHECK(!memcmp(&t->c, &m->c, sizeof(t->c)),
		   "counters differ from the model's (segments %llu/%llu, "
		   "queued %llu/%llu, evictions %llu/%llu, timeouts %llu/%llu)",
		   (unsigned long long)t->c.segments,
		   (unsigned long long)m->c.segments,
		   (unsigned long long)t->c.queued,
		   (unsigned long long)m->c.queued,
		   (unsigned long long)t->c.evictions,
		   (unsigned long long)m->c.evictions,
		   (unsigned long long)t->c.timeouts,
		   (unsigned long long)m->c.timeouts);

	for (k = 0; k < NR_KEYS; k++) {
		const struct mframe *mf = &m->f[k];

		fr = frame_find(t, key_ids[k]);
		FUZZ_CHECK(!fr == !mf->live, "key %u: frame %s, model %s", k,
			   fr ? "alive" : "gone", mf->live ? "alive" : "gone");
		if (!fr)
			continue;
		live++;
		FUZZ_CHECK(fr->state.frame_len == mf->frame_len,
			   "key %u: frame_len %u, model %u", k,
			   fr->state.frame_len, mf->frame_len);
		FUZZ_CHECK(fr->state.received == mf->bytes,
			   "key %u: received %u, model %u", k,
			   fr->state.received, mf->bytes);
		FUZZ_CHECK(stt_reasm_complete(&fr->state) ==
			   (mf->bytes == mf->frame_len),
			   "key %u: complete %d with %u of %u bytes", k,
			   stt_reasm_complete(&fr->state), mf->bytes,
			   mf->frame_len);
		FUZZ_CHECK(fr->expires == mf->expires, "key %u: expires", k);
		FUZZ_CHECK(fr->cost == FRAME_COST +
			   (size_t)mf->nr_segs * SEG_COST + mf->bytes,
			   "key %u: cost %zu", k, fr->cost);
		if ((int)k == touched) {
			check_ranges(fr, mf);
			check_segs(fr, mf);
		}
	}
	FUZZ_CHECK(live == t->nr_frames, "%u frames, %u found", t->nr_frames,
		   live);

	/* Oldest first, in the order the model's frames were born. */
	for (fr = t->oldest; fr; prev = fr, fr = fr->newer) {
		k = key_index(fr->id);
		FUZZ_CHECK(fr->older == prev, "LRU links");
		FUZZ_CHECK(k < NR_KEYS && m->f[k].live, "stray frame %#x",
			   fr->id);
		FUZZ_CHECK(!prev || m->f[k].born > m->f[key_index(prev->id)].born,
			   "LRU order");
	}
	FUZZ_CHECK(t->newest == prev, "LRU tail");
}

/*
 * The driver.
 */

/* A piece of key @k's frame for the "next piece" opcodes: the model says
 * where the holes are (a guide for the input, not something checked).
 */
static void next_piece(const struct model *m, unsigned int k, bool back,
		       uint32_t size, const uint8_t arg[2],
		       struct seg_event *ev)
{
	const struct mframe *mf = &m->f[k];
	uint32_t frame_len, start = 0, end, len;
	const uint8_t *have = mf->have, *p;
	int32_t nudge_start = 0, nudge_len = 0;

	if (!mf->live) {
		frame_len = end = (uint32_t)arg[0] << 8 | arg[1];
	} else {
		frame_len = mf->frame_len;
		nudge_start = (int8_t)arg[0];
		nudge_len = (int8_t)arg[1];
		if (!back) {
			p = memchr(have, 0, frame_len);
			start = p ? (uint32_t)(p - have) : frame_len;
			p = memchr(have + start, 1, frame_len - start);
			end = p ? (uint32_t)(p - have) : frame_len;
		} else {
			p = memrchr(have, 0, frame_len);
			end = p ? (uint32_t)(p - have) + 1 : 0;
			p = memrchr(have, 1, end);
			start = p ? (uint32_t)(p - have) + 1 : 0;
		}
	}
	len = end - start;
	if (len > size)
		len = size;
	if (back)
		start = end - len;
	start += nudge_start;
	len = (int32_t)len + nudge_len < 0 ? 0 : len + nudge_len;
	ev->seq = stt_seq_encode((uint16_t)frame_len, (uint16_t)start);
	ev->len = len;
	ev->unchecked = false;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void segment(struct table *t, struct model *m,
		    const struct seg_event *ev)
{
	const uint8_t *content = NULL;
	uint8_t *built = NULL;
	struct verdict got, want;
	uint16_t built_len = 0;

	got = table_rx(t, ev, &built, &built_len);
	want = model_rx(m, ev, &content);
	if (fuzz_trace())
		fprintf(stderr, "%4u key %u seg [%u, +%u) of %u%s: %s%s%s; "
			"%u frames, %zu bytes\n", ev->serial, ev->key,
			stt_seq_offset(ev->seq), ev->len,
			stt_seq_frame_len(ev->seq),
			ev->unchecked ? " unchecked" : "", kind_name(got.kind),
			got.kind == V_ERR ? " " : "",
			got.kind == V_ERR ? stt_err_name(got.err) : "",
			t->nr_frames, t->mem);
	check_verdict(ev, got, want);
	if (got.kind == V_COMPLETE) {
		FUZZ_CHECK(!memcmp(built, content, built_len),
			   "event %u: reassembled frame differs from the "
			   "segments accepted for it", ev->serial);
	}
	free(built);
	check_state(t, m, (int)ev->key);
}

static void comb(struct table *t, struct model *m, unsigned int key,
		 bool reverse, const uint8_t arg[6], uint32_t *serial)
{
	uint16_t frame_len = get16(arg), first = get16(arg + 2);
	uint32_t n = arg[4], len = (arg[5] >> 4) + 1, gap = arg[5] & 15, i;

	if (m->f[key].live)
		frame_len = m->f[key].frame_len;
	for (i = 0; i < n; i++) {
		uint32_t tooth = reverse ? n - 1 - i : i;
		uint32_t offset = first + tooth * (len + gap);
		struct seg_event ev = { .key = key, .serial = (*serial)++ };

		if (offset >= frame_len)
			continue;
		ev.seq = stt_seq_encode(frame_len, (uint16_t)offset);
		ev.len = len;
		segment(t, m, &ev);
	}
}

static void tick(struct table *t, struct model *m, unsigned int n, bool gc)
{
	uint64_t timeouts = t->c.timeouts;

	t->now += n;
	m->now += n;
	if (gc) {
		table_gc(t);
		model_gc(m);
	}
	if (fuzz_trace())
		fprintf(stderr, "     tick %u%s: now %llu, %llu expired; "
			"%u frames, %zu bytes\n", n, gc ? "" : " (no gc)",
			(unsigned long long)t->now,
			(unsigned long long)(t->c.timeouts - timeouts),
			t->nr_frames, t->mem);
	check_state(t, m, -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data + 3, *end = data + size;
	struct table t;
	struct model m;
	uint32_t serial = 0;

	if (size < 3)
		return 0;
	memset(&t, 0, sizeof(t));
	memset(&m, 0, sizeof(m));
	t.budget = m.budget = FRAME_COST + SEG_COST + 16 * (size_t)get16(data);
	t.timeout = m.timeout = 1 + (data[2] & 63);
	if (fuzz_trace())
		fprintf(stderr, "budget %zu bytes, timeout %llu ticks\n",
			t.budget, (unsigned long long)t.timeout);

	while (p < end) {
		uint8_t op = *p++;
		struct seg_event ev = { .key = op & 7, .serial = serial++ };

		switch (op >> 6) {
		case 0:
			if (end - p < 6)
				goto out;
			if (op & 0x20) {
				comb(&t, &m, ev.key, op & 0x10, p, &serial);
				p += 6;
				break;
			}
			ev.seq = (uint32_t)get16(p) << 16 | get16(p + 2);
			ev.len = get16(p + 4) + ((op & 0x10) ? 0x10000 : 0);
			ev.unchecked = op & 0x08;
			p += 6;
			segment(&t, &m, &ev);
			break;
		case 1:
		case 2:
			if (end - p < 2)
				goto out;
			next_piece(&m, ev.key, op >> 6 == 2,
				   size_classes[(op >> 3) & 7], p, &ev);
			p += 2;
			segment(&t, &m, &ev);
			break;
		case 3:
			tick(&t, &m, (op & 31) + 1, !(op & 32));
			break;
		}
	}
out:
	/* Every frame left expires: the table must give back all it took. */
	tick(&t, &m, (unsigned int)t.timeout, true);
	FUZZ_CHECK(t.nr_frames == 0 && t.mem == 0,
		   "after expiry: %u frames, %zu bytes", t.nr_frames, t.mem);
	FUZZ_CHECK(!t.oldest && !t.newest, "after expiry: LRU not empty");
	table_destroy(&t);
	model_destroy(&m);
	return 0;
}
