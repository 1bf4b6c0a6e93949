/* SPDX-License-Identifier: MIT */
/*
 * uftrace data directories' repair (tfk_repair_dir): damaged copies of the recorded sample (a
 * killed recording without info, a task file cut mid-record, a bad record magic, malformed
 * task.txt lines, a sid token too long, a DLOP of an unknown session, damaged .sym files) are
 * repaired into a new directory; the output re-checks clean, keeps exactly the records each
 * task still holds whole, leaves unchanged members byte for byte, and repairs to nothing the
 * second time.
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
#include "tracefsck/check.h"
#include "tracefsck/repair.h"

#ifndef UF_SAMPLE
#define UF_SAMPLE "../shared/samples/uftrace/fib-args.uftrace.data"
#endif
#ifndef UF_KERNEL_SAMPLE
#define UF_KERNEL_SAMPLE "tests/data/uftrace-kernel.uftrace.data"
#endif

#define SAMPLE_RECORDS 362
#define SAMPLE_DAT "18985.dat"
#define SAMPLE_DAT_SIZE 5808
#define SAMPLE_MAP "sid-260878a0ab9a6202.map"
/* The sample was recorded with -a: the first record with arguments is record 359, at 5744. */
#define RECORDS_BEFORE_ARGS 359
/* Its records with arguments or a return value: two of its last three, 8 bytes of values each. */
#define RECORDS_WITH_VALUES 2

static char top[512], in[600], out[600];
static struct tfk_repair_report rep;

static void run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

/* in: a writable copy of a recording, in a new temporary directory (top stays "" when it is absent). */
static int copy_sample(const char *sample)
{
	struct stat sb;
	memset(&rep, 0, sizeof(rep));
	if (stat(sample, &sb) != 0)
		return 0; /* the tests skip */
	const char *tmp = getenv("TMPDIR");
	snprintf(top, sizeof(top), "%s/tfk-ufrepair-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(top));
	snprintf(in, sizeof(in), "%s/in", top);
	snprintf(out, sizeof(out), "%s/out", top);
	char cmd[2000];
	snprintf(cmd, sizeof(cmd), "mkdir '%s' && cp -R '%s/.' '%s/' && chmod -R u+rw '%s'", in, sample, in, in);
	run(cmd);
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
	tfk_repair_report_free(&rep);
	if (top[0]) {
		char cmd[1200];
		snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' && rm -rf '%s'", top, top);
		run(cmd);
	}
	top[0] = 0;
	return 0;
}

#define NEED_SAMPLE()                   \
	do {                            \
		if (!top[0])            \
			skip();         \
	} while (0)

/* A member's bytes (malloc'd), its size in *n; NULL when it does not exist. */
static uint8_t *slurp(const char *dir, const char *name, size_t *n)
{
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(size > 0 ? (size_t)size : 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	*n = (size_t)size;
	return b;
}

static bool exists(const char *dir, const char *name)
{
	char p[1200];
	struct stat sb;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return lstat(p, &sb) == 0;
}

/* out/name holds exactly the first n bytes of the pristine sample's member (n = SIZE_MAX: all). */
static void same_as_sample(const char *name, size_t n)
{
	size_t a, b;
	uint8_t *want = slurp(UF_SAMPLE, name, &a), *got = slurp(out, name, &b);
	assert_non_null(want);
	assert_non_null(got);
	if (n == SIZE_MAX)
		n = a;
	assert_true(n <= a);
	assert_int_equal(b, n);
	assert_memory_equal(want, got, n);
	free(want);
	free(got);
}

__attribute__((format(printf, 1, 2))) static void with_text(const char *cmd_fmt, ...)
{
	va_list ap;
	va_start(ap, cmd_fmt);
	char cmd[2000];
	vsnprintf(cmd, sizeof(cmd), cmd_fmt, ap);
	va_end(ap);
	run(cmd);
}

static const struct tfk_salvage_member *member(const char *name)
{
	for (size_t i = 0; i < rep.nmembers; i++)
		if (strcmp(rep.members[i].member, name) == 0)
			return &rep.members[i];
	return NULL;
}

/* Repair in into out: it must be repaired, the output re-check clean (notes allowed), the two-run rule hold. */
static void repair_clean(void)
{
	tfk_repair_dir(in, out, NULL, &rep);
	raised_note(&rep.before);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(rep.write_error, 0);
	assert_int_equal(tfk_report_verdict(&rep.after), TFK_VERDICT_CLEAN);
	assert_int_equal(rep.after.by_severity[TFK_SEV_ERROR] + rep.after.by_severity[TFK_SEV_WARNING], 0);
	/* The two-run rule: the output has nothing left to repair. */
	struct tfk_repair_report again;
	char out2[700];
	snprintf(out2, sizeof(out2), "%s/again", top);
	tfk_repair_dir(out, out2, NULL, &again);
	assert_int_equal(again.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_false(exists(top, "again"));
	tfk_repair_report_free(&again);
}

/* Repair in into out: it must be repaired, and the output re-check with nothing to say. */
static void repair_ok(void)
{
	repair_clean();
	assert_int_equal(rep.after.count, 0);
}

static void task_kept(uint64_t kept, uint64_t lost, const char *action)
{
	const struct tfk_salvage_member *m = member(SAMPLE_DAT);
	assert_non_null(m);
	assert_string_equal(m->unit, "records");
	assert_int_equal(m->kept, kept);
	assert_int_equal(m->lost, lost);
	assert_string_equal(m->action, action);
	struct tfk_report r;
	tfk_check_file(out, NULL, &r);
	assert_int_equal(r.stats.events, kept); /* the output walks exactly the records kept */
	tfk_report_free(&r);
}

/*
 * The task written under a rebuilt info: every record of the sample, the values of arguments
 * and return values left out (no more flag, no bytes after a record), the records before the
 * first such one byte for byte.
 */
static void task_without_values(void)
{
	task_kept(SAMPLE_RECORDS, 0, "rewritten");
	size_t n, a;
	uint8_t *d = slurp(out, SAMPLE_DAT, &n), *want = slurp(UF_SAMPLE, SAMPLE_DAT, &a);
	assert_non_null(d);
	assert_non_null(want);
	assert_true(n >= 5744 && a >= 5744);
	assert_memory_equal(d, want, 5744);
	free(want);
	assert_int_equal(n, SAMPLE_DAT_SIZE - RECORDS_WITH_VALUES * 8);
	assert_int_equal(n, SAMPLE_RECORDS * 16);
	for (size_t at = 0; at < n; at += 16) {
		uint64_t w;
		memcpy(&w, d + at + 8, 8);
		assert_int_equal((w >> 3) & 7, 5); /* magic */
		assert_int_equal((w >> 2) & 1, 0); /* no more flag */
	}
	free(d);
	assert_non_null(strstr(member(SAMPLE_DAT)->note, "the arguments or return values of 2 records left out"));
}

/* Members the damage did not touch stay byte for byte. */
static void untouched_identical(void)
{
	same_as_sample("libc.so.6.sym", SIZE_MAX);
	same_as_sample("hello.dbg", SIZE_MAX);
	same_as_sample("perf-cpu1.dat", SIZE_MAX);
	same_as_sample("default.opts", SIZE_MAX);
}

static void pristine_nothing_to_do(void **state)
{
	(void)state;
	NEED_SAMPLE();
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_false(exists(top, "out"));
}

/* uftrace record killed: no info, a .channel FIFO; info is rebuilt, every record kept without its values. */
static void killed_recording(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("rm '%s/info'", in);
	with_text("mkfifo '%s/.channel'", in);
	repair_ok();
	task_without_values();
	assert_false(exists(out, ".channel"));
	assert_string_equal(member(".channel")->action, "left out");
	assert_string_equal(member("info")->action, "rebuilt");
	untouched_identical();
	same_as_sample("task.txt", SIZE_MAX);
	same_as_sample(SAMPLE_MAP, SIZE_MAX);
	/* The minimal info of spec 2.10, byte for byte. */
	size_t n;
	uint8_t *info = slurp(out, "info", &n);
	assert_non_null(info);
	static const char text[] = "exename:/tmp/tr/hello\ntaskinfo:lines=2\ntaskinfo:nr_tid=1\ntaskinfo:tids=18985\n";
	assert_int_equal(n, 40 + strlen(text));
	static const uint8_t hdr[40] = { 'F', 't', 'r', 'a', 'c', 'e', '!', 0, 4, 0, 0, 0, 40, 0, 1, 2,
					 0x62, 0x01, 0, 0, 0, 0, 0, 0, 0x81, 0, 0, 0, 0, 0, 0, 0,
					 0, 4, 0, 0, 0, 0, 0, 0 };
	assert_memory_equal(info, hdr, 40);
	assert_memory_equal(info + 40, text, strlen(text));
	free(info);
}

/*
 * A damaged info (a section line broken) is rebuilt from its whole header's descriptive
 * features (0x77b: ARGUMENT, RETVAL and AUTO_ARGS go with the argument spec), and the tasks are
 * cut before their first record with arguments.
 */
static void damaged_info(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("sed -i 's/^osinfo:lines=3/osinfo:lines=x/' '%s/info'", in);
	repair_ok();
	assert_string_equal(member("info")->action, "rebuilt");
	task_without_values();
	size_t n;
	uint8_t *info = slurp(out, "info", &n);
	assert_non_null(info);
	assert_true(n > 40);
	assert_int_equal(info[16], 0x63); /* 0x563: PLTHOOK, TASK_SESSION, SYM_REL_ADDR, MAX_STACK, */
	assert_int_equal(info[17], 0x05); /* PERF_EVENT, DEBUG_INFO */
	assert_memory_equal(info + 40, "exename:/tmp/tr/hello\ntaskinfo:lines=2\n", 39);
	free(info);
	untouched_identical();
}

/* A task file cut 7 bytes short: the cut record goes, every whole one stays. */
static void truncated_task(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("truncate -s 5801 '%s/" SAMPLE_DAT "'", in);
	repair_ok();
	task_kept(SAMPLE_RECORDS - 1, 1, "truncated");
	same_as_sample(SAMPLE_DAT, 5792);
	same_as_sample("info", SIZE_MAX);
	same_as_sample("task.txt", SIZE_MAX);
	untouched_identical();
}

/* A bad record magic at 0x648 (record 100): the task is cut there, as uftrace stops there. */
/*
 * A second printf call whose string length is damaged (uftrace_call.h): the spec the first call
 * confirmed gives 16 bytes where 8 were written; uftrace would lose its place there. Repair cuts
 * before the call: the sample's records, byte for byte.
 */
static void spec_mismatch(void **state)
{
	(void)state;
	NEED_SAMPLE();
	size_t n;
	uint8_t *d = slurp(in, SAMPLE_DAT, &n);
	assert_non_null(d);
	assert_int_equal(n, SAMPLE_DAT_SIZE);
	uint8_t *grown = realloc(d, n + UF_CALL_LEN);
	assert_non_null(grown);
	memcpy(grown + n, grown + UF_CALL_AT, UF_CALL_LEN);
	uf_call_again(grown + n, 11);
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", in, SAMPLE_DAT);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(grown, 1, n + UF_CALL_LEN, f), n + UF_CALL_LEN);
	fclose(f);
	free(grown);
	repair_ok();
	size_t k = 0;
	for (size_t i = 0; i < rep.before.count; i++)
		k += strcmp(rep.before.findings[i].fault->id, "uftrace.dat.argument-mismatch") == 0;
	assert_int_equal(k, 1);
	task_kept(362, 2, "truncated");
	same_as_sample(SAMPLE_DAT, SIZE_MAX);
}

static void bad_magic(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("printf '\\000' | dd of='%s/" SAMPLE_DAT "' bs=1 seek=1608 conv=notrunc status=none", in);
	repair_ok();
	const struct tfk_salvage_member *m = member(SAMPLE_DAT);
	assert_true(m->lost_unknown);
	task_kept(100, 0, "truncated");
	same_as_sample(SAMPLE_DAT, 1600);
	same_as_sample("info", SIZE_MAX);
	untouched_identical();
}

/* Malformed task.txt lines (an unknown keyword, a sid of 96 characters, a DLOP of an unknown
 * session) are dropped; what is left is the pristine task.txt. */
static void malformed_task_lines(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("sed -i '1a GARBAGE line here' '%s/task.txt'", in);
	with_text("echo 'SESS timestamp=678.881934972 pid=18985 sid=260878a0ab9a6202260878a0ab9a6202260878a0ab9a6202"
		  "260878a0ab9a6202260878a0ab9a6202260878a0ab9a6202 exename=\"/tmp/tr/hello\"' >> '%s/task.txt'", in);
	with_text("echo 'DLOP timestamp=678.882052427 tid=18985 sid=0000000000000001 base=7f0000000000 libname=\"/x.so\"' "
		  ">> '%s/task.txt'", in);
	repair_ok();
	task_kept(SAMPLE_RECORDS, 0, "copied");
	const struct tfk_salvage_member *m = member("task.txt");
	assert_string_equal(m->action, "rewritten");
	assert_int_equal(m->kept, 2);
	assert_int_equal(m->lost, 3);
	same_as_sample("task.txt", SIZE_MAX);
	same_as_sample("info", SIZE_MAX);
	same_as_sample(SAMPLE_DAT, SIZE_MAX);
	untouched_identical();
}

/* A late, wrong '# symbols:' (crasher #6) and an all-ones address (crasher #7): the count is
 * rewritten first and the line dropped, which gives back the pristine files. */
static void damaged_symbols(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("sed -i -e '1d' -e '5a # symbols: 2' '%s/hello.sym'", in);
	with_text("sed -i '4i ffffffffffffffff T bad' '%s/libz.so.1.2.13.sym'", in);
	repair_ok();
	same_as_sample("hello.sym", SIZE_MAX);
	same_as_sample("libz.so.1.2.13.sym", SIZE_MAX);
	assert_string_equal(member("hello.sym")->action, "rewritten");
	assert_int_equal(member("libz.so.1.2.13.sym")->lost, 1);
	task_kept(SAMPLE_RECORDS, 0, "copied");
	untouched_identical();
}

/* A malformed map line is dropped; a session without its map is refused (uftrace needs it). */
static void maps(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("echo '7f00-7e00 r-xp 00000000 00:00 0 /bad' >> '%s/" SAMPLE_MAP "'", in);
	repair_ok();
	same_as_sample(SAMPLE_MAP, SIZE_MAX);
	assert_int_equal(member(SAMPLE_MAP)->lost, 1);
	untouched_identical();
}

static void missing_map_refused(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("rm '%s/" SAMPLE_MAP "'", in);
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_UNSUPPORTED);
	assert_non_null(rep.reason);
	assert_false(exists(top, "out"));
}

/*
 * task.txt missing, or cut in its first line: no SESS line is left and uftrace replay finds no
 * task. With info's executable and the one session map it is made again: a SESS line a
 * nanosecond before the first record, a TASK line per task file; info and the records stay.
 */
static void task_txt_made_again_expect(void)
{
	repair_ok();
	assert_string_equal(member("task.txt")->action, "rebuilt");
	task_kept(SAMPLE_RECORDS, 0, "copied");
	same_as_sample("info", SIZE_MAX);
	same_as_sample(SAMPLE_DAT, SIZE_MAX);
	same_as_sample(SAMPLE_MAP, SIZE_MAX);
	untouched_identical();
	size_t n, d;
	uint8_t *dat = slurp(in, SAMPLE_DAT, &d);
	assert_non_null(dat);
	uint64_t first;
	memcpy(&first, dat, 8);
	free(dat);
	first -= 1;
	char want[512];
	snprintf(want, sizeof(want),
		 "SESS timestamp=%llu.%09llu pid=18985 sid=260878a0ab9a6202 exename=\"/tmp/tr/hello\"\n"
		 "TASK timestamp=%llu.%09llu tid=18985 pid=18985\n",
		 (unsigned long long)(first / 1000000000u), (unsigned long long)(first % 1000000000u),
		 (unsigned long long)(first / 1000000000u), (unsigned long long)(first % 1000000000u));
	uint8_t *txt = slurp(out, "task.txt", &n);
	assert_non_null(txt);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(txt, want, n);
	free(txt);
}

static void task_txt_missing(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("rm '%s/task.txt'", in);
	task_txt_made_again_expect();
}

/* A record earlier than the first (a warning, kept): the session is made to begin before it. */
static void task_txt_missing_time_back(void **state)
{
	(void)state;
	NEED_SAMPLE();
	size_t d;
	uint8_t *dat = slurp(in, SAMPLE_DAT, &d);
	assert_non_null(dat);
	uint64_t first;
	memcpy(&first, dat, 8);
	free(dat);
	const uint64_t early = first - 5000;
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "rm '%s/task.txt' && printf '", in);
	for (int i = 0; i < 8; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "\\%03o", (unsigned)((early >> (8 * i)) & 0xff));
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "' | dd of='%s/" SAMPLE_DAT "' bs=1 seek=48 conv=notrunc 2>/dev/null", in);
	run(cmd);
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(tfk_report_verdict(&rep.after), TFK_VERDICT_CLEAN);
	assert_int_equal(rep.after.count, 1); /* the record that goes back stays, a warning */
	assert_string_equal(rep.after.findings[0].fault->id, "uftrace.dat.time-backwards");
	assert_string_equal(member("task.txt")->action, "rebuilt");
	task_kept(SAMPLE_RECORDS, 0, "copied");
	size_t n;
	uint8_t *txt = slurp(out, "task.txt", &n);
	assert_non_null(txt);
	char want[64];
	snprintf(want, sizeof(want), "SESS timestamp=%llu.%09llu ", (unsigned long long)((early - 1) / 1000000000u),
		 (unsigned long long)((early - 1) % 1000000000u));
	assert_true(n > strlen(want));
	assert_memory_equal(txt, want, strlen(want));
	free(txt);
}

static void task_txt_cut_in_first_line(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("truncate -s 30 '%s/task.txt'", in);
	task_txt_made_again_expect();
	assert_int_equal(member("task.txt")->bytes_dropped, 30);
}

/* Two session maps: which session the tasks ran in is not known, and nothing is made up. */
static void task_txt_two_sessions_refused(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("rm '%s/task.txt' && cp '%s/" SAMPLE_MAP "' '%s/sid-0123456789abcdef.map'", in, in, in);
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_UNSUPPORTED);
	assert_non_null(strstr(rep.reason, "task.txt"));
	assert_false(exists(top, "out"));
}

/* A dry run re-checks the output and writes nothing; an occupied target is refused. */
static void dry_run_and_target(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("truncate -s 5801 '%s/" SAMPLE_DAT "'", in);
	tfk_repair_dir(in, NULL, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(tfk_report_verdict(&rep.after), TFK_VERDICT_CLEAN);
	assert_false(exists(top, "out"));
	tfk_repair_report_free(&rep);
	with_text("mkdir '%s'", out);
	with_text("touch '%s/x'", out);
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_FAILED);
	assert_true(rep.write_error != 0);
	assert_true(exists(out, "x"));
}

/*
 * A task whose last record carries a 16-byte payload that ends the file exactly is whole: the
 * payload guess prefers the exact end to a shorter length followed by a would-be cut record.
 */
static void payload_ends_file(void **state)
{
	(void)state;
	NEED_SAMPLE();
	size_t n;
	uint8_t *d = slurp(UF_SAMPLE, SAMPLE_DAT, &n);
	assert_non_null(d);
	assert_int_equal(n, SAMPLE_DAT_SIZE);
	uint8_t buf[5744 + 32];
	memcpy(buf, d, 5744 + 16); /* records 0-358, then record 359's header (ENTRY or EXIT, more = 1) */
	memset(buf + 5744 + 16, 0, 16);
	free(d);
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", in, SAMPLE_DAT);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	struct tfk_report r;
	tfk_check_file(in, NULL, &r);
	raised_note(&r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	assert_int_equal(r.stats.events, RECORDS_BEFORE_ARGS + 1);
	tfk_report_free(&r);
	/* Cut 7 bytes short, the payload's length is a guess: repair keeps the records before it. */
	assert_int_equal(truncate(p, sizeof(buf) - 7), 0);
	repair_ok();
	task_kept(RECORDS_BEFORE_ARGS, 2, "truncated");
	same_as_sample(SAMPLE_DAT, 5744);
}

/* A perf-cpu file whose last record is cut (a killed recording) is cut before it. */
static void perf_tail(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("head -c 500 '%s/perf-cpu1.dat' > '%s/p' && mv '%s/p' '%s/perf-cpu1.dat'", UF_SAMPLE, in, in, in);
	repair_ok();
	const struct tfk_salvage_member *m = member("perf-cpu1.dat");
	assert_non_null(m);
	assert_string_equal(m->action, "truncated");
	assert_true(m->bytes_out < 500 && m->bytes_out > 0);
	assert_int_equal(m->lost, 1);
	assert_false(m->lost_unknown);
	same_as_sample("perf-cpu1.dat", (size_t)m->bytes_out);
	task_kept(SAMPLE_RECORDS, 0, "copied");
}

/* In place: the directory is replaced by its repaired copy at once. */
static void in_place(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("truncate -s 5801 '%s/" SAMPLE_DAT "'", in);
	with_text("mkfifo '%s/.channel'", in);
	tfk_repair_dir(in, in, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_false(exists(in, ".channel"));
	struct tfk_report r;
	tfk_check_file(in, NULL, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	assert_int_equal(r.stats.events, SAMPLE_RECORDS - 1);
	tfk_report_free(&r);
	/* Nothing is left beside it. */
	char cmd[800];
	snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) = 1", top);
	run(cmd);
}

static int collect(void *user, const char *s, size_t n)
{
	FILE *f = user;
	return fwrite(s, 1, n, f) == n ? 0 : -1;
}

/* The salvage report names each member with what it kept and lost, as text and JSON Lines. */
static void salvage_report(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("rm '%s/info'", in);
	repair_ok();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(tfk_repair_report_text(&rep, "d", collect, f), 0);
	assert_int_equal(tfk_repair_report_jsonl(&rep, "d", collect, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "d: salvage: 1 task file; kept 362 records, lost 0; info rebuilt"));
	assert_non_null(strstr(buf, "d/18985.dat: rewritten; kept 362 records"));
	assert_non_null(strstr(buf, "{\"type\":\"salvage_member\",\"file\":\"d\",\"member\":\"18985.dat\",\"action\":"
				    "\"rewritten\",\"unit\":\"records\",\"kept\":362,\"lost\":0,"));
	assert_null(strstr(buf, "d/libc.so.6.sym")); /* copied members: in JSON only */
	/* The totals line sums the task files' records (perf-cpu records are not the task's). */
	const char *salvage = strstr(buf, "{\"type\":\"salvage\",");
	assert_non_null(salvage);
	assert_non_null(strstr(salvage, "\"events_kept\":362,\"events_lost\":0,"));
	free(buf);
}


/* ---- kernel data (tests/data/README.md) ---- */

#define KERNEL_PS 4096

static void kernel_pristine_nothing_to_do(void **state)
{
	(void)state;
	NEED_SAMPLE();
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_false(exists(top, "out"));
}

/* A page with a damaged commit word is dropped, the next says events were missed, the cut page goes. */
static void kernel_pages(void **state)
{
	(void)state;
	NEED_SAMPLE();
	size_t n;
	uint8_t *orig = slurp(UF_KERNEL_SAMPLE, "kernel-cpu0.dat", &n);
	assert_non_null(orig);
	assert_true(n == 4 * KERNEL_PS);
	with_text("printf '\\377\\377\\377\\177' | dd of='%s/kernel-cpu0.dat' bs=1 seek=%d conv=notrunc 2>/dev/null && "
		  "truncate -s %d '%s/kernel-cpu0.dat'", in, KERNEL_PS + 8, 3 * KERNEL_PS + 500, in);
	repair_clean();
	const struct tfk_salvage_member *m = member("kernel-cpu0.dat");
	assert_non_null(m);
	assert_string_equal(m->action, "rewritten");
	assert_string_equal(m->unit, "events");
	assert_true(m->lost_unknown);
	size_t k;
	uint8_t *got = slurp(out, "kernel-cpu0.dat", &k);
	assert_non_null(got);
	assert_int_equal(k, 2 * KERNEL_PS); /* pages 0 and 2 */
	assert_memory_equal(got, orig, KERNEL_PS);
	uint64_t commit_in, commit_out;
	memcpy(&commit_in, orig + 2 * KERNEL_PS + 8, 8);
	memcpy(&commit_out, got + KERNEL_PS + 8, 8);
	assert_int_equal(commit_out, commit_in | (1ull << 31));
	assert_memory_equal(got + KERNEL_PS, orig + 2 * KERNEL_PS, 8);
	assert_memory_equal(got + KERNEL_PS + 16, orig + 2 * KERNEL_PS + 16, KERNEL_PS - 16);
	assert_int_equal(m->kept, ring_events(got, k, KERNEL_PS));
	assert_int_equal(m->kept, ring_events(orig, KERNEL_PS, KERNEL_PS) + ring_events(orig + 2 * KERNEL_PS, KERNEL_PS, KERNEL_PS));
	const struct tfk_salvage_member *c1 = member("kernel-cpu1.dat");
	assert_non_null(c1);
	assert_string_equal(c1->action, "copied");
	free(orig);
	free(got);
}

/* A kernel_header uftrace would overflow its stack on: the kernel data goes, the tasks stay. */
static void kernel_header_damaged(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("printf 'TRACEFS: events/sched/big/format: 5000\\n' >> '%s/kernel_header' && "
		  "head -c 5000 /dev/zero | tr '\\000' x >> '%s/kernel_header'", in, in);
	repair_clean();
	assert_false(exists(out, "kernel_header"));
	assert_false(exists(out, "kernel-cpu0.dat"));
	assert_false(exists(out, "kernel-cpu1.dat"));
	assert_string_equal(member("kernel-cpu0.dat")->action, "left out");
	assert_true(member("kernel-cpu0.dat")->lost_unknown);
	assert_true(exists(out, "24667.dat"));
	assert_int_equal(rep.after.stats.events, 168);
	/* info no longer announces kernel data (feature bit 2 of the mask at 16), and is otherwise the same */
	size_t a, b;
	uint8_t *was = slurp(in, "info", &a), *now = slurp(out, "info", &b);
	assert_non_null(was);
	assert_non_null(now);
	assert_int_equal(a, b);
	assert_true(was[16] & 4);
	assert_int_equal(now[16], was[16] & ~4);
	now[16] = was[16];
	assert_memory_equal(was, now, a);
	free(was);
	free(now);
}


/* ---- issue 42: header bytes told right from the data, the records all kept ------------ */

/* Patch one byte of a member of in. */
static void patch_in(const char *name, long off, uint8_t v)
{
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", in, name);
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(&v, 1, 1, f), 1);
	fclose(f);
}

/*
 * A flipped endian byte, an ELF class 1 under 64-bit maps, a damaged magic, a max_stack below
 * the depth recorded: info is written again with the byte the data tells (the sample's info
 * exactly), its argument spec and every record kept, where repair used to rebuild a minimal
 * info (values stripped) or cut the task at the first deeper record.
 */
static void info_header_fixed(void **state)
{
	(void)state;
	NEED_SAMPLE();
	static const struct { long off; uint8_t v; } damage[] = { { 14, 2 }, { 15, 1 }, { 0, 'X' }, { 32, 4 } };
	for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		if (i) {
			assert_int_equal(teardown(NULL), 0);
			assert_int_equal(setup(NULL), 0);
		}
		patch_in("info", damage[i].off, damage[i].v);
		if (damage[i].off == 32)
			patch_in("info", 33, 0); /* max_stack 4 (was 1024) */
		repair_ok();
		task_kept(SAMPLE_RECORDS, 0, "copied");
		same_as_sample(SAMPLE_DAT, SIZE_MAX);
		if (damage[i].off == 32) {
			/* max_stack raised to uftrace's default, the rest as recorded */
			size_t n;
			uint8_t *got = slurp(out, "info", &n), *want = slurp(UF_SAMPLE, "info", &n);
			assert_int_equal(got[32] | got[33] << 8, 1024);
			assert_memory_equal(got + 34, want + 34, n - 34);
			free(got);
			free(want);
		} else {
			same_as_sample("info", SIZE_MAX);
		}
		assert_string_equal(member("info")->action, "rewritten");
	}
}

/* An empty task.txt is made again from info's executable, the one map and the task files. */
static void task_txt_empty(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text(": > '%s/task.txt'", in);
	repair_ok();
	bool found = false;
	for (size_t i = 0; i < rep.before.count; i++)
		found |= strcmp(rep.before.findings[i].fault->id, "uftrace.task.empty") == 0;
	assert_true(found);
	task_kept(SAMPLE_RECORDS, 0, "copied");
	assert_string_equal(member("task.txt")->action, "rebuilt");
}

/*
 * hello.sym cut in printf's line ("... P pri"): uftrace finds no function for the records with
 * printf's values ('record missing argument info'); the task is cut before the first of them.
 */
static void sym_cut_mid_line(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("f='%s/hello.sym'; n=$(grep -b -a ' P printf' \"$f\" | cut -d: -f1); truncate -s $((n + 6)) \"$f\"", in);
	repair_ok();
	task_kept(RECORDS_BEFORE_ARGS, SAMPLE_RECORDS - RECORDS_BEFORE_ARGS, "truncated");
	same_as_sample(SAMPLE_DAT, 5744);
}


/*
 * The map renamed (sid-0000000000000001.map): the one session without its map and the one map
 * no session names are paired, the map written under the session's name; nothing else lost.
 */
static void orphan_map_paired(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("mv '%s/" SAMPLE_MAP "' '%s/sid-0000000000000001.map'", in, in);
	repair_ok();
	task_kept(SAMPLE_RECORDS, 0, "copied");
	same_as_sample(SAMPLE_MAP, SIZE_MAX);
	same_as_sample("task.txt", SIZE_MAX);
	assert_false(exists(out, "sid-0000000000000001.map"));
	assert_string_equal(member("sid-0000000000000001.map")->action, "rewritten");
}

/*
 * task.txt cut by the end of the file inside its TASK line ("TASK timestamp=... tid=1"): info
 * names the task (18985), the one SESS line its process: the line is made whole again, where it
 * used to be dropped (and info rebuilt without the argument spec, or the task refused).
 */
static void task_line_cut(void **state)
{
	(void)state;
	NEED_SAMPLE();
	with_text("f='%s/task.txt'; n=$(grep -b TASK \"$f\" | cut -d: -f1); truncate -s $((n + 34)) \"$f\"", in);
	repair_ok();
	task_kept(SAMPLE_RECORDS, 0, "copied");
	same_as_sample("task.txt", SIZE_MAX);
	same_as_sample("info", SIZE_MAX);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(pristine_nothing_to_do), T(killed_recording), T(truncated_task), T(spec_mismatch), T(bad_magic),
		T(malformed_task_lines),   T(damaged_symbols),  T(maps),           T(missing_map_refused),
		T(dry_run_and_target),     T(salvage_report),   T(payload_ends_file), T(perf_tail), T(in_place), T(damaged_info),
		T(task_txt_missing), T(task_txt_missing_time_back), T(task_txt_cut_in_first_line), T(task_txt_two_sessions_refused),
		T(info_header_fixed), T(task_txt_empty), T(sym_cut_mid_line), T(orphan_map_paired), T(task_line_cut),
#define K(fn) cmocka_unit_test_setup_teardown(fn, setup_kernel, teardown)
		K(kernel_pristine_nothing_to_do), K(kernel_pages), K(kernel_header_damaged),
#undef K
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
