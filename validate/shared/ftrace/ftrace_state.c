/* SPDX-License-Identifier: MIT */
/*
 * The ftrace checker's state (struct td_check, ftrace.h): its start and end, the page geometry
 * the walker settles on, and the findings every reader of it shares (a structure cut by the end
 * of the file or of its section), for trace.dat and the formats that embed its pieces.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "ftrace.h"
#include "ftrace_observe.h"

void td_truncated(struct td_check *td, uint64_t offset, uint64_t need, const char *what)
{
	uint64_t have = offset < td->size ? td->size - offset : 0;
	td->lost_at = offset;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_FILE_TRUNCATED, offset, have);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "%llu bytes", (unsigned long long)need);
	tfk_set_found(f, "%llu bytes before end of file", (unsigned long long)have);
}

void td_overrun(struct td_check *td, const struct tfk_cursor *src, uint64_t pos, uint64_t need, const char *what)
{
	uint64_t abs = src->origin + pos;
	/* A view of file bytes that reaches the end of the file: the file is what is short. */
	if (!(src->origin & TFK_DECODED_BIT) && src->origin + src->len == td->size) {
		td_truncated(td, abs, need, what);
		return;
	}
	uint64_t have = pos < src->len ? src->len - pos : 0;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_SECTION_OVERRUN, abs, have);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "%llu bytes inside the section", (unsigned long long)need);
	tfk_set_found(f, "%llu bytes before the section ends", (unsigned long long)have);
}

void td_obs_geometry(const struct td_check *td)
{
	if (!td_obs(td) || !td_obs(td)->geometry)
		return;
	struct tfk_geometry g = {
		.big_endian = td->file.big_endian,
		.page_size = td->geo.page_size,
		.commit_size = td->geo.commit_size,
		.data_offset = td->geo.data_offset,
		.long_size = (uint8_t)(td->long_size == 4 || td->long_size == 8 ? td->long_size : td->geo.commit_size),
		.version = td->version,
	};
	td_obs(td)->geometry(td_obs(td)->user, &g);
}

void td_obs_item(const struct td_check *td, enum tfk_item_kind kind, uint64_t offset, uint64_t length, uint32_t id,
		 const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tfk_observe_item(td->ctx, kind, offset, length, id, name, fmt, ap);
	va_end(ap);
}

void td_settle_geometry(struct td_check *td)
{
	struct td_geometry *g = &td->geo;

	if (td->hp_ok) {
		g->commit_size = td->hp_commit_size;
		g->data_offset = td->hp_data_offset;
		g->page_size = td->hp_page_size;
		if (td->header_page_size_ok && td->header_page_size != td->hp_page_size) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_BAD_PAGE_SIZE, 14, 4);
			tfk_set_path(f, "initial header");
			tfk_set_expected(f, "%u (header_page data offset + size)", td->hp_page_size);
			tfk_set_found(f, "%u", td->header_page_size);
		}
		td_obs_geometry(td);
		return;
	}
	/* No usable header_page: the kernel long size decides commit width and data offset. */
	g->commit_size = td->long_size == 4 ? 4 : 8;
	g->data_offset = g->commit_size == 8 ? 16 : 12;
	g->page_size = td->header_page_size_ok ? td->header_page_size : 4096;
	td_obs_geometry(td);
}

void td_check_init(struct td_check *td, struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	memset(td, 0, sizeof(*td));
	td->ctx = ctx;
	td->file = *file;
	td->size = file->len;
}

void td_check_release(struct td_check *td)
{
	td_parse_abandon(td);
	tfk_claims_free(&td->claims);
	free(td->chunk_buf);
	tfk_decode_state_free(td->decode_state);
	free(td->event_index);
	free(td->events);
	free(td->fmt_text);
	free(td->fmt_refs);
}
