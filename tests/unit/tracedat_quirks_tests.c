/* SPDX-License-Identifier: MIT */
/*
 * trace.dat writer quirks (validate/formats/tracedat/quirks.def) and trace-cmd 3.3/3.4's new
 * structures, each on a real file: a trace.dat recorded with that trace-cmd
 * (tests/data/tracedat, see its README) or the 3.1.6 samples, edited where needed the way the
 * writer in question would have written it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tracedat_helpers.h"

#ifndef TD_WRITERS
#define TD_WRITERS "tests/data/tracedat"
#endif
#ifndef TD_SAMPLES
#define TD_SAMPLES "../shared/samples/tracedat"
#endif

/* A whole file into b; skips the test when it is not there. */
static void load(const char *dir, const char *name, struct tdw_buf *b)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		print_message("no %s\n", path);
		skip();
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	assert_true(n > 0);
	b->data = malloc((size_t)n);
	assert_non_null(b->data);
	assert_int_equal(fread(b->data, 1, (size_t)n, f), (size_t)n);
	b->len = b->cap = (size_t)n;
	fclose(f);
}

static void check_path(const char *dir, const char *name, struct tfk_report *r)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	memset(r, 0, sizeof(*r));
	tfk_check_file(path, fast_limits(), r);
	note_raised(r);
}

/* The BUFFER option of instance name (a v7 file): where its CPU entries start, and how many. */
static uint64_t buffer_entries(const struct tdw_buf *b, const char *name, uint32_t *n)
{
	char key[80];
	size_t klen = (size_t)snprintf(key, sizeof(key), "%s%clocal%c", name, 0, 0);
	for (size_t i = 0; i + klen + 8 <= b->len; i++) {
		if (memcmp(b->data + i, key, klen) == 0) {
			*n = tdw_get32(b, i + klen + 4, false);
			return i + klen + 8;
		}
	}
	fail_msg("no BUFFER option for %s", name);
	return 0;
}

/* The first offset of needle in b at or after from. */
static uint64_t find_bytes(const struct tdw_buf *b, uint64_t from, const void *needle, size_t n)
{
	for (uint64_t i = from; i + n <= b->len; i++)
		if (memcmp(b->data + i, needle, n) == 0)
			return i;
	fail_msg("bytes not found");
	return 0;
}

/* The v7 sections, from the first one after the initial header to the end of the file. */
static uint64_t first_section(const struct tdw_buf *b)
{
	uint64_t pos = 10; /* magic, "tracing" */
	pos += strlen((const char *)b->data + pos) + 1; /* "7" */
	pos += 1 + 1 + 4;                               /* endian, long size, page size */
	pos += strlen((const char *)b->data + pos) + 1; /* codec name */
	pos += strlen((const char *)b->data + pos) + 1; /* codec version */
	return pos + 8;                                 /* first options offset */
}

/*
 * trace-cmd 3.2 and later count the 4-byte chunk count in a compressed CPU's size; 3.0 to 3.1
 * did not. A real 3.2 file is clean without a note; its sizes made 4 smaller (3.1's form) give
 * the note once; a real 3.1.6 sample names its writer; a size that is neither is an error.
 */
static void test_quirk_buffer_size_forms(void **state)
{
	(void)state;
	struct tdw_buf b = { 0 };
	struct tfk_report r;
	load(TD_WRITERS, "tc3.2-extract.v7zstd.dat", &b);
	check(&b, &r);
	assert_int_equal(r.total, 0);
	assert_int_equal(r.stats.events, 4684);
	tfk_report_free(&r);

	uint32_t n;
	uint64_t e = buffer_entries(&b, "tfk3.2", &n);
	assert_int_equal(n, 2);
	for (uint32_t c = 0; c < n; c++)
		tdw_put64(&b, e + 20ull * c + 12, tdw_get64(&b, e + 20ull * c + 12, false) - 4, false);
	check(&b, &r);
	assert_code_at(&r, "tracedat.writer.buffer-size-without-count", e + 12);
	assert_int_equal(count_code(&r, "tracedat.writer.buffer-size-without-count"), 1);
	assert_non_null(strstr(find(&r, "tracedat.writer.buffer-size-without-count", e + 12)->found, "3.2.0"));
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(r.stats.events, 4684);
	tfk_report_free(&r);

	/* Genuinely wrong: one more than 3.2's form. */
	tdw_put64(&b, e + 12, tdw_get64(&b, e + 12, false) + 5, false);
	check(&b, &r);
	assert_code_at(&r, "tracedat.buffer.bad-entry", e + 12);
	tfk_report_free(&r);
	free(b.data);

	check_path(TD_SAMPLES, "sched-irq.v7zstd.dat", &r);
	const struct tfk_finding *f = NULL;
	for (size_t i = 0; i < r.count && !f; i++)
		if (strcmp(r.findings[i].fault->id, "tracedat.writer.buffer-size-without-count") == 0)
			f = &r.findings[i];
	if (f) /* the samples folder is optional */
		assert_non_null(strstr(f->found, "3.1.6"));
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	tfk_report_free(&r);
}

/*
 * trace-cmd 3.3.1 on big-endian machines: every compressed section says it decodes to 0 bytes,
 * every CPU stream has a chunk count of 0 and chunks whose two sizes are 0. A real 3.3.1 file
 * edited so: the quirk is named once, every event is still walked, and repair writes a file
 * that checks clean with all of them.
 */
static void test_quirk_zero_compression_sizes(void **state)
{
	(void)state;
	struct tdw_buf b = { 0 };
	struct tfk_report r;
	load(TD_WRITERS, "tc3.3.1-extract.v7zstd.dat", &b);
	uint64_t first = 0, pos = first_section(&b);
	while (pos + 16 <= b.len) {
		uint16_t id = (uint16_t)(b.data[pos] | b.data[pos + 1] << 8), flags = (uint16_t)(b.data[pos + 2] | b.data[pos + 3] << 8);
		uint64_t size = tdw_get64(&b, pos + 8, false);
		if ((flags & 1) && id != 3) {
			tdw_put32(&b, pos + 16 + 4, 0, false);
			if (!first)
				first = pos + 16 + 4;
		}
		pos += 16 + size;
	}
	assert_int_equal(pos, b.len);
	uint32_t n;
	uint64_t e = buffer_entries(&b, "tfk3.3.1", &n);
	for (uint32_t c = 0; c < n; c++) {
		uint64_t off = tdw_get64(&b, e + 20ull * c + 4, false), size = tdw_get64(&b, e + 20ull * c + 12, false);
		if (!size)
			continue;
		uint32_t chunks = tdw_get32(&b, off, false);
		tdw_put32(&b, off, 0, false);
		uint64_t at = off + 4;
		for (uint32_t k = 0; k < chunks; k++) {
			uint32_t z = tdw_get32(&b, at, false);
			tdw_put32(&b, at, 0, false);
			tdw_put32(&b, at + 4, 0, false);
			at += 8ull + z;
		}
		assert_int_equal(at, off + size); /* 3.2+'s size form: the count included */
	}
	check(&b, &r);
	assert_code_at(&r, "tracedat.writer.zero-compression-sizes", first);
	assert_int_equal(count_code(&r, "tracedat.writer.zero-compression-sizes"), 1);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(r.stats.events, 1161);
	tfk_report_free(&r);

	uint8_t *out = NULL;
	size_t out_len = 0;
	struct tfk_repair_report rep;
	memset(&rep, 0, sizeof(rep));
	tfk_repair_buffer(b.data, b.len, fast_limits(), &out, &out_len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_non_null(out);
	assert_int_equal(rep.after.total, 0);
	assert_int_equal(rep.after.stats.events, 1161);
	note_raised(&rep.after);
	tfk_repair_report_free(&rep);
	free(out);
	free(b.data);
}

/* trace-cmd 3.4's convert to v6 copies the BTF_FILE option of its input into the v6 file. */
static void test_quirk_v6_section_option(void **state)
{
	(void)state;
	struct tfk_report r;
	check_path(TD_WRITERS, "tc3.4-convert.v6.dat.xz", &r);
	assert_code_at(&r, "tracedat.writer.v6-section-option", 0x191e7);
	assert_int_equal(count_code(&r, "tracedat.option.unknown"), 0);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(r.stats.events, 4007);
	tfk_report_free(&r);
}

/*
 * trace-cmd 3.4's convert to v7 copies the BTF_FILE option with the input's section offset:
 * 3.4 then reads nothing. Named as the writer's, not bad-target; repair leaves the option out.
 */
static void test_quirk_stale_section_option(void **state)
{
	(void)state;
	struct tdw_buf b = { 0 };
	struct tfk_report r;
	load(TD_WRITERS, "tc3.4-convert.v7zlib.dat", &b);
	check(&b, &r);
	assert_code_at(&r, "tracedat.writer.stale-section-option", 0x545f);
	assert_int_equal(count_code(&r, "tracedat.options.bad-target"), 0);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	tfk_report_free(&r);

	uint8_t *out = NULL;
	size_t out_len = 0;
	struct tfk_repair_report rep;
	memset(&rep, 0, sizeof(rep));
	tfk_repair_buffer(b.data, b.len, fast_limits(), &out, &out_len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(count_code(&rep.after, "tracedat.writer.stale-section-option"), 0);
	assert_int_equal(rep.after.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(rep.after.stats.events, 4007);
	tfk_repair_report_free(&rep);
	free(out);
	free(b.data);
}

/*
 * trace-cmd 3.4's new structures on its own file: the BTF_FILE section (id 23) is decoded and
 * its header checked; a LAST_BOOT_INFO option (24, "instance:...") is a note, not a fault; a
 * sub-buffer instance in a compressed file is noted and walked with its 8 KiB pages.
 */
static void test_tracecmd34_structures(void **state)
{
	(void)state;
	struct tdw_buf b = { 0 };
	struct tfk_report r;
	load(TD_WRITERS, "tc3.4-extract.v7zstd.dat", &b);
	check(&b, &r);
	assert_int_equal(r.total, 1);
	assert_int_equal(count_code(&r, "tracedat.buffer.subbuf-compressed"), 1);
	assert_int_equal(r.stats.events, 4007);
	tfk_report_free(&r);

	/* A CPUSTAT option ("CPU: 0\nentries: ...") turned into LAST_BOOT_INFO: instance "CPU". */
	struct tdw_buf lb = { malloc(b.len), b.len, b.len };
	memcpy(lb.data, b.data, b.len);
	uint64_t stat = find_bytes(&lb, 0, "CPU: 0\n", 7) - 6;
	assert_int_equal(lb.data[stat], 2);
	tdw_put16(&lb, stat, 24, false);
	check(&lb, &r);
	assert_code_at(&r, "tracedat.option.last-boot", stat);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR] + r.by_severity[TFK_SEV_WARNING], 0);
	assert_int_equal(r.stats.events, 4007);
	tfk_report_free(&r);
	free(lb.data);

	/* The 25-byte BTF's first bytes are zstd literals (magic 0xeb9f, version 1, header 24): damaged. */
	static const uint8_t btf[] = { 0x9f, 0xeb, 0x01, 0x00, 0x18, 0x00 };
	uint64_t at = find_bytes(&b, 0, btf, sizeof(btf));
	b.data[at] = 0x00;
	check(&b, &r);
	assert_int_equal(count_code(&r, "tracedat.btf.bad-header"), 1);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	tfk_report_free(&r);
	free(b.data);
}


/*
 * trace-cmd attach (3.2) appends to a recorded file in place: it points the last OPTIONS
 * section's DONE at the end of the file and writes a new OPTIONS section there (TSC2NSEC,
 * TIME_SHIFT, GUEST). A real 3.2 file so extended is clean; one whose attach was cut off (the
 * DONE updated, the new section cut short) is a truncation, with every event still walked.
 */
static void test_attach_trailing_options(void **state)
{
	(void)state;
	struct tdw_buf b = { 0 };
	struct tfk_report r;
	load(TD_WRITERS, "tc3.2-extract.v7zstd.dat", &b);
	uint64_t pos = first_section(&b), last_opts = 0, last_size = 0;
	while (pos + 16 <= b.len) {
		uint64_t size = tdw_get64(&b, pos + 8, false);
		if (b.data[pos] == 0 && b.data[pos + 1] == 0) {
			last_opts = pos;
			last_size = size;
		}
		pos += 16 + size;
	}
	assert_true(last_opts != 0);
	uint64_t done = last_opts + 16 + last_size - 14;
	assert_int_equal(tdw_get32(&b, done, false) & 0xffff, 0); /* DONE, 8 bytes, next 0 */
	assert_int_equal(tdw_get64(&b, done + 6, false), 0);

	uint64_t end = b.len, body = 6 + 16 + 14;
	b.data = realloc(b.data, end + 16 + body);
	assert_non_null(b.data);
	b.len = b.cap = end + 16 + body;
	memcpy(b.data + end, b.data + last_opts, 8); /* id 0, flags, the "options" description */
	tdw_put64(&b, end + 8, body, false);
	uint64_t o = end + 16;
	tdw_put16(&b, o, 14, false); /* TSC2NSEC: mult, shift, offset */
	tdw_put32(&b, o + 2, 16, false);
	tdw_put32(&b, o + 6, 1, false);
	tdw_put32(&b, o + 10, 0, false);
	tdw_put64(&b, o + 14, 0, false);
	tdw_put16(&b, o + 22, 0, false); /* DONE, next 0 */
	tdw_put32(&b, o + 24, 8, false);
	tdw_put64(&b, o + 28, 0, false);
	tdw_put64(&b, done + 6, end, false);
	check(&b, &r);
	if (r.total) {
		dump(&r);
		fail_msg("a file extended by attach is not clean");
	}
	assert_int_equal(r.stats.events, 4684);
	tfk_report_free(&r);

	b.len = end + 16 + 10; /* attach cut off inside its options */
	check(&b, &r);
	assert_true(r.by_severity[TFK_SEV_ERROR] > 0);
	assert_code_at(&r, "tracedat.file.truncated", end + 16);     /* the section's body */
	assert_code_at(&r, "tracedat.file.truncated", end + 16 + 6); /* the TSC2NSEC payload */
	assert_int_equal(r.stats.events, 4684);
	tfk_report_free(&r);
	free(b.data);
}

/*
 * A recording cut off while it wrote an instance's compressed data (trace-cmd before 3.3.1
 * stops so after a CPU of over 2 GB, "did not match size"; any interrupted record does too):
 * the BUFFER section's size still 0, zero padding to the page-aligned chunks, the file ending
 * after them, no BUFFER option and the previous DONE still 0. A real 3.2 file cut so: the zeros
 * are one finding (not an empty OPTIONS section every 16 bytes), the data is found and walked,
 * and repair keeps every event.
 */
static void test_cut_off_buffer_write(void **state)
{
	(void)state;
	struct tdw_buf b = { 0 };
	struct tfk_report r;
	load(TD_WRITERS, "tc3.2-extract.v7zstd.dat", &b);
	uint64_t pos = first_section(&b), prev_opts = 0, opts = 0, buf = 0;
	while (pos + 16 <= b.len) {
		uint64_t size = tdw_get64(&b, pos + 8, false);
		if (b.data[pos] == 0 && b.data[pos + 1] == 0) {
			prev_opts = opts;
			opts = pos;
		}
		if (b.data[pos] == 3 && size)
			buf = pos;
		pos += 16 + size;
	}
	assert_true(buf > prev_opts && prev_opts);
	uint64_t opts_before = 0; /* the OPTIONS section just before the instance's buffer */
	for (pos = first_section(&b); pos < buf; pos += 16 + tdw_get64(&b, pos + 8, false))
		if (b.data[pos] == 0 && b.data[pos + 1] == 0)
			opts_before = pos;
	uint64_t done = opts_before + 16 + tdw_get64(&b, opts_before + 8, false) - 14;
	tdw_put64(&b, done + 6, 0, false);
	b.len = buf + 16 + tdw_get64(&b, buf + 8, false);
	tdw_put64(&b, buf + 8, 0, false);
	check(&b, &r);
	assert_int_equal(count_code(&r, "tracedat.section.bad-header"), 1);
	assert_code_at(&r, "tracedat.options.missing", buf);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 2);
	assert_int_equal(r.stats.events, 4684);
	tfk_report_free(&r);

	uint8_t *out = NULL;
	size_t out_len = 0;
	struct tfk_repair_report rep;
	memset(&rep, 0, sizeof(rep));
	tfk_repair_buffer(b.data, b.len, fast_limits(), &out, &out_len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(rep.after.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(rep.after.stats.events, 4684);
	tfk_repair_report_free(&rep);
	free(out);
	free(b.data);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_quirk_buffer_size_forms),
	cmocka_unit_test(test_quirk_zero_compression_sizes),
	cmocka_unit_test(test_quirk_v6_section_option),
	cmocka_unit_test(test_quirk_stale_section_option),
	cmocka_unit_test(test_tracecmd34_structures),
	cmocka_unit_test(test_attach_trailing_options),
	cmocka_unit_test(test_cut_off_buffer_write),
};

const struct CMUnitTest *tracedat_quirks_tests(size_t *n)
{
	*n = sizeof(tests) / sizeof(tests[0]);
	return tests;
}
