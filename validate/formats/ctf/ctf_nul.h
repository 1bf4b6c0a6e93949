/* SPDX-License-Identifier: MIT */
/*
 * The end of a CTF string field: the first NUL of bytes the caller borrowed from the cursor.
 * Inline: the flat plans (ctf_flat.c) and the lanes (ctf_lane.c) scan every string of every
 * event with it, and most are short.
 */
#ifndef TFK_CTF_NUL_H
#define TFK_CTF_NUL_H

#include <stdint.h>
#include <string.h>

#include "cursor.h"

#define CTF_NUL_WORD_SCAN 32 /* bytes looked at a word at a time before memchr's set-up is worth it */

/*
 * The offset of the first NUL of the n bytes at p, or n when there is none. On a
 * little-endian host a word at a time first: the lowest byte of a word that is zero sets the
 * lowest flag of the classic test (a borrow only ever reaches the bytes above it).
 */
static inline uint64_t ctf_nul_in(const uint8_t *p, uint64_t n)
{
	uint64_t k = 0;
	if (!tfk_host_is_big_endian()) {
		for (; k + 8 <= n && k < CTF_NUL_WORD_SCAN; k += 8) {
			uint64_t w;
			memcpy(&w, p + k, 8);
			const uint64_t z = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
			if (z)
				return k + ((uint64_t)__builtin_ctzll(z) >> 3);
		}
	}
	const uint8_t *nul = k < n ? memchr(p + k, 0, n - k) : NULL;
	return nul ? (uint64_t)(nul - p) : n;
}

#endif
