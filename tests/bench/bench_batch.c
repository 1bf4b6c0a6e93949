/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_batch.h"
#include "bench_real.h"
#include "bench_run.h"

static void batch_path(const struct bench_batch_opts *o, int i, char *out, size_t n)
{
	/* a folder of their own: the cache is refused in a trace's directory */
	snprintf(out, n, "%s/batch/%03d.dat", o->dir, i);
}

int bench_batch_make(const struct bench_batch_opts *o, const struct kmeta *m)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/batch", o->dir);
	mkdir(dir, 0755);
	fprintf(stderr, "making %d real-shaped v6 traces of %llu MiB (one kernel's metadata, different records)...\n",
		o->files, (unsigned long long)o->mib);
	for (int i = 0; i < o->files; i++) {
		char path[4096];
		struct bench_real_made made;
		batch_path(o, i, path, sizeof(path));
		if (bench_make_real_seeded(BENCH_V6, o->mib, m, path, 0x5eed + 7919u * (uint64_t)(i + 1), &made) != 0) {
			fprintf(stderr, "cannot make %s\n", path);
			return -1;
		}
	}
	return 0;
}

static double load1(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = -1;
	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

enum { NO_MEMO_J1, NO_MEMO_J2, MEMO_J1, MEMO_J2, COLD_J2, WARM_J1, WARM_J2, CONFIGS };

static const char *const names[CONFIGS] = {
	"-j 1 --no-format-memo (every file parses)",
	"-j 2 --no-format-memo (every file parses)",
	"-j 1 (memo within the run)",
	"-j 2 (memo within the run)",
	"-j 2 --format-cache, cold (empty cache)",
	"-j 1 --format-cache, warm",
	"-j 2 --format-cache, warm",
};

struct figure {
	struct bench_result best;
	double load_min, load_max;
};

static void rm_cache(const char *cache)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", cache);
}

int bench_batch_time(const struct bench_batch_opts *o)
{
	const int n = o->files;
	char **argv = calloc((size_t)n + 8, sizeof(*argv)), **files = calloc((size_t)n + 1, sizeof(*files));
	char cache[4096], outs[CONFIGS][4096];
	snprintf(cache, sizeof(cache), "%s/batch-format-cache", o->dir);
	if (!argv || !files)
		return -1;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		batch_path(o, i, path, sizeof(path));
		if (stat(path, &st) != 0) {
			fprintf(stderr, "no %s: make the batch first\n", path);
			return -1;
		}
		total += (uint64_t)st.st_size;
		files[i] = strdup(path);
	}
	printf("\nbatch: %d real-shaped traces from one kernel's metadata, %.1f MiB in all; %d paired rounds\n", n,
	       (double)total / 1048576.0, o->runs);
	struct figure fig[CONFIGS];
	for (int c = 0; c < CONFIGS; c++) {
		fig[c].best.wall = 1e30;
		fig[c].best.max_rss_kib = 0;
		fig[c].best.status = 0;
		fig[c].load_min = 1e9;
		fig[c].load_max = 0;
		snprintf(outs[c], sizeof(outs[c]), "%s/batch-out-%d.jsonl", o->dir, c);
	}
	/* every round runs each configuration once, in turn, so that the machine's other load falls
	 * on all of them alike; a warm-up round first fills the page cache */
	for (int round = -1; round < o->runs; round++) {
		for (int c = 0; c < CONFIGS; c++) {
			/* tracefsck check --json -jN [--no-format-memo | --format-cache DIR] FILE... */
			int k = 0;
			argv[k++] = (char *)o->tracefsck;
			argv[k++] = "check";
			argv[k++] = "--json";
			argv[k++] = c == NO_MEMO_J1 || c == MEMO_J1 || c == WARM_J1 ? "-j1" : "-j2";
			if (c <= NO_MEMO_J2)
				argv[k++] = "--no-format-memo";
			if (c >= COLD_J2) {
				argv[k++] = "--format-cache";
				argv[k++] = cache;
			}
			for (int i = 0; i < n; i++)
				argv[k++] = files[i];
			argv[k] = NULL;
			if (c == COLD_J2)
				rm_cache(cache);
			double l0 = load1();
			struct bench_result r;
			int rc = bench_run(argv, outs[c], &r);
			double l1 = load1();
			if (rc != 0)
				return -1;
			if (round < 0)
				continue; /* the warm-up */
			struct figure *f = &fig[c];
			if (r.wall < f->best.wall)
				f->best.wall = r.wall;
			if (round == 0 || r.cpu < f->best.cpu)
				f->best.cpu = r.cpu;
			if (r.max_rss_kib > f->best.max_rss_kib)
				f->best.max_rss_kib = r.max_rss_kib;
			if (r.status)
				f->best.status = r.status;
			for (int j = 0; j < 2; j++) {
				double l = j ? l1 : l0;
				if (l >= 0 && l < f->load_min)
					f->load_min = l;
				if (l > f->load_max)
					f->load_max = l;
			}
		}
	}
	for (int c = 0; c < CONFIGS; c++)
		printf("  tracefsck check %-42s %8.3f s %7.1f files/s %8.3f s CPU %6.1f MiB peak RSS  load %.2f-%.2f%s\n",
		       names[c], fig[c].best.wall, n / fig[c].best.wall, fig[c].best.cpu, fig[c].best.max_rss_kib / 1024.0,
		       fig[c].load_min,
		       fig[c].load_max, fig[c].best.status & ~4 ? "  (exit not 0)" : "");
	bool same = true;
	for (int c = 1; c < CONFIGS; c++) {
		char cmp[8300];
		snprintf(cmp, sizeof(cmp), "cmp -s '%s' '%s'", outs[0], outs[c]);
		if (system(cmp) != 0) {
			printf("  output of %s differs from %s\n", names[c], names[0]);
			same = false;
		}
	}
	printf("  JSON Lines identical in every configuration: %s\n", same ? "yes" : "NO");
	printf("  ratios:\n");
	const double before = fig[NO_MEMO_J2].best.wall;
	printf("  %-52s %8.2f\n", "-j 2 / -j 1, no memo (before)", fig[NO_MEMO_J1].best.wall / before);
	printf("  %-52s %8.2f   target >= 10: %s\n", "-j 2 without memo / -j 2 with memo (first run)",
	       before / fig[MEMO_J2].best.wall, before / fig[MEMO_J2].best.wall >= 10 ? "met" : "MISSED");
	printf("  %-52s %8.2f   target >= 10: %s\n", "-j 2 without memo / -j 2 warm cache",
	       before / fig[WARM_J2].best.wall, before / fig[WARM_J2].best.wall >= 10 ? "met" : "MISSED");
	printf("  %-52s %8.2f   target >= 1.6: %s\n", "-j 1 / -j 2, memo", fig[MEMO_J1].best.wall / fig[MEMO_J2].best.wall,
	       fig[MEMO_J1].best.wall / fig[MEMO_J2].best.wall >= 1.6 ? "met" : "MISSED");
	printf("  %-52s %8.2f   target >= 1.6: %s\n", "-j 1 / -j 2, warm cache",
	       fig[WARM_J1].best.wall / fig[WARM_J2].best.wall,
	       fig[WARM_J1].best.wall / fig[WARM_J2].best.wall >= 1.6 ? "met" : "MISSED");
	printf("  %-52s %8.2f\n", "cold cache / memo only, -j 2", fig[COLD_J2].best.wall / fig[MEMO_J2].best.wall);
	printf("  %-52s %8.2f\n", "CPU seconds: no memo / memo, -j 2", fig[NO_MEMO_J2].best.cpu / fig[MEMO_J2].best.cpu);
	printf("  %-52s %8.2f\n", "CPU seconds: no memo / warm cache, -j 2", fig[NO_MEMO_J2].best.cpu / fig[WARM_J2].best.cpu);
	rm_cache(cache);
	for (int i = 0; i < n; i++)
		free(files[i]);
	free(files);
	free(argv);
	return 0;
}
