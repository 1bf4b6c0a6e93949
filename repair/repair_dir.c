/* SPDX-License-Identifier: MIT */
/*
 * Repair of a trace directory, for every directory format: check the directory while the
 * format's plug-in builds its model, have the plug-in write the output's members into a
 * temporary directory (dir_output.h), re-check that directory, and rename it into place only
 * when it checks clean. Like repair.c, this knows no format.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "common.h"
#include "dir_output.h"
#include "format.h"
#include "formats/formats.h"
#include "input.h"
#include "tracefsck/repair.h"

/* The directory listed (bounded as the check lists it); -1 with errno when it cannot be. */
static int list_dir(const char *path, const struct tfk_limits *limits, struct tfk_input *in)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	return tfk_input_list(in, fd, limits->max_members);
}

/* The plug-in of the directory format the check will pick, or NULL. */
static const struct rp_format *pick_dir(const struct tfk_input *in)
{
	const struct tfk_format *best = tfk_format_of(NULL, in);
	const struct rp_format *fmt = rp_format_for(best);
	return fmt && fmt->write_dir ? fmt : NULL;
}

/* Check in_dir while the plug-in builds its model (twice when it asks). */
static void check_with_model(const char *in_dir, const struct tfk_limits *limits, const struct rp_format *fmt,
			     void *model, struct tfk_repair_report *rep)
{
	for (unsigned pass = 0; pass < 2; pass++) {
		struct tfk_observer obs = fmt->observer(model, NULL, 0, pass);
		tfk_check_file_observed(in_dir, limits, &obs, &rep->before);
		if (!fmt->check_again || !fmt->check_again(model) || !rp_has_work(&rep->before))
			break;
		tfk_report_free(&rep->before);
		fmt->model_free(model);
		memset(model, 0, fmt->model_size);
	}
}

/* Is path absent, or an empty directory (which the rename replaces)? */
static bool free_target(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT;
	DIR *dir = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
	if (!dir)
		return false;
	bool empty = true;
	for (struct dirent *e; empty && (e = readdir(dir)) != NULL;)
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(dir);
	return empty;
}

/* The output written into d: re-check it, then commit it (or, in a dry run, remove it). */
static void finish(const struct rp_format *fmt, const void *model, struct rp_dir *d, bool dry_run,
		   const struct tfk_limits *limits, struct tfk_repair_report *rep)
{
	tfk_check_file(d->tmp, limits, &rep->after);
	bool kept = fmt->kept_any ? fmt->kept_any(model, rep) : true;
	rp_account(fmt, model, rep);
	/* A member the directory needs and nothing salvaged can stand for (all the task data of a
	 * uftrace recording dropped): no repair, and nothing written, rather than a broken copy. */
	for (size_t i = 0; i < rep->after.count; i++)
		if (rep->after.findings[i].fault == tfk_fault_get(TFK_CORE_INPUT_MEMBER_MISSING)) {
			rep->outcome = TFK_REPAIR_UNSUPPORTED;
			rep->reason = "a member the trace directory requires is missing, and nothing left can stand for it";
			rp_dir_abort(d);
			return;
		}
	if (tfk_report_verdict(&rep->after) != TFK_VERDICT_CLEAN) {
		rep->outcome = TFK_REPAIR_FAILED;
		rp_dir_abort(d);
		return;
	}
	rep->outcome = kept ? TFK_REPAIR_DONE : TFK_REPAIR_NOTHING_SALVAGED;
	if (dry_run) {
		rp_dir_abort(d);
	} else if (rp_dir_commit(d) != 0) {
		rep->write_error = errno ? errno : EIO;
		rep->outcome = TFK_REPAIR_FAILED;
	}
}

/* Where a dry run builds its output: the system's temporary folder. */
static void dry_run_target(char *buf, size_t n)
{
	const char *tmpdir = getenv("TMPDIR");
	snprintf(buf, n, "%s/tracefsck-dry-run", tmpdir && *tmpdir == '/' ? tmpdir : "/tmp");
}

int tfk_repair_dir_scratch(const char *out_dir, char *buf, size_t n)
{
	char dry_target[4096];
	if (!out_dir) {
		dry_run_target(dry_target, sizeof(dry_target));
		out_dir = dry_target;
	}
	return rp_dir_scratch_name(out_dir, buf, n);
}

void tfk_sweep_leftovers(const char *dir)
{
	rp_sweep_leftovers(dir);
}

void tfk_repair_dir(const char *in_dir, const char *out_dir, const struct tfk_limits *limits,
		    struct tfk_repair_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	struct tfk_limits defaults = tfk_limits_default();
	if (!limits)
		limits = &defaults;
	struct tfk_input in;
	if (list_dir(in_dir, limits, &in) != 0) {
		tfk_check_file(in_dir, limits, &rep->before); /* says why it cannot be read */
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "not a directory that can be listed";
		return;
	}
	const struct rp_format *fmt = pick_dir(&in);
	tfk_input_close(&in);
	void *model = fmt ? calloc(1, fmt->model_size ? fmt->model_size : 1) : NULL;
	if (!fmt || !model) {
		tfk_check_file(in_dir, limits, &rep->before);
		rep->outcome = fmt ? TFK_REPAIR_FAILED : TFK_REPAIR_UNSUPPORTED;
		if (!fmt && tfk_report_verdict(&rep->before) == TFK_VERDICT_CLEAN)
			rep->outcome = TFK_REPAIR_NOTHING_TO_DO; /* a clean directory needs no plug-in */
		else if (!fmt && !rep->before.not_checked)
			rep->reason = "no repair for this trace directory's format in this build";
		free(model);
		return;
	}
	check_with_model(in_dir, limits, fmt, model, rep);
	if (fmt->stats)
		fmt->stats(model, rep);
	struct rp_dir d;
	const bool dry_run = out_dir == NULL;
	char dry_target[4096];
	dry_run_target(dry_target, sizeof(dry_target));
	const bool in_place = out_dir && strcmp(out_dir, in_dir) == 0;
	if (!rep->before.stats.format || rep->before.not_checked) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
	} else if (rp_input_changed(&rep->before)) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "the input changed while it was read; check it again once nothing writes to it";
	} else if (!rp_has_work(&rep->before)) {
		rep->outcome = TFK_REPAIR_NOTHING_TO_DO;
	} else if (!dry_run && !in_place && !free_target(out_dir)) {
		rep->outcome = TFK_REPAIR_FAILED;
		rep->write_error = EEXIST;
	} else if (list_dir(in_dir, limits, &in) != 0) {
		rep->outcome = TFK_REPAIR_FAILED;
		rep->write_error = errno ? errno : EIO;
	} else {
		if (rp_dir_begin(&d, dry_run ? dry_target : out_dir, in_place) != 0) {
			rep->outcome = TFK_REPAIR_FAILED;
			rep->write_error = errno ? errno : EIO;
		} else {
			int rc = fmt->write_dir(model, &in, &d, rep);
			bool cut = false;
			const char *moved = rc == 0 ? tfk_input_changed(&in, &cut) : NULL;
			if (moved) {
				/* read as two versions at once: nothing made of it is kept */
				struct tfk_ctx ctx;
				tfk_ctx_init(&ctx, limits, &rep->before);
				ctx.capacity = rep->before.count; /* the findings already there stay */
				struct tfk_ctx_place was = tfk_ctx_enter_member(&ctx, moved, NULL);
				struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_CHANGED);
				tfk_set_path(f, "member of the trace directory");
				tfk_set_expected(f, "members unchanged while they were read");
				tfk_set_found(f, "%s", cut ? "it shrank while it was repaired" : "it changed while it was repaired");
				tfk_mark_incomplete(&ctx);
				tfk_ctx_return(&ctx, was);
				rep->outcome = TFK_REPAIR_UNSUPPORTED;
				rep->reason = "the input changed while it was read; check it again once nothing writes to it";
				rp_dir_abort(&d);
			} else if (rc == 0) {
				finish(fmt, model, &d, dry_run, limits, rep);
			} else {
				if (rc < 0) {
					rep->outcome = TFK_REPAIR_FAILED;
					rep->write_error = errno ? errno : EIO;
				}
				rp_dir_abort(&d);
			}
		}
		tfk_input_close(&in);
	}
	fmt->model_free(model);
	free(model);
}
