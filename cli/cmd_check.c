/* SPDX-License-Identifier: MIT */
/* tracefsck check: run the library on each file, render, and combine exit statuses. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tracefsck/tracefsck.h"

static int write_stdout(void *user, const char *bytes, size_t len)
{
	(void)user;
	return fwrite(bytes, 1, len, stdout) == len ? 0 : -1;
}

int cmd_check(int argc, char **argv)
{
	bool json = false, quiet = false, fail_on_warning = false, files_only = false, no_tep = false;
	int nfiles = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (files_only || a[0] != '-' || strcmp(a, "-") == 0) {
			nfiles++;
			continue;
		}
		if (strcmp(a, "--") == 0)
			files_only = true;
		else if (strcmp(a, "--json") == 0)
			json = true;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			quiet = true;
		else if (strcmp(a, "--fail-on=warning") == 0)
			fail_on_warning = true;
		else if (strcmp(a, "--fail-on=error") == 0)
			fail_on_warning = false;
		else if (strcmp(a, "--no-libtraceevent") == 0)
			no_tep = true;
		else {
			fprintf(stderr, "tracefsck check: unknown option '%s'\n", a);
			usage();
			return EXIT_USAGE;
		}
	}
	if (nfiles == 0) {
		fprintf(stderr, "tracefsck check: no file given\n");
		usage();
		return EXIT_USAGE;
	}

	struct tfk_limits limits = tfk_limits_default();
	if (no_tep)
		limits.parser_timeout_ms = 0;
	struct tfk_sink_options opt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE };
	int status = EXIT_CLEAN;
	files_only = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!files_only && strcmp(a, "--") == 0) {
			files_only = true;
			continue;
		}
		if (!files_only && a[0] == '-')
			continue;
		struct tfk_report report;
		tfk_check_file(a, &limits, &report);
		int rc = json ? tfk_sink_jsonl(&report, a, &opt, write_stdout, NULL)
			      : tfk_sink_text(&report, a, &opt, write_stdout, NULL);
		if (rc != 0)
			status |= EXIT_OPERATIONAL;
		switch (tfk_report_verdict(&report)) {
		case TFK_VERDICT_CLEAN:
			break;
		case TFK_VERDICT_CORRUPT:
			status |= EXIT_FAULTS;
			break;
		case TFK_VERDICT_INCOMPLETE:
			break;
		}
		if (report.incomplete)
			status |= EXIT_OPERATIONAL;
		if (report.internal_error)
			status |= EXIT_INTERNAL;
		if (fail_on_warning && report.by_severity[TFK_SEV_WARNING])
			status |= EXIT_FAULTS;
		tfk_report_free(&report);
	}
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	return status;
}
