/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "tracefsck/sink.h"

void tfk_sanitize_text(char *dst, size_t dst_size, const void *src, size_t src_len, bool escape_backslash)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *s = src;
	size_t o = 0;

	if (dst_size == 0)
		return;
	for (size_t i = 0; i < src_len; i++) {
		uint8_t b = s[i];
		bool plain = b >= 0x20 && b <= 0x7e && (b != '\\' || !escape_backslash);
		size_t need = plain ? 1 : 4;
		/* Keep room for "..." and the terminator when more input follows. */
		size_t reserve = (i + 1 < src_len) ? 4 : 1;
		if (o + need + reserve > dst_size) {
			if (dst_size >= 4 && o + 4 <= dst_size) {
				memcpy(dst + o, "...", 3);
				o += 3;
			}
			break;
		}
		if (plain) {
			dst[o++] = (char)b;
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[b >> 4];
			dst[o++] = hex[b & 15];
		}
	}
	dst[o < dst_size ? o : dst_size - 1] = '\0';
}

void tfk_sanitize(char *dst, size_t dst_size, const void *src, size_t src_len)
{
	tfk_sanitize_text(dst, dst_size, src, src_len, true);
}

char *tfk_sanitize_dup(const void *src, size_t src_len)
{
	/* at most 4 bytes out for each byte in, and the terminator */
	if (src_len > (SIZE_MAX - 1) / 4)
		return NULL;
	size_t n = 4 * src_len + 1;
	char *dst = malloc(n);
	if (dst)
		tfk_sanitize(dst, n, src, src_len);
	return dst;
}
