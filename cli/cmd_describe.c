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

enum shape { MAP_TEXT, MAP_JSON, PICTURE_SVG, PICTURE_HTML };

/* The map (or the picture) of one operand; its exit status. */
static int describe_one(const char *path, enum shape shape)
{
	struct items items = { 0 };
	struct tfk_observer obs = { .user = &items, .item = on_item };
	struct tfk_picture *pic = NULL;
	if (shape == PICTURE_SVG || shape == PICTURE_HTML) {
		pic = tfk_picture_new();
		if (!pic)
			return EXIT_OPERATIONAL;
		obs = tfk_picture_observer(pic);
	}
	struct tfk_report r;
	struct tfk_limits lim = tfk_limits_default();
	check_pool_one(path, &lim, &obs, &r);
	enum tfk_verdict v = tfk_report_verdict(&r);
	int rc = pic ? tfk_sink_picture(pic, &r, path, shape == PICTURE_HTML, cli_write_stdout, NULL)
		     : tfk_sink_map(&r, items.v, items.n, path, shape == MAP_JSON, cli_write_stdout, NULL);
	int status = v == TFK_VERDICT_CLEAN ? EXIT_CLEAN : v == TFK_VERDICT_CORRUPT ? EXIT_FAULTS : EXIT_OPERATIONAL;
	if (items.oom || rc != 0)
		status |= EXIT_OPERATIONAL;
	free(items.v);
	tfk_picture_free(pic);
	tfk_report_free(&r);
	return status;
}

static bool shape_option(const char *arg, enum shape *shape)
{
	if (strcmp(arg, "--json") == 0)
		*shape = MAP_JSON;
	else if (strcmp(arg, "--svg") == 0)
		*shape = PICTURE_SVG;
	else if (strcmp(arg, "--html") == 0)
		*shape = PICTURE_HTML;
	else
		return false;
	return true;
}

int cmd_describe(int argc, char **argv)
{
	enum shape shape = MAP_TEXT;
	bool operands = false;
	int first = argc, count = 0;
	for (int i = 1; i < argc; i++) {
		if (!operands && shape_option(argv[i], &shape)) {
			continue;
		} else if (!operands && strcmp(argv[i], "--") == 0) {
			operands = true;
		} else if (operands || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
			if (first == argc)
				first = i;
			count++;
		} else {
			usage();
			return EXIT_USAGE;
		}
	}
	/* A picture is one document: of one file. */
	if (first == argc || (shape >= PICTURE_SVG && count != 1)) {
		usage();
		return EXIT_USAGE;
	}
	/* Every operand, in order, each map naming its file; statuses ORed as check does. */
	int status = 0;
	bool after_dashes = false;
	for (int i = first; i < argc; i++) {
		enum shape ignored;
		if (!after_dashes && strcmp(argv[i], "--") == 0) {
			after_dashes = true;
			continue;
		}
		if (!after_dashes && shape_option(argv[i], &ignored))
			continue;
		status |= describe_one(argv[i], shape);
	}
	return fflush(stdout) == 0 ? status : status | EXIT_OPERATIONAL;
}
