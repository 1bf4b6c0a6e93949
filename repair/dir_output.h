/* SPDX-License-Identifier: MIT */
/*
 * A repaired trace directory: its members are written into a temporary directory beside the
 * target (.tracefsck-PID.d, in the target's parent: one name per process, so that the CLI's
 * signal handler can remove it), every file and directory fsynced, and the whole renamed into
 * place at once. A reader sees the old directory or the new one, never a half-written one; a
 * failure leaves the target as it was. Nothing the run did not make is ever deleted: a target
 * that appears while the run goes on is left alone (the commit fails with EEXIST). Temporaries
 * of runs that died (SIGKILL) are swept from the parent when the next one begins.
 */
#ifndef TFK_REPAIR_DIR_OUTPUT_H
#define TFK_REPAIR_DIR_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"

struct rp_dir {
	char target[4096];
	char tmp[4096];             /* the temporary directory, "" when none */
	int fd;                     /* open on tmp, or -1 */
	bool replace;               /* the target is the input itself: the commit replaces it */
	bool existed;               /* the target was there (an empty directory, or the input) */
	uint64_t dev, ino;          /* which, when it was */
};

/* The temporary directory's path for target, into buf. 0, or -1 (ENAMETOOLONG). */
int rp_dir_scratch_name(const char *target, char *buf, size_t n);
/*
 * A new temporary directory beside target (replace: the target is the input, repaired in
 * place). Leftovers of dead runs in the target's parent are removed first. 0, or -1 with errno.
 */
int rp_dir_begin(struct rp_dir *d, const char *target, bool replace);
/*
 * Remove, from the directory dir, what tracefsck runs that have died left there: entries named
 * .tracefsck-PID.* (temporary files and directories) of this user whose PID is not running.
 */
void rp_sweep_leftovers(const char *dir);
/*
 * The member at name (relative: components joined by '/', none empty, "." or ".."; missing
 * directories are made) holding the output o. 0, or -1 with errno set (EINVAL: a bad name).
 */
int rp_dir_member(struct rp_dir *d, const char *name, const struct rp_out *o);
/*
 * fsync every file and directory of the temporary directory, then rename it to the target,
 * never over anything: an empty directory that was the target at the start is removed first
 * (rmdir: only while still empty), and a target that appeared meanwhile fails the commit
 * (EEXIST). In place, the input is exchanged with the new directory, then removed, once it is
 * known to be the same directory as at the start. The target's parent is fsynced. 0, or -1
 * with errno set (the temporary directory removed).
 */
int rp_dir_commit(struct rp_dir *d);
/* Remove the temporary directory and everything in it. */
void rp_dir_abort(struct rp_dir *d);

#endif
