/* SPDX-License-Identifier: MIT */
/* kallsyms, printk formats and saved cmdlines checked line by line (tfk_meta_line_ok's grammar). */
#include <stdio.h>
#include <string.h>

#include "ftrace.h"

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
