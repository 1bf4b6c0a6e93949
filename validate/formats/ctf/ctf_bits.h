/* SPDX-License-Identifier: MIT */
/*
 * Bit-level reads of CTF fields: positions in bits from the packet start, fields of 1 to 64
 * bits in either byte order (CTF 1.8 section 4.1.5), every byte through the cursor. Inline:
 * every field of every event goes through them, and a call per field was a tenth of a check.
 */
#ifndef TFK_CTF_BITS_H
#define TFK_CTF_BITS_H

#include <stdbool.h>
#include <stdint.h>

#include "cursor.h"

struct ctf_bits {
	const struct tfk_cursor *c; /* the packet: positions are bits from its start */
	uint64_t pos;               /* bits */
	uint64_t limit;             /* bits: content end */
};

static inline bool ctf_bits_align(struct ctf_bits *b, unsigned align)
{
	if (align <= 1)
		return b->pos <= b->limit;
	uint64_t a = align;
	uint64_t rem = b->pos % a;
	if (rem) {
		uint64_t step = a - rem;
		if (step > b->limit - (b->pos < b->limit ? b->pos : b->limit) || b->pos > b->limit)
			return false;
		b->pos += step;
	}
	return b->pos <= b->limit;
}

static inline bool ctf_bits_read(struct ctf_bits *b, unsigned size, bool big_endian, uint64_t *v)
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
		if (big_endian)
			for (unsigned i = 0; i < n; i++)
				r = (r << 8) | p[i];
		else
			for (unsigned i = n; i-- > 0;)
				r = (r << 8) | p[i];
		*v = r;
		b->pos += size;
		return true;
	}
	uint64_t first = b->pos / 8, last = (b->pos + size - 1) / 8;
	const uint8_t *p;
	if (!tfk_cur_bytes_at(c, first, last - first + 1, &p))
		return false;
	uint64_t r = 0;
	unsigned start = (unsigned)(b->pos % 8);
	if (big_endian) {
		/* Bits run from the most significant bit of each byte. */
		for (unsigned i = 0; i < size; i++) {
			unsigned bit = start + i;
			unsigned byte = p[bit / 8];
			r = (r << 1) | ((byte >> (7 - bit % 8)) & 1u);
		}
	} else {
		for (unsigned i = 0; i < size; i++) {
			unsigned bit = start + i;
			uint64_t one = (p[bit / 8] >> (bit % 8)) & 1u;
			r |= one << i;
		}
	}
	*v = r;
	b->pos += size;
	return true;
}

#endif
