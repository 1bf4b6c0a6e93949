/* SPDX-License-Identifier: MIT */
/* Overflow-checked arithmetic for offsets and sizes read from a file. */
#ifndef TFK_ARITH_H
#define TFK_ARITH_H

#include <stdbool.h>
#include <stdint.h>

/* a + b into *out; false (and *out untouched) if it would wrap. */
static inline bool tfk_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return false;
	*out = r;
	return true;
}

static inline bool tfk_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		return false;
	*out = r;
	return true;
}

static inline bool tfk_is_pow2(uint64_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

/* Round x up to a multiple of align (any non-zero align); false on zero align or wrap. */
static inline bool tfk_align_up(uint64_t x, uint64_t align, uint64_t *out)
{
	if (align == 0)
		return false;
	uint64_t rem = x % align;
	if (rem == 0) {
		*out = x;
		return true;
	}
	return tfk_add_u64(x, align - rem, out);
}

/* Does [off, off + len) lie inside [0, size)? Written so nothing can wrap. */
static inline bool tfk_range_fits(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

#endif
