/* SPDX-License-Identifier: MIT */
/*
 * perf.data repair as real writers leave files: -z recordings (one zstd stream), killed
 * recordings with their features behind the data, attr_size lost, TRACING_DATA rebuilt from
 * its good lines, a record stream resynchronised after an impossible size, honest salvage
 * counts, and good files left alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pdw.h"
#include "repaired.h"
#include "tracedat_helpers.h"

/* What a tfk_write_fn was given, as a string. */
struct text {
	char buf[4096];
	size_t len;
};

static int collect(void *user, const char *bytes, size_t len)
{
	struct text *t = user;
	if (len >= sizeof(t->buf) - t->len)
		return -1;
	memcpy(t->buf + t->len, bytes, len);
	t->len += len;
	t->buf[t->len] = '\0';
	return 0;
}

static void build(struct pdw_spec s, struct tdw_buf *b, struct pdw_layout *L)
{
	assert_int_equal(pdw_build(&s, b, L), 0);
}

/* A damaged -z recording keeps the samples of the payloads before the damage. */
static void test_compressed_stream_damage(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 4;
	s.nsamples = 24;
	struct tdw_buf b;
	struct pdw_layout L;
	build(s, &b, &L);
	uint16_t size = (uint16_t)(tdw_get32(&b, L.zrecord[2] + 4, false) >> 16);
	memset(b.data + L.zrecord[2] + 8 + size / 2, 0x5a, 16);
	struct repaired r;
	repaired_run(&b, &r);
	/* The first two payloads are kept as they are (the small payload fails as a whole: one zstd block). */
	assert_true(L.zsamples[1] > 0);
	assert_repaired_as(&r, L.zsamples[1], false);
	assert_memory_equal(r.out + L.data_offset, b.data + L.data_offset, L.zrecord[2] - L.data_offset);
	repaired_release(&r);
	tdw_free(&b);

	/* A damaged sample inside the third payload: its samples before that one are kept too, decoded. */
	s.bad_callchain = 1 + 15;
	build(s, &b, &L);
	assert_true(L.zsamples[1] < 15 && L.zsamples[2] > 15);
	repaired_run(&b, &r);
	assert_repaired_as(&r, 15, false);
	assert_memory_equal(r.out + L.data_offset, b.data + L.data_offset, L.zrecord[2] - L.data_offset);
	assert_int_equal(tdw_get32(&(struct tdw_buf){ r.out, r.len, r.len }, L.zrecord[2], false), 9); /* a SAMPLE, decoded */
	repaired_release(&r);
	tdw_free(&b);
	s.bad_callchain = 0;

	/* A damaged sample inside the only payload: the samples before it are kept, decoded. */
	s.zrecords = 1;
	s.bad_callchain = 1 + 9;
	build(s, &b, &L);
	repaired_run(&b, &r);
	assert_int_equal(r.rep.perf.samples_kept, 9);
	assert_repaired_as(&r, 9, false);
	/* The salvage report in perf's terms, from the library. */
	struct text t = { .len = 0 };
	assert_int_equal(tfk_repair_report_text(&r.rep, "x.data", collect, &t), 0);
	assert_non_null(strstr(t.buf, "x.data: salvage: kept 9 samples ("));
	assert_int_equal(t.buf[t.len - 1], '\n');
	assert_int_equal(tdw_get32(&(struct tdw_buf){ r.out, r.len, r.len }, L.zrecord[0], false), 3); /* the COMM, decoded */
	repaired_release(&r);
	tdw_free(&b);
	s.zrecords = 4;
	s.bad_callchain = 0;

	/* Killed inside the last payload: the stream up to it is kept, its feature rebuilt. */
	s.killed = true;
	build(s, &b, &L);
	b.len = L.zrecord[3] + 20;
	repaired_run(&b, &r);
	assert_repaired_as(&r, L.zsamples[2], false);
	repaired_release(&r);
	tdw_free(&b);
}

/* data.size lost with the feature table intact behind the records: the table is kept. */
static void test_killed_keeps_features(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.tracing_data = true; /* a tracepoint recording needs HEADER_TRACING_DATA to be read */
	struct tdw_buf b;
	struct pdw_layout L;
	build(s, &b, &L);
	uint8_t *orig = malloc(b.len);
	assert_non_null(orig);
	memcpy(orig, b.data, b.len);
	tdw_put64(&b, 48, 0, false);
	struct repaired r;
	repaired_run(&b, &r);
	assert_repaired_as(&r, 12, false);
	assert_int_equal(r.rep.options_dropped, 0);
	assert_false(r.rep.metadata_lost);
	assert_int_equal(r.len, b.len);
	assert_memory_equal(r.out, orig, b.len); /* the file as perf wrote it */
	repaired_release(&r);
	free(orig);
	tdw_free(&b);
}

/* A bad kallsyms line: HEADER_TRACING_DATA rebuilt from the good lines (the sample e2e test does printk). */
static void test_tracing_data_good_lines(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct pdw_spec s = pdw_default_spec();
		s.tracing_data = true;
		s.big_endian = be;
		struct tdw_buf b;
		struct pdw_layout L;
		build(s, &b, &L);
		uint8_t *p = memmem(b.data, b.len, "fixture_sym1", 12);
		assert_non_null(p);
		p[3] = 0x01;
		struct repaired r;
		repaired_run(&b, &r);
		assert_true(count_code(&r.rep.before, "tracedat.metadata.bad-line") == 1);
		assert_repaired_as(&r, 12, false);
		assert_int_equal(r.rep.options_dropped, 0);
		assert_false(r.rep.metadata_lost);
		assert_true(tdw_get64(&(struct tdw_buf){ r.out, r.len, r.len }, 72, be) & 2); /* TRACING_DATA kept */
		assert_non_null(memmem(r.out, r.len, "fixture_sym0\n", 13));
		assert_null(memmem(r.out, r.len, "fix\x01", 4));
		assert_true(r.len < b.len);
		repaired_release(&r);

		/* Damage that is not a line (a format's size) still drops the feature. */
		p[3] = 't';
		tdw_put64(&b, L.feature_at[0] + 13 + 6 + 12, 1ull << 40, be); /* header_page's size */
		repaired_run(&b, &r);
		assert_int_equal(r.rep.outcome, TFK_REPAIR_DONE);
		assert_int_equal(r.rep.options_dropped, 1);
		assert_false(tdw_get64(&(struct tdw_buf){ r.out, r.len, r.len }, 72, be) & 2);
		repaired_release(&r);
		tdw_free(&b);
	}
}

/* A SAMPLE of size 0 in the middle: the records after it are found again and kept. */
static void test_resync_after_impossible_size(void **state)
{
	(void)state;
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pdw_spec s = pdw_default_spec();
		s.pipe = pipe;
		struct tdw_buf b;
		struct pdw_layout L;
		build(s, &b, &L);
		tdw_put16(&b, L.sample[4] + 6, 0, false);
		struct repaired r;
		repaired_run(&b, &r);
		assert_repaired_as(&r, 11, false);
		assert_int_equal(r.len, b.len - (L.sample[5] - L.sample[4])); /* just that record left out */
		repaired_release(&r);
		tdw_free(&b);
	}
}

/*
 * Resynchronising lands on records, not on the bytes of a sample that look like a HEADER_ATTR
 * header (a branch stack's addresses often do): a HEADER_ATTR whose attr overruns it is not a
 * place to resume, and in a perf.data file it is a fault, since perf script adds its attr and
 * fails with ENOMEM.
 */
static void test_resync_skips_bogus_header_attr(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	struct tdw_buf b;
	struct pdw_layout L;
	build(s, &b, &L);
	const uint64_t fake = L.sample[4] + 8, fake_size = L.sample[5] - fake;
	assert_true(fake_size >= 72 && fake_size < 65536);
	tdw_put16(&b, L.sample[4] + 6, 0, false);       /* sample 4's size impossible */
	tdw_put32(&b, fake, 64, false);                 /* HEADER_ATTR */
	tdw_put16(&b, fake + 4, 0, false);
	tdw_put16(&b, fake + 6, (uint16_t)fake_size, false); /* ends where sample 5 begins */
	tdw_put32(&b, fake + 8, 0, false);              /* attr.type */
	tdw_put32(&b, fake + 12, 0x20000, false);       /* attr.size: far past the record */
	struct repaired r;
	repaired_run(&b, &r);
	assert_repaired_as(&r, 11, false);
	assert_int_equal(r.len, b.len - (L.sample[5] - L.sample[4])); /* sample 4 and the fake left out */
	repaired_release(&r);

	/* The same record walked in its own right (the mmap record rewritten as one): a fault. */
	tdw_put16(&b, L.sample[4] + 6, (uint16_t)(L.sample[5] - L.sample[4]), false);
	const uint16_t mmap_size = (uint16_t)(tdw_get32(&b, L.mmap + 4, false) >> 16);
	assert_true(mmap_size >= 72);
	tdw_put32(&b, L.mmap, 64, false);
	tdw_put32(&b, L.mmap + 12, 0x20000, false);
	struct tfk_report rep;
	tfk_check_buffer(b.data, b.len, fast_limits(), &rep);
	assert_code_at(&rep, "perf.attr.bad-size", L.mmap + 12);
	tfk_report_free(&rep);
	tdw_free(&b);
}

/* The salvage says what was kept and lost; where the bytes are gone, it says so instead of counting. */
static void test_honest_counts(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.nsamples = 60;
	struct tdw_buf b;
	struct pdw_layout L;
	build(s, &b, &L);
	const size_t full = b.len;
	/* Cut 20 bytes into sample 40: 40 kept, the rest of the data not in the file. */
	b.len = L.sample[40] + 20;
	struct repaired r;
	repaired_run(&b, &r);
	assert_repaired_as(&r, 40, false);
	assert_true(r.rep.perf_data);
	assert_int_equal(r.rep.perf.samples_kept, 40);
	assert_int_equal(r.rep.perf.bytes_unread, 20);
	assert_int_equal(r.rep.perf.bytes_missing, L.data_offset + L.data_size - b.len);
	assert_int_equal(r.rep.perf.samples_after_cut, 0);
	assert_int_equal(r.rep.perf.records_kept, 3 + 40 + 39 / 20 + 1); /* comm, mmap, fork; rounds of 20 */
	repaired_release(&r);

	/* A damaged sample left out: counted as left out, the rest kept. */
	b.len = full;
	tdw_put64(&b, L.sample[7] + 8 + 40, 1ull << 40, false);
	repaired_run(&b, &r);
	assert_repaired_as(&r, 59, false);
	assert_int_equal(r.rep.perf.samples_left_out, 1);
	assert_int_equal(r.rep.perf.records_left_out, 1);
	assert_int_equal(r.rep.perf.bytes_missing + r.rep.perf.bytes_unread + r.rep.perf.samples_after_cut, 0);
	repaired_release(&r);
	tdw_free(&b);

	/* A -z stream broken in its second payload: the third cannot be decoded, its samples unknown. */
	s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 3;
	s.nsamples = 30;
	build(s, &b, &L);
	uint16_t zsize = (uint16_t)(tdw_get32(&b, L.zrecord[1] + 4, false) >> 16);
	memset(b.data + L.zrecord[1] + 8 + zsize / 2, 0x5a, 16);
	repaired_run(&b, &r);
	assert_repaired_as(&r, L.zsamples[0], false);
	assert_int_equal(r.rep.perf.bytes_undecodable, (tdw_get32(&b, L.zrecord[2] + 4, false) >> 16) - 8);
	/* Samples the broken payload decoded before the damage were read, but are after the cut. */
	assert_int_equal(r.rep.perf.samples_kept + r.rep.perf.samples_after_cut, r.rep.before.stats.events);
	repaired_release(&r);
	tdw_free(&b);

	/* Cut before the first sample: the output would hold none, which is nothing salvaged (exit 4). */
	build(pdw_default_spec(), &b, &L);
	b.len = L.sample[0] + 4;
	repaired_run(&b, &r);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_SALVAGED);
	assert_int_equal(r.rep.perf.samples_kept, 0);
	assert_int_equal(r.rep.perf.records_kept, 3);
	repaired_release(&r);
	tdw_free(&b);
}

/* A file with no error is never rewritten, even when part of it could not be checked. */
static void test_good_file_left_alone(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct pdw_layout L;
	build(pdw_default_spec(), &b, &L);
	struct tfk_limits lim = *fast_limits();
	lim.max_cpus = 0; /* no room for a single sample id: a limit hit, the check incomplete */
	struct repaired r;
	tfk_repair_buffer(b.data, b.len, &lim, &r.out, &r.len, &r.rep);
	assert_int_equal(tfk_report_verdict(&r.rep.before), TFK_VERDICT_INCOMPLETE);
	assert_int_equal(r.rep.before.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_null(r.out);
	repaired_release(&r);
	/* Another writer's dialect, checked in part: left alone. */
	struct pdw_spec sp = pdw_default_spec();
	sp.simpleperf = true;
	struct tdw_buf spb;
	struct pdw_layout spl;
	build(sp, &spb, &spl);
	repaired_run(&spb, &r);
	assert_int_equal(count_code(&r.rep.before, "perf.dialect.simpleperf"), 1);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	repaired_release(&r);
	tdw_free(&spb);
	/* Warnings alone (a record type perf 6.1 does not know) leave it alone too. */
	tdw_put32(&b, L.sample[2], 50, false);
	repaired_run(&b, &r);
	assert_int_equal(r.rep.before.by_severity[TFK_SEV_WARNING], 1);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	repaired_release(&r);
	tdw_free(&b);
}

/* attr_size zeroed, every attr intact: rebuilt from the attrs' own size fields. */
static void test_attr_size_zero(void **state)
{
	(void)state;
	for (unsigned nattrs = 1; nattrs <= 2; nattrs++) {
		struct pdw_spec s = pdw_default_spec();
		s.nattrs = nattrs;
		struct tdw_buf b;
		struct pdw_layout L;
		build(s, &b, &L);
		tdw_put64(&b, 16, 0, false);
		struct repaired r;
		repaired_run(&b, &r);
		assert_repaired_as(&r, 12, false);
		assert_int_equal(tdw_get64(&(struct tdw_buf){ r.out, r.len, r.len }, 16, false), 128 + 16);
		assert_int_equal(r.len, b.len); /* nothing else changed */
		assert_memory_equal(r.out + 24, b.data + 24, b.len - 24);
		repaired_release(&r);
		/* attrs that disagree with each other prove nothing: perf could not read them either */
		if (nattrs == 2) {
			tdw_put32(&b, L.attrs + 144 + 4, 120, false);
			repaired_run(&b, &r);
			assert_int_equal(r.rep.outcome, TFK_REPAIR_UNSUPPORTED);
			assert_non_null(r.rep.reason);
			assert_null(strstr(r.rep.reason, "page layout"));
			repaired_release(&r);
		}
		tdw_free(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compressed_stream_damage),
		cmocka_unit_test(test_attr_size_zero),
		cmocka_unit_test(test_killed_keeps_features),
		cmocka_unit_test(test_tracing_data_good_lines),
		cmocka_unit_test(test_resync_after_impossible_size),
		cmocka_unit_test(test_resync_skips_bogus_header_attr),
		cmocka_unit_test(test_honest_counts),
		cmocka_unit_test(test_good_file_left_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
