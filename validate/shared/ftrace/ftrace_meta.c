/* SPDX-License-Identifier: MIT */
/*
 * The ftrace metadata blocks in the order trace.dat v6 (and perf's tracing-data bundle) lay
 * them out, each read from any view (the file, or a v7 section body): header_page and
 * header_event, format texts by system, size-prefixed texts (kallsyms, printk, cmdlines).
 */
#include <stdio.h>
#include <string.h>

#include "ftrace.h"
#include "ftrace_observe.h"
#include "ftrace_tokens.h"

/* Check a fixed tag at *pos and step over it. A wrong tag is reported and walked past. */
static bool expect_tag(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, const char *tag, size_t n,
		       const char *what)
{
	struct tfk_cursor c = *src;
	const uint8_t *p;
	if (!tfk_cur_seek(&c, *pos) || !tfk_cur_bytes(&c, n, &p)) {
		td_overrun(td, src, *pos, n, what);
		return false;
	}
	if (memcmp(p, tag, n) != 0) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_SECTION_BAD_TAG, src->origin + *pos, n);
		tfk_set_path(f, "%s", what);
		char want[32];
		tfk_sanitize(want, sizeof(want), tag, n);
		tfk_set_expected(f, "\"%s\"", want);
		tfk_set_found_bytes(f, p, n);
	}
	*pos += n;
	return true;
}

/*
 * A size-prefixed blob (size field of `width` bytes) at *pos. On success *blob views its bytes
 * and *pos moves past it. A blob that runs past EOF is reported; the walk cannot continue.
 */
static bool read_blob(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, unsigned width, const char *what,
		      struct tfk_cursor *blob)
{
	struct tfk_cursor c = *src;
	uint64_t size = 0;
	bool ok;
	if (!tfk_cur_seek(&c, *pos))
		ok = false;
	else if (width == 8)
		ok = tfk_cur_u64(&c, &size);
	else {
		uint32_t s32;
		ok = tfk_cur_u32(&c, &s32);
		size = s32;
	}
	if (!ok) {
		td_overrun(td, src, *pos, width, what);
		return false;
	}
	if (tfk_cur_sub(&c, c.pos, size, blob) != TFK_SUB_OK) {
		char path[80];
		snprintf(path, sizeof(path), "%s (size field at 0x%llx)", what, (unsigned long long)(src->origin + *pos));
		td_overrun(td, src, *pos + width, size, path);
		return false;
	}
	*pos = c.pos + size;
	return true;
}

bool td_read_u32(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, uint32_t *v, const char *what)
{
	if (!tfk_cur_u32_at(src, *pos, v)) {
		td_overrun(td, src, *pos, 4, what);
		return false;
	}
	*pos += 4;
	return true;
}

bool td_check_headers(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos)
{
	struct tfk_cursor blob;

	if (!expect_tag(td, src, pos, TD_TAG_HEADER_PAGE, sizeof(TD_TAG_HEADER_PAGE), "header_page tag"))
		return false;
	if (!read_blob(td, src, pos, 8, "header_page", &blob))
		return false;
	td_parse_header_page(td, &blob);
	td_settle_geometry(td);
	td_obs_item(td, TFK_ITEM_BLOB, blob.origin, blob.len, 0, "header_page",
		    "commit %u bytes, data at %u, page %u", td->geo.commit_size, td->geo.data_offset, td->geo.page_size);
	if (td->hp_ok)
		td_obs_meta(td, TFK_META_HEADER_PAGE, &blob);
	if (!expect_tag(td, src, pos, TD_TAG_HEADER_EVENT, sizeof(TD_TAG_HEADER_EVENT), "header_event tag"))
		return false;
	if (!read_blob(td, src, pos, 8, "header_event", &blob))
		return false;
	uint64_t before = td_errors(td);
	td_check_header_event(td, &blob);
	if (td_errors(td) == before)
		td_obs_meta(td, TFK_META_HEADER_EVENT, &blob);
	return true;
}

static bool format_blobs(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, uint32_t count,
			 const char *what, enum tfk_meta_kind kind, const char *system)
{
	char path[96];
	uint32_t cap = td->ctx->limits->max_format_blobs;
	for (uint32_t i = 0; i < count; i++) {
		if (i >= cap) {
			tfk_limit_hit(td->ctx, src->origin + *pos, what, count, cap);
			td->lost_at = src->origin + *pos;
			return false;
		}
		struct tfk_cursor blob;
		snprintf(path, sizeof(path), "%s %u of %u", what, i, count);
		if (!read_blob(td, src, pos, 8, path, &blob))
			return false;
		/* Only a format that passed the grammar goes to the observer (repair keeps it). */
		uint64_t before = td_errors(td);
		td_check_format(td, &blob, system);
		if (td_errors(td) == before)
			td_obs_meta(td, kind, &blob);
	}
	return true;
}

bool td_check_ftrace_formats(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos)
{
	uint32_t count = 0; /* printed below even when it could not be read */
	uint64_t start = *pos;
	bool ok = td_read_u32(td, src, pos, &count, "ftrace format count") &&
		  format_blobs(td, src, pos, count, "ftrace format", TFK_META_FTRACE_FORMAT, "ftrace");
	td_obs_item(td, TFK_ITEM_BLOB, src->origin + start, *pos - start, 0, "ftrace formats", "%u formats%s", count,
		    ok ? "" : " (walk stopped by damage)");
	return ok;
}

bool td_check_event_systems(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos)
{
	uint32_t nsys = 0, count = 0;
	uint64_t nsys_off = src->origin + *pos;
	uint32_t cap = td->ctx->limits->max_format_blobs;
	if (!td_read_u32(td, src, pos, &nsys, "event system count"))
		return false;
	for (uint32_t s = 0; s < nsys; s++) {
		if (s >= cap) {
			tfk_limit_hit(td->ctx, nsys_off, "event systems", nsys, cap);
			td->lost_at = src->origin + *pos;
			return false;
		}
		struct tfk_cursor c = *src;
		const char *name;
		uint64_t len;
		tfk_cur_seek(&c, *pos);
		enum tfk_cstr_status st = tfk_cur_cstr(&c, td->ctx->limits->max_string, &name, &len);
		if (st == TFK_CSTR_UNTERMINATED) {
			td_overrun(td, src, *pos, len + 1, "event system name");
			return false;
		}
		if (st == TFK_CSTR_TOO_LONG) {
			tfk_limit_hit(td->ctx, src->origin + *pos, "event system name length", len, td->ctx->limits->max_string);
			td->lost_at = src->origin + *pos;
			return false;
		}
		char sysname[64];
		tfk_sanitize(sysname, sizeof(sysname), name, len);
		bool plausible = len > 0;
		for (uint64_t k = 0; plausible && k < len; k++) {
			char ch = name[k];
			plausible = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
				    ch == '_' || ch == '-' || ch == '.';
		}
		if (!plausible) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_FORMAT_BAD_NAME, src->origin + *pos, len + 1);
			tfk_set_path(f, "event system %u", s);
			tfk_set_expected(f, "a system name of letters, digits and '_'");
			tfk_set_found_bytes(f, name, len < 60 ? len : 60);
		}
		struct tfk_cursor name_view;
		tfk_cur_sub(src, *pos, len, &name_view);
		td_obs_meta(td, TFK_META_SYSTEM, &name_view);
		*pos = c.pos;
		char what[96];
		snprintf(what, sizeof(what), "system %s event count", sysname);
		if (!td_read_u32(td, src, pos, &count, what))
			return false;
		snprintf(what, sizeof(what), "system %s event format", sysname);
		uint64_t sys_start = *pos;
		bool ok = format_blobs(td, src, pos, count, what, TFK_META_EVENT_FORMAT, sysname);
		char label[80];
		snprintf(label, sizeof(label), "system %s", sysname);
		td_obs_item(td, TFK_ITEM_BLOB, src->origin + sys_start, *pos - sys_start, 0, label, "%u event formats%s", count,
			    ok ? "" : " (walk stopped by damage)");
		if (!ok)
			return false;
	}
	return true;
}

bool td_check_text_blob(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, unsigned width,
			const char *what, enum tfk_meta_kind kind)
{
	struct tfk_cursor blob;
	if (!read_blob(td, src, pos, width, what, &blob))
		return false;
	td_obs_item(td, TFK_ITEM_BLOB, blob.origin, blob.len, 0, what, "%llu bytes", (unsigned long long)blob.len);
	td_check_meta_lines(td, &blob, kind, what);
	td_obs_meta(td, kind, &blob);
	return true;
}
