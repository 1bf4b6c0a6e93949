/* SPDX-License-Identifier: MIT */
/* Keeping the good lines of a line-based text (see common.h). */
#include <stdlib.h>
#include <string.h>

#include "common.h"

bool rp_blob_reserve(struct rp_blob *b, size_t n)
{
	if (n > SIZE_MAX - b->len)
		return false;
	void *d = b->data;
	bool grown = rp_grow(&d, &b->cap, b->len + n, 1);
	b->data = d;
	return grown;
}

bool rp_blob_append(struct rp_blob *b, const uint8_t *p, size_t n)
{
	if (n == SIZE_MAX || !rp_blob_reserve(b, n + 1)) /* and a NUL's room, for text */
		return false;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return true;
}

bool rp_good_lines(enum tfk_meta_kind kind, const uint8_t *p, uint64_t n, struct rp_blob *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	if (!rp_blob_append(b, (const uint8_t *)"", 0))
		return false;
	bool ok = true;
	for (uint64_t pos = 0; pos < n;) {
		const uint8_t *nl = memchr(p + pos, '\n', (size_t)(n - pos));
		uint64_t len = nl ? (uint64_t)(nl - (p + pos)) : n - pos;
		if (len && tfk_meta_line_ok(kind, p + pos, (size_t)len)) {
			ok &= rp_blob_append(b, p + pos, (size_t)len);
			if (nl)
				ok &= rp_blob_append(b, (const uint8_t *)"\n", 1);
		}
		pos += len + 1;
	}
	return ok;
}
