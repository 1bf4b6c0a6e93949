/* SPDX-License-Identifier: MIT */
/* Keeping the good lines of a line-based text (see common.h). */
#include <stdlib.h>
#include <string.h>

#include "common.h"

bool rp_blob_append(struct rp_blob *b, const uint8_t *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		uint8_t *d = realloc(b->data, cap);
		if (!d)
			return false;
		b->data = d;
		b->cap = cap;
	}
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
