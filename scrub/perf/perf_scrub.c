/* SPDX-License-Identifier: MIT */
/*
 * perf.data's scrub plug-in: the check's layout says where the data and the feature sections
 * are; a copy of the file is scrubbed in place (every replacement keeps its length, so no
 * offset or size changes). Replaced: HOSTNAME, OSRELEASE and CPUDESC (host), CMDLINE, task
 * names of COMM records, file names of MMAP / MMAP2 records and of the BUILD_ID table, cgroup
 * paths, and the saved cmdlines of TRACING_DATA; then every further whole-word occurrence of a
 * replaced word in the records (tracepoint payloads: sched_switch's comm fields, ...). Kept:
 * times, addresses, build ids, event names, kernel symbols, the perf version.
 * Compressed data (perf record -z): the zstd stream of the COMPRESSED records is decoded and
 * its records written in their place, uncompressed (the data and the feature sections after
 * it move; their offsets and data.size are rewritten), then scrubbed like the others.
 * Not yet: pipe mode is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/zstream.h"
#include "format.h"
#include "formats/formats.h"
#include "shared/perfrec/perf_model.h"

struct pf_scrub {
	struct tfk_perf_layout L;
	bool have;
};

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct pf_scrub *m = user;
	if (format != &tfk_format_perf || kind != TFK_PERF_MODEL_LAYOUT || size != sizeof m->L)
		return;
	memcpy(&m->L, data, sizeof m->L);
	m->have = true;
}

static struct tfk_observer pf_observer(void *model, const uint8_t *in, size_t size)
{
	(void)in;
	(void)size;
	return (struct tfk_observer){ .user = model, .model = on_model };
}

static void pf_free(void *model)
{
	(void)model;
}

static uint64_t num(const uint8_t *p, unsigned width, bool be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (be ? 8 * (width - 1 - i) : 8 * i);
	return v;
}

/* A perf_header_string (u32 len, then len bytes, NUL-padded) at *at within [.., end): scrubbed. */
static bool header_string(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t end, size_t *at, bool be)
{
	if (*at > end || end - *at < 4)
		return false;
	uint32_t len = (uint32_t)num(p + *at, 4, be);
	*at += 4;
	if (len > end - *at)
		return false;
	sc_cstr(sc, kind, p + *at, len);
	*at += len;
	return true;
}

/* The bundle of HEADER_TRACING_DATA: walk to its saved cmdlines ("pid comm" lines) and scrub them. */
static void tracing_data(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	size_t at = 10; /* "\027\010Dtracing" */
	if (n < 10 || memcmp(p + 3, "tracing", 7) != 0)
		return;
	const uint8_t *nul = memchr(p + at, 0, n - at);
	if (!nul)
		return;
	at = (size_t)(nul - p) + 1;
	if (n - at < 6)
		return;
	bool be = p[at] != 0;
	at += 2 + 4; /* endianness, long size, page size */
#define NEED(k)                                                                                          \
	do {                                                                                             \
		if ((k) > n - at)                                                                        \
			return;                                                                          \
	} while (0)
	/* header_page and header_event: a NUL-terminated name, a u64 size, the text */
	for (int i = 0; i < 2; i++) {
		const uint8_t *z = memchr(p + at, 0, n - at);
		if (!z)
			return;
		at = (size_t)(z - p) + 1;
		NEED(8);
		uint64_t sz = num(p + at, 8, be);
		at += 8;
		NEED(sz);
		at += (size_t)sz;
	}
	NEED(4);
	uint32_t nft = (uint32_t)num(p + at, 4, be);
	at += 4;
	for (uint32_t i = 0; i < nft; i++) {
		NEED(8);
		uint64_t sz = num(p + at, 8, be);
		at += 8;
		NEED(sz);
		at += (size_t)sz;
	}
	NEED(4);
	uint32_t nsys = (uint32_t)num(p + at, 4, be);
	at += 4;
	for (uint32_t s = 0; s < nsys; s++) {
		const uint8_t *z = memchr(p + at, 0, n - at);
		if (!z)
			return;
		at = (size_t)(z - p) + 1;
		NEED(4);
		uint32_t cnt = (uint32_t)num(p + at, 4, be);
		at += 4;
		for (uint32_t i = 0; i < cnt; i++) {
			NEED(8);
			uint64_t sz = num(p + at, 8, be);
			at += 8;
			NEED(sz);
			at += (size_t)sz;
		}
	}
	for (int i = 0; i < 2; i++) { /* kallsyms, printk: u32 sizes */
		NEED(4);
		uint32_t sz = (uint32_t)num(p + at, 4, be);
		at += 4;
		NEED(sz);
		at += sz;
	}
	NEED(8);
	uint64_t sz = num(p + at, 8, be);
	at += 8;
	NEED(sz);
#undef NEED
	uint8_t *text = p + at;
	for (size_t k = 0; k < sz;) {
		uint8_t *line = text + k;
		const uint8_t *nl = memchr(line, '\n', (size_t)sz - k);
		size_t len = nl ? (size_t)(nl - line) : (size_t)sz - k;
		k += len + 1;
		const uint8_t *sp = memchr(line, ' ', len);
		if (sp)
			sc_text(sc, TFK_SCRUB_TASK, (uint8_t *)sp + 1, (size_t)(line + len - sp - 1));
	}
}

static void feature(struct sc_ctx *sc, uint16_t bit, uint8_t *p, size_t n, bool be)
{
	size_t at = 0;
	switch (bit) {
	case 1: tracing_data(sc, p, n); break;
	case 2: /* BUILD_ID: records of header, pid, build id[24], filename */
		while (n - at >= 8) {
			uint16_t size = (uint16_t)num(p + at + 6, 2, be);
			if (size < 8 || size > n - at)
				break;
			if (size > 36)
				sc_cstr(sc, TFK_SCRUB_PATH, p + at + 36, size - 36u);
			at += size;
		}
		break;
	case 3: case 4: case 8: /* HOSTNAME, OSRELEASE, CPUDESC */
		header_string(sc, TFK_SCRUB_HOST, p, n, &at, be);
		break;
	case 11: { /* CMDLINE: u32 count, strings */
		if (n < 4)
			break;
		uint32_t count = (uint32_t)num(p, 4, be);
		at = 4;
		for (uint32_t i = 0; i < count && header_string(sc, TFK_SCRUB_CMDLINE, p, n, &at, be); i++)
			;
		break;
	}
	case 5: sc_kept(sc, "the version of perf that wrote the file"); break;
	default: break;
	}
}

/* A mapping's name: the kernel's pseudo-files ([kernel.kallsyms], [vdso], //anon) name nobody. */
static void map_name(struct sc_ctx *sc, uint8_t *p, size_t cap)
{
	if (cap && (p[0] == '[' || (cap >= 6 && memcmp(p, "//anon", 6) == 0)))
		return;
	sc_cstr_aligned(sc, TFK_SCRUB_PATH, p, cap, 8);
}

/* One record of the data (rec, size bytes, its header first). */
static void record(struct sc_ctx *sc, uint8_t *rec, size_t size, bool be)
{
	uint32_t type = (uint32_t)num(rec, 4, be);
	switch (type) {
	case 1: /* MMAP: pid, tid, addr, len, pgoff, filename */
		if (size > 40)
			map_name(sc, rec + 40, size - 40);
		break;
	case 3: /* COMM: pid, tid, comm */
		if (size > 16)
			sc_cstr_aligned(sc, TFK_SCRUB_TASK, rec + 16, size - 16, 8);
		break;
	case 10: /* MMAP2 */
		if (size > 72)
			map_name(sc, rec + 72, size - 72);
		break;
	case 19: /* CGROUP: id, path */
		if (size > 16)
			sc_cstr_aligned(sc, TFK_SCRUB_PATH, rec + 16, size - 16, 8);
		break;
	default: break;
	}
}

static void put_num(uint8_t *p, uint64_t v, unsigned width, bool be)
{
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (be ? 8 * (width - 1 - i) : 8 * i));
}

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static bool reserve(struct buf *b, size_t more)
{
	if (more > SIZE_MAX / 2 - b->len)
		return false;
	if (b->len + more <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 1u << 16;
	while (cap < b->len + more)
		cap *= 2;
	uint8_t *p = realloc(b->p, cap);
	if (!p)
		return false;
	b->p = p;
	b->cap = cap;
	return true;
}

/*
 * The file with its COMPRESSED / COMPRESSED2 records replaced by the records their zstd stream
 * holds: the header and attrs as they are, the data decoded, the feature table and sections
 * after it moved by *delta (their offsets and data.size rewritten). 0, -1 (memory), 1 (a
 * stream the check accepted but this cannot decode: refused).
 */
static int decompressed(const uint8_t *in, size_t size, const struct tfk_perf_layout *L, uint64_t max_out,
			uint8_t **out, size_t *out_len, int64_t *delta)
{
	const bool be = L->big_endian;
	const uint64_t start = L->data_offset, end = L->data_offset + L->data_size;
	struct buf b = { 0 };
	void *zs = tfk_zstream_new();
	int rc = zs && reserve(&b, (size_t)start) ? 0 : -1;
	if (rc == 0) {
		memcpy(b.p, in, (size_t)start);
		b.len = (size_t)start;
	}
	for (uint64_t at = start; rc == 0 && at < end && end - at >= 8;) {
		uint32_t type = (uint32_t)num(in + at, 4, be);
		uint16_t rsize = (uint16_t)num(in + at + 6, 2, be);
		if (rsize < 8 || rsize > end - at) {
			rc = 1;
			break;
		}
		if (type == 81 || type == 83) {
			size_t skip = type == 83 ? 16 : 8, used = 0;
			const uint8_t *src = in + at + skip;
			size_t sn = rsize > skip ? rsize - skip : 0;
			if (type == 83 && rsize >= 16) {
				uint64_t dsize = num(in + at + 8, 8, be);
				if (dsize < sn)
					sn = (size_t)dsize;
			}
			for (;;) {
				if (b.len > max_out) {
					rc = 1; /* the copy would outgrow the limits: refused (the driver says why) */
					break;
				}
				if (!reserve(&b, 1u << 16)) {
					rc = -1;
					break;
				}
				size_t got = b.len;
				enum tfk_zs_status st = tfk_zstream_decode(zs, src, sn, &used, b.p, b.cap, &got);
				b.len = got;
				if (st == TFK_ZS_CORRUPT) {
					rc = 1;
					break;
				}
				if (st == TFK_ZS_OK)
					break;
			}
		} else {
			if (!reserve(&b, rsize)) {
				rc = -1;
				break;
			}
			memcpy(b.p + b.len, in + at, rsize);
			b.len += rsize;
		}
		at += rsize;
	}
	tfk_zstream_free(zs);
	const uint64_t new_size = b.len - start;
	if (rc == 0 && reserve(&b, size - (size_t)end)) {
		memcpy(b.p + b.len, in + end, size - (size_t)end);
		b.len += size - (size_t)end;
		*delta = (int64_t)new_size - (int64_t)L->data_size;
		put_num(b.p + 0x30, new_size, 8, be); /* data.size */
		/* the feature table (one entry per bit set, in order) right after the data */
		uint32_t nset = 0;
		for (unsigned bit = 0; bit < 256; bit++)
			nset += (in[0x48 + bit / 8] >> (bit % 8)) & 1; /* little-endian bitmap as perf writes it */
		uint64_t table = start + new_size;
		for (uint32_t i = 0; i < nset && table + 16 * (uint64_t)(i + 1) <= b.len; i++) {
			uint8_t *e = b.p + table + 16 * i;
			uint64_t off = num(e, 8, be);
			if (off >= end)
				put_num(e, off + (uint64_t)*delta, 8, be);
		}
		*out = b.p;
		*out_len = b.len;
		return 0;
	}
	free(b.p);
	return rc ? rc : -1;
}

/* Walk the records of [at, end) of p; sweep: the dictionary through every record's body. */
static void records(struct sc_ctx *sc, uint8_t *p, uint64_t at, uint64_t end, bool be, bool sweep)
{
	while (at < end && end - at >= 8) {
		uint16_t size = (uint16_t)num(p + at + 6, 2, be);
		if (size < 8 || size > end - at)
			return;
		if (sweep)
			sc_sweep(sc, p + at + 8, size - 8u);
		else
			record(sc, p + at, size, be);
		at += size;
	}
}

static int pf_scrub(void *model, struct sc_ctx *sc, const uint8_t *in, size_t size, uint8_t **out, size_t *out_len)
{
	struct pf_scrub *m = model;
	const struct tfk_perf_layout *L = &m->L;
	if (!m->have) {
		sc->rep->reason = "scrub not supported for this format yet";
		return 1;
	}
	if (L->pipe) {
		sc->rep->reason = "scrub not supported for perf.data in pipe mode yet";
		return 1;
	}
	if (L->data_offset > size || L->data_size > size - L->data_offset || L->header_size < 0x50 ||
	    L->data_offset < L->header_size)
		return 1;
	uint8_t *w;
	size_t n = size;
	int64_t delta = 0;
	if (L->compressed) {
		int rc = decompressed(in, size, L, sc->max_out, &w, &n, &delta);
		if (rc > 0 && !sc->rep->reason)
			sc->rep->reason = "the decoded records would exceed the input size limit (--max-memory), or their stream broke";
		if (rc != 0)
			return rc;
		snprintf(sc->rep->converted, sizeof(sc->rep->converted), "perf.data, its records uncompressed");
	} else {
		w = malloc(size ? size : 1);
		if (!w)
			return -1;
		memcpy(w, in, size);
	}
	for (uint32_t i = 0; i < L->nfeatures && i < TFK_PERF_MAX_FEATURES; i++) {
		uint64_t off = L->features[i].offset + (uint64_t)delta, fsize = L->features[i].size;
		if (!L->features[i].ok || off > n || fsize > n - off)
			continue;
		feature(sc, L->features[i].bit, w + off, (size_t)fsize, L->big_endian);
	}
	const uint64_t end = L->data_offset + L->data_size + (uint64_t)delta;
	records(sc, w, L->data_offset, end, L->big_endian, false);
	records(sc, w, L->data_offset, end, L->big_endian, true);
	if (L->tracepoints)
		sc_kept(sc, "tracepoint payloads other than words replaced elsewhere (no format parsing yet)");
	sc_kept(sc, "times, addresses, build ids, event names, kernel symbols");
	*out = w;
	*out_len = n;
	return 0;
}

const struct sc_format sc_format_perf = {
	.format = &tfk_format_perf,
	.model_size = sizeof(struct pf_scrub),
	.observer = pf_observer,
	.model_free = pf_free,
	.scrub = pf_scrub,
};
