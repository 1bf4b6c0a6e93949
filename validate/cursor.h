/* SPDX-License-Identifier: MIT */
/*
 * The bounds-checked cursor: the one gate every byte of a trace goes through.
 *
 * A cursor is a view (base, length) with a position, the absolute file offset of its first
 * byte, and the byte order of the numbers in it. Reads either succeed completely or fail and
 * leave the position where it was; nothing ever reads short or outside the view. Sub-views are
 * clipped to their parent, and the caller is told when clipping happened.
 */
#ifndef TFK_CURSOR_H
#define TFK_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arith.h"

struct tfk_cursor {
	const uint8_t *base;
	uint64_t len;
	uint64_t pos;
	uint64_t origin;  /* absolute file offset of base[0] */
	bool big_endian;
};

static inline struct tfk_cursor tfk_cur_make(const uint8_t *base, uint64_t len, uint64_t origin, bool big_endian)
{
	struct tfk_cursor c = { base, base ? len : 0, 0, origin, big_endian };
	return c;
}

static inline uint64_t tfk_cur_left(const struct tfk_cursor *c)
{
	return c->len - c->pos;
}

/* Absolute file offset of the current position. */
static inline uint64_t tfk_cur_abs(const struct tfk_cursor *c)
{
	return c->origin + c->pos;
}

static inline bool tfk_cur_seek(struct tfk_cursor *c, uint64_t pos)
{
	if (pos > c->len)
		return false;
	c->pos = pos;
	return true;
}

/* Seek to an absolute file offset; false if it is outside the view. */
static inline bool tfk_cur_seek_abs(struct tfk_cursor *c, uint64_t abs)
{
	if (abs < c->origin)
		return false;
	return tfk_cur_seek(c, abs - c->origin);
}

static inline bool tfk_cur_skip(struct tfk_cursor *c, uint64_t n)
{
	if (n > tfk_cur_left(c))
		return false;
	c->pos += n;
	return true;
}

static inline uint16_t tfk_bswap16_if(uint16_t v, bool swap) { return swap ? __builtin_bswap16(v) : v; }
static inline uint32_t tfk_bswap32_if(uint32_t v, bool swap) { return swap ? __builtin_bswap32(v) : v; }
static inline uint64_t tfk_bswap64_if(uint64_t v, bool swap) { return swap ? __builtin_bswap64(v) : v; }

static inline bool tfk_host_is_big_endian(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return true;
#else
	return false;
#endif
}

static inline bool tfk_cur_swap(const struct tfk_cursor *c)
{
	return c->big_endian != tfk_host_is_big_endian();
}

/* Random-access reads at a view-relative position; the cursor does not move. */
static inline bool tfk_cur_u8_at(const struct tfk_cursor *c, uint64_t at, uint8_t *v)
{
	if (!tfk_range_fits(at, 1, c->len))
		return false;
	*v = c->base[at];
	return true;
}

static inline bool tfk_cur_u16_at(const struct tfk_cursor *c, uint64_t at, uint16_t *v)
{
	uint16_t r;
	if (!tfk_range_fits(at, 2, c->len))
		return false;
	memcpy(&r, c->base + at, 2);
	*v = tfk_bswap16_if(r, tfk_cur_swap(c));
	return true;
}

static inline bool tfk_cur_u32_at(const struct tfk_cursor *c, uint64_t at, uint32_t *v)
{
	uint32_t r;
	if (!tfk_range_fits(at, 4, c->len))
		return false;
	memcpy(&r, c->base + at, 4);
	*v = tfk_bswap32_if(r, tfk_cur_swap(c));
	return true;
}

static inline bool tfk_cur_u64_at(const struct tfk_cursor *c, uint64_t at, uint64_t *v)
{
	uint64_t r;
	if (!tfk_range_fits(at, 8, c->len))
		return false;
	memcpy(&r, c->base + at, 8);
	*v = tfk_bswap64_if(r, tfk_cur_swap(c));
	return true;
}

/* Sequential reads: advance only on success. */
static inline bool tfk_cur_u8(struct tfk_cursor *c, uint8_t *v)
{
	if (!tfk_cur_u8_at(c, c->pos, v))
		return false;
	c->pos += 1;
	return true;
}

static inline bool tfk_cur_u16(struct tfk_cursor *c, uint16_t *v)
{
	if (!tfk_cur_u16_at(c, c->pos, v))
		return false;
	c->pos += 2;
	return true;
}

static inline bool tfk_cur_u32(struct tfk_cursor *c, uint32_t *v)
{
	if (!tfk_cur_u32_at(c, c->pos, v))
		return false;
	c->pos += 4;
	return true;
}

static inline bool tfk_cur_u64(struct tfk_cursor *c, uint64_t *v)
{
	if (!tfk_cur_u64_at(c, c->pos, v))
		return false;
	c->pos += 8;
	return true;
}

/* Borrow n bytes at the position (pointer into the view) and advance past them. */
static inline bool tfk_cur_bytes(struct tfk_cursor *c, uint64_t n, const uint8_t **p)
{
	if (n > tfk_cur_left(c))
		return false;
	*p = c->base + c->pos;
	c->pos += n;
	return true;
}

/* Borrow n bytes at a view-relative position without moving. */
static inline bool tfk_cur_bytes_at(const struct tfk_cursor *c, uint64_t at, uint64_t n, const uint8_t **p)
{
	if (!tfk_range_fits(at, n, c->len))
		return false;
	*p = c->base + at;
	return true;
}

/*
 * Numbers inside bytes a cursor lent (tfk_cur_bytes_at): the caller has proven at + width
 * within what it borrowed. For hot loops that check one span once instead of every field.
 */
static inline uint16_t tfk_lent_u16(const uint8_t *p, bool swap)
{
	uint16_t r;
	memcpy(&r, p, 2);
	return tfk_bswap16_if(r, swap);
}

static inline uint32_t tfk_lent_u32(const uint8_t *p, bool swap)
{
	uint32_t r;
	memcpy(&r, p, 4);
	return tfk_bswap32_if(r, swap);
}

static inline uint64_t tfk_lent_u64(const uint8_t *p, bool swap)
{
	uint64_t r;
	memcpy(&r, p, 8);
	return tfk_bswap64_if(r, swap);
}

/* Do the n bytes at the position equal lit? Never advances; false when fewer than n are left. */
static inline bool tfk_cur_has(const struct tfk_cursor *c, const void *lit, uint64_t n)
{
	return n <= tfk_cur_left(c) && memcmp(c->base + c->pos, lit, n) == 0;
}

enum tfk_cstr_status {
	TFK_CSTR_OK = 0,
	TFK_CSTR_UNTERMINATED, /* no NUL before the end of the view */
	TFK_CSTR_TOO_LONG,     /* no NUL within max bytes */
};

/*
 * Read a NUL-terminated string of at most max bytes (NUL excluded). On success *s points into
 * the view, *len is its length and the position moves past the NUL. Otherwise the position is
 * unchanged and *len says how many bytes were examined.
 */
enum tfk_cstr_status tfk_cur_cstr(struct tfk_cursor *c, uint64_t max, const char **s, uint64_t *len);

enum tfk_sub_status {
	TFK_SUB_OK = 0,
	TFK_SUB_CLIPPED, /* the requested range ran past the parent; the view holds what exists */
	TFK_SUB_OUTSIDE, /* the start itself is past the parent; the view is empty */
};

/*
 * A sub-view of [at, at + n) (view-relative) clipped to the parent. The sub-view keeps the
 * byte order and maps its own offsets back to absolute file offsets.
 */
enum tfk_sub_status tfk_cur_sub(const struct tfk_cursor *parent, uint64_t at, uint64_t n, struct tfk_cursor *out);

/* Find the first occurrence of needle at or after the position; view-relative offset or -1. */
int64_t tfk_cur_find(const struct tfk_cursor *c, const void *needle, size_t n);

#endif
