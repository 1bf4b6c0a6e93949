/* SPDX-License-Identifier: MIT */
/*
 * Scrub of a trace directory, for every directory format: check it while the plug-in builds
 * its model, refuse it when damaged, have the plug-in write the scrubbed members into a
 * temporary directory beside the target (repair's dir_output.h), check that, and rename it
 * into place only when it is clean. Like scrub.c, this knows no format.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dir_output.h"
#include "format.h"
#include "formats/formats.h"
#include "input.h"
#include "tracefsck/scrub.h"

int sc_dir_put(struct rp_dir *dir, const char *name, const uint8_t *p, size_t n)
{
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	if (n) /* an empty member is an empty output */
		rp_out_put(&o, p, n);
	int rc = o.oom ? -1 : rp_dir_member(dir, name, &o);
	if (o.oom)
		errno = ENOMEM;
	rp_out_free(&o);
	return rc;
}

int sc_member_copy(const struct tfk_input *in, const struct tfk_member *m, uint8_t **out, size_t *n)
{
	struct tfk_member_map map;
	if (tfk_member_open(in, m, &map) != 0)
		return -1;
	*out = malloc(map.size ? map.size : 1);
	if (!*out) {
		tfk_member_close(&map);
		errno = ENOMEM;
		return -1;
	}
	if (map.size)
		memcpy(*out, map.data, map.size);
	*n = map.size;
	tfk_member_close(&map);
	return 0;
}

static bool free_target(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT;
	if (!S_ISDIR(st.st_mode))
		return false;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct tfk_input in;
	memset(&in, 0, sizeof(in));
	bool empty = tfk_input_list(&in, fd, 4) == 0 && in.n == 0;
	tfk_input_close(&in);
	return empty;
}

void tfk_scrub_dir(const char *in_dir, const char *out_dir, const struct tfk_scrub_options *opts,
		   const struct tfk_limits *limits, struct tfk_scrub_report *rep, int *write_error)
{
	struct tfk_limits defaults = tfk_limits_default();
	if (!limits)
		limits = &defaults;
	memset(rep, 0, sizeof(*rep));
	rep->kinds = opts->kinds;
	*write_error = 0;
	struct tfk_input in;
	memset(&in, 0, sizeof(in));
	int fd = open(in_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || tfk_input_list(&in, fd, limits->max_members) != 0) {
		tfk_check_file(in_dir, limits, &rep->before);
		rep->outcome = TFK_SCRUB_UNSUPPORTED;
		rep->reason = "not a trace this build recognises";
		tfk_input_close(&in);
		return;
	}
	const struct tfk_format *f = tfk_format_of(NULL, &in);
	const struct sc_format *sf = sc_plugin_for(f);
	if (sf && !sf->scrub_dir)
		sf = NULL; /* a single-file format's plug-in */
	void *model = sf ? calloc(1, sf->model_size ? sf->model_size : 1) : NULL;
	struct tfk_observer obs;
	if (model)
		obs = sf->observer(model, NULL, 0);
	tfk_check_file_observed(in_dir, limits, model ? &obs : NULL, &rep->before);
	sc_name_format(rep, f);
	struct rp_dir d;
	memset(&d, 0, sizeof(d));
	d.fd = -1;
	if (sc_cannot_start(rep, f, sf, model)) {
		/* rep says why */
	} else if (tfk_report_verdict(&rep->before) != TFK_VERDICT_CLEAN) {
		rep->outcome = TFK_SCRUB_REFUSED;
		rep->reason = opts->repair_first ? "the input has faults: repair the directory first (tracefsck repair), then scrub it"
						 : "the input has faults: repair it first";
	} else if (!free_target(out_dir)) {
		rep->outcome = TFK_SCRUB_FAILED;
		*write_error = EEXIST;
		rep->reason = "the output exists and is not an empty directory";
	} else if (rp_dir_begin(&d, out_dir, false) != 0) {
		rep->outcome = TFK_SCRUB_FAILED;
		*write_error = errno ? errno : EIO;
		rep->reason = "the output could not be written";
	} else {
		struct sc_ctx sc;
		sc_init(&sc, opts, rep);
		int rc = sf->scrub_dir(model, &sc, &in, &d);
		if (sc.oom && rc == 0)
			rc = -1;
		sc_release(&sc);
		if (rc != 0) {
			rp_dir_abort(&d);
			rep->outcome = rc < 0 ? TFK_SCRUB_FAILED : TFK_SCRUB_UNSUPPORTED;
			if (rc < 0) {
				*write_error = errno ? errno : EIO;
				rep->reason = "the output could not be written";
			}
		} else {
			tfk_check_file(d.tmp, limits, &rep->after);
			if (tfk_report_verdict(&rep->after) != TFK_VERDICT_CLEAN) {
				rp_dir_abort(&d);
				rep->outcome = TFK_SCRUB_FAILED;
				rep->reason = "the scrubbed copy does not re-check clean";
			} else if (rp_dir_commit(&d) != 0) {
				rep->outcome = TFK_SCRUB_FAILED;
				*write_error = errno ? errno : EIO;
				rep->reason = "the output could not be written";
			} else {
				rep->outcome = TFK_SCRUB_DONE;
			}
		}
	}
	if (model) {
		sf->model_free(model);
		free(model);
	}
	tfk_input_close(&in);
}
