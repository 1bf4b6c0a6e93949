/* SPDX-License-Identifier: MIT */
/*
 * LTTng index files (index/<stream>.idx, always big-endian, spec 4.5): the header, whole
 * entries, every entry equal to the packet it indexes (compared while the stream is walked,
 * so nothing is kept per packet), one entry per packet, sizes adding up to the stream.
 */
#include <string.h>

#include "ctf.h"

#define IDX_HEADER 16
#define IDX_MAX_REPORTS 8

static void bad_header(struct tfk_ctx *ctx, uint64_t off, uint64_t len, const char *expected, uint64_t found)
{
	struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_INDEX_BAD_HEADER, off, len);
	tfk_set_path(f, "index header");
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%llu (0x%llx)", (unsigned long long)found, (unsigned long long)found);
}

bool ctf_index_open(struct tfk_ctx *ctx, struct ctf_index *ix)
{
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, ix->member, ix->map);
	struct tfk_cursor *c = &ix->c;
	*c = tfk_cur_make(ix->map->data, ix->map->size, 0, true);
	ix->usable = false;
	uint32_t magic, major, minor, elen;
	if (!tfk_cur_u32_at(c, 0, &magic) || !tfk_cur_u32_at(c, 4, &major) || !tfk_cur_u32_at(c, 8, &minor) ||
	    !tfk_cur_u32_at(c, 12, &elen)) {
		bad_header(ctx, 0, c->len, "a 16-byte index header", c->len);
	} else if (magic != CTF_IDX_MAGIC) {
		bad_header(ctx, 0, 4, "magic 0xc1f1dcc1", magic);
	} else if (major != 1 || minor > 1) {
		bad_header(ctx, 4, 8, "index version 1.0 or 1.1", (uint64_t)major << 32 | minor);
	} else if (elen < 56) {
		bad_header(ctx, 12, 4, "an entry length of at least 56 bytes", elen);
	} else {
		uint64_t body = c->len - IDX_HEADER;
		ix->elen = elen;
		ix->n = body / elen;
		ix->v11 = minor >= 1 && elen >= 72;
		if (body % elen)
			bad_header(ctx, IDX_HEADER + ix->n * elen, body % elen, "whole entries", body % elen);
		ix->sum = 0;
		for (uint64_t i = 0; i < ix->n; i++) {
			uint64_t size = 0;
			tfk_cur_u64_at(c, IDX_HEADER + i * elen + 8, &size);
			ix->sum = size / 8 <= UINT64_MAX - ix->sum ? ix->sum + size / 8 : UINT64_MAX;
		}
		ix->usable = true;
	}
	tfk_ctx_return(ctx, was);
	return ix->usable;
}

void ctf_index_packet(struct tfk_ctx *ctx, struct ctf_index *ix, uint64_t i, const struct ctf_packet_info *p)
{
	if (!ix || !ix->usable || i >= ix->n)
		return;
	uint64_t at = IDX_HEADER + i * ix->elen;
	uint64_t e[9] = { 0 };
	for (unsigned k = 0; k < (ix->v11 ? 9u : 7u); k++)
		tfk_cur_u64_at(&ix->c, at + 8 * k, &e[k]);
	const char *field = NULL;
	uint64_t want = 0, got = 0;
	unsigned k = 0;
	if (e[0] != p->offset)
		field = "offset", want = p->offset, got = e[0], k = 0;
	else if (e[1] != p->packet_size)
		field = "packet_size", want = p->packet_size, got = e[1], k = 1;
	else if (e[2] != p->content_size)
		field = "content_size", want = p->content_size, got = e[2], k = 2;
	else if (p->has_ts_begin && e[3] != p->ts_begin)
		field = "timestamp_begin", want = p->ts_begin, got = e[3], k = 3;
	else if (p->has_ts_end && e[4] != p->ts_end)
		field = "timestamp_end", want = p->ts_end, got = e[4], k = 4;
	else if (p->has_discarded && e[5] != p->discarded)
		field = "events_discarded", want = p->discarded, got = e[5], k = 5;
	else if (e[6] != p->stream_id)
		field = "stream_id", want = p->stream_id, got = e[6], k = 6;
	else if (ix->v11 && p->has_instance && e[7] != p->instance_id)
		field = "stream_instance_id", want = p->instance_id, got = e[7], k = 7;
	else if (ix->v11 && p->has_seq && e[8] != p->seq)
		field = "packet_seq_num", want = p->seq, got = e[8], k = 8;
	if (!field)
		return;
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, ix->member, ix->map);
	if (ix->reports++ >= IDX_MAX_REPORTS) {
		tfk_count_only(ctx, TFK_CTF_INDEX_MISMATCH);
	} else {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_INDEX_MISMATCH, at + 8 * k, 8);
		tfk_set_path(f, "index entry %llu %s", (unsigned long long)i, field);
		tfk_set_expected(f, "%llu (packet %llu)", (unsigned long long)want, (unsigned long long)i);
		tfk_set_found(f, "%llu", (unsigned long long)got);
	}
	tfk_ctx_return(ctx, was);
}

void ctf_index_finish(struct tfk_ctx *ctx, struct ctf_index *ix, const struct ctf_stream_result *res,
		      uint64_t stream_size)
{
	if (!ix->usable || !res->walked_whole)
		return;
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, ix->member, ix->map);
	uint64_t body = ix->c.len - IDX_HEADER;
	if (ix->n != res->npackets) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_INDEX_MISMATCH, IDX_HEADER, body);
		tfk_set_path(f, "index entries");
		tfk_set_expected(f, "one entry per packet: %llu", (unsigned long long)res->npackets);
		tfk_set_found(f, "%llu entries", (unsigned long long)ix->n);
	} else if (ix->n && ix->sum != stream_size) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_INDEX_MISMATCH, IDX_HEADER, body);
		tfk_set_path(f, "index entries");
		tfk_set_expected(f, "packet sizes adding up to the stream's %llu bytes", (unsigned long long)stream_size);
		tfk_set_found(f, "%llu bytes", (unsigned long long)ix->sum);
	}
	tfk_ctx_return(ctx, was);
}
