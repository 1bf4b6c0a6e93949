/* SPDX-License-Identifier: MIT */
/*
 * A repaired trace directory: its members are written into a temporary directory beside the
 * target (.tracefsck-XXXXXX, in the target's parent), every file and directory fsynced, and
 * the whole renamed into place at once. A reader sees the old directory or the new one, never
 * a half-written one; a failure leaves the target as it was.
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
};

/* A new temporary directory beside target. 0, or -1 with errno set. */
int rp_dir_begin(struct rp_dir *d, const char *target);
/*
 * The member at name (relative: components joined by '/', none empty, "." or ".."; missing
 * directories are made) holding the output o. 0, or -1 with errno set (EINVAL: a bad name).
 */
int rp_dir_member(struct rp_dir *d, const char *name, const struct rp_out *o);
/*
 * fsync every file and directory of the temporary directory, then rename it to the target:
 * a target that is an existing directory is exchanged with it and then removed. The
 * target's parent is fsynced. 0, or -1 with errno set (the temporary directory removed).
 */
int rp_dir_commit(struct rp_dir *d);
/* Remove the temporary directory and everything in it. */
void rp_dir_abort(struct rp_dir *d);

#endif
