/* SPDX-License-Identifier: MIT */
/*
 * perf.data records: the data section, pipe streams and decoded COMPRESSED blocks. Every
 * record header is checked (size, alignment, bounds, type), every sample walked against its
 * attr's sample_type, out-of-band payloads skipped inside the stream, and FINISHED_ROUND
 * ordering followed. After a size that cannot be trusted, a bounded scan looks for the next
 * plausible record and the walk goes on from there (the bytes skipped are reported).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/ftrace/ftrace_bundle.h"
#include "perfrec_state.h"

#define MAX_DEPTH 1 /* COMPRESSED inside COMPRESSED is not a thing perf writes */

/* Minimum size of each known record type, header included: its fixed fields. */
static uint16_t min_size(uint32_t type)
{
	static const uint8_t kernel[PF_REC_KERNEL_MAX + 1] = {
		[1] = 40, [2] = 24, [3] = 16, [4] = 32, [5] = 32, [6] = 32, [7] = 32, [8] = 16, [9] = 8, [10] = 72,
		[11] = 32, [12] = 16, [13] = 16, [14] = 8, [15] = 16, [16] = 24, [17] = 24, [18] = 24, [19] = 16,
		[20] = 20, [21] = 16, [22] = 24,
	};
	static const uint16_t user[PF_REC_USER_MAX - 63] = {
		[64 - 64] = 72, [65 - 64] = 8, [66 - 64] = 12, [67 - 64] = 36, [68 - 64] = 8, [69 - 64] = 16,
		[70 - 64] = 16, [71 - 64] = 48, [72 - 64] = 48, [73 - 64] = 16, [74 - 64] = 10, [75 - 64] = 16,
		[76 - 64] = 16, [77 - 64] = 16, [78 - 64] = 24, [79 - 64] = 32, [80 - 64] = 16, [81 - 64] = 8,
		[82 - 64] = 8, [83 - 64] = 16,
		/* BPF_METADATA: prog_name[256], nr_entries; SCHEDSTAT_*: timestamp, cpu, version, pad or domain */
		[84 - 64] = 8 + 256 + 8, [85 - 64] = 24, [86 - 64] = 24,
	};
	if (type >= 1 && type <= PF_REC_KERNEL_MAX)
		return kernel[type];
	if (type >= 64 && type <= PF_REC_USER_MAX)
		return user[type - 64];
	return 0; /* unknown */
}

/* Bytes of the sample_id trailer an attr appends to non-sample records. */
static uint32_t trailer_size(const struct pf_attr *a)
{
	if (!a || !(a->flags & PF_FLAG_SAMPLE_ID_ALL))
		return 0;
	uint64_t t = a->sample_type & (PF_S_TID | PF_S_TIME | PF_S_ID | PF_S_STREAM_ID | PF_S_CPU | PF_S_IDENTIFIER);
	return 8u * (uint32_t)__builtin_popcountll(t);
}

/* Which attr a record belongs to: the only one, or one all share, or by its id. */
static const struct pf_attr *record_attr(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t size,
					 bool sample, bool *unknown, uint64_t *id_out)
{
	*unknown = false;
	if (pc->nattrs == 0)
		return NULL;
	/* As perf: one attr needs no id; with several, the id in the record (if it has one) decides. */
	const struct pf_attr *a0 = &pc->attrs[0];
	if (pc->nattrs == 1 || pc->nids == 0 || (!sample && !(a0->flags & PF_FLAG_SAMPLE_ID_ALL)))
		return a0;
	uint64_t st = a0->sample_type, id;
	uint64_t at;
	if (st & PF_S_IDENTIFIER) {
		at = sample ? 8 : (uint64_t)size - 8;
	} else if (st & PF_S_ID) {
		if (sample) {
			at = 8 + 8ull * (uint64_t)__builtin_popcountll(st & (PF_S_IP | PF_S_TID | PF_S_TIME | PF_S_ADDR));
		} else {
			uint32_t tr = trailer_size(a0);
			uint64_t before = (uint64_t)__builtin_popcountll(st & (PF_S_TID | PF_S_TIME));
			if (tr > size - 8u)
				return NULL;
			at = (uint64_t)size - tr + 8 * before;
		}
	} else {
		return a0; /* no id to tell them apart: perf uses the first */
	}
	if (!tfk_cur_u64_at(rec, at, &id))
		return NULL;
	*id_out = id;
	if (id == 0)
		return a0; /* records perf synthesises itself carry id 0, meaning the first attr */
	const struct pf_attr *a = pf_attr_by_id(pc, id);
	*unknown = a == NULL;
	return a;
}

/* One sample timestamp or trailer time, for the FINISHED_ROUND ordering rule. */
static void saw_time(struct pf_check *pc, uint64_t t, uint64_t at)
{
	if (t < pc->flushed_to) {
		if (!pc->late_records++) {
			pc->first_late_at = at;
			pc->first_late_time = t;
			pc->first_late_limit = pc->flushed_to;
		}
	}
	if (t > pc->round_max)
		pc->round_max = t;
}

static void round_ends(struct pf_check *pc)
{
	/* After round n+1 ends, perf has flushed everything up to the last time of round n. */
	if (pc->prev_round_max > pc->flushed_to)
		pc->flushed_to = pc->prev_round_max;
	pc->prev_round_max = pc->round_max;
}

struct walk {
	struct pf_check *pc;
	const struct tfk_cursor *rec;
	uint64_t pos, end;
	bool overrun;
};

static bool take(struct walk *w, uint64_t n)
{
	if (w->overrun || !tfk_range_fits(w->pos, n, w->end)) {
		w->overrun = true;
		return false;
	}
	w->pos += n;
	return true;
}

static uint64_t take_u64(struct walk *w)
{
	uint64_t v = 0;
	if (!w->overrun && tfk_cur_u64_at(w->rec, w->pos, &v) && take(w, 8))
		return v;
	w->overrun = true;
	return 0;
}

/* A counted array of u64-sized elements: the count must fit before it is multiplied. */
static void take_array(struct walk *w, uint64_t nr, uint64_t elem)
{
	if (w->overrun || nr > (w->end - w->pos) / elem)
		w->overrun = true;
	else
		w->pos += nr * elem;
}

static void read_values(struct walk *w, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PF_R_ID) + !!(rf & PF_R_LOST);
	if (rf & PF_R_GROUP) {
		uint64_t nr = take_u64(w);
		take(w, 8ull * (!!(rf & PF_R_TIME_ENABLED) + !!(rf & PF_R_TIME_RUNNING)));
		take_array(w, nr, 8 * per);
	} else {
		take(w, 8 * (per + !!(rf & PF_R_TIME_ENABLED) + !!(rf & PF_R_TIME_RUNNING)));
	}
}

/* Walk a sample's fields in sample_type order; returns false if they leave the record. */
static bool walk_sample(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t size, const struct pf_attr *a,
			uint64_t *time, bool *have_time, uint32_t *cpu, bool *have_cpu)
{
	struct walk w = { pc, rec, 8, size, false };
	uint64_t st = a->sample_type;
	*have_time = *have_cpu = false;
	if (st & PF_S_IDENTIFIER) take(&w, 8);
	if (st & PF_S_IP) take(&w, 8);
	if (st & PF_S_TID) take(&w, 8);
	if (st & PF_S_TIME) {
		*time = take_u64(&w);
		*have_time = !w.overrun;
	}
	if (st & PF_S_ADDR) take(&w, 8);
	if (st & PF_S_ID) take(&w, 8);
	if (st & PF_S_STREAM_ID) take(&w, 8);
	if (st & PF_S_CPU) {
		/* u32 cpu, u32 res: the low half in the writer's byte order */
		uint64_t v = take_u64(&w);
		*cpu = pc->file.big_endian ? (uint32_t)(v >> 32) : (uint32_t)v;
		*have_cpu = !w.overrun;
	}
	if (st & PF_S_PERIOD) take(&w, 8);
	if (st & PF_S_READ) read_values(&w, a->read_format);
	if (st & PF_S_CALLCHAIN) take_array(&w, take_u64(&w), 8);
	if (st & PF_S_RAW) {
		uint32_t raw = 0;
		if (!w.overrun && tfk_cur_u32_at(rec, w.pos, &raw))
			take(&w, 4ull + raw);
		else
			w.overrun = true;
	}
	if (st & PF_S_BRANCH_STACK) {
		uint64_t nr = take_u64(&w);
		if (a->branch_sample_type & PF_BRANCH_HW_INDEX)
			take(&w, 8);
		take_array(&w, nr, 24);
	}
	if (st & PF_S_REGS_USER && take_u64(&w) != 0)
		take_array(&w, (uint64_t)__builtin_popcountll(a->regs_user), 8);
	if (st & PF_S_STACK_USER) {
		uint64_t n = take_u64(&w);
		take_array(&w, n, 1);
		if (n)
			take(&w, 8);
	}
	if (st & (PF_S_WEIGHT | PF_S_WEIGHT_STRUCT)) take(&w, 8);
	if (st & PF_S_DATA_SRC) take(&w, 8);
	if (st & PF_S_TRANSACTION) take(&w, 8);
	if (st & PF_S_REGS_INTR && take_u64(&w) != 0)
		take_array(&w, (uint64_t)__builtin_popcountll(a->regs_intr), 8);
	if (st & PF_S_PHYS_ADDR) take(&w, 8);
	if (st & PF_S_CGROUP) take(&w, 8);
	if (st & PF_S_DATA_PAGE_SIZE) take(&w, 8);
	if (st & PF_S_CODE_PAGE_SIZE) take(&w, 8);
	if (st & PF_S_AUX) take_array(&w, take_u64(&w), 1);
	return !w.overrun;
}

/*
 * Where an MMAP2 record's file name starts: after prot and flags (+72) since Linux 3.16; at
 * +64 in the layout before them (kernel 3.12-3.15, and RHEL 7's 3.10). The two are told apart
 * by the bytes at +64: prot's low byte (or a big-endian u32's high one) is never printable, a
 * file name's first character always is.
 */
static uint64_t mmap2_name_at(const struct tfk_cursor *rec)
{
	uint8_t c = 0;
	tfk_cur_u8_at(rec, 64, &c);
	return c >= 0x20 && c < 0x7f ? 64 : 72;
}

/* Decode src[*used..n) behind what zbuf holds (*got bytes), growing zbuf up to limit. */
static enum tfk_zs_status zdecode(struct pf_check *pc, const uint8_t *src, size_t n, size_t *used, size_t *got,
				  size_t limit, bool *too_long)
{
	enum tfk_zs_status st;
	for (;;) {
		st = tfk_zstream_decode(pc->zs, src, n, used, pc->zbuf, pc->zcap, got);
		if (st != TFK_ZS_NEED_ROOM)
			return st;
		if (pc->zcap >= limit) {
			*too_long = tfk_zstream_more(pc->zs, src, n, used);
			return TFK_ZS_OK;
		}
		/* The buffer follows what the data decodes to, up to the cap, never what a header claims. */
		size_t want = pc->zcap < 65536 ? 65536 : pc->zcap * 2;
		void *buf = pc->zbuf;
		if (!tfk_grow(pc->ctx, &buf, &pc->zcap, want < limit ? want : limit, 1))
			return TFK_ZS_CORRUPT;
		pc->zbuf = buf;
	}
}

#define ZSTD_MAGIC_BYTES "\x28\xb5\x2f\xfd"
#define FHD_RESERVED 0x08 /* the frame header descriptor's reserved bit, which must be 0 */

/*
 * The first payload of a stream does not decode. When the cause is a constant of its frame
 * header (the magic, the descriptor's reserved bit) and the payload decodes whole once that
 * constant is restored, everything after it proves the constant: the stream is decoded that
 * way, the fault reported, and repair writes the constant back. False: not that.
 */
static bool restore_frame_header(struct pf_check *pc, const uint8_t *src, size_t n, uint64_t payload_at,
				 uint64_t record_at, size_t limit, size_t *used, size_t *got, bool *too_long)
{
	if (n < 6)
		return false;
	uint8_t head[5];
	memcpy(head, ZSTD_MAGIC_BYTES, 4);
	head[4] = src[4] & (uint8_t)~FHD_RESERVED;
	if (memcmp(head, src, 5) == 0)
		return false; /* the header's constants are right: the damage is elsewhere */
	size_t u = 0, g = 0;
	bool long_ = false;
	tfk_zstream_reset(pc->zs);
	enum tfk_zs_status st = zdecode(pc, head, 5, &u, &g, limit, &long_);
	u = 5;
	if (st == TFK_ZS_OK && !long_)
		st = zdecode(pc, src, n, &u, &g, limit, &long_);
	if (st != TFK_ZS_OK || long_ || u != n || g == 0) {
		tfk_zstream_reset(pc->zs);
		return false;
	}
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_COMPRESSED_FRAME_HEADER, payload_at, 5);
	tfk_set_path(f, "compressed record at 0x%llx, zstd frame header", (unsigned long long)record_at);
	tfk_set_expected(f, "magic 28 b5 2f fd, reserved bit 3 of the descriptor clear");
	tfk_set_found(f, "%02x %02x %02x %02x, descriptor 0x%02x; restored, the payload decodes whole (%zu bytes)", src[0],
		      src[1], src[2], src[3], src[4], g);
	pc->fixable++;
	for (unsigned k = 0; k < 5; k++)
		if (head[k] != src[k] && pc->lay.npatches < TFK_PERF_MAX_FIXES) {
			pc->lay.patches[pc->lay.npatches].offset = payload_at + k;
			pc->lay.patches[pc->lay.npatches].width = 1;
			pc->lay.patches[pc->lay.npatches++].value = head[k];
		}
	*used = u;
	*got = g;
	*too_long = false;
	return true;
}

/*
 * One COMPRESSED payload, decoded as the next part of the recording's zstd stream (spec 7),
 * behind the bytes of a record the previous payload ended inside; the records it completes
 * are walked. False when the stream is damaged here (or was before): nothing after this point
 * of the stream can be decoded.
 */
static bool walk_compressed(struct pf_check *pc, const struct tfk_cursor *payload, uint64_t record_at, int depth)
{
	struct tfk_finding *f;
	if (depth >= MAX_DEPTH) {
		f = tfk_emit(pc->ctx, TFK_PERF_RECORD_UNKNOWN_TYPE, record_at, 8);
		tfk_set_path(f, "decoded block");
		tfk_set_expected(f, "no COMPRESSED record inside a decoded block");
		tfk_set_found(f, "one (skipped)");
		return true;
	}
	pc->lay.compressed = true;
	const uint8_t *src;
	if (!tfk_cur_bytes_at(payload, 0, payload->len, &src))
		return false;
	if (pc->zbroken) {
		if (!tfk_zstream_is_frame_start(src, payload->len)) {
			if (!pc->zlost_records++)
				pc->zlost_first = record_at;
			pc->lay.undecodable_bytes += payload->len;
			return false;
		}
		tfk_zstream_reset(pc->zs); /* a new frame: the stream starts over here */
		pc->zbroken = false;
		pc->znew = true;
		pc->carry = 0;
	}
	/* Each payload is capped below; the stream as a whole is capped too (many tiny payloads). */
	const uint64_t total_cap = pc->ctx->limits->max_decoded * 16;
	if (pc->zdecoded >= total_cap) {
		if (!pc->zcapped)
			tfk_limit_hit(pc->ctx, record_at, "bytes decoded from COMPRESSED records", pc->zdecoded, total_cap);
		pc->zcapped = true;
		return false;
	}
	if (!pc->zs && !(pc->zs = tfk_zstream_new())) {
		tfk_mark_incomplete(pc->ctx);
		return false;
	}
	/* perf decodes a payload into mmap_len bytes behind the carried ones; without the feature, a cap. */
	uint64_t cap = pc->have_comp && pc->comp_mmap_len ? pc->comp_mmap_len + 4096 : 4u << 20;
	if (cap > pc->ctx->limits->max_decoded)
		cap = pc->ctx->limits->max_decoded;
	const size_t limit = pc->carry + (size_t)cap;
	size_t used = 0, got = pc->carry;
	bool too_long = false;
	const bool first = pc->znew && !pc->carry;
	enum tfk_zs_status st = zdecode(pc, src, payload->len, &used, &got, limit, &too_long);
	if (st == TFK_ZS_CORRUPT && first &&
	    restore_frame_header(pc, src, payload->len, payload->origin, record_at, limit, &used, &got, &too_long))
		st = TFK_ZS_OK;
	pc->znew = false;
	const size_t decoded = got - pc->carry;
	if (st == TFK_ZS_CORRUPT || too_long) {
		f = tfk_emit(pc->ctx, TFK_PERF_COMPRESSED_CORRUPT, record_at, payload->len + (payload->origin - record_at));
		tfk_set_path(f, "compressed record");
		tfk_set_expected(f, "the zstd stream continued, decoding to at most %llu bytes", (unsigned long long)cap);
		tfk_set_found(f, "%s after %zu bytes", too_long ? "more data" : "a decoding error", decoded);
		pc->zbroken = true;
	}
	if (decoded > pc->lay.decoded_max)
		pc->lay.decoded_max = decoded;
	pc->zdecoded += decoded;
	/* The records it completes are walked whatever came after them; a record it ends inside waits. */
	struct tfk_cursor records = tfk_decoded_cursor(pc->ctx, 2, record_at, pc->zbuf, got, pc->file.big_endian);
	pc->partial_tail = false;
	pc->zstart_carry = pc->carry;
	pc->dgood = pc->dgood_samples = pc->dgood_records = 0;
	pc->derr = false;
	pf_walk_records(pc, &records, depth + 1);
	pc->carry = 0;
	if (pc->partial_tail && !pc->zbroken && pc->tail_at < got) {
		pc->carry = got - (size_t)pc->tail_at;
		memmove(pc->zbuf, pc->zbuf + pc->tail_at, pc->carry);
		pc->carry_at = record_at;
	}
	return !pc->zbroken;
}

/*
 * Is another COMPRESSED record ahead in the stream (looked for over a bounded number of
 * records)? When the records cannot be followed, or there are too many to look at, the
 * stream is taken to go on: only a stream seen to end is called cut.
 */
static bool compressed_ahead(const struct tfk_cursor *stream, uint64_t pos, uint64_t len)
{
	for (unsigned k = 0; k < 256 && pos < len; k++) {
		uint32_t type;
		uint16_t size;
		if (!tfk_cur_u32_at(stream, pos, &type) || !tfk_cur_u16_at(stream, pos + 6, &size) || size < 8)
			return true;
		if (type == PF_REC_COMPRESSED || type == PF_REC_COMPRESSED2)
			return true;
		pos += size;
	}
	return pos < len;
}

/*
 * After the stream's last payload: perf flushes the stream at the end of every write, so the
 * decoder must stand at a block's end. A payload cut short (its last block's bytes gone, or a
 * data size that stops early) leaves it inside a block; the records of that block are lost.
 */
static bool frame_cut(struct pf_check *pc, const struct tfk_cursor *stream, uint64_t next, uint64_t record_at)
{
	if (!pc->zs || pc->zbroken || tfk_zstream_at_boundary(pc->zs) || compressed_ahead(stream, next, stream->len))
		return false;
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_COMPRESSED_CORRUPT, record_at, next - (record_at - stream->origin));
	tfk_set_path(f, "compressed record, the last of its zstd stream");
	tfk_set_expected(f, "the stream flushed to a block's end, as perf writes it");
	tfk_set_found(f, "it ends inside a block: the rest of the block is missing (its records lost)");
	return true;
}

/* The end of a record stream: a record the zstd stream ended inside, payloads it could not decode. */
static void finish_zstream(struct pf_check *pc)
{
	struct tfk_finding *f;
	if (pc->carry) {
		f = tfk_emit(pc->ctx, TFK_PERF_RECORD_OVERRUN, pc->carry_at, 0);
		tfk_set_path(f, "compressed stream");
		tfk_set_expected(f, "the rest of the record begun in this COMPRESSED record's payload");
		tfk_set_found(f, "%zu bytes of it, then the stream ends", pc->carry);
	}
	if (pc->zlost_records) {
		f = tfk_emit(pc->ctx, TFK_PERF_COMPRESSED_CORRUPT, pc->zlost_first, 0);
		tfk_set_path(f, "compressed record");
		tfk_set_expected(f, "a zstd stream that goes on from the payload before");
		tfk_set_found(f, "%llu COMPRESSED record%s after the damage that cannot be decoded (perf record -z writes one stream)",
			      (unsigned long long)pc->zlost_records, pc->zlost_records == 1 ? "" : "s");
	}
	pc->carry = 0;
	pc->zbroken = false;
	pc->znew = true;
	pc->zlost_records = 0;
	tfk_zstream_reset(pc->zs);
}

/* ID_INDEX: u64 nr, nr x {id, idx, cpu, tid}; perf refuses the file when an id is unknown. */
static void check_id_index(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type)
{
	uint64_t nr = 0;
	char found[96];
	tfk_cur_u64_at(rec, 8, &nr);
	if (nr > (rec->len - 16) / 32) {
		snprintf(found, sizeof(found), "%llu entries in %llu bytes", (unsigned long long)nr,
			 (unsigned long long)(rec->len - 16));
		pf_bad_body(pc, rec->origin, type, "entries of 32 bytes that fit the record", found);
		return;
	}
	for (uint64_t i = 0; i < nr && pc->nids; i++) {
		uint64_t id = 0;
		tfk_cur_u64_at(rec, 16 + 32 * i, &id);
		if (!pf_attr_by_id(pc, id)) {
			snprintf(found, sizeof(found), "entry %llu: id %llu", (unsigned long long)i, (unsigned long long)id);
			pf_bad_body(pc, rec->origin + 16 + 32 * i, type, "ids that the attrs list", found);
			return;
		}
	}
}

/* Out-of-band payloads follow some records: how many bytes, or UINT64_MAX when unreadable. */
static uint64_t oob_payload(const struct tfk_cursor *rec, uint32_t type)
{
	if (type == PF_REC_TRACING_DATA) {
		uint32_t n;
		return tfk_cur_u32_at(rec, 8, &n) ? ((uint64_t)n + 7) / 8 * 8 : UINT64_MAX;
	}
	if (type == PF_REC_AUXTRACE) {
		uint64_t n;
		return tfk_cur_u64_at(rec, 8, &n) ? n : UINT64_MAX;
	}
	return 0;
}

#define RESYNC_WINDOW (4u << 20) /* bytes scanned for the next record after one whose size is impossible */

/* Could a record start at q: a known type, a size its type allows, inside the stream? Where it ends. */
static bool plausible_record(const struct tfk_cursor *stream, uint64_t q, uint64_t len, uint64_t *end)
{
	uint32_t type;
	uint16_t misc, size;
	if (!tfk_cur_u32_at(stream, q, &type) || !tfk_cur_u16_at(stream, q + 4, &misc) ||
	    !tfk_cur_u16_at(stream, q + 6, &size))
		return false;
	uint16_t min = min_size(type);
	/* misc holds the cpumode (bits 0-2) and flags in bits 12-15; bits 3-11 are never set. */
	if (!min || (misc & 0x0ff8) || size < 8 || size < min || (type < 64 && size % 8) || size > len - q)
		return false;
	if (type == PF_REC_HEADER_ATTR) {
		/* its attr and then whole ids: sampled branch addresses often pass the header test alone */
		uint32_t attr_size;
		if (size < 8u + PF_ATTR_MIN || !tfk_cur_u32_at(stream, q + 12, &attr_size) || attr_size < PF_ATTR_MIN ||
		    attr_size % 8 || attr_size > size - 8u || (size - 8u - attr_size) % 8)
			return false;
	}
	struct tfk_cursor rec;
	tfk_cur_sub(stream, q, size, &rec);
	uint64_t extra = oob_payload(&rec, type);
	if (extra == UINT64_MAX || extra > len - q - size)
		return false;
	*end = q + size + extra;
	return true;
}

/*
 * After a record whose size cannot lead to the next one: the next offset (within a bounded
 * window) where a plausible record begins that ends at the end of the stream or is followed by
 * another plausible record, or where a killed recording's feature table begins.
 */
static bool resync(struct pf_check *pc, const struct tfk_cursor *stream, uint64_t pos, uint64_t len, uint64_t *to)
{
	uint64_t stop = len - pos > RESYNC_WINDOW ? pos + RESYNC_WINDOW : len;
	for (uint64_t q = pos + 1; q + 8 <= stop; q++) {
		uint64_t end, end2;
		if ((pc->killed && pf_feature_table_at(pc, stream->origin + q)) ||
		    (plausible_record(stream, q, len, &end) && (end == len || plausible_record(stream, end, len, &end2)))) {
			*to = q;
			return true;
		}
	}
	return false;
}

/* The bytes [pos, to) of the top-level stream are left behind: repair leaves them out. */
static void skip_range(struct pf_check *pc, const struct tfk_cursor *stream, uint64_t pos, uint64_t to, bool pending)
{
	pc->lay.resyncs++;
	pc->lay.skipped_bytes += to - pos;
	pc->records++; /* the record whose size was impossible */
	pc->carry = 0;       /* a record the zstd stream was inside is lost with them */
	pc->zbroken = true;  /* and a later payload decodes only if it starts a frame of its own */
	pc->zskipped = pc->zfed;
	if (pc->frozen)
		return;
	if (pending || pc->lay.ndrops >= TFK_PERF_MAX_DROPS) {
		pc->frozen = true;
		return;
	}
	pc->lay.drops[pc->lay.ndrops].offset = stream->origin + pos;
	pc->lay.drops[pc->lay.ndrops++].size = to - pos;
	pc->lay.good_end = stream->origin + to;
	pc->lay.records_left_out++; /* what it held, and what the skipped bytes held, is unknown */
}

/*
 * perf 6.16's COMPRESSED2 writer (record__pushfn, commit 208c0e168344; KDAB/hotspot#736): one
 * buffer flush compresses into one or more COMPRESSED2 records (each at most the record size
 * zstd_compress_stream_to_records allows), after which the first record's header is rewritten
 * for the whole blob: data_size = blob - 16 and the 16-bit header.size = PERF_ALIGN(blob, 8),
 * wrapped modulo 65536 for a blob over 64 KiB (0 for one of exactly 64 KiB). The records after
 * the first keep their own header.size (unaligned) but not their data_size (never set), and the
 * padding write after the blob fails, so the padding is usually missing. The blob is proven
 * when the wrapped size matches, its end is the end of the stream or a plausible record, and
 * the records inside it chain to its end exactly. The blob's extent, its pieces in pc->c2_*.
 */
static bool c2_overflow(struct pf_check *pc, const struct tfk_cursor *stream, uint64_t pos, uint64_t len,
			uint16_t size16, uint64_t *extent)
{
	uint64_t data_size, e = 0, end;
	if (!tfk_cur_u64_at(stream, pos + 8, &data_size) || data_size > len - pos - 16 || data_size > UINT32_MAX - 8)
		return false;
	const uint64_t blob = 16 + data_size, padded = (blob + 7) / 8 * 8;
	if (padded <= 0xffff || (padded & 0xffff) != size16)
		return false;
	bool ends = false;
	for (int k = 0; k < 2 && !ends; k++) {
		e = k == 0 ? padded : blob;
		ends = e <= len - pos && (e == len - pos || plausible_record(stream, pos + e, len, &end) ||
					  (pc->killed && pf_feature_table_at(pc, stream->origin + pos + e)));
	}
	if (!ends)
		return false;
	/* The records inside: the first place after the first payload where a chain of them ends at the blob's end. */
	pc->c2_n = 0;
	/* Bounded work: perf's records are at most a buffer's size; a hostile blob costs no more than this. */
	uint64_t budget = 1u << 22;
	const uint64_t scan_end = blob < (16u << 20) ? blob : 16u << 20;
	for (uint64_t q = 17; q + 16 <= scan_end && budget; q++, budget--) {
		uint32_t type;
		if (!tfk_cur_u32_at(stream, pos + q, &type) || type != PF_REC_COMPRESSED2)
			continue;
		unsigned n = 1;
		uint64_t r = q;
		while (r + 16 <= blob && n < PF_C2_MAX_PIECES && budget) {
			budget--;
			uint16_t misc = 0, sz = 0;
			if (!tfk_cur_u32_at(stream, pos + r, &type) || !tfk_cur_u16_at(stream, pos + r + 4, &misc) ||
			    !tfk_cur_u16_at(stream, pos + r + 6, &sz) || type != PF_REC_COMPRESSED2 || (misc & 0x0ff8) || sz <= 16 ||
			    sz > blob - r)
				break;
			pc->c2_off[n] = r + 16;
			pc->c2_len[n++] = sz - 16u;
			r += sz;
		}
		if (r == blob) {
			pc->c2_n = n;
			break;
		}
	}
	if (pc->c2_n == 0) /* one record: its data_size is its own */
		pc->c2_n = 1;
	pc->c2_off[0] = 16;
	pc->c2_len[0] = pc->c2_n > 1 ? pc->c2_off[1] - 32 : data_size;
	*extent = e;
	return true;
}

/* The writer quirk reported; at the top level, repair rewrites the blob as records whose sizes fit. */
static void c2_quirk(struct pf_check *pc, const struct tfk_cursor *stream, uint64_t pos, uint16_t size16, uint64_t extent,
		     bool track)
{
	uint64_t data_size = 0;
	tfk_cur_u64_at(stream, pos + 8, &data_size);
	const uint64_t at = stream->origin + pos;
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_WRITER_COMPRESSED2_SIZE, at + 6, 2);
	tfk_set_path(f, "COMPRESSED2 record at +0x%llx", (unsigned long long)pos);
	tfk_set_expected(f, "header.size %llu (16 + data_size %llu, padded to 8)", (unsigned long long)((16 + data_size + 7) / 8 * 8),
			 (unsigned long long)data_size);
	tfk_set_found(f, "%u, the size modulo 65536 (perf 6.16's u16 overflow; writer perf %s); a blob of %u record%s, %llu bytes%s",
		      size16, pc->writer_version[0] ? pc->writer_version : "of unknown version", pc->c2_n, pc->c2_n == 1 ? "" : "s",
		      (unsigned long long)extent, extent % 8 ? ", its padding missing" : "");
	if (!track || pc->frozen)
		return;
	if (pc->lay.nc2fix >= TFK_PERF_MAX_FIXES || pc->c2_n > TFK_PERF_MAX_PIECES - pc->lay.nc2piece) {
		pc->frozen = true; /* no room to say how to rewrite it: the data kept ends before it */
		return;
	}
	pc->lay.c2fix[pc->lay.nc2fix].offset = at;
	pc->lay.c2fix[pc->lay.nc2fix].extent = extent;
	pc->lay.c2fix[pc->lay.nc2fix].first = pc->lay.nc2piece;
	pc->lay.c2fix[pc->lay.nc2fix++].count = pc->c2_n;
	for (unsigned k = 0; k < pc->c2_n; k++) {
		pc->lay.c2piece[pc->lay.nc2piece].offset = at + pc->c2_off[k];
		pc->lay.c2piece[pc->lay.nc2piece++].len = pc->c2_len[k];
	}
}

/* The words of a finding's found text that say where the walk went on. */
static void say_resync(char *buf, size_t n, bool found, uint64_t pos, uint64_t to)
{
	if (found)
		snprintf(buf, n, "; %llu bytes skipped to the next plausible record, at +0x%llx", (unsigned long long)(to - pos),
			 (unsigned long long)to);
	else
		buf[0] = 0;
}

/* Walked records are handed back in steps of this many bytes. */
#define PF_RELEASE_STEP (4u << 20)

/*
 * A COMPRESSED record the end of the data cuts (a killed `perf record -z`): the zstd stream
 * decodes what of its payload the file holds, and the whole records before the cut are kept,
 * as those of a damaged one are (repair writes them out decoded). Only where every record
 * before it was kept and the stream stood between records; the record's tail stays lost.
 */
static void cut_compressed(struct pf_check *pc, const struct tfk_cursor *stream, uint64_t pos, uint64_t len,
			   uint32_t type, uint64_t at, bool pending)
{
	if (type != PF_REC_COMPRESSED || pending || pc->frozen || pc->zskipped || pc->lay.good_end != at ||
	    len - pos <= 8)
		return;
	struct tfk_cursor payload;
	tfk_cur_sub(stream, pos + 8, len - pos - 8, &payload);
	walk_compressed(pc, &payload, at, 0);
	pc->carry = 0; /* the record the cut ends inside is lost with the rest of the payload */
	if (pc->zstart_carry || !pc->dgood)
		return;
	pc->lay.zsalvage_at = at;
	pc->lay.zsalvage_len = pc->dgood;
	pc->lay.samples_kept += pc->dgood_samples;
	pc->lay.records_kept += pc->dgood_records;
}

void pf_walk_records(struct pf_check *pc, const struct tfk_cursor *stream, int depth)
{
	uint64_t pos = 0, len = stream->len;
	struct tfk_finding *f;
	/* At the top level, good_end follows the records that are whole and valid, up to the first that is not. */
	bool track = depth == 0;
	/* Kept records are committed only where the zstd stream is between records (no carry). */
	bool pending = false, table_found = false;
	uint64_t pending_samples = 0, pending_records = 0;
	if (track) {
		pc->lay.good_end = stream->origin;
		pc->lay.samples_kept = pc->lay.records_kept = 0;
		pc->lay.zsalvage_at = pc->lay.zsalvage_len = 0;
		pc->lay.samples_left_out = pc->lay.records_left_out = 0;
		pc->lay.ndrops = 0;
		pc->frozen = false;
		pc->carry = 0;
		pc->zbroken = false;
		pc->zfed = pc->zskipped = false;
		pc->zlost_records = 0;
		pc->znew = true;
		tfk_zstream_reset(pc->zs);
	}
	/* The top-level walk hands the mapped records behind it back to the kernel (tfk_release), as
	 * the other formats' walks do: resident memory stays flat whatever the file's size. A record
	 * read again later (repair's copy, a resync) faults back in from the page cache. */
	uint64_t released = 0;
	while (pos < len) {
		bool stream_ok = true;
		if (track && pos - released >= PF_RELEASE_STEP) {
			tfk_release(pc->ctx, stream->base + released, pos - released);
			released = pos;
		}
		/* A killed recording's records may end where the feature table perf wrote at exit begins. */
		if (track && pc->killed && !pc->carry && pf_feature_table_at(pc, stream->origin + pos)) {
			pc->killed_table = stream->origin + pos;
			table_found = true;
			break;
		}
		uint64_t errors_before = pf_errors(pc), samples_before = pc->samples, extra = 0, t = 0;
		const uint64_t records_before = pc->records;
		bool have_t = false, have_cpu = false;
		uint32_t cpu = 0;
		uint32_t type, size = 0;
		uint16_t misc, size16;
		uint64_t at = stream->origin + pos;
		if (!tfk_cur_u32_at(stream, pos, &type) || !tfk_cur_u16_at(stream, pos + 4, &misc) ||
		    !tfk_cur_u16_at(stream, pos + 6, &size16)) {
			if (depth) { /* decoded bytes: the record goes on in the next payload */
				pc->partial_tail = true;
				pc->tail_at = pos;
				return;
			}
			f = tfk_emit(pc->ctx, TFK_PERF_RECORD_OVERRUN, at, len - pos);
			tfk_set_path(f, "record at +0x%llx of the %s", (unsigned long long)pos, depth ? "decoded block" : "data");
			tfk_set_expected(f, "an 8-byte record header");
			tfk_set_found(f, "%llu bytes left", (unsigned long long)(len - pos));
			pc->frozen |= track;
			break;
		}
		size = size16;
		uint16_t min = min_size(type);
		/* The kernel aligns its records to 8 bytes; perf's own (64-127) need not be (a 20-byte CPU_MAP). */
		bool unaligned_ok = type >= 64 && type < 128;
		/* simpleperf's own records: a 32-bit size (misc holds its high half), any alignment. */
		const bool sp_record = pc->dialect == PF_DIALECT_SIMPLEPERF && type >= PF_SP_RECORD_START;
		if (sp_record) {
			size = (uint32_t)misc << 16 | size16;
			min = type == PF_SP_TRACING_DATA ? 12 : 8;
			unaligned_ok = true;
		}
		/* Google's perf 3.3 pipe: header features as records of type 66 + bit before the first attr. */
		if (pc->preamble && !depth && !(type > 66 + 2 && type < 66 + 32))
			pc->preamble = false;
		const bool g_feature = pc->preamble && !depth;
		if (g_feature)
			min = 12;
		uint64_t c2_extent;
		bool c2_blob = false;
		if (type == PF_REC_COMPRESSED2 && !depth && !sp_record && !g_feature &&
		    c2_overflow(pc, stream, pos, len, size16, &c2_extent)) {
			c2_quirk(pc, stream, pos, size16, c2_extent, track);
			size = (uint32_t)c2_extent;
			c2_blob = true;
		}
		uint64_t to = 0;
		char skipped[96];
		if (size < 8 || (min && size < min) || (size % 8 && !unaligned_ok)) {
			/* Where the next record starts is unknown: look for it (top level only). */
			bool lost = size < 8 || (size % 8 && !unaligned_ok);
			bool found = lost && track && resync(pc, stream, pos, len, &to);
			say_resync(skipped, sizeof(skipped), found, pos, to);
			f = tfk_emit(pc->ctx, TFK_PERF_RECORD_BAD_SIZE, at + 6, 2);
			tfk_set_path(f, "record type %u at +0x%llx", type, (unsigned long long)pos);
			tfk_set_expected(f, "a size of at least %u%s", min > 8 ? min : 8, unaligned_ok ? "" : ", a multiple of 8");
			tfk_set_found(f, "%u%s", size, skipped);
			if (found) {
				skip_range(pc, stream, pos, to, pending);
				pos = to;
				continue;
			}
			if (lost) {
				pc->frozen |= track;
				break;
			}
			pc->records++;
			goto next; /* too small for its type, but the next record is still found */
		}
		if (size > len - pos) {
			if (depth) {
				pc->partial_tail = true;
				pc->tail_at = pos;
				return;
			}
			bool found = track && resync(pc, stream, pos, len, &to);
			say_resync(skipped, sizeof(skipped), found, pos, to);
			f = tfk_emit(pc->ctx, TFK_PERF_RECORD_OVERRUN, at, len - pos);
			tfk_set_path(f, "record type %u at +0x%llx", type, (unsigned long long)pos);
			tfk_set_expected(f, "%u bytes inside the %s", size, depth ? "decoded block" : "data section");
			tfk_set_found(f, "%llu bytes left%s", (unsigned long long)(len - pos), skipped);
			if (found) {
				skip_range(pc, stream, pos, to, pending);
				pos = to;
				continue;
			}
			if (track)
				cut_compressed(pc, stream, pos, len, type, at, pending);
			pc->frozen |= track;
			break;
		}
		struct tfk_cursor rec;
		tfk_cur_sub(stream, pos, size, &rec);
		pc->records++;
		/* simpleperf keeps its tracing data inside the TRACING_DATA record, not after it. */
		uint32_t inside = 0;
		bool data_inside = pc->dialect == PF_DIALECT_SIMPLEPERF && type == PF_REC_TRACING_DATA &&
				   tfk_cur_u32_at(&rec, 8, &inside) && size >= 12 && inside <= size - 12u;
		extra = sp_record || g_feature || data_inside ? 0 : oob_payload(&rec, type);
		if (extra == UINT64_MAX || extra > len - pos - size) {
			bool found = track && resync(pc, stream, pos, len, &to);
			say_resync(skipped, sizeof(skipped), found, pos, to);
			char text[192];
			snprintf(text, sizeof(text), "%llu bytes, %llu left in the stream%s",
				 (unsigned long long)(extra == UINT64_MAX ? 0 : extra), (unsigned long long)(len - pos - size), skipped);
			pf_bad_body(pc, at, type, "an out-of-band payload inside the stream", text);
			if (found) {
				skip_range(pc, stream, pos, to, pending);
				pos = to;
				continue;
			}
			pc->frozen |= track;
			break;
		}
		if (g_feature) {
			/* {u32 length, string} or the feature's own payload, checked as that feature */
			struct tfk_cursor body;
			tfk_cur_sub(&rec, 8, size - 8u, &body);
			pf_check_feature(pc, type - 66, &body);
			pc->dialect_records++;
			goto next;
		}
		if (sp_record || data_inside) {
			pc->dialect_records++;
			uint32_t n = 0;
			tfk_cur_u32_at(&rec, 8, &n);
			if (type == PF_SP_TRACING_DATA || data_inside) {
				if (n > size - 12u) {
					char found[64];
					snprintf(found, sizeof(found), "%u bytes in a %u-byte record", n, size);
					pf_bad_body(pc, at, type, "tracing data inside the record", found);
				} else {
					struct tfk_cursor blob;
					tfk_cur_sub(&rec, 12, n, &blob);
					td_check_tracing_bundle(pc->ctx, &blob, "simpleperf TRACING_DATA record");
				}
			} else {
				pc->dialect_skipped++; /* kernel symbols, dsos, callchains, ...: simpleperf's own */
			}
			goto next;
		}
		if (!min && type >= 128) {
			f = tfk_emit(pc->ctx, TFK_PERF_RECORD_BAD_TYPE, at, 4);
			tfk_set_path(f, "record at +0x%llx", (unsigned long long)pos);
			tfk_set_expected(f, "a record type below 128 (kernel 1-63, perf 64-127)");
			tfk_set_found(f, "type %u (0x%x), %u bytes (skipped)", type, type, size);
			goto next;
		}
		if (!min) {
			f = tfk_emit(pc->ctx, TFK_PERF_RECORD_UNKNOWN_TYPE, at, size);
			tfk_set_path(f, "record at +0x%llx", (unsigned long long)pos);
			tfk_set_expected(f, "a kernel (1-%d) or perf (64-%d) record type", PF_REC_KERNEL_MAX, PF_REC_USER_MAX);
			tfk_set_found(f, "type %u, %u bytes (skipped)", type, size);
			goto next;
		}
		bool unknown_id = false;
		uint64_t id = 0;
		if (type == PF_REC_SAMPLE) {
			pc->samples++;
			const struct pf_attr *a = record_attr(pc, &rec, size, true, &unknown_id, &id);
			if (unknown_id) {
				f = tfk_emit(pc->ctx, TFK_PERF_SAMPLE_UNKNOWN_ID, at, size);
				tfk_set_path(f, "sample at +0x%llx", (unsigned long long)pos);
				tfk_set_expected(f, "an id listed in an attr's ids (%zu ids)", pc->nids);
				tfk_set_found(f, "id %llu", (unsigned long long)id);
			} else if (a && !walk_sample(pc, &rec, size, a, &t, &have_t, &cpu, &have_cpu)) {
				f = tfk_emit(pc->ctx, TFK_PERF_SAMPLE_OVERRUN, at, size);
				tfk_set_path(f, "sample at +0x%llx", (unsigned long long)pos);
				tfk_set_expected(f, "the fields of sample_type 0x%llx inside the record", (unsigned long long)a->sample_type);
				tfk_set_found(f, "%u bytes", size);
			} else if (a && pc->on_sample) {
				pc->on_sample(pc, at, t, have_t, cpu, have_cpu);
			}
		} else if (type <= PF_REC_KERNEL_MAX) {
			const struct pf_attr *a = record_attr(pc, &rec, size, false, &unknown_id, &id);
			uint32_t tr = trailer_size(a);
			if (unknown_id) {
				f = tfk_emit(pc->ctx, TFK_PERF_SAMPLE_UNKNOWN_ID, at, size);
				tfk_set_path(f, "record type %u at +0x%llx, its sample_id", type, (unsigned long long)pos);
				tfk_set_expected(f, "an id listed in an attr's ids (%zu ids)", pc->nids);
				tfk_set_found(f, "id %llu", (unsigned long long)id);
			} else if (a && (uint32_t)min + tr > size) {
				char exp[80], found[32];
				snprintf(exp, sizeof(exp), "%u bytes: its fields and a %u-byte sample_id trailer", min + tr, tr);
				snprintf(found, sizeof(found), "%u bytes", size);
				pf_bad_body(pc, at, type, exp, found);
			} else {
				pf_check_body(pc, &rec, type, tr);
				if (type == PF_REC_COMM)
					pf_needs_nul(pc, &rec, type, 16, size - tr);
				else if (type == PF_REC_MMAP)
					pf_needs_nul(pc, &rec, type, 40, size - tr);
				else if (type == PF_REC_MMAP2)
					pf_needs_nul(pc, &rec, type, mmap2_name_at(&rec), size - tr);
				if (a && (a->sample_type & PF_S_TIME) && tr) {
					uint64_t before = (uint64_t)__builtin_popcountll(a->sample_type & PF_S_TID);
					have_t = tfk_cur_u64_at(&rec, (uint64_t)size - tr + 8 * before, &t);
				}
			}
		} else if (type == PF_REC_FINISHED_ROUND) {
			round_ends(pc);
		} else if (type == PF_REC_ID_INDEX) {
			check_id_index(pc, &rec, type);
		} else if (type == PF_REC_HEADER_ATTR && pc->pipe) {
			struct tfk_cursor body;
			tfk_cur_sub(&rec, 8, size - 8u, &body);
			struct pf_attr *a = pf_new_attr(pc);
			if (a) {
				char where[48];
				snprintf(where, sizeof(where), "HEADER_ATTR at +0x%llx", (unsigned long long)pos);
				if (pf_read_attr(pc, &body, a, where)) {
					uint32_t index = (uint32_t)pc->nattrs++;
					for (uint64_t k = pc->attrs[index].size; k + 8 <= body.len; k += 8) {
						uint64_t v;
						if (tfk_cur_u64_at(&body, k, &v))
							pf_add_id(pc, v, index);
					}
				}
			}
		} else if (type == PF_REC_HEADER_FEATURE && pc->pipe) {
			uint64_t bit;
			if (tfk_cur_u64_at(&rec, 8, &bit) && bit > 0 && bit < 256 && size > 16) {
				struct tfk_cursor body;
				tfk_cur_sub(&rec, 16, size - 16u, &body);
				pf_check_feature(pc, (unsigned)bit, &body);
			}
		} else if (type == PF_REC_TRACING_DATA && extra) {
			struct tfk_cursor blob;
			uint32_t n = 0;
			tfk_cur_u32_at(&rec, 8, &n);
			tfk_cur_sub(stream, pos + size, n, &blob);
			td_check_tracing_bundle(pc->ctx, &blob, "TRACING_DATA record");
		} else if (c2_blob) {
			/* perf 6.16's blob: its records' payloads in order, as the fixed writer would frame them. */
			if (track && pc->zskipped)
				pc->frozen = true;
			for (unsigned k = 0; k < pc->c2_n && stream_ok; k++) {
				struct tfk_cursor payload;
				tfk_cur_sub(&rec, pc->c2_off[k], pc->c2_len[k], &payload);
				stream_ok = walk_compressed(pc, &payload, at, depth);
				if (!stream_ok && k)
					pc->dgood = 0; /* repair salvages decoded records of the blob's first piece only */
			}
			if (stream_ok && !depth && frame_cut(pc, stream, pos + size, at))
				stream_ok = false;
			if (track)
				pc->zfed = true;
		} else if (type == PF_REC_COMPRESSED || type == PF_REC_COMPRESSED2) {
			struct tfk_cursor payload;
			uint64_t data_size = size - 8u, hdr = 8;
			if (type == PF_REC_COMPRESSED2) {
				tfk_cur_u64_at(&rec, 8, &data_size);
				hdr = 16;
				if (data_size > size - 16u || size - 16u - data_size >= 8) {
					char found[80];
					snprintf(found, sizeof(found), "data_size %llu in a %u-byte record", (unsigned long long)data_size, size);
					pf_bad_body(pc, at + 8, type, "a data size that fills the record but for its padding (under 8 bytes)",
						    found);
					/* Its payload never reaches the stream: what the stream decodes later is lost, and
					   nothing of this record was decoded (repair salvages nothing of it). */
					pc->zbroken = true;
					pc->carry = 0;
					pc->dgood = pc->dgood_samples = pc->dgood_records = 0;
					goto next;
				}
			}
			tfk_cur_sub(&rec, hdr, data_size, &payload);
			/*
			 * The check goes on in a new frame after skipped bytes, but a repaired copy leaves
			 * them out and its reader would feed this payload to the old stream: the data kept
			 * ends before it.
			 */
			if (track && pc->zskipped)
				pc->frozen = true;
			stream_ok = walk_compressed(pc, &payload, at, depth);
			if (stream_ok && !depth && frame_cut(pc, stream, pos + size, at))
				stream_ok = false;
			if (track)
				pc->zfed = true;
		} else if (type == PF_REC_HEADER_ATTR) {
			/*
			 * In a perf.data file too, perf adds the attr a HEADER_ATTR record carries (and sizes
			 * its ids by what follows the attr): one whose attr.size overruns the record fails
			 * perf script with ENOMEM. Checked, not added: the file's attrs are the header's.
			 */
			struct tfk_cursor body;
			tfk_cur_sub(&rec, 8, size - 8u, &body);
			struct pf_attr scratch;
			char where[48];
			snprintf(where, sizeof(where), "HEADER_ATTR at +0x%llx", (unsigned long long)pos);
			if (pf_read_attr(pc, &body, &scratch, where) && (body.len - scratch.size) % 8) {
				char found[64];
				snprintf(found, sizeof(found), "%llu bytes after a %u-byte attr",
					 (unsigned long long)(body.len - scratch.size), scratch.size);
				pf_bad_body(pc, at, type, "the attr, then whole 8-byte ids", found);
			}
		} else if (type >= 64) {
			pf_check_body(pc, &rec, type, 0);
		}
		if (have_t)
			saw_time(pc, t, at);
next:
		pos += size + extra;
		if (depth && !pc->derr) {
			/* Inside a payload: the whole, valid records before the first damage (repair may keep them). */
			if (stream_ok && pf_errors(pc) == errors_before) {
				pc->dgood = pos;
				pc->dgood_samples += pc->samples - samples_before;
				pc->dgood_records += pc->records - records_before;
			} else {
				pc->derr = true;
			}
		}
		if (track && !pc->frozen) {
			const bool clean = stream_ok && pf_errors(pc) == errors_before;
			const uint64_t ns = pc->samples - samples_before, nr = pc->records - records_before;
			/* A cut needs the zstd stream between records and at a block's end (a reader could not end it elsewhere). */
			if (clean && (pc->carry || (pc->zs && !pc->zbroken && !tfk_zstream_at_boundary(pc->zs)))) {
				pending = true; /* the stream is inside a record or a block: no cut here */
				pending_samples += ns;
				pending_records += nr;
			} else if (clean) {
				pc->lay.good_end = stream->origin + pos;
				pc->lay.samples_kept += pending_samples + ns;
				pc->lay.records_kept += pending_records + nr;
				pending = false;
				pending_samples = pending_records = 0;
			} else if (!pending && stream_ok && type != PF_REC_COMPRESSED && type != PF_REC_COMPRESSED2 &&
				   pc->lay.ndrops < TFK_PERF_MAX_DROPS) {
				/* Damaged inside, but its size led to the next record: repair leaves just it out. */
				pc->lay.drops[pc->lay.ndrops].offset = at;
				pc->lay.drops[pc->lay.ndrops++].size = size + extra;
				pc->lay.good_end = stream->origin + pos;
				pc->lay.samples_left_out += ns;
				pc->lay.records_left_out += nr;
			} else {
				/*
				 * A COMPRESSED record cannot be left out of the one zstd stream: the data ends
				 * before it. When the stream was between records there, the whole records it
				 * decoded before the damage can still be kept, written out decoded.
				 */
				if ((type == PF_REC_COMPRESSED || type == PF_REC_COMPRESSED2) && !pending && !pc->zstart_carry &&
				    pc->dgood && pc->lay.good_end == at) {
					pc->lay.zsalvage_at = at;
					pc->lay.zsalvage_len = pc->dgood;
					pc->lay.samples_kept += pc->dgood_samples;
					pc->lay.records_kept += pc->dgood_records;
				}
				pc->frozen = true;
			}
		}
	}
	if (track) {
		uint64_t walked = pos < len ? pos : len;
		if (walked > released)
			tfk_release(pc->ctx, stream->base + released, walked - released);
		/* Bytes the walk could not get past: what records they held is unknown. */
		if (pos < len && !table_found)
			pc->lay.unread_bytes += len - pos;
		finish_zstream(pc);
		pc->lay.samples_walked = pc->samples;
		pc->lay.records_walked = pc->records;
	}
}

void pf_finish_records(struct pf_check *pc)
{
	if (!pc->late_records)
		return;
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_TIME_OUT_OF_ORDER, pc->first_late_at, 0);
	tfk_set_path(f, "data");
	tfk_set_expected(f, "times >= %llu, flushed when the round before last ended",
			 (unsigned long long)pc->first_late_limit);
	tfk_set_found(f, "%llu (%llu such records)", (unsigned long long)pc->first_late_time,
		      (unsigned long long)pc->late_records);
}
