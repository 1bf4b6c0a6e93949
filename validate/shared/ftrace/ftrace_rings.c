/* SPDX-License-Identifier: MIT */
/* Ftrace ring pages kept outside a trace.dat: a td_check holding only formats and geometry. */
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "ftrace_rings.h"

struct td_rings {
	struct td_check td;
	uint32_t page_size; /* as the caller's files say */
};

struct td_rings *td_rings_new(struct tfk_ctx *ctx, bool big_endian, uint8_t long_size, uint32_t page_size)
{
	struct td_rings *r = tfk_calloc(ctx, 1, sizeof(*r));
	if (!r)
		return NULL;
	struct tfk_cursor none = tfk_cur_make(NULL, 0, 0, big_endian);
	td_check_init(&r->td, ctx, &none);
	r->td.version = 6;
	r->td.long_size = long_size;
	r->page_size = page_size;
	r->td.header_page_size = page_size;
	r->td.header_page_size_ok = tfk_is_pow2(page_size) && page_size >= 1024 && page_size <= ctx->limits->max_page_size;
	return r;
}

void td_rings_header_page(struct td_rings *r, const struct tfk_cursor *text)
{
	td_parse_header_page(&r->td, text);
}

void td_rings_format(struct td_rings *r, const struct tfk_cursor *text, const char *system)
{
	td_check_format(&r->td, text, system);
}

bool td_rings_settle(struct td_rings *r, uint32_t *hp_page_size)
{
	struct td_check *td = &r->td;
	/* The mismatch is the caller's to report, in its own terms: td_settle_geometry would name
	 * a trace.dat header field. */
	bool agree = !td->hp_ok || !td->header_page_size_ok || td->hp_page_size == td->header_page_size;
	*hp_page_size = td->hp_ok ? td->hp_page_size : 0;
	bool ok = td->header_page_size_ok;
	if (td->hp_ok)
		td->header_page_size_ok = false;
	td_settle_geometry(td);
	td->header_page_size_ok = ok;
	return agree;
}

uint32_t td_rings_page_size(const struct td_rings *r)
{
	return r->td.geo.page_size;
}

void td_rings_layout(const struct td_rings *r, uint32_t *commit_size, uint32_t *data_offset)
{
	*commit_size = r->td.geo.commit_size;
	*data_offset = r->td.geo.data_offset;
}

bool td_rings_big_endian(const struct td_rings *r)
{
	return r->td.file.big_endian;
}

uint64_t td_rings_walk(struct td_rings *r, const struct tfk_cursor *file, uint32_t cpu)
{
	struct td_check *td = &r->td;
	const uint32_t ps = td->geo.page_size;
	if (!ps)
		return 0;
	td->file = *file;
	td->size = file->len;
	struct td_walk_range range;
	memset(&range, 0, sizeof(range));
	range.data = *file;
	range.data.len -= file->len % ps;
	range.buffer = "";
	range.cpu = cpu;
	range.item_offset = file->origin;
	range.item_length = file->len;
	if (range.data.len < file->len)
		tfk_cur_sub(file, range.data.len, file->len - range.data.len, &range.cut);
	td->unknown_ids = 0;
	uint64_t before = td->ctx->report->stats.events;
	td_walk_range_here(td, &range);
	struct tfk_cursor none = tfk_cur_make(NULL, 0, 0, file->big_endian);
	td->file = none; /* the member's mapping goes away after this walk */
	td->size = 0;
	return td->ctx->report->stats.events - before;
}

void td_rings_count_unknown(struct td_rings *r)
{
	r->td.count_unknown_ids = true;
}

uint64_t td_rings_unknown(const struct td_rings *r, uint16_t *first_id, uint64_t *first_at)
{
	*first_id = r->td.first_unknown_id;
	*first_at = r->td.first_unknown_at;
	return r->td.unknown_ids;
}

void td_rings_free(struct td_rings *r)
{
	if (!r)
		return;
	td_check_release(&r->td);
	free(r);
}
