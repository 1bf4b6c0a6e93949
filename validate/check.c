/* SPDX-License-Identifier: MIT */
/* Entry points: pick the format by sniffing, run its checker, map files read-only. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "cursor.h"
#include "formats/formats.h"
#include "formats/perf/perf.h"
#include "tracefsck/check.h"

static const struct tfk_format *const all_formats[] = {
#define TFK_FORMAT(name) &tfk_format_##name,
#include "tfk_format_list.inc"
#undef TFK_FORMAT
};

const struct tfk_format *const *tfk_formats(size_t *n)
{
	*n = sizeof(all_formats) / sizeof(all_formats[0]);
	return all_formats;
}

static void report_reset(struct tfk_report *report, uint64_t size)
{
	memset(report, 0, sizeof(*report));
	report->stats.file_size = size;
}

void tfk_check_buffer(const uint8_t *data, size_t size, const struct tfk_limits *limits, struct tfk_report *report)
{
	tfk_check_buffer_observed(data, size, limits, NULL, report);
}

/* mapped: data is a read-only file mapping of ours, whose walked pages may be released. */
static void check_bytes(const uint8_t *data, size_t size, const struct tfk_limits *limits,
			const struct tfk_observer *observer, struct tfk_report *report, bool mapped, int fd,
			const struct tfk_mapped_source *sources, size_t nsources)
{
	struct tfk_limits defaults = tfk_limits_default();
	struct tfk_ctx ctx;

	if (!limits)
		limits = &defaults;
	report_reset(report, size);
	tfk_ctx_init(&ctx, limits, report);
	ctx.obs = observer;
	if (mapped) {
		long pg = sysconf(_SC_PAGESIZE);
		ctx.map = data;
		ctx.map_size = size;
		ctx.sys_page = pg > 0 && (pg & (pg - 1)) == 0 ? (size_t)pg : 0;
		ctx.fd = fd;
		ctx.sources = sources;
		ctx.nsources = nsources;
	}

	struct tfk_cursor file = tfk_cur_make(data, size, 0, false);
	const struct tfk_format *best = NULL;
	int best_score = 0;
	for (size_t i = 0; i < sizeof(all_formats) / sizeof(all_formats[0]); i++) {
		int score = all_formats[i]->sniff(&file);
		if (score > best_score) {
			best_score = score;
			best = all_formats[i];
		}
	}
	if (!best || best_score < TFK_SNIFF_DAMAGED) {
		struct tfk_finding *f = tfk_emit(&ctx, TFK_CORE_INPUT_UNRECOGNISED, 0, 0);
		tfk_set_expected(f, "a trace.dat file");
		if (size)
			tfk_set_found_bytes(f, data, size < 16 ? size : 16);
		else
			tfk_set_found(f, "an empty file");
		report->incomplete = true;
		report->not_checked = true;
		return;
	}
	best->check(&ctx, &file);
}

void tfk_check_buffer_observed(const uint8_t *data, size_t size, const struct tfk_limits *limits,
			       const struct tfk_observer *observer, struct tfk_report *report)
{
	check_bytes(data, size, limits, observer, report, false, -1, NULL, 0);
}

/* A file mapping; fd (or -1) is the file, which walks may read into a small buffer instead. */
static void check_mapped(const uint8_t *data, size_t size, const struct tfk_limits *limits,
			 const struct tfk_observer *observer, struct tfk_report *report, int fd,
			 const struct tfk_mapped_source *sources, size_t nsources)
{
	if (data)
		madvise((void *)data, size, MADV_SEQUENTIAL);
	check_bytes(data, size, limits, observer, report, data != NULL, fd, sources, nsources);
}

void tfk_check_mapping(const uint8_t *data, size_t size, const struct tfk_limits *limits,
		       const struct tfk_observer *observer, struct tfk_report *report)
{
	check_mapped(data, size, limits, observer, report, -1, NULL, 0);
}

void tfk_check_mapping_sources(const uint8_t *data, size_t size, const struct tfk_mapped_source *sources,
			       size_t nsources, const struct tfk_limits *limits,
			       const struct tfk_observer *observer, struct tfk_report *report)
{
	check_mapped(data, size, limits, observer, report, -1, sources, nsources);
}

static void io_error(struct tfk_report *report, const struct tfk_limits *limits, const char *what, int err)
{
	struct tfk_limits defaults = tfk_limits_default();
	struct tfk_ctx ctx;
	if (!limits)
		limits = &defaults;
	report_reset(report, 0);
	tfk_ctx_init(&ctx, limits, report);
	struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_IO_ERROR);
	tfk_set_path(f, "%s", what);
	tfk_set_found(f, "%s", strerror(err));
	report->incomplete = true;
	report->not_checked = true;
}

/* A read-only mapping of one file (data is NULL for an empty file). */
struct mapped {
	const uint8_t *data;
	size_t size;
	int fd;          /* open while mapped, or -1 */
	char name[32];
};

enum map_result { MAP_OK, MAP_DIRECTORY, MAP_ERROR };

/* Map path read-only; on MAP_ERROR *what and *err say which step failed and why. */
static enum map_result map_path(const char *path, struct mapped *m, const char **what, int *err)
{
	memset(m, 0, sizeof(*m));
	m->fd = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*what = "open";
		*err = errno;
		return MAP_ERROR;
	}
	struct stat st;
	enum map_result r = MAP_OK;
	if (fstat(fd, &st) != 0) {
		*what = "stat";
		*err = errno;
		r = MAP_ERROR;
	} else if (S_ISDIR(st.st_mode)) {
		r = MAP_DIRECTORY;
	} else if (!S_ISREG(st.st_mode)) {
		*what = "not a regular file";
		*err = EINVAL;
		r = MAP_ERROR;
	} else if ((m->size = (size_t)st.st_size) != 0) {
		void *p = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			*what = "mmap";
			*err = errno;
			r = MAP_ERROR;
		} else {
			m->data = p;
		}
	}
	if (m->data)
		m->fd = fd; /* kept for reading CPU data into a buffer (see tfk_ctx.fd) */
	else
		close(fd);
	return r;
}

static void unmap(struct mapped *m)
{
	if (m->data) {
		munmap((void *)m->data, m->size);
		close(m->fd);
	}
	m->data = NULL;
}

/* One regular file of a directory, mapped; -1 if it is missing or not one. */
static int map_at(const char *dir, const char *name, struct mapped *m)
{
	char path[4096];
	const char *what;
	int err;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -1;
	enum map_result r = map_path(path, m, &what, &err);
	if (r != MAP_OK) {
		unmap(m);
		return -1;
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	return 0;
}

/* "data.N": its N, or -1. */
static long stream_number(const char *name)
{
	if (strncmp(name, "data.", 5) != 0 || !name[5])
		return -1;
	char *end;
	long n = strtol(name + 5, &end, 10);
	return *end || n < 0 ? -1 : n;
}

static int cmp_stream(const void *a, const void *b)
{
	long x = stream_number(((const struct mapped *)a)->name), y = stream_number(((const struct mapped *)b)->name);
	return x < y ? -1 : x > y;
}

/*
 * perf record --threads writes a directory: "data" holds the header, attrs and features,
 * each data.N a stream of records. Returns -1 when path is not such a directory.
 */
static int check_perf_dir(const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			  struct tfk_report *report)
{
	struct tfk_limits defaults = tfk_limits_default();
	if (!limits)
		limits = &defaults;
	struct mapped header;
	if (map_at(path, "data", &header) != 0)
		return -1;
	struct tfk_cursor hc = tfk_cur_make(header.data, header.size, 0, false);
	if (tfk_format_perf.sniff(&hc) < TFK_SNIFF_DAMAGED) {
		unmap(&header);
		return -1;
	}
	size_t cap = limits->max_cpus, n = 0;
	struct mapped *streams = calloc(cap ? cap : 1, sizeof(*streams));
	bool too_many = false;
	DIR *d = opendir(path);
	struct dirent *e;
	while (streams && d && (e = readdir(d)) != NULL) {
		if (stream_number(e->d_name) < 0)
			continue;
		if (n == cap) {
			too_many = true;
			break;
		}
		if (map_at(path, e->d_name, &streams[n]) == 0)
			n++;
	}
	if (d)
		closedir(d);
	if (n > 1)
		qsort(streams, n, sizeof(*streams), cmp_stream);
	struct tfk_cursor *cursors = calloc(n ? n : 1, sizeof(*cursors));
	const char **names = calloc(n ? n : 1, sizeof(*names));
	report_reset(report, header.size);
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, limits, report);
	ctx.obs = observer;
	if (!streams || !cursors || !names) {
		report->internal_error = report->incomplete = true;
	} else {
		for (size_t i = 0; i < n; i++) {
			cursors[i] = tfk_cur_make(streams[i].data, streams[i].size, 0, false);
			names[i] = streams[i].name;
			report->stats.file_size += streams[i].size;
		}
		if (too_many)
			tfk_limit_hit(&ctx, 0, "data.N streams in a perf.data directory", cap + 1, cap);
		pf_check_dir(&ctx, &hc, cursors, names, n);
	}
	for (size_t i = 0; streams && i < n; i++)
		unmap(&streams[i]);
	unmap(&header);
	free(streams);
	free(cursors);
	free(names);
	return 0;
}

void tfk_check_file(const char *path, const struct tfk_limits *limits, struct tfk_report *report)
{
	tfk_check_file_observed(path, limits, NULL, report);
}

void tfk_check_file_observed(const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			     struct tfk_report *report)
{
	struct mapped m;
	const char *what = "";
	int err = 0;
	switch (map_path(path, &m, &what, &err)) {
	case MAP_ERROR:
		io_error(report, limits, what, err);
		return;
	case MAP_DIRECTORY:
		if (check_perf_dir(path, limits, observer, report) != 0)
			io_error(report, limits, "a directory that is not a perf.data directory", EISDIR);
		return;
	case MAP_OK:
		break;
	}
	check_mapped(m.data, m.size, limits, observer, report, m.fd, NULL, 0);
	unmap(&m);
}

enum tfk_verdict tfk_report_verdict(const struct tfk_report *report)
{
	if (report->not_checked)
		return TFK_VERDICT_INCOMPLETE;
	if (report->by_severity[TFK_SEV_ERROR])
		return TFK_VERDICT_CORRUPT;
	if (report->fail_on_warning && report->by_severity[TFK_SEV_WARNING])
		return TFK_VERDICT_FAILED;
	if (report->incomplete)
		return TFK_VERDICT_INCOMPLETE;
	return TFK_VERDICT_CLEAN;
}

const char *tfk_verdict_name(enum tfk_verdict verdict)
{
	switch (verdict) {
	case TFK_VERDICT_CLEAN: return "clean";
	case TFK_VERDICT_CORRUPT: return "corrupt";
	case TFK_VERDICT_FAILED: return "failed";
	case TFK_VERDICT_INCOMPLETE: return "incomplete";
	}
	return "unknown";
}

void tfk_report_free(struct tfk_report *report)
{
	free(report->findings);
	report->findings = NULL;
	report->count = 0;
}
