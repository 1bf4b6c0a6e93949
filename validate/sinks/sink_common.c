/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "sink_common.h"

void tfk_line_reset(struct tfk_line *l)
{
	l->len = 0;
	l->truncated = 0;
	l->buf[0] = '\0';
}

void tfk_line_printf(struct tfk_line *l, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(l->buf) - l->len;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + l->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		l->len = sizeof(l->buf) - 1;
		l->truncated = 1;
	} else {
		l->len += (size_t)n;
	}
}

static void put(struct tfk_line *l, const char *s, size_t n)
{
	if (l->len + n >= sizeof(l->buf)) {
		l->truncated = 1;
		return;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

void tfk_line_json_str(struct tfk_line *l, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	put(l, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[7];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(l, esc, 2);
		} else if (c < 0x20 || c >= 0x7f) {
			/* Sanitised fields never hold these; file names might. */
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			put(l, esc, 6);
		} else {
			put(l, (const char *)&c, 1);
		}
	}
	put(l, "\"", 1);
}

size_t tfk_line_name_len(const char *name)
{
	size_t n = strlen(name);
	return n > 512 ? 512 : n;
}

int tfk_line_flush(struct tfk_line *l, tfk_write_fn write, void *user)
{
	if (l->truncated && l->len > 0)
		l->buf[l->len - 1] = '\n';
	int rc = write(user, l->buf, l->len);
	tfk_line_reset(l);
	return rc;
}
