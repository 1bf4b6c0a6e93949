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

/* What one CPU lost, after "lost ": the parts whose events cannot be counted say why. */
static void print_cpu_loss(const struct tfk_salvage_cpu *c)
{
	const char *sep = "";
	if (c->events_lost) {
		printf("%" PRIu64 " events (walked, then left out as damaged)", c->events_lost);
		sep = ", ";
	}
	if (c->pages_dropped) {
		printf("%s%" PRIu64 " damaged page%s dropped", sep, c->pages_dropped, c->pages_dropped == 1 ? "" : "s");
		sep = ", ";
	}
	if (c->pages_clipped) {
		printf("%sthe rest of %" PRIu64 " clipped page%s", sep, c->pages_clipped, c->pages_clipped == 1 ? "" : "s");
		sep = ", ";
	}
	if (c->bytes_missing && !c->compressed) {
		printf("%s%" PRIu64 " page%s past the end of the file (%" PRIu64 " of %" PRIu64 " bytes missing)", sep,
		       c->pages_missing, c->pages_missing == 1 ? "" : "s", c->bytes_missing, c->bytes_declared);
		sep = ", ";
	} else if (c->bytes_missing) {
		printf("%s%" PRIu64 " of %" PRIu64 " bytes of compressed data past the end of the file", sep, c->bytes_missing,
		       c->bytes_declared);
		sep = ", ";
	}
	if (c->pages_dropped || c->pages_clipped || c->bytes_missing)
		printf("; events in %s unknown (their bytes are gone or untrusted)", c->events_lost ? "the rest" : "them");
}

/* perf.data: samples and records kept and lost; where the bytes are gone, that what they held is unknown. */
static void print_perf_salvage(const char *safe, const struct tfk_repair_report *rep)
{
	const struct tfk_salvage_perf *p = &rep->perf;
	printf("%s: salvage: kept %" PRIu64 " sample%s (%" PRIu64 " record%s)", safe, p->samples_kept,
	       p->samples_kept == 1 ? "" : "s", p->records_kept, p->records_kept == 1 ? "" : "s");
	if (p->records_left_out)
		printf("; left out %" PRIu64 " damaged record%s (%" PRIu64 " sample%s)", p->records_left_out,
		       p->records_left_out == 1 ? "" : "s", p->samples_left_out, p->samples_left_out == 1 ? "" : "s");
	if (p->records_after_cut)
		printf("; lost %" PRIu64 " sample%s (%" PRIu64 " record%s) after the point the data was cut", p->samples_after_cut,
		       p->samples_after_cut == 1 ? "" : "s", p->records_after_cut, p->records_after_cut == 1 ? "" : "s");
	if (p->bytes_skipped)
		printf("; %" PRIu64 " bytes skipped to the next plausible record (what they held is unknown)", p->bytes_skipped);
	if (p->bytes_unread)
		printf("; %" PRIu64 " bytes after the last record found (what they held is unknown)", p->bytes_unread);
	if (p->bytes_undecodable)
		printf("; %" PRIu64 " bytes of COMPRESSED records that cannot be decoded once the zstd stream broke "
		       "(what they held is unknown)", p->bytes_undecodable);
	if (p->bytes_missing)
		printf("; %" PRIu64 " bytes of the data missing from the file, which was cut short (samples there unknown)",
		       p->bytes_missing);
	if (!p->records_left_out && !p->records_after_cut && !p->bytes_skipped && !p->bytes_unread && !p->bytes_missing &&
	    !p->bytes_undecodable)
		printf("; no record lost");
	printf("; %u feature section%s dropped%s\n", rep->options_dropped, rep->options_dropped == 1 ? "" : "s",
	       rep->metadata_lost ? "; TRACING_DATA was lost, and perf refuses tracepoint events without it" : "");
}

static void print_salvage(const char *in, const struct tfk_repair_report *rep)
{
	char safe[256];
	tfk_sanitize(safe, sizeof(safe), in, strlen(in));
	struct tfk_salvage_totals t;
	tfk_salvage_sum(rep, &t);
	if (rep->perf_data) {
		print_perf_salvage(safe, rep);
		return;
	}
	printf("%s: salvage: %u buffer%s, %zu CPU%s; kept %" PRIu64 " pages (%" PRIu64 " events), clipped %" PRIu64
	       ", dropped %" PRIu64 "%s%s%s\n",
	       safe, rep->buffers, rep->buffers == 1 ? "" : "s", rep->ncpus, rep->ncpus == 1 ? "" : "s", t.pages_kept,
	       t.events_kept, t.pages_clipped, t.pages_dropped, rep->metadata_lost ? "; header texts regenerated" : "",
	       rep->converted[0] ? "; written as " : "", rep->converted[0] ? "trace.dat v6" : "");
	for (size_t i = 0; i < rep->ncpus; i++) {
		const struct tfk_salvage_cpu *c = &rep->cpus[i];
		if (!c->pages_dropped && !c->pages_clipped && !c->bytes_missing && !c->events_lost)
			continue;
		printf("%s:   %s%s%scpu%u: kept %" PRIu64 " pages (%" PRIu64 " events); lost ", safe, c->buffer[0] ? "buffer " : "",
		       c->buffer, c->buffer[0] ? " " : "", c->cpu, c->pages_kept, c->events_kept);
		print_cpu_loss(c);
		if (c->lost_time_known)
			printf("; events lost between timestamps %" PRIu64 " and %" PRIu64, c->lost_from, c->lost_to);
		printf("\n");
	}
	/* The total: counted losses, then what cannot be counted and why. */
	printf("%s: total: kept %" PRIu64 " events; lost %" PRIu64, safe, t.events_kept, t.events_lost);
	if (tfk_salvage_loss_unknown(&t)) {
		const char *sep = " (+ an unknown number in ";
		if (t.pages_missing) {
			printf("%s%" PRIu64 " page%s past the end of the file", sep, t.pages_missing, t.pages_missing == 1 ? "" : "s");
			sep = ", ";
		}
		if (t.compressed_bytes_missing) {
			printf("%s%" PRIu64 " bytes of compressed data past the end of the file", sep, t.compressed_bytes_missing);
			sep = ", ";
		}
		if (t.pages_dropped) {
			printf("%s%" PRIu64 " damaged page%s dropped", sep, t.pages_dropped, t.pages_dropped == 1 ? "" : "s");
			sep = ", ";
		}
		if (t.pages_clipped) {
			printf("%sthe rest of %" PRIu64 " clipped page%s", sep, t.pages_clipped, t.pages_clipped == 1 ? "" : "s");
			sep = ", ";
		}
		if (t.no_buffer)
			printf("%sthe data: no buffer's CPU table survived", sep);
		printf(")");
	}
	printf("\n");
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
				print_salvage(in, &rep);
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
