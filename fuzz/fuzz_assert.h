/* SPDX-License-Identifier: MIT */
/* The harnesses' oracle check: always on (release builds too), aborts so every engine sees it. */
#ifndef TFK_FUZZ_ASSERT_H
#define TFK_FUZZ_ASSERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Which inputs pay for a costly oracle: a hash of the whole input, so that a given input
 * always gets the same oracles (a crash replays) while any changed byte re-draws them. Four
 * independent lanes of 8 bytes (an invertible step each: xor, rotate, odd multiply), so that
 * hashing a large input costs a few microseconds, not a multiply chain per byte; computed once
 * per execution, outside the instrumentation (the loop over the input would otherwise add a
 * comparison callback and a shadow check per word). Drawn anew for every mutant, an oracle
 * changes the hit counts of the code it runs again, so the fuzzer keeps somewhat more units
 * than it would with the oracle on every input (a draw from the tail alone, which mutants
 * mostly keep, avoided that but sampled by lineage, not by input: inputs ending in zero
 * padding never met some oracles).
 */
#if defined(__clang__)
__attribute__((no_sanitize("address", "coverage")))
#endif
static inline uint64_t fuzz_input_hash(const uint8_t *data, size_t size)
{
	uint64_t a = size, b = ~(uint64_t)size, c = 0x9e3779b97f4a7c15ull, d = ~c, w[4];
	size_t i = 0;
#define FUZZ_HASH_STEP(lane, word) (lane ^= (word), lane = ((lane << 29) | (lane >> 35)) * 0xff51afd7ed558ccdull)
	for (; size - i >= 32; i += 32) {
		memcpy(w, data + i, 32);
		FUZZ_HASH_STEP(a, w[0]);
		FUZZ_HASH_STEP(b, w[1]);
		FUZZ_HASH_STEP(c, w[2]);
		FUZZ_HASH_STEP(d, w[3]);
	}
#undef FUZZ_HASH_STEP
	uint64_t h = a ^ (b * 3) ^ (c * 5) ^ (d * 7);
	for (; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

/* Does oracle number `oracle` (each its own draw) run for the input of hash h, one input in
 * one_in? Always in the corpus replays (FUZZ_EVERY). */
static inline bool fuzz_sampled(uint64_t h, unsigned oracle, unsigned one_in)
{
	if (FUZZ_EVERY)
		return true;
	uint64_t z = h + 0x9e3779b97f4a7c15ull * (oracle + 1u); /* splitmix64's finaliser */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (z ^ (z >> 31)) % one_in == 0;
}

#endif
