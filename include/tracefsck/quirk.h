/* SPDX-License-Identifier: MIT */
/*
 * The writer-quirk table: behaviours of named writer versions (trace-cmd, perf, uftrace,
 * LTTng, babeltrace2...) that break the format's letter but are known, bounded and explained.
 * A file showing one is not randomly corrupt: its finding names the writer version, the
 * release that fixed it and what it does to readers. Each quirk is a catalog entry of its own
 * (a code, so policy and SARIF treat it like any other) plus this row.
 */
#ifndef TRACEFSCK_QUIRK_H
#define TRACEFSCK_QUIRK_H

#include <stddef.h>

#include "tracefsck/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tfk_quirk {
	const char *writer;     /* the writing program or library, e.g. "trace-cmd" */
	const char *first_bad;  /* first version that writes it, inclusive */
	const char *last_bad;   /* last version that writes it, inclusive */
	const char *fixed_in;   /* the release that stopped writing it ("" when no fixing release is known) */
	const char *effect;     /* what it does to the ordinary readers */
	const char *repair;     /* what `tracefsck repair` does about it */
};

/* The quirk row of one catalog entry; NULL when the entry is not a writer quirk. */
const struct tfk_quirk *tfk_fault_quirk(const struct tfk_fault *fault);

/* Every quirk in the table, in catalog order of their codes. */
const struct tfk_quirk *tfk_quirk_catalog(size_t *count);

/* The catalog entry a quirk row belongs to (NULL for a pointer that is not one of the table's). */
const struct tfk_fault *tfk_quirk_fault(const struct tfk_quirk *quirk);

#ifdef __cplusplus
}
#endif
#endif
