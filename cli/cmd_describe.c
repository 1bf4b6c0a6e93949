/* SPDX-License-Identifier: MIT */
/*
 * tracefsck describe: the structural map of a file - header, sections, metadata, options,
 * buffers, CPU ranges with page and event counts - continuing past faults, each fault shown
 * under the structure it lies in.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

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

int cmd_describe(int argc, char **argv)
{
	bool json = false;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else {
			usage();
			return EXIT_USAGE;
		}
	}
	if (!path) {
		usage();
		return EXIT_USAGE;
	}
	struct cli_map map;
	if (cli_map_file("describe", path, &map) != 0)
		return EXIT_OPERATIONAL;
	struct items items = { 0 };
	struct tfk_observer obs = { .user = &items, .item = on_item };
	struct tfk_report r;
	struct tfk_limits lim = tfk_limits_default();
	tfk_check_buffer_observed(map.data, map.size, &lim, &obs, &r);

	enum tfk_verdict v = tfk_report_verdict(&r);
	int rc = tfk_sink_map(&r, items.v, items.n, path, json, cli_write_stdout, NULL);
	int status = v == TFK_VERDICT_CLEAN ? EXIT_CLEAN : v == TFK_VERDICT_CORRUPT ? EXIT_FAULTS : EXIT_OPERATIONAL;
	if (items.oom || rc != 0)
		status |= EXIT_OPERATIONAL;
	free(items.v);
	tfk_report_free(&r);
	cli_unmap(&map);
	return fflush(stdout) == 0 ? status : status | EXIT_OPERATIONAL;
}
