/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal test harness: a test is a void function that makes checks; it
 * fails if any check fails.  Checks report and carry on, and return whether
 * they passed so that loops can stop early.
 */
#ifndef _STT_TEST_HARNESS_H
#define _STT_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stt_err.h"

struct test {
	const char *name;
	void (*fn)(void);
};

bool check_true(const char *file, int line, const char *expr, bool ok);
bool check_eq(const char *file, int line, const char *a_expr,
	      const char *b_expr, unsigned long long a, unsigned long long b);
bool check_err(const char *file, int line, const char *expr,
	       enum stt_err got, enum stt_err want);
bool check_mem(const char *file, int line, const char *expr,
	       const void *got, const void *want, size_t len);

#define CHECK(cond) check_true(__FILE__, __LINE__, #cond, (cond))
#define CHECK_EQ(a, b) check_eq(__FILE__, __LINE__, #a, #b, (a), (b))
#define CHECK_ERR(got, want) check_err(__FILE__, __LINE__, #got, (got), (want))
#define CHECK_MEM(got, want, len) \
	check_mem(__FILE__, __LINE__, #got, (got), (want), (len))

/* Runs the tests named in @argv, or all of them; returns the exit status. */
int test_main(const struct test *tests, size_t n, int argc, char *argv[]);

/* xorshift64: reproducible pseudo-random numbers; the state must not be 0. */
uint64_t prng_next(uint64_t *state);
/* Uniform enough in [lo, hi] (inclusive) for tests. */
uint32_t prng_range(uint64_t *state, uint32_t lo, uint32_t hi);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* _STT_TEST_HARNESS_H */
