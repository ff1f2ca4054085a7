// SPDX-License-Identifier: GPL-2.0

#include "harness.h"

#include <stdio.h>
#include <string.h>

/* Beyond this, a broken property test would only flood the output. */
#define MAX_REPORTS 10

static unsigned int failures;

static bool report(const char *file, int line)
{
	if (++failures > MAX_REPORTS)
		return false;
	printf("  %s:%d: ", file, line);
	return true;
}

bool check_true(const char *file, int line, const char *expr, bool ok)
{
	if (!ok && report(file, line))
		printf("%s is false\n", expr);
	return ok;
}

bool check_eq(const char *file, int line, const char *a_expr,
	      const char *b_expr, unsigned long long a, unsigned long long b)
{
	if (a != b && report(file, line))
		printf("%s == %s: 0x%llx != 0x%llx\n", a_expr, b_expr, a, b);
	return a == b;
}

bool check_err(const char *file, int line, const char *expr,
	       enum stt_err got, enum stt_err want)
{
	if (got != want && report(file, line))
		printf("%s: got %s, want %s\n", expr, stt_err_name(got),
		       stt_err_name(want));
	return got == want;
}

bool check_mem(const char *file, int line, const char *expr,
	       const void *got, const void *want, size_t len)
{
	const unsigned char *g = got, *w = want;
	size_t i;

	if (!memcmp(got, want, len))
		return true;
	if (report(file, line)) {
		printf("%s differs:\n    got ", expr);
		for (i = 0; i < len; i++)
			printf(" %02x", g[i]);
		printf("\n    want");
		for (i = 0; i < len; i++)
			printf(" %02x", w[i]);
		printf("\n");
	}
	return false;
}

static bool selected(const char *name, int argc, char *argv[])
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

int test_main(const struct test *tests, size_t n, int argc, char *argv[])
{
	unsigned int passed = 0, failed = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!selected(tests[i].name, argc, argv))
			continue;
		failures = 0;
		tests[i].fn();
		if (failures > MAX_REPORTS)
			printf("  ... %u failed checks in all\n", failures);
		printf("%s %s\n", failures ? "FAIL" : "PASS", tests[i].name);
		if (failures)
			failed++;
		else
			passed++;
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed || !passed ? 1 : 0;
}

uint64_t prng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

uint32_t prng_range(uint64_t *state, uint32_t lo, uint32_t hi)
{
	uint64_t span = (uint64_t)hi - lo + 1;

	return lo + (uint32_t)(prng_next(state) % span);
}
