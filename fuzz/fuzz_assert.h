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

/* Replays of the corpus build with FUZZ_EVERY_ORACLE: their inputs are few and chosen, so the
 * oracles a fuzzer samples for speed (FUZZ_EVERY || sampled) run on each of them. */
#ifdef FUZZ_EVERY_ORACLE
#define FUZZ_EVERY 1
#else
#define FUZZ_EVERY 0
#endif

#endif
