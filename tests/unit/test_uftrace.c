/* SPDX-License-Identifier: MIT */
/*
 * uftrace data directories: the recorded sample checks clean with every record counted; each
 * code is raised on a damaged copy of it (made in a temporary directory) at its member and
 * offset or line; the uftrace 0.13 crashers of the spec are ordinary faults.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "raised.h"
#include "ring_events.h"
#include "uftrace_call.h"
#include "test_hooks.h"
#include "tracefsck/check.h"

#ifndef UF_SAMPLE
#define UF_SAMPLE "../shared/samples/uftrace/fib-args.uftrace.data"
#endif

#ifndef UF_KERNEL_SAMPLE
#define UF_KERNEL_SAMPLE "tests/data/uftrace-kernel.uftrace.data"
#endif

#define SAMPLE_RECORDS 362
#define SAMPLE_DAT "18985.dat"
#define SAMPLE_MAP "sid-260878a0ab9a6202.map"

static char dir[512];
static struct tfk_report rep;

static void run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

/* A writable copy of a recording in a new temporary directory (dir stays "" when it is absent). */
static int copy_sample(const char *sample)
{
	struct stat sb;
	if (stat(sample, &sb) != 0)
		return 0; /* the tests skip */
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tfk-uftrace-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s/' && chmod -R u+rw '%s'", sample, dir, dir);
	run(cmd);
	memset(&rep, 0, sizeof(rep));
	return 0;
}

static int setup(void **state)
{
	(void)state;
	return copy_sample(UF_SAMPLE);
}

/* The recording with kernel data (tests/data/README.md). */
static int setup_kernel(void **state)
{
	(void)state;
	return copy_sample(UF_KERNEL_SAMPLE);
}

static int teardown(void **state)
{
	(void)state;
	tfk_report_free(&rep);
	if (dir[0]) {
		char cmd[1200];
		snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' && rm -rf '%s'", dir, dir);
		run(cmd);
	}
	dir[0] = 0;
	return 0;
}

#define NEED_SAMPLE()                                   \
	do {                                            \
		if (!dir[0])                            \
			skip();                         \
	} while (0)

static void member_path(const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", dir, name);
}

static void write_member(const char *name, const void *data, size_t len)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void write_text(const char *name, const char *text)
{
	write_member(name, text, strlen(text));
}

static void append_member(const char *name, const void *data, size_t len)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	FILE *f = fopen(p, "ab");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void patch(const char *name, long off, const void *bytes, size_t len)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
}

static void patch_byte(const char *name, long off, uint8_t v)
{
	patch(name, off, &v, 1);
}

static long member_size(const char *name)
{
	char p[1024];
	struct stat sb;
	member_path(name, p, sizeof(p));
	assert_int_equal(stat(p, &sb), 0);
	return (long)sb.st_size;
}

/* The first cap bytes of a member into buf; how many there were. */
static size_t read_member(const char *name, void *buf, size_t cap)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	FILE *f = fopen(p, "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* The offset of the first occurrence of text in a member. */
static long find_in_member(const char *name, const char *text)
{
	static char buf[1 << 16];
	size_t n = read_member(name, buf, sizeof(buf));
	size_t k = strlen(text);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(buf + i, text, k) == 0)
			return (long)i;
	fail_msg("%s not in %s", text, name);
	return -1;
}

static void remove_member(const char *name)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	assert_int_equal(unlink(p), 0);
}

static void check_dir(void)
{
	tfk_report_free(&rep);
	memset(&rep, 0, sizeof(rep));
	tfk_check_file(dir, NULL, &rep);
	raised_note(&rep);
}

static void dump_report(void)
{
	for (size_t i = 0; i < rep.count; i++) {
		const struct tfk_finding *f = &rep.findings[i];
		fprintf(stderr, "  %s [%s] @%llu %s: %s / %s\n", f->fault->id, f->member, (unsigned long long)f->offset,
			f->path, f->expected, f->found);
	}
}

/* The finding of that code in that member ("" for the directory); fails the test when none. */
static const struct tfk_finding *expect(const char *code, const char *member)
{
	for (size_t i = 0; i < rep.count; i++) {
		const struct tfk_finding *f = &rep.findings[i];
		if (strcmp(f->fault->id, code) == 0 && strcmp(f->member, member) == 0)
			return f;
	}
	dump_report();
	fail_msg("no %s in '%s'", code, member);
	return NULL;
}

static void expect_at(const char *code, const char *member, uint64_t offset)
{
	const struct tfk_finding *f = expect(code, member);
	if (!f->has_offset || f->offset != offset) {
		dump_report();
		fail_msg("%s in %s at %llu, expected %llu", code, member, (unsigned long long)f->offset,
			 (unsigned long long)offset);
	}
}

static void expect_line(const char *code, const char *member, uint64_t offset, unsigned line)
{
	expect_at(code, member, offset);
	const struct tfk_finding *f = expect(code, member);
	char want[32];
	snprintf(want, sizeof(want), "line %u:", line);
	if (strncmp(f->path, want, strlen(want)) != 0)
		fail_msg("%s: path '%s', expected %s", code, f->path, want);
}

static void expect_count(const char *code, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < rep.count; i++)
		k += strcmp(rep.findings[i].fault->id, code) == 0;
	if (k != n) {
		dump_report();
		fail_msg("%zu findings %s, expected %zu", k, code, n);
	}
}

static void expect_verdict(enum tfk_verdict v)
{
	if (tfk_report_verdict(&rep) != v) {
		dump_report();
		fail_msg("verdict %s, expected %s", tfk_verdict_name(tfk_report_verdict(&rep)), tfk_verdict_name(v));
	}
}

static void test_pristine(void **state)
{
	(void)state;
	NEED_SAMPLE();
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	assert_string_equal(rep.stats.format, "uftrace data");
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/* A killed recording: no info; recognised, corrupt, everything else still walked. */
static void test_info_missing(void **state)
{
	(void)state;
	NEED_SAMPLE();
	remove_member("info");
	check_dir();
	expect("uftrace.info.missing", "");
	expect_verdict(TFK_VERDICT_CORRUPT);
	assert_int_equal(rep.total, 1);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

static void test_info_header(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte("info", 8, 9);     /* version */
	patch_byte("info", 18, 0x10); /* feature bit 20 */
	check_dir();
	expect_at("uftrace.info.bad-header", "info", 8);
	expect_at("uftrace.info.unknown-feature", "info", 16);
	assert_int_equal(rep.by_severity[TFK_SEV_WARNING], 1);
}

static void test_info_magic(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch("info", 0, "Xtrace", 6);
	check_dir();
	expect_at("uftrace.info.bad-magic", "info", 0);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

static void test_info_section(void **state)
{
	(void)state;
	NEED_SAMPLE();
	/* "exename:/tmp/tr/hello\n" is 22 bytes: line 2 "build_id:" at 62 becomes "build-id:". */
	patch_byte("info", 62 + 5, '-');
	check_dir();
	expect_line("uftrace.info.bad-section", "info", 62, 2);
}

static void test_info_taskinfo(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte("info", 474 + 16, '2'); /* taskinfo:nr_tid=2 with one tid listed */
	check_dir();
	expect_at("uftrace.info.bad-taskinfo", "info", 492);
}

static void test_tids(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_text("task.txt", "SESS timestamp=678.881934971 pid=18985 sid=260878a0ab9a6202 exename=\"/tmp/tr/hello\"\n"
			       "TASK timestamp=678.882052426 tid=18986 pid=18985\n");
	check_dir();
	expect("uftrace.task.tid-mismatch", "info");
	expect("uftrace.dat.orphan", SAMPLE_DAT);
}

static void test_task_missing(void **state)
{
	(void)state;
	NEED_SAMPLE();
	remove_member("task.txt");
	check_dir();
	expect("uftrace.task.missing", "");
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/* Crasher #5: a sid= token of 92 characters (SIGSEGV in uftrace 0.13); an unknown keyword. */
static void test_task_syntax(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char text[512];
	char sid[93];
	memset(sid, 'a', 92);
	sid[92] = 0;
	const char *task = "TASK timestamp=678.882052426 tid=18985 pid=18985\n";
	int n = snprintf(text, sizeof(text), "%sSESS timestamp=678.881934971 pid=18985 sid=%s exename=\"/x\"\nBOGUS 1\n",
			 task, sid);
	assert_true(n > 0 && (size_t)n < sizeof(text));
	write_text("task.txt", text);
	check_dir();
	expect_count("uftrace.task.syntax", 2);
	expect_line("uftrace.task.syntax", "task.txt", strlen(task), 2);
}

static void test_task_timestamps(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const char *sess = "SESS timestamp=678.881934971 pid=18985 sid=260878a0ab9a6202 exename=\"/tmp/tr/hello\"\n";
	const char *task = "TASK timestamp=678.882052426 tid=18985 pid=18985\n";
	char text[512];
	snprintf(text, sizeof(text), "%s%sTASK timestamp=678.5 tid=18986 pid=18985\nTASK timestamp=678.000000001 tid=18987 pid=18985\n",
		 sess, task);
	write_text("task.txt", text);
	check_dir();
	expect_count("uftrace.task.bad-timestamp", 2);
	expect_line("uftrace.task.bad-timestamp", "task.txt", strlen(sess) + strlen(task), 3);
	expect_verdict(TFK_VERDICT_CLEAN);
}

/* Crasher #9: a DLOP naming an unknown session (SIGTRAP in uftrace 0.13). */
static void test_task_unknown_session(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long size = member_size("task.txt");
	const char *dlop = "DLOP timestamp=678.882152426 tid=18985 sid=0123456789abcdef base=7f0000000000 libname=\"/l.so\"\n";
	append_member("task.txt", dlop, strlen(dlop));
	check_dir();
	expect_line("uftrace.task.unknown-session", "task.txt", (uint64_t)size, 3);
	assert_int_equal(rep.total, 1);
}

static void test_map_missing(void **state)
{
	(void)state;
	NEED_SAMPLE();
	remove_member(SAMPLE_MAP);
	check_dir();
	expect_line("uftrace.map.missing", "task.txt", 0, 1);
}

/* Start above end; a build-id token of 60 characters (SIGABRT in uftrace 0.13). */
static void test_map_syntax(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long size = member_size(SAMPLE_MAP);
	char lines[512];
	char bid[61];
	memset(bid, 'b', 60);
	bid[60] = 0;
	const char *ok = "3000-4000 r-xp 00000000 08:01 12 /tmp/a b (deleted) build-id:00ff\n";
	append_member(SAMPLE_MAP, ok, strlen(ok)); /* a path with spaces is no fault */
	size += (long)strlen(ok);
	const char *first = "2000-1000 r-xp 00000000 00:00 0 /x\n";
	snprintf(lines, sizeof(lines), "%s1000-2000 r-xp 00000000 00:00 0 /x build-id:%s\n", first, bid);
	append_member(SAMPLE_MAP, lines, strlen(lines));
	check_dir();
	expect_count("uftrace.map.syntax", 2);
	expect_line("uftrace.map.syntax", SAMPLE_MAP, (uint64_t)size, 16);
}

static void test_sym_syntax(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long size = member_size("hello.sym");
	append_member("hello.sym", "zzzz T foo\n", 11);
	check_dir();
	expect_line("uftrace.sym.syntax", "hello.sym", (uint64_t)size, 23);
}

/* Crasher #6: '# symbols:' after symbol lines; and a count below the symbol lines. */
static void test_sym_count(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_text("hello.sym", "0000000000001000 T a\n# symbols: 1\n0000000000001010 T b\n");
	write_text("libm.so.6.sym", "# symbols: 1\n0000000000001000 T a\n0000000000001010 T b\n0000000000001020 ? __func_end\n");
	check_dir();
	expect_line("uftrace.sym.bad-count", "hello.sym", 21, 2);
	expect_line("uftrace.sym.bad-count", "libm.so.6.sym", 0, 1);
}

/* Crasher #7: an all-ones address; and addresses going down. */
static void test_sym_addr(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_text("hello.sym", "# symbols: 2\nffffffffffffffff T x\n0000000000001000 T a\n");
	write_text("libm.so.6.sym", "# symbols: 2\n0000000000002000 T a\n0000000000001000 T b\n");
	/* symbols with sizes (HEAD's SYM_SIZE layout) are no fault */
	write_text("libz.so.1.2.13.sym", "# symbols: 1\n0000000000001000 00000010 T a\n0000000000001010 00000000 ? __func_end\n");
	check_dir();
	expect_count("uftrace.sym.syntax", 0);
	expect_line("uftrace.sym.bad-addr", "hello.sym", 13, 2);
	expect_line("uftrace.sym.unsorted", "libm.so.6.sym", 34, 3);
}

static void test_dbg_syntax(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_text("hello.dbg", "# path name: /tmp/tr/hello\nQ: nothing\nA: @arg1\n");
	check_dir();
	expect_count("uftrace.dbg.syntax", 2);
	expect_line("uftrace.dbg.syntax", "hello.dbg", 27, 2);
	expect_verdict(TFK_VERDICT_CLEAN); /* a warning: uftrace only ignores the file */
}

static void test_dat_partial(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char p[1024];
	member_path(SAMPLE_DAT, p, sizeof(p));
	assert_int_equal(truncate(p, 5808 - 7), 0);
	check_dir();
	expect_at("uftrace.dat.partial-record", SAMPLE_DAT, 5792);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS - 1);
}

static void test_dat_magic(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte(SAMPLE_DAT, 48 + 8, 0x01); /* record 3: EXIT, magic 0 */
	check_dir();
	expect_at("uftrace.dat.bad-magic", SAMPLE_DAT, 56);
	assert_int_equal(rep.stats.events, 3);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t rec_word(unsigned type, unsigned more, unsigned depth, uint64_t addr)
{
	return type | more << 2 | 5u << 3 | (uint64_t)depth << 6 | addr << 16;
}

static void test_dat_time(void **state)
{
	(void)state;
	NEED_SAMPLE();
	uint8_t early[8];
	put64(early, 678882000000ull); /* record 5 before record 4 (678882064750), after the session began */
	patch(SAMPLE_DAT, 80, early, 8);
	check_dir();
	expect_at("uftrace.dat.time-backwards", SAMPLE_DAT, 80);
	expect_count("uftrace.dat.time-backwards", 1);
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/* A record older than its task's session (SESS at 678.881934971): replay stops there, exit 1. */
static void test_dat_before_session(void **state)
{
	(void)state;
	NEED_SAMPLE();
	uint8_t early[8];
	put64(early, 678881000000ull);
	patch(SAMPLE_DAT, 0, early, 8);
	check_dir();
	expect_at("uftrace.dat.before-session", SAMPLE_DAT, 0);
	assert_int_equal(rep.total, 1);
}

static void test_dat_depth(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte(SAMPLE_DAT, 32 + 9, 0x01); /* record 2: ENTRY at depth 4 after an EXIT at 0 */
	check_dir();
	expect_at("uftrace.dat.depth-mismatch", SAMPLE_DAT, 40);
	/* recorded with a filter (-F in info's cmdline), gaps are legitimate */
	long at = find_in_member("info", "record -a -d");
	patch("info", at + 7, "-F", 2);
	check_dir();
	expect_count("uftrace.dat.depth-mismatch", 0);
	patch("info", at + 7, "-a", 2);
	/*
	 * and max_stack below the depths recorded: the records follow from each other, so info's
	 * limit is what is wrong, reported once at it (not at every deeper record)
	 */
	patch_byte(SAMPLE_DAT, 32 + 9, 0x00);
	uint8_t ms[2] = { 3, 0 };
	patch("info", 32, ms, 2);
	check_dir();
	expect_count("uftrace.dat.depth-mismatch", 0);
	const struct tfk_finding *f = expect("uftrace.info.bad-header", "info");
	assert_int_equal(f->offset, 32);
	assert_non_null(strstr(f->expected, "18985.dat"));
	/* --max-stack 2000: depths past 1023 wrap in the 10-bit field (uftrace's own records),
	 * so a jump is no fault */
	patch_byte(SAMPLE_DAT, 32 + 9, 0x01);
	uint8_t big[2] = { 0xd0, 0x07 };
	patch("info", 32, big, 2);
	check_dir();
	expect_count("uftrace.dat.depth-mismatch", 0);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/*
 * A task larger than the reading window (256 KiB): 20000 records, one with arguments across
 * the window's end; then a bad magic past it; then a cut record at the end.
 */
static size_t big_task(uint8_t *d, unsigned bad_at)
{
	size_t pos = 0;
	for (unsigned i = 0; i < 20000; i++) {
		put64(d + pos, 678882140050ull + i);
		bool more = i == 16382; /* its payload straddles 262144 */
		put64(d + pos + 8, rec_word(i & 1, more, 0, 0x555e12906214ull));
		if (i == bad_at)
			d[pos + 8] = 0x01;
		pos += 16;
		if (more) {
			put64(d + pos, 42);
			pos += 8;
		}
	}
	return pos;
}

static void test_dat_large(void **state)
{
	(void)state;
	NEED_SAMPLE();
	static uint8_t d[20000 * 16 + 8];
	size_t n = big_task(d, 99999);
	assert_int_equal(n, sizeof(d));
	write_member(SAMPLE_DAT, d, n);
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.stats.events, 20000);
	write_member(SAMPLE_DAT, d, n - 7);
	check_dir();
	expect_at("uftrace.dat.partial-record", SAMPLE_DAT, n - 16);
	assert_int_equal(rep.stats.events, 19999);
	n = big_task(d, 17000);
	write_member(SAMPLE_DAT, d, n);
	check_dir();
	expect_at("uftrace.dat.bad-magic", SAMPLE_DAT, 17000 * 16 + 8 + 8);
	assert_int_equal(rep.stats.events, 17000);
}

/* The report of a check of the directory with these limits. */
static void check_with(const struct tfk_limits *lim, struct tfk_report *out)
{
	memset(out, 0, sizeof(*out));
	tfk_check_file(dir, lim, out);
}

static void expect_same_report(const struct tfk_report *a, const struct tfk_report *b, const char *what)
{
	if (a->total != b->total || a->count != b->count || a->stats.events != b->stats.events ||
	    tfk_report_verdict(a) != tfk_report_verdict(b))
		fail_msg("%s: %llu/%zu findings, %llu events against %llu/%zu, %llu", what, (unsigned long long)b->total,
			 b->count, (unsigned long long)b->stats.events, (unsigned long long)a->total, a->count,
			 (unsigned long long)a->stats.events);
	for (size_t i = 0; i < a->count; i++) {
		const struct tfk_finding *x = &a->findings[i], *y = &b->findings[i];
		if (strcmp(x->fault->id, y->fault->id) != 0 || x->offset != y->offset || strcmp(x->path, y->path) != 0 ||
		    strcmp(x->expected, y->expected) != 0 || strcmp(x->found, y->found) != 0)
			fail_msg("%s: finding %zu is %s @%llu %s, expected %s @%llu %s", what, i, y->fault->id,
				 (unsigned long long)y->offset, y->found, x->fault->id, (unsigned long long)x->offset, x->found);
	}
}

/*
 * A 5 MiB task (more than one read-ahead window) of ENTRY/EXIT trees with damage sprinkled by
 * a fixed generator: times that go back, depth jumps, LOST records (time 0, as libmcount
 * writes them), records with an argument, and a bad magic near the end. The check walks runs
 * of plain records at once and reads a window ahead: the report must be the one the
 * record-by-record walk makes, with and without the thread and the read buffers.
 */
static void test_dat_walks_agree(void **state)
{
	(void)state;
	NEED_SAMPLE();
	enum { N = 330000 };
	uint8_t *d = malloc((size_t)N * 24);
	assert_non_null(d);
	size_t pos = 0;
	uint64_t t = 678882140050ull, seed = 12345;
	unsigned depth = 0;
	for (unsigned i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		unsigned roll = (unsigned)(seed >> 33) % 1000, type = (i & 2) ? 1 : 0;
		depth = (i & 3) == 0 || (i & 3) == 3 ? 0 : 1;
		uint64_t when = t += 7;
		bool more = false;
		if (roll == 0)
			when -= 100; /* time-backwards */
		else if (roll == 1)
			depth += 6; /* depth-mismatch */
		else if (roll == 2)
			type = 2, when = 0, depth = 0; /* LOST */
		else if (roll == 3 && type == 0)
			more = true;
		put64(d + pos, when);
		put64(d + pos + 8, rec_word(type, more, depth, 0x555e12906214ull));
		if (i == N - 500)
			d[pos + 8] = 0x01; /* bad magic: the rest is not walked */
		pos += 16;
		if (more) {
			put64(d + pos, 42);
			pos += 8;
		}
	}
	write_member(SAMPLE_DAT, d, pos);
	free(d);
	struct tfk_report base, other;
	struct tfk_limits lim = tfk_limits_default();
	uint64_t ahead = 0;
	struct tfk_test_hooks hooks = { .record_by_record = 1 };
	lim.threads = 1;
	lim.test_hooks = &hooks;
	check_with(&lim, &base); /* one record at a time, synchronous windows */
	assert_true(base.total > 3 * 16);
	assert_int_equal(base.stats.events, N - 500);
	hooks.record_by_record = 0;
	hooks.read_ahead = &ahead;
	check_with(&lim, &other);
	expect_same_report(&base, &other, "runs");
	assert_int_equal(ahead, 0);
	tfk_report_free(&other);
	lim.threads = 2;
	check_with(&lim, &other);
	expect_same_report(&base, &other, "runs read ahead");
	assert_true(ahead >= 2);
	tfk_report_free(&other);
	hooks.fail_optional_alloc = 1;
	check_with(&lim, &other);
	expect_same_report(&base, &other, "runs in the mapping");
	tfk_report_free(&other);
	tfk_report_free(&base);
}

/* libmcount's LOST records have time 0 (and the depth lost at): not a time that goes back. */
static void test_dat_lost_untimed(void **state)
{
	(void)state;
	NEED_SAMPLE();
	uint8_t lost[16];
	put64(lost, 0);
	put64(lost + 8, rec_word(2, 0, 1, 2774));
	patch(SAMPLE_DAT, 80, lost, 16); /* record 5 */
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
	/* an ENTRY at time 0 is still older than the session */
	put64(lost + 8, rec_word(0, 0, 1, 0x555e12906214ull));
	patch(SAMPLE_DAT, 80, lost, 16);
	check_dir();
	expect_at("uftrace.dat.before-session", SAMPLE_DAT, 80);
}

/*
 * A forked child runs in its parent's session until it execs: its records before its own SESS
 * line belong to the parent's, and are not older than "every session of its task".
 */
static void test_dat_fork_exec_session(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const char *forked = "SESS timestamp=678.881000000 pid=18980 sid=260878a0ab9a6202 exename=\"/tmp/tr/hello\"\n"
			     "TASK timestamp=678.881100000 tid=18980 pid=18980\n"
			     "FORK timestamp=678.881200000 pid=18985 ppid=18980\n"
			     "SESS timestamp=678.890000000 pid=18985 sid=260878a0ab9a6202 exename=\"/tmp/tr/hello\"\n"
			     "TASK timestamp=678.890100000 tid=18985 pid=18985\n";
	write_text("task.txt", forked);
	check_dir();
	expect_count("uftrace.dat.before-session", 0);
	/* the same task without the FORK line: its records come before its only session */
	char alone[512];
	const char *fork_line = strstr(forked, "FORK");
	snprintf(alone, sizeof(alone), "%.*s%s", (int)(fork_line - forked), forked, strchr(fork_line, '\n') + 1);
	write_text("task.txt", alone);
	check_dir();
	expect_at("uftrace.dat.before-session", SAMPLE_DAT, 0);
}

/*
 * An argument payload of 16 bytes whose second word is a plausible time, and a next record
 * whose time reads as a word with magic 5 (as a string argument's bytes can): an 8-byte
 * payload would be followed by a record at depth 210 after an ENTRY at depth 0. The depth rule
 * and the record after tell the 16 bytes.
 */
static void test_dat_payload_lookalike(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const uint64_t t0 = 678882140050ull, t1 = ((t0 + 0x20000) & ~0xffffull) | 0x34a8;
	uint8_t d[16 + 16 + 16 * 3];
	put64(d, t0);
	put64(d + 8, rec_word(0, 1, 0, 0x555e12906214ull));
	put64(d + 16, 42);
	put64(d + 24, t0 + 5000); /* looks like a time */
	put64(d + 32, t1);	  /* looks like a word: magic 5, ENTRY, depth 210 */
	put64(d + 40, rec_word(1, 0, 0, 0x555e12906214ull));
	put64(d + 48, t1 + 10);
	put64(d + 56, rec_word(0, 0, 0, 0x555e12906214ull));
	put64(d + 64, t1 + 20);
	put64(d + 72, rec_word(1, 0, 0, 0x555e12906214ull));
	write_member(SAMPLE_DAT, d, sizeof(d));
	check_dir();
	assert_int_equal(rep.total, 0);
	assert_int_equal(rep.stats.events, 4);
}

/* The more flag without ARGUMENT/RETVAL; a LOST record with it (SIGABRT in uftrace 0.13 dump). */
static void test_dat_more(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte("info", 16, 0x63); /* features without ARGUMENT and RETVAL */
	check_dir();
	expect_count("uftrace.dat.more-nospec", 2);
	expect_at("uftrace.dat.more-nospec", SAMPLE_DAT, 5744 + 8);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
	/* record 0 as a LOST record with the more flag */
	patch_byte("info", 16, 0x7b);
	patch_byte(SAMPLE_DAT, 8, 0x2e);
	check_dir();
	expect_count("uftrace.dat.more-nospec", 1);
	expect_at("uftrace.dat.more-nospec", SAMPLE_DAT, 8);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/*
 * Payload lengths from the spec. The sample records printf with auto-args (arg1/s, retval/d32):
 * records 359 and 360 at 5744 and 5768, 8 bytes of payload each. A second call appended after
 * the last record fits the spec that the first confirmed; with its string length raised from 3
 * to 11 the spec gives 16 bytes, after which no record follows: argument-mismatch at its payload.
 */
static void append_printf_call(uint16_t string_len)
{
	uint8_t call[UF_CALL_LEN];
	char p[1024];
	member_path(SAMPLE_DAT, p, sizeof(p));
	FILE *f = fopen(p, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, UF_CALL_AT, SEEK_SET), 0);
	assert_int_equal(fread(call, 1, sizeof(call), f), sizeof(call));
	fclose(f);
	uf_call_again(call, string_len);
	append_member(SAMPLE_DAT, call, sizeof(call));
}

static void test_dat_spec_lengths(void **state)
{
	(void)state;
	NEED_SAMPLE();
	append_printf_call(3);
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS + 2);
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	append_printf_call(11);
	check_dir();
	expect_at("uftrace.dat.argument-mismatch", SAMPLE_DAT, 5808 + 16);
	expect_count("uftrace.dat.argument-mismatch", 1);
	expect_verdict(TFK_VERDICT_CORRUPT);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS + 2); /* the walk goes on at the next record */
}

/*
 * The more flag set on fib's ENTRY (record 5 at 80), a function with no spec: uftrace fails on
 * it ('record missing argument info'), though the features allow arguments.
 */
static void test_dat_more_without_spec(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char p[1024];
	member_path(SAMPLE_DAT, p, sizeof(p));
	FILE *f = fopen(p, "rb");
	uint8_t word;
	assert_non_null(f);
	assert_int_equal(fseek(f, 88, SEEK_SET), 0);
	assert_int_equal(fread(&word, 1, 1, f), 1);
	fclose(f);
	assert_int_equal(word & 0x07, 0x00); /* an ENTRY without the more flag */
	patch_byte(SAMPLE_DAT, 88, (uint8_t)(word | 0x04));
	check_dir();
	expect_at("uftrace.dat.more-nospec", SAMPLE_DAT, 88);
	expect_count("uftrace.dat.more-nospec", 1);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}


static void test_dat_event(void **state)
{
	(void)state;
	NEED_SAMPLE();
	uint8_t rec[16 + 24 + 16 + 8] = { 0 };
	put64(rec, 678882140050ull);
	put64(rec + 8, rec_word(3, 1, 0, 100001)); /* proc/statm with 16 bytes, not 24 */
	rec[16] = 16;
	put64(rec + 40, 678882140051ull); /* then an unknown event id with data */
	put64(rec + 48, rec_word(3, 1, 0, 123));
	rec[56] = 6;
	append_member(SAMPLE_DAT, rec, sizeof(rec));
	check_dir();
	expect_count("uftrace.dat.bad-event", 2);
	expect_at("uftrace.dat.bad-event", SAMPLE_DAT, 5808);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS + 2);
}

static void test_dat_payload(void **state)
{
	(void)state;
	NEED_SAMPLE();
	static uint8_t rec[16 + 4200];
	put64(rec, 678882140050ull);
	put64(rec + 8, rec_word(0, 1, 0, 0x555e12906214ull));
	append_member(SAMPLE_DAT, rec, sizeof(rec));
	check_dir();
	expect_at("uftrace.dat.bad-payload", SAMPLE_DAT, 5808 + 16);
}

/* Crasher #8: perf-cpu record sizes 0xffff and 4 (buffer overflow abort in uftrace 0.13). */
static void test_perf_record(void **state)
{
	(void)state;
	NEED_SAMPLE();
	uint8_t huge[2] = { 0xff, 0xff };
	patch("perf-cpu1.dat", 6, huge, 2);
	uint8_t small[8] = { 3, 0, 0, 0, 0, 0, 4, 0 };
	write_member("perf-cpu0.dat", small, sizeof(small));
	check_dir();
	expect_at("uftrace.perf.bad-record", "perf-cpu1.dat", 0);
	expect_at("uftrace.perf.bad-record", "perf-cpu0.dat", 0);
	/* a record cut by the end of the file */
	patch("perf-cpu1.dat", 6, "\x28\x00", 2);
	char p[1024];
	member_path("perf-cpu1.dat", p, sizeof(p));
	assert_int_equal(truncate(p, 40 + 10), 0);
	check_dir();
	expect_at("uftrace.perf.bad-record", "perf-cpu1.dat", 40);
}

static void test_events_extern(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const char *ev = "EVENT: 1000000 uftrace:event\n";
	write_text("events.txt", "EVENT: 1000000 uftrace:event\nEVENT: x sdt:probe\n");
	write_text("extern.dat", "# TIMESTAMP MESSAGE\n678.882000000 a message\nlate message\n");
	check_dir();
	expect_line("uftrace.events.syntax", "events.txt", strlen(ev), 2);
	expect_count("uftrace.events.syntax", 1);
	expect_line("uftrace.extern.syntax", "extern.dat", 20 + 24, 3);
	expect_count("uftrace.extern.syntax", 1);
}

/* The records uftrace's own rules accept go through the perf.data record walker. */
static void test_perf_walker(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch("perf-cpu1.dat", 16, "helloXYZ", 8); /* COMM name without its NUL */
	check_dir();
	expect_at("perf.record.bad-body", "perf-cpu1.dat", 16);
	expect_count("uftrace.perf.bad-record", 0);
	assert_int_equal(rep.total, 1);
}

static void test_channel(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char p[1024];
	member_path(".channel", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0600), 0);
	remove_member("info");
	check_dir();
	expect("uftrace.channel.leftover", ".channel");
	expect("uftrace.info.missing", "");
	expect_verdict(TFK_VERDICT_CORRUPT);
}

/* A session map or symbol file that is a FIFO: reported, never opened (uftrace blocks on it). */
static void test_special_member(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char p[1024];
	const char *names[] = { SAMPLE_MAP, "hello.sym" };
	for (size_t i = 0; i < 2; i++) {
		remove_member(names[i]);
		member_path(names[i], p, sizeof(p));
		assert_int_equal(mkfifo(p, 0600), 0);
	}
	check_dir();
	expect("uftrace.member.special", SAMPLE_MAP);
	expect("uftrace.member.special", "hello.sym");
	expect_count("uftrace.member.special", 2);
	expect_count("uftrace.map.missing", 0);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
	expect_verdict(TFK_VERDICT_CORRUPT);
}

/*
 * Thousands of sessions and tasks: every tid, pid and sid is looked up through an index, and
 * the report is the same when the index cannot have its memory (the lists are searched).
 * 2,000 sessions each with a TASK; each 7th one's DLOP names an unknown sid; the sample's own
 * task is among them, so its records are checked against its session as before.
 */
static void test_many_tasks(void **state)
{
	(void)state;
	NEED_SAMPLE();
	enum { SESSIONS = 2000 };
	size_t cap = (size_t)SESSIONS * 300, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
				"SESS timestamp=678.881934971 pid=18985 sid=260878a0ab9a6202 exename=\"/tmp/tr/hello\"\n"
				"TASK timestamp=678.882052426 tid=18985 pid=18985\n");
	unsigned unknown = 0;
	for (unsigned i = 0; i < SESSIONS; i++) {
		unsigned pid = 30000 + i;
		len += (size_t)snprintf(text + len, cap - len,
					"SESS timestamp=679.%09u pid=%u sid=%016x exename=\"/x\"\n"
					"TASK timestamp=679.%09u tid=%u pid=%u\n"
					"FORK timestamp=679.%09u pid=%u ppid=%u\n",
					i * 10 + 1, pid, 0x10000000u + i, i * 10 + 2, pid, pid, i * 10 + 3, pid + 100000, pid);
		bool bogus = i % 7 == 0;
		unknown += bogus;
		len += (size_t)snprintf(text + len, cap - len,
					"DLOP timestamp=679.%09u tid=%u sid=%016x base=7f0000000000 libname=\"/l.so\"\n",
					i * 10 + 4, pid, bogus ? 0x20000000u + i : 0x10000000u + i);
		assert_true(len < cap);
	}
	write_member("task.txt", text, len);
	free(text);
	check_dir();
	expect_count("uftrace.task.unknown-session", unknown);
	expect_count("uftrace.map.missing", SESSIONS);
	struct tfk_report with = rep;
	memset(&rep, 0, sizeof(rep));
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { .fail_optional_alloc = 1 };
	lim.test_hooks = &hooks;
	tfk_check_file(dir, &lim, &rep);
	assert_int_equal(rep.total, with.total);
	assert_int_equal(rep.count, with.count);
	assert_int_equal(rep.stats.events, with.stats.events);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
	for (size_t i = 0; i < rep.count; i++) {
		assert_string_equal(rep.findings[i].fault->id, with.findings[i].fault->id);
		assert_int_equal(rep.findings[i].offset, with.findings[i].offset);
	}
	tfk_report_free(&with);
}


/* ---- kernel data: kernel_header and kernel-cpu<N>.dat (tests/data/README.md) ---- */

#define KERNEL_TASK_RECORDS 168
#define KERNEL_PS 4096

/* Data events of a file of ftrace ring pages, counted apart from the checker. */
static uint64_t count_ring_events(const char *name)
{
	static uint8_t data[1 << 16];
	size_t n = read_member(name, data, sizeof(data));
	uint64_t events = ring_events(data, n, KERNEL_PS);
	assert_true(events != UINT64_MAX);
	return events;
}

static void test_kernel_pristine(void **state)
{
	(void)state;
	NEED_SAMPLE();
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR] + rep.by_severity[TFK_SEV_WARNING], 0);
	uint64_t cpu0 = count_ring_events("kernel-cpu0.dat"), cpu1 = count_ring_events("kernel-cpu1.dat");
	assert_true(cpu0 > 0 && cpu1 > 0);
	assert_int_equal(rep.stats.events, KERNEL_TASK_RECORDS + cpu0 + cpu1);
	/* uftrace 0.13 saved no format for the sched events: one note a file, with their count */
	expect_at("uftrace.kernel.unknown-event", "kernel-cpu0.dat", 16);
	expect_count("uftrace.kernel.unknown-event", 2);
	char want[64];
	snprintf(want, sizeof(want), "%llu events", (unsigned long long)cpu0);
	assert_non_null(strstr(expect("uftrace.kernel.unknown-event", "kernel-cpu0.dat")->found, want));
	assert_int_equal(rep.stats.pages, 5);
}

static void test_kernel_bad_header(void **state)
{
	(void)state;
	NEED_SAMPLE();
	/* a page size that is not a power of two: no page can be walked */
	patch("kernel_header", 11, "5000", 4);
	check_dir();
	expect_line("uftrace.kernel.bad-header", "kernel_header", 0, 1);
	expect_count("tracedat.page.bad-commit", 0);
	/* a power of two that header_page's layout does not describe */
	patch("kernel_header", 11, "8192", 4);
	check_dir();
	const struct tfk_finding *f = expect("uftrace.kernel.bad-header", "kernel_header");
	assert_string_equal(f->path, "PAGE_SIZE");
	assert_string_equal(f->found, "8192");
	expect_count("uftrace.kernel.bad-header", 1);
	expect_count("tracedat.page.bad-commit", 0); /* walked with header_page's 4096-byte pages */
	/* ENDIAN missing before the first block */
	patch("kernel_header", find_in_member("kernel_header", "ENDIAN"), "ENDIAX", 6);
	check_dir();
	expect_line("uftrace.kernel.syntax", "kernel_header", (uint64_t)find_in_member("kernel_header", "ENDIAX"), 3);
	expect_line("uftrace.kernel.bad-header", "kernel_header",
		    (uint64_t)find_in_member("kernel_header", "TRACEFS: events/header_page"), 4);
}

static void test_kernel_syntax(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long at = find_in_member("kernel_header", "TRACEFS: events/ftrace/funcgraph_exit");
	patch("kernel_header", at + 9, "EVENTS", 6);
	check_dir();
	expect_line("uftrace.kernel.syntax", "kernel_header", (uint64_t)at, 6);
	/* a block cut by the end of the file */
	char p[1024];
	member_path("kernel_header", p, sizeof(p));
	assert_int_equal(truncate(p, at + 100), 0);
	check_dir();
	const struct tfk_finding *f = expect("uftrace.kernel.syntax", "kernel_header");
	assert_int_equal(f->offset, (uint64_t)at);
	assert_non_null(strstr(f->found, "left in the file"));
	expect_count("uftrace.kernel.syntax", 1);
}

static void test_kernel_too_long(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long at = member_size("kernel_header");
	char head[64];
	int n = snprintf(head, sizeof(head), "TRACEFS: events/sched/big/format: 5000\n");
	append_member("kernel_header", head, (size_t)n);
	static char body[5000];
	memset(body, 'x', sizeof(body));
	append_member("kernel_header", body, sizeof(body));
	check_dir();
	const struct tfk_finding *f = expect("uftrace.kernel.too-long", "kernel_header");
	assert_int_equal(f->offset, (uint64_t)at);
	assert_non_null(strstr(f->found, "5000-byte block"));
	/* a name longer than uftrace's 128-byte buffer, in a file of its own */
	static char big[400];
	int k = snprintf(big, sizeof(big), "PAGE_SIZE: 4096\nLONG_SIZE: 8\nENDIAN: LE\nTRACEFS: events/%0200d/x/format: 3\nabc", 0);
	write_member("kernel_header", big, (size_t)k);
	check_dir();
	f = expect("uftrace.kernel.too-long", "kernel_header");
	assert_int_equal(f->offset, 40);
	assert_non_null(strstr(f->found, "216-byte name"));
}

static void test_kernel_header_missing(void **state)
{
	(void)state;
	NEED_SAMPLE();
	remove_member("kernel_header");
	check_dir();
	expect("uftrace.kernel.header-missing", ""); /* of the directory: the member is not there */
	expect_verdict(TFK_VERDICT_CLEAN);
	/* the pages are walked all the same, with the usual layout */
	assert_int_equal(rep.stats.events,
			 KERNEL_TASK_RECORDS + count_ring_events("kernel-cpu0.dat") + count_ring_events("kernel-cpu1.dat"));
}

static void test_kernel_pages(void **state)
{
	(void)state;
	NEED_SAMPLE();
	/* the commit word of cpu0's second page, and cpu0 cut inside its last page */
	patch("kernel-cpu0.dat", KERNEL_PS + 8, "\xff\xff\xff\x7f", 4);
	char p[1024];
	member_path("kernel-cpu0.dat", p, sizeof(p));
	assert_int_equal(truncate(p, 3 * KERNEL_PS + 500), 0);
	check_dir();
	expect_at("tracedat.page.bad-commit", "kernel-cpu0.dat", KERNEL_PS + 8);
	expect_at("uftrace.kernel.partial-page", "kernel-cpu0.dat", 3 * KERNEL_PS);
	expect_count("uftrace.kernel.partial-page", 1);
	expect_verdict(TFK_VERDICT_CORRUPT);
	assert_string_equal(expect("tracedat.page.bad-commit", "kernel-cpu0.dat")->path, "cpu0 page 1");
}


/* ---- issue 42: newer writers, and faults blamed on the right place -------------------- */

/* uftrace before 0.9.3 wrote no '# symbols:' line; a count far above the lines fails uftrace's allocation. */
static void test_sym_count_absent_or_huge(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_text("libm.so.6.sym", "0000000000001000 T a\n0000000000001010 T b\n0000000000001020 ? __func_end\n");
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	write_text("libm.so.6.sym", "# symbols: 4294967296\n0000000000001000 T a\n0000000000001010 T b\n");
	write_text("libz.so.1.2.13.sym", "# symbols: 99999999999\n0000000000001000 T a\n");
	check_dir();
	expect_line("uftrace.sym.bad-count", "libm.so.6.sym", 0, 1);
	expect_line("uftrace.sym.bad-count", "libz.so.1.2.13.sym", 0, 1);
	assert_string_equal(expect("uftrace.sym.bad-count", "libm.so.6.sym")->found, "4294967296");
}

/*
 * uftrace 0.14: feature SYM_SIZE and 'ADDR SIZE T NAME' lines; the argument lengths are still
 * followed (the damaged string length of a second printf call is caught by printf's spec).
 */
static void sym_with_sizes(void)
{
	write_text("hello.sym", "# symbols: 11\n# path name: /tmp/tr/hello\n"
				"# build-id: 9d007f47ebfc7f9a619b10047c978de51db2ced1\n"
				"000000000000037c 00000020 d __abi_tag\n0000000000001030 00000010 P __stack_chk_fail\n"
				"0000000000001040 00000010 P printf\n0000000000001050 00000010 P __monstartup\n"
				"0000000000001060 00000010 P __cxa_atexit\n0000000000001080 00000026 T _start\n"
				"00000000000010b0 00000005 T __gmon_start__\n0000000000001100 00000005 T _dl_relocate_static_pie\n"
				"00000000000011c9 00000041 T fib\n000000000000120a 00000036 T main\n"
				"0000000000001240 00000010 t atexit\n");
	patch_byte("info", 17, 0x13); /* features 0x1363: SYM_SIZE (bit 12) */
}

static void test_sym_size(void **state)
{
	(void)state;
	NEED_SAMPLE();
	sym_with_sizes();
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
	append_printf_call(11);
	check_dir();
	expect_at("uftrace.dat.argument-mismatch", SAMPLE_DAT, 5808 + 16);
}

/* Python tracing (0.14): python.fake.sym, old-format lines with addresses counted from 1. */
static void test_python_fake_sym(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte("info", 17, 0x13);
	write_text("python.fake.sym", "# symbols: 3\n# path name: python.fake\n#                          \n"
				      "0000000000000001 T __main__.<module>\n0000000000000002 T fib\n"
				      "0000000000000003 P print\n0000000000000004 ? __sym_end\n");
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
}

/* uftrace 0.17: info bit 14 (UTC_OFFSET), its utc_offset: line last. */
static void set_info_text(const char *text, uint64_t mask)
{
	uint8_t head[40];
	assert_int_equal(read_member("info", head, sizeof(head)), sizeof(head));
	for (int i = 0; i < 8; i++)
		head[24 + i] = (uint8_t)(mask >> (8 * i));
	size_t n = strlen(text);
	uint8_t *all = malloc(40 + n);
	assert_non_null(all);
	memcpy(all, head, 40);
	memcpy(all + 40, text, n);
	write_member("info", all, 40 + n);
	free(all);
}

static void test_info_utc_offset(void **state)
{
	(void)state;
	NEED_SAMPLE();
	set_info_text("exename:/tmp/tr/hello\ntaskinfo:lines=2\ntaskinfo:nr_tid=1\ntaskinfo:tids=18985\n"
		      "record_date:Sat Nov 28 05:28:41 2026\nelapsed_time:0.5 sec\nuftrace_version:v0.17\n"
		      "utc_offset:1715375210\n",
		      1ull | 1ull << 7 | 1ull << 11 | 1ull << 13 | 1ull << 14);
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	/* the v0.16-2 snapshot: the line inside RECORD_DATE's section, no bit: a writer's quirk */
	set_info_text("exename:/tmp/tr/hello\ntaskinfo:lines=2\ntaskinfo:nr_tid=1\ntaskinfo:tids=18985\n"
		      "record_date:Sat Nov 28 05:28:41 2026\nelapsed_time:0.5 sec\nutc_offset:1715375210\n"
		      "pattern_type:regex\nuftrace_version:v0.16-2-gbb6c\n",
		      1ull | 1ull << 7 | 1ull << 11 | 1ull << 12 | 1ull << 13);
	check_dir();
	expect_line("uftrace.writer.utc-offset-unmasked", "info", 40 + 135, 7);
	assert_int_equal(rep.total, 1);
	expect_verdict(TFK_VERDICT_CLEAN);
}

/* Filters that matched nothing or --trace=off: no task data at all is what uftrace writes. */
static void test_nothing_recorded(void **state)
{
	(void)state;
	NEED_SAMPLE();
	remove_member(SAMPLE_DAT);
	check_dir();
	expect("core.input.member-missing", SAMPLE_DAT); /* a task that did record lost its data */
	long at = find_in_member("info", "record -a -d");
	patch("info", at + 7, "-F", 2);
	check_dir();
	expect_verdict(TFK_VERDICT_CLEAN);
	assert_int_equal(rep.total, 0);
	assert_int_equal(rep.stats.events, 0);
}

/*
 * -T triggers that only read counters (or colour, or take arguments) leave the depths as they
 * are: a jump is still a fault; a trigger acting on tracing (depth=) makes gaps legitimate.
 */
static void test_trigger_keeps_depths(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long at = find_in_member("info", "record -a -d");
	patch("info", at + 7, "-T", 2); /* "-T -d /tmp/...": the -d word is no action list */
	patch_byte(SAMPLE_DAT, 32 + 9, 0x01); /* record 2: ENTRY at depth 4 after an EXIT at 0 */
	check_dir();
	expect_count("uftrace.dat.depth-mismatch", 0);
	/* same length: "-a -d /tmp/samples/uftrace/fib-args.uftrace.data" */
	const char *reads = "-T fib@read=proc/statm,color=red,arg1 -d ./x.data";
	const char *depth = "-T fib@read=proc/statm,depth=2        -d ./x.data";
	patch("info", at + 7, reads, strlen(reads));
	check_dir();
	expect_at("uftrace.dat.depth-mismatch", SAMPLE_DAT, 40);
	patch("info", at + 7, depth, strlen(depth));
	check_dir();
	expect_count("uftrace.dat.depth-mismatch", 0);
}

/* The ELF class byte against the data: class 1 with session maps above 4 GiB. */
static void test_info_class(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte("info", 15, 1);
	check_dir();
	expect_at("uftrace.info.bad-header", "info", 15);
	expect_count("uftrace.dat.argument-mismatch", 0);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 1);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/* A flipped endian byte: the header's own numbers tell the order; records walk as recorded. */
static void test_info_endian(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch_byte("info", 14, 2);
	check_dir();
	expect_at("uftrace.info.bad-header", "info", 14);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 1);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

/* A bad magic with the rest of the header intact: the feature mask still counts (no cascade). */
static void test_info_magic_keeps_features(void **state)
{
	(void)state;
	NEED_SAMPLE();
	patch("info", 0, "XXXXXXXX", 8);
	check_dir();
	expect_at("uftrace.info.bad-magic", "info", 0);
	expect_count("uftrace.dat.more-nospec", 0);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 1);
	/* and a header whose numbers cannot be read either: the features stay unknown */
	uint8_t junk[40];
	memset(junk, 0x7f, sizeof(junk));
	patch("info", 0, junk, sizeof(junk));
	check_dir();
	expect_count("uftrace.dat.more-nospec", 0);
}

/* An empty task.txt has its own finding. */
static void test_task_empty(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_text("task.txt", "");
	check_dir();
	expect_at("uftrace.task.empty", "task.txt", 0);
}

/*
 * A damaged record right after a record with arguments is reported at that record: the
 * second printf call (its spec confirmed by the first) and then a record whose magic is 0,
 * whose time goes back, or a LOST record with the more flag.
 */
static void append_bad_record(uint64_t time, uint64_t word)
{
	uint8_t r[16];
	put64(r, time);
	put64(r + 8, word);
	append_member(SAMPLE_DAT, r, sizeof(r));
}

static void test_fault_at_its_record(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const uint64_t main_addr = 0x555e12906214ull;
	append_printf_call(3);
	append_bad_record(678882140300ull, rec_word(1, 0, 0, main_addr) & ~(7ull << 3)); /* magic 0 */
	append_bad_record(678882140400ull, rec_word(0, 0, 0, main_addr));
	check_dir();
	expect_count("uftrace.dat.argument-mismatch", 0);
	expect_at("uftrace.dat.bad-magic", SAMPLE_DAT, 5856 + 8);
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	append_printf_call(3);
	append_bad_record(678882000000ull, rec_word(1, 0, 0, main_addr)); /* time before the call */
	append_bad_record(678882140400ull, rec_word(0, 0, 0, main_addr));
	check_dir();
	expect_count("uftrace.dat.argument-mismatch", 0);
	expect_at("uftrace.dat.time-backwards", SAMPLE_DAT, 5856);
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	append_printf_call(3);
	append_bad_record(678882140300ull, rec_word(2, 1, 0, 1)); /* LOST with the more flag */
	append_bad_record(678882140400ull, rec_word(0, 0, 0, main_addr));
	check_dir();
	expect_count("uftrace.dat.argument-mismatch", 0);
	expect_at("uftrace.dat.more-nospec", SAMPLE_DAT, 5856 + 8);
}

/*
 * The same without a spec to follow (info's argauto: key damaged, so the lengths are guessed):
 * the guess used to take printf's EXIT (magic 0) and its value for 24 more bytes of its ENTRY's
 * payload; the record is reported where it is.
 */
static void test_fault_at_its_record_guessed(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long at = find_in_member("info", "argauto:");
	patch("info", at + 7, "X", 1);
	patch_byte(SAMPLE_DAT, 5768 + 8, 0x0d); /* record 360 (EXIT, more): magic 1 */
	check_dir();
	expect_at("uftrace.dat.bad-magic", SAMPLE_DAT, 5768 + 8);
	assert_int_equal(rep.stats.events, 360);
	/* its depth raised instead (an EXIT at 4 after printf's ENTRY at 1) */
	patch_byte(SAMPLE_DAT, 5768 + 8, 0x2d);
	patch_byte(SAMPLE_DAT, 5768 + 9, 0x01);
	check_dir();
	expect_at("uftrace.dat.depth-mismatch", SAMPLE_DAT, 5768 + 8);
}

/*
 * A symbol file cut mid-line ("... P pri"): printf's records keep their payloads, and uftrace
 * finds no function at their address ('record missing argument info'): reported at the record.
 */
static void test_sym_cut_payload(void **state)
{
	(void)state;
	NEED_SAMPLE();
	long at = find_in_member("hello.sym", " P printf");
	char p[1024];
	member_path("hello.sym", p, sizeof(p));
	assert_int_equal(truncate(p, at + 6), 0);
	check_dir();
	expect_at("uftrace.dat.more-nospec", SAMPLE_DAT, 5744 + 8);
	assert_int_equal(rep.stats.events, SAMPLE_RECORDS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_pristine),	T(test_info_missing), T(test_info_header),	    T(test_info_magic),
		T(test_info_section),	T(test_info_taskinfo), T(test_tids),		    T(test_task_missing),
		T(test_task_syntax), T(test_task_timestamps),	T(test_task_unknown_session), T(test_map_missing), T(test_map_syntax),
		T(test_sym_syntax),	T(test_sym_count),	T(test_sym_addr),	    T(test_dbg_syntax),
		T(test_dat_partial),	T(test_dat_magic),	T(test_dat_time), T(test_dat_before_session),	    T(test_dat_depth),
		T(test_dat_large), T(test_dat_walks_agree), T(test_dat_lost_untimed), T(test_dat_fork_exec_session),
		T(test_dat_payload_lookalike), T(test_dat_more), T(test_dat_spec_lengths), T(test_dat_more_without_spec),	T(test_dat_event),	T(test_dat_payload),	    T(test_perf_record),
		T(test_perf_walker),	T(test_events_extern),	T(test_channel), T(test_many_tasks), T(test_special_member),
		T(test_sym_count_absent_or_huge), T(test_sym_size), T(test_python_fake_sym), T(test_info_utc_offset),
		T(test_nothing_recorded), T(test_trigger_keeps_depths), T(test_info_class), T(test_info_endian),
		T(test_info_magic_keeps_features), T(test_task_empty), T(test_fault_at_its_record), T(test_fault_at_its_record_guessed), T(test_sym_cut_payload),
#undef T
#define K(fn) cmocka_unit_test_setup_teardown(fn, setup_kernel, teardown)
		K(test_kernel_pristine), K(test_kernel_bad_header), K(test_kernel_syntax), K(test_kernel_too_long),
		K(test_kernel_header_missing), K(test_kernel_pages),
#undef K
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
