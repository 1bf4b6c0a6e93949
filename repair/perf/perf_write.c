/* SPDX-License-Identifier: MIT */
/*
 * Repairing perf.data (spec 1.10) from the layout the checker reports: the header, attrs and
 * ids are kept as they are (with attr_size, data.size and the magic rewritten), the data is
 * cut after the last record that can be located, damaged records before it are left out
 * (their sizes still led to the next record), and only the feature sections that parsed are
 * written back, in bit order, behind a rebuilt table (HEADER_TRACING_DATA whose only damage is
 * malformed text lines is rebuilt from its good lines). The output is never larger than the
 * input, but for a COMPRESSED feature rebuilt when the compressed records kept lost theirs, and
 * for the whole records a damaged COMPRESSED record decoded to before its damage, written out
 * decoded (perf record -z writes one zstd stream: the record cannot be kept, nor its stream
 * be continued). The output is segments (output.h): the header, attrs and ids, the feature
 * table and the bytes rebuilt are made; the records and the feature sections kept are the
 * input's own bytes, by reference.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cursor.h"
#include "perf_repair.h"

#define COMPRESSED_BIT 27
#define COMPRESSED_LEN 20

#define TRACING_BIT 1

/* A feature the checker parsed whole (or one rebuilt), whose bytes lie in the input (an empty one may point anywhere). */
static bool feature_kept(const struct tfk_perf_layout *L, uint32_t i, size_t size, const struct rp_blob *rebuilt)
{
	const uint64_t off = L->features[i].offset, len = L->features[i].size;
	bool ok = L->features[i].ok || (L->features[i].bit == TRACING_BIT && rebuilt->data);
	return ok && L->features[i].bit < 256 && (!len || (off <= size && len <= size - off));
}

/*
 * HEADER_TRACING_DATA whose only damage was malformed lines in its texts: the bundle again,
 * each text (kallsyms, printk formats, saved cmdlines) holding only its good lines behind a
 * new size, everything else as it was. Never longer than the original. 0, or -1 (out->data NULL).
 */
static int rebuild_tracing(const uint8_t *in, size_t size, const struct tfk_perf_layout *L, uint32_t i,
			   struct rp_blob *out)
{
	static const enum tfk_meta_kind kinds[3] = { TFK_META_KALLSYMS, TFK_META_PRINTK, TFK_META_CMDLINES };
	const uint64_t off = L->features[i].offset, len = L->features[i].size;
	memset(out, 0, sizeof(*out));
	if (off > size || len > size - off || !L->tracing_rebuild)
		return -1;
	const uint64_t end = off + len;
	const struct tfk_cursor file = tfk_cur_make(in, size, 0, false); /* the section's bytes, read through it */
	const uint8_t *text, *kept;
	out->data = malloc(len ? (size_t)len : 1);
	if (!out->data)
		return -1;
	uint64_t from = off;
	for (int k = 0; k < 3; k++) {
		const uint64_t at = L->tracing_text_at[k], n = L->tracing_text_len[k];
		const unsigned width = k == 2 ? 8 : 4;
		if (!at)
			continue;
		struct rp_blob good = { 0 };
		if (at < from + width || at > end || n > end - at || !tfk_cur_bytes_at(&file, at, n, &text) ||
		    !tfk_cur_bytes_at(&file, from, at - width - from, &kept) || !rp_good_lines(kinds[k], text, n, &good) ||
		    good.len > n) {
			free(good.data);
			free(out->data);
			out->data = NULL;
			return -1; /* not what the checker reports: keep nothing rather than guess */
		}
		memcpy(out->data + out->len, kept, (size_t)(at - width - from));
		out->len += (size_t)(at - width - from);
		rp_put_num(out->data + out->len, good.len, width, L->tracing_big_endian);
		out->len += width;
		if (good.len)
			memcpy(out->data + out->len, good.data, good.len);
		out->len += good.len;
		free(good.data);
		from = at + n;
	}
	if (!tfk_cur_bytes_at(&file, from, end - from, &kept)) {
		free(out->data);
		out->data = NULL;
		return -1;
	}
	memcpy(out->data + out->len, kept, (size_t)(end - from));
	out->len += (size_t)(end - from);
	return 0;
}

/*
 * Feed a COMPRESSED payload to the stream: into dst (at most cap bytes, *got of them made)
 * when dst is given, else through a scratch buffer whose bytes are not kept. False on a
 * decoding error.
 */
static bool zfeed(ZSTD_DCtx *d, const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *got, uint8_t *scratch,
		  size_t scratch_len)
{
	ZSTD_inBuffer inb = { src, n, 0 };
	for (;;) {
		ZSTD_outBuffer out = dst ? (ZSTD_outBuffer){ dst, cap, *got } : (ZSTD_outBuffer){ scratch, scratch_len, 0 };
		size_t before_in = inb.pos, before_out = out.pos;
		size_t rc = ZSTD_decompressStream(d, &out, &inb);
		if (ZSTD_isError(rc))
			return false;
		if (dst)
			*got = out.pos;
		if ((dst && out.pos == out.size) || (inb.pos == inb.size && out.pos < out.size) ||
		    (inb.pos == before_in && out.pos == before_out))
			return true;
	}
}

/*
 * The first zsalvage_len bytes the damaged COMPRESSED record at zsalvage_at decodes to: the
 * zstd stream decoded again from the start of the data, every payload before it in order (the
 * ranges the checker left out skipped, as it skipped them). 0, or -1 when the input does not
 * hold what the checker reported.
 */
static int zsalvage(const uint8_t *in, size_t size, const struct tfk_perf_layout *L, uint8_t *dst)
{
	const bool be = L->big_endian;
	const size_t want = (size_t)L->zsalvage_len;
	size_t got = 0;
	int rc = -1;
	uint8_t *scratch = malloc(1u << 16);
	ZSTD_DCtx *d = ZSTD_createDCtx();
	if (!scratch || !d)
		goto out;
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 27);
	/* the model's offsets came from a hostile file: every byte read through the cursor */
	const struct tfk_cursor file = tfk_cur_make(in, size, 0, be);
	const uint8_t *bytes;
	uint64_t pos = L->data_offset;
	uint32_t di = 0;
	while (pos <= L->zsalvage_at) {
		if (di < L->ndrops && pos == L->drops[di].offset) {
			pos += L->drops[di++].size;
			continue;
		}
		bool blob = false;
		for (uint32_t f = 0; f < L->nc2fix && f < TFK_PERF_MAX_FIXES && !blob; f++) {
			if (L->c2fix[f].offset != pos)
				continue;
			if (pos == L->zsalvage_at) {
				/* The damaged record is perf 6.16's blob: what its first piece decodes to. */
				const uint32_t k = L->c2fix[f].first;
				if (tfk_cur_bytes_at(&file, L->c2piece[k].offset, L->c2piece[k].len, &bytes))
					zfeed(d, bytes, (size_t)L->c2piece[k].len, dst, want, &got, scratch, 1u << 16);
				rc = got == want ? 0 : -1;
				goto out;
			}
			/* perf 6.16's blob: its pieces fed in order (their bounds checked by the writer) */
			for (uint32_t k = L->c2fix[f].first; k < L->c2fix[f].first + L->c2fix[f].count; k++)
				if (!tfk_cur_bytes_at(&file, L->c2piece[k].offset, L->c2piece[k].len, &bytes) ||
				    !zfeed(d, bytes, (size_t)L->c2piece[k].len, NULL, 0, &got, scratch, 1u << 16))
					goto out;
			pos += L->c2fix[f].extent;
			blob = true;
		}
		if (blob)
			continue;
		uint32_t type, size32;
		uint16_t rsize;
		uint64_t extra = 0, size64;
		if (!tfk_cur_u32_at(&file, pos, &type) || !tfk_cur_u16_at(&file, pos + 6, &rsize) ||
		    !tfk_cur_u32_at(&file, pos + 8, &size32) || !tfk_cur_u64_at(&file, pos + 8, &size64))
			goto out; /* fewer than the 16 bytes every record the checker walked past has */
		/* the last may be a COMPRESSED record the end of the file cuts: its payload is what is left */
		const bool cut = pos == L->zsalvage_at && type == 81 && rsize > size - pos;
		if (rsize < 8 || type >= 0x8000 || (rsize > size - pos && !cut))
			goto out; /* not a record the checker walked past (or another writer's dialect) */
		if (type == 66)
			extra = ((uint64_t)size32 + 7) / 8 * 8;
		else if (type == 71)
			extra = size64;
		if (type == 81 || type == 83) {
			uint64_t hdr = type == 83 ? 16 : 8, n = type == 83 ? size64 : cut ? size - pos - 8u : rsize - 8u;
			if (n > rsize - hdr || !tfk_cur_bytes_at(&file, pos + hdr, n, &bytes))
				goto out;
			const bool last = pos == L->zsalvage_at;
			if (!zfeed(d, bytes, (size_t)n, last ? dst : NULL, want, &got, scratch, 1u << 16) && !last)
				goto out;
			if (last) {
				rc = got == want ? 0 : -1;
				goto out;
			}
		}
		if (extra > size - pos - rsize)
			goto out;
		pos += rsize + extra;
	}
out:
	ZSTD_freeDCtx(d);
	free(scratch);
	return rc;
}

#define C2_MAX_DATA (65528 - 16) /* the most zstd bytes a COMPRESSED2 record with an 8-aligned u16 size holds */

/* The bytes perf 6.16's blob f becomes: its pieces as COMPRESSED2 records whose sizes fit. */
static uint64_t c2_rewritten(const struct tfk_perf_layout *L, uint32_t f)
{
	uint64_t n = 0;
	for (uint32_t k = L->c2fix[f].first; k < L->c2fix[f].first + L->c2fix[f].count; k++)
		for (uint64_t done = 0; done < L->c2piece[k].len;) {
			uint64_t chunk = L->c2piece[k].len - done < C2_MAX_DATA ? L->c2piece[k].len - done : C2_MAX_DATA;
			n += (16 + chunk + 7) / 8 * 8;
			done += chunk;
		}
	return n;
}

static void c2_write(struct rp_out *out, const struct tfk_cursor *in, const struct tfk_perf_layout *L, uint32_t f)
{
	static const uint8_t zeros[8];
	for (uint32_t k = L->c2fix[f].first; k < L->c2fix[f].first + L->c2fix[f].count; k++)
		for (uint64_t done = 0; done < L->c2piece[k].len;) {
			uint64_t chunk = L->c2piece[k].len - done < C2_MAX_DATA ? L->c2piece[k].len - done : C2_MAX_DATA;
			uint64_t size = (16 + chunk + 7) / 8 * 8;
			rp_out_num(out, 83, 4);
			rp_out_num(out, 0, 2);
			rp_out_num(out, size, 2);
			rp_out_num(out, chunk, 8);
			const uint64_t from = L->c2piece[k].offset + done;
			bool patched = false;
			for (uint32_t i = 0; i < L->npatches && i < TFK_PERF_MAX_FIXES; i++)
				patched |= L->patches[i].width == 1 && L->patches[i].offset >= from && L->patches[i].offset - from < chunk;
			const uint8_t *src;
			if (!patched) {
				rp_out_keep_at(out, in, from, chunk);
			} else if (!tfk_cur_bytes_at(in, from, chunk, &src)) {
				out->oom = true; /* the model names bytes the input does not hold */
			} else {
				/* A frame header constant restored inside the blob: this chunk is made, not kept. */
				uint8_t *copy = rp_out_space(out, (size_t)chunk);
				if (copy) {
					memcpy(copy, src, (size_t)chunk);
					for (uint32_t i = 0; i < L->npatches && i < TFK_PERF_MAX_FIXES; i++)
						if (L->patches[i].width == 1 && L->patches[i].offset >= from &&
						    L->patches[i].offset - from < chunk)
							copy[L->patches[i].offset - from] = (uint8_t)L->patches[i].value;
				}
			}
			rp_out_put(out, zeros, (size_t)(size - 16 - chunk));
			done += chunk;
		}
}

/* The edits of the data kept, in file order: drops (left out) and blobs (rewritten). */
struct edit {
	uint64_t offset, size;
	int blob;       /* index into c2fix, or -1 for a drop */
};

static int cmp_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Where input offset `at` of the kept data lands in the output; false when it is not kept. */
static bool out_offset(const struct edit *e, size_t ne, const struct tfk_perf_layout *L, uint64_t at, uint64_t *to)
{
	int64_t shift = 0;
	for (size_t i = 0; i < ne; i++) {
		if (at < e[i].offset)
			break;
		if (at < e[i].offset + e[i].size)
			return false; /* inside a record left out or rewritten */
		shift += e[i].blob < 0 ? -(int64_t)e[i].size : (int64_t)c2_rewritten(L, (uint32_t)e[i].blob) - (int64_t)e[i].size;
	}
	if (at >= L->good_end && at >= L->data_offset)
		return false;
	*to = (uint64_t)((int64_t)at + shift);
	return true;
}

int rp_perf_write(const uint8_t *in, size_t size, const struct tfk_perf_layout *L, struct rp_out *out,
		  uint32_t *features_dropped)
{
	memset(out, 0, sizeof(*out));
	*features_dropped = 0;
	/* The model's offsets came from a hostile file: what is kept of it is read through the cursor. */
	const struct tfk_cursor file = tfk_cur_make(in, size, 0, false);
	if (L->good_end < L->data_offset || L->good_end > size || (!L->pipe && !L->attrs_ok))
		return -1;
	/*
	 * The data kept: up to good_end, less the damaged records whose size still located the
	 * next, with perf 6.16's overflowed COMPRESSED2 blobs rewritten as records whose sizes fit.
	 */
	struct edit edits[TFK_PERF_MAX_DROPS + TFK_PERF_MAX_FIXES];
	size_t nedits = 0;
	int64_t dropped = 0;
	for (uint32_t i = 0; i < L->ndrops && i < TFK_PERF_MAX_DROPS; i++)
		edits[nedits++] = (struct edit){ L->drops[i].offset, L->drops[i].size, -1 };
	for (uint32_t i = 0; i < L->nc2fix && i < TFK_PERF_MAX_FIXES; i++) {
		const uint32_t first = L->c2fix[i].first, count = L->c2fix[i].count;
		if (first > TFK_PERF_MAX_PIECES || count > TFK_PERF_MAX_PIECES - first)
			return -1;
		for (uint32_t k = first; k < first + count; k++)
			if (L->c2piece[k].offset < L->c2fix[i].offset || L->c2piece[k].offset > size ||
			    L->c2piece[k].len > size - L->c2piece[k].offset)
				return -1;
		if (L->c2fix[i].offset < L->good_end)
			edits[nedits++] = (struct edit){ L->c2fix[i].offset, L->c2fix[i].extent, (int)i };
	}
	qsort(edits, nedits, sizeof(*edits), cmp_edit);
	for (size_t i = 0; i < nedits; i++) {
		if (edits[i].offset < L->data_offset || edits[i].size > L->good_end - edits[i].offset ||
		    (i && edits[i].offset < edits[i - 1].offset + edits[i - 1].size))
			return -1; /* not what the checker reports: refuse rather than guess */
		dropped += edits[i].blob < 0 ? (int64_t)edits[i].size
					      : (int64_t)edits[i].size - (int64_t)c2_rewritten(L, (uint32_t)edits[i].blob);
	}
	const uint64_t grown = dropped < 0 ? (uint64_t)-dropped : 0;
	/*
	 * A damaged COMPRESSED record at good_end whose payload began with whole, valid records:
	 * those are written after the kept data, decoded (the one way repair may grow a file).
	 */
	uint8_t *salvaged = NULL;
	size_t salvaged_len = 0;
	if (L->zsalvage_len && L->zsalvage_at == L->good_end && L->zsalvage_len <= SIZE_MAX / 2) {
		salvaged = malloc((size_t)L->zsalvage_len);
		if (salvaged && zsalvage(in, size, L, salvaged) == 0) {
			salvaged_len = (size_t)L->zsalvage_len;
		} else {
			free(salvaged);
			salvaged = NULL;
		}
	}
	const size_t data_end = (size_t)((int64_t)L->good_end - dropped) + salvaged_len;
	size_t need = data_end;
	uint64_t bits[4] = { 0 };
	uint32_t kept = 0;
	bool have_comp = false, synth_comp = false;
	struct rp_blob tracing = { 0 }; /* HEADER_TRACING_DATA rebuilt from its good lines */
	if (!L->pipe) {
		for (uint32_t i = 0; i < L->nfeatures; i++)
			if (L->features[i].bit == TRACING_BIT && !L->features[i].ok && !tracing.data)
				rebuild_tracing(in, size, L, i, &tracing);
		for (uint32_t i = 0; i < L->nfeatures; i++) {
			if (!feature_kept(L, i, size, &tracing)) {
				(*features_dropped)++;
				continue;
			}
			have_comp |= L->features[i].bit == COMPRESSED_BIT;
			need += 16 + (L->features[i].ok ? (size_t)L->features[i].size : tracing.len);
			kept++;
		}
		if (need > size + salvaged_len + grown) { /* never grow the file: then the features go */
			*features_dropped += kept;
			kept = 0;
			have_comp = false;
			need = data_end;
		}
		/*
		 * perf cannot decode COMPRESSED records without the COMPRESSED feature (a killed
		 * perf record -z never wrote it): describe what the data holds. These 36 bytes are
		 * the one thing repair adds, and only when the records kept need them.
		 */
		synth_comp = L->compressed && !have_comp && data_end > L->data_offset;
	}
	const bool be = L->big_endian;
	out->be = be;
	/* The header, attrs and ids as they are (fields rewritten below), then the records kept. */
	size_t from = (size_t)L->data_offset;
	rp_out_put(out, in, from);
	for (size_t i = 0; i <= nedits; i++) {
		size_t until = i < nedits ? (size_t)edits[i].offset : (size_t)L->good_end;
		rp_out_keep_at(out, &file, from, until - from);
		if (i == nedits)
			break;
		if (edits[i].blob >= 0)
			c2_write(out, &file, L, (uint32_t)edits[i].blob);
		from = until + (size_t)edits[i].size;
	}
	if (salvaged_len)
		rp_out_put(out, salvaged, salvaged_len);
	free(salvaged);
	rp_out_overwrite(out, 0, be ? "2ELIFREP" : "PERFILE2", 8);
	/* Values the file proves, written back where their bytes landed (a zstd frame's magic, an attr's size). */
	for (uint32_t i = 0; i < L->npatches && i < TFK_PERF_MAX_FIXES; i++) {
		uint64_t to;
		const unsigned width = L->patches[i].width;
		if ((width == 1 || width == 2 || width == 4 || width == 8) &&
		    out_offset(edits, nedits, L, L->patches[i].offset, &to) && to <= out->len && width <= out->len - to)
			rp_out_patch_at(out, to, L->patches[i].value, width);
	}
	if (L->pipe) {
		rp_out_patch_at(out, 8, 16, 8);
		free(tracing.data);
		return out->oom ? -1 : 0;
	}
	rp_out_patch_at(out, 8, L->header_size == 72 ? 72 : 104, 8);
	if (L->attr_size_proven)
		rp_out_patch_at(out, 16, L->attr_size_proven, 8);
	rp_out_patch_at(out, 48, data_end - L->data_offset, 8);
	/* The feature table, then the sections in bit order: those kept are the input's bytes. */
	const size_t table = rp_out_mark(out);
	rp_out_space(out, 16ull * (kept + synth_comp));
	size_t at = data_end + 16ull * (kept + synth_comp), k = 0;
	for (uint32_t i = 0; i <= L->nfeatures && (kept || synth_comp); i++) {
		const uint64_t bit = i < L->nfeatures ? L->features[i].bit : 256;
		if (synth_comp && bit > COMPRESSED_BIT) {
			/* In bit order: version 1, zstd, level 1, ratio 1, a buffer for the largest block. */
			uint64_t mmap_len = L->decoded_max > 0xffffff00u ? 0xffffff00u : (L->decoded_max + 4095) / 4096 * 4096;
			if (mmap_len == 0)
				mmap_len = 4096; /* perf decodes nothing into a buffer of 0 bytes */
			uint32_t v[5] = { 1, 1, 1, 1, (uint32_t)mmap_len };
			rp_out_patch(out, table + 16 * k, at, 8);
			rp_out_patch(out, table + 16 * k + 8, COMPRESSED_LEN, 8);
			for (int w = 0; w < 5; w++)
				rp_out_num(out, v[w], 4);
			at += COMPRESSED_LEN;
			bits[COMPRESSED_BIT / 64] |= 1ull << (COMPRESSED_BIT % 64);
			k++;
			synth_comp = false;
		}
		if (i == L->nfeatures || !feature_kept(L, i, size, &tracing) || !kept)
			continue;
		const bool rebuilt = !L->features[i].ok;
		const size_t len = rebuilt ? tracing.len : (size_t)L->features[i].size;
		rp_out_patch(out, table + 16 * k, at, 8);
		rp_out_patch(out, table + 16 * k + 8, len, 8);
		if (rebuilt)
			rp_out_put(out, tracing.data, len);
		else if (len) /* an empty section may point anywhere: nothing to copy */
			rp_out_keep_at(out, &file, L->features[i].offset, len);
		at += len;
		bits[bit / 64] |= 1ull << (bit % 64);
		k++;
	}
	if (L->header_size != 72)
		for (int w = 0; w < 4; w++)
			rp_out_patch_at(out, 72 + 8 * w, bits[w], 8);
	free(tracing.data);
	return out->oom ? -1 : 0;
}
