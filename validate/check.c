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
#include "input.h"
#include "load.h"
#include "test_hooks.h"
#include "tracefsck/sink.h"
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

const struct tfk_format *tfk_format_of(const struct tfk_cursor *file, const struct tfk_input *in)
{
	const struct tfk_format *best = NULL;
	int best_score = 0;
	for (size_t i = 0; i < sizeof(all_formats) / sizeof(all_formats[0]); i++) {
		const struct tfk_format *f = all_formats[i];
		int score = in ? (f->sniff_dir ? f->sniff_dir(in) : 0) : f->sniff(file);
		if (score > best_score) {
			best_score = score;
			best = f;
		}
	}
	return best_score >= TFK_SNIFF_DAMAGED ? best : NULL;
}

const struct tfk_format *tfk_format_of_report(const struct tfk_report *report)
{
	return report->checked_by;
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
			const struct tfk_mapped_source *sources, size_t nsources, const struct tfk_loaded *loaded,
			bool in_folder)
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

	if (loaded)
		tfk_load_report(&ctx, loaded);
	struct tfk_cursor file = tfk_cur_make(data, size, 0, false);
	const struct tfk_format *best = tfk_format_of(&file, NULL);
	if (!best && in_folder) {
		/* a file among others in a folder: listed once, and no failure of the gate */
		struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_NOT_A_TRACE);
		tfk_set_path(f, "folder entry");
		tfk_set_expected(f, "a trace file, a trace directory or an archive");
		if (size)
			tfk_set_found(f, "a file of %zu bytes that no format recognises", size);
		else
			tfk_set_found(f, "an empty file");
		return;
	}
	if (!best) {
		struct tfk_finding *f = tfk_emit(&ctx, TFK_CORE_INPUT_UNRECOGNISED, 0, 0);
		/* name every format the build knows, whatever the list holds */
		char known[TFK_FINDING_TEXT_MAX];
		size_t len = 0, nf;
		const struct tfk_format *const *fmts = tfk_formats(&nf);
		known[0] = '\0';
		for (size_t i = 0; i < nf && len < sizeof(known); i++)
			len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? (i + 1 == nf ? " or " : ", ") : "",
						fmts[i]->name);
		tfk_set_expected(f, "a %s file", known);
		if (size)
			tfk_set_found_bytes(f, data, size < 16 ? size : 16);
		else
			tfk_set_found(f, "an empty file");
		report->incomplete = true;
		report->not_checked = true;
		return;
	}
	report->checked_by = best;
	best->check(&ctx, &file);
	if (loaded)
		tfk_load_report_changed(&ctx, loaded);
}

void tfk_check_buffer_observed(const uint8_t *data, size_t size, const struct tfk_limits *limits,
			       const struct tfk_observer *observer, struct tfk_report *report)
{
	check_bytes(data, size, limits, observer, report, false, -1, NULL, 0, NULL, false);
}

/* A file mapping; fd (or -1) is the file, which walks may read into a small buffer instead. */
static void check_mapped(const uint8_t *data, size_t size, const struct tfk_limits *limits,
			 const struct tfk_observer *observer, struct tfk_report *report, int fd,
			 const struct tfk_mapped_source *sources, size_t nsources, const struct tfk_loaded *loaded,
			 bool in_folder)
{
	if (data)
		madvise((void *)data, size, MADV_SEQUENTIAL);
	check_bytes(data, size, limits, observer, report, data != NULL, fd, sources, nsources, loaded, in_folder);
}

void tfk_check_mapping(const uint8_t *data, size_t size, const struct tfk_limits *limits,
		       const struct tfk_observer *observer, struct tfk_report *report)
{
	check_mapped(data, size, limits, observer, report, -1, NULL, 0, NULL, false);
}

void tfk_check_mapping_sources(const uint8_t *data, size_t size, const struct tfk_mapped_source *sources,
			       size_t nsources, const struct tfk_limits *limits,
			       const struct tfk_observer *observer, struct tfk_report *report)
{
	check_mapped(data, size, limits, observer, report, -1, sources, nsources, NULL, false);
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

/*
 * FIFOs, sockets and devices among the members, which no format opens: each one a finding,
 * unless the format said something of that member already (with a code of its own).
 */
static void special_members(struct tfk_ctx *ctx, const struct tfk_input *in)
{
	const size_t said = ctx->report->count;
	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		if (m->kind != TFK_MEMBER_FIFO && m->kind != TFK_MEMBER_OTHER)
			continue;
		char shown[sizeof(ctx->report->findings[0].member)];
		tfk_sanitize(shown, sizeof(shown), m->name, strlen(m->name));
		bool known = false;
		for (size_t j = 0; j < said && !known; j++)
			known = strcmp(ctx->report->findings[j].member, shown) == 0;
		if (known)
			continue;
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, m->name, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_MEMBER_SPECIAL);
		tfk_set_path(f, "member of the trace directory");
		tfk_set_expected(f, "a regular file");
		tfk_set_found(f, "%s, not opened", m->kind == TFK_MEMBER_FIFO ? "a FIFO" : "a socket or device");
		tfk_ctx_return(ctx, was);
	}
}

/*
 * A directory: listed (bounded, no link followed), then checked by the directory format that
 * is surest of it. Members the listing could not examine, links that point outside and a
 * listing cut short are findings of their own. Returns -1 when no format claims it.
 */
static int check_directory(const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			   struct tfk_report *report)
{
	struct tfk_limits defaults = tfk_limits_default();
	if (!limits)
		limits = &defaults;
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct tfk_input in;
	if (dirfd < 0 || tfk_input_list(&in, dirfd, limits->max_members) != 0) {
		io_error(report, limits, "a directory that cannot be listed", errno);
		return 0;
	}
	const struct tfk_format *best = tfk_format_of(NULL, &in);
	if (!best) {
		tfk_input_close(&in);
		return -1;
	}
	report_reset(report, in.total_size);
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, limits, report);
	ctx.obs = observer;
	long pg = sysconf(_SC_PAGESIZE);
	ctx.sys_page = pg > 0 && (pg & (pg - 1)) == 0 ? (size_t)pg : 0; /* members' walked bytes are handed back */
	report->stats.format = best->name;
	report->checked_by = best;
	for (size_t i = 0; i < in.n; i++) {
		const struct tfk_member *m = &in.members[i];
		if (m->kind == TFK_MEMBER_ERROR) {
			tfk_member_unreadable(&ctx, m->name, "member of the trace directory", m->err);
			continue;
		}
		struct tfk_ctx_place was = tfk_ctx_enter_member(&ctx, m->name, NULL);
		if (m->kind == TFK_MEMBER_LINK && m->target_outside) {
			struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_LINK_OUTSIDE);
			tfk_set_path(f, "symbolic link");
			tfk_set_expected(f, "members inside the trace directory");
			tfk_set_found_bytes(f, m->target, strlen(m->target));
		}
		tfk_ctx_return(&ctx, was);
	}
	if (in.too_many)
		tfk_limit_hit(&ctx, 0, "members of a trace directory", (uint64_t)limits->max_members + 1, limits->max_members);
	if (in.too_deep)
		tfk_limit_hit(&ctx, 0, "directory depth of a trace directory", TFK_INPUT_MAX_DEPTH + 1, TFK_INPUT_MAX_DEPTH);
	if (TFK_HOOK(limits, loaded))
		limits->test_hooks->loaded(limits->test_hooks->loaded_arg);
	best->check_dir(&ctx, &in);
	special_members(&ctx, &in);
	bool cut = false;
	const char *moved = tfk_input_changed(&in, &cut);
	if (moved) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(&ctx, moved, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_CHANGED);
		tfk_set_path(f, "member of the trace directory");
		tfk_set_expected(f, "members unchanged while they were read");
		tfk_set_found(f, "%s", cut ? "it shrank while it was read; the bytes past its new end read as zeros"
					   : "its size or modification time changed while it was read");
		tfk_mark_incomplete(&ctx);
		tfk_ctx_return(&ctx, was);
	}
	tfk_input_close(&in);
	return 0;
}

void tfk_check_file(const char *path, const struct tfk_limits *limits, struct tfk_report *report)
{
	tfk_check_file_observed(path, limits, NULL, report);
}

/* What fd holds, loaded (load.h) and checked; path names it for a directory, or is NULL. */
static void check_loaded(int fd, const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			 struct tfk_report *report, bool in_folder)
{
	struct tfk_limits defaults = tfk_limits_default();
	if (!limits)
		limits = &defaults;
	struct tfk_loaded l;
	const char *what = "";
	int err = 0;
	switch (tfk_load_fd(fd, limits, &l, &what, &err)) {
	case TFK_LOAD_ERROR:
		io_error(report, limits, what, err);
		return;
	case TFK_LOAD_NOT_A_FILE: {
		struct tfk_ctx ctx;
		report_reset(report, 0);
		tfk_ctx_init(&ctx, limits, report);
		struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_NOT_A_FILE);
		tfk_set_expected(f, "a regular file, a directory, a pipe or a socket");
		tfk_set_found(f, "%s", l.kind);
		report->incomplete = true;
		report->not_checked = true;
		return;
	}
	case TFK_LOAD_DIRECTORY:
		if (!path || check_directory(path, limits, observer, report) != 0)
			io_error(report, limits, "a directory that is not a trace directory of a format this build knows", EISDIR);
		return;
	case TFK_LOAD_OK:
		break;
	}
	if (TFK_HOOK(limits, loaded))
		limits->test_hooks->loaded(limits->test_hooks->loaded_arg);
	check_mapped(l.data, l.size, limits, observer, report, l.fd, NULL, 0, &l, in_folder);
	tfk_unload(&l);
}

void tfk_check_file_observed(const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			     struct tfk_report *report)
{
	tfk_check_found(path, false, limits, observer, report);
}

void tfk_check_found(const char *path, bool in_folder, const struct tfk_limits *limits,
		     const struct tfk_observer *observer, struct tfk_report *report)
{
	/* no blocking on a FIFO without a writer, no controlling terminal taken from a tty */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		struct tfk_limits defaults = tfk_limits_default();
		io_error(report, limits ? limits : &defaults, "open", errno);
		return;
	}
	check_loaded(fd, path, limits, observer, report, in_folder);
	close(fd);
}

void tfk_check_fd(int fd, const struct tfk_limits *limits, const struct tfk_observer *observer,
		  struct tfk_report *report)
{
	check_loaded(fd, NULL, limits, observer, report, false);
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
