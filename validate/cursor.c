/* SPDX-License-Identifier: MIT */
#include "cursor.h"

enum tfk_cstr_status tfk_cur_cstr(struct tfk_cursor *c, uint64_t max, const char **s, uint64_t *len)
{
	uint64_t left = tfk_cur_left(c);
	uint64_t window = left;
	bool capped = false;

	/* Look at most max + 1 bytes: the string and its terminator. */
	if (max < UINT64_MAX && window > max + 1) {
		window = max + 1;
		capped = true;
	}
	const uint8_t *start = c->base + c->pos;
	const uint8_t *nul = window ? memchr(start, 0, (size_t)window) : NULL;
	if (!nul) {
		*len = window;
		return capped ? TFK_CSTR_TOO_LONG : TFK_CSTR_UNTERMINATED;
	}
	*s = (const char *)start;
	*len = (uint64_t)(nul - start);
	c->pos += *len + 1;
	return TFK_CSTR_OK;
}

enum tfk_sub_status tfk_cur_sub(const struct tfk_cursor *parent, uint64_t at, uint64_t n, struct tfk_cursor *out)
{
	if (at > parent->len) {
		*out = tfk_cur_make(parent->base + parent->len, 0, parent->origin + parent->len, parent->big_endian);
		return TFK_SUB_OUTSIDE;
	}
	uint64_t avail = parent->len - at;
	enum tfk_sub_status st = TFK_SUB_OK;
	if (n > avail) {
		n = avail;
		st = TFK_SUB_CLIPPED;
	}
	*out = tfk_cur_make(parent->base + at, n, parent->origin + at, parent->big_endian);
	return st;
}

int64_t tfk_cur_find(const struct tfk_cursor *c, const void *needle, size_t n)
{
	uint64_t left = tfk_cur_left(c);
	if (n == 0 || n > left)
		return -1;
	const uint8_t *hay = c->base + c->pos;
	const uint8_t *hit = memmem(hay, (size_t)left, needle, n);
	if (!hit)
		return -1;
	return (int64_t)(c->pos + (uint64_t)(hit - hay));
}
