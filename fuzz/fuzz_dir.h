/* SPDX-License-Identifier: MIT */
/*
 * Fuzz input as a trace directory, for the harnesses of directory formats (uftrace, CTF,
 * legacy LTTng). The input is a small container of members, each {u8 name length, name,
 * u8 kind, u32 little-endian size, bytes}: a size past the input is cut to what is left, a
 * name's characters outside [A-Za-z0-9._-] become '_', kind 1 is a FIFO where the format
 * allows one. The members are written into one private temporary directory (emptied before
 * each input, removed at exit); a format's place() may put a member into one subdirectory
 * (CTF's index/, LTTng's control/).
 */
#ifndef TFK_FUZZ_DIR_H
#define TFK_FUZZ_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_assert.h"

#include "tracefsck/tracefsck.h"

#define FZ_DIR_MEMBERS 64
#define FZ_DIR_NAME 64 /* a member's path in the directory, subdirectory included */

struct fz_dir_rules {
	const char *tag;    /* in the temporary directory's name */
	const char *subdir; /* the one subdirectory members may go into, or NULL */
	bool subdir_always; /* made for every input, holding members or not (else only when it does) */
	bool fifos;         /* kind 1 makes a FIFO */
	/* The member's path for a (sanitised) name: copied to rel (FZ_DIR_NAME + 1 bytes) as is,
	 * or into subdir ("subdir/..."). NULL: the name as it is. */
	void (*place)(const char *name, char *rel);
	/* A finding may name a member that was not written (CTF: the index that should be there). */
	bool (*names_absent)(const struct tfk_finding *f);
};

struct fz_dir {
	const struct fz_dir_rules *rules;
	char path[512];
	char names[FZ_DIR_MEMBERS][FZ_DIR_NAME + 1];
	size_t n;
	uint64_t hash;  /* fuzz_input_hash of the input: which inputs also pay for the costly oracles */
	bool every;     /* every oracle on every input (replays of the corpus: FZ_DIR_EVERY) */
};

#define FZ_DIR_EVERY (FUZZ_EVERY != 0) /* fuzz_assert.h */

/* Empty the directory (made at the first call) and write the input's members into it. */
void fz_dir_unpack(struct fz_dir *d, const uint8_t *data, size_t size);
/* Was member written? */
bool fz_dir_known(const struct fz_dir *d, const char *member);
/*
 * The oracles every directory harness shares: the report stays within its limits, the verdict
 * agrees with the counts, every finding names a catalog code and a member that was written (or
 * the directory), checking twice gives the same findings (an eighth of the inputs); with
 * repair (another eighth), a damaged directory repairs (tfk_repair_dir) to an output that
 * re-checks clean or is refused, never FAILED, and the output repairs to nothing the second
 * time. With d->every, both on every input.
 */
void fz_dir_check(struct fz_dir *d, bool repair);

#endif
