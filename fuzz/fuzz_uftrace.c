/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as a uftrace data directory. The input is a small container of
 * members, each {u8 name length, name, u8 kind, u32 little-endian size, bytes} (kind 1: a
 * FIFO, like the .channel a killed recording leaves; a size past the input is cut to what is
 * left), written into a private temporary directory and checked as a directory, so that
 * every member parser (info, task.txt, maps, symbols, debug info, task records, perf-cpu
 * records) sees fuzzed bytes. Oracles: the report stays within its limits, the verdict agrees
 * with the counts, every finding names a catalog code and a member that was written (or the
 * directory), checking twice gives the same findings, and the repair round trip: a damaged
 * directory repairs (tfk_repair_dir) to an output that re-checks clean, or is refused, never
 * FAILED, and the output repairs to nothing the second time.
 * Seeds: corpus/uftrace, made from the recorded sample by fuzz/scripts/uftrace_seeds.py.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_dir.h"
#include "tracefsck/scrub.h"

static const struct fz_dir_rules rules = { .tag = "uftrace", .fifos = true };
static struct fz_dir dir = { .rules = &rules, .every = FZ_DIR_EVERY };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Remove a flat directory a scrub wrote (uftrace data has no subdirectories). */
static void remove_flat(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(path);
}

/*
 * Scrub the directory (an eighth of the inputs, every one of a replay): never FAILED but for an
 * internal error of the check; what it writes checks clean, as the input did.
 */
static void scrub_round_trip(void)
{
	char out[600];
	snprintf(out, sizeof(out), "%s-scrubbed", dir.path);
	remove_flat(out);
	struct tfk_scrub_options opts;
	memset(&opts, 0, sizeof(opts));
	opts.kinds = TFK_SCRUB_PUBLIC;
	memcpy(opts.key, "fuzzing key 0123", TFK_SCRUB_KEY_BYTES);
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_scrub_report rep;
	int err = 0;
	tfk_scrub_dir(dir.path, out, &opts, &lim, &rep, &err);
	FUZZ_ASSERT(rep.outcome != TFK_SCRUB_FAILED || rep.before.internal_error || err != 0);
	if (rep.outcome == TFK_SCRUB_DONE) {
		FUZZ_ASSERT(tfk_report_verdict(&rep.before) == TFK_VERDICT_CLEAN);
		struct tfk_report again;
		tfk_check_file(out, &lim, &again);
		FUZZ_ASSERT(tfk_report_verdict(&again) == TFK_VERDICT_CLEAN);
		tfk_report_free(&again);
	}
	tfk_scrub_report_free(&rep);
	remove_flat(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_dir_unpack(&dir, data, size);
	fz_dir_check(&dir, true);
	if (dir.every || fuzz_sampled(dir.hash, 3, 8))
		scrub_round_trip();
	return 0;
}
