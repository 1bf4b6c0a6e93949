/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as a CTF 1.8 trace directory. The input is a small container of
 * members, each {u8 name length, name, u8 kind, u32 little-endian size, bytes} (a size past
 * the input is cut to what is left; a name ending in .idx goes into index/, as LTTng writes
 * it), written into a private temporary directory and checked as a directory, so that the
 * metadata packets, the TSDL parser, the packet and event walk and the index check all see
 * fuzzed bytes. Oracles (fuzz_dir.h): the report's limits and counts, findings that name
 * written members, the same findings twice (the repair round trip: see below).
 * Seeds: corpus/ctf, written by fuzz/scripts/ctf_seeds.py (a small trace and its mutants).
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_dir.h"

/* A name ending in .idx goes into index/, as LTTng writes it (skipped when too long for it). */
static void place(const char *name, char *rel)
{
	size_t n = strlen(name);
	if (n > 4 && strcmp(name + n - 4, ".idx") == 0) {
		if (n + 6 > FZ_DIR_NAME)
			rel[0] = 0;
		else
			snprintf(rel, FZ_DIR_NAME + 1, "index/%s", name);
	} else
		snprintf(rel, FZ_DIR_NAME + 1, "%s", name);
}

/* A missing index or metadata is named by the file that should be there. */
static bool names_absent(const struct tfk_finding *f)
{
	return strcmp(f->fault->id, "ctf.index.missing") == 0 || strcmp(f->fault->id, "ctf.metadata.missing") == 0;
}

static const struct fz_dir_rules rules = {
	.tag = "ctf", .subdir = "index", .subdir_always = true, .place = place, .names_absent = names_absent
};
static struct fz_dir dir = { .rules = &rules, .every = FZ_DIR_EVERY };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_dir_unpack(&dir, data, size);
	fz_dir_check(&dir, true);
	return 0;
}
