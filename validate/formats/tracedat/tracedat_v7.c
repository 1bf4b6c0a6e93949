/* SPDX-License-Identifier: MIT */
/*
 * The version 7 walk: compression header, the sequential section walk, metadata sections
 * (decoded when compressed), the chain of OPTIONS sections, then buffers and strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"
#include "codec/codec.h"
#include "shared/ftrace/ftrace_observe.h"
#include "tracedat_tokens.h"
#include "writer_version.h"

/* A section carries the id of the option that points at it; OPTIONS sections are id 0. */
enum {
	SEC_OPTIONS = 0, SEC_BUFFER = TD_OPT_BUFFER, SEC_STRINGS = TD_OPT_STRINGS, SEC_HEADER_INFO = TD_OPT_HEADER_INFO,
	SEC_FTRACE_EVENTS = TD_OPT_FTRACE_EVENTS, SEC_EVENT_FORMATS = TD_OPT_EVENT_FORMATS, SEC_KALLSYMS = TD_OPT_KALLSYMS,
	SEC_PRINTK = TD_OPT_PRINTK, SEC_CMDLINES = TD_OPT_CMDLINES, SEC_BUFFER_TEXT = TD_OPT_BUFFER_TEXT,
	SEC_BTF_FILE = TD_OPT_BTF_FILE, SEC_MODULES_FILE = TD_OPT_MODULES_FILE,
};
#define SECTION_HEADER 16
#define NAME_MAX_V7 64
#define MAX_OPTIONS_SECTIONS 4096

void td_set_found_target(const struct td_check *td, struct tfk_finding *f, uint64_t target, const struct td_section *s)
{
	if (s)
		tfk_set_found(f, "0x%llx, a %s section", (unsigned long long)target, td_section_name(s->id));
	else if (target >= td->size)
		tfk_set_found(f, "0x%llx, past the end of the file (0x%llx)", (unsigned long long)target,
			      (unsigned long long)td->size);
	else
		tfk_set_found(f, "0x%llx, where no section starts", (unsigned long long)target);
}

static bool known_section(uint16_t id)
{
	return id == SEC_OPTIONS || id == SEC_BUFFER || (id >= SEC_STRINGS && id <= SEC_BUFFER_TEXT) || id == SEC_BTF_FILE ||
	       id == SEC_MODULES_FILE;
}

static struct tfk_finding *bad_header(struct td_check *td, uint64_t off, uint64_t len, const struct td_section *s)
{
	const struct tfk_pctx pc = { .tmpl = s ? "section %s at 0x%x" : NULL,
				     .str = { s ? td_section_name(s->id) : NULL },
				     .num = { s ? s->offset : 0 } };
	return tfk_raise(td->ctx, &pc, TFK_TRACEDAT_SECTION_BAD_HEADER, off, len, NULL);
}

static bool buffer_holds_chunks(const struct td_check *td, const struct td_section *s);

static struct td_section *add_section(struct td_check *td, const struct td_section *s)
{
	void *arr = td->dat->sections;
	if (!tfk_grow(td->ctx, &arr, &td->dat->sections_cap, td->dat->nsections + 1, sizeof(*s)))
		return NULL;
	td->dat->sections = arr;
	td->dat->sections[td->dat->nsections] = *s;
	return &td->dat->sections[td->dat->nsections++];
}

/* Read a section header at offset; false when the 16 bytes are not in the file. */
static bool read_header(const struct td_check *td, uint64_t offset, struct td_section *s)
{
	uint32_t desc;
	memset(s, 0, sizeof(*s));
	s->offset = offset;
	if (!tfk_cur_u16_at(&td->file, offset, &s->id) || !tfk_cur_u16_at(&td->file, offset + 2, &s->flags) ||
	    !tfk_cur_u32_at(&td->file, offset + 4, &desc) || !tfk_cur_u64_at(&td->file, offset + 8, &s->size))
		return false;
	s->desc = (int32_t)desc;
	uint64_t body = offset + SECTION_HEADER;
	s->avail = body <= td->size ? (s->size < td->size - body ? s->size : td->size - body) : 0;
	return true;
}

struct td_section *td_section_at(struct td_check *td, uint64_t offset)
{
	for (size_t i = 0; i < td->dat->nsections; i++)
		if (td->dat->sections[i].offset == offset)
			return &td->dat->sections[i];
	/*
	 * Not a section the walk met. When the walk reached the end of the file, nothing else is a
	 * section; when it derailed, a header found past its last good section is taken.
	 */
	if (td->dat->walk_complete)
		return NULL;
	for (size_t i = 0; i < td->dat->nsections; i++) {
		const struct td_section *w = &td->dat->sections[i];
		/* The section whose size led the walk astray may be the one that is wrong. */
		if (i + 1 == td->dat->derailed_from)
			continue;
		if (offset >= w->offset && offset - w->offset < SECTION_HEADER + w->avail)
			return NULL; /* inside a section already walked */
	}
	struct td_section s;
	if (!read_header(td, offset, &s) || !known_section(s.id) || (s.flags & ~1u))
		return NULL;
	if (td->dat->nsections >= td->ctx->limits->max_options)
		return NULL;
	return add_section(td, &s);
}

/* An OPTIONS header of size 0 over zeros where its DONE would be: padding, not a section. */
static bool zero_padding(const struct td_check *td, uint64_t at, const struct td_section *s)
{
	const uint8_t *p;
	if (s->id != SEC_OPTIONS || s->size || s->flags || s->desc || !tfk_cur_bytes_at(&td->file, at + SECTION_HEADER, 14, &p))
		return false;
	for (unsigned i = 0; i < 14; i++)
		if (p[i])
			return false;
	return true;
}

/* Pass 1: every section header from the first to the end of the file. */
static void walk_sections(struct td_check *td, uint64_t at)
{
	uint32_t cap = td->ctx->limits->max_options;
	while (at < td->size) {
		struct td_section s;
		if (td->dat->nsections >= cap) {
			tfk_limit_hit(td->ctx, at, "v7 sections", td->dat->nsections + 1, cap);
			return;
		}
		if (!read_header(td, at, &s)) {
			td_truncated(td, at, SECTION_HEADER, "section header");
			return;
		}
		bool fits = tfk_range_fits(at + SECTION_HEADER, s.size, td->size);
		if (zero_padding(td, at, &s)) {
			/* Zeros where a section should start: a section's size was not written (a write
			 * cut off: trace-cmd before 3.3.1 stops so on a CPU of over 2 GB), and what follows
			 * is the padding before its page-aligned data. Every 16 zero bytes would read as an
			 * empty OPTIONS section; one finding, and the walk derails here. */
			struct tfk_finding *f = bad_header(td, at, SECTION_HEADER, NULL);
			tfk_set_path(f, "section at 0x%llx", (unsigned long long)at);
			tfk_set_expected(f, "a section header (an OPTIONS section holds at least its DONE option)");
			tfk_set_found(f, "zero bytes");
			td->dat->derailed_from = td->dat->nsections;
			return;
		}
		if (!known_section(s.id)) {
			struct tfk_finding *f = bad_header(td, at, 2, NULL);
			tfk_set_path(f, "section at 0x%llx", (unsigned long long)at);
			tfk_set_expected(f, "a section id 0, 3, 15..22, 23 or 25");
			tfk_set_found(f, "id %u, flags 0x%x, size %llu", s.id, s.flags, (unsigned long long)s.size);
			/* Derailed: the previous size was wrong, or this header is. Options may still reach
			 * the sections after it. */
			td->dat->derailed_from = td->dat->nsections;
			return;
		}
		if (s.id == SEC_BUFFER && !(s.flags & 1) && fits && buffer_holds_chunks(td, &s)) {
			/* One damaged byte must not read compressed chunks as pages: what the section holds says. */
			struct tfk_finding *f = bad_header(td, at + 2, 2, &s);
			tfk_set_expected(f, "flags 0x1 (restored from what the section holds: a chunk count, then %s chunks)",
					 tfk_codec_name((enum tfk_codec)td->dat->codec));
			tfk_set_found(f, "0x%x", s.flags);
			s.flags = 1;
		}
		if (s.flags & ~1u) {
			struct tfk_finding *f = bad_header(td, at + 2, 2, &s);
			tfk_set_expected(f, "flags 0 or 1 (compressed)");
			tfk_set_found(f, "0x%x", s.flags);
		}
		if ((s.flags & 1) && td->dat->codec == TFK_CODEC_NONE) {
			struct tfk_finding *f = bad_header(td, at + 2, 2, &s);
			tfk_set_expected(f, "no compressed flag in a file with compression \"none\"");
			tfk_set_found(f, "flags 0x%x", s.flags);
		}
		if (!add_section(td, &s))
			return;
		td_obs_item(td, TFK_ITEM_SECTION, at, SECTION_HEADER + s.size, s.id, td_section_name(s.id), "%s%llu bytes%s",
			    (s.flags & 1) ? "compressed, " : "", (unsigned long long)s.size, fits ? "" : " (past the end of the file)");
		if (!fits) {
			char what[64];
			snprintf(what, sizeof(what), "section %s body", td_section_name(s.id));
			td_truncated(td, at + SECTION_HEADER, s.size, what);
			return;
		}
		at += SECTION_HEADER + s.size;
	}
	td->dat->walk_complete = at == td->size;
}

/*
 * The body of a section as a view: the file bytes, or the decoded block of a compressed
 * section (u32 csize, u32 usize, csize bytes). *owned receives memory to free.
 */
static bool section_body(struct td_check *td, const struct td_section *s, struct tfk_cursor *view, uint8_t **owned,
			 bool *partial)
{
	struct tfk_cursor raw;
	*owned = NULL;
	*partial = false;
	tfk_cur_sub(&td->file, s->offset + SECTION_HEADER, s->avail, &raw);
	if (!(s->flags & 1) || td->dat->codec == TFK_CODEC_NONE) {
		*view = raw;
		return true;
	}
	if (td->dat->codec == TFK_CODEC_UNKNOWN)
		return false;
	uint32_t csize, usize;
	if (!tfk_cur_u32_at(&raw, 0, &csize) || !tfk_cur_u32_at(&raw, 4, &usize)) {
		char what[64];
		snprintf(what, sizeof(what), "section %s block header", td_section_name(s->id));
		td_overrun(td, &raw, 0, 8, what);
		return false;
	}
	if (usize == 0 && csize) {
		/* trace-cmd 3.3.1 on big-endian: the compressed size is right, the decoded size 0. */
		const uint8_t *p;
		size_t measured = 0;
		if (tfk_cur_bytes_at(&raw, 8, csize, &p) &&
		    tfk_decoded_size((enum tfk_codec)td->dat->codec, p, csize, td->ctx->limits->max_decoded, &measured) ==
			    TFK_DECODE_OK &&
		    measured && measured <= UINT32_MAX) {
			char where[64];
			snprintf(where, sizeof(where), "section %s at 0x%llx", td_section_name(s->id), (unsigned long long)s->offset);
			td_note_zero_sizes(td, s->offset + SECTION_HEADER + 4, where);
			usize = (uint32_t)measured;
		}
	}
	if (8ull + csize != s->size) {
		struct tfk_finding *f = bad_header(td, s->offset + 8, 8, s);
		tfk_set_expected(f, "size %llu (8 + compressed size)", 8ull + csize);
		tfk_set_found(f, "%llu", (unsigned long long)s->size);
	}
	const uint8_t *src;
	if (!tfk_cur_bytes_at(&raw, 8, csize, &src)) {
		char what[64];
		snprintf(what, sizeof(what), "section %s compressed block", td_section_name(s->id));
		td_overrun(td, &raw, 8, csize, what);
		return false;
	}
	if (usize > td->ctx->limits->max_decoded) {
		tfk_limit_hit(td->ctx, s->offset + SECTION_HEADER + 4, "decoded section size", usize, td->ctx->limits->max_decoded);
		return false;
	}
	/* Large claims are measured first, so memory follows the data, not the header. */
	size_t got = 0;
	enum tfk_decode_status st = TFK_DECODE_OK;
	if (usize > (4u << 20)) {
		st = tfk_decoded_size((enum tfk_codec)td->dat->codec, src, csize, usize, &got);
		if (st == TFK_DECODE_OK && got != usize)
			st = got < usize ? TFK_DECODE_SHORT : TFK_DECODE_LONG;
	}
	uint8_t *buf = NULL;
	if (st == TFK_DECODE_OK) {
		buf = tfk_calloc(td->ctx, usize ? usize : 1, 1);
		if (!buf)
			return false;
		st = tfk_decode((enum tfk_codec)td->dat->codec, src, csize, buf, usize, &got);
	}
	if (st != TFK_DECODE_OK) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_COMPRESSION_CORRUPT, s->offset + SECTION_HEADER, 8ull + csize);
		tfk_set_path(f, "section %s at 0x%llx", td_section_name(s->id), (unsigned long long)s->offset);
		tfk_set_expected(f, "%s data decoding to %u bytes", tfk_codec_name((enum tfk_codec)td->dat->codec), usize);
		tfk_set_found(f, "%s after %zu bytes", st == TFK_DECODE_CORRUPT ? "a decoding error"
				      : st == TFK_DECODE_SHORT ? "the end of the data" : "more data", got);
		if (!buf || got == 0 || st == TFK_DECODE_LONG) {
			free(buf);
			return false;
		}
		/* What decoded before the damage is real data: check (and salvage) that much. */
		*partial = true;
		*owned = buf;
		*view = tfk_decoded_cursor(td->ctx, 0, s->offset + SECTION_HEADER + 8, buf, got, td->file.big_endian);
		return true;
	}
	*owned = buf;
	*view = tfk_decoded_cursor(td->ctx, 0, s->offset + SECTION_HEADER + 8, buf, usize, td->file.big_endian);
	return true;
}

static void unsupported_codec(struct td_check *td, const struct td_section *s)
{
	if (td->dat->unsupported_reported)
		return;
	td->dat->unsupported_reported = true;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_CORE_CHECK_UNSUPPORTED, s->offset, 0);
	tfk_set_path(f, "section %s", td_section_name(s->id));
	tfk_set_expected(f, "a compression this build decodes (zstd, zlib)");
	tfk_set_found(f, "compressed sections of an unknown codec (not checked)");
	tfk_mark_incomplete(td->ctx);
}

/* Pass 2: metadata sections, each in isolation. */
static void check_metadata_section(struct td_check *td, struct td_section *s)
{
	struct tfk_cursor body;
	uint8_t *owned;
	if (s->checked)
		return;
	s->checked = true;
	if ((s->flags & 1) && td->dat->codec == TFK_CODEC_UNKNOWN) {
		unsupported_codec(td, s);
		return;
	}
	bool partial;
	if (!section_body(td, s, &body, &owned, &partial))
		return;
	uint64_t pos = 0;
	bool whole = true;
	switch (s->id) {
	case SEC_HEADER_INFO: whole = td_check_headers(td, &body, &pos); break;
	case SEC_FTRACE_EVENTS: whole = td_check_ftrace_formats(td, &body, &pos); break;
	case SEC_EVENT_FORMATS: whole = td_check_event_systems(td, &body, &pos); break;
	case SEC_KALLSYMS: whole = td_check_text_blob(td, &body, &pos, 4, "kallsyms", TFK_META_KALLSYMS); break;
	case SEC_PRINTK: whole = td_check_text_blob(td, &body, &pos, 4, "printk formats", TFK_META_PRINTK); break;
	case SEC_CMDLINES: whole = td_check_text_blob(td, &body, &pos, 8, "saved cmdlines", TFK_META_CMDLINES); break;
	case SEC_STRINGS: td->dat->strings_len += body.len; pos = body.len; break;
	case SEC_BTF_FILE: td_check_btf(td, s->offset, &body); pos = body.len; break;
	default: pos = body.len; break;
	}
	if (whole && !partial && pos != body.len && s->avail == s->size) {
		struct tfk_finding *f = bad_header(td, s->offset + 8, 8, s);
		tfk_set_expected(f, "content of %llu bytes", (unsigned long long)pos);
		tfk_set_found(f, "%llu bytes%s", (unsigned long long)body.len, (s->flags & 1) ? " decoded" : "");
	}
	free(owned);
}

/* Options 16-21 name the section of the same id. */
void td_v7_section_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload)
{
	uint64_t target = 0;
	tfk_cur_u64_at(payload, 0, &target);
	struct td_section *s = td_section_at(td, target);
	if ((!s || s->id != id) && (id == SEC_BTF_FILE || id == SEC_MODULES_FILE) && td->dat->writer[0] &&
	    tfk_version_cmp(td->dat->writer, "3.4") >= 0) {
		/* trace-cmd 3.4's convert copies these options from its input, offsets and all. */
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_WRITER_STALE_SECTION_OPTION, payload->origin, 8);
		tfk_set_path(f, "option %s", td_section_name(id));
		tfk_set_expected(f, "the offset of a %s section", td_section_name(id));
		td_set_found_target(td, f, target, s);
		return;
	}
	if (!s || s->id != id) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTIONS_BAD_TARGET, payload->origin, 8);
		tfk_set_path(f, "option %s", td_section_name(id));
		tfk_set_expected(f, "the offset of a %s section", td_section_name(id));
		td_set_found_target(td, f, target, s);
		return;
	}
	(void)opt_offset;
	s->reached = true;
	check_metadata_section(td, s);
}

void td_v7_buffer_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload)
{
	if (td->dat->nbuffer_opts >= td->ctx->limits->max_buffers) {
		tfk_limit_hit(td->ctx, opt_offset, "buffer options", td->dat->nbuffer_opts + 1, td->ctx->limits->max_buffers);
		return;
	}
	void *arr = td->dat->buffer_opts;
	if (!tfk_grow(td->ctx, &arr, &td->dat->buffer_opts_cap, td->dat->nbuffer_opts + 1, sizeof(struct td_buffer_opt)))
		return;
	td->dat->buffer_opts = arr;
	td->dat->buffer_opts[td->dat->nbuffer_opts++] = (struct td_buffer_opt){ id, opt_offset, *payload };
}

/* One OPTIONS section: options until DONE; returns the DONE target (0: end) or UINT64_MAX. */
static uint64_t walk_options_section(struct td_check *td, const struct td_section *sec, uint64_t *done_at)
{
	/* A copy: options met on the way may add sections and move the array. */
	const struct td_section copy = *sec, *s = &copy;
	struct tfk_cursor body;
	uint8_t *owned = NULL;
	if ((s->flags & 1) && td->dat->codec == TFK_CODEC_UNKNOWN) {
		unsupported_codec(td, s);
		return UINT64_MAX;
	}
	if (s->flags & 1) {
		bool partial;
		if (!section_body(td, s, &body, &owned, &partial))
			return UINT64_MAX;
	} else {
		/* Readers ignore the section size and parse until DONE: so do we, then compare. */
		tfk_cur_sub(&td->file, s->offset + SECTION_HEADER, UINT64_MAX, &body);
	}
	uint64_t pos = 0, next = UINT64_MAX;
	uint32_t n = 0;
	for (;;) {
		uint16_t id;
		uint32_t size;
		if (!tfk_cur_u16_at(&body, pos, &id) || !tfk_cur_u32_at(&body, pos + 2, &size)) {
			td_overrun(td, &body, pos, 6, "options: option header");
			break;
		}
		if (++n > td->ctx->limits->max_options) {
			tfk_limit_hit(td->ctx, body.origin + pos, "options", n, td->ctx->limits->max_options);
			break;
		}
		struct tfk_cursor payload;
		if (tfk_cur_sub(&body, pos + 6, size, &payload) != TFK_SUB_OK) {
			char what[64];
			snprintf(what, sizeof(what), "option %u payload", id);
			td_overrun(td, &body, pos + 6, size, what);
			break;
		}
		if (id == 0) {
			*done_at = payload.origin;
			if (size < 8) {
				struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTION_BAD_SIZE, body.origin + pos + 2, 4);
				tfk_set_path(f, "option DONE (id 0)");
				tfk_set_expected(f, "8 bytes");
				tfk_set_found(f, "%u bytes", size);
			} else {
				next = 0;
				tfk_cur_u64_at(&payload, 0, &next);
			}
			pos += 6 + (uint64_t)size;
			break;
		}
		td_check_option(td, id, body.origin + pos, &payload);
		pos += 6 + (uint64_t)size;
	}
	if (next != UINT64_MAX && !(s->flags & 1) && pos != s->size) {
		struct tfk_finding *f = bad_header(td, s->offset + 8, 8, s);
		tfk_set_expected(f, "size %llu (the options up to DONE)", (unsigned long long)pos);
		tfk_set_found(f, "%llu", (unsigned long long)s->size);
	}
	free(owned);
	return next;
}

/* Pass 3: the chain of OPTIONS sections from the file header, with loop detection. */
static void walk_options_chain(struct td_check *td, uint64_t first, uint64_t first_at)
{
	uint64_t visited[MAX_OPTIONS_SECTIONS];
	size_t nvisited = 0;
	uint64_t at = first, pointer_at = first_at;
	const char *from = "file header options offset";
	while (at != 0) {
		for (size_t i = 0; i < nvisited; i++) {
			if (visited[i] == at) {
				struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTIONS_LOOP, pointer_at, 8);
				tfk_set_path(f, "%s", from);
				tfk_set_expected(f, "0 or the offset of an OPTIONS section not yet visited");
				tfk_set_found(f, "0x%llx, visited already (chain of %zu sections)", (unsigned long long)at,
					      nvisited);
				return;
			}
		}
		if (nvisited == MAX_OPTIONS_SECTIONS) {
			tfk_limit_hit(td->ctx, pointer_at, "OPTIONS sections in the chain", nvisited + 1, MAX_OPTIONS_SECTIONS);
			return;
		}
		visited[nvisited++] = at;
		struct td_section *s = td_section_at(td, at);
		if (!s || s->id != SEC_OPTIONS) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTIONS_BAD_TARGET, pointer_at, 8);
			tfk_set_path(f, "%s", from);
			tfk_set_expected(f, "the offset of an OPTIONS section");
			td_set_found_target(td, f, at, s);
			return;
		}
		s->reached = true;
		s->checked = true;
		uint64_t done_at = 0;
		uint64_t next = walk_options_section(td, s, &done_at);
		if (next == UINT64_MAX)
			return;
		at = next;
		pointer_at = done_at;
		from = "option DONE";
	}
}

static void check_descriptions(struct td_check *td)
{
	bool have_strings = false;
	for (size_t i = 0; i < td->dat->nsections; i++)
		have_strings |= td->dat->sections[i].id == SEC_STRINGS && td->dat->sections[i].checked;
	if (!have_strings)
		return; /* strings lost (truncation, derailed walk): descriptions cannot be judged */
	for (size_t i = 0; i < td->dat->nsections; i++) {
		const struct td_section *s = &td->dat->sections[i];
		if (s->desc == -1 || (s->desc >= 0 && (uint64_t)s->desc < td->dat->strings_len))
			continue;
		struct tfk_finding *f = bad_header(td, s->offset + 4, 4, s);
		tfk_set_expected(f, "-1 or an offset into the %llu bytes of strings", (unsigned long long)td->dat->strings_len);
		tfk_set_found(f, "description id %d", s->desc);
	}
}

static void check_reached(struct td_check *td)
{
	bool have_header_info = false;
	for (size_t i = 0; i < td->dat->nsections; i++) {
		const struct td_section *s = &td->dat->sections[i];
		have_header_info |= s->id == SEC_HEADER_INFO && s->reached;
		if (s->reached || s->id == SEC_STRINGS || !known_section(s->id))
			continue;
		/*
		 * An empty top BUFFER section may legitimately have no BUFFER option (spec 7). But the
		 * last section met, size 0, before zero padding the walk derailed on, is a buffer
		 * whose write was cut off before its size and option were written: its data runs
		 * from it to the end of the file.
		 */
		bool cut = s->id == SEC_BUFFER && s->size == 0 && i + 1 == td->dat->nsections &&
			   td->dat->derailed_from == td->dat->nsections && s->offset + SECTION_HEADER < td->size;
		if (s->id == SEC_BUFFER && s->size == 0 && !cut)
			continue;
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTIONS_MISSING, s->offset, SECTION_HEADER + s->avail);
		tfk_set_path(f, "section %s at 0x%llx", td_section_name(s->id), (unsigned long long)s->offset);
		tfk_set_expected(f, "%s", s->id == SEC_OPTIONS ? "a DONE option or the file header pointing here"
					  : s->id == SEC_BUFFER || s->id == SEC_BUFFER_TEXT ? "a BUFFER option naming it"
					  : "an option naming it");
		tfk_set_found(f, "none");
		if (s->id == SEC_BUFFER) {
			struct td_section copy = td->dat->sections[i];
			if (cut)
				copy.avail = td->size - (copy.offset + SECTION_HEADER);
			td_scan_orphan_buffer(td, &copy);
		} else if (s->id >= SEC_FTRACE_EVENTS && s->id <= SEC_CMDLINES && s->avail == s->size) {
			/* No option reaches it (the options were cut off, say), yet its body is whole:
			 * check it, so that what it holds is known and repair can keep it. */
			check_metadata_section(td, &td->dat->sections[i]);
		}
	}
	if (!have_header_info) {
		struct tfk_finding *f = tfk_emit_nooffset(td->ctx, TFK_TRACEDAT_OPTIONS_MISSING);
		tfk_set_path(f, "option HEADER_INFO");
		tfk_set_expected(f, "an option naming the HEADER_INFO section (readers need it)");
		tfk_set_found(f, "none reachable");
	}
}

/* Do n bytes at p begin a block of codec (zstd's frame magic, or a zlib header)? */
static bool codec_magic(int codec, const uint8_t *p)
{
	if (codec == TFK_CODEC_ZSTD)
		return p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD;
	return codec == TFK_CODEC_ZLIB && (p[0] & 0x0F) == 8 && (p[0] >> 4) <= 7 && (p[0] * 256u + p[1]) % 31 == 0;
}

/*
 * Does a BUFFER section whose flags say "not compressed" hold compressed chunks, as every
 * BUFFER of a compressed file does? Its first CPU's data (at the first page boundary of its
 * body, where trace-cmd aligns it) then begins with a chunk count, then a chunk's u32 csize
 * and u32 usize that fit, then the file's codec's magic; ring pages begin with a timestamp and
 * a commit word, which do not read so.
 */
static bool buffer_holds_chunks(const struct td_check *td, const struct td_section *s)
{
	const int codec = td->dat->codec;
	uint64_t ps = td->header_page_size_ok ? td->header_page_size : 0, at;
	if ((codec != TFK_CODEC_ZSTD && codec != TFK_CODEC_ZLIB) || !ps ||
	    !tfk_align_up(s->offset + SECTION_HEADER, ps, &at) || at >= s->offset + SECTION_HEADER + s->size)
		return false;
	uint32_t count, csize, usize;
	const uint8_t *p;
	const uint64_t left = s->offset + SECTION_HEADER + s->size - at;
	if (!tfk_cur_u32_at(&td->file, at, &count) || !tfk_cur_u32_at(&td->file, at + 4, &csize) ||
	    !tfk_cur_u32_at(&td->file, at + 8, &usize) || !tfk_cur_bytes_at(&td->file, at + 12, 4, &p))
		return false;
	return count >= 1 && count <= left / 8 && csize >= 4 && csize <= left - 12 && usize >= csize / 64 &&
	       usize % ps == 0 && usize && codec_magic(codec, p);
}

/*
 * The codec a damaged compression name hides, told by the data: the blocks of the compressed
 * options and metadata sections (u32 csize, u32 usize, then the codec's bytes) all begin with zstd's frame magic,
 * or all with a zlib header. TFK_CODEC_UNKNOWN when no section is compressed or they disagree.
 * The sections are followed from at by their sizes, as the walk will follow them.
 */
static int codec_of_sections(const struct td_check *td, uint64_t at)
{
	int codec = TFK_CODEC_UNKNOWN;
	for (unsigned n = 0; n < 64 && at < td->size && td->size - at >= SECTION_HEADER; n++) {
		uint16_t id = 0, flags = 0;
		uint64_t size = 0;
		const uint8_t *p;
		tfk_cur_u16_at(&td->file, at, &id);
		tfk_cur_u16_at(&td->file, at + 2, &flags);
		tfk_cur_u64_at(&td->file, at + 8, &size);
		/* one block per metadata or options section; a BUFFER's data are chunks after a count */
		if ((flags & 1) && id != SEC_BUFFER && id != SEC_BUFFER_TEXT) {
			if (!tfk_cur_bytes_at(&td->file, at + SECTION_HEADER + 8, 4, &p))
				break;
			int c = p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD       ? TFK_CODEC_ZSTD
				: (p[0] & 0x0F) == 8 && (p[0] >> 4) <= 7 && (p[0] * 256u + p[1]) % 31 == 0 ? TFK_CODEC_ZLIB
													      : TFK_CODEC_UNKNOWN;
			if (c == TFK_CODEC_UNKNOWN || (codec != TFK_CODEC_UNKNOWN && c != codec))
				return TFK_CODEC_UNKNOWN;
			codec = c;
		}
		if (size > td->size - at - SECTION_HEADER)
			break;
		at += SECTION_HEADER + size;
	}
	return codec;
}

void td_check_v7(struct td_check *td, uint64_t pos)
{
	struct tfk_cursor c = td->file;
	const char *name, *ver;
	uint64_t name_len, ver_len;
	static char format[48];

	tfk_cur_seek(&c, pos);
	if (tfk_cur_cstr(&c, NAME_MAX_V7, &name, &name_len) != TFK_CSTR_OK) {
		td_truncated(td, pos, name_len + 1, "compression name");
		return;
	}
	td->dat->codec = tfk_codec_from_name(name, name_len);
	uint64_t ver_at = c.pos;
	if (tfk_cur_cstr(&c, NAME_MAX_V7, &ver, &ver_len) != TFK_CSTR_OK) {
		td_truncated(td, ver_at, ver_len + 1, "compression version");
		return;
	}
	uint64_t options_at = c.pos, options;
	if (!tfk_cur_u64(&c, &options)) {
		td_truncated(td, options_at, 8, "first options offset");
		return;
	}
	(void)format;
	if (td->dat->codec == TFK_CODEC_UNKNOWN) {
		/* One damaged byte of the name must not cost every compressed section: the data say which. */
		const int proven = codec_of_sections(td, c.pos);
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_COMPRESSION_UNKNOWN, pos, name_len + 1);
		tfk_set_path(f, "file header");
		if (proven != TFK_CODEC_UNKNOWN)
			tfk_set_expected(f, "\"%s\" (restored from the sections' data: every compressed block is %s)",
					 tfk_codec_name((enum tfk_codec)proven),
					 proven == TFK_CODEC_ZSTD ? "a zstd frame" : "a zlib stream");
		else
			tfk_set_expected(f, "\"none\", \"zstd\" or \"zlib\"");
		tfk_set_found_bytes(f, name, name_len);
		td->dat->codec = proven;
	}
	td_obs_item(td, TFK_ITEM_FILE, 18, options_at + 8 - 18, 7, "compression", "%s %.*s, first options at 0x%llx",
		    tfk_codec_name((enum tfk_codec)td->dat->codec), (int)ver_len, ver, (unsigned long long)options);
	td->ctx->report->stats.format = td->dat->codec == TFK_CODEC_ZSTD   ? "trace.dat v7 (zstd)"
					: td->dat->codec == TFK_CODEC_ZLIB ? "trace.dat v7 (zlib)"
					: td->dat->codec == TFK_CODEC_NONE ? "trace.dat v7"
								     : "trace.dat v7 (unknown compression)";

	walk_sections(td, c.pos);

	/* HEADER_INFO first: the page geometry depends on it. */
	for (size_t i = 0; i < td->dat->nsections; i++)
		if (td->dat->sections[i].id == SEC_HEADER_INFO) {
			check_metadata_section(td, &td->dat->sections[i]);
			break;
		}
	td_settle_geometry(td);
	for (size_t i = 0; i < td->dat->nsections; i++)
		if (td->dat->sections[i].id == SEC_STRINGS)
			check_metadata_section(td, &td->dat->sections[i]);

	if (options == 0) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTIONS_BAD_TARGET, options_at, 8);
		tfk_set_path(f, "file header options offset");
		tfk_set_expected(f, "the offset of the first OPTIONS section");
		tfk_set_found(f, "0");
	} else {
		walk_options_chain(td, options, options_at);
	}
	td_obs_geometry(td);
	/* The formats the options name are kept: parse them while the pages are walked (formats
	 * only an orphan section holds are kept later and parsed after). */
	td_parse_ahead(td);
	for (size_t i = 0; i < td->dat->nbuffer_opts; i++)
		td_check_buffer_v7(td, &td->dat->buffer_opts[i]);
	check_descriptions(td);
	check_reached(td);
}
