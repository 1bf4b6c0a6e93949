/* SPDX-License-Identifier: MIT */
/*
 * Scrub, for every format: check the input while the format's plug-in (format.h) builds its
 * model; refuse a damaged input (or repair it first when asked); have the plug-in write the
 * scrubbed copy; check that copy. An output that does not re-check clean is an internal error.
 * This driver knows no format.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "formats/formats.h"
#include "load.h"
#include "tracefsck/repair.h"
#include "tracefsck/scrub.h"

static const struct sc_format *const registry[] = {
#define SC_FORMAT(name) &sc_format_##name,
#include "sc_format_list.inc"
#undef SC_FORMAT
	NULL,
};

const struct sc_format *sc_plugin_for(const struct tfk_format *f)
{
	for (size_t i = 0; f && registry[i]; i++)
		if (registry[i]->format == f)
			return registry[i];
	return NULL;
}

void sc_name_format(struct tfk_scrub_report *rep, const struct tfk_format *f)
{
	const char *name = rep->before.stats.format ? rep->before.stats.format : f ? f->name : "";
	snprintf(rep->format, sizeof(rep->format), "%s", name);
}

bool sc_cannot_start(struct tfk_scrub_report *rep, const struct tfk_format *f, const struct sc_format *sf,
		     const void *model)
{
	if (!f || rep->before.not_checked) {
		rep->outcome = TFK_SCRUB_UNSUPPORTED;
		rep->reason = "not a trace this build recognises";
	} else if (!sf) {
		rep->outcome = TFK_SCRUB_UNSUPPORTED;
		rep->reason = "scrub not supported for this format yet";
	} else if (!model) {
		rep->outcome = TFK_SCRUB_FAILED;
		rep->reason = "out of memory";
	} else {
		return false;
	}
	return true;
}

static void scrub_checked(const uint8_t *in, size_t size, const struct tfk_scrub_options *opts,
			  const struct tfk_limits *limits, uint8_t **out, size_t *out_len, struct tfk_scrub_report *rep,
			  bool may_repair);

/* A damaged input with repair_first: repair it, then scrub the repaired copy. */
static void scrub_repaired(const uint8_t *in, size_t size, const struct tfk_scrub_options *opts,
			   const struct tfk_limits *limits, uint8_t **out, size_t *out_len, struct tfk_scrub_report *rep)
{
	struct tfk_repair_report rr;
	uint8_t *fixed = NULL;
	size_t fixed_len = 0;
	tfk_repair_buffer(in, size, limits, &fixed, &fixed_len, &rr);
	bool ok = rr.outcome == TFK_REPAIR_DONE && fixed;
	tfk_repair_report_free(&rr);
	if (!ok) {
		free(fixed);
		rep->outcome = TFK_SCRUB_REFUSED;
		rep->reason = "the input has faults that repair could not mend";
		return;
	}
	tfk_report_free(&rep->before);
	memset(&rep->before, 0, sizeof(rep->before));
	scrub_checked(fixed, fixed_len, opts, limits, out, out_len, rep, false);
	rep->repaired = true;
	free(fixed);
}

static void scrub_checked(const uint8_t *in, size_t size, const struct tfk_scrub_options *opts,
			  const struct tfk_limits *limits, uint8_t **out, size_t *out_len, struct tfk_scrub_report *rep,
			  bool may_repair)
{
	struct tfk_cursor file = tfk_cur_make(in, size, 0, false);
	const struct tfk_format *f = tfk_format_of(&file, NULL);
	const struct sc_format *sf = sc_plugin_for(f);
	void *model = sf ? calloc(1, sf->model_size ? sf->model_size : 1) : NULL;
	struct tfk_observer obs;
	if (model)
		obs = sf->observer(model, in, size);
	tfk_check_buffer_observed(in, size, limits, model ? &obs : NULL, &rep->before);
	sc_name_format(rep, f);
	if (sc_cannot_start(rep, f, sf, model)) {
		/* rep says why */
	} else if (tfk_report_verdict(&rep->before) != TFK_VERDICT_CLEAN) {
		if (may_repair && opts->repair_first) {
			sf->model_free(model);
			free(model);
			scrub_repaired(in, size, opts, limits, out, out_len, rep);
			return;
		}
		rep->outcome = TFK_SCRUB_REFUSED;
		rep->reason = "the input has faults: repair it first (scrub --repair)";
	} else {
		struct sc_ctx sc;
		sc_init(&sc, opts, rep);
		struct tfk_limits defaults = tfk_limits_default();
		const uint64_t cap = (limits ? limits : &defaults)->max_input_bytes;
		sc.max_out = cap > size ? cap : size;
		int rc = sf->scrub(model, &sc, in, size, out, out_len);
		if (rc == 0 && *out_len > sc.max_out) {
			/* never larger than an input this build would read (a decoded copy grows) */
			rc = 1;
			rep->reason = "the scrubbed copy would exceed the input size limit (--max-memory)";
		}
		if (sc.oom && rc == 0)
			rc = -1;
		sc_release(&sc);
		if (rc != 0) {
			free(*out);
			*out = NULL;
			*out_len = 0;
			rep->outcome = rc < 0 ? TFK_SCRUB_FAILED : TFK_SCRUB_UNSUPPORTED;
			if (rc < 0)
				rep->reason = "out of memory";
		} else {
			tfk_check_buffer(*out, *out_len, limits, &rep->after);
			if (tfk_report_verdict(&rep->after) == TFK_VERDICT_CLEAN) {
				rep->outcome = TFK_SCRUB_DONE;
			} else {
				rep->outcome = TFK_SCRUB_FAILED;
				rep->reason = "the scrubbed copy does not re-check clean";
			}
		}
	}
	if (model) {
		sf->model_free(model);
		free(model);
	}
}

void tfk_scrub_buffer(const uint8_t *in, size_t size, const struct tfk_scrub_options *opts,
		      const struct tfk_limits *limits, uint8_t **out, size_t *out_len, struct tfk_scrub_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->kinds = opts->kinds;
	*out = NULL;
	*out_len = 0;
	scrub_checked(in, size, opts, limits, out, out_len, rep, true);
	if (rep->outcome != TFK_SCRUB_DONE) {
		free(*out);
		*out = NULL;
		*out_len = 0;
	}
}

void tfk_scrub_file(const char *path, const struct tfk_scrub_options *opts, const struct tfk_limits *limits,
		    uint8_t **out, size_t *out_len, struct tfk_scrub_report *rep)
{
	struct tfk_limits defaults = tfk_limits_default();
	struct tfk_loaded l;
	const char *what = "";
	int err = 0;
	*out = NULL;
	*out_len = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	enum tfk_load_result loaded = fd >= 0 ? tfk_load_fd(fd, limits ? limits : &defaults, &l, &what, &err) : TFK_LOAD_ERROR;
	if (loaded != TFK_LOAD_OK || l.size == 0) {
		/* Unreadable, empty, or a directory: the check says what it is; nothing is written. */
		memset(rep, 0, sizeof(*rep));
		rep->kinds = opts->kinds;
		if (loaded == TFK_LOAD_OK)
			tfk_unload(&l);
		tfk_check_file(path, limits, &rep->before);
		sc_name_format(rep, NULL);
		rep->outcome = TFK_SCRUB_UNSUPPORTED;
		rep->reason = loaded == TFK_LOAD_DIRECTORY && !rep->before.not_checked
				      ? "scrub not supported for this format yet"
				      : "not a trace this build recognises";
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	tfk_scrub_buffer(l.data, l.size, opts, limits, out, out_len, rep);
	tfk_unload(&l);
}

void tfk_scrub_report_free(struct tfk_scrub_report *rep)
{
	tfk_report_free(&rep->before);
	tfk_report_free(&rep->after);
}
