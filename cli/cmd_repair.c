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
#include "tracefsck/repair.h"
#include "tracefsck/tracefsck.h"

/* A temporary file beside path, to be renamed over it once complete; -1 on failure. */
static int temp_beside(const char *path, char *tmp, size_t n)
{
	char *copy = strdup(path);
	if (!copy)
		return -1;
	snprintf(tmp, n, "%s/.tracefsck-XXXXXX", dirname(copy));
	free(copy);
	return mkstemp(tmp);
}

/* Make the temporary file the output: permissions, on disk, renamed into place. */
static int commit_temp(int fd, const char *tmp, const char *path)
{
	int ok = fchmod(fd, 0644) == 0 && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		int err = errno;
		unlink(tmp);
		errno = err;
		return -1;
	}
	return 0;
}

/* A trace directory: repaired into a new directory, written and renamed by the library. */
static int repair_dir(const char *in, const char *out, bool dry_run, bool quiet, bool json)
{
	struct tfk_repair_report rep;
	struct tfk_limits limits = tfk_limits_default();
	tfk_repair_dir(in, dry_run ? NULL : out, &limits, &rep);
	struct tfk_sink_options opt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE };
	if (json) {
		tfk_sink_jsonl(&rep.before, in, &opt, cli_write_stdout, NULL);
		tfk_repair_report_jsonl(&rep, in, cli_write_stdout, NULL);
	} else {
		tfk_sink_text(&rep.before, in, &opt, cli_write_stdout, NULL);
	}
	int status = EXIT_CLEAN;
	if (rep.write_error) {
		fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", out,
			rep.write_error == EEXIST ? "it exists and is not an empty directory" : strerror(rep.write_error));
		status = EXIT_OPERATIONAL;
	} else {
		switch (rep.outcome) {
		case TFK_REPAIR_NOTHING_TO_DO:
			if (!json)
				printf("%s: nothing to repair\n", in);
			break;
		case TFK_REPAIR_UNSUPPORTED:
			if (!json)
				printf("%s: cannot be repaired (%s)\n", in,
				       rep.before.not_checked ? "not a trace this build reads"
				       : rep.reason	      ? rep.reason
							      : "nothing in it could be proven");
			status = rep.before.not_checked ? EXIT_OPERATIONAL : EXIT_FAULTS;
			break;
		case TFK_REPAIR_FAILED:
			fprintf(json ? stderr : stdout, "%s: internal error: the repaired output does not check clean\n", in);
			if (!json)
				tfk_sink_text(&rep.after, "(repaired output)", NULL, cli_write_stdout, NULL);
			status = EXIT_INTERNAL;
			break;
		case TFK_REPAIR_DONE:
		case TFK_REPAIR_NOTHING_SALVAGED:
			status = rep.outcome == TFK_REPAIR_DONE ? EXIT_REPAIRED : EXIT_FAULTS;
			if (json)
				break;
			tfk_repair_report_text(&rep, in, cli_write_stdout, NULL);
			if (dry_run)
				printf("%s: dry run: the repaired directory re-checked clean; nothing written\n", in);
			else
				printf("%s: repaired directory written to %s, re-checked clean\n", in, out);
			break;
		}
	}
	tfk_repair_report_free(&rep);
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	return status;
}

int cmd_repair(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	bool dry_run = false, in_place = false, quiet = false, json = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--dry-run") == 0)
			dry_run = true;
		else if (strcmp(argv[i], "--in-place") == 0)
			in_place = true;
		else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0)
			quiet = true;
		else if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (argv[i][0] != '-' && !in)
			in = argv[i];
		else {
			fprintf(stderr, "tracefsck repair: unexpected argument '%s'\n", argv[i]);
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
	bool in_dir = stat(in, &si) == 0 && S_ISDIR(si.st_mode);
	if (out && stat(in, &si) == 0 && stat(out, &so) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
		fprintf(stderr, "tracefsck repair: OUT is IN; use --in-place to replace the input\n");
		return EXIT_USAGE;
	}
	if (in_place)
		out = in;
	if (in_dir)
		return repair_dir(in, out, dry_run, quiet, json);

	/* The output goes to a temporary file beside OUT, renamed over it only when complete. */
	char tmp[4096];
	int fd = -1;
	if (!dry_run && (fd = temp_beside(out, tmp, sizeof(tmp))) < 0) {
		fprintf(stderr, "tracefsck repair: cannot create a file beside %s: %s\n", out, strerror(errno));
		return EXIT_OPERATIONAL;
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
	bool keep = false; /* the temporary file becomes OUT */
	if (rep.write_error) {
		fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", out, strerror(rep.write_error));
		status = EXIT_OPERATIONAL;
	} else {
		switch (rep.outcome) {
		case TFK_REPAIR_NOTHING_TO_DO:
			if (!json)
				printf("%s: nothing to repair\n", in);
			keep = !in_place && !dry_run && !in_dir; /* a directory is not copied */
			break;
		case TFK_REPAIR_UNSUPPORTED:
			if (!json)
				printf("%s: cannot be repaired (%s)\n", in,
				       rep.before.not_checked ? "not a trace this build reads"
				       : rep.reason	      ? rep.reason
							      : "nothing in it could be proven");
			status = rep.before.not_checked ? EXIT_OPERATIONAL : EXIT_FAULTS;
			break;
		case TFK_REPAIR_FAILED:
			fprintf(json ? stderr : stdout, "%s: internal error: the repaired output does not check clean\n", in);
			if (!json)
				tfk_sink_text(&rep.after, "(repaired output)", NULL, cli_write_stdout, NULL);
			status = EXIT_INTERNAL;
			break;
		case TFK_REPAIR_DONE:
		case TFK_REPAIR_NOTHING_SALVAGED:
			if (!json)
				tfk_repair_report_text(&rep, in, cli_write_stdout, NULL);
			status = rep.outcome == TFK_REPAIR_DONE ? EXIT_REPAIRED : EXIT_FAULTS;
			if (dry_run && !json)
				printf("%s: dry run: %" PRIu64 " bytes would be written%s%s\n", in, written, out ? " to " : "",
				       out ? out : "");
			else if (!dry_run)
				keep = true;
			break;
		}
	}
	if (fd >= 0) {
		if (!keep) {
			close(fd);
			unlink(tmp);
		} else if (commit_temp(fd, tmp, out) != 0) {
			fprintf(stderr, "tracefsck repair: cannot write %s: %s\n", out, strerror(errno));
			status = EXIT_OPERATIONAL;
		} else if (rep.outcome == TFK_REPAIR_NOTHING_SALVAGED && !json) {
			printf("%s: no event could be salvaged; what survived of the metadata was written to %s (%" PRIu64
			       " bytes), re-checked clean\n", in, out, written);
		} else if (rep.outcome != TFK_REPAIR_NOTHING_TO_DO && !json) {
			printf("%s: repaired file written to %s (%" PRIu64 " bytes), re-checked clean\n", in, out, written);
		}
	}
	tfk_repair_report_free(&rep);
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	return status;
}
