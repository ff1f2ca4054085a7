/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz targets and the corpus replay driver.
 *
 * A target is one LLVMFuzzerTestOneInput(); it returns 0 for every input and
 * reports a broken invariant by aborting, which libFuzzer records as a crash
 * and the replay driver as a failed file.
 */
#ifndef _STT_FUZZ_H
#define _STT_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void fuzz_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

/* Whether STT_FUZZ_TRACE is set: targets then narrate each input. */
bool fuzz_trace(void);

/* FUZZ_CHECK(cond, "fmt", args...): aborts with the message if !cond. */
#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fuzz_fail(__FILE__, __LINE__, "(" #cond ") "	\
				  __VA_ARGS__);				\
	} while (0)

#endif /* _STT_FUZZ_H */
