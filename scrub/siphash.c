/* SPDX-License-Identifier: MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein), the keyed hash behind scrub's pseudonyms: without the
 * key nobody can test a guess ("was the host called build-07?") against a pseudonym. The
 * algorithm is the core's (validate/siphash.c), which the format memo shares.
 */
#include "siphash.h"
#include "tracefsck/scrub.h"

uint64_t tfk_siphash(const uint8_t key[TFK_SCRUB_KEY_BYTES], const uint8_t *p, size_t n)
{
	struct tfk_sip s;
	tfk_sip_init(&s, key, 0);
	tfk_sip_update(&s, p, n);
	return tfk_sip_final64(&s);
}
