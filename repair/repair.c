/* SPDX-License-Identifier: MIT */
/*
 * Repair, for every format: check the input while the format's plug-in (format.h) builds its
 * salvage model, have the plug-in lay a new file out from the model, store it (or view it),
 * and re-check it. An output that does not re-check clean is an internal error. This driver
 * knows no format: the registry says which plug-in repairs what the check found.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "formats/formats.h"
#include "tracefsck/quirk.h"
#include "load.h"
#include "output.h"
#include "tracefsck/repair.h"

static const struct rp_format *const registry[] = {
#define RP_FORMAT(name) &rp_format_##name,
#include "rp_format_list.inc"
#undef RP_FORMAT
	NULL,
};

const struct rp_format *rp_format_for(const struct tfk_format *f)
{
	for (size_t i = 0; f && registry[i]; i++)
		if (registry[i]->format == f)
			return registry[i];
	return NULL;
}

const struct rp_format *rp_format_of_report(const struct tfk_report *report)
{
	return rp_format_for(tfk_format_of_report(report));
}

/* The plug-in for the format the check will pick (the best sniff, as the check sniffs), or NULL. */
static const struct rp_format *pick(const uint8_t *in, size_t size)
{
	struct tfk_cursor file = tfk_cur_make(in, size, 0, false);
	const struct tfk_format *best = tfk_format_of(&file, NULL);
	return rp_format_for(best);
}

/* One repair: the plug-in, the model the input's check built, and the output laid out from it. */
struct job {
	const struct rp_format *fmt;
	void *model;
	struct rp_out out;
};

/*
 * Check the input (a file mapping when mapped) while building the model, and lay out the
 * output. False when there is nothing to write; rep->outcome then says why.
 */
bool rp_has_work(const struct tfk_report *r)
{
	if (tfk_report_verdict(r) != TFK_VERDICT_CLEAN)
		return true;
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_fault *f = r->findings[i].fault;
		if (f && f->repair != TFK_REPAIR_NONE && tfk_fault_quirk(f))
			return true;
	}
	return false;
}

static bool plan(const uint8_t *in, size_t size, const struct tfk_limits *limits, int in_fd, struct job *j,
		 struct tfk_repair_report *rep)
{
	const bool mapped = in_fd >= 0;
	struct tfk_mapped_source whole = { 0, size, in_fd, 0 };
	j->fmt = pick(in, size);
	j->model = j->fmt ? calloc(1, j->fmt->model_size ? j->fmt->model_size : 1) : NULL;
	for (unsigned pass = 0; pass < 2; pass++) {
		struct tfk_observer obs;
		const struct tfk_observer *observer = NULL;
		if (j->model) {
			obs = j->fmt->observer(j->model, in, size, pass);
			observer = &obs;
		}
		if (mapped)
			tfk_check_mapping_sources(in, size, &whole, 1, limits, observer, &rep->before);
		else
			tfk_check_buffer_observed(in, size, limits, observer, &rep->before);
		/* A plug-in may want a damaged input checked again (keeping what a first pass would not). */
		if (!j->model || !j->fmt->check_again || !j->fmt->check_again(j->model) || !rp_has_work(&rep->before))
			break;
		tfk_report_free(&rep->before);
		j->fmt->model_free(j->model);
		memset(j->model, 0, j->fmt->model_size);
	}
	if (j->model && j->fmt->stats)
		j->fmt->stats(j->model, rep);
	if (!j->fmt || !rep->before.stats.format || rep->before.not_checked) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		return false;
	}
	if (!j->model) {
		rep->outcome = TFK_REPAIR_FAILED;
		return false;
	}
	if (!rp_has_work(&rep->before)) {
		rep->outcome = TFK_REPAIR_NOTHING_TO_DO;
		return false;
	}
	if (!j->fmt->lay_out) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		return false;
	}
	return j->fmt->lay_out(j->model, in, size, rep, &j->out);
}

/* After the re-check of the output (rep->after): the outcome and what the salvage report says. */
static void conclude(const struct job *j, struct tfk_repair_report *rep)
{
	bool kept = j->fmt->kept_any(j->model, rep);
	rp_account(j->fmt, j->model, rep);
	if (tfk_report_verdict(&rep->after) != TFK_VERDICT_CLEAN)
		rep->outcome = TFK_REPAIR_FAILED;
	else
		rep->outcome = kept ? TFK_REPAIR_DONE : TFK_REPAIR_NOTHING_SALVAGED;
}

static void job_free(struct job *j)
{
	rp_out_free(&j->out);
	if (j->model)
		j->fmt->model_free(j->model);
	free(j->model);
}

void tfk_repair_buffer(const uint8_t *in, size_t size, const struct tfk_limits *limits, uint8_t **out, size_t *out_len,
		       struct tfk_repair_report *rep)
{
	struct job j;
	memset(rep, 0, sizeof(*rep));
	memset(&j, 0, sizeof(j));
	*out = NULL;
	*out_len = 0;
	if (plan(in, size, limits, -1, &j, rep)) {
		uint8_t *data = NULL;
		if (rp_out_to_buffer(&j.out, &data) != 0) {
			rep->outcome = TFK_REPAIR_FAILED;
		} else {
			const size_t len = (size_t)j.out.len;
			tfk_check_buffer(data, len, limits, &rep->after);
			conclude(&j, rep);
			if (rep->outcome == TFK_REPAIR_FAILED) {
				free(data); /* an output that did not re-check clean is never handed back */
			} else {
				*out = data;
				*out_len = len;
			}
		}
	}
	job_free(&j);
}

/* Re-check what out_fd now holds, through a mapping of it. */
static void recheck_fd(int fd, uint64_t len, const struct tfk_limits *limits, struct tfk_report *after)
{
	void *p = len && len <= SIZE_MAX ? mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (p == MAP_FAILED) {
		tfk_check_buffer(NULL, 0, limits, after); /* not a trace: the outcome is FAILED */
		return;
	}
	struct tfk_mapped_source self = { 0, len, fd, 0 }; /* ring pages are read back by descriptor */
	tfk_check_mapping_sources(p, (size_t)len, &self, 1, limits, NULL, after);
	munmap(p, (size_t)len);
}

/* Check the laid-out output without storing it. */
static void recheck_view(const struct job *j, const uint8_t *in, size_t size, int in_fd,
			 const struct tfk_limits *limits, struct tfk_report *after)
{
	struct tfk_mapped_source *sources;
	size_t nsources;
	const uint8_t *view = rp_out_view(&j->out, in, size, in_fd, &sources, &nsources);
	if (view) {
		tfk_check_mapping_sources(view, (size_t)j->out.len, sources, nsources, limits, NULL, after);
		rp_out_view_free(view, j->out.len);
		free(sources);
		return;
	}
	uint8_t *data; /* no memory file here: the plain way */
	if (rp_out_to_buffer(&j->out, &data) == 0) {
		tfk_check_buffer(data, (size_t)j->out.len, limits, after);
		free(data);
	} else {
		tfk_check_buffer(NULL, 0, limits, after);
	}
}

void tfk_repair_file(const char *path, int out_fd, const struct tfk_limits *limits, uint64_t *out_len,
		     struct tfk_repair_report *rep)
{
	struct job j;
	memset(rep, 0, sizeof(*rep));
	memset(&j, 0, sizeof(j));
	*out_len = 0;
	/*
	 * The input's bytes as a check reads them (load.h): a file, a FIFO or pipe read to its end,
	 * or a trace compressed whole, decompressed (the repaired trace is written uncompressed).
	 */
	struct tfk_limits defaults = tfk_limits_default();
	struct tfk_loaded l;
	const char *what = "";
	int err = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	enum tfk_load_result loaded = fd >= 0 ? tfk_load_fd(fd, limits ? limits : &defaults, &l, &what, &err) : TFK_LOAD_ERROR;
	if (loaded != TFK_LOAD_OK || l.size == 0) {
		/* Unreadable, empty, not a file, or a directory: the check says which; nothing can be
		 * written. A directory that checks clean has nothing to repair (nothing is copied).
		 * What was read from a pipe is not read again: it was empty. */
		if (loaded == TFK_LOAD_OK) {
			tfk_check_buffer(NULL, 0, limits, &rep->before);
			tfk_unload(&l);
		} else {
			tfk_check_file(path, limits, &rep->before);
		}
		bool dir = loaded == TFK_LOAD_DIRECTORY;
		rep->outcome = dir && tfk_report_verdict(&rep->before) == TFK_VERDICT_CLEAN ? TFK_REPAIR_NOTHING_TO_DO
											: TFK_REPAIR_UNSUPPORTED;
		if (dir && rep->outcome == TFK_REPAIR_UNSUPPORTED)
			rep->reason = "a trace directory: it is repaired into a directory (tfk_repair_dir)";
		if (fd >= 0)
			close(fd);
		return;
	}
	const int src = fd; /* kept open: was the file changed while it was repaired? (load.h) */
	const size_t size = l.size;
	const uint8_t *data = l.data;
	fd = l.fd; /* the file, or the memory file holding what was read or decompressed */
	if (plan(data, size, limits, fd, &j, rep)) {
		*out_len = j.out.len;
		if (out_fd < 0) {
			recheck_view(&j, data, size, fd, limits, &rep->after);
			conclude(&j, rep);
		} else if (rp_out_to_fd(&j.out, out_fd) != 0) {
			rep->outcome = TFK_REPAIR_FAILED;
			rep->write_error = errno ? errno : EIO;
		} else {
			recheck_fd(out_fd, *out_len, limits, &rep->after);
			conclude(&j, rep);
		}
	} else if (rep->outcome == TFK_REPAIR_NOTHING_TO_DO && out_fd >= 0) {
		/* the input's holes stay holes: a sparse trace is not filled in on disk */
		if (rp_copy_sparse(out_fd, l.packing == TFK_PACKING_NONE && !l.streamed ? src : -1, data, size) != 0) {
			rep->outcome = TFK_REPAIR_FAILED;
			rep->write_error = errno ? errno : EIO;
		}
		*out_len = size;
	}
	/* Bytes that changed under the repair (another process wrote or truncated the input) were
	 * read as two versions at once: nothing made of them is kept, and the check says why. */
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, limits ? limits : &defaults, &rep->before);
	ctx.capacity = rep->before.count; /* the findings already there stay */
	size_t had = rep->before.count;
	tfk_load_report_changed(&ctx, &l);
	if (rep->before.count > had || rp_input_changed(&rep->before)) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "the input changed while it was read; check it again once nothing writes to it";
	}
	job_free(&j);
	tfk_unload(&l);
	close(src);
}

bool rp_input_changed(const struct tfk_report *r)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->findings[i].fault == tfk_fault_get(TFK_CORE_INPUT_CHANGED))
			return true;
	return false;
}

void tfk_repair_report_free(struct tfk_repair_report *rep)
{
	tfk_report_free(&rep->before);
	tfk_report_free(&rep->after);
	free(rep->cpus);
	rep->cpus = NULL;
	rep->ncpus = 0;
	free(rep->members);
	rep->members = NULL;
	rep->nmembers = 0;
	free(rep->parts);
	rep->parts = NULL;
	rep->nparts = rep->parts_cap = 0;
}
