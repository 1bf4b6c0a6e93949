/* SPDX-License-Identifier: MIT */
/*
 * Bit-level reads of CTF fields: positions in bits from the packet start, fields of 1 to 64
 * bits in either byte order (CTF 1.8 section 4.1.5), every byte through the cursor. Inline:
 * every field of every event goes through them, and a call per field was a tenth of a check
 * (bit-packed fields, rarer, are read out of line).
 */
#ifndef TFK_CTF_BITS_H
#define TFK_CTF_BITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cursor.h"

struct ctf_bits {
	const struct tfk_cursor *c; /* the packet: positions are bits from its start */
	uint64_t pos;               /* bits */
	uint64_t limit;             /* bits: content end */
};

/* A field that is not whole bytes at a byte boundary (ctf_bits.c). The caller checked the bounds. */
bool ctf_bits_read_packed(struct ctf_bits *b, unsigned size, bool big_endian, uint64_t *v);

static inline bool ctf_bits_align(struct ctf_bits *b, unsigned align)
{
	if (align <= 1)
		return b->pos <= b->limit;
	uint64_t a = align;
	/* alignments are powers of two in every real trace: a mask, not a division */
	uint64_t rem = (a & (a - 1)) == 0 ? b->pos & (a - 1) : b->pos % a;
	if (rem) {
		uint64_t step = a - rem;
		if (step > b->limit - (b->pos < b->limit ? b->pos : b->limit) || b->pos > b->limit)
			return false;
		b->pos += step;
	}
	return b->pos <= b->limit;
}

static inline __attribute__((always_inline)) bool ctf_bits_read(struct ctf_bits *b, unsigned size, bool big_endian,
							  uint64_t *v)
{
	if (size == 0 || size > 64 || b->pos > b->limit || size > b->limit - b->pos)
		return false;
	const struct tfk_cursor *c = b->c;
	if (b->pos % 8 == 0 && size % 8 == 0) {
		uint64_t at = b->pos / 8, r = 0;
		unsigned n = size / 8;
		const uint8_t *p;
		if (!tfk_cur_bytes_at(c, at, n, &p))
			return false;
		const bool swap = big_endian != tfk_host_is_big_endian();
		if (n == 8) { /* the common widths as single loads */
			uint64_t x;
			memcpy(&x, p, 8);
			r = tfk_bswap64_if(x, swap);
		} else if (n == 4) {
			r = tfk_lent_u32(p, swap);
		} else if (n == 1) {
			r = p[0];
		} else if (big_endian) {
			for (unsigned i = 0; i < n; i++)
				r = (r << 8) | p[i];
		} else {
			for (unsigned i = n; i-- > 0;)
				r = (r << 8) | p[i];
		}
		*v = r;
		b->pos += size;
		return true;
	}
	return ctf_bits_read_packed(b, size, big_endian, v);
}

#endif
