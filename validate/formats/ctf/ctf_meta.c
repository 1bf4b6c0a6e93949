/* SPDX-License-Identifier: MIT */
/*
 * The metadata member: packetized (37-byte packet headers around the TSDL text, spec 4.2),
 * plain TSDL text, or CTF 2 JSON fragments (plain or packetized: ctf2_meta.c). The text goes to the TSDL parser; every
 * metadata packet is checked, and a packet cut by the end of the file is reported, never
 * waited for.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf.h"
#include "ctf_lex.h"
#include "ctf2.h"
#include "tracefsck/catalog.h"
#include "tracefsck/quirk.h"
#include "writer_version.h"

#define META_HEADER 37

struct pieces {
	char *text;
	size_t len, cap;
	uint64_t *ptext, *pfile;
	size_t n, cap_t, cap_f;
};

static bool append(struct tfk_ctx *ctx, struct pieces *pc, const uint8_t *p, size_t n, uint64_t file_off)
{
	if (n > CTF_MAX_TEXT - pc->len) {
		tfk_limit_hit(ctx, file_off, "CTF metadata text bytes", pc->len + n, CTF_MAX_TEXT);
		return false;
	}
	if (!tfk_grow(ctx, (void **)&pc->text, &pc->cap, pc->len + n + 1, 1) ||
	    !tfk_grow(ctx, (void **)&pc->ptext, &pc->cap_t, pc->n + 1, sizeof(uint64_t)) ||
	    !tfk_grow(ctx, (void **)&pc->pfile, &pc->cap_f, pc->n + 1, sizeof(uint64_t))) {
		ctx->report->incomplete = true;
		return false;
	}
	pc->ptext[pc->n] = pc->len;
	pc->pfile[pc->n] = file_off;
	pc->n++;
	memcpy(pc->text + pc->len, p, n);
	pc->len += n;
	pc->text[pc->len] = 0;
	return true;
}

__attribute__((format(printf, 6, 7))) static void bad_packet(struct tfk_ctx *ctx, uint64_t off, uint64_t len,
								uint64_t index, const char *expected, const char *found_fmt, ...)
{
	struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_BAD_PACKET, off, len);
	tfk_set_path(f, "metadata packet %llu", (unsigned long long)index);
	tfk_set_expected(f, "%s", expected);
	char found[96];
	va_list ap;
	va_start(ap, found_fmt);
	vsnprintf(found, sizeof(found), found_fmt, ap);
	va_end(ap);
	tfk_set_found(f, "%s", found);
}

/* The packets of packetized metadata into pc; the UUID of the first packet into uuid. */
static void read_packets(struct tfk_ctx *ctx, const struct tfk_cursor *file, bool big_endian, struct pieces *pc,
			 uint8_t uuid[16], bool *layout_ok, struct ctf_meta *meta)
{
	struct tfk_cursor c = *file;
	c.big_endian = big_endian;
	uint64_t off = 0;
	for (uint64_t index = 0; off < c.len; index++) {
		uint64_t left = c.len - off;
		if (left < META_HEADER) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_TRUNCATED, off, left);
			tfk_set_path(f, "metadata packet %llu header", (unsigned long long)index);
			tfk_set_expected(f, "a 37-byte packet header");
			tfk_set_found(f, "%llu bytes before the end of the file", (unsigned long long)left);
			return;
		}
		/* the header's 37 bytes are there (left >= META_HEADER): every read below succeeds */
		uint32_t magic = 0, checksum = 0, content = 0, size = 0;
		const uint8_t *u = NULL;
		uint8_t comp = 0, enc = 0, scheme = 0, major = 0, minor = 0;
		tfk_cur_u32_at(&c, off, &magic);
		tfk_cur_bytes_at(&c, off + 4, 16, &u);
		tfk_cur_u32_at(&c, off + 20, &checksum);
		tfk_cur_u32_at(&c, off + 24, &content);
		tfk_cur_u32_at(&c, off + 28, &size);
		tfk_cur_u8_at(&c, off + 32, &comp);
		tfk_cur_u8_at(&c, off + 33, &enc);
		tfk_cur_u8_at(&c, off + 34, &scheme);
		tfk_cur_u8_at(&c, off + 35, &major);
		tfk_cur_u8_at(&c, off + 36, &minor);
		if (magic != CTF_META_MAGIC) {
			bad_packet(ctx, off, 4, index, "magic 0x75d11d57 in the byte order of the first packet", "0x%08llx",
				   (unsigned long long)magic);
			return;
		}
		if (!u)
			return;
		if (index == 0)
			memcpy(uuid, u, 16);
		else if (memcmp(uuid, u, 16) != 0)
			bad_packet(ctx, off + 4, 16, index, "the UUID of the first metadata packet", "%s", "another UUID");
		if (checksum || comp || enc || scheme)
			bad_packet(ctx, off + 20, 15, index, "checksum, compression, encryption and checksum scheme 0",
				   "checksum 0x%08x, schemes %u %u %u", checksum, comp, enc, scheme);
		if (index == 0) {
			meta->packet_major = major;
			meta->packet_minor = minor;
		}
		/* 2.0: CTF 2 JSON fragments in the packets (CTF2-PMETA-1.0); checked against the text after */
		if ((major != 1 || minor != 8) && (major != 2 || minor != 0)) {
			/* Another header layout (pre-1.8 lttng-modules): the text cannot be located. */
			bad_packet(ctx, off + 35, 2, index, "metadata packet version 1.8 (or 2.0 for CTF 2)", "%u.%u",
				   major, minor);
			*layout_ok = false;
			return;
		}
		if (size % 8 || size < META_HEADER * 8) {
			bad_packet(ctx, off + 28, 4, index, "a packet_size of at least 296 bits, a multiple of 8",
				   "%u bits", size);
			return;
		}
		if (content % 8 || content < META_HEADER * 8 || content > size) {
			bad_packet(ctx, off + 24, 4, index,
				   "a content_size of at least 296 bits, a multiple of 8, at most packet_size", "%u bits",
				   content);
			if (content > size || content < META_HEADER * 8)
				return;
		}
		uint64_t psize = size / 8, csize = content / 8;
		if (psize > left) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_TRUNCATED, off, left);
			tfk_set_path(f, "metadata packet %llu", (unsigned long long)index);
			tfk_set_expected(f, "a packet of %llu bytes (content %llu)", (unsigned long long)psize,
					 (unsigned long long)csize);
			tfk_set_found(f, "%llu bytes before the end of the file", (unsigned long long)left);
			if (csize > left) {
				/* The text the cut left of it: what of it is whole is parsed (meta->cut). */
				const uint8_t *rest;
				if (left > META_HEADER && tfk_cur_bytes_at(&c, off + META_HEADER, left - META_HEADER, &rest))
					append(ctx, pc, rest, left - META_HEADER, off + META_HEADER);
				meta->cut = true;
				return;
			}
		}
		const uint8_t *text;
		if (!tfk_cur_bytes_at(&c, off + META_HEADER, csize - META_HEADER, &text) ||
		    !append(ctx, pc, text, csize - META_HEADER, off + META_HEADER))
			return;
		if (psize > left)
			return;
		off += psize;
		meta->whole_end = off;
		meta->whole_packets++;
	}
}

/*
 * Plain text that stops inside a declaration: a file cut short (an upload, a full disk). Its
 * whole declarations are parsed and decode the streams; the tail is one finding
 * (ctf.metadata.text-cut) rather than the syntax error it would make. Errors before the tail
 * are reported as ever (and repair then refuses). A tail with a token the lexer refuses, or
 * one that closes a brace it did not open, is not a cut: the whole text is parsed and
 * reported as it is.
 */
static void plain_cut(struct tfk_ctx *ctx, struct ctf_text *text, struct ctf_meta *meta)
{
	size_t whole = ctf_lex_whole_prefix(text->s, text->len);
	if (whole == 0 || whole >= text->len)
		return;
	struct ctf_lexer lx;
	ctf_lex_init(&lx, text->s + whole, text->len - whole);
	long depth = 0;
	size_t tokens = 0, first_at = 0;
	for (;;) {
		struct ctf_token t = ctf_lex_next(&lx);
		if (t.kind == CTF_T_EOF)
			break;
		if (t.kind == CTF_T_ERROR)
			return;
		if (tokens++ == 0)
			first_at = t.at;
		if (ctf_tok_is(&t, "{") || ctf_tok_is(&t, "("))
			depth++;
		else if ((ctf_tok_is(&t, "}") || ctf_tok_is(&t, ")")) && --depth < 0)
			return;
	}
	if (tokens == 0)
		return; /* only blanks and comments after the last declaration */
	const uint64_t at = ctf_text_file_offset(text, whole + first_at);
	struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_TEXT_CUT, at, text->len - whole - first_at);
	tfk_set_path(f, "metadata text");
	tfk_set_expected(f, "the end of the text after a whole declaration");
	tfk_set_found(f, "%zu bytes of a declaration the end of the file cuts", text->len - whole - first_at);
	text->len = whole;
	meta->text_whole_end = ctf_text_file_offset(text, whole);
}

/*
 * TSDL text that does not begin with the CTF 1.8 signature comment: LTTng 2.14.0's kernel metadata (a writer
 * quirk, noted with the version), else a warning for plain text (packetized metadata needs no
 * signature: its packets say what it is).
 */
static void signature(struct tfk_ctx *ctx, const struct tfk_cursor *file, const struct ctf_text *text,
		      struct ctf_meta *meta, bool packetized)
{
	char version[48];
	snprintf(version, sizeof(version), "%lld.%lld.%lld", (long long)meta->tracer_major, (long long)meta->tracer_minor,
		 (long long)meta->tracer_patch);
	const struct tfk_quirk *q = tfk_fault_quirk(tfk_fault_get(TFK_CTF_WRITER_LTTNG_NO_SIGNATURE));
	const uint64_t at = text->npieces ? ctf_text_file_offset(text, 0) : 0;
	if (q && !strcmp(meta->tracer_name, q->writer) && tfk_version_between(version, q->first_bad, q->last_bad)) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_WRITER_LTTNG_NO_SIGNATURE, at, 1);
		tfk_set_path(f, "metadata text");
		tfk_set_expected(f, "'/* CTF 1.8 */' as the first line");
		tfk_set_found(f, "%s %s", meta->tracer_name, version);
		meta->no_signature_quirk = true;
		return;
	}
	if (packetized)
		return;
	const uint8_t *p;
	uint64_t n = file->len < 10 ? file->len : 10;
	tfk_cur_bytes_at(file, 0, n, &p);
	struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_SIGNATURE, 0, n);
	tfk_set_path(f, "metadata");
	tfk_set_expected(f, "'/* CTF 1.8' at the start of the text");
	tfk_set_found_bytes(f, p, n);
}

void ctf_check_metadata(struct tfk_ctx *ctx, const struct tfk_cursor *file, struct ctf_meta *meta)
{
	meta->arena.ctx = ctx;
	if (file->len == 0) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_METADATA_MISSING);
		tfk_set_path(f, "metadata");
		tfk_set_expected(f, "TSDL text or metadata packets");
		tfk_set_found(f, "an empty file");
		return;
	}
	uint8_t first;
	tfk_cur_u8_at(file, 0, &first);
	if (first == 0x1e) {
		/* CTF 2: a JSON text sequence (ctf2_meta.c) */
		const uint8_t *p;
		if (file->len > CTF_MAX_TEXT) {
			tfk_limit_hit(ctx, 0, "CTF metadata text bytes", file->len, CTF_MAX_TEXT);
			return;
		}
		tfk_cur_bytes_at(file, 0, file->len, &p);
		struct ctf_text text = { (const char *)p, file->len, NULL, NULL, 0 };
		ctf2_check_metadata(ctx, &text, meta);
		return;
	}
	struct pieces pc = { 0 };
	uint8_t uuid[16] = { 0 };
	bool packetized = false;
	struct tfk_cursor le = *file, be = *file;
	le.big_endian = false;
	be.big_endian = true;
	uint32_t m_le = 0, m_be = 0;
	tfk_cur_u32_at(&le, 0, &m_le);
	tfk_cur_u32_at(&be, 0, &m_be);
	struct ctf_text text = { 0 };
	bool no_signature = false;
	if (m_le == CTF_META_MAGIC || m_be == CTF_META_MAGIC) {
		packetized = true;
		bool layout_ok = true;
		meta->packetized = true;
		meta->packets_big_endian = m_be == CTF_META_MAGIC;
		read_packets(ctx, file, m_be == CTF_META_MAGIC, &pc, uuid, &layout_ok, meta);
		if (!layout_ok || pc.n == 0) {
			/* No whole packet of text: nothing to parse (the packets were reported). */
			ctx->report->incomplete = true;
			free(pc.text);
			free(pc.ptext);
			free(pc.pfile);
			return;
		}
		text.s = pc.text ? pc.text : "";
		text.len = pc.len;
		text.piece_text = pc.ptext;
		text.piece_file = pc.pfile;
		text.npieces = pc.n;
	} else {
		const uint8_t *p;
		tfk_cur_bytes_at(file, 0, file->len, &p);
		if (file->len > CTF_MAX_TEXT) {
			tfk_limit_hit(ctx, 0, "CTF metadata text bytes", file->len, CTF_MAX_TEXT);
			return;
		}
		/* Text: printable ASCII or UTF-8 at the start. */
		bool texty = true;
		for (uint64_t i = 0; i < file->len && i < 64; i++)
			if (p[i] < 0x09 || (p[i] > 0x0d && p[i] < 0x20))
				texty = false;
		if (!texty) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_MISSING, 0, 4);
			tfk_set_path(f, "metadata");
			tfk_set_expected(f, "TSDL text or metadata packets (magic 0x75d11d57)");
			tfk_set_found_bytes(f, p, file->len < 8 ? file->len : 8);
			return;
		}
		no_signature = file->len < 10 || memcmp(p, "/* CTF 1.8", 10) != 0;
		text.s = (const char *)p;
		text.len = file->len;
		plain_cut(ctx, &text, meta);
	}
	if (packetized && text.len && text.s[0] == 0x1e) {
		ctf2_check_metadata(ctx, &text, meta);
		ctf2_packet_version(ctx, meta);
		free(pc.text);
		free(pc.ptext);
		free(pc.pfile);
		return;
	}
	if (packetized && meta->packet_major == 2) {
		bad_packet(ctx, 35, 2, 0, "metadata packet version 1.8 for TSDL text", "%u.%u (CTF 2's)",
			   meta->packet_major, meta->packet_minor);
	}
	if (meta->cut) {
		/*
		 * A metadata stream cut inside a packet's text (LTTng splits its text into packets
		 * wherever the buffer fills): the declarations before the cut are checked and decode
		 * the streams; the one the cut split is not a syntax error of its own.
		 */
		size_t whole = ctf_lex_whole_prefix(text.s, text.len);
		if (whole)
			text.len = whole;
	}
	ctf_parse_tsdl(ctx, &text, meta);
	if (no_signature || (packetized && (text.len < 10 || memcmp(text.s, "/* CTF 1.8", 10) != 0)))
		signature(ctx, file, &text, meta, packetized);
	if (packetized && meta->have_byte_order && meta->big_endian != meta->packets_big_endian) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_PACKET_BYTE_ORDER, 0, 4);
		tfk_set_path(f, "metadata packet 0 magic");
		tfk_set_expected(f, "the trace's byte order (%s)", meta->big_endian ? "be" : "le");
		tfk_set_found(f, "%s", meta->packets_big_endian ? "be" : "le");
	}
	if (packetized && meta->have_uuid && pc.n && memcmp(uuid, meta->uuid, 16) != 0) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_BAD_PACKET, 4, 16);
		tfk_set_path(f, "metadata packet 0 uuid");
		tfk_set_expected(f, "the trace block's uuid");
		tfk_set_found(f, "another UUID");
	}
	free(pc.text);
	free(pc.ptext);
	free(pc.pfile);
}

void ctf_meta_free(struct ctf_meta *meta)
{
	ctf_arena_free(&meta->arena);
}
