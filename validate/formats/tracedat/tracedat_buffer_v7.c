/* SPDX-License-Identifier: MIT */
/*
 * v7 BUFFER and BUFFER_TEXT options and the data they describe: per-CPU ranges inside the
 * buffer's section, raw ring pages or chunk streams decoded one chunk at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"
#include "codec/codec.h"
#include "shared/ftrace/ftrace_observe.h"

#define SECTION_HEADER 16

struct buf_ctx {
	struct td_check *td;
	const struct td_buffer_opt *opt;
	const char *kind;       /* "BUFFER" or "BUFFER_TEXT" */
	char label[80];         /* "" for the top buffer, else "buffer NAME " */
	char opt_name[64];      /* the buffer's name, sanitised */
	uint64_t body, body_end;/* the buffer section's body in the file */
	bool compressed;
	/*
	 * Whether this buffer's compressed CPU sizes count the 4-byte chunk count (trace-cmd 3.2+),
	 * as its last CPU's data shows by ending where the section ends: 1 yes, 0 no (3.0-3.1),
	 * -1 not known (then each CPU's chunk headers decide).
	 */
	int size_counts_count;
};

static struct tfk_finding *entry_fault(struct td_check *td, const char *kind, const char *label, uint64_t off,
				       uint64_t len)
{
	const struct tfk_pctx pc = { .tmpl = "option %s %s", .str = { kind, label[0] ? label : "(top)" } };
	return tfk_raise(td->ctx, &pc, TFK_TRACEDAT_BUFFER_BAD_ENTRY, off, len, NULL);
}

static struct tfk_finding *bad_entry(const struct buf_ctx *b, uint64_t off, uint64_t len)
{
	return entry_fault(b->td, b->kind, b->label, off, len);
}

/* Make room for a decoded chunk in the reusable buffer. */
static uint8_t *chunk_space(struct td_check *td, size_t n)
{
	if (n <= td->chunk_cap)
		return td->chunk_buf;
	uint8_t *p = tfk_calloc(td->ctx, n, 1);
	if (!p)
		return NULL;
	free(td->chunk_buf);
	td->chunk_buf = p;
	td->chunk_cap = n;
	return p;
}

/* Whether a frame of the codec starts at p (n bytes there): zstd's magic, or a zlib header. */
static bool frame_magic(int codec, const uint8_t *p, uint64_t n)
{
	if (codec == TFK_CODEC_ZSTD)
		return n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd;
	if (codec == TFK_CODEC_ZLIB)
		return n >= 2 && (p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 && ((p[0] << 8) | p[1]) % 31 == 0;
	return false;
}

bool td_zero_sized_block(const struct td_check *td, const struct tfk_cursor *c, uint64_t at)
{
	uint32_t zsize, usize;
	const uint8_t *p;
	if (!tfk_cur_u32_at(c, at, &zsize) || !tfk_cur_u32_at(c, at + 4, &usize) || zsize || usize ||
	    !tfk_cur_bytes_at(c, at + 8, 4, &p))
		return false;
	return frame_magic(td->dat->codec, p, 4);
}

void td_note_zero_sizes(struct td_check *td, uint64_t offset, const char *where)
{
	if (td->dat->zero_sizes_noted)
		return;
	td->dat->zero_sizes_noted = true;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_WRITER_ZERO_COMPRESSION_SIZES, offset, 8);
	tfk_set_path(f, "%s", where);
	tfk_set_expected(f, "the sizes of the %s data that follows", tfk_codec_name((enum tfk_codec)td->dat->codec));
	tfk_set_found(f, "0, %s file written by trace-cmd %s", td->file.big_endian ? "a big-endian" : "a little-endian",
		      td->dat->writer[0] ? td->dat->writer : "of unknown version (no VERSION option)");
}

/* Hand one decoded chunk to the walker (or, latency text, to the observer). */
static void walk_decoded(struct td_check *td, struct td_cpu_walk *walk, uint64_t chunk_at, uint8_t *dst, size_t got)
{
	if (!walk) {
		struct tfk_cursor text = tfk_decoded_cursor(td->ctx, 1, chunk_at + 8, dst, got, td->file.big_endian);
		td_obs_meta(td, TFK_META_LATENCY, &text);
		return;
	}
	struct tfk_cursor pages = tfk_decoded_cursor(td->ctx, 1, chunk_at + 8, dst, got, td->file.big_endian);
	pages.len -= pages.len % td->geo.page_size;
	td_cpu_walk_pages(walk, &pages);
}

/*
 * A chunk stream whose count and sizes are all 0 (trace-cmd 3.3.1, big-endian): each chunk is
 * {0, 0, one frame}, the frames delimiting themselves. Walked to the end of data or to the
 * first block that is not of that shape. Returns the bytes after the count, as check_chunks.
 */
static uint64_t check_unsized_chunks(struct td_check *td, const struct tfk_cursor *data, struct td_cpu_walk *walk,
				     const char *what)
{
	uint64_t pos = 4;
	for (uint32_t i = 0; td_zero_sized_block(td, data, pos); i++) {
		const uint8_t *src;
		uint64_t left = data->len - (pos + 8);
		if (!tfk_cur_bytes_at(data, pos + 8, left, &src))
			break;
		size_t consumed = 0, decoded = 0;
		enum tfk_decode_status st = tfk_frame_span((enum tfk_codec)td->dat->codec, src, (size_t)left,
							   td->ctx->limits->max_decoded, &consumed, &decoded);
		uint64_t chunk_at = data->origin + pos;
		if (st != TFK_DECODE_OK) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_COMPRESSION_CORRUPT, chunk_at, 8 + left);
			tfk_set_path(f, "%s chunk %u (sizes 0)", what, i);
			tfk_set_expected(f, "a whole %s frame", tfk_codec_name((enum tfk_codec)td->dat->codec));
			tfk_set_found(f, "%s", st == TFK_DECODE_LONG ? "more data than the decoding limit" : "a decoding error");
			return UINT64_MAX;
		}
		uint8_t *dst = chunk_space(td, decoded ? decoded : 1);
		if (!dst)
			return UINT64_MAX;
		size_t got = 0;
		if (tfk_decode_chunk(&td->decode_state, (enum tfk_codec)td->dat->codec, src, consumed, dst, decoded, &got) ==
		    TFK_DECODE_OK)
			walk_decoded(td, walk, chunk_at, dst, got);
		pos += 8 + (uint64_t)consumed;
	}
	return pos - 4;
}

/*
 * A chunk stream at view-relative 0 of data: u32 count, then {u32 zsize, u32 usize, zsize
 * bytes}. Each chunk is decoded on its own; pages go to the walker when one is given.
 * Returns the bytes the chunks occupy after the count (the option's size), or UINT64_MAX.
 */
static uint64_t check_chunks(struct td_check *td, const struct tfk_cursor *data, struct td_cpu_walk *walk,
			     const char *what)
{
	uint32_t nchunks;
	if (!tfk_cur_u32_at(data, 0, &nchunks)) {
		td_overrun(td, data, 0, 4, what);
		return UINT64_MAX;
	}
	if (nchunks == 0 && td_zero_sized_block(td, data, 4))
		return check_unsized_chunks(td, data, walk, what);
	uint64_t pos = 4, released = 0;
	for (uint32_t i = 0; i < nchunks; i++) {
		uint32_t zsize, usize;
		char where[96];
		snprintf(where, sizeof(where), "%s chunk %u of %u", what, i, nchunks);
		if (!tfk_cur_u32_at(data, pos, &zsize) || !tfk_cur_u32_at(data, pos + 4, &usize)) {
			td_overrun(td, data, pos, 8, where);
			return UINT64_MAX;
		}
		const uint8_t *src;
		bool cut = false;
		if (!tfk_cur_bytes_at(data, pos + 8, zsize, &src)) {
			/* A chunk cut short (a truncated file): report it, then decode what is there,
			 * since a stream decoder yields every byte before the cut. */
			td_overrun(td, data, pos + 8, zsize, where);
			if (!tfk_cur_bytes_at(data, pos + 8, data->len - (pos + 8), &src))
				return UINT64_MAX;
			zsize = (uint32_t)(data->len - (pos + 8));
			cut = true;
		}
		uint64_t chunk_at = data->origin + pos;
		if (walk && usize % td->geo.page_size) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_COMPRESSION_CORRUPT, chunk_at + 4, 4);
			tfk_set_path(f, "%s", where);
			tfk_set_expected(f, "an uncompressed size that is a multiple of the page size %u", td->geo.page_size);
			tfk_set_found(f, "%u", usize);
		}
		if (usize > td->ctx->limits->max_decoded) {
			tfk_limit_hit(td->ctx, chunk_at + 4, "decoded chunk size", usize, td->ctx->limits->max_decoded);
		} else {
			/* Large claims are measured first, so memory follows the data, not the header. */
			size_t got = 0, room = usize;
			enum tfk_decode_status st = TFK_DECODE_OK;
			if (usize > (1u << 20)) {
				size_t measured = 0;
				st = tfk_decoded_size((enum tfk_codec)td->dat->codec, src, zsize, usize, &measured);
				if (st == TFK_DECODE_OK && measured != usize)
					st = TFK_DECODE_SHORT;
				if (measured < room)
					room = measured;
			}
			uint8_t *dst = chunk_space(td, room ? room : 1);
			if (!dst)
				return UINT64_MAX;
			enum tfk_decode_status st2 = tfk_decode_chunk(&td->decode_state, (enum tfk_codec)td->dat->codec, src, zsize, dst, room, &got);
			if (st == TFK_DECODE_OK)
				st = st2;
			if (st != TFK_DECODE_OK && !cut) {
				struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_COMPRESSION_CORRUPT, chunk_at, 8ull + zsize);
				tfk_set_path(f, "%s", where);
				tfk_set_expected(f, "%s data decoding to %u bytes", tfk_codec_name((enum tfk_codec)td->dat->codec),
						 usize);
				tfk_set_found(f, "%s after %zu bytes",
					      st == TFK_DECODE_CORRUPT ? "a decoding error"
					      : st == TFK_DECODE_SHORT ? "the end of the data" : "more data", got);
			}
			if (!walk && st == TFK_DECODE_OK) {
				struct tfk_cursor text = tfk_decoded_cursor(td->ctx, 1, chunk_at + 8, dst, got, td->file.big_endian);
				td_obs_meta(td, TFK_META_LATENCY, &text);
			}
			if (walk) {
				/* Whole decoded pages are walked even after a decoding error: they may still be good. */
				struct tfk_cursor pages = tfk_decoded_cursor(td->ctx, 1, chunk_at + 8, dst, got, td->file.big_endian);
				pages.len -= pages.len % td->geo.page_size;
				td_cpu_walk_pages(walk, &pages);
			}
		}
		pos += 8 + (uint64_t)zsize;
		if (cut)
			return UINT64_MAX;
		const uint8_t *read_whole;
		if (pos - released >= (4u << 20) && tfk_cur_bytes_at(data, released, pos - released, &read_whole)) {
			tfk_release(td->ctx, read_whole, pos - released); /* decoded: the compressed bytes are done */
			released = pos;
		}
	}
	return pos - 4;
}

static bool plausible_page_size(const struct td_check *td, uint32_t ps)
{
	return ps >= 1024 && ps <= td->ctx->limits->max_page_size && (ps & (ps - 1)) == 0;
}

static uint64_t chunk_stream_used(const struct td_check *td, uint64_t offset);
static bool unsized_stream(const struct td_check *td, uint64_t offset);

/*
 * Which size form a compressed buffer's entries use, from the entry whose data lies last: in
 * the 3.2+ form it ends where the section ends, in the 3.0-3.1 form 4 bytes before. One look at
 * the table instead of a walk over every CPU's chunk headers (which would read all of them
 * ahead of the walk). -1 when the table does not say (damage, zero sizes).
 */
static int size_form(const struct buf_ctx *b, struct tfk_cursor c, uint32_t n)
{
	uint64_t last_off = 0, last_size = 0;
	bool any = false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t cpu;
		uint64_t offset, size;
		if (!tfk_cur_u32(&c, &cpu) || !tfk_cur_u64(&c, &offset) || !tfk_cur_u64(&c, &size))
			break;
		if (size && (!any || offset > last_off)) {
			last_off = offset;
			last_size = size;
			any = true;
		}
	}
	uint64_t end;
	if (!any || !tfk_add_u64(last_off, last_size, &end))
		return -1;
	if (end == b->body_end && !unsized_stream(b->td, last_off))
		return chunk_stream_used(b->td, last_off) == last_size - 4 ? 1 : -1;
	if (end <= UINT64_MAX - 4 && end + 4 == b->body_end)
		return chunk_stream_used(b->td, last_off) == last_size ? 0 : -1;
	return -1;
}

/* The walk of a compressed CPU's chunk stream: data is what the file holds of its extent. */
static void chunk_range(const struct buf_ctx *b, uint64_t entry_at, uint32_t cpu, uint64_t offset, uint64_t size,
			const struct tfk_cursor *data, struct td_walk_range *r)
{
	memset(r, 0, sizeof(*r));
	r->data = *data;
	r->buffer = b->label;
	r->cpu = cpu;
	r->item_offset = offset;
	r->item_length = data->len;
	r->chunks = true;
	r->kind = b->kind;
	r->entry_at = entry_at;
	r->declared = size;
}

/*
 * What the chunk stream at offset occupies after its count, read from the chunk headers alone
 * (nothing decoded), or UINT64_MAX when the file ends inside it. Each chunk takes at least 8
 * bytes of the file, so the loop ends within the file whatever the count says.
 */
static uint64_t chunk_stream_used(const struct td_check *td, uint64_t offset)
{
	uint32_t nchunks;
	if (offset >= td->size || !tfk_cur_u32_at(&td->file, offset, &nchunks))
		return UINT64_MAX;
	uint64_t pos = offset + 4;
	for (uint32_t i = 0; i < nchunks; i++) {
		uint32_t zsize;
		if (!tfk_cur_u32_at(&td->file, pos, &zsize) || pos + 8 > td->size || zsize > td->size - pos - 8)
			return UINT64_MAX;
		pos += 8 + (uint64_t)zsize;
	}
	return pos - offset - 4;
}

/* A stream of trace-cmd 3.3.1 on big-endian: count 0, then {0, 0, frame}. */
static bool unsized_stream(const struct td_check *td, uint64_t offset)
{
	uint32_t nchunks;
	struct tfk_cursor rest;
	if (offset >= td->size || !tfk_cur_u32_at(&td->file, offset, &nchunks) || nchunks)
		return false;
	tfk_cur_sub(&td->file, offset, td->size - offset, &rest);
	return td_zero_sized_block(td, &rest, 4);
}

/*
 * The file bytes a compressed CPU's entry locates. trace-cmd 3.0 to 3.1.x wrote the size of the
 * chunks after the count; 3.2 and later (4b921329) write what was written, count included.
 * libtracecmd reads neither: it takes the count and the chunk headers. So a size that is the
 * chunks plus 4 is the stream whole; any other size is taken as the older form, as before.
 */
static uint64_t compressed_extent(const struct buf_ctx *b, uint64_t offset, uint64_t size)
{
	const struct td_check *td = b->td;
	uint64_t extent;
	if (size >= 4 && b->size_counts_count == 1)
		return size;
	if (size >= 4 && b->size_counts_count < 0 &&
	    (chunk_stream_used(td, offset) == size - 4 || unsized_stream(td, offset)))
		return size;
	if (!tfk_add_u64(size, 4, &extent))
		return UINT64_MAX;
	return extent;
}

/* The bytes of the file a compressed CPU's entry locates, clipped. */
static bool chunk_extent(const struct buf_ctx *b, uint64_t offset, uint64_t size, struct tfk_cursor *data)
{
	const struct td_check *td = b->td;
	uint64_t extent = compressed_extent(b, offset, size), end;
	if (!tfk_add_u64(offset, extent, &end) || offset >= td->size)
		return false;
	tfk_cur_sub(&td->file, offset, extent, data);
	return true;
}

/*
 * A compressed CPU's size written the way trace-cmd before 3.2 wrote it: 4 short of the
 * stream (the chunk count left out). Readers do not use it; said once a file, as a writer quirk.
 */
static void note_short_size(const struct buf_ctx *b, uint64_t entry_at, uint32_t cpu, uint64_t size)
{
	struct td_check *td = b->td;
	if (td->dat->size_form_noted)
		return;
	td->dat->size_form_noted = true;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_WRITER_BUFFER_SIZE_WITHOUT_COUNT, entry_at + 12, 8);
	tfk_set_path(f, "option %s %s", b->kind, b->label[0] ? b->label : "(top)");
	tfk_set_expected(f, "cpu%u size %llu (its chunks and the 4-byte count, as trace-cmd 3.2 and later write it)", cpu,
			 (unsigned long long)size + 4);
	tfk_set_found(f, "%llu, written by trace-cmd %s", (unsigned long long)size,
		      td->dat->writer[0] ? td->dat->writer : "of unknown version (no VERSION option)");
}

static void check_cpu_entry(struct buf_ctx *b, uint64_t entry_at, uint32_t cpu, uint64_t offset, uint64_t size)
{
	struct td_check *td = b->td;
	uint32_t ps = td->geo.page_size;
	char what[96];
	snprintf(what, sizeof(what), "%scpu%u data", b->label, cpu);

	uint64_t extent = b->compressed ? compressed_extent(b, offset, size) : size, end;
	if (b->compressed && size && b->size_counts_count == 0 && !td->dat->size_form_noted &&
	    chunk_stream_used(td, offset) == size)
		note_short_size(b, entry_at, cpu, size);
	if (b->compressed && size && unsized_stream(td, offset)) {
		char where[96];
		snprintf(where, sizeof(where), "%scpu%u data", b->label, cpu);
		td_note_zero_sizes(td, offset, where);
	}
	if (size || b->compressed)
		td_obs_cpu_extent(td, cpu, extent,
				  offset < td->size ? (extent < td->size - offset ? extent : td->size - offset) : 0, b->compressed);
	if (!tfk_add_u64(offset, extent, &end) || offset >= td->size) {
		if (size == 0 && !b->compressed)
			return;
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_OUT_OF_FILE, entry_at, 20);
		tfk_set_path(f, "%scpu%u", b->label, cpu);
		tfk_set_expected(f, "a range inside the file (size 0x%llx)", (unsigned long long)td->size);
		tfk_set_found(f, "offset 0x%llx size 0x%llx", (unsigned long long)offset, (unsigned long long)size);
		return;
	}
	if (offset < b->body || end > b->body_end) {
		struct tfk_finding *f = bad_entry(b, entry_at, 20);
		tfk_set_expected(f, "cpu%u data inside its section [0x%llx, 0x%llx)", cpu, (unsigned long long)b->body,
				 (unsigned long long)b->body_end);
		tfk_set_found(f, "[0x%llx, 0x%llx)", (unsigned long long)offset, (unsigned long long)end);
	}
	if (offset % ps) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_MISALIGNED, offset, extent);
		tfk_set_path(f, "%scpu%u", b->label, cpu);
		tfk_set_expected(f, "a multiple of the page size %u", ps);
		tfk_set_found(f, "offset 0x%llx (entry at 0x%llx)", (unsigned long long)offset, (unsigned long long)entry_at);
	}
	if (!b->compressed && size % ps) {
		uint64_t whole = size - size % ps;
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_PARTIAL_PAGE, offset + whole, size % ps);
		tfk_set_path(f, "%scpu%u", b->label, cpu);
		tfk_set_expected(f, "a size that is a multiple of the page size %u", ps);
		tfk_set_found(f, "size 0x%llx", (unsigned long long)size);
	}
	struct tfk_cursor data;
	if (tfk_cur_sub(&td->file, offset, extent, &data) == TFK_SUB_CLIPPED) {
		td_truncated(td, offset, extent, what);
		end = td->size;
	}
	tfk_claims_add(td->ctx, &td->claims, offset, end, true, "%scpu%u data", b->label, cpu);
	td->ctx->report->stats.cpus++;

	struct td_walk_range r;
	if (!b->compressed) {
		if (td_range_of(td, offset, size, b->label, cpu, &r) && td_walk_allowed(td, r.data.len, offset))
			td_walk_range(td, &r);
		return;
	}
	if (!td_walk_allowed(td, data.len, offset))
		return; /* the same chunks decoded again and again */
	chunk_range(b, entry_at, cpu, offset, size, &data, &r);
	td_walk_range(td, &r);
}

void td_walk_chunks_here(struct td_check *td, const struct td_walk_range *r)
{
	char what[96];
	snprintf(what, sizeof(what), "%scpu%u data", r->buffer, r->cpu);
	struct td_cpu_walk w;
	td_cpu_walk_begin(&w, td, r->buffer, r->cpu);
	w.item_offset = r->item_offset;
	w.item_length = r->item_length;
	if (td->dat->codec == TFK_CODEC_UNKNOWN) {
		tfk_mark_incomplete(td->ctx);
	} else {
		uint64_t used = check_chunks(td, &r->data, &w, what);
		/* Either form trace-cmd has written: the chunks alone (3.0-3.1.x) or with the count (3.2+). */
		if (used != UINT64_MAX && used != r->declared && used + 4 != r->declared) {
			struct tfk_finding *f = entry_fault(td, r->kind, r->buffer, r->entry_at + 12, 8);
			tfk_set_expected(f, "cpu%u size %llu (its chunks and the 4-byte count, trace-cmd 3.2 and later) "
					 "or %llu (the chunks alone, trace-cmd 3.0 to 3.1)", r->cpu,
					 (unsigned long long)used + 4, (unsigned long long)used);
			tfk_set_found(f, "%llu", (unsigned long long)r->declared);
		}
	}
	td_cpu_walk_end(&w);
}

/* Find the data section an option points at; reports a wrong target. */
static struct td_section *target_section(struct buf_ctx *b, uint64_t offset, uint16_t want)
{
	struct td_section *s = td_section_at(b->td, offset);
	if (s && s->id == want)
		return s;
	struct tfk_finding *f = tfk_emit(b->td->ctx, TFK_TRACEDAT_OPTIONS_BAD_TARGET, b->opt->payload.origin, 8);
	tfk_set_path(f, "option %s %s", b->kind, b->label[0] ? b->label : "(top)");
	tfk_set_expected(f, "the offset of a %s section", b->kind);
	td_set_found_target(b->td, f, offset, s);
	return NULL;
}

static void check_buffer_text(struct buf_ctx *b, const struct td_section *s)
{
	struct td_check *td = b->td;
	td_obs_buffer(td, b->label[0] ? b->opt_name : "", "", td->geo.page_size, true);
	if (!(s->flags & 1) || td->dat->codec == TFK_CODEC_NONE) {
		/* plain latency text: nothing structural inside */
		struct tfk_cursor text;
		tfk_cur_sub(&td->file, s->offset + SECTION_HEADER, s->avail, &text);
		td_obs_meta(td, TFK_META_LATENCY, &text);
		td->ctx->report->stats.buffers++;
		return;
	}
	if (td->dat->codec == TFK_CODEC_UNKNOWN) {
		tfk_mark_incomplete(td->ctx);
		return;
	}
	struct tfk_cursor data;
	tfk_cur_sub(&td->file, s->offset + SECTION_HEADER, s->avail, &data);
	check_chunks(td, &data, NULL, "latency text");
	td->ctx->report->stats.buffers++;
}

/*
 * Hand the CPU ranges the entry loop will walk to worker threads (when there are any): the
 * same entries, skipped by the same rules. Compressed CPUs go too: each worker decodes its
 * chunks with a decoder of its own, so a zstd trace is decoded on every core. seen is the
 * loop's, and is left all zero.
 */
static void walk_ahead(const struct buf_ctx *b, struct tfk_cursor c, uint32_t n, uint8_t *seen)
{
	struct td_check *td = b->td;
	const uint32_t cap = td->ctx->limits->max_cpus;
	if (td->ctx->limits->threads < 2 || n < 2)
		return;
	struct td_walk_range *ahead = tfk_calloc_optional(td->ctx, n < cap ? n : cap, sizeof(*ahead));
	if (!ahead)
		return;
	size_t k = 0;
	uint64_t walked = td->walked; /* the loop's own decisions, made ahead */
	for (uint32_t i = 0; i < n && k < cap; i++) {
		uint32_t cpu = 0;
		uint64_t offset = 0, size = 0;
		if (!tfk_cur_u32(&c, &cpu) || !tfk_cur_u64(&c, &offset) || !tfk_cur_u64(&c, &size))
			break;
		if (cpu >= cap || (td->dat->have_cpucount && cpu >= td->dat->cpucount) || seen[cpu])
			continue;
		seen[cpu] = 1;
		if (b->compressed) {
			struct tfk_cursor data;
			if (chunk_extent(b, offset, size, &data) && td_walk_fits(td, &walked, data.len)) {
				uint64_t entry_at = tfk_cur_abs(&c) - 20;
				chunk_range(b, entry_at, cpu, offset, size, &data, &ahead[k++]);
			}
		} else if (td_range_of(td, offset, size, b->label, cpu, &ahead[k]) &&
			   td_walk_fits(td, &walked, ahead[k].data.len)) {
			k++;
		}
	}
	memset(seen, 0, cap);
	td_prewalk_start(td, ahead, k);
	free(ahead);
}

/*
 * An instance whose sub-buffers are larger than the file header's page, in a compressed file:
 * valid, but libtracecmd 3.3-3.4 lays its first CPU's decoded pages out at the header's page
 * size and loses them after the first ("bad page offset"). Said so that a count that differs
 * from trace-cmd report's is explained.
 */
static void subbuf_note(const struct buf_ctx *b, uint64_t ps_at, uint32_t page_size)
{
	struct tfk_finding *f = tfk_emit(b->td->ctx, TFK_TRACEDAT_BUFFER_SUBBUF_COMPRESSED, ps_at, 4);
	tfk_set_path(f, "option %s %s", b->kind, b->label);
	tfk_set_expected(f, "pages of the file header's %u bytes, for trace-cmd 3.3-3.4 to read every CPU whole",
			 b->td->header_page_size);
	tfk_set_found(f, "%u-byte sub-buffers, compressed", page_size);
}

void td_check_buffer_v7(struct td_check *td, const struct td_buffer_opt *opt)
{
	struct buf_ctx b;
	memset(&b, 0, sizeof(b));
	b.td = td;
	b.opt = opt;
	b.kind = opt->id == 22 ? "BUFFER_TEXT" : "BUFFER";
	struct tfk_cursor c = opt->payload;
	uint64_t sec_off;
	const char *name, *clock;
	uint64_t name_len, clock_len;
	struct tfk_finding *f;

	if (!tfk_cur_u64(&c, &sec_off) || tfk_cur_cstr(&c, td->ctx->limits->max_string, &name, &name_len) != TFK_CSTR_OK ||
	    tfk_cur_cstr(&c, td->ctx->limits->max_string, &clock, &clock_len) != TFK_CSTR_OK) {
		f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTION_BAD_PAYLOAD, opt->payload.origin, opt->payload.len);
		tfk_set_path(f, "option %s", b.kind);
		tfk_set_expected(f, "u64 offset, NUL-terminated name and clock");
		tfk_set_found(f, "%llu bytes without them", (unsigned long long)opt->payload.len);
		return;
	}
	char safe[64], clock_name[32] = "";
	tfk_sanitize(safe, sizeof(safe), name, name_len);
	if (clock_len < sizeof(clock_name))
		memcpy(clock_name, clock, clock_len + 1);
	if (name_len)
		snprintf(b.label, sizeof(b.label), "buffer %s ", safe);
	snprintf(b.opt_name, sizeof(b.opt_name), "%s", safe);
	struct td_section *sec = target_section(&b, sec_off, opt->id == 22 ? 22 : 3);
	if (!sec)
		return;
	sec->reached = true;
	b.body = sec->offset + SECTION_HEADER;
	b.body_end = b.body + sec->avail;
	b.compressed = (sec->flags & 1) && td->dat->codec != TFK_CODEC_NONE;
	if (opt->id == 22) {
		check_buffer_text(&b, sec);
		return;
	}

	uint32_t page_size, n;
	uint64_t ps_at = tfk_cur_abs(&c);
	if (!tfk_cur_u32(&c, &page_size) || !tfk_cur_u32(&c, &n)) {
		f = bad_entry(&b, ps_at, 0);
		tfk_set_expected(f, "u32 page size and u32 CPU count after the clock");
		tfk_set_found(f, "%llu bytes", (unsigned long long)tfk_cur_left(&c));
		return;
	}
	uint64_t want;
	if (!tfk_mul_u64(n, 20, &want) || want != tfk_cur_left(&c)) {
		f = bad_entry(&b, ps_at + 4, 4);
		tfk_set_expected(f, "%llu bytes of CPU entries after the count", (unsigned long long)tfk_cur_left(&c) / 20);
		tfk_set_found(f, "count %u (%llu bytes present)", n, (unsigned long long)tfk_cur_left(&c));
		n = (uint32_t)(tfk_cur_left(&c) / 20);
	}
	/* The top buffer is read with the file header's page size; others with their own. */
	uint32_t saved_ps = td->geo.page_size;
	if (name_len) {
		if (!plausible_page_size(td, page_size)) {
			f = bad_entry(&b, ps_at, 4);
			tfk_set_expected(f, "a power-of-two page size (0 crashes libtracecmd with SIGFPE)");
			tfk_set_found(f, "%u", page_size);
			return;
		}
		td->geo.page_size = page_size;
		if (b.compressed && page_size > td->header_page_size && n)
			subbuf_note(&b, ps_at, page_size);
	}
	td->ctx->report->stats.buffers++;
	td_obs_buffer(td, safe, clock_name, td->geo.page_size, false);
	td_obs_item(td, TFK_ITEM_BUFFER, sec->offset, SECTION_HEADER + sec->avail, 0, name_len ? safe : "(top)",
		    "BUFFER section%s, %u CPUs listed, clock [%s], page %u", b.compressed ? " (compressed)" : "", n, clock_name,
		    td->geo.page_size);

	b.size_counts_count = b.compressed ? size_form(&b, c, n) : -1;
	uint32_t cap = td->ctx->limits->max_cpus;
	uint8_t *seen = tfk_calloc(td->ctx, cap, 1);
	if (!seen)
		goto out;
	if (!b.compressed || td->dat->codec != TFK_CODEC_UNKNOWN)
		walk_ahead(&b, c, n, seen);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t entry_at = tfk_cur_abs(&c);
		uint32_t cpu = 0;
		uint64_t offset = 0, size = 0;
		if (!tfk_cur_u32(&c, &cpu) || !tfk_cur_u64(&c, &offset) || !tfk_cur_u64(&c, &size))
			break;
		if (cpu >= cap || (td->dat->have_cpucount && cpu >= td->dat->cpucount)) {
			f = bad_entry(&b, entry_at, 4);
			tfk_set_expected(f, "a CPU id below %u", td->dat->have_cpucount ? td->dat->cpucount : cap);
			tfk_set_found(f, "%u", cpu);
			continue;
		}
		if (seen[cpu]) {
			f = bad_entry(&b, entry_at, 4);
			tfk_set_expected(f, "each CPU once");
			tfk_set_found(f, "cpu%u again", cpu);
			continue;
		}
		seen[cpu] = 1;
		check_cpu_entry(&b, entry_at, cpu, offset, size);
	}
	if (td->dat->have_cpucount && n > td->dat->cpucount) {
		f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_COUNT_MISMATCH, ps_at + 4, 4);
		tfk_set_path(f, "option %s %s", b.kind, b.label[0] ? b.label : "(top)");
		tfk_set_expected(f, "at most %u entries (CPUCOUNT)", td->dat->cpucount);
		tfk_set_found(f, "%u", n);
	}
	free(seen);
out:
	td_prewalk_finish(td);
	td->geo.page_size = saved_ps;
}

/*
 * A BUFFER section that no option reaches (typically: a truncated file lost the BUFFER option
 * that trace-cmd writes after the data). Its data is still self-describing enough to check:
 * compressed CPUs are chunk streams at page-aligned offsets; raw pages split into CPUs where
 * the page timestamps drop (spec 6.3).
 */
void td_scan_orphan_buffer(struct td_check *td, const struct td_section *s)
{
	struct buf_ctx b;
	memset(&b, 0, sizeof(b));
	b.td = td;
	b.kind = "BUFFER";
	snprintf(b.label, sizeof(b.label), "unreferenced buffer at 0x%llx ", (unsigned long long)s->offset);
	b.body = s->offset + SECTION_HEADER;
	b.body_end = b.body + s->avail;
	b.compressed = (s->flags & 1) && td->dat->codec != TFK_CODEC_NONE;
	const uint32_t ps = td->geo.page_size;
	if (b.compressed && td->dat->codec == TFK_CODEC_UNKNOWN)
		return;
	td_obs_buffer(td, "", td->dat->clock, ps, false);
	uint64_t pos;
	if (!tfk_align_up(b.body, ps, &pos) || pos >= b.body_end)
		return;
	td->ctx->report->stats.buffers++;
	struct td_cpu_walk w;
	if (!b.compressed) {
		struct tfk_cursor data;
		tfk_cur_sub(&td->file, pos, b.body_end - pos, &data);
		data.len -= data.len % ps;
		td_cpu_walk_begin(&w, td, b.label, 0);
		w.item_offset = pos;
		w.item_length = data.len;
		w.split_on_time_drop = true;
		td_cpu_walk_pages(&w, &data);
		td_cpu_walk_end(&w);
		if (w.page)
			td->ctx->report->stats.cpus += w.cpu + 1;
		return;
	}
	for (uint32_t cpu = 0; cpu < td->ctx->limits->max_cpus && pos + 12 <= b.body_end; cpu++) {
		struct tfk_cursor data;
		uint32_t nchunks = 0, zsize = 0, usize = 0;
		tfk_cur_sub(&td->file, pos, b.body_end - pos, &data);
		tfk_cur_u32_at(&data, 0, &nchunks);
		tfk_cur_u32_at(&data, 4, &zsize);
		tfk_cur_u32_at(&data, 8, &usize);
		/* Stop where no chunk stream starts: padding, or the damage itself. */
		if (nchunks == 0 || nchunks > data.len / 8 || usize == 0 || usize % ps || zsize == 0)
			break;
		char what[96];
		snprintf(what, sizeof(what), "%scpu%u data", b.label, cpu);
		td_cpu_walk_begin(&w, td, b.label, cpu);
		w.item_offset = pos;
		w.item_length = data.len;
		uint64_t used = check_chunks(td, &data, &w, what);
		td_cpu_walk_end(&w);
		td->ctx->report->stats.cpus++;
		if (used == UINT64_MAX || !tfk_align_up(pos + 4 + used, ps, &pos))
			break;
	}
}
