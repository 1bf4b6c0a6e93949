/* SPDX-License-Identifier: MIT */
/*
 * check --format-cache DIR: the format memo's cache between runs (tracefsck/format_memo.h),
 * opened only where no trace of the run can have put it: a directory among the traces (an
 * upload's folder, a checked-out tree holding the traces) could come with entries made to hide
 * what libtraceevent says of its formats, so a cache at or beneath any operand's directory is
 * refused, before anything is created there.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tracefsck/format_memo.h"

/* path resolved, or (when it does not exist yet) its parent resolved and its last name added. */
static bool resolve(const char *path, char out[PATH_MAX])
{
	if (realpath(path, out))
		return true;
	if (errno != ENOENT)
		return false;
	char copy[PATH_MAX];
	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return false;
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	char *slash = strrchr(copy, '/');
	const char *base = slash ? slash + 1 : copy;
	char parent[PATH_MAX];
	if (slash == copy)
		snprintf(parent, sizeof(parent), "/");
	else if (slash) {
		*slash = '\0';
		snprintf(parent, sizeof(parent), "%s", copy);
	} else
		snprintf(parent, sizeof(parent), ".");
	char real[PATH_MAX];
	if (!realpath(parent, real) || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return false;
	return snprintf(out, PATH_MAX, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base) < PATH_MAX;
}

/* inner is outer or lies beneath it (both resolved). */
static bool within(const char *inner, const char *outer)
{
	size_t n = strlen(outer);
	if (strcmp(outer, "/") == 0)
		return true;
	return strncmp(inner, outer, n) == 0 && (inner[n] == '\0' || inner[n] == '/');
}

/* The directory an operand's traces are read from: itself when a directory, else its parent. */
static bool trace_dir(const char *op, char out[PATH_MAX])
{
	struct stat st;
	char real[PATH_MAX];
	if (!realpath(op, real))
		return false;
	if (stat(real, &st) == 0 && S_ISDIR(st.st_mode)) {
		memcpy(out, real, PATH_MAX);
		return true;
	}
	char *slash = strrchr(real, '/');
	if (!slash)
		return false;
	if (slash == real)
		slash[1] = '\0';
	else
		*slash = '\0';
	memcpy(out, real, PATH_MAX);
	return true;
}

int cli_format_cache_open(struct tfk_format_memo *memo, const char *dir, const char *const *ops, size_t nops)
{
	char cache[PATH_MAX];
	if (!resolve(dir, cache)) {
		fprintf(stderr, "tracefsck check: --format-cache %s: refused: the path cannot be resolved\n", dir);
		return -1;
	}
	for (size_t i = 0; i < nops; i++) {
		char tdir[PATH_MAX];
		if (strcmp(ops[i], "-") == 0 || !trace_dir(ops[i], tdir))
			continue; /* standard input, or an operand the check will report as unreadable */
		if (within(cache, tdir)) {
			fprintf(stderr, "tracefsck check: --format-cache %s: refused: it lies in %s, where the trace %s is "
				"read from (keep the cache outside the traces' directories)\n", dir, tdir, ops[i]);
			return -1;
		}
	}
	char why[256];
	if (tfk_format_memo_open_cache(memo, dir, why, sizeof(why)) != 0) {
		fprintf(stderr, "tracefsck check: --format-cache %s: refused: %s\n", dir, why);
		return -1;
	}
	const char *name, *what;
	for (size_t i = 0; tfk_format_memo_ignored(memo, i, &name, &what) == 0; i++)
		fprintf(stderr, "tracefsck check: --format-cache %s: entry %s ignored: %s\n", dir, name, what);
	return 0;
}

void cli_format_cache_save(struct tfk_format_memo *memo, const char *dir)
{
	char why[256];
	if (tfk_format_memo_save(memo, why, sizeof(why)) != 0)
		fprintf(stderr, "tracefsck check: --format-cache %s: not updated: %s\n", dir, why);
}
