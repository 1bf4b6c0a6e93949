/* SPDX-License-Identifier: MIT */
/*
 * Reader hazards: what a fault does to the ordinary readers (trace-cmd, perf, uftrace,
 * babeltrace2) of a given version. Every hazard the catalog carries is backed by an oracle
 * test that reproduces the effect with the named reader.
 */
#ifndef TRACEFSCK_HAZARD_H
#define TRACEFSCK_HAZARD_H

#include <stdbool.h>
#include <stddef.h>

#include "tracefsck/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

enum tfk_hazard_effect {
	TFK_EFFECT_CRASH = 0,              /* the reader dies of a signal */
	TFK_EFFECT_HANG,                   /* the reader never returns */
	TFK_EFFECT_UNBOUNDED_ALLOCATION,   /* the reader allocates what the file claims */
	TFK_EFFECT_SILENT_LOSS,            /* the reader exits 0 and drops data */
	TFK_EFFECT_MISREAD,                /* the reader prints wrong data */
	TFK_EFFECT_REFUSES,                /* the reader refuses the whole file */
};

struct tfk_hazard {
	const char *reader;        /* the command, e.g. "trace-cmd report" */
	const char *min_version;   /* inclusive, as the reader's --version prints it */
	const char *max_version;   /* inclusive */
	enum tfk_hazard_effect effect;
	int signal;                /* crash: the signal number; 0 otherwise */
	const char *signal_name;   /* crash: "SIGSEGV"...; NULL otherwise */
	/* When only some instances of the fault trigger it: prose, and fnmatch(3) patterns the
	 * finding's path, expected and found texts must all match (NULL: any). */
	const char *condition;
	const char *path_glob;
	const char *expected_glob;
	const char *found_glob;
};

/* The hazards of one catalog entry (count 0 and NULL when it has none). */
const struct tfk_hazard *tfk_fault_hazards(const struct tfk_fault *fault, size_t *count);

/* Every hazard in the catalog, grouped by fault in catalog order. */
const struct tfk_hazard *tfk_hazard_catalog(size_t *count);

/* The catalog entry a hazard belongs to (NULL for a pointer that is not one of the catalog's). */
const struct tfk_fault *tfk_hazard_fault(const struct tfk_hazard *hazard);

/* Whether this finding is an instance that triggers the hazard (its condition holds). */
bool tfk_hazard_applies(const struct tfk_hazard *hazard, const struct tfk_finding *finding);

/* How many of the finding's fault's hazards apply to it. */
size_t tfk_finding_hazard_count(const struct tfk_finding *finding);

/* "crash", "hang", "unbounded-allocation", "silent-loss", "misread", "refuses". */
const char *tfk_hazard_effect_name(enum tfk_hazard_effect effect);

#ifdef __cplusplus
}
#endif
#endif
