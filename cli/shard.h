/* SPDX-License-Identifier: MIT */
/*
 * check --shard I/N and --files-from FILE: one job's share of a fleet's inputs. N jobs given the
 * same inputs and shards 0..N-1 check disjoint sets of units whose union is every unit; each
 * unit's shard depends on its own path only, so it keeps its shard when others are added.
 */
#ifndef TFK_CLI_SHARD_H
#define TFK_CLI_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefsck/units.h"

struct cli_shard {
	uint32_t index, count; /* count 0: no sharding */
};

/* "I/N" (0 <= I < N <= 1000000), or "N" with I from $JOB_COMPLETION_INDEX (a Kubernetes
 * Indexed Job's). -1, said on stderr, when it is not one. */
int cli_shard_parse(const char *v, struct cli_shard *s);

/* The shard of a path: FNV-1a (64 bits) of its normalized form ("./" and repeated or trailing
 * slashes dropped) modulo count. */
uint32_t cli_shard_of(const char *path, uint32_t count);

/* Should operand be listed at all? A folder always is (*split: its units are split by member);
 * a file, an archive or a pipe belongs to one shard whole, by its own path (so the other shards
 * never open or unpack it). */
bool cli_shard_operand_mine(const struct cli_shard *s, const char *operand, bool *split);

/* Mark in *keep (grown to units->n) which of the units [from, units->n) that operand added are
 * this shard's: all of them when the operand was taken whole (split false); otherwise (a folder)
 * each by its path below the folder, or by the operand's own when it is the folder's unit.
 * -1 when memory ran out. */
int cli_shard_mark(const struct cli_shard *s, const char *operand, bool split, const struct tfk_units *units,
		   size_t from, unsigned char **keep);

/* Move the kept units to the front, in their order (the others stay, after them, to be freed
 * with the list); returns how many were kept. */
size_t cli_shard_partition(struct tfk_units *units, const unsigned char *keep);

/* The lines of FILE ("-": standard input), one path each (empty lines skipped), appended to
 * list (which owns them until cli_files_free). -1, said on stderr, when it cannot be read. */
struct cli_files {
	char **v;
	size_t n, cap;
};
int cli_files_read(const char *file, struct cli_files *list);
void cli_files_free(struct cli_files *list);

#endif
