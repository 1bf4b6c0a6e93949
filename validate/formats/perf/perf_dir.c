/* SPDX-License-Identifier: MIT */
/*
 * perf record --threads writes a directory: "data" holds the header, attrs and features, and
 * each data.N is a stream of records of the same attrs. Checked as one trace; findings name
 * the member they lie in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../formats.h"
#include "perf.h"

/* "data.N": its N, or -1. */
static long stream_number(const char *name)
{
	if (strncmp(name, "data.", 5) != 0 || !name[5])
		return -1;
	char *end;
	long n = strtol(name + 5, &end, 10);
	return *end || n < 0 ? -1 : n;
}

static int pf_sniff_dir(const struct tfk_input *in)
{
	const struct tfk_member *header = tfk_input_find(in, "data");
	struct tfk_member_map map;
	if (!header) {
		/* record streams without their header: a perf.data directory that lost "data" */
		unsigned streams = 0;
		for (size_t i = 0; i < in->n; i++)
			streams += in->members[i].kind == TFK_MEMBER_FILE && stream_number(in->members[i].name) >= 0;
		return streams ? TFK_SNIFF_DAMAGED : 0;
	}
	if (tfk_member_open(in, header, &map) != 0)
		return 0;
	struct tfk_cursor hc = tfk_cur_make(map.data, map.size, 0, false);
	int score = tfk_format_perf.sniff(&hc);
	tfk_member_close(&map);
	return score;
}

struct stream {
	const struct tfk_member *m;
	long number;
	struct tfk_member_map map;
};

static int by_number(const void *a, const void *b)
{
	long x = ((const struct stream *)a)->number, y = ((const struct stream *)b)->number;
	return x < y ? -1 : x > y;
}

static void pf_check_dir_input(struct tfk_ctx *ctx, const struct tfk_input *in)
{
	const struct tfk_member *hm = tfk_input_find(in, "data");
	struct tfk_member_map header;
	if (!hm) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, "data", NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_MEMBER_MISSING);
		tfk_set_path(f, "perf.data directory header");
		tfk_set_expected(f, "the header, attributes and features the record streams data.N belong to");
		tfk_set_found(f, "none");
		tfk_ctx_return(ctx, was);
		ctx->report->stats.format = "perf.data directory";
		ctx->report->incomplete = true; /* the streams cannot be read without their attributes */
		return;
	}
	if (tfk_member_open(in, hm, &header) != 0) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_IO_ERROR);
		tfk_set_path(f, "perf.data directory header");
		tfk_set_found(f, "data: %s", strerror(hm ? errno : ENOENT));
		ctx->report->incomplete = ctx->report->not_checked = true;
		return;
	}
	/* The streams, in the order of their numbers (data.2 before data.10). */
	size_t cap = ctx->limits->max_cpus, n = 0;
	bool too_many = false;
	struct stream *streams = tfk_calloc(ctx, cap ? cap : 1, sizeof(*streams));
	for (size_t i = 0; streams && i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		long number = strchr(m->name, '/') ? -1 : stream_number(m->name);
		if (number < 0 || m->kind != TFK_MEMBER_FILE)
			continue;
		if (n == cap) {
			too_many = true;
			break;
		}
		streams[n].m = m;
		streams[n].number = number;
		if (tfk_member_open(in, m, &streams[n].map) != 0) {
			tfk_member_unreadable(ctx, m->name, "record stream", errno);
			continue;
		}
		n++;
	}
	if (n > 1)
		qsort(streams, n, sizeof(*streams), by_number);
	struct tfk_cursor *cursors = tfk_calloc(ctx, n ? n : 1, sizeof(*cursors));
	const char **names = tfk_calloc(ctx, n ? n : 1, sizeof(*names));
	struct tfk_member_map *maps = tfk_calloc(ctx, n ? n : 1, sizeof(*maps));
	ctx->report->stats.file_size = header.size;
	if (streams && cursors && names && maps) {
		for (size_t i = 0; i < n; i++) {
			cursors[i] = tfk_cur_make(streams[i].map.data, streams[i].map.size, 0, false);
			names[i] = streams[i].m->name;
			maps[i] = streams[i].map;
			ctx->report->stats.file_size += streams[i].map.size;
		}
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, hm->name, &header);
		if (too_many)
			tfk_limit_hit(ctx, 0, "data.N streams in a perf.data directory", cap + 1, cap);
		struct tfk_cursor hc = tfk_cur_make(header.data, header.size, 0, false);
		pf_check_dir(ctx, &hc, cursors, names, maps, n);
		tfk_ctx_return(ctx, was);
	}
	for (size_t i = 0; streams && i < n; i++)
		tfk_member_close(&streams[i].map);
	tfk_member_close(&header);
	free(streams);
	free(cursors);
	free(names);
	free(maps);
}

/* Hooked into tfk_format_perf (perf_check.c). */
int pf_sniff_directory(const struct tfk_input *in)
{
	return pf_sniff_dir(in);
}

void pf_check_directory(struct tfk_ctx *ctx, const struct tfk_input *in)
{
	pf_check_dir_input(ctx, in);
}
