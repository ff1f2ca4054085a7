// SPDX-License-Identifier: GPL-2.0

#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s:%d: invariant broken: ", file, line);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

bool fuzz_trace(void)
{
	static int trace = -1;

	if (trace < 0)
		trace = getenv("STT_FUZZ_TRACE") != NULL;
	return trace;
}
