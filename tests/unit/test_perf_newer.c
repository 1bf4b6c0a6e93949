/* SPDX-License-Identifier: MIT */
/*
 * perf.data as perf 6.2 to 6.19 write it (fixtures written from tools/lib/perf/include/perf/
 * event.h and tools/perf/util/header.h): the newer records and features in either byte order,
 * COMPRESSED2 in file and pipe mode, perf 6.16's overflowed COMPRESSED2 sizes, a zstd stream
 * cut inside a block, the classes of damage perf's 2026 reader refuses, and the repairs of
 * issue 36 (a frame header constant restored, an attr's own size, a spurious feature bit 0,
 * mmap_len 0, a killed recording that never sampled, simpleperf's AUXTRACE feature).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zstd.h>

#include "perf_fixture.h"
#include "repaired.h"

static struct pdw_spec newer_spec(bool be, bool pipe)
{
	struct pdw_spec s = pdw_default_spec();
	s.newer = true;
	s.big_endian = be;
	s.pipe = pipe;
	return s;
}

/* Every newer record and feature, both byte orders, file and pipe mode, VER8 attrs: clean. */
static void test_newer_clean(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct px *x = px_build(newer_spec(k & 1, k & 2));
		px_assert_clean(x, 12);
		px_free(x);
	}
	/* Every feature perf 6.1 writes too, EVENT_DESC holding VER8 attrs. */
	struct pdw_spec s = newer_spec(true, false);
	s.all_features = true;
	struct px *x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);
	/* attr.size beyond VER8 (144, config4 as proposed): read by its size. */
	s = pdw_default_spec();
	s.attr_size = 144;
	x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);
	s.pipe = true;
	s.big_endian = true;
	x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);
}

/* BPF_METADATA (84): prog_name, key and value NUL-terminated, nr_entries fitting the record. */
static void test_bpf_metadata(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct px *x = px_build(newer_spec(be, false));
		const uint64_t r = x->L.bpf_meta;
		memset(x->b.data + r + 8, 'p', 256);
		pcheck(x);
		assert_code_at(&x->r, "perf.record.bad-body", r + 8);
		px_free(x);

		x = px_build(newer_spec(be, false));
		tdw_put64(&x->b, r + 8 + 256, 2, be); /* two entries in room for one */
		pcheck(x);
		assert_code_at(&x->r, "perf.record.bad-body", r + 8 + 256);
		assert_non_null(strstr(find(&x->r, "perf.record.bad-body", r + 8 + 256)->found, "2 of them"));
		assert_int_equal(x->r.stats.events, 12); /* its size was sound: the walk goes on */
		px_free(x);

		x = px_build(newer_spec(be, false));
		memset(x->b.data + r + 8 + 256 + 8 + 64, 'v', 256);
		pcheck(x);
		assert_code_at(&x->r, "perf.record.bad-body", r + 8 + 256 + 8 + 64);
		px_free(x);

		x = px_build(newer_spec(be, false));
		tdw_put16(&x->b, r + 6, 24, be); /* smaller than its fixed fields */
		pcheck(x);
		assert_code_at(&x->r, "perf.record.bad-size", r + 6);
		px_free(x);
	}
}

/* SCHEDSTAT_CPU / _DOMAIN (85, 86): versioned; an unknown version is another perf's, a warning. */
static void test_schedstat(void **state)
{
	(void)state;
	struct px *x = px_build(newer_spec(true, false));
	tdw_put16(&x->b, x->L.sched_cpu + 20, 18, true);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.unknown-type", x->L.sched_cpu + 20);
	assert_errors(&x->r, 0);
	assert_int_equal(x->r.stats.events, 12);
	px_free(x);

	x = px_build(newer_spec(false, false));
	tdw_put16(&x->b, x->L.sched_dom + 6, 16, false); /* below timestamp, cpu, version, domain */
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-size", x->L.sched_dom + 6);
	px_free(x);
}

/* CALLCHAIN_DEFERRED (22): its nr of ips must fit before the sample_id trailer. */
static void test_deferred_callchain(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct px *x = px_build(newer_spec(be, false));
		tdw_put64(&x->b, x->L.deferred + 16, 4, be); /* 4 ips in room for 3 */
		pcheck(x);
		assert_code_at(&x->r, "perf.record.bad-body", x->L.deferred + 16);
		px_free(x);
	}
}

/* CPU_DOMAIN_INFO (32) and E_MACHINE (33). */
static void test_newer_features(void **state)
{
	(void)state;
	struct px *x = px_build(newer_spec(false, false));
	uint64_t dom = 0, em = 0, em_entry = 0;
	for (unsigned i = 0; i < x->L.nfeatures; i++) {
		if (x->L.features[i] == 32)
			dom = x->L.feature_at[i];
		if (x->L.features[i] == 33) {
			em = x->L.feature_at[i];
			em_entry = x->L.feature_table + 16 * i;
		}
	}
	assert_true(dom && em);
	tdw_put32(&x->b, dom + 16, 2, false); /* CPU 0's first domain: 2, with max_sched_domains 2 */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", dom + 16);
	tdw_put32(&x->b, dom + 16, 0, false);
	tdw_put32(&x->b, dom, 14, false); /* a schedstat version perf does not know */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", dom);
	tdw_put32(&x->b, dom, 17, false);
	tdw_put64(&x->b, em_entry + 8, 4, false); /* E_MACHINE of one u32 */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", em);
	px_free(x);
}

/* A record type from a perf newer than this build: a warning naming it, the walk goes on by its size. */
static void test_unknown_future_type(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct px *x = px_build(newer_spec(be, true));
		uint8_t rec[24] = { 0 };
		struct tdw_buf r = { rec, sizeof(rec), sizeof(rec) };
		tdw_put32(&r, 0, 87, be);
		tdw_put16(&r, 6, sizeof(rec), be);
		insert_bytes(&x->b, x->L.data_offset, rec, sizeof(rec));
		pcheck(x);
		assert_code_at(&x->r, "perf.record.unknown-type", x->L.data_offset);
		assert_non_null(strstr(find(&x->r, "perf.record.unknown-type", x->L.data_offset)->found, "type 87"));
		assert_errors(&x->r, 0);
		assert_int_equal(x->r.stats.events, 12);
		px_free(x);
	}
}

/* One record of the validation series' classes, inserted in a pipe: its code at its offset. */
static void bad_record(uint32_t type, const uint8_t *body, size_t n, uint64_t at_in_record)
{
	struct pdw_spec s = pdw_default_spec();
	s.pipe = true;
	struct px *x = px_build(s);
	uint8_t rec[128] = { 0 };
	assert_true(n + 8 <= sizeof(rec) && (n + 8) % 8 == 0);
	struct tdw_buf r = { rec, sizeof(rec), sizeof(rec) };
	tdw_put32(&r, 0, type, false);
	tdw_put16(&r, 6, (uint16_t)(n + 8), false);
	memcpy(rec + 8, body, n);
	insert_bytes(&x->b, x->L.data_offset, rec, n + 8);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-body", x->L.data_offset + at_in_record);
	assert_int_equal(x->r.stats.events, 12);
	px_free(x);
}

/* perf's 2026 reader: nr fields against record sizes, NUL-terminated strings, RANGE_CPUS start > end. */
static void test_validation_series_records(void **state)
{
	(void)state;
	uint8_t b[120];
	/* THREAD_MAP (73): nr 2, one {pid, comm[16]} */
	memset(b, 0, sizeof(b));
	b[0] = 2;
	bad_record(73, b, 8 + 24, 8);
	/* CPU_MAP (74) RANGE_CPUS: type 2, any 0, start 7 > end 3 */
	memset(b, 0, sizeof(b));
	b[0] = 2;
	b[4] = 7;
	b[6] = 3;
	bad_record(74, b, 8, 12);
	/* CPU_MAP CPUS: nr 9 in room for 2 */
	memset(b, 0, sizeof(b));
	b[2] = 9;
	bad_record(74, b, 8, 10);
	/* STAT_CONFIG (75): nr 3, one term */
	memset(b, 0, sizeof(b));
	b[0] = 3;
	bad_record(75, b, 8 + 16, 8);
	/* HEADER_BUILD_ID (67): its file name without a NUL */
	memset(b, 0, sizeof(b));
	memset(b + 28, 'f', 12);
	bad_record(67, b, 40, 36);
	/* NAMESPACES (16, no sample_id in this pipe's one attr? it has one: 24 bytes): nr 7 */
	memset(b, 0, sizeof(b));
	b[8] = 7;
	bad_record(16, b, 16 + 16 + 24, 16);
	/* KSYMBOL (17): a name without a NUL before the 24-byte trailer */
	memset(b, 0, sizeof(b));
	memset(b + 16, 'k', 16);
	bad_record(17, b, 16 + 16 + 24, 24);
	/* CGROUP (19): path without a NUL */
	memset(b, 0, sizeof(b));
	memset(b + 8, 'c', 16);
	bad_record(19, b, 8 + 16 + 24, 16);
	/* TEXT_POKE (20): old_len + new_len past the record */
	memset(b, 0, sizeof(b));
	b[8] = 40;
	b[10] = 40;
	bad_record(20, b, 16 + 24, 16);
}

static uint64_t feature_at(const struct px *x, unsigned bit, uint64_t *entry)
{
	for (unsigned i = 0; i < x->L.nfeatures; i++)
		if (x->L.features[i] == bit) {
			if (entry)
				*entry = x->L.feature_table + 16 * i;
			return x->L.feature_at[i];
		}
	fail_msg("no feature %u", bit);
	return 0;
}

/*
 * perf's 2026 reader, the header side: feature section sizes, f_attr.ids, HEADER_EVENT_DESC's
 * attr size, bitmap sizes, NUL-terminated strings, and a payload decoding past mmap_len.
 */
static void test_validation_series_header(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.all_features = true;
	struct px *x = px_build(s);
	uint64_t entry;
	const uint64_t evdesc = feature_at(x, 12, NULL), mem = feature_at(x, 22, NULL), host = feature_at(x, 3, &entry);
	tdw_put64(&x->b, entry + 8, 1ull << 40, false); /* a feature section past the end of the file */
	pcheck(x);
	assert_code_at(&x->r, "perf.section.out-of-file", entry);
	tdw_put64(&x->b, entry + 8, 68, false);
	memset(x->b.data + host + 4, 'h', 64); /* a string without its NUL */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", host);
	px_free(x);

	x = px_build(s);
	tdw_put32(&x->b, evdesc + 4, 60, false); /* EVENT_DESC attr size below VER0 */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", evdesc + 4);
	px_free(x);

	x = px_build(s);
	tdw_put64(&x->b, mem + 40, 1ull << 40, false); /* MEM_TOPOLOGY: a node bitmap of 2^40 bits */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", mem + 48);
	px_free(x);

	x = px_build(pdw_default_spec());
	tdw_put64(&x->b, x->L.attrs + 128, 1ull << 40, false); /* f_attr.ids past the end of the file */
	pcheck(x);
	assert_code_at(&x->r, "perf.section.out-of-file", x->L.attrs + 128);
	px_free(x);

	/* Decompression overflow: a payload decoding to more than mmap_len (+ a page) is refused. */
	s = pdw_default_spec();
	s.compressed = true;
	s.big = 1;
	x = px_build(s);
	tdw_put32(&x->b, feature_at(x, 27, NULL) + 16, 4096, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.compressed.corrupt", x->L.zrecord[0]);
	assert_non_null(strstr(find(&x->r, "perf.compressed.corrupt", x->L.zrecord[0])->found, "more data"));
	px_free(x);
}

/* COMPRESSED2, one stream over several records, file and pipe mode, both byte orders: clean. */
static void test_compressed2_clean(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct pdw_spec s = newer_spec(k & 1, k & 2);
		s.compressed = s.compressed2 = true;
		s.zrecords = 4;
		s.zsplit_inside = true;
		struct px *x = px_build(s);
		assert_int_equal(tdw_get32(&x->b, x->L.zrecord[1], s.big_endian), 83);
		px_assert_clean(x, 12);
		px_free(x);
	}
}

/* The last payload of a stream cut short (inside a zstd block): its block's records are lost, an error. */
static void test_cut_frame(void **state)
{
	(void)state;
	for (int c2 = 0; c2 < 2; c2++) {
		struct pdw_spec s = pdw_default_spec();
		s.pipe = true;
		s.compressed = true;
		s.compressed2 = c2;
		s.zrecords = 4;
		s.nsamples = 24;
		struct px *x = px_build(s);
		const uint64_t last = x->L.zrecord[3];
		px_assert_clean(x, 24);
		/* 6 bytes of the last payload gone, the sizes made to agree: nothing says so but the stream. */
		const uint16_t size = (uint16_t)(tdw_get32(&x->b, last + 4, false) >> 16);
		if (c2) {
			uint64_t ds = tdw_get64(&x->b, last + 8, false) - 6;
			tdw_put64(&x->b, last + 8, ds, false);
			tdw_put16(&x->b, last + 6, (uint16_t)((16 + ds + 7) / 8 * 8), false);
			x->b.len = last + (16 + ds + 7) / 8 * 8;
		} else {
			tdw_put16(&x->b, last + 6, (uint16_t)(size - 6), false);
			x->b.len = last + size - 6;
		}
		pcheck(x);
		assert_code_at(&x->r, "perf.compressed.corrupt", last);
		assert_non_null(strstr(find(&x->r, "perf.compressed.corrupt", last)->found, "inside a block"));
		assert_true(x->r.stats.events < 24);
		/* Repair keeps what the stream held before the cut record. */
		struct repaired r;
		repaired_run(&x->b, &r);
		assert_repaired_as(&r, x->L.zsamples[2], true);
		repaired_release(&r);
		px_free(x);
	}
}

/* perf 6.16 -z: a blob of COMPRESSED2 records whose first header.size wrapped (KDAB/hotspot#736). */
static void test_c616_overflow(void **state)
{
	(void)state;
	for (int k = 0; k < 6; k++) {
		struct pdw_spec s = pdw_default_spec();
		s.compressed = s.compressed2 = true;
		s.pipe = k & 1;           /* the case: pipe mode */
		s.big_endian = k == 3;
		s.big = 3;                /* about 190 KiB that zstd cannot shrink */
		s.c616_max = k < 4 ? 30000 : 0xffffffu; /* several records, or one that is too large itself */
		s.version = "6.16.1";
		struct px *x = px_build(s);
		const uint64_t blob = x->L.zrecord[0];
		assert_true(x->L.blob_bytes > 65536);
		assert_int_equal(x->L.blob_records, k < 4 ? (x->L.blob_bytes + 30000) / (30000 + 16) : 1);
		pcheck(x);
		assert_code_at(&x->r, "perf.writer.compressed2-size", blob + 6);
		const struct tfk_finding *f = find(&x->r, "perf.writer.compressed2-size", blob + 6);
		assert_int_equal(f->severity, TFK_SEV_WARNING);
		assert_non_null(strstr(f->found, "writer perf 6.16.1"));
		assert_int_equal(count_code(&x->r, "perf.record.overrun"), 0);
		assert_errors(&x->r, 0);
		assert_int_equal(x->r.stats.events, 12);
		/* Repair rewrites the blob as records whose sizes fit; the same samples read back. */
		struct repaired r;
		repaired_run(&x->b, &r);
		assert_repaired_as(&r, 12, true);
		repaired_release(&r);
		px_free(x);
	}
}

/*
 * The other face of the 6.16 overflow: one record of exactly 64 KiB once padded, whose
 * header.size is 0. Its payload is a zstd frame of one raw block (so its length can be chosen):
 * frame header 6 bytes + block header 3 + 65504 bytes of records = 65513, 16 + 65513 padded to
 * 65536. The padding write failed: none follows.
 */
static void test_c616_size_zero(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.pipe = true;
	s.compressed = s.compressed2 = true;
	s.version = "6.16.1";
	struct px *x = px_build(s);
	const uint64_t rec = x->L.zrecord[0];
	const uint64_t zn = tdw_get64(&x->b, rec + 8, false);
	uint8_t *raw = calloc(1, 65504);
	assert_non_null(raw);
	size_t n = ZSTD_decompress(raw, 65504, x->b.data + rec + 16, (size_t)zn);
	assert_false(ZSTD_isError(n));
	assert_true(n % 8 == 0 && n < 65504);
	memset(raw + n, 0, 65504 - n); /* zstd may have used the rest as its work space */
	for (size_t at = n; at < 65504; at += 8) { /* FINISHED_ROUND records to fill the block */
		raw[at] = 68;
		raw[at + 6] = 8;
	}
	struct tdw_buf b = { 0 };
	b.data = malloc(rec + 16 + 65513);
	assert_non_null(b.data);
	b.len = b.cap = rec + 16 + 65513;
	memcpy(b.data, x->b.data, rec);
	tdw_put32(&b, rec, 83, false);
	tdw_put16(&b, rec + 4, 0, false);
	tdw_put16(&b, rec + 6, 0, false);       /* PERF_ALIGN(65529, 8) = 65536, cut to 16 bits */
	tdw_put64(&b, rec + 8, 65513, false);
	uint8_t *z = b.data + rec + 16;
	memcpy(z, "\x28\xb5\x2f\xfd\x00\x38", 6); /* magic, descriptor, window 128 KiB */
	const uint32_t bh = (65504u << 3) | 1;   /* the last block, raw, 65504 bytes */
	z[6] = (uint8_t)bh;
	z[7] = (uint8_t)(bh >> 8);
	z[8] = (uint8_t)(bh >> 16);
	memcpy(z + 9, raw, 65504);
	free(raw);
	tdw_free(&x->b);
	x->b = b;
	pcheck(x);
	assert_code_at(&x->r, "perf.writer.compressed2-size", rec + 6);
	const struct tfk_finding *f = find(&x->r, "perf.writer.compressed2-size", rec + 6);
	assert_int_equal(strncmp(f->found, "0, the size modulo 65536", 24), 0);
	assert_non_null(strstr(f->expected, "header.size 65536"));
	assert_errors(&x->r, 0);
	assert_int_equal(x->r.stats.events, 12);
	struct repaired r;
	repaired_run(&x->b, &r);
	assert_repaired_as(&r, 12, true);
	repaired_release(&r);
	px_free(x);
}

/* The COMPRESSED feature with mmap_len 0: perf decodes nothing ("Couldn't decompress data"). */
static void test_mmap_len_zero(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 3;
	struct px *x = px_build(s);
	uint64_t comp = 0;
	for (unsigned i = 0; i < x->L.nfeatures; i++)
		if (x->L.features[i] == 27)
			comp = x->L.feature_at[i];
	tdw_put32(&x->b, comp + 16, 0, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", comp + 16);
	/* Repair drops it and describes the data again: every sample kept. */
	struct repaired r;
	repaired_run(&x->b, &r);
	assert_repaired_as(&r, 12, true);
	repaired_release(&r);
	px_free(x);
}

/* attr 1's own size damaged, attr_size and the attrs' spacing intact: found at attr 1, fixed. */
static void test_attr_own_size(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct pdw_spec s = pdw_default_spec();
		s.nattrs = 2;
		s.big_endian = be;
		struct px *x = px_build(s);
		const uint64_t at = x->L.attrs + 144 + 4;
		tdw_put32(&x->b, at, 120, be);
		pcheck(x);
		assert_code_at(&x->r, "perf.attr.bad-size", at);
		assert_null(find(&x->r, "perf.attr.bad-size", 16));
		struct repaired r;
		repaired_run(&x->b, &r);
		assert_repaired_as(&r, 12, true);
		assert_int_equal(tdw_get32(&(struct tdw_buf){ r.out, r.len, r.len }, at, be), 128);
		assert_int_equal(r.len, x->b.len);
		repaired_release(&r);
		px_free(x);
	}
}

/* Bit 0 set by damage, no table entry for it: the sections keep their own bits. */
static void test_reserved_bit_no_entry(void **state)
{
	(void)state;
	struct px *x = px_build(pdw_default_spec());
	tdw_put64(&x->b, 72, tdw_get64(&x->b, 72, false) | 1, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.reserved-bit", 72);
	assert_int_equal(count_code(&x->r, "perf.feature.bad-payload"), 0);
	assert_errors(&x->r, 1);
	struct repaired r;
	repaired_run(&x->b, &r);
	assert_repaired_as(&r, 12, true);
	/* The output's first entry is HOSTNAME's, pointing at the host name, and bit 0 is clear. */
	struct tdw_buf o = { r.out, r.len, r.len };
	assert_int_equal(tdw_get64(&o, 72, false) & 1, 0);
	uint64_t table = tdw_get64(&o, 40, false) + tdw_get64(&o, 48, false);
	uint64_t host = tdw_get64(&o, table, false);
	assert_true(host + 4 + 12 <= r.len);
	assert_memory_equal(r.out + host + 4, "fixture-host", 12);
	repaired_release(&r);
	px_free(x);
}

/* The first payload's zstd magic or reserved bit broken: restored, every compressed record kept. */
static void test_frame_header_restored(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct pdw_spec s = pdw_default_spec();
		s.compressed = true;
		s.compressed2 = k >= 2;
		s.zrecords = 4;
		s.nsamples = 24;
		struct px *x = px_build(s);
		const uint64_t payload = x->L.zrecord[0] + (s.compressed2 ? 16 : 8);
		if (k % 2)
			x->b.data[payload + 4] |= 0x08; /* the descriptor's reserved bit */
		else
			x->b.data[payload + 1] ^= 0x40; /* a flipped bit in the magic */
		pcheck(x);
		assert_code_at(&x->r, "perf.compressed.frame-header", payload);
		assert_int_equal(count_code(&x->r, "perf.compressed.corrupt"), 0);
		assert_int_equal(x->r.stats.events, 24);
		struct repaired r;
		repaired_run(&x->b, &r);
		assert_repaired_as(&r, 24, true);
		assert_memory_equal(r.out + payload, "\x28\xb5\x2f\xfd", 4);
		repaired_release(&r);
		px_free(x);
	}
}

/* perf 6.16's blob damaged at its start or in a later record's header: repair keeps exactly what it says it kept. */
static void test_blob_damaged(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct pdw_spec s = pdw_default_spec();
		s.compressed = s.compressed2 = true;
		s.pipe = k & 1;
		s.big = 3;
		s.c616_max = 30000;
		struct px *x = px_build(s);
		/* The first frame's header and first block; or the second record's header (the blob unproven). */
		const uint64_t at = x->L.zrecord[0] + (k < 2 ? 16 + 5 : 16 + 30000);
		memset(x->b.data + at, 0x5a, 24);
		pcheck(x);
		assert_true(x->r.by_severity[TFK_SEV_ERROR] > 0);
		struct repaired r;
		repaired_run(&x->b, &r);
		assert_true(r.rep.outcome == TFK_REPAIR_DONE || r.rep.outcome == TFK_REPAIR_NOTHING_SALVAGED);
		struct tfk_report again;
		tfk_check_buffer(r.out, r.len, fast_limits(), &again);
		assert_int_equal(tfk_report_verdict(&again), TFK_VERDICT_CLEAN);
		assert_int_equal(again.stats.events, r.rep.perf.samples_kept);
		tfk_report_free(&again);
		repaired_release(&r);
		px_free(x);
	}
}

/* The same inside perf 6.16's blob: the constant restored, the blob rewritten, both in the output. */
static void test_frame_header_in_blob(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.compressed = s.compressed2 = true;
	s.big = 3;
	s.c616_max = 30000;
	struct px *x = px_build(s);
	const uint64_t payload = x->L.zrecord[0] + 16;
	x->b.data[payload + 2] ^= 0x01;
	pcheck(x);
	assert_code_at(&x->r, "perf.compressed.frame-header", payload);
	assert_code_at(&x->r, "perf.writer.compressed2-size", x->L.zrecord[0] + 6);
	assert_int_equal(x->r.stats.events, 12);
	struct repaired r;
	repaired_run(&x->b, &r);
	assert_repaired_as(&r, 12, true);
	assert_memory_equal(r.out + payload, "\x28\xb5\x2f\xfd", 4);
	repaired_release(&r);
	px_free(x);
}

/* A killed recording that never sampled, every record kept: a complete repair (exit 1), not "nothing salvaged". */
static void test_killed_without_samples(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.killed = true;
	s.nsamples = 0;
	s.rounds = 0;
	struct px *x = px_build(s);
	struct repaired r;
	repaired_run(&x->b, &r);
	assert_repaired_as(&r, 0, true);
	assert_int_equal(r.rep.perf.records_kept, 4); /* COMM, MMAP, FORK, FINISHED_ROUND */
	repaired_release(&r);
	px_free(x);
}

/* simpleperf's AUXTRACE feature (ETM recordings): {offset, size} pairs without a count. */
static void test_simpleperf_auxtrace(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.simpleperf = true;
	s.sp_auxtrace = true;
	struct px *x = px_build(s);
	pcheck(x);
	assert_int_equal(count_code(&x->r, "perf.feature.bad-payload"), 0);
	assert_errors(&x->r, 0);
	/* A pair pointing past the file is still damage. */
	uint64_t aux = 0;
	for (unsigned i = 0; i < x->L.nfeatures; i++)
		if (x->L.features[i] == 18)
			aux = x->L.feature_at[i];
	tdw_put64(&x->b, aux, 1ull << 40, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", aux);
	px_free(x);
}

/* Every prefix of what perf 6.16+ writes (the truncated-file test of perf's 2026 series): never clean, never a crash. */
static void test_every_prefix_newer(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct pdw_spec s = newer_spec(k & 1, k & 2);
		s.nsamples = 4;
		s.compressed = s.compressed2 = k >= 2;
		s.zrecords = 2;
		struct px *x = px_build(s);
		const size_t full = x->b.len;
		for (size_t n = 8; n < full; n += 5) {
			x->b.len = n;
			pcheck(x);
			/* A pipe has no length: one cut between records is a shorter recording. Inside its
			   compressed records (whose stream is flushed at each of them), it is not. */
			const bool whole = s.pipe && (!s.compressed || n <= x->L.zrecord[0] || n == x->L.zrecord[1]);
			if (!whole && tfk_report_verdict(&x->r) == TFK_VERDICT_CLEAN) {
				dump(&x->r);
				fail_msg("a prefix of %zu of %zu bytes checks clean", n, full);
			}
		}
		px_free(x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newer_clean),
		cmocka_unit_test(test_bpf_metadata),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_deferred_callchain),
		cmocka_unit_test(test_newer_features),
		cmocka_unit_test(test_unknown_future_type),
		cmocka_unit_test(test_validation_series_records),
		cmocka_unit_test(test_validation_series_header),
		cmocka_unit_test(test_compressed2_clean),
		cmocka_unit_test(test_cut_frame),
		cmocka_unit_test(test_c616_overflow),
		cmocka_unit_test(test_c616_size_zero),
		cmocka_unit_test(test_mmap_len_zero),
		cmocka_unit_test(test_attr_own_size),
		cmocka_unit_test(test_reserved_bit_no_entry),
		cmocka_unit_test(test_frame_header_restored),
		cmocka_unit_test(test_frame_header_in_blob),
		cmocka_unit_test(test_blob_damaged),
		cmocka_unit_test(test_killed_without_samples),
		cmocka_unit_test(test_simpleperf_auxtrace),
		cmocka_unit_test(test_every_prefix_newer),
	};
	return cmocka_run_group_tests_name("perf.data 6.2-6.19", tests, NULL, NULL);
}
