/* SPDX-License-Identifier: MIT */
/*
 * CTF 1.8 trace directories (LTTng 2.x): every directory holding a metadata file is a trace
 * (LTTng nests them: ust/uid/<uid>/<bits>-bit/, ust/pid/<proc>/, kernel/, archives/,
 * snapshots). Its metadata is parsed; its streams are the regular files beside it whose name
 * does not start with '.'; each is walked packet by packet and checked against its index.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf.h"
#include "ctf_seen.h"

/* The directory part of a member name ("a/b/metadata" -> "a/b/", "metadata" -> ""). */
static size_t dir_len(const char *name)
{
	const char *slash = strrchr(name, '/');
	return slash ? (size_t)(slash - name) + 1 : 0;
}

static bool is_metadata(const struct tfk_member *m)
{
	return m->kind == TFK_MEMBER_FILE && strcmp(m->name + dir_len(m->name), "metadata") == 0;
}

/* What a single file of a CTF trace is, by its first bytes. */
enum ctf_alone { CTF_ALONE_NONE, CTF_ALONE_METADATA, CTF_ALONE_STREAM };

static enum ctf_alone alone_kind(const struct tfk_cursor *file)
{
	uint32_t le = 0;
	if (!tfk_cur_u32_at(file, 0, &le))
		return CTF_ALONE_NONE;
	if (le == CTF_META_MAGIC || __builtin_bswap32(le) == CTF_META_MAGIC || tfk_cur_has(file, "/* CTF 1.8", 10))
		return CTF_ALONE_METADATA;
	/* CTF 2: RS, blanks, then a fragment's '{' */
	uint8_t b = 0;
	if (tfk_cur_u8_at(file, 0, &b) && b == 0x1e) {
		for (uint64_t i = 1; i < 64 && tfk_cur_u8_at(file, i, &b); i++) {
			if (b == '{')
				return CTF_ALONE_METADATA;
			if (b != ' ' && b != '\n' && b != '\r' && b != '\t')
				break;
		}
	}
	if (le == CTF_PKT_MAGIC || __builtin_bswap32(le) == CTF_PKT_MAGIC)
		return CTF_ALONE_STREAM;
	return CTF_ALONE_NONE;
}

/* Does the directory part of name (dlen bytes, '/' included) hold a metadata file? */
static bool has_metadata(const struct tfk_input *in, const char *name, size_t dlen)
{
	char meta[TFK_MEMBER_NAME_MAX];
	if (snprintf(meta, sizeof(meta), "%.*smetadata", (int)dlen, name) >= (int)sizeof(meta))
		return false;
	const struct tfk_member *m = tfk_input_find(in, meta);
	return m && m->kind == TFK_MEMBER_FILE;
}

/* A short text file (a README beside the traces): its first bytes printable. */
static bool text_file(const struct tfk_input *in, const struct tfk_member *m)
{
	struct tfk_member_map map;
	if (m->size == 0)
		return true;
	if (tfk_member_open(in, m, &map) != 0)
		return false;
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	bool text = true;
	uint8_t b;
	for (uint64_t i = 0; i < 512 && text && tfk_cur_u8_at(&c, i, &b); i++)
		text = b == '\n' || b == '\t' || b == '\r' || (b >= 0x20 && b < 0x7f);
	tfk_member_close(&map);
	return text;
}

static bool stream_magic(const struct tfk_input *in, const struct tfk_member *m);

/*
 * Is every file of the listing a CTF trace's (a metadata, a file beside one, an index of one,
 * a data stream whose metadata is gone), but for text files at the top? Then the directory is
 * one trace as babeltrace2 reads it: an LTTng session of kernel/ and ust/ traces, snapshots,
 * rotated chunks. A folder that holds anything else beside its traces is not one: its traces
 * are units of their own (units.h).
 */
static bool all_ctf(const struct tfk_input *in)
{
	unsigned probes = 0;
	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		if (m->kind != TFK_MEMBER_FILE)
			continue;
		size_t dlen = dir_len(m->name);
		if (has_metadata(in, m->name, dlen))
			continue;
		/* DIR/index/NAME.idx */
		size_t n = strlen(m->name);
		if (dlen >= 6 && strncmp(m->name + dlen - 6, "index/", 6) == 0 && (dlen == 6 || m->name[dlen - 7] == '/') &&
		    n > 4 && strcmp(m->name + n - 4, ".idx") == 0)
			continue;
		if (!dlen && text_file(in, m))
			continue;
		if (probes++ < 16 && stream_magic(in, m))
			continue;
		return false;
	}
	return true;
}

/* Does a member begin with a CTF packet's magic (a data stream, whatever its name)? */
static bool stream_magic(const struct tfk_input *in, const struct tfk_member *m)
{
	struct tfk_member_map map;
	if (m->kind != TFK_MEMBER_FILE || tfk_member_open(in, m, &map) != 0)
		return false;
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	bool yes = alone_kind(&c) == CTF_ALONE_STREAM;
	tfk_member_close(&map);
	return yes;
}

/* A CTF trace directory (metadata at its top), or a tree of nothing but CTF traces (all_ctf). */
static int ctf_sniff_dir(const struct tfk_input *in)
{
	int best = 0;
	bool top_meta = false;
	for (size_t i = 0; i < in->n && !top_meta; i++)
		top_meta = !strchr(in->members[i].name, '/') && is_metadata(&in->members[i]);
	bool session = !top_meta && all_ctf(in);
	unsigned probed = 0;
	bool streams = false;
	for (size_t i = 0; i < in->n && best < 100; i++) {
		const struct tfk_member *m = &in->members[i];
		bool top = !strchr(m->name, '/');
		if (!top && !session)
			continue;
		/* a few data streams are enough: a trace whose metadata went missing is still one */
		if (!streams && probed < 8 && m->kind == TFK_MEMBER_FILE && !is_metadata(m) &&
		    !strstr(m->name, "index/") && m->name[dir_len(m->name)] != '.') {
			probed++;
			streams = stream_magic(in, m);
		}
		if (!is_metadata(m))
			continue;
		if (best < 45)
			best = 45; /* a metadata file of unknown content: a damaged trace at best */
		struct tfk_member_map map;
		if (tfk_member_open(in, m, &map) != 0)
			continue;
		struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
		uint32_t le = 0;
		uint8_t first = 0;
		tfk_cur_u8_at(&c, 0, &first);
		tfk_cur_u32_at(&c, 0, &le);
		if (le == CTF_META_MAGIC || __builtin_bswap32(le) == CTF_META_MAGIC || tfk_cur_has(&c, "/* CTF", 6))
			best = 100;
		else if (first == 0x1e)
			best = best < 90 ? 90 : best;
		else if (tfk_cur_find(&c, "trace", 5) >= 0)
			best = best < 70 ? 70 : best;
		tfk_member_close(&map);
	}
	if (streams && best < 45)
		best = 45; /* data streams without their metadata: a damaged trace (ctf.metadata.missing) */
	return best;
}

static bool open_member(struct tfk_ctx *ctx, const struct tfk_input *in, const struct tfk_member *m,
			struct tfk_member_map *map)
{
	if (tfk_member_open(in, m, map) == 0)
		return true;
	int err = errno;
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, m->name, NULL);
	struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_IO_ERROR);
	tfk_set_path(f, "CTF trace member");
	tfk_set_found(f, "%s", strerror(err));
	ctx->report->incomplete = true;
	tfk_ctx_return(ctx, was);
	return false;
}

/* index/<stream>.idx beside the stream: NULL when there is none (noted when the trace is indexed). */
static const struct tfk_member *index_of(struct tfk_ctx *ctx, const struct tfk_input *in, const char *dir, size_t dlen,
					  const char *stream, bool indexed)
{
	char name[TFK_MEMBER_NAME_MAX];
	int n = snprintf(name, sizeof(name), "%.*sindex/%s.idx", (int)dlen, dir, stream);
	if (n < 0 || (size_t)n >= sizeof(name))
		return NULL;
	const struct tfk_member *m = tfk_input_find(in, name);
	if (m && m->kind == TFK_MEMBER_FILE)
		return m;
	if (indexed) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, name, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_INDEX_MISSING);
		tfk_set_path(f, "index of stream %s", stream);
		tfk_set_found(f, "none");
		tfk_ctx_return(ctx, was);
	}
	return NULL;
}

static void check_trace(struct tfk_ctx *ctx, const struct tfk_input *in, const struct tfk_member *meta_member,
			struct ctf_seen *seen)
{
	const char *dir = meta_member->name;
	size_t dlen = dir_len(dir);
	struct ctf_meta *meta = tfk_calloc(ctx, 1, sizeof(*meta));
	if (!meta) {
		ctx->report->incomplete = true;
		return;
	}
	meta->arena.ctx = ctx;
	struct tfk_member_map map;
	if (!open_member(ctx, in, meta_member, &map)) {
		free(meta);
		return;
	}
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, meta_member->name, &map);
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	ctf_check_metadata(ctx, &c, meta);
	ctf_note_shapes(ctx, meta);
	if (meta->ctf2)
		ctx->report->stats.format = "CTF 2 (JSON metadata)";
	if (ctx->obs && ctx->obs->model) {
		struct tfk_ctf_metadata mm = { 0 };
		snprintf(mm.member, sizeof(mm.member), "%s", meta_member->name);
		mm.packetized = meta->packetized;
		mm.big_endian = meta->packetized ? meta->packets_big_endian : meta->big_endian;
		mm.size = map.size;
		mm.whole_end = meta->whole_end;
		mm.packets = meta->whole_packets;
		mm.usable = meta->usable;
		mm.have_uuid = meta->have_uuid;
		mm.text_whole_end = meta->text_whole_end;
		mm.ctf2 = meta->ctf2;
		mm.ndrops = meta->ctf2_ndrops;
		mm.drops_overflow = meta->ctf2_drops_overflow || (meta->ctf2 && meta->packetized && meta->ctf2_ndrops);
		memcpy(mm.drop_from, meta->ctf2_drop_from, sizeof(mm.drop_from));
		memcpy(mm.drop_to, meta->ctf2_drop_to, sizeof(mm.drop_to));
		mm.no_signature_quirk = meta->no_signature_quirk;
		memcpy(mm.uuid, meta->uuid, 16);
		ctx->obs->model(ctx->obs->user, &tfk_format_ctf, TFK_CTF_MODEL_METADATA, &mm, sizeof mm);
	}
	tfk_ctx_return(ctx, was);
	tfk_member_close(&map);

	uint8_t trace[16];
	ctf_seen_trace(trace, meta->have_uuid, meta->uuid, dir, dlen);

	/* Is this an indexed trace (LTTng): then every stream should have its index. */
	char idxdir[TFK_MEMBER_NAME_MAX];
	snprintf(idxdir, sizeof(idxdir), "%.*sindex", (int)dlen, dir);
	const struct tfk_member *im = tfk_input_find(in, idxdir);
	bool indexed = im && im->kind == TFK_MEMBER_DIR;

	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		if (m->kind != TFK_MEMBER_FILE || strncmp(m->name, dir, dlen) != 0)
			continue;
		const char *base = m->name + dlen;
		if (strchr(base, '/') || base[0] == '.' || strcmp(base, "metadata") == 0)
			continue;
		if (m->size == 0) {
			struct tfk_ctx_place w = tfk_ctx_enter_member(ctx, m->name, NULL);
			struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_DIR_EMPTY_STREAM);
			tfk_set_path(f, "data stream");
			tfk_set_found(f, "0 bytes");
			tfk_ctx_return(ctx, w);
			continue;
		}
		if (!meta->usable) {
			ctx->report->incomplete = true;
			continue;
		}
		struct tfk_member_map sm;
		if (!open_member(ctx, in, m, &sm))
			continue;
		struct ctf_index ix = { 0 }, *ixp = NULL;
		struct tfk_member_map im_map;
		const struct tfk_member *im_member = index_of(ctx, in, dir, dlen, base, indexed);
		if (im_member && open_member(ctx, in, im_member, &im_map)) {
			ix.member = im_member->name;
			ix.map = &im_map;
			ixp = &ix;
			ctf_index_open(ctx, &ix);
		}
		struct ctf_stream_result res = { 0 };
		struct tfk_ctx_place w = tfk_ctx_enter_member(ctx, m->name, &sm);
		struct tfk_cursor sc = tfk_cur_make(sm.data, sm.size, 0, meta->big_endian);
		ctf_check_stream(ctx, meta, &sc, &res, ixp, seen, trace);
		tfk_ctx_return(ctx, w);
		if (ixp) {
			ctf_index_finish(ctx, &ix, &res, m->size);
			tfk_member_close(&im_map);
		}
		tfk_member_close(&sm);
	}
	/* Indexes of no stream. */
	size_t ilen = strlen(idxdir);
	for (size_t i = 0; indexed && i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		size_t n = strlen(m->name);
		if (m->kind != TFK_MEMBER_FILE || n <= ilen + 5 || strncmp(m->name, idxdir, ilen) != 0 ||
		    m->name[ilen] != '/' || strchr(m->name + ilen + 1, '/') || strcmp(m->name + n - 4, ".idx") != 0)
			continue;
		char stream[TFK_MEMBER_NAME_MAX];
		snprintf(stream, sizeof(stream), "%.*s%.*s", (int)dlen, dir, (int)(n - ilen - 5), m->name + ilen + 1);
		const struct tfk_member *s = tfk_input_find(in, stream);
		if (s && s->kind == TFK_MEMBER_FILE)
			continue;
		struct tfk_ctx_place w = tfk_ctx_enter_member(ctx, m->name, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_INDEX_ORPHAN);
		tfk_set_path(f, "index");
		tfk_set_expected(f, "the data stream %s", stream + dlen);
		tfk_set_found(f, "none");
		tfk_ctx_return(ctx, w);
	}
	ctf_meta_free(meta);
	free(meta);
}

static void ctf_check_dir(struct tfk_ctx *ctx, const struct tfk_input *in)
{
	ctx->report->stats.format = "CTF 1.8 (LTTng 2.x)";
	ctx->report->stats.file_size = in->total_size;
	bool any = false;
	struct ctf_seen seen = { 0 };
	for (size_t i = 0; i < in->n; i++) {
		if (!is_metadata(&in->members[i]))
			continue;
		any = true;
		check_trace(ctx, in, &in->members[i], &seen);
	}
	ctf_seen_free(&seen);
	/* Data streams in a directory without metadata (one of a session's traces lost its own):
	 * nothing can decode them, and the readers skip or refuse the whole trace. */
	bool reported = false;
	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		size_t dlen = dir_len(m->name);
		if (m->kind != TFK_MEMBER_FILE || is_metadata(m) || m->name[dlen] == '.' || strstr(m->name, "index/"))
			continue;
		char meta[TFK_MEMBER_NAME_MAX];
		snprintf(meta, sizeof(meta), "%.*smetadata", (int)dlen, m->name);
		const struct tfk_member *mm = tfk_input_find(in, meta);
		if ((mm && mm->kind == TFK_MEMBER_FILE) || !stream_magic(in, m))
			continue;
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, meta, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_METADATA_MISSING);
		tfk_set_path(f, "metadata");
		tfk_set_expected(f, "a metadata file beside the data streams (%s among them)", m->name + dlen);
		tfk_set_found(f, "none");
		tfk_ctx_return(ctx, was);
		reported = true;
		/* one finding per directory: skip its other members */
		while (i + 1 < in->n && dir_len(in->members[i + 1].name) == dlen &&
		       strncmp(in->members[i + 1].name, m->name, dlen) == 0)
			i++;
	}
	if (!any && !reported) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_METADATA_MISSING);
		tfk_set_path(f, "metadata");
		tfk_set_expected(f, "a metadata file beside the data streams");
		tfk_set_found(f, "none");
	}
}

/*
 * One file of a trace given alone. A metadata file is checked whole (packets, TSDL). A data
 * stream cannot be decoded without its trace's metadata: that is said, and where to look.
 */
static void ctf_check_single(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	ctx->report->stats.format = "CTF 1.8 (LTTng 2.x)";
	ctx->report->stats.file_size = file->len;
	if (alone_kind(file) == CTF_ALONE_METADATA) {
		struct ctf_meta *meta = tfk_calloc(ctx, 1, sizeof(*meta));
		if (!meta) {
			ctx->report->incomplete = true;
			return;
		}
		meta->arena.ctx = ctx;
		ctf_check_metadata(ctx, file, meta);
		ctf_note_shapes(ctx, meta);
		if (meta->ctf2)
			ctx->report->stats.format = "CTF 2 (JSON metadata)";
		ctf_meta_free(meta);
		free(meta);
		return;
	}
	struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_STREAM_ALONE, 0, 4);
	tfk_set_path(f, "data stream");
	tfk_set_expected(f, "the trace directory: the stream's packets decode with the metadata beside it");
	tfk_set_found(f, "a file of CTF packets (magic 0xc1fc1fc1) without its metadata");
	ctx->report->incomplete = true;
}

/* A metadata file or a data stream on its own: checked as far as it can be (ctf_check_single). */
static int ctf_sniff(const struct tfk_cursor *file)
{
	return alone_kind(file) != CTF_ALONE_NONE ? 60 : 0;
}

static void ctf_dictionary(tfk_token_fn emit, void *user)
{
	static const uint8_t pkt_le[4] = { 0xc1, 0x1f, 0xfc, 0xc1 }, meta_le[4] = { 0x57, 0x1d, 0xd1, 0x75 },
			     meta_be[4] = { 0x75, 0xd1, 0x1d, 0x57 }, idx[4] = { 0xc1, 0xf1, 0xdc, 0xc1 };
	emit(user, "ctf_packet_magic", pkt_le, 4);
	emit(user, "ctf_metadata_magic_le", meta_le, 4);
	emit(user, "ctf_metadata_magic_be", meta_be, 4);
	emit(user, "ctf_index_magic", idx, 4);
	static const char *const words[] = { "/* CTF 1.8 */", "typealias", "typedef", "integer", "floating_point",
					     "string", "enum", "struct", "variant", "trace", "env", "clock", "stream",
					     "event", "callsite", "align(", ":=", "...", "packet.header",
					     "packet.context", "event.header", "event.context", "fields", "byte_order",
					     "map = clock.monotonic.value", "stream_id", "content_size", "packet_size" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		emit(user, "ctf_word", words[i], strlen(words[i]));
	/* CTF 2: the record separator, fragment and field class types, roles, property names */
	emit(user, "ctf2_rs", "\x1e{", 2);
	static const char *const json[] = {
		"\"type\":", "\"preamble\"", "\"version\":2", "\"uuid\":[", "\"trace-class\"", "\"clock-class\"",
		"\"data-stream-class\"", "\"event-record-class\"", "\"field-class-alias\"", "\"field-class\":",
		"\"member-classes\":[", "\"name\":", "\"id\":", "\"frequency\":", "\"offset-from-origin\":",
		"\"environment\":{", "\"packet-header-field-class\":", "\"packet-context-field-class\":",
		"\"event-record-header-field-class\":", "\"payload-field-class\":", "\"default-clock-class-id\":",
		"\"data-stream-class-id\":", "\"fixed-length-unsigned-integer\"", "\"fixed-length-signed-integer\"",
		"\"variable-length-unsigned-integer\"", "\"fixed-length-boolean\"", "\"fixed-length-floating-point-number\"",
		"\"null-terminated-string\"", "\"static-length-blob\"", "\"dynamic-length-array\"", "\"structure\"",
		"\"optional\"", "\"variant\"", "\"options\":[", "\"selector-field-location\":",
		"\"selector-field-ranges\":[[", "\"length-field-location\":", "\"path\":[", "\"origin\":",
		"\"length\":", "\"byte-order\":\"little-endian\"", "\"big-endian\"", "\"alignment\":",
		"\"roles\":[", "\"packet-magic-number\"", "\"metadata-stream-uuid\"", "\"packet-total-length\"",
		"\"packet-content-length\"", "\"default-clock-timestamp\"", "\"event-record-class-id\"",
		"\"event-record-payload\"", "\\ud800", "18446744073709551616",
	};
	for (size_t i = 0; i < sizeof(json) / sizeof(json[0]); i++)
		emit(user, "ctf2_word", json[i], strlen(json[i]));
}

const struct tfk_format tfk_format_ctf = {
	.name = "CTF 1.8 (LTTng 2.x)",
	.sniff = ctf_sniff,
	.check = ctf_check_single,
	.dictionary = ctf_dictionary,
	.sniff_dir = ctf_sniff_dir,
	.check_dir = ctf_check_dir,
	.picture = ctf_picture,
};
