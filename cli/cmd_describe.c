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

static const char *kind_name(enum tfk_item_kind k)
{
	switch (k) {
	case TFK_ITEM_FILE: return "header";
	case TFK_ITEM_SECTION: return "section";
	case TFK_ITEM_BLOB: return "metadata";
	case TFK_ITEM_OPTION: return "option";
	case TFK_ITEM_BUFFER: return "buffer";
	case TFK_ITEM_CPU: return "cpu";
	}
	return "?";
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s); /* items are sanitised: printable ASCII only */
	}
	putchar('"');
}

/* Is finding f inside item it (and not in a later, narrower item)? */
static bool inside(const struct tfk_finding *f, const struct tfk_item *it)
{
	return f->has_offset && f->offset >= it->offset && f->offset - it->offset < (it->length ? it->length : 1);
}

static void print_finding(const struct tfk_finding *f, bool json)
{
	if (json) {
		printf("{\"type\":\"finding\",\"code\":");
		json_str(f->fault->id);
		printf(",\"severity\":\"%s\",\"offset\":", tfk_severity_name(f->severity));
		if (f->has_offset)
			printf("%" PRIu64, f->offset);
		else
			printf("null");
		printf(",\"path\":");
		json_str(f->path);
		printf(",\"expected\":");
		json_str(f->expected);
		printf(",\"found\":");
		json_str(f->found);
		printf("}\n");
	} else {
		printf("    ! %s %s", tfk_severity_name(f->severity), f->fault->id);
		if (f->has_offset)
			printf(" at 0x%" PRIx64, f->offset);
		printf(" [%s]", f->path);
		if (f->expected[0])
			printf(" expected %s", f->expected);
		if (f->found[0])
			printf(", found %s", f->found);
		printf("\n");
	}
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

	bool *shown = calloc(r.count ? r.count : 1, sizeof(*shown));
	for (size_t i = 0; i < items.n; i++) {
		const struct tfk_item *it = &items.v[i];
		if (json) {
			printf("{\"type\":\"%s\",\"offset\":%" PRIu64 ",\"length\":%" PRIu64 ",\"decoded\":%s,\"id\":%u,\"name\":",
			       kind_name(it->kind), it->offset, it->length, it->decoded ? "true" : "false", it->id);
			json_str(it->name);
			printf(",\"detail\":");
			json_str(it->detail);
			printf("}\n");
		} else {
			printf("0x%08" PRIx64 " %10" PRIu64 "  %-8s %s", it->offset, it->length, kind_name(it->kind), it->name);
			if (it->kind == TFK_ITEM_OPTION || it->kind == TFK_ITEM_SECTION || it->kind == TFK_ITEM_CPU)
				printf(" %u", it->id);
			printf(": %s%s\n", it->detail, it->decoded ? " (inside compressed data)" : "");
		}
		/* The faults of this structure, unless a narrower structure later in the map holds them. */
		for (size_t k = 0; shown && k < r.count; k++) {
			if (shown[k] || !inside(&r.findings[k], it))
				continue;
			bool narrower = false;
			for (size_t j = i + 1; j < items.n && !narrower; j++)
				narrower = inside(&r.findings[k], &items.v[j]) && items.v[j].length <= it->length;
			if (!narrower) {
				shown[k] = true;
				print_finding(&r.findings[k], json);
			}
		}
	}
	bool header = false;
	for (size_t k = 0; shown && k < r.count; k++) {
		if (shown[k])
			continue;
		if (!json && !header) {
			printf("elsewhere:\n");
			header = true;
		}
		print_finding(&r.findings[k], json);
	}
	enum tfk_verdict v = tfk_report_verdict(&r);
	if (json)
		printf("{\"type\":\"summary\",\"verdict\":\"%s\",\"structures\":%zu,\"findings\":%" PRIu64 "}\n",
		       tfk_verdict_name(v), items.n, r.total);
	else
		printf("%s: %zu structures, %" PRIu64 " findings\n", tfk_verdict_name(v), items.n, r.total);
	int status = v == TFK_VERDICT_CLEAN ? EXIT_CLEAN : v == TFK_VERDICT_CORRUPT ? EXIT_FAULTS : EXIT_OPERATIONAL;
	if (items.oom)
		status |= EXIT_OPERATIONAL;
	free(shown);
	free(items.v);
	tfk_report_free(&r);
	cli_unmap(&map);
	return fflush(stdout) == 0 ? status : status | EXIT_OPERATIONAL;
}
