/* SPDX-License-Identifier: MIT */
/*
 * The tracing-data bundle perf stores in HEADER_TRACING_DATA (and pipe-mode TRACING_DATA
 * records): a trace.dat v6 metadata block with a longer version string and no CPU data.
 *   magic(10) "0.6\0" endian(1) long_size(1) page_size(u32) header_page header_event
 *   ftrace formats, event systems, kallsyms, printk, saved cmdlines (0.6 and later)
 */
#include <string.h>

#include "ftrace.h"
#include "ftrace_bundle.h"

void td_check_tracing_bundle(struct tfk_ctx *ctx, const struct tfk_cursor *blob, const char *where)
{
	struct td_check td;
	td_check_init(&td, ctx, blob);
	struct tfk_finding *f;

	const uint8_t *magic;
	if (!tfk_cur_bytes_at(blob, 0, TD_MAGIC_LEN, &magic)) {
		struct tfk_finding *t = tfk_emit(ctx, TFK_TRACEDAT_FILE_TRUNCATED, blob->origin, blob->len);
		tfk_set_path(t, "%s", where);
		tfk_set_expected(t, "a tracing-data bundle of at least %d bytes", TD_MAGIC_LEN);
		tfk_set_found(t, "%llu bytes", (unsigned long long)blob->len);
		return;
	}
	if (memcmp(magic, TD_MAGIC, TD_MAGIC_LEN) != 0) {
		f = tfk_emit(ctx, TFK_TRACEDAT_HEADER_BAD_MAGIC, blob->origin, TD_MAGIC_LEN);
		tfk_set_path(f, "%s", where);
		tfk_set_expected(f, "bytes 17 08 44 then \"tracing\"");
		tfk_set_found_bytes(f, magic, TD_MAGIC_LEN);
		return; /* not a bundle at all: nothing below can be located */
	}
	/* The version is a short C string ("0.5", "0.6"). */
	uint64_t pos = TD_MAGIC_LEN, vlen = 0;
	uint8_t ch = 1;
	while (vlen < 8 && tfk_cur_u8_at(blob, pos + vlen, &ch) && ch)
		vlen++;
	const uint8_t *h;
	if (ch != 0 || !tfk_cur_bytes_at(blob, pos + vlen + 1, 6, &h)) {
		f = tfk_emit(ctx, TFK_TRACEDAT_HEADER_BAD_VERSION, blob->origin + pos, vlen);
		tfk_set_path(f, "%s", where);
		tfk_set_expected(f, "a version string such as \"0.6\" and the header after it");
		tfk_set_found(f, "%llu bytes without a NUL", (unsigned long long)vlen);
		return;
	}
	pos += vlen + 1;
	if (h[0] > 1) {
		f = tfk_emit(ctx, TFK_TRACEDAT_HEADER_BAD_ENDIAN, blob->origin + pos, 1);
		tfk_set_path(f, "%s", where);
		tfk_set_expected(f, "0 or 1");
		tfk_set_found(f, "%u", h[0]);
	}
	td.file.big_endian = h[0] == 1;
	td.long_size = h[1];
	uint32_t ps = 0;
	tfk_cur_u32_at(&td.file, pos + 2, &ps);
	td.header_page_size = ps;
	td.header_page_size_ok = tfk_is_pow2(ps) && ps >= 1024 && ps <= ctx->limits->max_page_size;
	td.version = 6;
	pos += 6;
	const uint8_t *ver;
	bool cmdlines = tfk_cur_bytes_at(blob, TD_MAGIC_LEN, vlen, &ver) && !(vlen == 3 && memcmp(ver, "0.5", 3) == 0);
	if (td_check_headers(&td, &td.file, &pos) && td_check_ftrace_formats(&td, &td.file, &pos) &&
	    td_check_event_systems(&td, &td.file, &pos) &&
	    td_check_text_blob(&td, &td.file, &pos, 4, "kallsyms", TFK_META_KALLSYMS) &&
	    td_check_text_blob(&td, &td.file, &pos, 4, "printk formats", TFK_META_PRINTK) && cmdlines)
		td_check_text_blob(&td, &td.file, &pos, 8, "saved cmdlines", TFK_META_CMDLINES);
	td_guarded_parse(&td);
	td_check_release(&td);
}
