/* SPDX-License-Identifier: MIT */
/*
 * Trace units: what a check is given, however it comes. An operand that is a trace file or a
 * trace directory is one unit. A folder that is not itself a trace (an upload's attachments, a
 * CI artifact directory) is searched, bounded and without following a link, for the units in
 * it; an archive (.tar, .tar.gz, .tar.xz, .tar.zst, .tar.bz2, .zip, a single .bz2 file) is
 * unpacked into a private temporary directory and searched the same way. Each unit is checked
 * and reported on its own; a file inside a trace directory belongs to that directory's unit.
 */
#ifndef TRACEFSCK_UNITS_H
#define TRACEFSCK_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "tracefsck/check.h"
#include "tracefsck/limits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds of a folder's search (each one reached is a core.limit.reached finding on the folder). */
#define TFK_UNITS_MAX_DEPTH 32      /* folders below the one given (a trace's own depth not counted) */
#define TFK_UNITS_MAX_ENTRIES 200000 /* entries examined in one operand, archives' members included */
#define TFK_UNITS_MAX_ARCHIVE_NESTING 2 /* an archive in an archive in the operand, no deeper */
#define TFK_UNITS_DEADLINE_MS 60000 /* spent searching one operand (unpacking included) */
#define TFK_ARCHIVE_MAX_RATIO 1000  /* unpacked bytes per packed byte, once past 64 MiB */

enum tfk_unit_kind {
	TFK_UNIT_TRACE = 0,  /* a file, pipe, FIFO or trace directory: checked */
	TFK_UNIT_NOT_A_TRACE, /* found in a folder, and neither a trace file nor a trace directory */
	TFK_UNIT_CONTAINER,  /* a folder's or an archive's own findings: limits, skipped members, contents */
};

struct tfk_unit {
	enum tfk_unit_kind kind;
	char *name;           /* how reports name it: the operand, or FOLDER/MEMBER, ARCHIVE/MEMBER */
	char *path;           /* what is opened ("-": standard input); NULL for a container */
	bool in_folder;       /* found by a search: a file no format recognises is a note, not an error */
	const char *what;     /* NOT_A_TRACE: what it is ("a symbolic link (not followed)", ...) */
	struct tfk_report *report; /* CONTAINER: its findings, made by the search (owned) */
};

struct tfk_units {
	struct tfk_unit *v;
	size_t n, cap;
	/* The private temporary directory archives are unpacked beneath ("" until the first). */
	char scratch[4096];
};

void tfk_units_init(struct tfk_units *units);

/*
 * Append the units of one operand, in a stable order (members sorted by name). Returns 0, or -1
 * when memory ran out (units found so far stay). Never follows a symbolic link inside a
 * folder; never reads a FIFO or a device it finds there.
 */
int tfk_units_add(struct tfk_units *units, const char *operand, const struct tfk_limits *limits);

/*
 * tfk_units_add for a path that may be a member of a trace directory (a file a pre-commit hook
 * or a glob names): a regular file inside a directory a format claims whole, among path's own
 * leading components, stands for that directory, added once however many of its members are
 * given. Another regular file is a unit found among others: one no format recognises is a
 * note (core.input.not-a-trace), not an error. Anything else is added as tfk_units_add adds it.
 */
int tfk_units_add_member(struct tfk_units *units, const char *path, const struct tfk_limits *limits);

/* Check one unit into report (a container's report is handed over, and its unit keeps none). */
void tfk_check_unit(struct tfk_unit *unit, const struct tfk_limits *limits, const struct tfk_observer *observer,
		    struct tfk_report *report);

/* Free the list and remove the temporary directory with all it holds. */
void tfk_units_free(struct tfk_units *units);

/*
 * Remove a directory tree without following links, using only async-signal-safe calls, so that
 * a signal handler may remove the scratch directory of an interrupted run. Returns 0 or -1.
 */
int tfk_scratch_remove(const char *path);

#ifdef __cplusplus
}
#endif
#endif
