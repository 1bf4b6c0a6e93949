/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink_common.h"

void tfk_free_string(char **s)
{
	free(*s);
	*s = NULL;
}

void tfk_line_free(struct tfk_line *l)
{
	if (l->buf && l->buf != l->small)
		free(l->buf);
	l->buf = l->small;
	l->cap = sizeof(l->small);
}

void tfk_line_reset(struct tfk_line *l)
{
	/* a line on the heap is freed by flush or TFK_LINE's cleanup, never here: buf may be stack garbage */
	l->buf = l->small;
	l->cap = sizeof(l->small);
	l->len = 0;
	l->truncated = 0;
	l->buf[0] = '\0';
}

/* Room for need more bytes and a NUL; false (the line truncated) when memory is short. */
static bool grow(struct tfk_line *l, size_t need)
{
	if (l->truncated)
		return false;
	if (l->len + need < l->cap)
		return true;
	size_t cap = l->cap;
	while (cap <= l->len + need) {
		if (cap > SIZE_MAX / 2) {
			l->truncated = 1;
			return false;
		}
		cap *= 2;
	}
	char *p = l->buf == l->small ? malloc(cap) : realloc(l->buf, cap);
	if (!p) {
		l->truncated = 1;
		return false;
	}
	if (l->buf == l->small)
		memcpy(p, l->small, l->len + 1);
	l->buf = p;
	l->cap = cap;
	return true;
}

void tfk_line_printf(struct tfk_line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !grow(l, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(l->buf + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	l->len += (size_t)n;
}

static void put(struct tfk_line *l, const char *s, size_t n)
{
	if (!grow(l, n))
		return;
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
	return strlen(name);
}

int tfk_line_flush(struct tfk_line *l, tfk_write_fn write, void *user)
{
	/* a line memory cut short is not written: half a JSON object is worse than none */
	int rc = l->truncated ? -1 : write(user, l->buf, l->len);
	tfk_line_free(l);
	tfk_line_reset(l);
	return rc;
}
