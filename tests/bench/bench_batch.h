/* SPDX-License-Identifier: MIT */
/*
 * The batch shape: what a CI gate checks, many uploads from one kernel. N real-shaped traces
 * with the same metadata and different records, checked as one run with -j 1 and -j 2, without
 * the format memo (every file parses its kernel's formats), with it, and with its cache cold
 * and warm; the configurations are run in turns (paired), each figure with the load average
 * the machine had while it ran.
 */
#ifndef BENCH_BATCH_H
#define BENCH_BATCH_H

#include <stdint.h>

#include "bench_kmeta.h"

struct bench_batch_opts {
	const char *tracefsck, *dir;
	int files;        /* traces in the batch */
	uint64_t mib;     /* MiB of ring pages each */
	int runs;         /* rounds; each configuration's best is shown */
};

/* Make the batch from m (freed by the caller before; the traces are kept in dir) and time it. */
int bench_batch_make(const struct bench_batch_opts *o, const struct kmeta *m);
int bench_batch_time(const struct bench_batch_opts *o);

#endif
