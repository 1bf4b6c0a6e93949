/* SPDX-License-Identifier: MIT */
/*
 * Repair: for each kind of damage, the output re-checks clean, keeps exactly the events that
 * survived, shows the loss to readers, and repairing the output again changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "pdw.h"
#include "repaired.h"
#include "tdw_emit.h"
#include "tracedat_helpers.h"
#include "tracefsck/repair.h"
#include "dir_output.h"
#include "format.h"
#include "formats/formats.h"

static int temp_file(char *path, size_t n, const char *what)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, n, "%s/tfk-repair-%s-XXXXXX", dir && *dir ? dir : "/tmp", what);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	return fd;
}

static void assert_same_outcome(const struct tfk_repair_report *a, const struct tfk_repair_report *b, const char *how)
{
	if (a->outcome != b->outcome)
		fail_msg("%s: outcome %d, in memory %d", how, a->outcome, b->outcome);
	assert_int_equal(a->before.total, b->before.total);
	assert_int_equal(a->after.total, b->after.total);
	assert_int_equal(a->after.stats.events, b->after.stats.events);
	assert_int_equal(a->after.stats.pages, b->after.stats.pages);
	assert_int_equal(a->ncpus, b->ncpus);
	assert_int_equal(a->write_error, 0);
}

/*
 * The same input repaired from a file, into a file and as a dry run (the output re-checked
 * through a view of the input's pages), gives what the repair in memory gave, byte for byte.
 */
static void assert_same_through_files(const struct tdw_buf *b, const struct repaired *r)
{
	char in[512], out[512];
	int ifd = temp_file(in, sizeof(in), "in");
	assert_true(b->len == 0 || write(ifd, b->data, b->len) == (ssize_t)b->len);
	close(ifd);
	int ofd = temp_file(out, sizeof(out), "out");
	struct tfk_repair_report stored, dry;
	uint64_t stored_len, dry_len;
	tfk_repair_file(in, ofd, fast_limits(), &stored_len, &stored);
	tfk_repair_file(in, -1, fast_limits(), &dry_len, &dry);
	assert_same_outcome(&stored, &r->rep, "into a file");
	assert_same_outcome(&dry, &r->rep, "dry run");
	const uint8_t *want = r->out ? r->out : r->rep.outcome == TFK_REPAIR_NOTHING_TO_DO ? b->data : NULL;
	size_t want_len = r->out ? r->len : r->rep.outcome == TFK_REPAIR_NOTHING_TO_DO ? b->len : 0;
	assert_int_equal(stored_len, want_len);
	if (r->out)
		assert_int_equal(dry_len, r->len);
	uint8_t *got = malloc(want_len + 1);
	assert_non_null(got);
	assert_int_equal(pread(ofd, got, want_len + 1, 0), (ssize_t)want_len);
	assert_true(want_len == 0 || memcmp(got, want, want_len) == 0);
	free(got);
	close(ofd);
	unlink(in);
	unlink(out);
	tfk_repair_report_free(&stored);
	tfk_repair_report_free(&dry);
}

static void repair(const struct tdw_buf *b, struct repaired *r)
{
	tfk_repair_buffer(b->data, b->len, fast_limits(), &r->out, &r->len, &r->rep);
	assert_same_through_files(b, r);
}

static uint64_t kept_events(const struct repaired *r)
{
	uint64_t n = 0;
	for (size_t i = 0; i < r->rep.ncpus; i++)
		n += r->rep.cpus[i].events_kept;
	return n;
}

static void test_clean_input_is_left_alone(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	struct repaired r;
	repair(&x->b, &r);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_null(r.out);
	repaired_release(&r);
	fx_free(x);

	static const uint8_t text[] = "not a trace at all";
	struct tdw_buf b = { (uint8_t *)text, sizeof(text), sizeof(text) };
	repair(&b, &r);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_UNSUPPORTED);
	repaired_release(&r);
}

/*
 * What other writers and kernels put in good files (a whole trace_clock listing, kernel_stack
 * records holding `size` of their 8 entries, a string without its NUL) is no damage: repair has
 * nothing to do, and when another fault makes it write the file, every event is kept.
 */
static void test_writer_quirks_keep_every_event(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.clock_trailer = TDW_CLOCK_LISTING;
	x->spec.extra_format = kernel_stack_fmt;
	fx_build(x);
	tdw_put16(&x->b, record_at(x, 3), 302, false); /* a kernel_stack of 1 entry in 24 bytes */
	tdw_put32(&x->b, record_at(x, 3) + 8, 1, false);
	uint64_t rec = record_at(x, 1); /* sched_wakeup, 16 bytes: "(nu" without its NUL */
	tdw_put32(&x->b, rec + 8, (4u << 16) | 12u, false);
	memcpy(x->b.data + rec + 12, "(nul", 4);
	struct repaired r;
	repair(&x->b, &r);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_int_equal(r.rep.before.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(r.rep.before.by_severity[TFK_SEV_WARNING], 0);
	assert_int_equal(count_code(&r.rep.before, "tracedat.event.unterminated-string"), 1);
	repaired_release(&r);

	/* a header CPU count that disagrees makes repair write the file: all events stay */
	tdw_put32(&x->b, x->L.cpu_count, 3, false);
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	assert_int_equal(kept_events(&r), x->L.events);
	for (size_t i = 0; i < r.rep.ncpus; i++)
		assert_int_equal(r.rep.cpus[i].pages_clipped + r.rep.cpus[i].pages_dropped, 0);
	repaired_release(&r);
	fx_free(x);
}

static int write_file(void *user, const char *bytes, size_t len)
{
	return fwrite(bytes, 1, len, user) == len ? 0 : -1;
}

static void test_truncated_v6(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.len = page_at(x, 1, 1) + 300; /* cut inside CPU1's second page */
	/* three whole pages, and the events wholly inside the 300 bytes of the cut one */
	uint64_t cut_events = tdw_events_within(&x->spec, 300);
	assert_true(cut_events > 0 && cut_events < x->spec.events_per_page);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, 3 * x->spec.events_per_page + cut_events, false);
	/* The salvage report says what the cut took: CPU1's second page, its bytes gone. */
	const struct tfk_salvage_cpu *c1 = NULL;
	for (size_t i = 0; i < r.rep.ncpus; i++)
		if (r.rep.cpus[i].cpu == 1)
			c1 = &r.rep.cpus[i];
	assert_non_null(c1);
	assert_int_equal(c1->bytes_declared, x->L.cpu_size[1]);
	assert_int_equal(c1->bytes_missing, x->L.cpu_size[1] - x->spec.page_size - 300);
	assert_int_equal(c1->pages_missing, 1);
	assert_int_equal(c1->pages_kept, 2);    /* the whole one, and what the cut left of the next */
	assert_int_equal(c1->pages_clipped, 1);
	struct tfk_salvage_totals t;
	tfk_salvage_sum(&r.rep, &t);
	assert_int_equal(t.events_kept, 3 * x->spec.events_per_page + cut_events);
	assert_int_equal(t.events_lost, 0);
	assert_int_equal(t.pages_missing, 1);
	assert_true(tfk_salvage_loss_unknown(&t));
	/* The same in text, from the library: the buffer line, CPU1's loss, the total. */
	char text[4096];
	FILE *mem = fmemopen(text, sizeof(text), "w");
	assert_non_null(mem);
	assert_int_equal(tfk_repair_report_text(&r.rep, "t.dat", write_file, mem), 0);
	fclose(mem);
	assert_non_null(strstr(text, "t.dat: salvage: 1 buffer, "));
	assert_non_null(strstr(text, "\nt.dat:   cpu1: kept 2 pages "));
	assert_non_null(strstr(text, "1 page past the end of the file"));
	assert_non_null(strstr(text, "\nt.dat: total: kept "));
	repaired_release(&r);
	fx_free(x);

	/* A CPU whose data begins past the end of the file: every declared page is lost. */
	x = fx_default();
	x->b.len = x->L.cpu_offset[1];
	repair(&x->b, &r);
	assert_repaired_as(&r, 2 * x->spec.events_per_page, false);
	tfk_salvage_sum(&r.rep, &t);
	assert_int_equal(t.pages_missing, x->spec.pages_per_cpu);
	assert_int_equal(t.events_kept, 2 * x->spec.events_per_page);
	repaired_release(&r);
	fx_free(x);
}

/*
 * A v7 file cut before its options: no event survives, so nothing was salvaged (exit 4), but
 * the metadata sections that are whole (headers, formats) are still written.
 */
static void test_no_event_left_keeps_metadata(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.version = 7;
	x->spec.codec = TDW_ZSTD;
	fx_build(x);
	x->b.len = x->L.options_sec[0];
	struct repaired r;
	repair(&x->b, &r);
	assert_int_equal(r.rep.outcome, TFK_REPAIR_NOTHING_SALVAGED);
	assert_non_null(r.out);
	struct tfk_report again;
	tfk_check_buffer(r.out, r.len, fast_limits(), &again);
	assert_int_equal(tfk_report_verdict(&again), TFK_VERDICT_CLEAN);
	tfk_report_free(&again);
	assert_non_null(memmem(r.out, r.len, "name: sched_switch", 18));
	assert_non_null(memmem(r.out, r.len, "field: u64 timestamp", 20));
	repaired_release(&r);
	fx_free(x);
}

static void test_bad_commit_page_dropped_and_flagged(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.pages_per_cpu = 3;
	fx_build(x);
	put_commit(x, page_at(x, 0, 1), 0xc7ffffffull); /* the libtracecmd SIGSEGV page */
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, 5 * x->spec.events_per_page, false);
	assert_int_equal(r.rep.cpus[0].pages_dropped, 1);
	assert_true(r.rep.cpus[0].lost_time_known);
	/* the next kept page of CPU0 carries the missed-events flag, so readers show the loss */
	struct tdw_buf out = { r.out, r.len, r.len };
	struct tfk_report chk;
	tfk_check_buffer(r.out, r.len, fast_limits(), &chk);
	assert_int_equal(count_code(&chk, "tracedat.page.events-lost"), 1);
	tfk_report_free(&chk);
	(void)out;
	repaired_release(&r);
	fx_free(x);
}

static void test_bad_event_page_clipped(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	/* The 6th event of CPU1's first page gets a length word of 2: events 0..4 survive. */
	uint64_t p = page_at(x, 1, 0) + 16, at = p;
	for (int i = 0; i < 5; i++) {
		uint32_t w = tdw_get32(&x->b, at, false);
		unsigned tl = w & 31;
		at += tl ? 4 + 4 * tl : 4 + tdw_get32(&x->b, at + 4, false);
	}
	tdw_put32(&x->b, at, 0, false);
	tdw_put32(&x->b, at + 4, 2, false);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events - (x->spec.events_per_page - 5), false);
	assert_int_equal(r.rep.cpus[1].pages_clipped, 1);
	repaired_release(&r);
	fx_free(x);
}

static void test_table_and_option_damage(void **state)
{
	(void)state;
	/* CPUCOUNT says 1 (readers drop CPU1): nothing is lost after repair */
	struct fx *x = fx_default();
	tdw_put32(&x->b, x->L.cpucount_payload, 1, false);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	repaired_release(&r);
	fx_free(x);

	/* options that crash libtracecmd are dropped */
	static const uint8_t guest_neg[] = { 'g', 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0 };
	struct tdw_option bad[] = { { 2, "", 0 }, { 10, "", 0 }, { 6, "nonsense", 9 }, { 13, guest_neg, sizeof(guest_neg) } };
	for (size_t i = 0; i < 4; i++) {
		x = fx_new();
		x->spec.extra[0] = bad[i];
		x->spec.nextra = 1;
		fx_build(x);
		repair(&x->b, &r);
		assert_repaired_as(&r, x->L.events, false);
		assert_int_equal(r.rep.options_dropped, 1);
		repaired_release(&r);
		fx_free(x);
	}

	/* a header with a wrong page size and endianness byte */
	x = fx_default();
	tdw_put32(&x->b, 14, 0, false);
	x->b.data[12] = 9;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	assert_int_equal(r.out[12], 0);
	repaired_release(&r);
	fx_free(x);
}

static void test_table_rebuilt_from_a_page_scan(void **state)
{
	(void)state;
	/* CPU1's offset is misaligned and CPU0's points past the end: the pages are still there */
	struct fx *x = fx_new();
	x->spec.pages_per_cpu = 3;
	fx_build(x);
	tdw_put64(&x->b, x->L.table + 16, x->L.cpu_offset[1] + 24, false);
	tdw_put64(&x->b, x->L.table, 1ull << 44, false);
	struct tfk_report chk;
	tfk_check_buffer(x->b.data, x->b.len, NULL, &chk);
	note_raised(&chk);
	assert_code_at(&chk, "tracedat.cpu.recoverable-pages", x->L.cpu_offset[0]);
	tfk_report_free(&chk);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	repaired_release(&r);
	fx_free(x);
}

static void test_zeroed_table_rebuilt(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.pages_per_cpu = 3;
	x->spec.instance = NULL;
	fx_build(x);
	memset(x->b.data + x->L.table, 0, 32);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	repaired_release(&r);
	fx_free(x);
}

/*
 * Zero pages (between pages with events, and at a CPU's end) are kept as they are when a file is
 * repaired (here for a bad commit word, an error): they may be a sub-buffer's unused tail that
 * trace-cmd convert wrote (tracedat.page.zeroed), and the reader skips them. The output keeps
 * every event the check walked and re-checks clean, with the zero pages still reported, in v6
 * and v7 layouts.
 */
static void test_zeroed_pages_kept(void **state)
{
	(void)state;
	for (unsigned version = 6; version <= 7; version++) {
		struct fx *x = fx_new();
		x->spec.version = version;
		x->spec.codec = TDW_NONE;
		x->spec.ncpus = 2;
		x->spec.pages_per_cpu = 4;
		x->spec.instance = NULL;
		fx_build(x);
		memset(x->b.data + page_at(x, 0, 1), 0, 4096);
		memset(x->b.data + page_at(x, 1, 3), 0, 4096);
		put_commit(x, page_at(x, 1, 1), 0x30000000ull | x->spec.page_size);
		check(&x->b, &x->r);
		uint64_t walked = x->r.stats.events;
		assert_true(walked > 0 && walked < x->L.events);
		struct repaired r;
		repair(&x->b, &r);
		assert_repaired_as(&r, walked, false);
		struct tfk_report again;
		tfk_check_buffer(r.out, r.len, fast_limits(), &again);
		uint64_t zeroed = 0;
		for (size_t i = 0; i < again.count; i++)
			zeroed += strcmp(again.findings[i].fault->id, "tracedat.page.zeroed") == 0;
		assert_int_equal(zeroed, 2);
		tfk_report_free(&again);
		repaired_release(&r);
		fx_free(x);
	}
}

/* perf.data (spec 1.10): killed, truncated, a bad record in the middle, attr_size, features. */
static void perf_fixture(struct pdw_spec s, struct tdw_buf *b, struct pdw_layout *L)
{
	assert_int_equal(pdw_build(&s, b, L), 0);
}

static void test_perf_killed_and_truncated(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	struct tdw_buf b;
	struct pdw_layout L;
	s.killed = true;
	perf_fixture(s, &b, &L);
	struct repaired r;
	repair(&b, &r);
	assert_repaired_as(&r, 12, false);
	assert_true(r.len <= b.len);
	assert_int_equal(tdw_get64(&(struct tdw_buf){ r.out, r.len, r.len }, 48, false), L.data_size);
	repaired_release(&r);
	tdw_free(&b);

	/* Cut inside sample 7: the whole records before it are kept, the feature table goes. */
	perf_fixture(pdw_default_spec(), &b, &L);
	b.len = L.sample[7] + 30;
	repair(&b, &r);
	assert_repaired_as(&r, 7, false);
	assert_int_equal(r.len, L.sample[7]); /* nothing after the last whole record, no features */
	assert_int_equal(r.rep.options_dropped, 4);
	repaired_release(&r);
	tdw_free(&b);
}

static void test_perf_bad_record_dropped(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct pdw_layout L;
	perf_fixture(pdw_default_spec(), &b, &L);
	tdw_put64(&b, L.sample[5] + 8 + 40, 1ull << 40, false); /* sample 5's callchain overruns */
	struct repaired r;
	repair(&b, &r);
	assert_repaired_as(&r, 11, false); /* its size still finds sample 6: only sample 5 is left out */
	assert_int_equal(r.len, b.len - (L.sample[6] - L.sample[5]));
	assert_int_equal(r.rep.options_dropped, 0); /* the features move up behind the shorter data */
	repaired_release(&r);
	tdw_free(&b);

	/* A size that cannot be trusted: the walk resynchronises on sample 6, only sample 5 is lost. */
	perf_fixture(pdw_default_spec(), &b, &L);
	tdw_put16(&b, L.sample[5] + 6, 3, false);
	repair(&b, &r);
	assert_repaired_as(&r, 11, false);
	repaired_release(&r);
	tdw_free(&b);
}

static void test_perf_header_fixes(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct pdw_layout L;
	perf_fixture(pdw_default_spec(), &b, &L);
	tdw_put64(&b, 16, 152, false); /* attr_size disagrees with attr.size + 16 = 144 */
	tdw_put32(&b, L.feature_at[0], 4096, false); /* HOSTNAME's string runs out of its section */
	struct repaired r;
	repair(&b, &r);
	assert_repaired_as(&r, 12, false);
	struct tdw_buf o = { r.out, r.len, r.len };
	assert_int_equal(tdw_get64(&o, 16, false), 144);
	assert_int_equal(r.rep.options_dropped, 1);
	assert_false(tdw_get64(&o, 72, false) & (1ull << 3)); /* HOSTNAME's bit is gone */
	repaired_release(&r);
	tdw_free(&b);
}

static void test_perf_compressed_killed(void **state)
{
	(void)state;
	/* perf record -z killed: no COMPRESSED feature, which perf needs to decode; it is rebuilt. */
	struct pdw_spec s = pdw_default_spec();
	s.compressed = true;
	s.killed = true;
	struct tdw_buf b;
	struct pdw_layout L;
	perf_fixture(s, &b, &L);
	struct repaired r;
	repair(&b, &r);
	assert_repaired_as(&r, 12, false);
	struct tdw_buf o = { r.out, r.len, r.len };
	assert_int_equal(tdw_get64(&o, 72, false), 1ull << 27);
	assert_int_equal(r.len, b.len + 36);
	repaired_release(&r);
	tdw_free(&b);
}

static void test_bad_metadata_lines_dropped(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	const uint8_t *p = memmem(x->b.data, x->b.len, "fixture_sym1", 12);
	assert_non_null(p);
	x->b.data[p - x->b.data + 3] = 0x01;
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	assert_non_null(memmem(r.out, r.len, "fixture_sym0\n", 13)); /* the good line is kept */
	assert_null(memmem(r.out, r.len, "fix\x01", 4));
	repaired_release(&r);
	fx_free(x);
}

static void test_instances_and_big_endian(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.instance = "net";
	x->spec.instance_pages = 2;
	x->spec.big_endian = true;
	x->spec.long_size = 4;
	fx_build(x);
	x->b.len -= 1000; /* cut inside the instance's last page: its events before the cut are kept */
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events - x->spec.events_per_page + tdw_events_within(&x->spec, x->spec.page_size - 1000), false);
	assert_int_equal(r.rep.buffers, 2);
	repaired_release(&r);
	fx_free(x);
}

/*
 * The shape `trace-cmd convert` gives a recording whose top buffer is empty: the top CPUs'
 * entries are size 0, offset 0, and only an instance holds pages. Those pages are claimed by
 * the instance's table, so the top buffer's page scan must not take them: the file checks
 * clean, and a cut copy repairs with every surviving event written once.
 */
static void test_instance_only_v6(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.pages_per_cpu = 0;
	x->spec.instance = "io";
	x->spec.instance_pages = 3;
	fx_build(x); /* the instance's table follows the top's with nothing between them */
	assert_int_equal(x->L.inst_flyrecord_tag, x->L.clock + 8 + 7);
	check(&x->b, &x->r);
	if (tfk_report_verdict(&x->r) != TFK_VERDICT_CLEAN || x->r.total != 0) {
		dump(&x->r);
		fail_msg("an instance-only file is not clean");
	}
	assert_int_equal(x->r.stats.events, x->L.events);
	assert_int_equal(x->L.events, 6 * x->spec.events_per_page);

	x->b.len = x->L.inst_cpu_offset[1] + x->spec.page_size + 300; /* inside cpu1's second page */
	uint64_t want = 4 * x->spec.events_per_page + tdw_events_within(&x->spec, 300);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, want, false);
	assert_int_equal(kept_events(&r), want);
	repaired_release(&r);
	fx_free(x);
}

static void test_v7_inputs(void **state)
{
	(void)state;
	int codecs[] = { TDW_NONE, TDW_ZSTD, TDW_ZLIB };
	for (size_t c = 0; c < 3; c++) {
		/* truncated inside CPU1's data: the BUFFER option is lost, CPU0 survives whole */
		struct fx *x = fx_new();
		x->spec.version = 7;
		x->spec.codec = codecs[c];
		x->spec.pages_per_cpu = 3;
		x->spec.pages_per_chunk = 2;
		fx_build(x);
		x->b.len = codecs[c] == TDW_NONE ? x->L.cpu_offset[1] : x->L.cpu_chunk[1];
		struct repaired r;
		repair(&x->b, &r);
		assert_repaired_as(&r, 3 * x->spec.events_per_page, false);
		assert_non_null(strstr(r.rep.converted, "-> v6"));
		repaired_release(&r);
		fx_free(x);
	}

	/* a compression name damaged: restored from the blocks' magic, every event kept */
	for (size_t c = 1; c < 3; c++) {
		struct fx *y = fx_new();
		y->spec.version = 7;
		y->spec.codec = codecs[c];
		fx_build(y);
		memcpy(y->b.data + 18, "brot", 4);
		struct repaired r;
		repair(&y->b, &r);
		assert_repaired_as(&r, y->L.events, false);
		repaired_release(&r);
		fx_free(y);
	}

	/* a DONE cycle: the data behind the loop is recovered */
	struct fx *x = fx_new();
	x->spec.version = 7;
	x->spec.codec = TDW_ZSTD;
	fx_build(x);
	tdw_put64(&x->b, x->L.done_payload[0], x->L.options_sec[0], false);
	struct repaired r;
	repair(&x->b, &r);
	assert_repaired_as(&r, x->L.events, false);
	repaired_release(&r);
	fx_free(x);
}

static void test_every_prefix_repairs_clean(void **state)
{
	(void)state;
	int versions[] = { 6, 7 };
	for (size_t v = 0; v < 2; v++) {
		struct fx *x = fx_new();
		x->spec.version = versions[v];
		x->spec.codec = TDW_ZSTD;
		x->spec.instance = "net";
		x->spec.instance_pages = 1;
		fx_build(x);
		for (uint64_t cut = 0; cut < x->b.len; cut += 97) {
			struct repaired r;
			tfk_repair_buffer(x->b.data, cut, fast_limits(), &r.out, &r.len, &r.rep);
			if (cut % (97 * 5) == 0) {
				struct tdw_buf prefix = { x->b.data, cut, cut };
				assert_same_through_files(&prefix, &r);
			}
			if (r.rep.outcome == TFK_REPAIR_FAILED)
				fail_msg("v%d cut at %llu: repaired output not clean", versions[v], (unsigned long long)cut);
			if (r.rep.outcome == TFK_REPAIR_DONE) {
				struct tfk_report chk;
				tfk_check_buffer(r.out, r.len, fast_limits(), &chk);
				assert_int_equal(tfk_report_verdict(&chk), TFK_VERDICT_CLEAN);
				assert_int_equal(chk.stats.events, kept_events(&r));
				tfk_report_free(&chk);
			}
			repaired_release(&r);
		}
		fx_free(x);
	}
}

/* Bytes of a file, or -1 when it cannot be read (at most n). */
static long slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t got = fread(buf, 1, n, f);
	fclose(f);
	return (long)got;
}

/* How many entries (. and .. left out) a directory holds, or -1. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/*
 * A repaired directory is written beside its target and renamed into place whole: made, kept
 * and zero segments land in its members, nested members get their directories, bad names are
 * refused, the input directory is replaced at once in place, and an aborted one leaves nothing.
 */
static void test_directory_output(void **state)
{
	(void)state;
	char base[] = "/tmp/tfk-dirout-XXXXXX", target[256], path[512], buf[64];
	assert_non_null(mkdtemp(base));
	snprintf(target, sizeof(target), "%s/out.d", base);
	static const uint8_t kept[] = "kept bytes";
	struct rp_out o = { 0 };
	rp_out_put(&o, "made:", 5);
	rp_out_keep(&o, kept, 4);
	rp_out_zeros_to(&o, o.len + 3);

	struct rp_dir d;
	assert_int_equal(rp_dir_begin(&d, target, false), 0);
	assert_int_equal(entries(base), 1); /* the temporary directory, beside the target */
	assert_int_equal(rp_dir_member(&d, "info", &o), 0);
	assert_int_equal(rp_dir_member(&d, "kernel/channel0_0", &o), 0);
	assert_int_equal(rp_dir_member(&d, "info", &o), -1); /* never over a member already written */
	assert_int_equal(rp_dir_member(&d, "../escape", &o), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(rp_dir_member(&d, "/abs", &o), -1);
	assert_int_equal(rp_dir_member(&d, "", &o), -1);
	assert_int_equal(rp_dir_commit(&d), 0);
	snprintf(path, sizeof(path), "%s/kernel/channel0_0", target);
	assert_int_equal(slurp(path, buf, sizeof(buf)), 12);
	assert_memory_equal(buf, "made:kept\0\0\0", 12);
	assert_int_equal(entries(base), 1); /* renamed: no temporary directory left */
	assert_int_equal(entries(target), 2);

	/* In place, the input directory (not empty) is replaced whole. */
	struct rp_out small = { 0 };
	rp_out_put(&small, "new", 3);
	assert_int_equal(rp_dir_begin(&d, target, true), 0);
	assert_int_equal(rp_dir_member(&d, "metadata", &small), 0);
	assert_int_equal(rp_dir_commit(&d), 0);
	assert_int_equal(entries(target), 1);
	snprintf(path, sizeof(path), "%s/metadata", target);
	assert_int_equal(slurp(path, buf, sizeof(buf)), 3);
	assert_int_equal(entries(base), 1);

	/* Aborted: the target stays as it was, the temporary directory goes. */
	assert_int_equal(rp_dir_begin(&d, target, false), 0);
	assert_int_equal(rp_dir_member(&d, "x/y/z", &small), 0);
	rp_dir_abort(&d);
	assert_int_equal(entries(base), 1);
	assert_int_equal(entries(target), 1);

	unlink(path);
	rmdir(target);
	rmdir(base);
	rp_out_free(&o);
	rp_out_free(&small);
}

/*
 * A directory that appears at the target while the output is written is never replaced nor
 * emptied: the commit fails with EEXIST and what was put there stays. An empty directory that
 * was the target at the start is replaced, but not once something was put into it. A dead
 * run's temporary directory (SIGKILL) is swept when the next one begins; a live run's is not.
 */
static void test_directory_output_race(void **state)
{
	(void)state;
	char base[] = "/tmp/tfk-dirrace-XXXXXX", target[256], path[512], buf[16];
	assert_non_null(mkdtemp(base));
	snprintf(target, sizeof(target), "%s/out", base);
	struct rp_out small = { 0 };
	rp_out_put(&small, "new", 3);

	struct rp_dir d;
	assert_int_equal(rp_dir_begin(&d, target, false), 0);
	assert_int_equal(rp_dir_member(&d, "metadata", &small), 0);
	assert_int_equal(mkdir(target, 0755), 0); /* another process: mkdir out; echo x > out/precious.txt */
	snprintf(path, sizeof(path), "%s/precious.txt", target);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x\n", 2), 2);
	close(fd);
	assert_int_equal(rp_dir_commit(&d), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(slurp(path, buf, sizeof(buf)), 2); /* still there */
	assert_int_equal(entries(target), 1);
	assert_int_equal(entries(base), 1); /* and our temporary directory is gone */

	/* An empty target at the start that is filled meanwhile: kept as it is. */
	unlink(path);
	assert_int_equal(rp_dir_begin(&d, target, false), 0);
	assert_int_equal(rp_dir_member(&d, "metadata", &small), 0);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(rp_dir_commit(&d), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);

	/* Still empty at the end: replaced. */
	assert_int_equal(rp_dir_begin(&d, target, false), 0);
	assert_int_equal(rp_dir_member(&d, "metadata", &small), 0);
	assert_int_equal(rp_dir_commit(&d), 0);
	snprintf(path, sizeof(path), "%s/metadata", target);
	assert_int_equal(slurp(path, buf, sizeof(buf)), 3);
	unlink(path);
	rmdir(target);

	/* Leftovers: a dead run's directory and file go, a live run's (the parent of this test's, running) stays. */
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	char dead_dir[512], dead_file[512], live[512];
	snprintf(dead_dir, sizeof(dead_dir), "%s/.tracefsck-%ld.d", base, (long)child);
	snprintf(dead_file, sizeof(dead_file), "%s/.tracefsck-%ld.0", base, (long)child);
	snprintf(live, sizeof(live), "%s/.tracefsck-%ld.d", base, (long)getppid());
	assert_int_equal(mkdir(dead_dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/member", dead_dir);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	close(open(dead_file, O_WRONLY | O_CREAT, 0644));
	assert_int_equal(mkdir(live, 0700), 0);
	rp_sweep_leftovers(base);
	assert_int_equal(access(dead_dir, F_OK), -1);
	assert_int_equal(access(dead_file, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	rmdir(live);
	assert_int_equal(entries(base), 0);
	rmdir(base);
	rp_out_free(&small);
}

/*
 * The registry holds a plug-in for each format this build repairs, found by the check's
 * descriptor itself: a descriptor of the same name that is not the registry's finds none.
 */
static void test_registry(void **state)
{
	(void)state;
	assert_non_null(rp_format_for(&tfk_format_tracedat));
	assert_non_null(rp_format_for(&tfk_format_perf));
	assert_ptr_equal(rp_format_for(&tfk_format_perf)->format, &tfk_format_perf);
	const struct tfk_format lookalike = tfk_format_tracedat;
	assert_null(rp_format_for(&lookalike));
	assert_null(rp_format_for(NULL));
	/* A plug-in found for a format of the check's registry is that format's. */
	size_t n;
	const struct tfk_format *const *all = tfk_formats(&n);
	for (size_t i = 0; i < n; i++) {
		const struct rp_format *p = rp_format_for(all[i]);
		if (p)
			assert_ptr_equal(p->format, all[i]);
	}
	/*
	 * A report's plug-in is the one of the format that checked it, by identity: the text of
	 * stats.format plays no part (a name that begins like another format's picks nothing).
	 */
	struct tfk_report r = { .stats.format = "perf.data", .checked_by = &tfk_format_tracedat };
	assert_ptr_equal(rp_format_of_report(&r), rp_format_for(&tfk_format_tracedat));
	r = (struct tfk_report){ .stats.format = "trace.dat v7 (zstd)" };
	assert_null(rp_format_of_report(&r));
	/* and a real check sets it */
	static const uint8_t not_a_trace[8] = { 1, 2, 3 };
	tfk_check_buffer(not_a_trace, sizeof(not_a_trace), NULL, &r);
	assert_null(r.checked_by);
	tfk_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_input_is_left_alone),
		cmocka_unit_test(test_writer_quirks_keep_every_event),
		cmocka_unit_test(test_truncated_v6),
		cmocka_unit_test(test_instance_only_v6),
		cmocka_unit_test(test_no_event_left_keeps_metadata),
		cmocka_unit_test(test_bad_commit_page_dropped_and_flagged),
		cmocka_unit_test(test_bad_event_page_clipped),
		cmocka_unit_test(test_table_and_option_damage),
		cmocka_unit_test(test_table_rebuilt_from_a_page_scan),
		cmocka_unit_test(test_zeroed_table_rebuilt),
		cmocka_unit_test(test_zeroed_pages_kept),
		cmocka_unit_test(test_perf_killed_and_truncated),
		cmocka_unit_test(test_perf_bad_record_dropped),
		cmocka_unit_test(test_perf_header_fixes),
		cmocka_unit_test(test_perf_compressed_killed),
		cmocka_unit_test(test_bad_metadata_lines_dropped),
		cmocka_unit_test(test_instances_and_big_endian),
		cmocka_unit_test(test_v7_inputs),
		cmocka_unit_test(test_every_prefix_repairs_clean),
		cmocka_unit_test(test_directory_output),
		cmocka_unit_test(test_directory_output_race),
		cmocka_unit_test(test_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
