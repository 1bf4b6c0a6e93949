/* SPDX-License-Identifier: MIT */
/* perf.data: every code at its offset, both byte orders, pipe mode, compression, the crashers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perf_fixture.h"

static struct px *px_default(void)
{
	return px_build(pdw_default_spec());
}

static void test_fixtures_clean(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	struct px *x = px_build(s);
	px_assert_clean(x, 12);
	assert_string_equal(x->r.stats.format, "perf.data");
	px_free(x);
	s.big_endian = true;
	x = px_build(s);
	px_assert_clean(x, 12);
	assert_string_equal(x->r.stats.format, "perf.data (big-endian)");
	px_free(x);
	s = pdw_default_spec();
	s.pipe = true;
	x = px_build(s);
	px_assert_clean(x, 12);
	assert_string_equal(x->r.stats.format, "perf.data pipe");
	px_free(x);
	s = pdw_default_spec();
	s.compressed = true;
	x = px_build(s);
	px_assert_clean(x, 12); /* the samples inside the zstd block were walked */
	px_free(x);
	s = pdw_default_spec();
	s.nattrs = 2;
	s.big_endian = true;
	x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);
	s = pdw_default_spec();
	s.tracing_data = true;
	x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);
}

/* Every feature perf 6.1 writes, each with a small valid payload, parses. */
static void test_all_features_clean(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.all_features = true;
	s.tracing_data = true;
	struct px *x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);
}

/* BPF_PROG_INFO entries are {u32 info_len, u32 data_len, u64 arrays, info, data} (perf's header.c). */
static void test_bpf_prog_info(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.all_features = true;
	struct px *x = px_build(s);
	uint64_t at = 0, size = 0;
	for (unsigned i = 0; i < x->L.nfeatures; i++)
		if (x->L.features[i] == 25) {
			at = x->L.feature_at[i];
			size = tdw_get64(&x->b, x->L.feature_table + 16 * i + 8, false);
		}
	assert_int_equal(size, 4 + (16 + 20 + 12) + (16 + 28 + 12)); /* the entries end at the section's end */
	px_assert_clean(x, 12);
	/* The second program's data_len runs past the section. */
	tdw_put32(&x->b, at + 4 + 48 + 4, 13, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", at + 4 + 48 + 16 + 28);
	px_free(x);
}

/* perf's own records need not be 8-byte multiples (perf 4.16 pipe mode: a 20-byte CPU_MAP); the kernel's are. */
static void test_user_record_alignment(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.pipe = true;
	struct px *x = px_build(s);
	/* CPU_MAP: u16 type 0 (a list), u16 nr 4, four u16 cpus. */
	static const uint8_t cpu_map[20] = { 74, 0, 0, 0, 0, 0, 20, 0, 0, 0, 4, 0, 0, 0, 1, 0, 2, 0, 3, 0 };
	insert_bytes(&x->b, x->L.data_offset, cpu_map, sizeof(cpu_map));
	px_assert_clean(x, 12);
	/* The same size on a kernel record (LOST, type 2) is damage, and nothing after it can be found. */
	x->b.data[x->L.data_offset] = 2;
	x->b.data[x->L.data_offset + 6] = 28;
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-size", x->L.data_offset + 6);
	px_free(x);
}

/* MMAP2 before Linux 3.16 (RHEL 7's 3.10) has no prot and flags: the name starts at +64. */
static void test_mmap2_layouts(void **state)
{
	(void)state;
	for (unsigned layout = 1; layout <= 2; layout++) {
		struct pdw_spec s = pdw_default_spec();
		s.mmap2 = layout;
		s.big_endian = layout == 2;
		struct px *x = px_build(s);
		px_assert_clean(x, 12);
		/* A name without its NUL is still damage in either layout. */
		memset(x->b.data + x->L.mmap2 + (layout == 1 ? 72 : 64), 'v', 8);
		pcheck(x);
		assert_code_at(&x->r, "perf.record.bad-body", x->L.mmap2 + (layout == 1 ? 72 : 64));
		px_free(x);
	}
}

/* An empty string feature (CPUDESC from perf 3.14 on ARM): perf prints (null) and reads on. */
static void test_empty_string_feature(void **state)
{
	(void)state;
	struct px *x = px_default();
	tdw_put64(&x->b, x->L.feature_table + 8, 0, false); /* HOSTNAME, the first entry, 0 bytes */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.empty", x->L.feature_at[0]);
	assert_errors(&x->r, 0);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
	px_free(x);
}

/*
 * Android's simpleperf (a fixture made from its record_file_format.h and record.h): told by its
 * feature bits, checked where it is perf, reported as its dialect, checked in part.
 */
static void test_simpleperf_dialect(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.simpleperf = true;
	struct px *x = px_build(s);
	assert_int_equal((tdw_get32(&x->b, x->L.sp_tracing + 4, false) >> 16) % 8, 4); /* not 8-aligned */
	pcheck(x);
	assert_code_at(&x->r, "perf.dialect.simpleperf", 72);
	const struct tfk_finding *f = find(&x->r, "perf.dialect.simpleperf", 72);
	assert_non_null(strstr(f->found, "128 FILE, 129 META_INFO"));
	assert_non_null(strstr(f->found, "simpleperf_version 1.build.fixture"));
	assert_non_null(strstr(f->found, "2 records"));
	assert_errors(&x->r, 0);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_INCOMPLETE); /* KERNEL_SYMBOL, FILE skipped */
	assert_int_equal(x->r.stats.events, 12);
	/* What it shares with perf is checked: the tracing data inside its TRACING_DATA record. */
	uint8_t *hp = memmem(x->b.data + x->L.sp_tracing, 200, "header_page", 11);
	assert_non_null(hp);
	hp[0] = 'X';
	pcheck(x);
	assert_true(x->r.by_severity[TFK_SEV_ERROR] > 0);
	assert_int_equal(count_code(&x->r, "perf.record.bad-type"), 0);
	hp[0] = 'h';
	/* A simpleperf record whose 32-bit size runs past the data. */
	tdw_put16(&x->b, x->L.sp_kallsyms + 4, 0x100, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.overrun", x->L.sp_kallsyms);
	tdw_put16(&x->b, x->L.sp_kallsyms + 4, 0, false);
	/* Without simpleperf's feature bits the same records are damage to upstream perf. */
	tdw_put64(&x->b, 88, 0, false);
	pcheck(x);
	assert_int_equal(count_code(&x->r, "perf.dialect.simpleperf"), 0);
	assert_true(x->r.by_severity[TFK_SEV_ERROR] > 0);
	px_free(x);
}

/* Google's internal perf 3.3 pipe output: header features as records of type 66 + bit. */
static void test_google_pipe_dialect(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.pipe = true;
	struct px *x = px_build(s);
	/* hostname (69) as {u32 64, string}, 76 bytes, then NRCPUS (73) {u32, u32}, before the attr. */
	uint8_t rec[76 + 16];
	memset(rec, 0, sizeof(rec));
	rec[0] = 69;
	rec[6] = 76;
	rec[8] = 64;
	memcpy(rec + 12, "sq.example.com", 14);
	rec[76] = 73;
	rec[76 + 6] = 16;
	rec[76 + 8] = 8;
	rec[76 + 12] = 8;
	insert_bytes(&x->b, 16, rec, sizeof(rec));
	pcheck(x);
	assert_code_at(&x->r, "perf.dialect.google-pipe", 16);
	assert_non_null(strstr(find(&x->r, "perf.dialect.google-pipe", 16)->found, "2 header features"));
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
	assert_int_equal(x->r.stats.events, 12);
	/* The feature records are checked as the features they carry: online CPUs above available. */
	x->b.data[16 + 76 + 12] = 9;
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", 16 + 76 + 8);
	px_free(x);
}

static void test_header_codes(void **state)
{
	(void)state;
	struct px *x = px_default();
	x->b.data[3] = 'X'; /* PERXILE2 */
	pcheck(x);
	assert_code_at(&x->r, "perf.header.bad-magic", 0);
	assert_int_equal(x->r.stats.events, 12); /* still checked as perf.data */
	px_free(x);

	x = px_default();
	tdw_put64(&x->b, 8, 100, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.header.bad-size", 8);
	px_free(x);

	x = px_default();
	memcpy(x->b.data, "PERFFILE", 8);
	pcheck(x);
	assert_code_at(&x->r, "perf.header.legacy", 0);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_INCOMPLETE);
	px_free(x);
}

static void test_attr_codes(void **state)
{
	(void)state;
	struct px *x = px_default();
	tdw_put64(&x->b, 16, 152, false); /* attr_size: a VER8 size, but the attr is VER7 */
	pcheck(x);
	assert_code_at(&x->r, "perf.attr.bad-size", 16);
	px_free(x);

	x = px_default();
	tdw_put64(&x->b, 16, 0, false); /* attr_size 0: walked by the attr's own size */
	pcheck(x);
	assert_code_at(&x->r, "perf.attr.bad-size", 16);
	assert_errors(&x->r, 1);
	assert_int_equal(x->r.stats.events, 12);
	px_free(x);

	x = px_default();
	tdw_put32(&x->b, x->L.attrs + 4, 60, false); /* attr.size below VER0 */
	pcheck(x);
	assert_code_at(&x->r, "perf.attr.bad-size", x->L.attrs + 4);
	px_free(x);

	x = px_default();
	tdw_put64(&x->b, 24, 1ull << 40, false); /* attrs.offset past the end */
	pcheck(x);
	assert_code_at(&x->r, "perf.section.out-of-file", 24);
	px_free(x);

	x = px_default();
	tdw_put64(&x->b, x->L.attrs + 128, x->L.attrs, false); /* ids inside the attrs */
	pcheck(x);
	assert_code_at(&x->r, "perf.section.overlap", x->L.attrs);
	px_free(x);
}

static void test_data_codes(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.killed = true;
	struct px *x = px_build(s);
	pcheck(x);
	assert_code_at(&x->r, "perf.data.size-zero", 48);
	assert_int_equal(x->r.stats.events, 12); /* the records are still there and walked */
	assert_errors(&x->r, 1);
	px_free(x);

	/* Cut inside the data: the data section and the feature table run past the end. */
	x = px_default();
	x->b.len = x->L.sample[6] + 20;
	pcheck(x);
	assert_code_at(&x->r, "perf.file.truncated", x->L.data_offset);
	assert_code_at(&x->r, "perf.record.overrun", x->L.sample[6]);
	assert_int_equal(x->r.stats.events, 6);
	px_free(x);
}

/* data.size lost, the records and the feature table perf wrote at exit intact behind them. */
static void test_killed_with_features(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct pdw_spec s = pdw_default_spec();
		s.tracing_data = true;
		s.big_endian = be;
		struct px *x = px_build(s);
		tdw_put64(&x->b, 48, 0, be);
		pcheck(x);
		assert_code_at(&x->r, "perf.data.size-zero", 48);
		assert_non_null(strstr(find(&x->r, "perf.data.size-zero", 48)->found, "feature table"));
		assert_errors(&x->r, 1);
		assert_int_equal(x->r.stats.events, 12);
		/* The features behind the records are checked: HOSTNAME (entry 1, after TRACING_DATA) damaged. */
		tdw_put32(&x->b, x->L.feature_at[1], 4096, be);
		pcheck(x);
		assert_code_at(&x->r, "perf.feature.bad-payload", x->L.feature_at[1]);
		px_free(x);
	}
}

static void test_feature_codes(void **state)
{
	(void)state;
	struct px *x = px_default();
	/* HOSTNAME (second entry) claims a longer string than its section. */
	tdw_put32(&x->b, x->L.feature_at[0], 4096, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", x->L.feature_at[0]);
	px_free(x);

	x = px_default();
	uint64_t bits = 0;
	memcpy(&bits, x->b.data + 72, 8);
	tdw_put64(&x->b, 72, bits | 1, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.reserved-bit", 72);
	px_free(x);

	/* An unknown high bit: its entry is the last of the table. */
	x = px_default();
	tdw_put64(&x->b, 80, 1ull << 8, false); /* bit 72 */
	uint64_t table_end = x->L.feature_table + 16ull * x->L.nfeatures;
	/* The table grows by one entry: move the sections' data? Point it at the HOSTNAME section. */
	struct tdw_buf nb = { 0 };
	nb.data = malloc(x->b.len + 16);
	memcpy(nb.data, x->b.data, table_end);
	tdw_put64(&nb, table_end, x->L.feature_at[0] + 16, false);
	tdw_put64(&nb, table_end + 8, 0, false);
	memcpy(nb.data + table_end + 16, x->b.data + table_end, x->b.len - table_end);
	nb.len = x->b.len + 16;
	for (unsigned i = 0; i < x->L.nfeatures; i++) {
		uint64_t off = tdw_get64(&nb, x->L.feature_table + 16 * i, false);
		tdw_put64(&nb, x->L.feature_table + 16 * i, off + 16, false);
	}
	tdw_put64(&nb, table_end, x->L.feature_at[0] + 16, false);
	tdw_free(&x->b);
	x->b = nb;
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.unknown-bit", x->L.feature_at[0] + 16);
	assert_errors(&x->r, 0);
	px_free(x);
}

static void test_record_codes(void **state)
{
	(void)state;
	struct px *x = px_default();
	tdw_put16(&x->b, x->L.sample[3] + 6, 0, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-size", x->L.sample[3] + 6);
	/* The walk resynchronises on the next plausible record: only sample 3 is lost. */
	assert_non_null(strstr(find(&x->r, "perf.record.bad-size", x->L.sample[3] + 6)->found, "bytes skipped"));
	assert_int_equal(x->r.stats.events, 11);
	px_free(x);

	/* Nothing plausible follows (the rest zeroed): the walk stops there. */
	x = px_default();
	tdw_put16(&x->b, x->L.sample[3] + 6, 0, false);
	memset(x->b.data + x->L.sample[3] + 8, 0, x->L.feature_table - x->L.sample[3] - 8);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-size", x->L.sample[3] + 6);
	assert_int_equal(x->r.stats.events, 3);
	px_free(x);

	/* A size too large for the data in the middle of a pipe: the records after it are found again. */
	struct pdw_spec pipe = pdw_default_spec();
	pipe.pipe = true;
	x = px_build(pipe);
	tdw_put16(&x->b, x->L.sample[5] + 6, 0xfff8, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.overrun", x->L.sample[5]);
	assert_int_equal(x->r.stats.events, 11);
	px_free(x);

	x = px_default();
	tdw_put16(&x->b, x->L.sample[11] + 6, 0x1000, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.overrun", x->L.sample[11]);
	px_free(x);

	x = px_default();
	tdw_put32(&x->b, x->L.sample[2], 50, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.record.unknown-type", x->L.sample[2]);
	assert_errors(&x->r, 0);
	assert_int_equal(x->r.stats.events, 11);
	px_free(x);

	x = px_default();
	tdw_put32(&x->b, x->L.sample[2], 9 | (1u << 22), false); /* a flipped bit in the type */
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-type", x->L.sample[2]);
	assert_int_equal(x->r.stats.events, 11);
	px_free(x);

	/* A record whose sample_id names no attr (two attrs, so the id decides). */
	struct pdw_spec two = pdw_default_spec();
	two.nattrs = 2;
	x = px_build(two);
	tdw_put64(&x->b, x->L.comm + 64 - 8, 4242, false); /* the COMM's IDENTIFIER, last of its 64 bytes */
	pcheck(x);
	assert_code_at(&x->r, "perf.sample.unknown-id", x->L.comm);
	px_free(x);

	x = px_default();
	memset(x->b.data + x->L.comm + 16, 'A', 8); /* comm without its NUL */
	pcheck(x);
	assert_code_at(&x->r, "perf.record.bad-body", x->L.comm + 16);
	px_free(x);
}

static void test_sample_codes(void **state)
{
	(void)state;
	struct px *x = px_default();
	/* callchain nr (after ip, tid, time, cpu, period) far beyond the record */
	tdw_put64(&x->b, x->L.sample[4] + 8 + 40, 1ull << 40, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.sample.overrun", x->L.sample[4]);
	px_free(x);

	struct pdw_spec s = pdw_default_spec();
	s.nattrs = 2;
	x = px_build(s);
	tdw_put64(&x->b, x->L.sample[5] + 8, 999, false); /* IDENTIFIER no attr has */
	pcheck(x);
	assert_code_at(&x->r, "perf.sample.unknown-id", x->L.sample[5]);
	px_free(x);
}

static void test_time_order(void **state)
{
	(void)state;
	/* Rounds of 4 samples at 2000, 2100, ...: a sample in round 3 older than round 1's last. */
	struct px *x = px_default();
	tdw_put64(&x->b, x->L.sample[9] + 8 + 16, 2050, false);
	pcheck(x);
	assert_code_at(&x->r, "perf.time.out-of-order", x->L.sample[9]);
	assert_errors(&x->r, 0);
	px_free(x);

	/* Older than the round before, but not than the one before that: perf still sorts it. */
	x = px_default();
	tdw_put64(&x->b, x->L.sample[9] + 8 + 16, 2450, false);
	pcheck(x);
	assert_int_equal(count_code(&x->r, "perf.time.out-of-order"), 0);
	px_free(x);
}

static void test_compressed_corrupt(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.compressed = true;
	struct px *x = px_build(s);
	uint16_t size = (uint16_t)tdw_get32(&x->b, x->L.compressed + 4, false) >> 16;
	memset(x->b.data + x->L.compressed + 8 + size / 2, 0xa5, 16);
	pcheck(x);
	assert_code_at(&x->r, "perf.compressed.corrupt", x->L.compressed);
	px_free(x);
}

/* perf record -z: one zstd stream over several COMPRESSED records, flushed at each, never ended. */
static void test_compressed_one_stream(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 3;
	struct px *x = px_build(s);
	/* Only the first payload starts a frame: each decoded on its own, the others fail. */
	assert_false(memcmp(x->b.data + x->L.zrecord[1] + 8, "\x28\xb5\x2f\xfd", 4) == 0);
	px_assert_clean(x, 12);
	px_free(x);

	/* Flushed inside records: a payload ends mid-sample, the next one completes it. */
	s.zsplit_inside = true;
	s.big_endian = true;
	x = px_build(s);
	px_assert_clean(x, 12);
	px_free(x);

	/* Damage in the second payload: the first one's samples are walked, the third cannot be decoded. */
	s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 3;
	x = px_build(s);
	uint16_t size = (uint16_t)(tdw_get32(&x->b, x->L.zrecord[1] + 4, false) >> 16);
	memset(x->b.data + x->L.zrecord[1] + 8 + size / 3, 0xa5, 12);
	pcheck(x);
	assert_code_at(&x->r, "perf.compressed.corrupt", x->L.zrecord[1]);
	assert_code_at(&x->r, "perf.compressed.corrupt", x->L.zrecord[2]); /* the stream cannot resume */
	assert_true(x->r.stats.events >= x->L.zsamples[0] && x->r.stats.events < 12);
	px_free(x);

	/* The stream ends inside a record (a -z recording cut after a mid-record flush). */
	s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 2;
	s.zsplit_inside = true;
	s.killed = true;
	x = px_build(s);
	x->b.len = x->L.zrecord[1];
	pcheck(x);
	assert_code_at(&x->r, "perf.record.overrun", x->L.zrecord[0]);
	assert_int_equal(x->r.stats.events, x->L.zsamples[0]);
	px_free(x);
}

/* Exchange two {offset, size} entries of the feature table (after the bits were changed). */
static void swap_entries(struct px *x, unsigned i, unsigned j)
{
	for (unsigned w = 0; w < 16; w += 8) {
		uint64_t a = tdw_get64(&x->b, x->L.feature_table + 16 * i + w, false);
		uint64_t b = tdw_get64(&x->b, x->L.feature_table + 16 * j + w, false);
		tdw_put64(&x->b, x->L.feature_table + 16 * i + w, b, false);
		tdw_put64(&x->b, x->L.feature_table + 16 * j + w, a, false);
	}
}

/* The perf 6.1 crashers of the spec (1.9): each is an ordinary finding here. */
static void test_perf_crashers(void **state)
{
	(void)state;
	/* SIGBUS: a file cut at a page boundary inside the data. */
	struct pdw_spec s = pdw_default_spec();
	s.nsamples = 60;
	struct px *x = px_build(s);
	x->b.len = 4096;
	assert_true(x->L.data_offset + x->L.data_size > 4096);
	pcheck(x);
	assert_code_at(&x->r, "perf.file.truncated", x->L.data_offset);
	px_free(x);

	/* EVENT_DESC with nre 0xffffffff (heap corruption in perf, even with --header-only). */
	uint8_t desc[16];
	struct tdw_buf d = { desc, sizeof(desc), sizeof(desc) };
	tdw_put32(&d, 0, 0xffffffffu, false);
	tdw_put32(&d, 4, 128, false);
	tdw_put64(&d, 8, 0, false);
	x = px_default();
	/* Replace the NRCPUS payload (8 bytes) by EVENT_DESC's first 8 bytes: bit 7 -> 12. */
	uint64_t bits;
	memcpy(&bits, x->b.data + 72, 8);
	tdw_put64(&x->b, 72, (bits & ~(1ull << 7)) | (1ull << 12), false);
	/* Table order by bit: 3, 11, 12, 21: NRCPUS's section moves from entry 1 to entry 2. */
	uint64_t nrcpus = tdw_get64(&x->b, x->L.feature_table + 16, false);
	swap_entries(x, 1, 2);
	memcpy(x->b.data + nrcpus, desc, 8);
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", nrcpus);
	px_free(x);

	/* An oversized BUILD_ID record (a smashed stack in perf): size past its section. */
	x = px_default();
	memcpy(&bits, x->b.data + 72, 8);
	tdw_put64(&x->b, 72, (bits & ~(1ull << 7)) | (1ull << 2), false);
	/* bit 2 sorts first: entries become 2, 3, 11, 21; NRCPUS's 8-byte section moves to the front. */
	uint64_t nro = tdw_get64(&x->b, x->L.feature_table + 16, false);
	swap_entries(x, 0, 1);
	tdw_put16(&x->b, nro + 6, 4000, false); /* the record's size, inside an 8-byte section */
	pcheck(x);
	assert_code_at(&x->r, "perf.feature.bad-payload", nro);
	px_free(x);
}

/* Any prefix of a valid file is not clean (and never crashes). */
static void test_every_prefix(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.nsamples = 4;
	struct px *x = px_build(s);
	size_t full = x->b.len;
	for (size_t n = 8; n < full; n += 7) {
		x->b.len = n;
		pcheck(x);
		assert_int_not_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
	}
	px_free(x);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_fixtures_clean),
	cmocka_unit_test(test_all_features_clean),
	cmocka_unit_test(test_bpf_prog_info),
	cmocka_unit_test(test_user_record_alignment),
	cmocka_unit_test(test_mmap2_layouts),
	cmocka_unit_test(test_empty_string_feature),
	cmocka_unit_test(test_simpleperf_dialect),
	cmocka_unit_test(test_google_pipe_dialect),
	cmocka_unit_test(test_header_codes),
	cmocka_unit_test(test_attr_codes),
	cmocka_unit_test(test_data_codes),
	cmocka_unit_test(test_killed_with_features),
	cmocka_unit_test(test_feature_codes),
	cmocka_unit_test(test_record_codes),
	cmocka_unit_test(test_sample_codes),
	cmocka_unit_test(test_time_order),
	cmocka_unit_test(test_compressed_corrupt),
	cmocka_unit_test(test_compressed_one_stream),
	cmocka_unit_test(test_perf_crashers),
	cmocka_unit_test(test_every_prefix),
};

const struct CMUnitTest *perf_tests(size_t *n)
{
	*n = sizeof(tests) / sizeof(tests[0]);
	return tests;
}
