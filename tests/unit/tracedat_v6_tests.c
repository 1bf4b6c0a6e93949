/* SPDX-License-Identifier: MIT */
/*
 * trace.dat v6: each fault damaged into an otherwise valid fixture must be reported with its
 * code at its offset; several independent faults in one file are all reported; the crashers
 * of libtracecmd 3.1.6 (spec 4.7) are ordinary findings here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared/ftrace/sandbox.h"
#include "tdw_emit.h"
#include "test_hooks.h"
#include "tracedat_helpers.h"

/* ---- valid files check clean ---- */

static void test_clean_variants(void **state)
{
	(void)state;
	struct {
		bool be;
		uint8_t long_size;
		uint32_t page;
		const char *instance;
		bool cpucount;
	} v[] = {
		{ false, 8, 4096, NULL, true },  { true, 8, 4096, NULL, true },   { false, 4, 4096, NULL, false },
		{ true, 4, 8192, NULL, true },   { false, 8, 65536, NULL, true }, { false, 8, 4096, "net", true },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct fx *x = fx_new();
		x->spec.big_endian = v[i].be;
		x->spec.long_size = v[i].long_size;
		x->spec.page_size = v[i].page;
		x->spec.instance = v[i].instance;
		x->spec.instance_pages = 1;
		x->spec.cpucount_option = v[i].cpucount;
		fx_build(x);
		check(&x->b, &x->r);
		if (x->r.total != 0) {
			dump(&x->r);
			fail_msg("variant %zu is not clean", i);
		}
		assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
		assert_int_equal(x->r.stats.events, x->L.events);
		assert_int_equal(x->r.stats.buffers, v[i].instance ? 2 : 1);
		fx_free(x);
	}
}

static void test_latency_file_is_clean(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.latency = true;
	fx_build(x);
	check(&x->b, &x->r);
	assert_int_equal(x->r.total, 0);
	fx_free(x);
}

/* ---- initial header ---- */

static void test_bad_magic(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.data[1] = 0x09;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.header.bad-magic", 0);
	assert_errors(&x->r, 1); /* the rest of the file is still walked and clean */
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

static void test_not_a_trace(void **state)
{
	(void)state;
	static const uint8_t elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	struct tfk_report r;
	tfk_check_buffer(elf, sizeof(elf), NULL, &r);
	note_raised(&r);
	assert_int_equal(r.count, 1);
	assert_string_equal(r.findings[0].fault->id, "core.input.unrecognised");
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
	tfk_check_buffer(NULL, 0, NULL, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
	tfk_check_file("/nonexistent/trace.dat", NULL, &r);
	note_raised(&r);
	assert_string_equal(r.findings[0].fault->id, "core.input.io-error");
	assert_false(r.findings[0].has_offset);
	tfk_report_free(&r);
}

static void test_bad_version(void **state)
{
	(void)state;
	const char *bad[] = { "9", "x", "5" };
	for (size_t i = 0; i < 3; i++) {
		struct fx *x = fx_default();
		x->b.data[x->L.version] = (uint8_t)bad[i][0];
		check(&x->b, &x->r);
		assert_code_at(&x->r, "tracedat.header.bad-version", 10);
		assert_errors(&x->r, 1);
		fx_free(x);
	}
}

static void test_bad_endian_is_inferred(void **state)
{
	(void)state;
	for (int be = 0; be <= 1; be++) {
		struct fx *x = fx_new();
		x->spec.big_endian = be;
		fx_build(x);
		x->b.data[12] = 7;
		check(&x->b, &x->r);
		assert_code_at(&x->r, "tracedat.header.bad-endian", 12);
		assert_errors(&x->r, 1);
		assert_int_equal(x->r.stats.events, x->L.events);
		fx_free(x);
	}
}

static void test_bad_long_size(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.data[13] = 3;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.header.bad-long-size", 13);
	assert_errors(&x->r, 1);
	fx_free(x);
}

static void test_bad_page_size(void **state)
{
	(void)state;
	/* 0 crashes libtracecmd with SIGFPE; 4097 is not a power of two; 8192 disagrees with header_page */
	uint32_t bad[] = { 0, 4097, 8192, 0xffffffffu };
	for (size_t i = 0; i < 4; i++) {
		struct fx *x = fx_default();
		tdw_put32(&x->b, 14, bad[i], false);
		check(&x->b, &x->r);
		assert_code_at(&x->r, "tracedat.header.bad-page-size", 14);
		/* header_page proves 4096, so the pages are still walked correctly */
		assert_errors(&x->r, 1);
		assert_int_equal(x->r.stats.events, x->L.events);
		fx_free(x);
	}
}

/* ---- metadata ---- */

static void test_header_page_invalid(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	char *t = strstr((char *)x->b.data + x->L.header_page_text, "size:8;\tsigned:1");
	assert_non_null(t);
	t[5] = '5'; /* commit size 5 */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.header-page.invalid", x->L.header_page_text);
	assert_errors(&x->r, 1); /* the long size byte still gives the page layout */
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

static void test_header_event_invalid(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	char *t = strstr((char *)x->b.data + x->L.header_event_text, "type == 29");
	t[9] = '8';
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.header-event.invalid", x->L.header_event_text);
	assert_errors(&x->r, 0);
	fx_free(x);
}

/* Kernels before 4.17 print no time_stamp line (type 31 was never written then): that is no fault. */
static void test_header_event_of_older_kernels(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	char *t = strstr((char *)x->b.data + x->L.header_event_text, "\ttime_stamp : type == 31\n");
	assert_non_null(t);
	memset(t, ' ', strlen("\ttime_stamp : type == 31\n"));
	check(&x->b, &x->r);
	assert_int_equal(x->r.count, 0);
	fx_free(x);

	/* a time_stamp line that names another type is still wrong */
	x = fx_default();
	t = strstr((char *)x->b.data + x->L.header_event_text, "time_stamp : type == 31");
	t[strlen("time_stamp : type == 3")] = '0';
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.header-event.invalid", x->L.header_event_text);
	fx_free(x);
}

static void test_bad_tags(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.data[x->L.header_page_tag + 3] = 'X';
	x->b.data[x->L.header_event_tag] = 'H';
	x->b.data[x->L.flyrecord_tag + 2] = 'Y';
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-tag", x->L.header_page_tag);
	assert_code_at(&x->r, "tracedat.section.bad-tag", x->L.header_event_tag);
	assert_code_at(&x->r, "tracedat.section.bad-tag", x->L.flyrecord_tag);
	assert_errors(&x->r, 3);
	assert_int_equal(x->r.stats.events, x->L.events); /* each damaged tag is walked past */
	fx_free(x);
}

static void test_unknown_tag_after_options_resyncs(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	memcpy(x->b.data + x->L.flyrecord_tag, "garbage!!\0", 10);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-tag", x->L.flyrecord_tag);
	fx_free(x);
}

static void test_truncated_everywhere(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	/* Every cut must give a truncation finding, never a crash, and never "clean". */
	uint64_t full = x->b.len;
	for (uint64_t cut = 0; cut < full; cut += (cut < x->L.flyrecord_tag + 64 ? 1 : 509)) {
		struct tfk_report r;
		tfk_check_buffer(x->b.data, cut, fast_limits(), &r);
		note_raised(&r);
		if (tfk_report_verdict(&r) == TFK_VERDICT_CLEAN)
			fail_msg("file cut at %llu checks clean", (unsigned long long)cut);
		tfk_report_free(&r);
	}
	fx_free(x);
}

static void test_truncated_cpu_data(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.len = page_at(x, 1, 1) + 100; /* cut inside CPU1's second page */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.file.truncated", x->L.cpu_offset[1]);
	assert_errors(&x->r, 1);
	/* all whole pages before the cut are still walked, and what the cut left of the next one:
	 * its events wholly inside the 100 bytes count, and the cut raises nothing more */
	assert_int_equal(x->r.stats.pages, 4);
	assert_int_equal(x->r.stats.events, 3 * x->spec.events_per_page + tdw_events_within(&x->spec, 100));
	assert_int_equal(x->r.total, 1);
	fx_free(x);
}

static void test_truncated_blob_resyncs(void **state)
{
	(void)state;
	/* kallsyms size 0xffffffff overflows libtracecmd's heap; here it is a truncation finding,
	 * and the walk resumes at the options tag so the CPU data is still checked. */
	struct fx *x = fx_default();
	tdw_put32(&x->b, x->L.kallsyms_size, 0xffffffffu, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.file.truncated", x->L.kallsyms_size + 4);
	assert_errors(&x->r, 1);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

/* ---- options ---- */

static void test_option_rules(void **state)
{
	(void)state;
	static const uint8_t guest_neg[] = { 'g', 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0 };
	static const uint8_t tsc_shift[16] = { 1, 0, 0, 0, 40, 0, 0, 0 };
	static const uint8_t time_shift[20] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0, 0, 0 };
	struct {
		struct tdw_option opt;
		const char *code;
		int at_size; /* 1: finding at the size field, 0: at the payload */
	} cases[] = {
		{ { 2, "", 0 }, "tracedat.option.bad-payload", 0 },             /* CPUSTAT size 0: SIGSEGV */
		{ { 10, "", 0 }, "tracedat.option.bad-payload", 0 },            /* PROCMAPS size 0: SIGSEGV */
		{ { 6, "nonsense", 9 }, "tracedat.option.bad-payload", 0 },     /* malformed HOOK: NULL deref */
		{ { 13, guest_neg, sizeof(guest_neg) }, "tracedat.option.bad-payload", -1 }, /* vCPU -1 */
		{ { 1, "yesterday", 10 }, "tracedat.option.bad-payload", 0 },   /* DATE not a number */
		{ { 5, "Linux", 5 }, "tracedat.option.bad-payload", 0 },        /* no NUL */
		{ { 14, tsc_shift, 16 }, "tracedat.option.bad-payload", -2 },   /* shift 40 */
		{ { 12, time_shift, 20 }, "tracedat.option.bad-payload", 0 },   /* counts past payload */
		{ { 10, "1f 3 sh\n400000 401000 /bin/sh\n", 31 }, "tracedat.option.bad-payload", 0 },
		{ { 8, "\x02\x00", 2 }, "tracedat.option.bad-size", 1 },        /* CPUCOUNT size 2 */
		{ { 11, "abcd", 4 }, "tracedat.option.bad-size", 1 },           /* TRACEID size 4 */
		{ { 14, "abcd", 4 }, "tracedat.option.bad-size", 1 },           /* TSC2NSEC size 4 */
		{ { 3, "abc", 3 }, "tracedat.option.bad-size", 1 },             /* BUFFER too short */
		{ { 99, "x", 1 }, "tracedat.option.unknown", 2 },
		{ { 16, "12345678", 8 }, "tracedat.option.unknown", 2 },        /* v7-only in a v6 file */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fx *x = fx_new();
		x->spec.extra[0] = cases[i].opt;
		x->spec.nextra = 1;
		fx_build(x);
		check(&x->b, &x->r);
		uint64_t opt = x->L.extra[0];
		uint64_t at = cases[i].at_size == 1 ? opt + 2 : cases[i].at_size == 2 ? opt : opt + 6;
		if (cases[i].at_size == -1)
			at = opt + 6 + 14; /* the vCPU id field */
		if (cases[i].at_size == -2)
			at = opt + 6 + 4; /* the shift field */
		if (!find(&x->r, cases[i].code, at)) {
			dump(&x->r);
			fail_msg("case %zu (option %u): expected %s at 0x%llx", i, cases[i].opt.id, cases[i].code,
				 (unsigned long long)at);
		}
		/* the option list is walked on: the CPU data is still checked */
		assert_int_equal(x->r.stats.events, x->L.events);
		fx_free(x);
	}
}

static void test_valid_options_are_clean(void **state)
{
	(void)state;
	static const uint8_t guest[] = { 'g', 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 6, 0, 0, 0 };
	struct tdw_option ok[] = {
		{ 1, "0x5f3a", 7 },
		{ 6, "sched:sched_switch,prev_pid/sched:sched_wakeup,pid", 51 },
		{ 7, "-1200", 6 },
		{ 10, "1f 1 sh\n400000 401000 /bin/sh\n", 31 },
		{ 13, guest, sizeof(guest) },
		/* an empty TRACECLOCK is legal too, but gets a note: test_empty_traceclock_is_a_note */
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct fx *x = fx_new();
		x->spec.extra[0] = ok[i];
		x->spec.nextra = 1;
		fx_build(x);
		check(&x->b, &x->r);
		if (x->r.total) {
			dump(&x->r);
			fail_msg("valid option %u reported", ok[i].id);
		}
		fx_free(x);
	}
}

/* An empty TRACECLOCK option is legal, but trace-cmd 3.1.6 parses a malloc(0) block for it. */
static void test_empty_traceclock_is_a_note(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.extra[0] = (struct tdw_option){ 4, "", 0 };
	x->spec.nextra = 1;
	fx_build(x);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.option.empty-clock", x->L.extra[0]);
	assert_int_equal(x->r.count, 1);
	assert_int_equal(x->r.findings[0].severity, TFK_SEV_NOTE);
	assert_int_equal(x->r.findings[0].length, 6);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

static void test_option_size_past_eof(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put32(&x->b, x->L.option[5] + 2, 0x7fffffff, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.file.truncated", x->L.option[5] + 6);
	/* resynchronised at the flyrecord tag: the data is still walked */
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

/* ---- CPU counts and ranges ---- */

static void test_cpu_count_mismatch(void **state)
{
	(void)state;
	/* header says 3, CPUCOUNT says 2, the table holds 2 */
	struct fx *x = fx_default();
	tdw_put32(&x->b, x->L.cpu_count, 3, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.count-mismatch", x->L.cpu_count);
	assert_errors(&x->r, 1);
	fx_free(x);

	/* CPUCOUNT says 1 (readers would silently drop CPU1); the clock trailer proves 2 */
	x = fx_default();
	tdw_put32(&x->b, x->L.cpucount_payload, 1, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.count-mismatch", x->L.cpucount_payload);
	assert_errors(&x->r, 1);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);

	/* no CPUCOUNT, header count 0x7fffffff (libtracecmd: nothing printed, exit 0) */
	x = fx_new();
	x->spec.cpucount_option = false;
	fx_build(x);
	tdw_put32(&x->b, x->L.cpu_count, 0x7fffffff, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.count-mismatch", x->L.cpu_count);
	assert_errors(&x->r, 1);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

static void test_cpustat_count(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put16(&x->b, x->L.option[2], 99, false); /* the first CPUSTAT becomes an unknown option */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.stat-count-mismatch", x->L.option[2] + 6 + tdw_get32(&x->b, x->L.option[2] + 2, false));
	assert_errors(&x->r, 0);
	fx_free(x);
}

/* spec 4.7: every input that crashes or hangs libtracecmd 3.1.6 and applies to v6 */
static void test_libtracecmd_crashers(void **state)
{
	(void)state;
	struct {
		const char *what;
		const char *code;
	} expect[] = {
		{ "page size 0 (SIGFPE)", "tracedat.header.bad-page-size" },
		{ "commit bit 30 with a large length (SIGSEGV)", "tracedat.page.bad-commit" },
		{ "padding of size -4 (infinite loop)", "tracedat.page.event-overrun" },
		{ "malformed HOOK (NULL dereference)", "tracedat.option.bad-payload" },
		{ "CPUSTAT of size 0 (SIGSEGV)", "tracedat.option.bad-payload" },
		{ "PROCMAPS of size 0 (SIGSEGV)", "tracedat.option.bad-payload" },
		{ "GUEST with vCPU -1 (heap write)", "tracedat.option.bad-payload" },
		{ "kallsyms size 0xffffffff (heap overflow)", "tracedat.file.truncated" },
		{ "printk size 0xffffffff (heap overflow)", "tracedat.file.truncated" },
		{ "CPUCOUNT of size 2 (garbage count, hang)", "tracedat.option.bad-size" },
	};
	static const uint8_t guest_neg[] = { 'g', 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0 };
	struct tdw_option opts[] = {
		{ 0, NULL, 0 }, { 0, NULL, 0 }, { 0, NULL, 0 }, { 6, "a,b", 4 }, { 2, "", 0 }, { 10, "", 0 },
		{ 13, guest_neg, sizeof(guest_neg) }, { 0, NULL, 0 }, { 0, NULL, 0 }, { 8, "\x01\x00", 2 },
	};
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		struct fx *x = fx_new();
		if (opts[i].id) {
			x->spec.extra[0] = opts[i];
			x->spec.nextra = 1;
		}
		fx_build(x);
		switch (i) {
		case 0: tdw_put32(&x->b, 14, 0, false); break;
		case 1: put_commit(x, page_at(x, 0, 0), 0xc0000ff0); break;
		case 2:
			tdw_put32(&x->b, x->L.first_event_at, (1u << 5) | 29, false);
			tdw_put32(&x->b, x->L.first_event_at + 4, 0xfffffffcu, false);
			break;
		case 7: tdw_put32(&x->b, x->L.kallsyms_size, 0xffffffffu, false); break;
		case 8: tdw_put32(&x->b, x->L.printk_size, 0xffffffffu, false); break;
		default: break;
		}
		check(&x->b, &x->r);
		if (count_code(&x->r, expect[i].code) == 0) {
			dump(&x->r);
			fail_msg("%s: no %s", expect[i].what, expect[i].code);
		}
		assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CORRUPT);
		fx_free(x);
	}
}

static void test_cpu_misaligned(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put64(&x->b, x->L.table + 16, x->L.cpu_offset[1] + 16, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.misaligned", x->L.cpu_offset[1] + 16);
	fx_free(x);
}

static void test_recoverable_pages(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put64(&x->b, x->L.table + 16, x->L.cpu_offset[1] + 8, false); /* CPU1 misaligned */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.recoverable-pages", x->L.cpu_offset[1]);
	fx_free(x);
}

static void test_zeroed_table_is_found(void **state)
{
	(void)state;
	/* Every entry says "no data" (a zeroed table), yet both CPUs' pages are in the file. */
	struct fx *x = fx_default();
	memset(x->b.data + x->L.table, 0, 32);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.lost-range", x->L.table);
	assert_code_at(&x->r, "tracedat.cpu.recoverable-pages", x->L.cpu_offset[0]);
	assert_null(x->spec.instance);
	assert_int_equal(x->r.stats.events, x->L.events); /* every event found and walked */
	assert_int_equal(x->r.stats.cpus, 2);              /* as two CPUs, whose bytes are accounted for */
	assert_int_equal(count_code(&x->r, "tracedat.file.trailing-data"), 0);
	fx_free(x);

	/* One CPU that truly recorded nothing: clean, no scan finding. */
	x = fx_default();
	tdw_put64(&x->b, x->L.table + 24, 0, false);
	memset(x->b.data + x->L.cpu_offset[1], 0, x->L.cpu_size[1]);
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.cpu.lost-range"), 0);
	assert_int_equal(count_code(&x->r, "tracedat.cpu.recoverable-pages"), 0);
	fx_free(x);
}

static void test_cpu_overlap(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put64(&x->b, x->L.table + 16, x->L.cpu_offset[0], false); /* CPU1 = CPU0's pages */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.overlap", x->L.cpu_offset[0]);
	fx_free(x);

	x = fx_default();
	tdw_put64(&x->b, x->L.table, 0, false); /* CPU0 over the metadata */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.overlap", 0);
	fx_free(x);
}

static void test_cpu_out_of_file(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put64(&x->b, x->L.table + 16, 1ull << 40, false);
	tdw_put64(&x->b, x->L.table + 8, UINT64_MAX - 100, false); /* CPU0 offset + size wraps */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.out-of-file", x->L.table + 16);
	assert_code_at(&x->r, "tracedat.cpu.out-of-file", x->L.table);
	fx_free(x);

	/* an empty CPU may point anywhere, even past the end */
	x = fx_default();
	tdw_put64(&x->b, x->L.table + 16, 1ull << 40, false);
	tdw_put64(&x->b, x->L.table + 24, 0, false);
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.cpu.out-of-file"), 0);
	fx_free(x);
}

static void test_cpu_partial_page(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put64(&x->b, x->L.table + 24, x->L.cpu_size[1] - 100, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.partial-page", x->L.cpu_offset[1] + x->L.cpu_size[1] - 4096);
	assert_code_at(&x->r, "tracedat.file.trailing-data", x->L.cpu_offset[1] + x->L.cpu_size[1] - 100);
	fx_free(x);
}

static void test_trailing_data(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t end = x->b.len;
	x->b.len += 10;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.file.trailing-data", end);
	assert_errors(&x->r, 0);
	fx_free(x);
}

static void test_bad_clock_trailer(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	tdw_put64(&x->b, x->L.clock, 5000, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.flyrecord.bad-clock", x->L.clock);
	fx_free(x);
}

/* ---- files of other writers: the v6 clock trailer ---- */

/* trace-cmd 2.x stored the whole trace_clock listing after the table, not "[local]". */
static void test_clock_trailer_listing(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_LISTING;
	fx_build(x);
	check(&x->b, &x->r);
	assert_int_equal(x->r.count, 0);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);

	/* the listing still proves the table's length: CPUCOUNT 1 is the fault, not the trailer */
	x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_LISTING;
	fx_build(x);
	tdw_put32(&x->b, x->L.cpucount_payload, 1, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.count-mismatch", x->L.cpucount_payload);
	assert_int_equal(count_code(&x->r, "tracedat.flyrecord.bad-clock"), 0);
	assert_errors(&x->r, 1);
	fx_free(x);

	/* a control byte inside the listing, or no bracketed clock in it: damage */
	x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_LISTING;
	fx_build(x);
	x->b.data[x->L.clock + 8 + 12] = 0x01;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.flyrecord.bad-clock", x->L.clock);
	assert_errors(&x->r, 1);
	fx_free(x);

	x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_LISTING;
	fx_build(x);
	x->b.data[x->L.clock + 8] = 'x'; /* "xlocal] global ..." */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.flyrecord.bad-clock", x->L.clock);
	fx_free(x);
}

/*
 * A file with no clock trailer whose table ends `gap` bytes before the page-aligned CPU data
 * (an extra UNAME option moves the table). gap 0: the data follows the table directly.
 */
static struct fx *fx_no_trailer(uint32_t gap)
{
	static char uname[8192];
	struct fx *x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_NONE;
	x->spec.extra[0] = (struct tdw_option){ 5, "x", 2 };
	x->spec.nextra = 1;
	fx_build(x);
	uint32_t ps = x->spec.page_size;
	uint32_t move = (uint32_t)((2u * ps - gap - x->L.clock % ps) % ps);
	memset(uname, 'x', move + 1);
	uname[move + 1] = '\0';
	tdw_free(&x->b);
	x->spec.extra[0] = (struct tdw_option){ 5, uname, move + 2 };
	fx_build(x);
	assert_int_equal(x->L.cpu_offset[0] - x->L.clock, gap);
	return x;
}

/* Writers before 2013 wrote no trailer and no TRACECLOCK option: nothing is missing. */
static void test_no_clock_trailer(void **state)
{
	(void)state;
	static const uint32_t gaps[] = { 0, 1, 7, 8, 100 };
	for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
		struct fx *x = fx_no_trailer(gaps[i]);
		check(&x->b, &x->r);
		if (x->r.count != 0) {
			dump(&x->r);
			fail_msg("gap %u: findings", gaps[i]);
		}
		assert_int_equal(x->r.stats.events, x->L.events);
		fx_free(x);
	}

	/* no CPU recorded anything and the file ends with the table */
	struct fx *x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_NONE;
	x->spec.pages_per_cpu = 0;
	fx_build(x);
	x->b.len = x->L.clock;
	check(&x->b, &x->r);
	assert_int_equal(x->r.count, 0);
	fx_free(x);

	/* but with a TRACECLOCK option the writer had a trailer to write: it was cut off */
	x = fx_new();
	x->spec.pages_per_cpu = 0;
	fx_build(x);
	x->b.len = x->L.clock;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.flyrecord.bad-clock", x->L.clock);
	fx_free(x);

	/* trace-cmd of 2013 made no room for the trailer: the first CPU's pages overwrote its end */
	x = fx_no_trailer(20);
	tdw_put64(&x->b, x->L.clock, 66, false);
	memcpy(x->b.data + x->L.clock + 8, "[local] glob", 12);
	check(&x->b, &x->r);
	assert_int_equal(x->r.count, 0);
	fx_free(x);

	/* but a length that runs into the data over bytes that are no clock text is damage */
	x = fx_no_trailer(20);
	tdw_put64(&x->b, x->L.clock, 66, false);
	memset(x->b.data + x->L.clock + 8, 0xee, 12);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.flyrecord.bad-clock", x->L.clock);
	assert_errors(&x->r, 1);
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);
}

/* ---- buffer instances ---- */

static struct fx *fx_instance(void)
{
	struct fx *x = fx_new();
	x->spec.instance = "net";
	x->spec.instance_pages = 2;
	fx_build(x);
	return x;
}

static void test_instance_faults(void **state)
{
	(void)state;
	uint64_t opt_payload;
	/* BUFFER option pointing at the top flyrecord: readers print the events twice */
	struct fx *x = fx_instance();
	opt_payload = x->L.option[3] + 6;
	tdw_put64(&x->b, opt_payload, x->L.flyrecord_tag, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.option.bad-payload", x->L.option[3]);
	fx_free(x);

	/* past the end of the file */
	x = fx_instance();
	tdw_put64(&x->b, x->L.option[3] + 6, 1ull << 50, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.option.bad-payload", x->L.option[3]);
	fx_free(x);

	/* instance tag damaged beyond recognition */
	x = fx_instance();
	memcpy(x->b.data + x->L.inst_flyrecord_tag, "0123456789", 10);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.section.bad-tag", x->L.inst_flyrecord_tag);
	fx_free(x);

	/* instance CPU misaligned */
	x = fx_instance();
	tdw_put64(&x->b, x->L.inst_table, x->L.inst_cpu_offset[0] + 8, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.cpu.misaligned", x->L.inst_cpu_offset[0] + 8);
	const struct tfk_finding *f = find(&x->r, "tracedat.cpu.misaligned", x->L.inst_cpu_offset[0] + 8);
	assert_string_equal(f->path, "buffer net cpu0");
	fx_free(x);
}

/* ---- ring pages ---- */

static void test_bad_commit(void **state)
{
	(void)state;
	uint64_t commits[] = {
		(1ull << 27) | 100,               /* stray bit 27 */
		(1ull << 30) | 100,               /* bit 30 without bit 31 */
		4081,                             /* length > page - D */
		(3ull << 30) | 4078,              /* stored count would not fit: libtracecmd SIGSEGV */
		0xffffffffull,                    /* a page of 0xff */
	};
	for (size_t i = 0; i < sizeof(commits) / sizeof(commits[0]); i++) {
		struct fx *x = fx_default();
		put_commit(x, page_at(x, 0, 1), commits[i]);
		check(&x->b, &x->r);
		if (!find(&x->r, "tracedat.page.bad-commit", page_at(x, 0, 1) + 8)) {
			dump(&x->r);
			fail_msg("commit 0x%llx not reported", (unsigned long long)commits[i]);
		}
		fx_free(x);
	}
}

/* Real 64-bit kernels add RB_MISSED_EVENTS, an int, to the commit: the upper half is all ones. */
static void test_sign_extended_missed_flag_is_valid(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t p = page_at(x, 1, 1);
	put_commit(x, p, tdw_get64(&x->b, p + 8, false) | 0xffffffff80000000ull);
	check(&x->b, &x->r);
	assert_errors(&x->r, 0);
	assert_code_at(&x->r, "tracedat.page.events-lost", p);
	fx_free(x);
	/* without bit 31 the upper half must be zero */
	x = fx_default();
	put_commit(x, p, tdw_get64(&x->b, p + 8, false) | 0xffffffff00000000ull);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.bad-commit", p + 8);
	fx_free(x);
}

static void test_zeroed_page_is_a_warning(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.pages_per_cpu = 3;
	fx_build(x);
	uint64_t p = page_at(x, 0, 1);
	memset(x->b.data + p, 0, 4096);
	check(&x->b, &x->r);
	/* a warning until the sub-buffer tails trace-cmd convert writes are told apart (docs/ci.md) */
	assert_code_at(&x->r, "tracedat.page.zeroed", p);
	assert_errors(&x->r, 0);
	assert_int_equal(x->r.by_severity[TFK_SEV_WARNING], 1);
	fx_free(x);
}

/*
 * Zeros after a CPU's last page with events, or over all of its pages, are lost events too:
 * the kernel hands no empty page to a reader, so no writer stores one.
 */
static void test_zeroed_last_page_and_whole_cpu(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.ncpus = 2;
	x->spec.pages_per_cpu = 3;
	fx_build(x);
	uint64_t last = page_at(x, 0, 2), first1 = page_at(x, 1, 0);
	memset(x->b.data + last, 0, 4096);
	memset(x->b.data + first1, 0, 3 * 4096);
	check(&x->b, &x->r);
	const struct tfk_finding *f = find(&x->r, "tracedat.page.zeroed", last);
	assert_non_null(f);
	assert_string_equal(f->found, "1 all-zero pages at the end of the CPU's data");
	f = find(&x->r, "tracedat.page.zeroed", first1);
	assert_non_null(f);
	assert_string_equal(f->found, "all 3 pages of the CPU are zeros");
	assert_int_equal(x->r.by_severity[TFK_SEV_WARNING], 2);
	fx_free(x);
}

static void test_missed_events_are_a_note(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t p = page_at(x, 1, 0);
	uint64_t len = tdw_get64(&x->b, p + 8, false);
	put_commit(x, p, len | (3ull << 30));
	tdw_put64(&x->b, p + 16 + len, 42, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.events-lost", p);
	assert_int_equal(x->r.stats.events_lost, 42);
	assert_errors(&x->r, 0);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
	fx_free(x);
}

static void test_event_overrun(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t ev = x->L.first_event_at;
	tdw_put32(&x->b, ev, 0, false);          /* type_len 0 */
	tdw_put32(&x->b, ev + 4, 0x10000, false); /* length word far past the commit */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.event-overrun", ev);
	fx_free(x);

	/* padding of size -4: libtraceevent's kbuffer loops forever */
	x = fx_default();
	tdw_put32(&x->b, ev, (1u << 5) | 29, false);
	tdw_put32(&x->b, ev + 4, 0xfffffffcu, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.event-overrun", ev);
	fx_free(x);

	/* the commit ends inside an event */
	x = fx_default();
	uint64_t p = page_at(x, 0, 0);
	put_commit(x, p, tdw_get64(&x->b, p + 8, false) - 4);
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.page.event-overrun"), 1);
	fx_free(x);
}

static void test_bad_event(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t ev = x->L.first_event_at;
	tdw_put32(&x->b, ev, 0, false);
	tdw_put32(&x->b, ev + 4, 6, false); /* length word below 8 */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.bad-event", ev);
	fx_free(x);

	x = fx_default();
	tdw_put32(&x->b, ev, 29, false); /* null padding (delta 0) inside committed data */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.bad-event", ev);
	fx_free(x);
}

static void test_odd_event_size_and_nonzero_tail(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t ev = x->L.first_event_at;
	/* first event: 16 bytes as type_len 3; make it type_len 1 plus a 8-byte discard */
	tdw_put32(&x->b, ev, (100u << 5) | 1, false);
	tdw_put32(&x->b, ev + 8, (1u << 5) | 29, false);
	tdw_put32(&x->b, ev + 12, 4, false);
	uint64_t p = page_at(x, 0, 0);
	x->b.data[p + 4000] = 0x5a;
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.odd-event-size", ev);
	assert_code_at(&x->r, "tracedat.page.nonzero-tail", p + 4000);
	/* its 4-byte record is also too short for its format's 12 bytes of fields */
	assert_code_at(&x->r, "tracedat.event.short-record", ev);
	assert_errors(&x->r, 1);
	fx_free(x);
}

static void test_time_backwards(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t p = page_at(x, 0, 1);
	tdw_put64(&x->b, p, 5, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.time-backwards", p);
	assert_errors(&x->r, 0);
	fx_free(x);

	/* an absolute TIME_STAMP behind the running time */
	x = fx_default();
	uint64_t ev = x->L.first_event_at;
	tdw_put32(&x->b, ev, 31, false); /* replaces the first 16-byte event: 8-byte stamp + discard */
	tdw_put32(&x->b, ev + 4, 0, false);
	tdw_put32(&x->b, ev + 8, (1u << 5) | 29, false);
	tdw_put32(&x->b, ev + 12, 4, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.page.time-backwards", ev);
	fx_free(x);
}

static void test_findings_per_place_are_capped(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.pages_per_cpu = 40;
	fx_build(x);
	for (unsigned p = 0; p < 40; p++)
		put_commit(x, page_at(x, 0, p), 5000);
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.page.bad-commit"), 20);
	assert_int_equal(x->r.by_severity[TFK_SEV_ERROR], 40);
	assert_int_equal(count_code(&x->r, "core.findings.suppressed"), 1);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CORRUPT);
	fx_free(x);
}

static void test_limits_make_incomplete(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	struct tfk_limits lim = tfk_limits_default();
	lim.max_cpus = 1;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	note_raised(&x->r);
	assert_code_at(&x->r, "core.limit.reached", x->L.cpucount_payload);
	assert_true(x->r.incomplete);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_INCOMPLETE);
	fx_free(x);

	/* the findings cap: counted beyond it, and never "clean" */
	x = fx_default();
	lim = tfk_limits_default();
	lim.max_findings = 2;
	x->b.data[0] = 0;
	x->b.data[12] = 9;
	x->b.data[13] = 9;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	assert_int_equal(x->r.count, 2);
	assert_int_equal(x->r.total, 3);
	assert_true(x->r.incomplete);
	fx_free(x);
}

static void test_allocation_failures_are_reported(void **state)
{
	(void)state;
	/* A clean file: any failed allocation must show as an incomplete check, never as clean. */
	struct fx *x = fx_instance();
	for (uint64_t n = 1; n <= 4; n++) {
		struct tfk_limits lim = tfk_limits_default();
		struct tfk_test_hooks hooks = { .fail_alloc_after = n };
		lim.test_hooks = &hooks;
		struct tfk_report r;
		tfk_check_buffer(x->b.data, x->b.len, &lim, &r);
		assert_true(r.incomplete);
		assert_true(r.internal_error);
		assert_int_not_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
		tfk_report_free(&r);
	}
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .fail_alloc_after = 1000 };
	lim.test_hooks = &hooks;
	struct tfk_report r;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	tfk_report_free(&r);
	fx_free(x);
}

/* ---- event formats and records ---- */

/* Offset of the first occurrence of text in the fixture (format texts are stored plainly in v6). */
static uint64_t text_at(const struct fx *x, const char *text)
{
	const uint8_t *p = memmem(x->b.data, x->b.len, text, strlen(text));
	assert_non_null(p);
	return (uint64_t)(p - x->b.data);
}

static void test_format_faults(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t at = text_at(x, "\tfield:int prev_pid;\toffset:8");
	memcpy(x->b.data + at + 21, "offsxt", 6);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.format.syntax", at);
	fx_free(x);

	x = fx_default();
	at = text_at(x, "\tfield:int prev_pid;\toffset:8");
	x->b.data[at + 28] = '2'; /* prev_pid at offset 2: over common_flags */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.format.bad-field", at);
	fx_free(x);

	x = fx_default();
	at = text_at(x, "name: sched_wakeup\nID: 301");
	x->b.data[at + 25] = '0'; /* ID 300 twice */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.format.duplicate-id", at + 19);
	fx_free(x);

	x = fx_default();
	at = text_at(x, "sched\0");
	x->b.data[at + 2] = 0x01;
	uint64_t ev = text_at(x, "name: sched_switch");
	x->b.data[ev + 11] = ' ';
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.format.bad-name", at);
	assert_code_at(&x->r, "tracedat.format.bad-name", ev);
	fx_free(x);
}

static void test_metadata_lines(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t sym1 = text_at(x, "ffffffff81000010 T fixture_sym1");
	x->b.data[sym1 + 20] = 0x07; /* a control byte inside a symbol name */
	uint64_t cmd = text_at(x, "1 init");
	x->b.data[cmd] = 'x';
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.metadata.bad-line", sym1);
	assert_code_at(&x->r, "tracedat.metadata.bad-line", cmd);
	assert_errors(&x->r, 2);
	fx_free(x);
}

static void test_record_faults(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t ev0 = x->L.first_event_at, ev1 = ev0 + 16; /* 12-byte id 300, then 16-byte id 301 */
	tdw_put16(&x->b, ev0 + 4, 999, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.unknown-id", ev0);
	assert_errors(&x->r, 0);
	fx_free(x);

	x = fx_default();
	tdw_put16(&x->b, ev0 + 4, 1, false); /* "function" needs 16 bytes; the record has 12 */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.short-record", ev0);
	fx_free(x);

	x = fx_default();
	tdw_put32(&x->b, ev1 + 4 + 8, (40u << 16) | 12u, false); /* name runs past the record */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.bad-dynamic", ev1);
	fx_free(x);

	x = fx_default();
	x->b.data[ev1 + 4 + 15] = 'd'; /* "abcd": no NUL, but inside the record: a note */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.unterminated-string", ev1);
	assert_errors(&x->r, 0);
	fx_free(x);

	x = fx_default();
	tdw_put32(&x->b, ev0 + 4 + 4, (uint32_t)-5, false);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.bad-pid", ev0);
	fx_free(x);
}

/* ---- records the kernel writes shorter than their format ---- */

/* user_stack has no count: its array is always whole. */
static const char user_stack_fmt[] =
	"name: user_stack\nID: 302\nformat:\n" FX_COMMON_FIELDS
	"\tfield:unsigned int tgid;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

static void make_stack(struct fx *x, unsigned i, uint32_t entries)
{
	tdw_put16(&x->b, record_at(x, i), 302, false);
	tdw_put32(&x->b, record_at(x, i) + 8, entries, false);
}

static void test_partly_filled_stack(void **state)
{
	(void)state;
	/* 0 entries in 20 bytes, 1 in 24, and 18 (a stack deeper than the 8 declared) in 160 */
	struct fx *x = fx_new();
	x->spec.extra_format = kernel_stack_fmt;
	fx_build(x);
	make_stack(x, 2, 0);
	make_stack(x, 3, 1);
	make_stack(x, 4, 18);
	check(&x->b, &x->r);
	if (x->r.count != 0) {
		dump(&x->r);
		fail_msg("kernel_stack records with `size` entries are not short");
	}
	assert_int_equal(x->r.stats.events, x->L.events);
	fx_free(x);

	/* a record shorter than its fields before the array, or than the entries it counts */
	x = fx_new();
	x->spec.extra_format = kernel_stack_fmt;
	fx_build(x);
	tdw_put16(&x->b, record_at(x, 0), 302, false); /* 12 bytes: less than the 16 before caller */
	make_stack(x, 3, 2);                            /* 2 entries do not fit in 24 bytes */
	make_stack(x, 4, (uint32_t)-1);                 /* a negative count */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.short-record", x->L.first_event_at);
	assert_code_at(&x->r, "tracedat.event.short-record", record_at(x, 3) - 4);
	assert_code_at(&x->r, "tracedat.event.short-record", record_at(x, 4) - 8);
	assert_errors(&x->r, 3);
	fx_free(x);

	/* without a count field before it, a fixed array is whole: 24 bytes are short of 80 */
	x = fx_new();
	x->spec.extra_format = user_stack_fmt;
	fx_build(x);
	make_stack(x, 3, 1);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.short-record", record_at(x, 3) - 4);
	assert_errors(&x->r, 1);
	fx_free(x);
}

/* An out-of-tree tracepoint stores "(null)" in a __data_loc of 6 bytes, without its NUL. */
static void test_unterminated_string_is_a_note(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t rec = record_at(x, 3); /* sched_wakeup, 24 bytes */
	tdw_put32(&x->b, rec + 8, (6u << 16) | 12u, false);
	memcpy(x->b.data + rec + 12, "(null)", 6);
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.event.unterminated-string", rec - 4);
	assert_int_equal(x->r.count, 1);
	assert_int_equal(x->r.by_severity[TFK_SEV_NOTE], 1);
	assert_int_equal(x->r.stats.events, x->L.events);
	assert_int_equal(tfk_report_verdict(&x->r), TFK_VERDICT_CLEAN);
	fx_free(x);
}

static const char broken_print_fmt[] =
	"name: broken\nID: 302\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\nprint fmt: \"x=%d\", ({ int y = REC->x; y; })\n";

/* A print fmt whose opening quote became '(' (a flipped byte): damage, caught by our grammar. */
static const char damaged_print_fmt[] =
	"name: damaged\nID: 303\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\nprint fmt: (x=%d\", REC->x\n";

/* print fmt is a quoted string, then arguments that balance; damage there is a syntax error. */
static void test_print_fmt_grammar(void **state)
{
	struct fx *x = *state = fx_new();
	x->spec.extra_format = damaged_print_fmt;
	fx_build(x);
	check(&x->b, &x->r);
	uint64_t at = text_at(x, "(x=%d\", REC->x");
	assert_code_at(&x->r, "tracedat.format.syntax", at);
	assert_int_equal(count_code(&x->r, "tracedat.format.syntax"), 1);
	tfk_report_free(&x->r);

	/* the quote back, an argument list left open: syntax at the unclosed parenthesis */
	static char open_args[sizeof(damaged_print_fmt) + 16];
	snprintf(open_args, sizeof(open_args), "%.*s\"x=%%d\", max(REC->x, 1\n",
		 (int)(strstr(damaged_print_fmt, "print fmt: ") - damaged_print_fmt + 11), damaged_print_fmt);
	fx_free(x);
	x = *state = fx_new();
	x->spec.extra_format = open_args;
	fx_build(x);
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.format.syntax"), 1);
	tfk_report_free(&x->r);

	/* a byte that is not ASCII in an argument (libtraceevent 1.7 crashes on one in a field
	 * name): syntax at that byte; inside the format string it is text, and fine */
	static char high[sizeof(damaged_print_fmt) + 32];
	int head = (int)(strstr(damaged_print_fmt, "print fmt: ") - damaged_print_fmt + 11);
	snprintf(high, sizeof(high), "%.*s\"x=%%d \xa0\", REC->x\xa0y\n", head, damaged_print_fmt);
	fx_free(x);
	x = *state = fx_new();
	x->spec.extra_format = high;
	fx_build(x);
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.format.syntax"), 1);
	assert_code_at(&x->r, "tracedat.format.syntax", text_at(x, "\xa0y"));
	/* every real format of the default fixture passes */
	tfk_report_free(&x->r);
	fx_free(x);
	x = *state = fx_default();
	check(&x->b, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.format.syntax"), 0);
}

/* A format with one field x and the given print fmt arguments, checked with libtraceevent in
 * its child (default limits); the fixture stays in *state for the teardown. */
static struct fx *check_print_args(void **state, const char *args)
{
	static char text[512];
	snprintf(text, sizeof(text),
		 "name: args\nID: 304\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		 "\tfield:unsigned long x;\toffset:8;\tsize:8;\tsigned:0;\n\nprint fmt: %s\n",
		 args);
	if (*state)
		fx_free(*state);
	struct fx *x = *state = fx_new();
	x->spec.extra_format = text;
	fx_build(x);
	tfk_check_buffer(x->b.data, x->b.len, NULL, &x->r);
	note_raised(&x->r);
	return x;
}

/* The grammar stops the text: one syntax error at `at`, and libtraceevent never sees it. */
static void assert_stopped_at(struct fx *x, const char *at)
{
	assert_code_at(&x->r, "tracedat.format.syntax", text_at(x, at));
	assert_int_equal(count_code(&x->r, "tracedat.format.syntax"), 1);
	assert_int_equal(count_code(&x->r, "tracedat.format.parser-crash"), 0);
	assert_int_equal(count_code(&x->r, "tracedat.format.unparsable"), 0);
}

/* A print fmt reading a field the format does not declare: the kernel cannot write one (and
 * libtraceevent 1.7 dies on it in __print_flags and __print_symbolic), so it is a syntax error at
 * the reference; a declared field, arrow spaced or not, passes. */
static void test_print_fmt_unknown_field(void **state)
{
	assert_stopped_at(check_print_args(state, "\"%s\", __print_flags(REC->g, \"|\", {1, \"a\"})"), "REC->g");
	struct fx *x = check_print_args(state, "\"%s\", __print_flags(REC -> x, \"|\", {1, \"a\"})");
	assert_errors(&x->r, 0);
}

/*
 * Print fmt arguments are C expressions, checked where libtraceevent 1.7 dies on what no kernel
 * writes: operators C has no place for after preprocessing ('`', '@', '$', '#', '\\') or only
 * inside braces libtraceevent does not read (';', assignments); after a ternary's last operand or
 * a subscript, an operator libtraceevent has no precedence for ('[', '->', ...); a divisor it
 * reads as 0 (a zero, a bare name), on which it stops with SIGFPE. A syntax error at the byte
 * (stop), and libtraceevent never sees the text; the rest passes (stop NULL: no error).
 */
static void test_print_fmt_operators(void **state)
{
	static const struct {
		const char *args, *stop;
	} cases[] = {
		{ "\"%s\", REC->x ? \"a\" : \"b\"`", "`" },
		{ "\"%lu\", REC->x ? 1 : 2 ; 77", "; 77" },
		{ "\"%lu\", REC->x ? 1 : 2 = 77", "= 77" },
		{ "\"%lu\", REC->x ? 1 : REC->x[77]", "[77]" },
		{ "\"%lu\", REC->x[1][78]", "[78]" },
		{ "\"%lu\", REC->x ? 1 : REC->x->yy", "->yy" },
		{ "\"%lu\", 77 % zz", "% zz" },
		{ "\"%lu\", REC->x + 78 / 0x0UL", "/ 0x0UL" },
		{ "\"%lu\", REC->x == 1 ? REC->x <= 2 : REC->x != 3", NULL },
		{ "\"%lu\", ({ unsigned long y = REC->x; y.z; })", NULL },
		{ "\"%lu\", REC->x ? REC->x[1] : -REC->x[2]", NULL },
		{ "\"%lu %lu\", REC->x[1] + 1, (REC->x ? 1 : 2)[0]", NULL },
		{ "\"%lu %lu\", REC->x / sizeof(u64), REC->x % 7", NULL },
		/* older kernels' hrtimer and binder formats: a compound literal, a struct in a sizeof */
		{ "\"%llu\", (unsigned long long)(((ktime_t) { .tv64 = REC->x }).tv64)", NULL },
		{ "\"%d\", (int)(sizeof(struct { int:-!!(__builtin_types_compatible_p(int, long)); }))", NULL },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct fx *x = check_print_args(state, cases[k].args);
		if (cases[k].stop)
			assert_stopped_at(x, cases[k].stop);
		else
			assert_errors(&x->r, 0);
	}
}

/*
 * What newer libtraceevent reads in print fmts, as kernels write it: character literals, which
 * 1.8.3 (5bc98bd) takes as characters, not strings, delimiters and escapes inside them included;
 * sizeof of the kernel's fixed-size types, which 1.8.4 (f2224d5) sizes. Our grammar passes each;
 * a linked libtraceevent older than that may still reject one, which is then a note naming it.
 */
static void test_print_fmt_newer_libtraceevent(void **state)
{
	static const char *const cases[] = {
		"\"%c\", REC->x ? 'y' : 'n'",
		"\"%lu\", REC->x == ',' ? 1 : 2",
		"\"%lu\", REC->x == ')' || REC->x == '\\'' ? 1 : 2",
		"\"%c%c\", '\\n', (REC->x & 1) ? '+' : '-'",
		"\"%lu\", REC->x / sizeof(u32)",
		"\"%lu %lu\", sizeof(s8) * REC->x, REC->x % sizeof(u64)",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fx *x = check_print_args(state, cases[i]);
		if (count_code(&x->r, "tracedat.format.syntax") || count_code(&x->r, "tracedat.format.parser-crash")) {
			dump(&x->r);
			fail_msg("case %zu (%s) stopped", i, cases[i]);
		}
		assert_errors(&x->r, 0);
		for (size_t k = 0; k < x->r.count; k++)
			if (strcmp(x->r.findings[k].fault->id, "tracedat.format.unparsable") == 0)
				assert_non_null(strstr(x->r.findings[k].expected, "libtraceevent "));
	}
}

/* The libtraceevent tests keep their fixture in *state: the teardown frees it even when an
 * assertion fails, so a failure is reported as itself and never also as a leak. */
static int fx_teardown(void **state)
{
	if (*state)
		fx_free(*state);
	return 0;
}

/* libtraceevent runs in a child: what it cannot parse is a warning, a crash or hang a finding. */
static void test_guarded_unparsable(void **state)
{
	struct fx *x = *state = fx_new();
	x->spec.extra_format = broken_print_fmt;
	fx_build(x);
	uint64_t at = text_at(x, "name: broken");
	tfk_check_buffer(x->b.data, x->b.len, NULL, &x->r); /* default limits: libtraceevent runs */
	note_raised(&x->r);
	assert_code_at(&x->r, "tracedat.format.unparsable", at);
	assert_errors(&x->r, 0);
}

/* formats kept for libtraceevent in the default fixture: function, sched_switch, sched_wakeup */
static void test_guarded_crash(void **state)
{
	struct fx *x = *state = fx_default();
	uint64_t wakeup = text_at(x, "name: sched_wakeup");
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .parser_crash_at = 3 };
	lim.test_hooks = &hooks;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	note_raised(&x->r);
	assert_code_at(&x->r, "tracedat.format.parser-crash", wakeup);
	const struct tfk_finding *crash = find(&x->r, "tracedat.format.parser-crash", wakeup);
	if (!strstr(crash->found, "signal 11"))
		fail_msg("found: %s", crash->found);
	assert_errors(&x->r, 1);
}

/* A subverted parser that reaches for the network is killed by its leash (SIGSYS, 31): a crash of
 * the format it was parsing, and the formats after it are parsed by a new child. */
static void test_guarded_escape(void **state)
{
	struct fx *x = *state = fx_default();
	if (tfk_sandbox_filter_off()) {
		print_message("syscall filter off here: %s\n", tfk_sandbox_filter_off());
		skip();
	}
	uint64_t sw = text_at(x, "name: sched_switch");
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .parser_escape_at = 2 };
	lim.test_hooks = &hooks;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	note_raised(&x->r);
	assert_code_at(&x->r, "tracedat.format.parser-crash", sw);
	const struct tfk_finding *crash = find(&x->r, "tracedat.format.parser-crash", sw);
	if (!strstr(crash->found, "signal 31"))
		fail_msg("found: %s", crash->found);
	assert_int_equal(count_code(&x->r, "tracedat.format.parser-crash"), 1);
	assert_errors(&x->r, 1);
	assert_false(x->r.incomplete);
}

/*
 * The parser child's start-up deadline counts only the child's own start, never the page walk
 * beside it: answers collected long after the deadline (a 10 GiB sparse trace walked for more
 * than 30 s, a sanitizer build) are the same answers. The walk is stood in for by a delay longer
 * than the start-up deadline, which is shortened for the test.
 */
static void test_guarded_collected_late(void **state)
{
	struct fx *x = *state = fx_default();
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_report on_time;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &on_time);
	/* deadlines short, the collection later than both (scaled for slow runs, as the hang's) */
	struct tfk_test_hooks hooks = { .parser_setup_ms = 300 * test_slowdown(),
					.parse_collect_delay_ms = 1500 * test_slowdown() };
	lim.test_hooks = &hooks;
	lim.parser_timeout_ms = 300 * test_slowdown();
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	note_raised(&x->r);
	assert_int_equal(count_code(&x->r, "core.limit.reached"), 0);
	assert_int_equal(count_code(&x->r, "tracedat.format.parser-crash"), 0);
	assert_int_equal(x->r.count, on_time.count);
	assert_int_equal(tfk_report_verdict(&x->r), tfk_report_verdict(&on_time));
	assert_false(x->r.incomplete);
	tfk_report_free(&on_time);
}

/*
 * The deadline is the child's own CPU time, never the machine's: a child not run for longer than
 * its deadline (a page walk beside it, other jobs, a sanitizer build) gives the same answers as
 * one run at once. Stood in for by the child sleeping three deadlines before its second format.
 */
static void test_guarded_starved(void **state)
{
	struct fx *x = *state = fx_default();
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_report on_time;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &on_time);
	struct tfk_test_hooks hooks = { .parser_stall_at = 2, .parser_stall_ms = 900 * test_slowdown() };
	lim.test_hooks = &hooks;
	lim.parser_timeout_ms = 300 * test_slowdown();
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	note_raised(&x->r);
	assert_int_equal(count_code(&x->r, "tracedat.format.parser-crash"), 0);
	assert_int_equal(count_code(&x->r, "core.limit.reached"), 0);
	assert_int_equal(x->r.count, on_time.count);
	assert_int_equal(tfk_report_verdict(&x->r), tfk_report_verdict(&on_time));
	assert_false(x->r.incomplete);
	tfk_report_free(&on_time);
}

/* A hang is the one property measured in time. The deadline is per format and starts once the
 * child has set libtraceevent up, so only the parse of one small format races it: the timeout is
 * generous for that and scaled for slow runs (Valgrind, sanitizers). */
static void test_guarded_hang(void **state)
{
	struct fx *x = *state = fx_default();
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .parser_hang_at = 2 };
	lim.test_hooks = &hooks;
	lim.parser_timeout_ms = 500 * test_slowdown();
	tfk_check_buffer(x->b.data, x->b.len, &lim, &x->r);
	note_raised(&x->r);
	uint64_t sw = text_at(x, "name: sched_switch");
	assert_code_at(&x->r, "tracedat.format.parser-crash", sw);
	assert_non_null(strstr(find(&x->r, "tracedat.format.parser-crash", sw)->found, "hang"));
	/* the parse went on after the hang: sched_wakeup was parsed by a new child */
	assert_int_equal(count_code(&x->r, "tracedat.format.parser-crash"), 1);
	assert_false(x->r.incomplete);
}


#ifndef TD_SAMPLES
#define TD_SAMPLES "../shared/samples/tracedat"
#endif

/* The check of a file with threads and a parser crash injected at format crash_at (0: none). */
static void check_split(const char *path, unsigned threads, uint32_t crash_at, struct tfk_report *r)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .parser_crash_at = crash_at };
	lim.test_hooks = &hooks;
	lim.threads = threads;
	/* the children's start-up and progress deadlines as slow as the run (Valgrind, a busy machine) */
	lim.parser_timeout_ms *= test_slowdown();
	memset(r, 0, sizeof(*r));
	tfk_check_file(path, &lim, r);
	note_raised(r);
}

/*
 * A real kernel's event formats (a recording here with every event enabled) are split between
 * two libtraceevent children when threads are allowed: the report is the one child's, finding
 * for finding, with a crash in the first half, in the second half, and with none.
 */
static void test_guarded_split(void **state)
{
	(void)state;
	const char *path = TD_SAMPLES "/sched-irq.v7zstd.dat";
	FILE *f = fopen(path, "rb");
	if (!f)
		skip();
	fclose(f);
	static const uint32_t crashes[] = { 0, 4, 2000 }; /* of about 2,400 formats: none, first half, second */
	for (size_t k = 0; k < sizeof(crashes) / sizeof(crashes[0]); k++) {
		struct tfk_report one, two;
		check_split(path, 1, crashes[k], &one);
		check_split(path, 2, crashes[k], &two);
		assert_int_equal(count_code(&one, "tracedat.format.parser-crash"), crashes[k] ? 1 : 0);
		assert_int_equal(one.count, two.count);
		assert_int_equal(one.total, two.total);
		for (size_t i = 0; i < one.count; i++) {
			assert_string_equal(one.findings[i].fault->id, two.findings[i].fault->id);
			assert_int_equal(one.findings[i].offset, two.findings[i].offset);
			assert_string_equal(one.findings[i].found, two.findings[i].found);
		}
		tfk_report_free(&one);
		tfk_report_free(&two);
	}
}

/* ---- libtraceevent in this process: the parse of the fuzz harnesses ---- */

/* The check of a trace (a file when path is set) with libtraceevent in a child or in this
 * process, and a parser crash injected at format crash_at (0: none). */
static void check_parsed(const struct tdw_buf *b, const char *path, bool in_process, uint32_t crash_at,
			 struct tfk_report *r)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .parse_in_process = in_process, .parser_crash_at = crash_at };
	lim.test_hooks = &hooks;
	memset(r, 0, sizeof(*r));
	if (path)
		tfk_check_file(path, &lim, r);
	else
		tfk_check_buffer(b->data, b->len, &lim, r);
	note_raised(r);
}

/* Only the process boundary differs: the same counts and the same findings, every field of each,
 * in the same order. */
static void assert_same_as_child(const struct tfk_report *child, const struct tfk_report *here)
{
	if (child->count != here->count || child->total != here->total) {
		dump(child);
		dump(here);
		fail_msg("%zu findings from the child, %zu in process", child->count, here->count);
	}
	assert_memory_equal(child->by_severity, here->by_severity, sizeof(child->by_severity));
	assert_int_equal(child->incomplete, here->incomplete);
	for (size_t i = 0; i < child->count; i++) {
		const struct tfk_finding *x = &child->findings[i], *y = &here->findings[i];
		if (memcmp(x, y, sizeof(*x)) != 0)
			fail_msg("finding %zu: %s at 0x%llx (found %s) from the child, %s at 0x%llx (found %s) in process", i,
				 x->fault->id, (unsigned long long)x->offset, x->found, y->fault->id,
				 (unsigned long long)y->offset, y->found);
	}
}

/* A format libtraceevent rejects is rejected in process too: the same note at the same place. */
static void test_in_process_unparsable(void **state)
{
	struct fx *x = *state = fx_new();
	x->spec.extra_format = broken_print_fmt;
	fx_build(x);
	uint64_t at = text_at(x, "name: broken");
	struct tfk_report child;
	check_parsed(&x->b, NULL, false, 0, &child);
	check_parsed(&x->b, NULL, true, 0, &x->r);
	assert_code_at(&x->r, "tracedat.format.unparsable", at);
	assert_int_equal(count_code(&x->r, "tracedat.format.unparsable"), 1);
	assert_errors(&x->r, 0);
	assert_same_as_child(&child, &x->r);
	tfk_report_free(&child);
}

/* No child runs in process: a crash injected into the child is never reached, and every format
 * is parsed, as by a child that does not crash. */
static void test_in_process_forks_no_child(void **state)
{
	struct fx *x = *state = fx_default();
	struct tfk_report child;
	check_parsed(&x->b, NULL, false, 0, &child);
	check_parsed(&x->b, NULL, true, 3, &x->r);
	assert_int_equal(count_code(&x->r, "tracedat.format.parser-crash"), 0);
	assert_errors(&x->r, 0);
	assert_same_as_child(&child, &x->r);
	tfk_report_free(&child);
}

/*
 * Real kernels' event formats (recordings here with every event enabled, about 2,400 formats
 * each, some of which libtraceevent rejects): the child and this process reject the same ones
 * and report them in one note, identical finding for finding.
 */
static void test_in_process_real_formats(void **state)
{
	(void)state;
	static const char *const samples[] = { "sched-irq.v7zstd.dat", "two-buffers.v7zstd.dat",
						 "io-instance-only.v7zstd.dat" };
	size_t checked = 0;
	for (size_t k = 0; k < sizeof(samples) / sizeof(samples[0]); k++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", TD_SAMPLES, samples[k]);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		fclose(f);
		struct tfk_report child, here;
		check_parsed(NULL, path, false, 0, &child);
		check_parsed(NULL, path, true, 0, &here);
		assert_int_equal(count_code(&child, "tracedat.format.unparsable"), 1);
		assert_same_as_child(&child, &here);
		tfk_report_free(&child);
		tfk_report_free(&here);
		checked++;
	}
	if (!checked)
		skip();
}

/* Bytes flipped inside the format texts (8 of 400 such mutants crashed trace-cmd report): always findings or clean, never a crash. */
static void test_flipped_format_text(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	uint64_t from = x->L.ftrace_count, to = x->L.kallsyms_size;
	uint64_t seed = 42, found = 0;
	for (int k = 0; k < 200; k++) {
		struct tdw_buf m = { malloc(x->b.len), x->b.len, x->b.len };
		memcpy(m.data, x->b.data, x->b.len);
		for (int j = 0; j < 3; j++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			m.data[from + (seed >> 33) % (to - from)] = (uint8_t)(seed >> 17);
		}
		struct tfk_report r;
		tfk_check_buffer(m.data, m.len, fast_limits(), &r);
		found += r.by_severity[TFK_SEV_ERROR] > 0;
		tfk_report_free(&r);
		free(m.data);
	}
	/* Most flips land in structure the grammar checks; the rest in print fmt text. */
	assert_true(found >= 140);
	fx_free(x);
}

/* ---- several faults at once ---- */

static void test_several_independent_faults(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.extra[0] = (struct tdw_option){ 2, "", 0 };
	x->spec.nextra = 1;
	x->spec.pages_per_cpu = 3;
	fx_build(x);
	x->b.data[x->L.version] = 'q';                                      /* bad version */
	tdw_put32(&x->b, x->L.cpu_count, 5, false);                         /* count mismatch */
	put_commit(x, page_at(x, 0, 2), 1ull << 28);                        /* bad commit cpu0 */
	tdw_put32(&x->b, page_at(x, 1, 1) + 16, 0, false);                  /* bad event cpu1 */
	tdw_put32(&x->b, page_at(x, 1, 1) + 20, 2, false);
	x->b.len += 7;                                                      /* trailing bytes */
	check(&x->b, &x->r);
	assert_code_at(&x->r, "tracedat.header.bad-version", 10);
	assert_code_at(&x->r, "tracedat.option.bad-payload", x->L.extra[0] + 6);
	assert_code_at(&x->r, "tracedat.cpu.count-mismatch", x->L.cpu_count);
	assert_code_at(&x->r, "tracedat.page.bad-commit", page_at(x, 0, 2) + 8);
	assert_code_at(&x->r, "tracedat.page.bad-event", page_at(x, 1, 1) + 16);
	assert_code_at(&x->r, "tracedat.file.trailing-data", x->b.len - 7);
	assert_errors(&x->r, 5);
	fx_free(x);
}

static void test_determinism(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.data[x->L.version] = 'q';
	put_commit(x, page_at(x, 0, 1), 9999);
	struct tfk_report a, b;
	tfk_check_buffer(x->b.data, x->b.len, NULL, &a);
	tfk_check_buffer(x->b.data, x->b.len, NULL, &b);
	assert_int_equal(a.count, b.count);
	assert_memory_equal(a.findings, b.findings, a.count * sizeof(*a.findings));
	tfk_report_free(&a);
	tfk_report_free(&b);
	fx_free(x);
}

static const struct CMUnitTest v6_tests[] = {
	cmocka_unit_test(test_clean_variants),
	cmocka_unit_test(test_latency_file_is_clean),
	cmocka_unit_test(test_bad_magic),
	cmocka_unit_test(test_not_a_trace),
	cmocka_unit_test(test_bad_version),
	cmocka_unit_test(test_bad_endian_is_inferred),
	cmocka_unit_test(test_bad_long_size),
	cmocka_unit_test(test_bad_page_size),
	cmocka_unit_test(test_header_page_invalid),
	cmocka_unit_test(test_header_event_invalid),
	cmocka_unit_test(test_header_event_of_older_kernels),
	cmocka_unit_test(test_bad_tags),
	cmocka_unit_test(test_unknown_tag_after_options_resyncs),
	cmocka_unit_test(test_truncated_everywhere),
	cmocka_unit_test(test_truncated_cpu_data),
	cmocka_unit_test(test_truncated_blob_resyncs),
	cmocka_unit_test(test_option_rules),
	cmocka_unit_test(test_valid_options_are_clean),
	cmocka_unit_test(test_empty_traceclock_is_a_note),
	cmocka_unit_test(test_option_size_past_eof),
	cmocka_unit_test(test_cpu_count_mismatch),
	cmocka_unit_test(test_cpustat_count),
	cmocka_unit_test(test_libtracecmd_crashers),
	cmocka_unit_test(test_cpu_misaligned),
	cmocka_unit_test(test_recoverable_pages),
	cmocka_unit_test(test_zeroed_table_is_found),
	cmocka_unit_test(test_cpu_overlap),
	cmocka_unit_test(test_cpu_out_of_file),
	cmocka_unit_test(test_cpu_partial_page),
	cmocka_unit_test(test_trailing_data),
	cmocka_unit_test(test_bad_clock_trailer),
	cmocka_unit_test(test_clock_trailer_listing),
	cmocka_unit_test(test_no_clock_trailer),
	cmocka_unit_test(test_instance_faults),
	cmocka_unit_test(test_bad_commit),
	cmocka_unit_test(test_sign_extended_missed_flag_is_valid),
	cmocka_unit_test(test_zeroed_page_is_a_warning),
	cmocka_unit_test(test_zeroed_last_page_and_whole_cpu),
	cmocka_unit_test(test_missed_events_are_a_note),
	cmocka_unit_test(test_event_overrun),
	cmocka_unit_test(test_bad_event),
	cmocka_unit_test(test_odd_event_size_and_nonzero_tail),
	cmocka_unit_test(test_time_backwards),
	cmocka_unit_test(test_findings_per_place_are_capped),
	cmocka_unit_test(test_limits_make_incomplete),
	cmocka_unit_test(test_allocation_failures_are_reported),
	cmocka_unit_test(test_format_faults),
	cmocka_unit_test(test_metadata_lines),
	cmocka_unit_test(test_record_faults),
	cmocka_unit_test(test_partly_filled_stack),
	cmocka_unit_test(test_unterminated_string_is_a_note),
	cmocka_unit_test(test_flipped_format_text),
	cmocka_unit_test_teardown(test_print_fmt_grammar, fx_teardown),
	cmocka_unit_test_teardown(test_print_fmt_unknown_field, fx_teardown),
	cmocka_unit_test_teardown(test_print_fmt_operators, fx_teardown),
	cmocka_unit_test_teardown(test_print_fmt_newer_libtraceevent, fx_teardown),
	cmocka_unit_test_teardown(test_guarded_unparsable, fx_teardown),
	cmocka_unit_test_teardown(test_guarded_crash, fx_teardown),
	cmocka_unit_test_teardown(test_guarded_hang, fx_teardown),
	cmocka_unit_test_teardown(test_guarded_starved, fx_teardown),
	cmocka_unit_test_teardown(test_guarded_collected_late, fx_teardown),
	cmocka_unit_test(test_guarded_split),
	cmocka_unit_test_teardown(test_guarded_escape, fx_teardown),
	cmocka_unit_test_teardown(test_in_process_unparsable, fx_teardown),
	cmocka_unit_test_teardown(test_in_process_forks_no_child, fx_teardown),
	cmocka_unit_test(test_in_process_real_formats),
	cmocka_unit_test(test_several_independent_faults),
	cmocka_unit_test(test_determinism),
};

const struct CMUnitTest *tracedat_v6_tests(size_t *n)
{
	*n = sizeof(v6_tests) / sizeof(v6_tests[0]);
	return v6_tests;
}
