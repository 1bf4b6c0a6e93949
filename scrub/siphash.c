/* SPDX-License-Identifier: MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein), the keyed hash behind scrub's pseudonyms: without the
 * key nobody can test a guess ("was the host called build-07?") against a pseudonym.
 */
#include <string.h>

#include "tracefsck/scrub.h"

static inline uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#define SIPROUND                                                                                        \
	do {                                                                                            \
		v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);                             \
		v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                                                 \
		v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                                                 \
		v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);                             \
	} while (0)

uint64_t tfk_siphash(const uint8_t key[TFK_SCRUB_KEY_BYTES], const uint8_t *p, size_t n)
{
	const uint64_t k0 = le64(key), k1 = le64(key + 8);
	uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
	uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
	const size_t whole = n - n % 8;
	for (size_t i = 0; i < whole; i += 8) {
		uint64_t m = le64(p + i);
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	uint64_t b = (uint64_t)n << 56;
	for (size_t i = 0; i < n % 8; i++)
		b |= (uint64_t)p[whole + i] << (8 * i);
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}
