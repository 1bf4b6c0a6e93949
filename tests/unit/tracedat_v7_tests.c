/* SPDX-License-Identifier: MIT */
/*
 * trace.dat v7: sections, the options chain, BUFFER options, none/zstd/zlib data. Each fault
 * damaged into a valid fixture is reported with its code at its offset, and the libtracecmd
 * crashers that apply to v7 (spec 4.7: DONE cycles, BUFFER page size 0, ...) are findings.
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

/* Offsets inside the top BUFFER option's payload (name "", clock "local"). */
#define TOP_PAGE_SIZE 15 /* u64 section, "\0", "local\0" */
#define TOP_COUNT 19
#define TOP_ENTRIES 23
#define OPT_PAYLOAD 6

static struct fx *fx7(int codec)
{
	struct fx *x = fx_new();
	x->spec.version = 7;
	x->spec.codec = codec;
	x->spec.pages_per_cpu = 3;
	x->spec.pages_per_chunk = 2;
	return x;
}

static struct fx *fx7_built(int codec)
{
	struct fx *x = fx7(codec);
	fx_build(x);
	return x;
}

static uint64_t top_entry(const struct fx *x, unsigned cpu)
{
	return x->L.buffer_opt[0] + OPT_PAYLOAD + TOP_ENTRIES + 20ull * cpu;
}

static void test_v7_clean_variants(void **state)
{
	(void)state;
	struct {
		int codec;
		bool be;
		uint8_t long_size;
		const char *instance;
		bool latency;
	} v[] = {
		{ TDW_NONE, false, 8, NULL, false }, { TDW_ZSTD, false, 8, NULL, false }, { TDW_ZLIB, false, 8, NULL, false },
		{ TDW_ZSTD, false, 8, "net", false }, { TDW_NONE, true, 4, "net", false }, { TDW_ZLIB, true, 8, NULL, false },
		{ TDW_ZSTD, false, 8, NULL, true },  { TDW_NONE, false, 8, NULL, true },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct fx *x = fx7(v[i].codec);
		x->spec.big_endian = v[i].be;
		x->spec.long_size = v[i].long_size;
		x->spec.instance = v[i].instance;
		x->spec.instance_pages = 2;
		x->spec.latency = v[i].latency;
		fx_build(x);
		check(&x->b, &x->r);
		if (x->r.total) {
			dump(&x->r);
			fail_msg("v7 variant %zu is not clean", i);
		}
		assert_int_equal(x->r.stats.events, x->L.events);
		fx_free(x);
	}
}

/*
 * A damaged compression name, restored from the data: every compressed block of the options
 * and metadata sections begins with the codec's own magic (zstd's frame magic, a zlib header),
 * so one finding names the field and the file is checked whole. Where the blocks do not agree
 * nothing can be proven: the compressed sections are then left unchecked.
 */
static void test_compression_unknown(void **state)
{
	(void)state;
	const struct {
		int codec;
		const char *damaged, *restored;
	} cases[] = { { TDW_ZSTD, "zsta", "\"zstd\" (restored" }, { TDW_ZLIB, "zlix", "\"zlib\" (restored" } };
	for (size_t i = 0; i < 2; i++) {
		struct fx *x = fx7_built(cases[i].codec);
		memcpy(x->b.data + 18, cases[i].damaged, 4);
		check(&x->b, &x->r);
		const struct tfk_finding *f = find(&x->r, "tracedat.compression.unknown", 18);
		assert_non_null(f);
		assert_non_null(strstr(f->expected, cases[i].restored));
		assert_int_equal(x->r.total, 1);
		assert_false(x->r.incomplete);
		assert_int_equal(x->r.stats.events, x->L.events);
		fx_free(x);
	}
	/* the name and the first metadata block's magic both damaged: the blocks disagree */
	struct fx *x = fx7_built(TDW_ZSTD);
	memcpy(x->b.data + 18, "zsta", 4);
	uint64_t at = 18 + 5 + 6 + 8; /* "zsta\0", the version string "1.5.4\0" as the fixture writes it, the options offset */
	while (at + 28 <= x->b.len && memcmp(x->b.data + at + 24, "\x28\xb5\x2f\xfd", 4) != 0)
		at++;
	assert_true(at + 28 <= x->b.len);
	x->b.data[at + 24] ^= 0xff;
	check(&x->b, &x->r);
	const struct tfk_finding *f = find(&x->r, "tracedat.compression.unknown", 18);
	assert_non_null(f);
	assert_null(strstr(f->expected, "restored"));
	assert_true(x->r.incomplete); /* compressed sections could not be checked */
	fx_free(x);
}

static void test_section_bad_header(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_NONE);
	uint64_t strings = x->L.section[15];
	tdw_put16(&x->b, strings, 26, false); /* unknown id (23-25 are trace-cmd 3.4's; the last section: the walk ends anyway) */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-header", strings);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	uint64_t kallsyms = x->L.section[19];
	tdw_put16(&x->b, kallsyms + 2, 4, false); /* undefined flag bit */
	tdw_put16(&x->b, x->L.section[20] + 2, 1, false); /* compressed flag in a "none" file */
	tdw_put32(&x->b, x->L.section[21] + 4, 100000, false); /* description beyond the strings */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-header", kallsyms + 2);
	assert_code_at(&x->r, "tracedat.section.bad-header", x->L.section[20] + 2);
	assert_code_at(&x->r, "tracedat.section.bad-header", x->L.section[21] + 4);
	fx_free(x);

	/* an OPTIONS section whose size disagrees with its options */
	x = fx7_built(TDW_NONE);
	uint64_t o = x->L.options_sec[1];
	tdw_put64(&x->b, o + 8, tdw_get64(&x->b, o + 8, false) - 1, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-header", o + 8);
	fx_free(x);
}

static void test_section_size_derails_walk(void **state)
{
	(void)state;
	/* KALLSYMS size +3: the walk lands inside the next section; options still reach the rest */
	struct fx *x = fx7_built(TDW_NONE);
	uint64_t k = x->L.section[19];
	tdw_put64(&x->b, k + 8, tdw_get64(&x->b, k + 8, false) + 3, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-header", x->L.section[20] + 3);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

static void test_options_loop(void **state)
{
	(void)state;
	/* libtracecmd recurses until its stack overflows */
	struct fx *x = fx7_built(TDW_ZSTD);
	tdw_put64(&x->b, x->L.done_payload[1], x->L.options_sec[0], false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.loop", x->L.done_payload[1]);
	fx_free(x);

	/* a DONE pointing at its own section */
	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, x->L.done_payload[0], x->L.options_sec[0], false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.loop", x->L.done_payload[0]);
	fx_free(x);
}

static void test_options_bad_target(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_ZSTD);
	uint64_t opt17 = x->L.section_opt[17];
	tdw_put64(&x->b, opt17 + OPT_PAYLOAD, x->L.section[18], false); /* FTRACE_EVENTS -> EVENT_FORMATS */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.bad-target", opt17 + OPT_PAYLOAD);
	fx_free(x);

	x = fx7_built(TDW_ZSTD);
	tdw_put64(&x->b, x->L.options_ptr, x->L.section[19], false); /* header -> KALLSYMS */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.bad-target", x->L.options_ptr);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, x->L.done_payload[0], x->L.section[19] + 100, false); /* into a section body */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.bad-target", x->L.done_payload[0]);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, x->L.buffer_opt[0] + OPT_PAYLOAD, x->L.section[21], false); /* BUFFER -> CMDLINES */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.bad-target", x->L.buffer_opt[0] + OPT_PAYLOAD);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, x->L.options_ptr, 0, false); /* libtracecmd: silent exit 0 */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.bad-target", x->L.options_ptr);
	fx_free(x);
}

static void test_options_missing(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_ZSTD);
	tdw_put16(&x->b, x->L.buffer_opt[0], 99, false); /* the BUFFER option becomes unknown */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.missing", x->L.buffer_sec[0]);
	assert_code_at(&x->r, "tracedat.option.unknown", x->L.buffer_opt[0]);
	fx_free(x);

	x = fx7_built(TDW_ZSTD);
	tdw_put16(&x->b, x->L.section_opt[16], 98, false); /* no HEADER_INFO option */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.missing", x->L.section[16]);
	fx_free(x);
}

static void test_buffer_bad_entry(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_NONE);
	tdw_put32(&x->b, top_entry(x, 1), 0, false); /* cpu1's entry says cpu0 again */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.buffer.bad-entry", top_entry(x, 1));
	fx_free(x);

	x = fx7_built(TDW_ZSTD);
	tdw_put32(&x->b, top_entry(x, 1), 0xffffffffu, false); /* libtracecmd: calloc(2^32) */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.buffer.bad-entry", top_entry(x, 1));
	fx_free(x);

	/* data outside its BUFFER section (inside the file, in another section) */
	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, top_entry(x, 1) + 4, x->L.section[19] & ~4095ull, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.buffer.bad-entry", top_entry(x, 1));
	fx_free(x);

	/* entry count larger than the entries present */
	x = fx7_built(TDW_NONE);
	tdw_put32(&x->b, x->L.buffer_opt[0] + OPT_PAYLOAD + TOP_COUNT, 3, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.buffer.bad-entry", x->L.buffer_opt[0] + OPT_PAYLOAD + TOP_COUNT);
	fx_free(x);

	/* compressed size that disagrees with the chunks */
	x = fx7_built(TDW_ZSTD);
	tdw_put64(&x->b, top_entry(x, 0) + 12, tdw_get64(&x->b, top_entry(x, 0) + 12, false) + 1, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.buffer.bad-entry", top_entry(x, 0) + 12);
	fx_free(x);
}

static void test_instance_page_size_zero(void **state)
{
	(void)state;
	/* an instance BUFFER option with page size 0: SIGFPE in libtracecmd */
	struct fx *x = fx7(TDW_ZSTD);
	x->spec.instance = "net";
	x->spec.instance_pages = 1;
	fx_build(x);
	uint64_t ps = x->L.buffer_opt[1] + OPT_PAYLOAD + 8 + 4 + 6;
	assert_int_equal(tdw_get32(&x->b, ps, false), 4096);
	tdw_put32(&x->b, ps, 0, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.buffer.bad-entry", ps);
	fx_free(x);
}

static void test_compression_corrupt(void **state)
{
	(void)state;
	/* garbage in a zstd chunk */
	struct fx *x = fx7_built(TDW_ZSTD);
	uint64_t chunk = x->L.cpu_chunk[1] + 4;
	for (int i = 0; i < 16; i++)
		x->b.data[chunk + 8 + 4 + i] ^= 0xa5;
	check(&x->b, &x->r);
	if (!find(&x->r, "tracedat.compression.corrupt", chunk) && count_code(&x->r, "tracedat.page.bad-commit") == 0 &&
	    count_code(&x->r, "tracedat.page.bad-event") == 0) {
		dump(&x->r);
		fail_msg("garbage in a zstd chunk went unnoticed");
	}
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CORRUPT);
	fx_free(x);

	/* a broken frame magic */
	x = fx7_built(TDW_ZSTD);
	x->b.data[chunk + 8] ^= 0xff;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.compression.corrupt", chunk);
	fx_free(x);

	/* a metadata block whose declared size is one too many */
	x = fx7_built(TDW_ZLIB);
	uint64_t k = x->L.section[19] + 16;
	tdw_put32(&x->b, k + 4, tdw_get32(&x->b, k + 4, false) + 1, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.compression.corrupt", k);
	fx_free(x);

	/* a chunk whose uncompressed size is not whole pages */
	x = fx7_built(TDW_ZSTD);
	tdw_put32(&x->b, chunk + 4, 8191, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.compression.corrupt", chunk + 4);
	fx_free(x);
}

static void test_findings_inside_decoded_data(void **state)
{
	(void)state;
	struct fx *x = fx7(TDW_ZSTD);
	x->spec.cpu0_commit = 5000;
	fx_build(x);
	check(&x->b, &x->r);
	uint64_t chunk_data = x->L.cpu_chunk[0] + 4 + 8;
	const struct tfk_finding *f = find(&x->r, "tracedat.page.bad-commit", chunk_data);
	if (!f) {
		dump(&x->r);
		fail_msg("no bad-commit at the chunk's data");
	}
	assert_true(f->in_decoded);
	assert_int_equal(f->decoded_offset, 8);
	fx_free(x);
}

static void test_section_overrun(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_NONE);
	uint64_t body = x->L.section[19] + 16;
	tdw_put32(&x->b, body, 5000, false); /* kallsyms text longer than its section */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.overrun", body + 4);
	fx_free(x);
}

static void test_v7_cpu_checks(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_NONE);
	tdw_put32(&x->b, x->L.cpucount_payload, 1, false); /* two entries, CPUCOUNT 1 */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.count-mismatch", x->L.buffer_opt[0] + OPT_PAYLOAD + TOP_COUNT);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, top_entry(x, 1) + 4, x->L.cpu_offset[1] + 8, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.misaligned", x->L.cpu_offset[1] + 8);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, top_entry(x, 1) + 4, x->L.cpu_offset[0], false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.overlap", x->L.cpu_offset[0]);
	fx_free(x);

	x = fx7_built(TDW_NONE);
	tdw_put64(&x->b, top_entry(x, 1) + 4, 1ull << 45, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.out-of-file", top_entry(x, 1));
	fx_free(x);

	/* ring pages are checked the same way as in v6 */
	x = fx7_built(TDW_NONE);
	put_commit(x, x->L.cpu_offset[1] + 4096, 1ull << 29);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.bad-commit", x->L.cpu_offset[1] + 4096 + 8);
	fx_free(x);
}

static void test_v7_truncated_everywhere(void **state)
{
	(void)state;
	int codecs[] = { TDW_NONE, TDW_ZSTD };
	for (size_t c = 0; c < 2; c++) {
		struct fx *x = fx7_built(codecs[c]);
		for (uint64_t cut = 0; cut < x->b.len; cut += cut < 2048 ? 7 : 211) {
			struct tfk_report r;
			tfk_check_buffer(x->b.data, cut, fast_limits(), &r);
			note_raised(&r);
			if (tfk_report_verdict(&r) == TFK_VERDICT_CLEAN)
				fail_msg("v7 file cut at %llu checks clean", (unsigned long long)cut);
			tfk_report_free(&r);
		}
		fx_free(x);
	}
}

static void test_v7_truncated_data(void **state)
{
	(void)state;
	struct fx *x = fx7_built(TDW_ZSTD);
	x->b.len = x->L.cpu_chunk[1] + 30; /* inside CPU1's first chunk: the BUFFER option is lost too */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.file.truncated", x->L.buffer_sec[0] + 16);
	assert_code_at(&x->r, "tracedat.options.bad-target", x->L.done_payload[0]);
	assert_code_at(&x->r, "tracedat.options.missing", x->L.buffer_sec[0]);
	/* CPU0's chunk stream survived whole: its pages are still checked without the option */
	assert_int_equal(x->r.stats.events, x->spec.pages_per_cpu * x->spec.events_per_page);
	fx_free(x);

	/* the same for raw pages: CPUs are told apart where the page timestamps drop */
	x = fx7_built(TDW_NONE);
	x->b.len = x->L.cpu_offset[1] + 2 * 4096 + 100;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.options.missing", x->L.buffer_sec[0]);
	assert_int_equal(x->r.stats.events, 5 * x->spec.events_per_page);
	assert_int_equal(count_code(&x->r, "tracedat.page.time-backwards"), 0);
	fx_free(x);
}

/* spec 4.7 and 7: the libtracecmd crashers and hangs that apply to v7 */
static void test_v7_libtracecmd_crashers(void **state)
{
	(void)state;
	/* uncompressed KALLSYMS size 0xffffffff: SIGSEGV */
	struct fx *x = fx7_built(TDW_NONE);
	tdw_put32(&x->b, x->L.section[19] + 16, 0xffffffffu, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.overrun", x->L.section[19] + 16 + 4);
	fx_free(x);

	/* CPUCOUNT of size 2: a count from leftover heap, hangs in a third of the runs */
	x = fx7(TDW_ZSTD);
	x->spec.extra[0] = (struct tdw_option){ 8, "\x02\x00", 2 };
	x->spec.nextra = 1;
	fx_build(x);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.option.bad-size", x->L.extra[0] + 2);
	fx_free(x);

	/* a huge declared chunk size is a limit, not an allocation */
	x = fx7_built(TDW_ZSTD);
	tdw_put32(&x->b, x->L.cpu_chunk[0] + 4 + 4, 0xfffff000u, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "core.limit.reached", x->L.cpu_chunk[0] + 4 + 4);
	fx_free(x);

	/* a metadata block claiming 4 GiB decoded */
	x = fx7_built(TDW_ZSTD);
	tdw_put32(&x->b, x->L.section[18] + 16 + 4, 0xffffffffu, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "core.limit.reached", x->L.section[18] + 16 + 4);
	fx_free(x);
}

static const struct CMUnitTest v7_tests[] = {
	cmocka_unit_test(test_v7_libtracecmd_crashers),
	cmocka_unit_test(test_v7_clean_variants),
	cmocka_unit_test(test_compression_unknown),
	cmocka_unit_test(test_section_bad_header),
	cmocka_unit_test(test_section_size_derails_walk),
	cmocka_unit_test(test_options_loop),
	cmocka_unit_test(test_options_bad_target),
	cmocka_unit_test(test_options_missing),
	cmocka_unit_test(test_buffer_bad_entry),
	cmocka_unit_test(test_instance_page_size_zero),
	cmocka_unit_test(test_compression_corrupt),
	cmocka_unit_test(test_findings_inside_decoded_data),
	cmocka_unit_test(test_section_overrun),
	cmocka_unit_test(test_v7_cpu_checks),
	cmocka_unit_test(test_v7_truncated_everywhere),
	cmocka_unit_test(test_v7_truncated_data),
};

const struct CMUnitTest *tracedat_v7_tests(size_t *n)
{
	*n = sizeof(v7_tests) / sizeof(v7_tests[0]);
	return v7_tests;
}
