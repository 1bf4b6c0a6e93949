/* SPDX-License-Identifier: MIT */
/*
 * The line formats of kallsyms, printk formats and saved cmdlines (tfk_meta_line_ok): public,
 * so in every build whatever its formats; the findings on such texts are the ftrace checker's
 * (shared/ftrace/ftrace_meta_lines.c).
 */
#include <stdio.h>
#include <string.h>

#include "tracefsck/observer.h"

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
