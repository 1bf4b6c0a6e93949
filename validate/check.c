/* SPDX-License-Identifier: MIT */
/* Entry points: pick the format by sniffing, run its checker, map files read-only. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "cursor.h"
#include "formats/formats.h"
#include "tracefsck/check.h"

static const struct tfk_format *const all_formats[] = {
	&tfk_format_tracedat,
	&tfk_format_perf,
};

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
			const struct tfk_observer *observer, struct tfk_report *report, bool mapped)
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
	check_bytes(data, size, limits, observer, report, false);
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

void tfk_check_file(const char *path, const struct tfk_limits *limits, struct tfk_report *report)
{
	tfk_check_file_observed(path, limits, NULL, report);
}

void tfk_check_file_observed(const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			     struct tfk_report *report)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		io_error(report, limits, "open", errno);
		return;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		io_error(report, limits, "stat", e);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		io_error(report, limits, "not a regular file", S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
		return;
	}
	size_t size = (size_t)st.st_size;
	if (size == 0) {
		close(fd);
		tfk_check_buffer_observed(NULL, 0, limits, observer, report);
		return;
	}
	void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	int e = errno;
	close(fd);
	if (map == MAP_FAILED) {
		io_error(report, limits, "mmap", e);
		return;
	}
	madvise(map, size, MADV_SEQUENTIAL);
	check_bytes(map, size, limits, observer, report, true);
	munmap(map, size);
}

enum tfk_verdict tfk_report_verdict(const struct tfk_report *report)
{
	if (report->not_checked)
		return TFK_VERDICT_INCOMPLETE;
	if (report->by_severity[TFK_SEV_ERROR])
		return TFK_VERDICT_CORRUPT;
	if (report->incomplete)
		return TFK_VERDICT_INCOMPLETE;
	return TFK_VERDICT_CLEAN;
}

const char *tfk_verdict_name(enum tfk_verdict verdict)
{
	switch (verdict) {
	case TFK_VERDICT_CLEAN: return "clean";
	case TFK_VERDICT_CORRUPT: return "corrupt";
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
