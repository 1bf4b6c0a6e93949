/* SPDX-License-Identifier: MIT */
/* trace.dat entry point: sniffing, the initial header, and the order of the passes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats.h"
#include "tracedat.h"
#include "codec/codec.h"
#include "tracedat_tokens.h"
#include "shared/ftrace/ftrace_observe.h"

int td_sniff(const struct tfk_cursor *file)
{
	const uint8_t *p;
	if (!tfk_cur_bytes_at(file, 0, TD_MAGIC_LEN, &p))
		return 0;
	if (memcmp(p, TD_MAGIC, TD_MAGIC_LEN) == 0)
		return 100;
	/* A damaged magic: most of its bytes, or what follows it, still say trace.dat. */
	int same = 0;
	for (int i = 0; i < TD_MAGIC_LEN; i++)
		same += p[i] == (uint8_t)TD_MAGIC[i];
	const uint8_t *hp;
	bool v6_follows = tfk_cur_bytes_at(file, 18, 12, &hp) && memcmp(hp, TD_TAG_HEADER_PAGE, sizeof(TD_TAG_HEADER_PAGE)) == 0;
	if (same >= 7 || v6_follows)
		return 60;
	return 0;
}

static bool page_size_plausible(const struct td_check *td, uint64_t v)
{
	return tfk_is_pow2(v) && v >= 1024 && v <= td->ctx->limits->max_page_size;
}

bool td_check_initial(struct td_check *td, uint64_t *next)
{
	struct tfk_cursor *c = &td->file;
	const uint8_t *magic;
	struct tfk_finding *f;

	if (!tfk_cur_bytes_at(c, 0, TD_MAGIC_LEN, &magic)) {
		td_truncated(td, 0, 18, "initial header");
		return false;
	}
	if (memcmp(magic, TD_MAGIC, TD_MAGIC_LEN) != 0) {
		f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_BAD_MAGIC, 0, TD_MAGIC_LEN);
		tfk_set_path(f, "initial header");
		tfk_set_expected(f, "bytes 17 08 44 then \"tracing\"");
		tfk_set_found_bytes(f, magic, TD_MAGIC_LEN);
	}
	const uint8_t *h;
	if (!tfk_cur_bytes_at(c, 10, 8, &h)) {
		td_truncated(td, 10, 8, "initial header");
		return false;
	}

	/* Version: readers parse a C string, writers always produce one digit and its NUL. */
	const uint8_t *after;
	bool v6_follows = tfk_cur_bytes_at(c, 18, 12, &after) && memcmp(after, TD_TAG_HEADER_PAGE, sizeof(TD_TAG_HEADER_PAGE)) == 0;
	if ((h[0] == '6' || h[0] == '7') && h[1] == 0) {
		td->version = (unsigned)(h[0] - '0');
	} else {
		td->version = v6_follows ? 6 : 7;
		f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_BAD_VERSION, 10, 2);
		tfk_set_path(f, "initial header");
		tfk_set_expected(f, "\"%u\" (the layout that follows is version %u)", td->version, td->version);
		tfk_set_found_bytes(f, h, 2);
	}

	/* Endianness: only 0 and 1 mean anything; otherwise infer from the header_page size. */
	uint8_t endian = h[2];
	if (endian > 1) {
		uint64_t le = 0, be = 0;
		struct tfk_cursor probe = *c;
		probe.big_endian = false;
		bool ok_le = tfk_cur_u64_at(&probe, 30, &le) && le < td->size;
		probe.big_endian = true;
		bool ok_be = tfk_cur_u64_at(&probe, 30, &be) && be < td->size;
		bool guess_be = ok_be && !ok_le;
		f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_BAD_ENDIAN, 12, 1);
		tfk_set_path(f, "initial header");
		tfk_set_expected(f, "0 or 1 (the header_page size reads as %s)", guess_be ? "big-endian" : "little-endian");
		tfk_set_found(f, "%u", endian);
		endian = guess_be ? 1 : 0;
	}
	c->big_endian = endian == 1;

	td->long_size = h[3];
	if (td->long_size != 4 && td->long_size != 8) {
		f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_BAD_LONG_SIZE, 13, 1);
		tfk_set_path(f, "initial header");
		tfk_set_expected(f, "4 or 8");
		tfk_set_found(f, "%u", td->long_size);
	}

	uint32_t ps = 0;
	tfk_cur_u32_at(c, 14, &ps);
	td->header_page_size = ps;
	td->header_page_size_ok = page_size_plausible(td, ps);
	if (!td->header_page_size_ok) {
		f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_BAD_PAGE_SIZE, 14, 4);
		tfk_set_path(f, "initial header");
		tfk_set_expected(f, "a power of two from 1024 to %u", td->ctx->limits->max_page_size);
		tfk_set_found(f, "%u", ps);
	}
	*next = 18;
	return true;
}

/* Two claims overlap, one of them CPU data: readers would take one's bytes for the other's. */
static void overlap(void *user, const struct tfk_claim *r, const struct tfk_claim *w)
{
	struct td_check *td = user;
	uint64_t end = r->end < w->end ? r->end : w->end;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_OVERLAP, r->start, end - r->start);
	tfk_set_path(f, "%s", r->label);
	tfk_set_expected(f, "to start at or after 0x%llx", (unsigned long long)w->end);
	tfk_set_found(f, "[0x%llx, 0x%llx) overlaps %s [0x%llx, 0x%llx)", (unsigned long long)r->start,
		      (unsigned long long)r->end, w->label, (unsigned long long)w->start, (unsigned long long)w->end);
}

void td_check_ranges(struct td_check *td, bool trailing)
{
	if (td->claims.n == 0)
		return;
	uint64_t covered = tfk_claims_sweep(&td->claims, overlap, td);
	if (trailing && covered < td->size && !td->ctx->report->incomplete) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_FILE_TRAILING_DATA, covered, td->size - covered);
		tfk_set_path(f, "end of file");
		tfk_set_expected(f, "end of file at 0x%llx", (unsigned long long)covered);
		tfk_set_found(f, "%llu more bytes", (unsigned long long)(td->size - covered));
	}
}

static void td_check(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	struct td_check td;
	td_check_init(&td, ctx, file);
	struct td_file dat;
	memset(&dat, 0, sizeof(dat));
	dat.top_tag_offset = UINT64_MAX;
	td.dat = &dat;
	td.walk_chunks = td_walk_chunks_here; /* v7 compressed CPU data */

	uint64_t pos;
	if (!td_check_initial(&td, &pos))
		goto out;
	td_obs_item(&td, TFK_ITEM_FILE, 0, 18, td.version, "file header",
		    "trace.dat v%u, %s-endian, long size %u, page size %u, %llu bytes", td.version,
		    td.file.big_endian ? "big" : "little", td.long_size, td.header_page_size, (unsigned long long)td.size);
	if (td.version == 6) {
		ctx->report->stats.format = "trace.dat v6";
		if (td_check_headers(&td, &td.file, &pos) && td_check_v6_metadata(&td, &pos)) {
			td_parse_ahead(&td); /* every format is kept: parse them while the pages are walked */
			td_check_v6_tail(&td, pos);
		} else
			td_check_v6_tail(&td, UINT64_MAX);
		td_check_ranges(&td, true);
	} else {
		td_check_v7(&td, pos);
		td_check_ranges(&td, false);
	}
	td_guarded_parse(&td);
out:
	td_check_release(&td);
	td_file_release(&dat);
}

void td_file_release(struct td_file *f)
{
	free(f->instances);
	free(f->sections);
	free(f->buffer_opts);
}

const struct tfk_format tfk_format_tracedat = {
	.name = "trace.dat",
	.sniff = td_sniff,
	.check = td_check,
	.dictionary = td_dictionary,
};
