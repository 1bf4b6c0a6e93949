/* SPDX-License-Identifier: MIT */
/*
 * Walking CPUs on worker threads (limits.threads) changes the time a check takes and nothing
 * else: the same findings, in the same order, with the same counts, under every policy and cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <unistd.h>

#include "test_hooks.h"
#include "tracedat_helpers.h"
#include "tracefsck/observer.h"
#include "tracefsck/policy.h"
#include "tracefsck/repair.h"

static void assert_same_report(const struct tfk_report *a, const struct tfk_report *b, const char *what)
{
	if (a->count != b->count || a->total != b->total || a->disabled != b->disabled ||
	    memcmp(a->by_severity, b->by_severity, sizeof(a->by_severity)) != 0 || a->incomplete != b->incomplete ||
	    a->internal_error != b->internal_error) {
		dump(a);
		dump(b);
		fail_msg("%s: counts differ (%zu/%llu vs %zu/%llu findings)", what, a->count, (unsigned long long)a->total,
			 b->count, (unsigned long long)b->total);
	}
	assert_int_equal(a->stats.pages, b->stats.pages);
	assert_int_equal(a->stats.events, b->stats.events);
	assert_int_equal(a->stats.events_lost, b->stats.events_lost);
	assert_int_equal(a->stats.cpus, b->stats.cpus);
	assert_int_equal(a->stats.buffers, b->stats.buffers);
	for (size_t i = 0; i < a->count; i++) {
		const struct tfk_finding *x = &a->findings[i], *y = &b->findings[i];
		if (x->fault != y->fault || x->severity != y->severity || x->offset != y->offset || x->length != y->length ||
		    x->has_offset != y->has_offset || strcmp(x->path, y->path) != 0 ||
		    strcmp(x->expected, y->expected) != 0 || strcmp(x->found, y->found) != 0)
			fail_msg("%s: finding %zu differs: %s at 0x%llx (%s) vs %s at 0x%llx (%s)", what, i, x->fault->id,
				 (unsigned long long)x->offset, x->path, y->fault->id, (unsigned long long)y->offset, y->path);
	}
}

/* Findings whose path names CPU c (walk findings of that CPU). */
static size_t on_cpu(const struct tfk_report *r, unsigned c)
{
	char want[16];
	snprintf(want, sizeof(want), "cpu%u ", c);
	size_t n = 0;
	for (size_t i = 0; i < r->count; i++)
		n += strstr(r->findings[i].path, want) != NULL;
	return n;
}

/* Damage pages of every CPU: bad commits, scribbled event headers, a zeroed page. */
static void damage(struct fx *x)
{
	const uint32_t ps = x->spec.page_size;
	uint32_t seed = 12345;
	for (unsigned c = 0; c < x->spec.ncpus; c++) {
		uint64_t start = x->L.cpu_offset[c], pages = x->L.cpu_size[c] / ps;
		for (unsigned k = 0; k < 6 + c; k++) {
			seed = seed * 1103515245u + 12345u;
			uint64_t page = start + (uint64_t)(seed >> 8) % pages * ps;
			switch (k % 3) {
			case 0:
				put_commit(x, page, 0x30000000ull | ps);
				break;
			case 1:
				for (unsigned b = 0; b < 64; b++)
					x->b.data[page + 16 + 40 + b] = (uint8_t)(seed >> (b % 24));
				break;
			default:
				memset(x->b.data + page, 0, ps);
				break;
			}
		}
	}
}

static void check_with(const struct fx *x, struct tfk_limits lim, uint32_t threads, struct tfk_report *r)
{
	lim.threads = threads;
	tfk_check_buffer(x->b.data, x->b.len, &lim, r);
}

static void compare_all(const struct fx *x, const char *name, bool faults_on_every_cpu)
{
	struct tfk_policy *p = tfk_policy_new();
	assert_non_null(p);
	assert_true(tfk_policy_disable(p, "tracedat.page.bad-commit") == 1);
	assert_true(tfk_policy_set_severity(p, "tracedat.page.*", TFK_SEV_NOTE) > 0);
	struct tfk_limits variants[4];
	for (int i = 0; i < 4; i++)
		variants[i] = *fast_limits();
	variants[1].max_findings = 7;     /* the cap falls inside a replayed walk */
	variants[2].max_per_place = 1;    /* most findings only counted */
	variants[3].policy = p;           /* disabled and re-graded at replay */
	for (int i = 0; i < 4; i++) {
		struct tfk_report one, many;
		check_with(x, variants[i], 1, &one);
		check_with(x, variants[i], 3, &many);
		char what[64];
		snprintf(what, sizeof(what), "%s, limits variant %d", name, i);
		assert_same_report(&one, &many, what);
		if (i == 0 && faults_on_every_cpu) {
			/* the test means something only when several CPUs' walks found faults */
			for (unsigned c = 0; c < x->spec.ncpus; c++)
				if (on_cpu(&one, c) == 0) {
					dump(&one);
					fail_msg("%s: no finding on cpu%u", name, c);
				}
			assert_true(one.by_severity[TFK_SEV_ERROR] > 0);
		}
		tfk_report_free(&one);
		tfk_report_free(&many);
	}
	tfk_policy_free(p);
}

/* What an observer heard, reduced to a running hash of every call and its arguments. */
struct heard {
	uint64_t hash, pages, items, cpus;
	uint32_t page_size;
};

static void mix(struct heard *h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h->hash = (h->hash ^ b[i]) * 0x100000001b3ull;
}

static void heard_cpu(void *user, uint32_t cpu)
{
	struct heard *h = user;
	h->cpus++;
	mix(h, "c", 1);
	mix(h, &cpu, sizeof(cpu));
}

static void heard_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	struct heard *h = user;
	h->pages++;
	mix(h, "p", 1);
	if (info->file_offset == TFK_PAGE_DECODED)
		mix(h, page, h->page_size); /* a decoded page lives in a buffer of the run: its bytes */
	else
		mix(h, &page, sizeof(page));
	mix(h, &info->state, sizeof(info->state));
	mix(h, &info->good_len, sizeof(info->good_len));
	mix(h, &info->events, sizeof(info->events));
	mix(h, &info->first_ts, sizeof(info->first_ts));
	mix(h, &info->last_ts, sizeof(info->last_ts));
	mix(h, &info->missed_count, sizeof(info->missed_count));
}

static void heard_item(void *user, const struct tfk_item *item)
{
	struct heard *h = user;
	h->items++;
	mix(h, "i", 1);
	mix(h, &item->offset, sizeof(item->offset));
	mix(h, &item->length, sizeof(item->length));
	mix(h, item->name, strlen(item->name));
	mix(h, item->detail, strlen(item->detail));
}

/* An observer hears the same calls, in the same order, on any number of threads. */
static void compare_observed(const struct fx *x, const char *name)
{
	struct heard one = { 14695981039346656037ull, 0, 0, 0, x->spec.page_size }, many = one;
	struct tfk_observer o1 = { .user = &one, .cpu = heard_cpu, .page = heard_page, .item = heard_item };
	struct tfk_observer o3 = { .user = &many, .cpu = heard_cpu, .page = heard_page, .item = heard_item };
	struct tfk_limits lim = *fast_limits();
	struct tfk_report a, b;
	lim.threads = 1;
	tfk_check_buffer_observed(x->b.data, x->b.len, &lim, &o1, &a);
	lim.threads = 3;
	tfk_check_buffer_observed(x->b.data, x->b.len, &lim, &o3, &b);
	assert_same_report(&a, &b, name);
	assert_true(one.pages > 0 && one.items > 0 && one.cpus > 0);
	assert_int_equal(one.pages, many.pages);
	assert_int_equal(one.items, many.items);
	assert_int_equal(one.cpus, many.cpus);
	if (one.hash != many.hash)
		fail_msg("%s: the observer heard something else on threads", name);
	tfk_report_free(&a);
	tfk_report_free(&b);

	/* and repair, built on what its observer hears, writes the same bytes */
	struct tfk_repair_report r1, r3;
	uint8_t *out1, *out3;
	size_t len1, len3;
	lim.threads = 1;
	tfk_repair_buffer(x->b.data, x->b.len, &lim, &out1, &len1, &r1);
	lim.threads = 3;
	tfk_repair_buffer(x->b.data, x->b.len, &lim, &out3, &len3, &r3);
	assert_int_equal(r1.outcome, TFK_REPAIR_DONE);
	assert_int_equal(r3.outcome, r1.outcome);
	assert_int_equal(len1, len3);
	assert_memory_equal(out1, out3, len1);
	free(out1);
	free(out3);
	tfk_repair_report_free(&r1);
	tfk_repair_report_free(&r3);
}

static void test_v6_threads_change_nothing(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.ncpus = 4;
	x->spec.pages_per_cpu = 12;
	x->spec.instance = "net";
	x->spec.instance_pages = 3;
	fx_build(x);
	damage(x);
	/* cpu3's entry points half a page off: its walk is findings only, as one thread does it */
	tdw_put64(&x->b, x->L.table + 16 * 3, x->L.cpu_offset[3] + x->spec.page_size / 2, x->spec.big_endian);
	compare_all(x, "v6", true);
	compare_observed(x, "v6 observed");
	fx_free(x);
}

static void test_v6_big_endian_threads_change_nothing(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.ncpus = 3;
	x->spec.pages_per_cpu = 10;
	x->spec.big_endian = true;
	x->spec.long_size = 4;
	fx_build(x);
	damage(x);
	compare_all(x, "v6 big-endian", true);
	compare_observed(x, "v6 big-endian observed");
	fx_free(x);
}

static void test_v7_threads_change_nothing(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.version = 7;
	x->spec.codec = TDW_NONE;
	x->spec.ncpus = 4;
	x->spec.pages_per_cpu = 12;
	fx_build(x);
	damage(x);
	compare_all(x, "v7 uncompressed", true);
	compare_observed(x, "v7 uncompressed observed");
	fx_free(x);
}

/* The chunk headers of a compressed CPU: where chunk k's header is. */
static uint64_t chunk_header(const struct fx *x, unsigned cpu, unsigned k)
{
	uint64_t at = x->L.cpu_chunk[cpu] + 4;
	for (unsigned i = 0; i < k; i++)
		at += 8 + tdw_get32(&x->b, at, x->spec.big_endian);
	return at;
}

/*
 * zstd CPUs are decoded on the workers, each with its own decoder: the same report, observer
 * calls and repair as one thread, with damage in every CPU's chunks and a table entry whose
 * size disagrees with its chunks (a finding the walk makes, replayed in order).
 */
static void test_v7_zstd_threads_change_nothing(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.version = 7;
	x->spec.codec = TDW_ZSTD;
	x->spec.ncpus = 4;
	x->spec.pages_per_cpu = 30;
	x->spec.pages_per_chunk = 10;
	x->spec.cpu0_commit = 0x30000000ull | x->spec.page_size; /* a bad page inside cpu0's first chunk */
	fx_build(x);
	const bool be = x->spec.big_endian;
	for (unsigned c = 0; c < 4; c++) {
		uint64_t h = chunk_header(x, c, 1 + c % 2);
		uint32_t zsize = tdw_get32(&x->b, h, be);
		for (unsigned b = 0; b < 16; b++) /* the chunk's data scribbled: it does not decode */
			x->b.data[h + 8 + zsize / 2 + b] ^= 0x5a;
	}
	uint64_t h0 = chunk_header(x, 3, 0); /* cpu3's first chunk claims a page more than it holds */
	tdw_put32(&x->b, h0 + 4, tdw_get32(&x->b, h0 + 4, be) + x->spec.page_size, be);
	/* the top BUFFER option: id, size, section, "", "local", page size, count, then the entries */
	uint64_t entries = x->L.buffer_opt[0] + 6 + 8 + 1 + 6 + 4 + 4;
	assert_int_equal(tdw_get32(&x->b, entries + 20 * 2, be), 2);
	tdw_put64(&x->b, entries + 20 * 2 + 12, tdw_get64(&x->b, entries + 20 * 2 + 12, be) + 8, be);

	struct tfk_report r;
	check_with(x, *fast_limits(), 1, &r);
	assert_int_equal(count_code(&r, "tracedat.compression.corrupt"), 5);
	assert_code_at(&r, "tracedat.buffer.bad-entry", entries + 20 * 2 + 12);
	tfk_report_free(&r);
	compare_all(x, "v7 zstd", true);
	compare_observed(x, "v7 zstd observed");

	/* and the walks were taken from the workers: every CPU, without an observer */
	uint64_t taken = 0;
	struct tfk_test_hooks hooks = { .taken_ahead = &taken };
	struct tfk_limits lim = *fast_limits();
	lim.test_hooks = &hooks;
	check_with(x, lim, 3, &r);
	assert_int_equal(taken, 4);
	tfk_report_free(&r);
	fx_free(x);
}

/* A table that lost CPUs: the page scan finds their runs, classified and walked on threads. */
static void test_scan_threads_change_nothing(void **state)
{
	(void)state;
	for (int variant = 0; variant < 4; variant++) {
		struct fx *x = fx_new();
		x->spec.ncpus = 4;
		/* slices of whole 64-page words end inside runs, or (3) where a CPU's pages begin */
		x->spec.pages_per_cpu = variant == 3 ? 64 : 70 + 9 * variant;
		x->spec.big_endian = variant == 2;
		fx_build(x);
		damage(x);
		if (variant == 0 || variant == 3) {
			for (unsigned c = 0; c < 4; c++) /* zeroed: every entry says "no data" */
				memset(x->b.data + x->L.table + 16 * c, 0, 16);
		} else {
			/* two entries point outside the file: those CPUs are lost */
			tdw_put64(&x->b, x->L.table + 16 * 1, 1ull << 40, x->spec.big_endian);
			tdw_put64(&x->b, x->L.table + 16 * 3, 1ull << 41, x->spec.big_endian);
		}
		char name[32];
		snprintf(name, sizeof(name), "scan variant %d", variant);
		struct tfk_report r;
		check_with(x, *fast_limits(), 1, &r);
		/* the scan starts at the first lost CPU's pages: cpu0's when all were zeroed, else cpu1's */
		bool zeroed = variant == 0 || variant == 3;
		assert_int_equal(count_code(&r, "tracedat.cpu.recoverable-pages"), 1);
		assert_code_at(&r, "tracedat.cpu.recoverable-pages", x->L.cpu_offset[zeroed ? 0 : 1]);
		if (zeroed)
			assert_code_at(&r, "tracedat.cpu.lost-range", x->L.table);
		tfk_report_free(&r);
		compare_all(x, name, false);
		compare_observed(x, name);
		fx_free(x);
	}
}

/*
 * Every table entry claims all the CPU data: walking it eight times over would be what a
 * hostile table asks for. Walks stop at twice the file's size, a limit reached, reported once.
 */
static void test_repeated_ranges_are_capped(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.ncpus = 8;
	x->spec.pages_per_cpu = 6;
	fx_build(x);
	uint64_t all = x->L.cpu_offset[7] + x->L.cpu_size[7] - x->L.cpu_offset[0];
	for (unsigned c = 0; c < 8; c++) {
		tdw_put64(&x->b, x->L.table + 16 * c, x->L.cpu_offset[0], false);
		tdw_put64(&x->b, x->L.table + 16 * c + 8, all, false);
	}
	struct tfk_report r;
	check_with(x, *fast_limits(), 1, &r);
	/* two whole walks fit in twice the file's size; the third entry's is the limit, at its range */
	assert_true(3 * all > 2 * x->b.len && 2 * all <= 2 * x->b.len);
	assert_int_equal(count_code(&r, "core.limit.reached"), 1);
	assert_code_at(&r, "core.limit.reached", x->L.cpu_offset[0]);
	assert_true(r.incomplete);
	assert_int_equal(r.stats.pages, 2 * (all / x->spec.page_size));
	tfk_report_free(&r);
	compare_all(x, "repeated ranges", false);
	fx_free(x);
}

/* A fixture written to a temporary file; returns its path in path. */
static void save(const struct fx *x, char *path, size_t n)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, n, "%s/tfk-threads-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, x->b.data, x->b.len), (ssize_t)x->b.len);
	close(fd);
}

/*
 * Files large enough that each CPU's pages are read by descriptor in several windows (and
 * the page scan's classification too): the same report as the bytes checked in memory, on
 * one thread or three; and repair from the file writes what repair in memory writes.
 */
static void test_files_read_in_windows(void **state)
{
	(void)state;
	for (int variant = 0; variant < 3; variant++) {
		struct fx *x = fx_new();
		x->spec.ncpus = 4;
		x->spec.pages_per_cpu = 150; /* 600 KiB a CPU: windows of 256 KiB */
		x->spec.big_endian = variant == 2;
		fx_build(x);
		damage(x);
		if (variant == 1)
			for (unsigned c = 0; c < 4; c++)
				memset(x->b.data + x->L.table + 16 * c, 0, 16);
		char path[512], what[64];
		save(x, path, sizeof(path));
		struct tfk_report mem;
		check_with(x, *fast_limits(), 1, &mem);
		for (uint32_t t = 1; t <= 3; t += 2) {
			struct tfk_limits lim = *fast_limits();
			lim.threads = t;
			struct tfk_report file;
			tfk_check_file(path, &lim, &file);
			snprintf(what, sizeof(what), "file variant %d, %u threads", variant, t);
			assert_same_report(&mem, &file, what);
			tfk_report_free(&file);

			struct tfk_repair_report in_memory, from_file;
			uint8_t *out;
			size_t len;
			uint64_t flen;
			tfk_repair_buffer(x->b.data, x->b.len, &lim, &out, &len, &in_memory);
			char opath[600];
			snprintf(opath, sizeof(opath), "%s.out", path);
			int ofd = open(opath, O_RDWR | O_CREAT | O_TRUNC, 0600);
			assert_true(ofd >= 0);
			tfk_repair_file(path, ofd, &lim, &flen, &from_file);
			assert_int_equal(in_memory.outcome, TFK_REPAIR_DONE);
			assert_int_equal(from_file.outcome, in_memory.outcome);
			assert_int_equal(flen, len);
			uint8_t *back = malloc(len);
			assert_non_null(back);
			assert_int_equal(pread(ofd, back, len, 0), (ssize_t)len);
			assert_memory_equal(back, out, len);
			free(back);
			free(out);
			close(ofd);
			unlink(opath);
			tfk_repair_report_free(&in_memory);
			tfk_repair_report_free(&from_file);
		}
		tfk_report_free(&mem);
		unlink(path);
		fx_free(x);
	}
}

/*
 * Memory for threads, read windows and the walk ahead has a slower way round its absence:
 * with every such allocation failing, a file read by descriptor on three threads (a scan of
 * lost CPUs included) reports exactly what one thread with all its memory reports.
 */
static void test_optional_memory_changes_nothing(void **state)
{
	(void)state;
	for (int variant = 0; variant < 2; variant++) {
		struct fx *x = fx_new();
		x->spec.ncpus = 4;
		x->spec.pages_per_cpu = 150; /* read in windows */
		fx_build(x);
		damage(x);
		if (variant == 1) /* two CPUs lost: their pages are found by the scan */
			for (unsigned c = 1; c < 4; c += 2)
				tdw_put64(&x->b, x->L.table + 16 * c, 1ull << 40, x->spec.big_endian);
		char path[512], what[64];
		save(x, path, sizeof(path));
		struct tfk_limits full = *fast_limits(), starved = *fast_limits();
		full.threads = 1;
		starved.threads = 3;
		struct tfk_test_hooks hooks = { .fail_optional_alloc = 1 };
		starved.test_hooks = &hooks;
		struct tfk_report one, without;
		tfk_check_file(path, &full, &one);
		tfk_check_file(path, &starved, &without);
		snprintf(what, sizeof(what), "variant %d without optional memory", variant);
		assert_false(without.internal_error);
		assert_true(one.total > 0);
		if (variant == 1)
			assert_int_equal(count_code(&one, "tracedat.cpu.recoverable-pages"), 1);
		assert_same_report(&one, &without, what);
		tfk_report_free(&one);
		tfk_report_free(&without);
		unlink(path);
		fx_free(x);
	}
}

/* Clean files: the same statistics, and clean, on any number of threads. */
static void test_clean_file_on_threads(void **state)
{
	(void)state;
	struct fx *x = fx_new();
	x->spec.ncpus = 8;
	x->spec.pages_per_cpu = 5;
	fx_build(x);
	for (uint32_t t = 0; t <= 9; t += 3) {
		struct tfk_report r;
		check_with(x, *fast_limits(), t, &r);
		assert_int_equal(r.total, 0);
		assert_int_equal(r.stats.events, x->L.events);
		assert_int_equal(r.stats.pages, 8 * 5);
		assert_int_equal(r.stats.cpus, 8);
		tfk_report_free(&r);
	}
	fx_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6_threads_change_nothing),
		cmocka_unit_test(test_v6_big_endian_threads_change_nothing),
		cmocka_unit_test(test_v7_threads_change_nothing),
		cmocka_unit_test(test_v7_zstd_threads_change_nothing),
		cmocka_unit_test(test_scan_threads_change_nothing),
		cmocka_unit_test(test_repeated_ranges_are_capped),
		cmocka_unit_test(test_files_read_in_windows),
		cmocka_unit_test(test_clean_file_on_threads),
		cmocka_unit_test(test_optional_memory_changes_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
