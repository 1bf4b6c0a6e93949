/* SPDX-License-Identifier: MIT */
/* The harnesses' oracle check: always on (release builds too), aborts so every engine sees it. */
#ifndef TFK_FUZZ_ASSERT_H
#define TFK_FUZZ_ASSERT_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(cond)                                                                               \
	do {                                                                                            \
		if (!(cond)) {                                                                          \
			fprintf(stderr, "fuzz oracle failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
			abort();                                                                        \
		}                                                                                       \
	} while (0)

#endif
