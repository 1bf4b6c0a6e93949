/* SPDX-License-Identifier: MIT */
/* Bit-packed CTF fields (ctf_bits.h reads whole bytes itself): bit by bit, in either byte order. */
#include "ctf_bits.h"

bool ctf_bits_read_packed(struct ctf_bits *b, unsigned size, bool big_endian, uint64_t *v)
{
	const struct tfk_cursor *c = b->c;
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
