/* SPDX-License-Identifier: MIT */
/*
 * tracefsck-bench: how fast tracefsck checks and repairs, against `cat` and the reference
 * reader, on the same warm file in one run. Makes its own traces with the fixture writer
 * (v6, v7 uncompressed, v7 zstd): real-shaped ones (a real kernel's metadata, records of its
 * formats; 100 MiB by default) and fixture ones (1 GiB and 4 GiB by default), or takes paths.
 * Real-shaped and recorded traces have their fixed cost, metadata and libtraceevent, printed
 * apart from the per-page cost; trace directories, uftrace data and CTF traces, are timed
 * against `cat` of their files and their reader; a perf.data against `cat` and perf report,
 * with its peak RSS. The batch shape (bench_batch.h) times a CI gate's run over many uploads
 * from one kernel, with the format memo and without.
 *
 * usage: see usage() below.
 */
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_batch.h"
#include "bench_gen.h"
#include "bench_kmeta.h"
#include "bench_real.h"
#include "bench_run.h"

#ifndef BENCH_STORED_METADATA
#define BENCH_STORED_METADATA "tests/data/kernel-metadata-6.18-x86_64.zst"
#endif

struct opts {
	const char *tracefsck, *dir;
	uint64_t sizes[8];
	int nsizes;
	bool kinds[BENCH_KINDS];
	int runs;
	bool reader;
	int many;
	bool shape_fixture, shape_real, shape_batch;
	int batch;                 /* traces in the batch shape */
	uint64_t batch_mib;
	uint64_t real_mib;
	const char *metadata;      /* auto, live or a stored copy */
	const char *save_metadata; /* write this machine's as a stored copy, and do nothing else */
	unsigned kallsyms_every;
	bool make_only;            /* make the traces, time nothing */
};

static bool have(const char *cmd)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "command -v %s >/dev/null 2>&1", cmd);
	return system(buf) == 0;
}

/* The "events" figure of a JSON Lines summary written by tracefsck check --json. */
static uint64_t summary_events(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	uint64_t events = 0;
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "\"type\":\"summary\"") ? strstr(line, "\"events\":") : NULL;
		if (p)
			events = strtoull(p + 9, NULL, 10);
	}
	if (f)
		fclose(f);
	return events;
}

static void row(const char *what, const struct bench_result *r, uint64_t bytes, uint64_t events)
{
	double mbs = (double)bytes / 1e6 / r->wall;
	printf("  %-40s %8.3f s %9.0f MB/s", what, r->wall, mbs);
	if (events)
		printf(" %10.1f M events/s", (double)events / 1e6 / r->wall);
	else
		printf(" %21s", "");
	printf(" %8.1f MiB peak RSS", (double)r->max_rss_kib / 1024.0);
	if (r->status)
		printf("  (exit %d)", r->status);
	printf("\n");
}

static void verdict(const char *what, double ratio, const char *op, double target)
{
	bool ok = strcmp(op, "<=") == 0 ? ratio <= target : strcmp(op, "<") == 0 ? ratio < target : ratio >= target;
	printf("  %-52s %8.2f   target %s %g: %s\n", what, ratio, op, target, ok ? "met" : "MISSED");
}


/* Where the first CPU's data begins, from `tracefsck describe --json`; 0 when none is found. */
static uint64_t first_cpu_data(const struct opts *o, const char *path)
{
	char out[4096];
	snprintf(out, sizeof(out), "%s/bench-describe.jsonl", o->dir);
	char *argv[] = { (char *)o->tracefsck, "describe", "--json", (char *)path, NULL };
	struct bench_result r;
	if (bench_run(argv, out, &r) != 0)
		return 0;
	FILE *f = fopen(out, "r");
	char line[4096];
	uint64_t first = 0;
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "\"type\":\"cpu\"") ? strstr(line, "\"offset\":") : NULL;
		uint64_t at = p ? strtoull(p + 9, NULL, 10) : 0;
		if (at && (!first || at < first))
			first = at;
	}
	if (f)
		fclose(f);
	unlink(out);
	return first;
}

/* The first `len` bytes of `path` written to `to`. */
static int copy_prefix(const char *path, const char *to, uint64_t len)
{
	FILE *in = fopen(path, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	int rc = in && out ? 0 : -1;
	while (rc == 0 && len) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		size_t n = fread(buf, 1, want, in);
		if (n == 0 || fwrite(buf, 1, n, out) != n)
			rc = -1;
		len -= n;
	}
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		rc = -1;
	return rc;
}

/*
 * The fixed cost (initial header, sections, event formats, kallsyms, ..., the libtraceevent pass)
 * apart from the per-page cost: the same check of the file cut where its first CPU's data
 * begins, with and without libtraceevent. The cut file's findings (data missing) are cheap.
 */
static void fixed_cost(const struct opts *o, const char *path, const struct bench_result *cat,
		       const struct bench_result *check, uint64_t bytes)
{
	uint64_t cut = first_cpu_data(o, path);
	char head[4200];
	snprintf(head, sizeof(head), "%s/bench-head.dat", o->dir);
	if (!cut || copy_prefix(path, head, cut) != 0) {
		printf("  fixed cost: no CPU data found to cut at\n");
		return;
	}
	struct bench_result meta, meta_notep;
	char *m_argv[] = { (char *)o->tracefsck, "check", head, NULL };
	char *mn_argv[] = { (char *)o->tracefsck, "check", "--no-libtraceevent", head, NULL };
	bench_best_of(o->runs, m_argv, NULL, &meta);
	bench_best_of(o->runs, mn_argv, NULL, &meta_notep);
	double tep = meta.wall > meta_notep.wall ? meta.wall - meta_notep.wall : 0;
	double pages = check->wall > meta.wall ? check->wall - meta.wall : 0;
	printf("  fixed cost (the file cut at its first CPU data, 0x%llx):\n", (unsigned long long)cut);
	printf("  %-40s %8.3f s %9.2f x cat\n", "metadata checks + libtraceevent pass", meta.wall, meta.wall / cat->wall);
	printf("  %-40s %8.3f s %9.2f x cat\n", "  of which the libtraceevent pass", tep, tep / cat->wall);
	printf("  %-40s %8.3f s %9.0f MB/s of the whole file\n", "per-page cost (check less fixed cost)", pages,
	       pages > 0 ? (double)bytes / 1e6 / pages : 0.0);
	unlink(head);
}

/* fixed_apart: the fixed cost printed apart (recorded and real-shaped traces). */

/* What every file is timed against: cat (the page cache warmed first), check with its JSON
 * summary in json, and check on one thread. The events the check counted. */
static uint64_t time_baseline(const struct opts *o, const char *path, const char *json, struct bench_result *cat,
			      struct bench_result *check, struct bench_result *single)
{
	char *cat_argv[] = { "cat", (char *)path, NULL };
	bench_run(cat_argv, NULL, cat);
	bench_best_of(o->runs, cat_argv, NULL, cat);
	char *check_argv[] = { (char *)o->tracefsck, "check", "--json", (char *)path, NULL };
	bench_best_of(o->runs, check_argv, json, check);
	char *single_argv[] = { (char *)o->tracefsck, "check", "--threads", "1", (char *)path, NULL };
	bench_best_of(o->runs, single_argv, NULL, single);
	return summary_events(json);
}

static void bench_file(const struct opts *o, const char *path, bool zstd_list, bool fixed_apart)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		printf("%s: cannot stat\n", path);
		return;
	}
	uint64_t bytes = (uint64_t)st.st_size;
	char json[4096];
	snprintf(json, sizeof(json), "%s/bench-summary.jsonl", o->dir);
	printf("\n%s (%.1f MiB)\n", path, (double)bytes / 1048576.0);

	struct bench_result cat, check, single, notep, repair, reader = { 0 };
	const uint64_t events = time_baseline(o, path, json, &cat, &check, &single);
	char *notep_argv[] = { (char *)o->tracefsck, "check", "--no-libtraceevent", (char *)path, NULL };
	bench_best_of(o->runs, notep_argv, NULL, &notep);
	char *repair_argv[] = { (char *)o->tracefsck, "repair", "--dry-run", (char *)path, NULL };
	bench_best_of(o->runs, repair_argv, NULL, &repair);
	bool run_reader = o->reader && have("trace-cmd");
	if (run_reader) {
		char *rd_argv[] = { "trace-cmd", "report", "-i", (char *)path, NULL };
		bench_run(rd_argv, NULL, &reader);
	}

	row("cat FILE > /dev/null", &cat, bytes, 0);
	row("tracefsck check", &check, bytes, events);
	row("tracefsck check --threads 1", &single, bytes, events);
	row("tracefsck check --no-libtraceevent", &notep, bytes, events);
	row("tracefsck repair --dry-run (clean file)", &repair, bytes, events);
	if (run_reader)
		row("trace-cmd report > /dev/null", &reader, bytes, events);
	double decode = 0;
	uint64_t decoded = 0;
	bool zstd = zstd_list && bench_zstd_decode_only(path, &decode, &decoded) == 0;
	if (zstd)
		printf("  %-40s %8.3f s %9.0f MB/s (decoded %.1f MiB)\n", "decode the zstd chunks alone", decode,
		       (double)bytes / 1e6 / decode, (double)decoded / 1048576.0);

	if (fixed_apart)
		fixed_cost(o, path, &cat, &check, bytes);
	printf("  ratios:\n");
	if (zstd) {
		/* each CPU's chunks decoded on its own worker: below one thread's decoding alone */
		verdict("tracefsck check / decoding the chunks alone", check.wall / decode, "<", 1);
		if (run_reader)
			verdict("trace-cmd report / tracefsck check", reader.wall / check.wall, ">=", 60);
	} else {
		verdict("tracefsck check / cat", check.wall / cat.wall, "<=", 3);
		if (run_reader)
			verdict("trace-cmd report / tracefsck check", reader.wall / check.wall, ">=", 100);
	}
	verdict("tracefsck repair --dry-run / tracefsck check (clean file)", repair.wall / check.wall, "<=", 2);
	char damaged[4200], repaired[4200];
	snprintf(damaged, sizeof(damaged), "%s.damaged", path);
	snprintf(repaired, sizeof(repaired), "%s.repaired", path);
	if (bench_make_damaged(path, damaged) == 0) {
		struct bench_result dcheck, drepair, dstore;
		char *dc_argv[] = { (char *)o->tracefsck, "check", (char *)damaged, NULL };
		char *dr_argv[] = { (char *)o->tracefsck, "repair", "--dry-run", (char *)damaged, NULL };
		/* --force: the best of several runs writes over the first run's output */
		char *ds_argv[] = { (char *)o->tracefsck, "repair", "--force", "-o", repaired, (char *)damaged, NULL };
		bench_run(dc_argv, NULL, &dcheck); /* warm the page cache */
		bench_best_of(o->runs, dc_argv, NULL, &dcheck);
		bench_best_of(o->runs, dr_argv, NULL, &drepair);
		bench_best_of(o->runs, ds_argv, NULL, &dstore);
		printf("  the same with its CPU table zeroed (pages found by a scan; repair rebuilds the table):\n");
		row("tracefsck check", &dcheck, bytes, events);
		row("tracefsck repair --dry-run", &drepair, bytes, events);
		row("tracefsck repair -o FILE (stored, fsync)", &dstore, bytes, events);
		verdict("repair with a full page scan / check, same file", drepair.wall / dcheck.wall, "<=", 2);
		printf("  %-52s %8.2f\n", "repair with a full page scan / check of the clean file", drepair.wall / check.wall);
		unlink(damaged);
		unlink(repaired);
	}
	verdict("tracefsck check peak RSS, MiB", (double)check.max_rss_kib / 1024.0, "<=", 64);
	if (run_reader)
		printf("  %-52s %8.1f MiB\n", "trace-cmd report peak RSS", (double)reader.max_rss_kib / 1024.0);
}

/* The "format" of a JSON Lines summary, into out ("" when none). */
static void summary_format(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "\"type\":\"summary\"") ? strstr(line, "\"format\":\"") : NULL;
		if (p) {
			p += 10;
			size_t k = 0;
			while (p[k] && p[k] != '"' && k + 1 < n) {
				out[k] = p[k];
				k++;
			}
			out[k] = 0;
		}
	}
	if (f)
		fclose(f);
}

/* Bytes of the regular files under path (two levels: CTF traces keep their indexes below). */
static uint64_t tree_bytes(const char *path)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "find '%s' -type f -printf '%%s\\n' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	uint64_t total = 0;
	char line[64];
	while (p && fgets(line, sizeof(line), p))
		total += strtoull(line, NULL, 10);
	if (p)
		pclose(p);
	return total;
}

/*
 * A trace directory (uftrace data, a CTF trace): `cat` of every file in it against the check of
 * the directory, and its reader when installed (uftrace dump, babeltrace2 to its dummy sink),
 * with #16's and #17's targets: uftrace within 2 x cat, CTF within 5 x cat and 30 x babeltrace2.
 */
static void bench_dir(const struct opts *o, const char *path)
{
	uint64_t bytes = tree_bytes(path);
	char json[4096], format[128];
	snprintf(json, sizeof(json), "%s/bench-summary.jsonl", o->dir);
	printf("\n%s/ (a directory, %.1f MiB in its files)\n", path, (double)bytes / 1048576.0);
	struct bench_result cat, check, repair, reader = { 0 };
	char *cat_argv[] = { "sh", "-c", "find \"$0\" -type f -exec cat {} + > /dev/null", (char *)path, NULL };
	bench_run(cat_argv, NULL, &cat); /* warm the page cache */
	bench_best_of(o->runs, cat_argv, NULL, &cat);
	char *check_argv[] = { (char *)o->tracefsck, "check", "--json", (char *)path, NULL };
	bench_best_of(o->runs, check_argv, json, &check);
	uint64_t events = summary_events(json);
	summary_format(json, format, sizeof(format));
	char *repair_argv[] = { (char *)o->tracefsck, "repair", "--dry-run", (char *)path, NULL };
	bench_best_of(o->runs, repair_argv, NULL, &repair);
	const bool uftrace = strcmp(format, "uftrace data") == 0, ctf = strncmp(format, "CTF", 3) == 0;
	char *uf_argv[] = { "uftrace", "dump", "-d", (char *)path, NULL };
	char *bt_argv[] = { "babeltrace2", "-o", "dummy", (char *)path, NULL };
	const bool run_reader = o->reader && ((uftrace && have("uftrace")) || (ctf && have("babeltrace2")));
	if (run_reader)
		bench_run(uftrace ? uf_argv : bt_argv, NULL, &reader);
	printf("  format: %s\n", format[0] ? format : "(not recognised)");
	row("cat FILES > /dev/null", &cat, bytes, 0);
	row("tracefsck check DIR", &check, bytes, events);
	row("tracefsck repair --dry-run DIR (clean)", &repair, bytes, events);
	if (run_reader)
		row(uftrace ? "uftrace dump > /dev/null" : "babeltrace2 -o dummy", &reader, bytes, events);
	printf("  ratios:\n");
	if (uftrace || ctf)
		verdict("tracefsck check / cat", check.wall / cat.wall, "<=", uftrace ? 2 : 5);
	if (run_reader && ctf)
		verdict("babeltrace2 / tracefsck check", reader.wall / check.wall, ">=", 30);
	else if (run_reader)
		printf("  %-52s %8.2f\n", "uftrace dump / tracefsck check", reader.wall / check.wall);
	verdict("tracefsck check peak RSS, MiB", (double)check.max_rss_kib / 1024.0, "<=", 64);
}

/* Does path begin with magic? */
static bool starts_with(const char *path, const char *magic)
{
	char buf[16] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, strlen(magic), f) : 0;
	if (f)
		fclose(f);
	return n == strlen(magic) && memcmp(buf, magic, n) == 0;
}

/*
 * A perf.data: cat against check, and check's peak resident set, which read windows keep flat
 * whatever the file's size (#41's bound: 64 MiB for any trace); perf's own reader when installed.
 */
static void bench_perf(const struct opts *o, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return;
	uint64_t bytes = (uint64_t)st.st_size;
	char json[4096];
	snprintf(json, sizeof(json), "%s/bench-summary.jsonl", o->dir);
	printf("\n%s (perf.data, %.1f MiB)\n", path, (double)bytes / 1048576.0);
	struct bench_result cat, check, single, reader = { 0 };
	const uint64_t events = time_baseline(o, path, json, &cat, &check, &single);
	bool run_reader = o->reader && have("perf");
	char *rd_argv[] = { "perf", "report", "--stdio", "-i", (char *)path, NULL };
	if (run_reader)
		bench_run(rd_argv, NULL, &reader);
	row("cat FILE > /dev/null", &cat, bytes, 0);
	row("tracefsck check", &check, bytes, events);
	row("tracefsck check --threads 1", &single, bytes, events);
	if (run_reader)
		row("perf report --stdio > /dev/null", &reader, bytes, events);
	printf("  ratios:\n");
	printf("  %-52s %8.2f\n", "tracefsck check / cat", check.wall / cat.wall);
	if (run_reader)
		printf("  %-52s %8.2f\n", "perf report / tracefsck check", reader.wall / check.wall);
	verdict("tracefsck check peak RSS, MiB", (double)check.max_rss_kib / 1024.0, "<=", 64);
	printf("  %-52s %8.2f\n", "tracefsck check peak RSS / file size", (double)check.max_rss_kib * 1024.0 / (double)bytes);
}

/* Many sample-sized files: sequential against -j 2, output kept per file and in order. */
static void bench_many(const struct opts *o)
{
	char path[4096];
	int n = o->many;
	char **argv = calloc((size_t)n + 8, sizeof(*argv));
	if (!argv)
		return;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/many-%03d.dat", o->dir, i);
		if (bench_make(BENCH_V6, 4, path) != 0)
			return;
		struct stat st;
		if (stat(path, &st) == 0)
			total += (uint64_t)st.st_size;
		argv[4 + i] = strdup(path);
	}
	printf("\n%d files of 4 MiB each (%.1f MiB in all)\n", n, (double)total / 1048576.0);
	/* -j 1 --threads 1: one file after another on one thread, against -j 2 */
	argv[0] = (char *)o->tracefsck;
	argv[1] = "check";
	struct bench_result seq, par;
	argv[2] = "--threads=1";
	argv[3] = "-j1";
	char out1[4096], out2[4096];
	snprintf(out1, sizeof(out1), "%s/many-j1.txt", o->dir);
	snprintf(out2, sizeof(out2), "%s/many-j2.txt", o->dir);
	bench_best_of(o->runs, argv, out1, &seq);
	argv[3] = "-j2";
	bench_best_of(o->runs, argv, out2, &par);
	row("tracefsck check -j 1 --threads 1 FILE...", &seq, total, 0);
	row("tracefsck check -j 2 FILE...", &par, total, 0);
	char cmp[8300];
	snprintf(cmp, sizeof(cmp), "cmp -s '%s' '%s'", out1, out2);
	printf("  output of -j 2 identical to -j 1, file order kept: %s\n", system(cmp) == 0 ? "yes" : "NO");
	verdict("speed-up of -j 2 over -j 1", seq.wall / par.wall, ">=", 1.5);
	for (int i = 0; i < n; i++)
		free(argv[4 + i]);
	free(argv);
}

static const char usage[] =
	"usage: tracefsck-bench [--tracefsck BIN] [--dir DIR] [--runs N] [--no-reader] [--many N]\n"
	"                       [--shapes real,fixture] [--kinds v6,v7-none,v7-zstd] [--sizes MIB,...]\n"
	"                       [--real-mib MIB] [--metadata auto|live|FILE] [--make-only]\n"
	"                       [--batch N] [--batch-mib MIB] [FILE...]\n"
	"       tracefsck-bench --save-metadata FILE [--kallsyms-every N]\n"
	"  --shapes     which traces to make: real (a real kernel's metadata, --real-mib of pages),\n"
	"               fixture (the fixture writer's few formats, --sizes), batch (--batch traces of\n"
	"               --batch-mib each from one kernel's metadata, -j 1 and -j 2, format memo off,\n"
	"               on, cache cold and warm); all three by default\n"
	"  --metadata   the real shape's: auto (this machine's tracefs, else the stored copy), live, or a\n"
	"               stored copy (default " BENCH_STORED_METADATA ")\n"
	"  --make-only  make the traces and print what each holds; time nothing\n"
	"  --save-metadata  write this machine's tracefs metadata as a stored copy (every N-th kallsyms line)\n";

/* A list of up to 8 numbers "A,B,..." into out; returns how many, -1 if it is not one. */
static int parse_sizes(const char *s, uint64_t *out)
{
	int n = 0;
	char *end;
	while (*s && n < 8) {
		out[n++] = strtoull(s, &end, 10);
		if (end == s)
			return -1;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static void defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tracefsck = "tracefsck";
	o->dir = "build/bench";
	o->sizes[0] = 1024;
	o->sizes[1] = 4096;
	o->nsizes = 2;
	for (int k = 0; k < BENCH_KINDS; k++)
		o->kinds[k] = true;
	o->runs = 3;
	o->reader = true;
	o->many = 100;
	o->shape_fixture = o->shape_real = o->shape_batch = true;
	o->batch = 100;
	o->batch_mib = 4;
	o->real_mib = 100;
	o->metadata = "auto";
	o->kallsyms_every = 1;
}

static int parse(int argc, char **argv, struct opts *o, int *first_file)
{
	defaults(o);
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--tracefsck") == 0 && v)
			o->tracefsck = argv[++i];
		else if (strcmp(a, "--dir") == 0 && v)
			o->dir = argv[++i];
		else if (strcmp(a, "--runs") == 0 && v)
			o->runs = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
		else if (strcmp(a, "--many") == 0 && v)
			o->many = atoi(argv[++i]);
		else if (strcmp(a, "--batch") == 0 && v)
			o->batch = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
		else if (strcmp(a, "--batch-mib") == 0 && v) {
			if ((o->batch_mib = strtoull(argv[++i], NULL, 10)) == 0)
				return -1;
		} else if (strcmp(a, "--no-reader") == 0)
			o->reader = false;
		else if (strcmp(a, "--make-only") == 0)
			o->make_only = true;
		else if (strcmp(a, "--sizes") == 0 && v) {
			if ((o->nsizes = parse_sizes(argv[++i], o->sizes)) < 0)
				return -1;
		} else if (strcmp(a, "--real-mib") == 0 && v) {
			if ((o->real_mib = strtoull(argv[++i], NULL, 10)) == 0)
				return -1;
		} else if (strcmp(a, "--kinds") == 0 && v) {
			const char *s = argv[++i];
			for (int k = 0; k < BENCH_KINDS; k++)
				o->kinds[k] = strstr(s, bench_kind_name((enum bench_kind)k)) != NULL;
		} else if (strcmp(a, "--shapes") == 0 && v) {
			const char *s = argv[++i];
			o->shape_real = strstr(s, "real") != NULL;
			o->shape_fixture = strstr(s, "fixture") != NULL;
			o->shape_batch = strstr(s, "batch") != NULL;
			if (!o->shape_real && !o->shape_fixture && !o->shape_batch)
				return -1;
		} else if (strcmp(a, "--metadata") == 0 && v)
			o->metadata = argv[++i];
		else if (strcmp(a, "--save-metadata") == 0 && v)
			o->save_metadata = argv[++i];
		else if (strcmp(a, "--kallsyms-every") == 0 && v) {
			if ((o->kallsyms_every = (unsigned)atoi(argv[++i])) == 0)
				return -1;
		} else if (a[0] == '-') {
			return -1;
		} else {
			break;
		}
	}
	*first_file = i;
	return 0;
}

/* The real shape's metadata: this machine's (live, or auto when tracefs can be read), else stored. */
static int real_metadata(const struct opts *o, struct kmeta *m)
{
	bool live = strcmp(o->metadata, "live") == 0, autom = strcmp(o->metadata, "auto") == 0;
	if ((live || autom) && kmeta_from_tracefs(m, 1) == 0)
		return 0;
	if (live) {
		fprintf(stderr, "tracefsck-bench: this machine's tracefs, formats or /proc/kallsyms cannot be read\n");
		return -1;
	}
	const char *stored = autom ? BENCH_STORED_METADATA : o->metadata;
	if (kmeta_load(m, stored) == 0)
		return 0;
	fprintf(stderr, "tracefsck-bench: cannot read the stored metadata %s\n", stored);
	return -1;
}

static int save_metadata(const struct opts *o)
{
	struct kmeta m;
	if (kmeta_from_tracefs(&m, o->kallsyms_every) != 0) {
		fprintf(stderr, "tracefsck-bench: this machine's tracefs, formats or /proc/kallsyms cannot be read\n");
		return 1;
	}
	int rc = kmeta_store(&m, o->save_metadata);
	printf("%s: %zu formats, %zu bytes of kallsyms, from %s%s\n", o->save_metadata, m.nformats, strlen(m.kallsyms),
	       m.origin, rc == 0 ? "" : ": NOT WRITTEN");
	kmeta_free(&m);
	return rc == 0 ? 0 : 1;
}

/*
 * Traces whose metadata is a real kernel's, timed as recorded ones: the fixed cost apart. All
 * are made before any is timed, and the metadata is freed first: a child's peak RSS counts the
 * pages of this process it was forked from.
 */
static int real_shapes(const struct opts *o)
{
	struct kmeta m;
	if (real_metadata(o, &m) != 0)
		return 1;
	printf("\nreal-shaped traces: metadata from %s\n", m.origin);
	char paths[BENCH_KINDS][4096];
	bool made_kind[BENCH_KINDS] = { false };
	int rc = 0;
	for (int k = 0; k < BENCH_KINDS && rc == 0; k++) {
		if (!o->kinds[k])
			continue;
		snprintf(paths[k], sizeof(paths[k]), "%s/real-%s-%lluM.dat", o->dir, bench_kind_name((enum bench_kind)k),
			 (unsigned long long)o->real_mib);
		struct bench_real_made made;
		if (bench_make_real((enum bench_kind)k, o->real_mib, &m, paths[k], &made) != 0) {
			fprintf(stderr, "cannot make %s\n", paths[k]);
			rc = 1;
			break;
		}
		made_kind[k] = true;
		printf("made %s: %llu events, %u formats (records of %u of them, %u of the common ones)\n", paths[k],
		       (unsigned long long)made.events, made.formats, made.mix_formats, made.mix_common);
	}
	kmeta_free(&m);
	malloc_trim(0);
	fflush(stdout);
	for (int k = 0; k < BENCH_KINDS && rc == 0 && !o->make_only; k++)
		if (made_kind[k])
			bench_file(o, paths[k], k == BENCH_V7_ZSTD, true);
	return rc;
}

/* The batch shape (bench_batch.h): made from the real shape's metadata, which is freed before
 * any is timed. */
static int batch_shape(const struct opts *o)
{
	struct bench_batch_opts b = { o->tracefsck, o->dir, o->batch, o->batch_mib, o->runs };
	struct kmeta m;
	if (real_metadata(o, &m) != 0)
		return 1;
	int rc = bench_batch_make(&b, &m);
	kmeta_free(&m);
	malloc_trim(0);
	fflush(stdout);
	if (rc == 0 && !o->make_only)
		rc = bench_batch_time(&b);
	for (int i = 0; i < o->batch && !o->make_only; i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/batch/%03d.dat", o->dir, i);
		unlink(path);
	}
	return rc == 0 ? 0 : 1;
}

/* Traces of the fixture writer's own few formats, at each size. */
static int fixture_shapes(const struct opts *o)
{
	for (int s = 0; s < o->nsizes; s++) {
		for (int k = 0; k < BENCH_KINDS; k++) {
			if (!o->kinds[k])
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/bench-%s-%lluM.dat", o->dir, bench_kind_name((enum bench_kind)k),
				 (unsigned long long)o->sizes[s]);
			if (bench_make((enum bench_kind)k, o->sizes[s], path) != 0) {
				fprintf(stderr, "cannot make %s\n", path);
				return 1;
			}
			if (o->make_only) {
				printf("made %s\n", path);
				continue;
			}
			bench_file(o, path, k == BENCH_V7_ZSTD, false);
			if (o->sizes[s] >= 4096) /* a 4 GiB file per kind is a lot of disk: keep one at a time */
				unlink(path);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	int first;
	if (parse(argc, argv, &o, &first) != 0) {
		fputs(usage, stderr);
		return 2;
	}
	if (o.save_metadata)
		return save_metadata(&o);
	mkdir(o.dir, 0755);
	if (!o.make_only)
		printf("tracefsck-bench: %s, best of %d runs, warm page cache, %ld CPUs online\n", o.tracefsck, o.runs,
		       sysconf(_SC_NPROCESSORS_ONLN));
	if (first < argc) {
		for (int i = first; i < argc; i++) {
			struct stat st;
			if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
				bench_dir(&o, argv[i]);
			else if (starts_with(argv[i], "PERFILE2"))
				bench_perf(&o, argv[i]);
			else
				bench_file(&o, argv[i], false, true);
		}
		return 0;
	}
	if (o.shape_real && real_shapes(&o) != 0)
		return 1;
	if (o.shape_fixture && fixture_shapes(&o) != 0)
		return 1;
	if (o.shape_batch && batch_shape(&o) != 0)
		return 1;
	if (o.many > 0 && !o.make_only)
		bench_many(&o);
	return 0;
}
