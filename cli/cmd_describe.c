/* SPDX-License-Identifier: MIT */
/*
 * tracefsck describe: the structural map of each file - header, sections, metadata, options,
 * buffers, CPU ranges with page and event counts - continuing past faults, each fault shown
 * under the structure it lies in. Operands are read as check reads them: files, trace
 * directories, standard input, FIFOs, traces compressed whole.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "check_pool.h"
#include "cli.h"
#include "tracefsck/tracefsck.h"

struct items {
	struct tfk_item *v;
	size_t n, cap;
	bool oom;
};

static void on_item(void *user, const struct tfk_item *it)
{
	struct items *s = user;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct tfk_item *p = realloc(s->v, cap * sizeof(*p));
		if (!p) {
			s->oom = true;
			return;
		}
		s->v = p;
		s->cap = cap;
	}
	s->v[s->n++] = *it;
}

/* The map of one operand; its exit status. */
static int describe_one(const char *path, bool json)
{
	struct items items = { 0 };
	struct tfk_observer obs = { .user = &items, .item = on_item };
	struct tfk_report r;
	struct tfk_limits lim = tfk_limits_default();
	check_pool_one(path, &lim, &obs, &r);
	enum tfk_verdict v = tfk_report_verdict(&r);
	int rc = tfk_sink_map(&r, items.v, items.n, path, json, cli_write_stdout, NULL);
	int status = v == TFK_VERDICT_CLEAN ? EXIT_CLEAN : v == TFK_VERDICT_CORRUPT ? EXIT_FAULTS : EXIT_OPERATIONAL;
	if (items.oom || rc != 0)
		status |= EXIT_OPERATIONAL;
	free(items.v);
	tfk_report_free(&r);
	return status;
}

int cmd_describe(int argc, char **argv)
{
	bool json = false, operands = false;
	int first = argc;
	for (int i = 1; i < argc; i++) {
		if (!operands && strcmp(argv[i], "--json") == 0) {
			json = true;
		} else if (!operands && strcmp(argv[i], "--") == 0) {
			operands = true;
		} else if (operands || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
			if (first == argc)
				first = i;
		} else {
			usage();
			return EXIT_USAGE;
		}
	}
	if (first == argc) {
		usage();
		return EXIT_USAGE;
	}
	/* Every operand, in order, each map naming its file; statuses ORed as check does. */
	int status = 0;
	bool after_dashes = false;
	for (int i = first; i < argc; i++) {
		if (!after_dashes && strcmp(argv[i], "--") == 0) {
			after_dashes = true;
			continue;
		}
		if (!after_dashes && strcmp(argv[i], "--json") == 0)
			continue;
		status |= describe_one(argv[i], json);
	}
	return fflush(stdout) == 0 ? status : status | EXIT_OPERATIONAL;
}
