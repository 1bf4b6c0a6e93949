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
#include <stdio.h>
#include <string.h>

#include "fuzz_dir.h"

static const struct fz_dir_rules rules = { .tag = "uftrace", .fifos = true };
static struct fz_dir dir = { .rules = &rules, .every = FZ_DIR_EVERY };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_dir_unpack(&dir, data, size);
	fz_dir_check(&dir, true);
	return 0;
}
