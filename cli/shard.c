/* SPDX-License-Identifier: MIT */
/*
 * Shards of a fleet's inputs (check --shard I/N) and lists of inputs (check --files-from).
 * A unit's shard is a hash of its path, not its place in a listing: listings differ in order
 * between machines, and a file added to a folder would move every file after it to another
 * shard. With a hash, each file keeps its shard whatever else arrives, and a re-run of one
 * shard checks the same files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shard.h"

#define MAX_SHARDS 1000000u

static int parse_u32(const char *v, size_t len, uint32_t max, uint32_t *out)
{
	uint64_t n = 0;
	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		n = n * 10 + (uint64_t)(v[i] - '0');
	}
	if (n > max)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

int cli_shard_parse(const char *v, struct cli_shard *s)
{
	const char *slash = strchr(v, '/');
	const char *count = slash ? slash + 1 : v;
	const char *index = slash ? v : getenv("JOB_COMPLETION_INDEX");
	size_t index_len = slash ? (size_t)(slash - v) : index ? strlen(index) : 0;
	if (parse_u32(count, strlen(count), MAX_SHARDS, &s->count) != 0 || s->count == 0) {
		fprintf(stderr, "tracefsck check: --shard takes I/N (shard I of N, 0 <= I < N <= %u), or N with "
				"JOB_COMPLETION_INDEX set, not '%s'\n", MAX_SHARDS, v);
		return -1;
	}
	if (!index) {
		fprintf(stderr, "tracefsck check: --shard %s names no index, and JOB_COMPLETION_INDEX is not set\n", v);
		return -1;
	}
	if (parse_u32(index, index_len, MAX_SHARDS, &s->index) != 0 || s->index >= s->count) {
		fprintf(stderr, "tracefsck check: shard index '%.*s'%s is not from 0 to %u\n", (int)index_len, index,
			slash ? "" : " (JOB_COMPLETION_INDEX)", s->count - 1);
		return -1;
	}
	return 0;
}

uint32_t cli_shard_of(const char *path, uint32_t count)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */
	const char *p = path;
	while (p[0] == '.' && p[1] == '/') /* "./a" is "a" */
		for (p += 2; *p == '/'; p++)
			;
	for (; *p; p++) {
		if (*p == '/' && (p[1] == '/' || p[1] == '\0'))
			continue; /* "a//b" is "a/b", "a/" is "a" (a lone "/" hashes as "") */
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ull;
	}
	return count ? (uint32_t)(h % count) : 0;
}

bool cli_shard_operand_mine(const struct cli_shard *s, const char *operand, bool *split)
{
	struct stat st;
	*split = false;
	if (s->count == 0)
		return true;
	if (strcmp(operand, "-") != 0 && stat(operand, &st) == 0 && S_ISDIR(st.st_mode)) {
		*split = true;
		return true;
	}
	return cli_shard_of(operand, s->count) == s->index;
}

/* The path of a unit below the folder operand, or NULL when the unit is not below it. */
static const char *below(const char *operand, const char *name)
{
	size_t n = strlen(operand);
	while (n > 1 && operand[n - 1] == '/')
		n--;
	if (strncmp(name, operand, n) != 0 || name[n] != '/')
		return NULL;
	name += n;
	while (*name == '/')
		name++;
	return *name ? name : NULL;
}

int cli_shard_mark(const struct cli_shard *s, const char *operand, bool split, const struct tfk_units *units,
		   size_t from, unsigned char **keep)
{
	if (s->count == 0 || units->n == 0)
		return 0;
	unsigned char *k = realloc(*keep, units->n);
	if (!k)
		return -1;
	*keep = k;
	for (size_t i = from; i < units->n; i++) {
		const char *rel = split ? below(operand, units->v[i].name) : NULL;
		k[i] = !split || cli_shard_of(rel ? rel : units->v[i].name, s->count) == s->index;
	}
	return 0;
}

size_t cli_shard_partition(struct tfk_units *units, const unsigned char *keep)
{
	if (!keep)
		return units->n;
	struct tfk_unit *sorted = malloc(units->n * sizeof(*sorted));
	size_t kept = 0;
	for (size_t i = 0; i < units->n; i++)
		kept += keep[i] != 0;
	if (!sorted) { /* no room to keep the order of the rest: swap in place (kept ones stay in order) */
		size_t j = 0;
		for (size_t i = 0; i < units->n; i++)
			if (keep[i]) {
				struct tfk_unit t = units->v[j];
				units->v[j++] = units->v[i];
				units->v[i] = t;
			}
		return kept;
	}
	size_t a = 0, b = kept;
	for (size_t i = 0; i < units->n; i++)
		sorted[keep[i] ? a++ : b++] = units->v[i];
	memcpy(units->v, sorted, units->n * sizeof(*sorted));
	free(sorted);
	return kept;
}

int cli_files_read(const char *file, struct cli_files *list)
{
	FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (!f) {
		fprintf(stderr, "tracefsck check: --files-from %s: %s\n", file, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (list->n == list->cap) {
			size_t ncap = list->cap ? list->cap * 2 : 64;
			char **v = realloc(list->v, ncap * sizeof(*v));
			if (!v) {
				rc = -1;
				break;
			}
			list->v = v, list->cap = ncap;
		}
		if (!(list->v[list->n] = strdup(line))) {
			rc = -1;
			break;
		}
		list->n++;
	}
	if (rc == 0 && ferror(f))
		rc = -1;
	if (rc != 0)
		fprintf(stderr, "tracefsck check: --files-from %s: %s\n", file, errno ? strerror(errno) : "read error");
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

void cli_files_free(struct cli_files *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->v[i]);
	free(list->v);
	list->v = NULL;
	list->n = list->cap = 0;
}
