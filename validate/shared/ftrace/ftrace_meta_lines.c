/* SPDX-License-Identifier: MIT */
/* The line formats of kallsyms, printk formats and saved cmdlines, checked line by line. */
#include <stdio.h>
#include <string.h>

#include "ftrace.h"

static bool hex_run(const uint8_t *p, size_t len, size_t *i, size_t min, size_t max)
{
	size_t start = *i;
	while (*i < len && ((p[*i] >= '0' && p[*i] <= '9') || (p[*i] >= 'a' && p[*i] <= 'f') || (p[*i] >= 'A' && p[*i] <= 'F')))
		(*i)++;
	return *i - start >= min && *i - start <= max;
}

/* No control byte but tab; bytes >= 0x80 pass (UTF-8 in names and formats). */
static bool text_bytes(const uint8_t *p, size_t from, size_t len)
{
	for (size_t i = from; i < len; i++)
		if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f)
			return false;
	return true;
}

bool tfk_meta_line_ok(enum tfk_meta_kind kind, const uint8_t *p, size_t len)
{
	size_t i = 0;
	switch (kind) {
	case TFK_META_KALLSYMS: /* "ffffffff81000000 T _stext" or "... name\t[module]" */
		if (!hex_run(p, len, &i, 8, 16) || i + 3 >= len + 0 || p[i] != ' ' || p[i + 1] <= 0x20 || p[i + 1] >= 0x7f ||
		    p[i + 2] != ' ')
			return false;
		i += 3;
		if (i >= len || p[i] <= 0x20)
			return false;
		while (i < len && p[i] > 0x20 && p[i] != 0x7f)
			i++;
		if (i == len)
			return true;
		if (p[i] != '\t' || i + 3 > len || p[i + 1] != '[' || p[len - 1] != ']')
			return false;
		for (size_t k = i + 2; k + 1 < len; k++)
			if (p[k] <= 0x20 || p[k] == 0x7f)
				return false;
		return true;
	case TFK_META_PRINTK: /* 0xffffffff8281972f : "thaw_processes" */
		if (len < 7 || p[0] != '0' || p[1] != 'x')
			return false;
		i = 2;
		if (!hex_run(p, len, &i, 1, 16) || len - i < 4 || memcmp(p + i, " : ", 3) != 0)
			return false;
		return text_bytes(p, i + 3, len);
	case TFK_META_CMDLINES: /* "3001 head" */
		while (i < len && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == 0 || i > 10 || i + 1 >= len || p[i] != ' ')
			return false;
		return text_bytes(p, i + 1, len);
	default:
		return true;
	}
}

void td_check_meta_lines(struct td_check *td, const struct tfk_cursor *text, enum tfk_meta_kind kind, const char *what)
{
	const uint8_t *p;
	if (!tfk_cur_bytes_at(text, 0, text->len, &p))
		return;
	uint64_t bad = 0, first_at = 0, first_len = 0, lines = 0;
	for (uint64_t pos = 0; pos < text->len;) {
		const uint8_t *nl = memchr(p + pos, '\n', (size_t)(text->len - pos));
		uint64_t len = nl ? (uint64_t)(nl - (p + pos)) : text->len - pos;
		if (len && !tfk_meta_line_ok(kind, p + pos, (size_t)len)) {
			if (!bad++) {
				first_at = pos;
				first_len = len;
			}
		}
		lines++;
		pos += len + 1;
	}
	if (!bad)
		return;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_METADATA_BAD_LINE, text->origin + first_at, first_len);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "%s", kind == TFK_META_KALLSYMS ? "\"ADDRESS TYPE NAME\" lines"
				  : kind == TFK_META_PRINTK ? "\"0xADDRESS : \\\"FORMAT\\\"\" lines"
							    : "\"PID COMM\" lines");
	char head[48];
	tfk_sanitize(head, sizeof(head), p + first_at, first_len < 40 ? (size_t)first_len : 40);
	tfk_set_found(f, "%llu bad of %llu lines; the first: \"%s\"", (unsigned long long)bad, (unsigned long long)lines, head);
}
