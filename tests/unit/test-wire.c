// SPDX-License-Identifier: GPL-2.0

#include "harness.h"
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "stt_err.h"
#include "stt_wire.h"

void test_be_helpers(void)
{
	static const u8 seq[9] = { 0xff, 0x81, 0x02, 0x03, 0x04,
				   0x05, 0x06, 0x07, 0x88 };
	u8 buf[12], want[12];
	uint64_t rng = 0x1234567887654321ULL;
	unsigned int i, off;

	/* Loads must neither sign-extend nor depend on alignment. */
	CHECK_EQ(stt_get_be16(seq), 0xff81);
	CHECK_EQ(stt_get_be16(seq + 7), 0x0788);
	CHECK_EQ(stt_get_be32(seq), 0xff810203);
	CHECK_EQ(stt_get_be32(seq + 1), 0x81020304);
	CHECK_EQ(stt_get_be64(seq), 0xff81020304050607ULL);
	CHECK_EQ(stt_get_be64(seq + 1), 0x8102030405060788ULL);

	/* Stores write exactly their bytes, most significant first. */
	for (off = 0; off < 4; off++) {
		memset(buf, 0xa5, sizeof(buf));
		memset(want, 0xa5, sizeof(want));
		stt_put_be16(buf + off, 0x8102);
		memcpy(want + off, "\x81\x02", 2);
		CHECK_MEM(buf, want, sizeof(buf));

		memset(buf, 0xa5, sizeof(buf));
		memset(want, 0xa5, sizeof(want));
		stt_put_be32(buf + off, 0x81020304);
		memcpy(want + off, "\x81\x02\x03\x04", 4);
		CHECK_MEM(buf, want, sizeof(buf));

		memset(buf, 0xa5, sizeof(buf));
		memset(want, 0xa5, sizeof(want));
		stt_put_be64(buf + off, 0x8102030405060788ULL);
		memcpy(want + off, "\x81\x02\x03\x04\x05\x06\x07\x88", 8);
		CHECK_MEM(buf, want, sizeof(buf));
	}

	for (i = 0; i < 10000; i++) {
		uint64_t v = prng_next(&rng);

		off = i % 4;
		stt_put_be16(buf + off, (u16)v);
		if (!CHECK_EQ(stt_get_be16(buf + off), (u16)v))
			break;
		stt_put_be32(buf + off, (u32)v);
		if (!CHECK_EQ(stt_get_be32(buf + off), (u32)v))
			break;
		stt_put_be64(buf + off, v);
		if (!CHECK_EQ(stt_get_be64(buf + off), v))
			break;
	}
}

void test_seq_encoding(void)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	CHECK_EQ(stt_seq_encode(0x1234, 0xabcd), 0x1234abcd);
	CHECK_EQ(stt_seq_encode(0xffff, 0), 0xffff0000);
	CHECK_EQ(stt_seq_encode(0, 0xffff), 0x0000ffff);
	CHECK_EQ(stt_seq_encode(0xffff, 0xffff), 0xffffffff);
	CHECK_EQ(stt_seq_frame_len(0x1234abcd), 0x1234);
	CHECK_EQ(stt_seq_offset(0x1234abcd), 0xabcd);
	CHECK_EQ(stt_seq_frame_len(0xffff0001), 0xffff);
	CHECK_EQ(stt_seq_offset(0xffff0001), 1);

	/* Segmentation adds the payload offset to the sender's len << 16. */
	CHECK_EQ(stt_seq_encode(9000, 0) + 1448, stt_seq_encode(9000, 1448));

	for (i = 0; i < 10000; i++) {
		u16 len = (u16)prng_next(&rng), off = (u16)prng_next(&rng);
		u32 seq = stt_seq_encode(len, off);

		if (!CHECK_EQ(stt_seq_frame_len(seq), len) ||
		    !CHECK_EQ(stt_seq_offset(seq), off))
			break;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * @nr_cpus cursors, each started as if its CPU had already sent @sent frames,
 * draw @steps ids apiece in a random interleaving; no id may repeat.
 */
static void check_cursors(u32 nr_cpus, u32 sent, u32 steps, uint64_t *rng)
{
	size_t total = (size_t)nr_cpus * steps, i;
	u32 *cursor = calloc(nr_cpus, sizeof(*cursor));
	u32 *drawn = calloc(nr_cpus, sizeof(*drawn));
	u32 *ids = calloc(total, sizeof(*ids));
	u32 cpu;

	if (!CHECK(cursor && drawn && ids))
		goto out;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		cursor[cpu] = cpu + nr_cpus * sent;

	for (i = 0; i < total; i++) {
		cpu = prng_range(rng, 0, nr_cpus - 1);
		while (drawn[cpu] == steps)
			cpu = (cpu + 1) % nr_cpus;
		drawn[cpu]++;
		ids[i] = stt_frame_id_next(&cursor[cpu], nr_cpus);
		if (!CHECK_EQ(ids[i] % nr_cpus, cpu))
			goto out;
	}

	qsort(ids, total, sizeof(*ids), cmp_u32);
	for (i = 1; i < total; i++)
		if (!CHECK(ids[i - 1] != ids[i]))
			break;
out:
	free(cursor);
	free(drawn);
	free(ids);
}

void test_frame_id_cursors(void)
{
	static const u32 cpus[] = { 1, 2, 3, 4, 7, 8, 16, 64, 255 };
	uint64_t rng = 42;
	u32 cursor;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus); i++) {
		u32 steps = 8192, last = 0xffffffffU / cpus[i] - 1 - steps;

		check_cursors(cpus[i], 0, steps, &rng);
		/* Right up to the last ids before the cursors wrap. */
		check_cursors(cpus[i], last, steps, &rng);
	}

	/* The cursor is returned, then advanced, modulo 2^32. */
	cursor = 5;
	CHECK_EQ(stt_frame_id_next(&cursor, 3), 5);
	CHECK_EQ(cursor, 8);
	cursor = 0xfffffffe;
	CHECK_EQ(stt_frame_id_next(&cursor, 4), 0xfffffffe);
	CHECK_EQ(cursor, 2);
}

void test_err_names(void)
{
	/* These become counter names: changing one breaks users' scripts. */
	static const char * const want[STT_ERR_MAX] = {
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
	int e, other;

	CHECK_EQ(STT_OK, 0);
	for (e = 0; e < STT_ERR_MAX; e++) {
		const char *name = stt_err_name(e);

		if (!CHECK(name != NULL))
			continue;
		CHECK(want[e] && !strcmp(name, want[e]));
		CHECK(name[0] != '\0');
		CHECK(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		      strlen(name));
		CHECK(strcmp(name, "unknown") != 0);
		for (other = 0; other < e; other++)
			CHECK(strcmp(name, stt_err_name(other)) != 0);
	}

	CHECK(!strcmp(stt_err_name(STT_ERR_MAX), "unknown"));
	CHECK(!strcmp(stt_err_name(STT_ERR_MAX + 100), "unknown"));
	CHECK(!strcmp(stt_err_name((enum stt_err)-1), "unknown"));
}
