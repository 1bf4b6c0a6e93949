/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as a legacy LTTng 0.x trace directory, so that the marker metadata
 * (control/facilities_N, metadata_N), the events measured from it and the directory repair
 * see fuzzed bytes. The input is the container of fuzz_uftrace.c: members {u8 name length,
 * name, u8 kind, u32 little-endian size, bytes} (a size past the input is cut to what is
 * left); a name beginning "control." is written as control/<rest>. Oracles: the report stays
 * within its limits, the verdict agrees with the counts, every finding names a catalog code
 * and a member that was written (or the directory), checking twice gives the same findings,
 * and the repair round trip: a damaged directory repairs (tfk_repair_dir) to an output that
 * re-checks clean, or is refused, never FAILED, and the output repairs to nothing again.
 * Seeds: corpus/lttng0-dir, written by `test_lttng0 --dir-corpus DIR` from the fixture writer.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_dir.h"

/* "control.<rest>" is written as control/<rest>. */
static void place(const char *name, char *rel)
{
	if (strncmp(name, "control.", 8) == 0 && name[8])
		snprintf(rel, FZ_DIR_NAME + 1, "control/%s", name + 8);
	else
		snprintf(rel, FZ_DIR_NAME + 1, "%s", name);
}

static const struct fz_dir_rules rules = { .tag = "lttng0", .subdir = "control", .fifos = true, .place = place };
static struct fz_dir dir = { .rules = &rules, .every = FZ_DIR_EVERY };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_dir_unpack(&dir, data, size);
	fz_dir_check(&dir, true);
	return 0;
}
