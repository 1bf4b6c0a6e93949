/* SPDX-License-Identifier: MIT */
/* tracefsck repair: salvage a damaged trace into a new file (never edits the input in place
 * unless asked, and then through a temporary file, fsync and rename). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "repair_output.h"
#include "tracefsck/repair.h"
#include "tracefsck/tracefsck.h"

/* A name as every output shows it: escaped, never cut (NULL only when memory is short). */
static char *shown(const char *name)
{
	return tfk_sanitize_dup(name, strlen(name));
}

/* What repair says, and its status, when nothing repaired was made (file or directory alike). */
static int not_repaired(const struct tfk_repair_report *rep, const char *s_in, bool json)
{
	switch (rep->outcome) {
	case TFK_REPAIR_NOTHING_TO_DO:
		if (!json)
			printf("%s: nothing to repair\n", s_in);
		return EXIT_CLEAN;
	case TFK_REPAIR_UNSUPPORTED:
		if (!json)
			printf("%s: cannot be repaired (%s)\n", s_in,
			       rep->before.not_checked ? "not a trace this build reads"
			       : rep->reason	       ? rep->reason
							: "nothing in it could be proven");
		/* as check says: 8 when the input could not be read through (a limit, an unreadable
		 * member, a change under the run), 4 only for faults found */
		return rep->before.not_checked ? EXIT_OPERATIONAL
		       : tfk_report_verdict(&rep->before) == TFK_VERDICT_INCOMPLETE
			       ? EXIT_OPERATIONAL
			       : EXIT_FAULTS | (rep->before.incomplete ? EXIT_OPERATIONAL : 0);
	default:
		fprintf(json ? stderr : stdout, "%s: internal error: the repaired output does not check clean\n", s_in);
		if (!json)
			tfk_sink_text(&rep->after, "(repaired output)", NULL, cli_write_stdout, NULL);
		return EXIT_INTERNAL;
	}
}

/* A trace directory: repaired into a new directory, written and renamed by the library. */
static int repair_dir(const char *in_raw, const char *out_raw, bool dry_run, bool quiet, bool json)
{
	const char *in = in_raw;
	char *s_in = shown(in_raw), *s_out = out_raw ? shown(out_raw) : NULL;
	if (!s_in || (out_raw && !s_out)) {
		free(s_in);
		free(s_out);
		return EXIT_OPERATIONAL;
	}
	struct tfk_repair_report rep;
	struct tfk_limits limits = tfk_limits_default();
	/* the directory being built goes with a stopped run (SIGKILL's: with the next one) */
	char scratch[4096];
	if (tfk_repair_dir_scratch(dry_run ? NULL : out_raw, scratch, sizeof(scratch)) == 0) {
		cli_scratch_handlers();
		cli_scratch_guard(scratch);
	}
	tfk_repair_dir(in_raw, dry_run ? NULL : out_raw, &limits, &rep);
	cli_scratch_guard(NULL);
	struct tfk_sink_options opt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE };
	if (json) {
		tfk_sink_jsonl(&rep.before, in, &opt, cli_write_stdout, NULL);
		tfk_repair_report_jsonl(&rep, in, cli_write_stdout, NULL);
	} else {
		tfk_sink_text(&rep.before, in, &opt, cli_write_stdout, NULL);
	}
	int status = EXIT_CLEAN;
	if (rep.write_error) {
		fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", s_out ? s_out : "the dry run's temporary directory",
			rep.write_error == EEXIST ? "it exists and is not an empty directory" : strerror(rep.write_error));
		status = EXIT_OPERATIONAL;
	} else {
		switch (rep.outcome) {
		case TFK_REPAIR_NOTHING_TO_DO:
		case TFK_REPAIR_UNSUPPORTED:
		case TFK_REPAIR_FAILED:
			status = not_repaired(&rep, s_in, json);
			break;
		case TFK_REPAIR_DONE:
		case TFK_REPAIR_NOTHING_SALVAGED:
			status = rep.outcome == TFK_REPAIR_DONE ? EXIT_REPAIRED : EXIT_FAULTS;
			if (json)
				break;
			tfk_repair_report_text(&rep, in, cli_write_stdout, NULL);
			if (dry_run)
				printf("%s: dry run: the repaired directory re-checked clean; nothing written\n", s_in);
			else
				printf("%s: repaired directory written to %s, re-checked clean\n", s_in, s_out);
			break;
		}
	}
	tfk_repair_report_free(&rep);
	free(s_in);
	free(s_out);
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	return status;
}

/*
 * The mode of the repaired file. -o: the input's read and write bits, less the umask (a
 * private input stays private, as cp does). --in-place: the input's own mode, since the
 * file replaces it.
 */
static mode_t output_mode(const struct stat *si, bool in_place)
{
	if (in_place)
		return si->st_mode & 07777;
	mode_t mask = umask(0);
	umask(mask);
	return si->st_mode & 0666 & ~mask;
}

static int repair_file(const char *in, const char *out, const struct stat *si, bool in_place, bool dry_run,
		       bool always_write, bool quiet, bool json, const char *s_in, const char *s_out)
{
	struct repair_output o;
	int fd = -1;
	if (!dry_run) {
		if (repair_output_open(&o, out, output_mode(si, in_place)) != 0) {
			fprintf(stderr, "tracefsck repair: cannot create a file beside %s: %s\n", s_out, strerror(errno));
			return EXIT_OPERATIONAL;
		}
		fd = o.fd;
	}
	struct tfk_repair_report rep;
	uint64_t written;
	/* The re-check of the output walks its CPUs on every core (up to 8), as check does. */
	struct tfk_limits limits = tfk_limits_default();
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	limits.threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (uint32_t)cpus;
	tfk_repair_file(in, fd, &limits, &written, &rep);
	struct tfk_sink_options opt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE };
	if (json) {
		/* JSON Lines only on stdout: the input's findings and summary, then the salvage report. */
		tfk_sink_jsonl(&rep.before, in, &opt, cli_write_stdout, NULL);
		tfk_repair_report_jsonl(&rep, in, cli_write_stdout, NULL);
	} else {
		tfk_sink_text(&rep.before, in, &opt, cli_write_stdout, NULL);
	}

	int status = EXIT_CLEAN;
	bool keep = false; /* the new file becomes OUT */
	if (rep.write_error) {
		fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", s_out, strerror(rep.write_error));
		status = EXIT_OPERATIONAL;
	} else {
		switch (rep.outcome) {
		case TFK_REPAIR_NOTHING_TO_DO:
		case TFK_REPAIR_UNSUPPORTED:
		case TFK_REPAIR_FAILED:
			status = not_repaired(&rep, s_in, json);
			/* a copy of a clean input only when asked: it costs the input's size on disk */
			keep = rep.outcome == TFK_REPAIR_NOTHING_TO_DO && !in_place && !dry_run && always_write;
			break;
		case TFK_REPAIR_DONE:
		case TFK_REPAIR_NOTHING_SALVAGED:
			if (!json)
				tfk_repair_report_text(&rep, in, cli_write_stdout, NULL);
			status = rep.outcome == TFK_REPAIR_DONE ? EXIT_REPAIRED : EXIT_FAULTS;
			if (dry_run && !json)
				printf("%s: dry run: %" PRIu64 " bytes would be written%s%s\n", s_in, written, out ? " to " : "",
				       out ? s_out : "");
			else if (!dry_run)
				keep = true;
			break;
		}
	}
	if (fd >= 0) {
		if (!keep) {
			repair_output_discard(&o);
		} else if (repair_output_commit(&o) != 0) {
			fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", s_out, strerror(errno));
			status = EXIT_OPERATIONAL;
		} else if (rep.outcome == TFK_REPAIR_NOTHING_SALVAGED && !json) {
			printf("%s: no event could be salvaged; what survived of the metadata was written to %s (%" PRIu64
			       " bytes), re-checked clean\n", s_in, s_out, written);
		} else if (rep.outcome != TFK_REPAIR_NOTHING_TO_DO && !json) {
			printf("%s: repaired file written to %s (%" PRIu64 " bytes), re-checked clean\n", s_in, s_out, written);
		}
	}
	tfk_repair_report_free(&rep);
	return status;
}

static int write_file(void *user, const char *bytes, size_t len)
{
	return fwrite(bytes, 1, len, user) == len ? 0 : -1;
}

/*
 * --svg FILE: the picture of the input as the check that drives the repair sees it - valid
 * pages are what repair keeps, clipped ones it cuts, dropped ones it leaves out, and the
 * timelines show the time lost. Drawn before the repair, which may replace the input.
 */
static int repair_picture(const char *in, const char *svg)
{
	struct tfk_picture *pic = tfk_picture_new();
	FILE *f = pic ? fopen(svg, "we") : NULL;
	if (!f) {
		char *s = shown(svg);
		fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", s ? s : "the picture", strerror(pic ? errno : ENOMEM));
		free(s);
		tfk_picture_free(pic);
		return EXIT_OPERATIONAL;
	}
	struct tfk_observer obs = tfk_picture_observer(pic);
	struct tfk_report r;
	struct tfk_limits lim = tfk_limits_default();
	tfk_check_file_observed(in, &lim, &obs, &r);
	int rc = tfk_sink_picture(pic, &r, in, false, write_file, f);
	rc |= fclose(f);
	tfk_report_free(&r);
	tfk_picture_free(pic);
	return rc ? EXIT_OPERATIONAL : 0;
}

int cmd_repair(int argc, char **argv)
{
	const char *svg = NULL;
	const char *in = NULL, *out = NULL;
	bool dry_run = false, in_place = false, quiet = false, json = false, force = false, operands = false;
	bool always_write = false;
	for (int i = 1; i < argc; i++) {
		if (!operands && strcmp(argv[i], "--") == 0)
			operands = true;
		else if (!operands && strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (!operands && strcmp(argv[i], "--dry-run") == 0)
			dry_run = true;
		else if (!operands && strcmp(argv[i], "--in-place") == 0)
			in_place = true;
		else if (!operands && strcmp(argv[i], "--always-write") == 0)
			always_write = true;
		else if (!operands && strcmp(argv[i], "--force") == 0)
			force = true;
		else if (!operands && (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0))
			quiet = true;
		else if (!operands && strcmp(argv[i], "--json") == 0)
			json = true;
		else if (!operands && strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
			svg = argv[++i];
		else if ((operands || argv[i][0] != '-') && !in)
			in = argv[i];
		else {
			char *s = shown(argv[i]);
			fprintf(stderr, "tracefsck repair: unexpected argument '%s'\n", s ? s : "?");
			free(s);
			usage();
			return EXIT_USAGE;
		}
	}
	if (!in || (!out && !in_place && !dry_run) || (out && in_place)) {
		fprintf(stderr, "tracefsck repair: give IN and -o OUT (or --in-place, or --dry-run)\n");
		usage();
		return EXIT_USAGE;
	}
	struct stat si, so;
	if (stat(in, &si) != 0)
		memset(&si, 0, sizeof(si)); /* the check says why it cannot be read */
	bool in_dir = S_ISDIR(si.st_mode);
	if (out && stat(out, &so) == 0 && si.st_ino && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
		fprintf(stderr, "tracefsck repair: OUT is IN; use --in-place to replace the input\n");
		return EXIT_USAGE;
	}
	struct stat ol;
	if (out && !dry_run && !in_dir && !force && lstat(out, &ol) == 0) {
		char *s = shown(out);
		fprintf(stderr, "tracefsck repair: %s exists; give --force to replace it\n", s ? s : "OUT");
		free(s);
		return EXIT_USAGE;
	}
	if (svg && strcmp(in, "-") == 0) {
		fprintf(stderr, "tracefsck repair: --svg needs IN to be read twice: not standard input\n");
		return EXIT_USAGE;
	}
	int picture_status = svg ? repair_picture(in, svg) : 0;
	/* In place on a symbolic link: the file it names is repaired, and the link stays a link. */
	char *target = in_place ? realpath(in, NULL) : NULL;
	if (in_place)
		out = target ? target : in;
	char *s_in = shown(in), *s_out = out ? shown(out) : NULL;
	int status;
	if (!s_in || (out && !s_out))
		status = EXIT_OPERATIONAL;
	else if (in_dir)
		status = repair_dir(in, out, dry_run, quiet, json);
	else
		status = repair_file(in, out, &si, in_place, dry_run, always_write, quiet, json, s_in, s_out);
	free(s_in);
	free(s_out);
	free(target);
	status |= picture_status;
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	return status;
}
