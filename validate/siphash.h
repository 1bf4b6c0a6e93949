/* SPDX-License-Identifier: MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein), fed in pieces: the core's one keyed hash. Scrub draws
 * its pseudonyms from it (tfk_siphash, scrub.h); the format memo names a format text by its
 * 128-bit form and seals the entries of its cache with it (format_memo.c). Without the key
 * nobody can make two texts hash alike, or forge an entry that verifies.
 */
#ifndef TFK_SIPHASH_H
#define TFK_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define TFK_SIP_KEY_BYTES 16
#define TFK_SIP128_BYTES 16

struct tfk_sip {
	uint64_t v0, v1, v2, v3;
	uint64_t tail;      /* the bytes of an unfinished word, little-endian */
	size_t len;         /* bytes fed so far */
	int wide;           /* 128-bit output */
};

/* Begin a hash under key: wide (nonzero) for the 128-bit output, else 64. */
void tfk_sip_init(struct tfk_sip *s, const uint8_t key[TFK_SIP_KEY_BYTES], int wide);
void tfk_sip_update(struct tfk_sip *s, const void *p, size_t n);
/* The 64-bit hash (a hash begun narrow). */
uint64_t tfk_sip_final64(struct tfk_sip *s);
/* The 128-bit hash (a hash begun wide), as the reference writes it: two little-endian words. */
void tfk_sip_final128(struct tfk_sip *s, uint8_t out[TFK_SIP128_BYTES]);

#endif
