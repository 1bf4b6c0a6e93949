/* SPDX-License-Identifier: MIT */
/* Checking many files on several threads, handing the reports back in file order. */
#ifndef TFK_CHECK_POOL_H
#define TFK_CHECK_POOL_H

#include "tracefsck/check.h"
#include "tracefsck/observer.h"
#include "tracefsck/units.h"

/*
 * Check one operand as every command does: "-" is standard input (a pipe, a file or a FIFO
 * given with <); any other name a file, a trace directory, a FIFO or a compressed trace.
 */
void check_pool_one(const char *file, const struct tfk_limits *limits, const struct tfk_observer *observer,
		    struct tfk_report *r);

/*
 * Called on the calling thread for file 0, 1, 2, ... in order, each as soon as it and every
 * file before it are checked; the callback owns the report (free it or keep it).
 */
typedef void (*check_pool_done)(void *user, int index, struct tfk_report *report);

/*
 * Check units[0..n) (units.h) with up to jobs threads (1: one after the other on this thread, with
 * observer, which may be NULL; more: without it). Returns 0, or -1 if threads could not start
 * (every file is then checked on this thread).
 */
int check_pool_run(struct tfk_unit *units, int n, int jobs, const struct tfk_limits *limits,
		   const struct tfk_observer *observer, check_pool_done done, void *user);

#endif
