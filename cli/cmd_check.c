/* SPDX-License-Identifier: MIT */
/* tracefsck check: run the library on each file, render, and combine exit statuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tracefsck/tracefsck.h"

/* Progress on a terminal: pages and events walked so far, redrawn at most ten times a second. */
struct progress {
	const char *name;
	uint64_t pages, events;
	struct timespec last;
	bool drawn;
};

static void on_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	struct progress *p = user;
	(void)page;
	p->pages++;
	p->events += info->events;
	if (p->pages % 64)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - p->last.tv_sec) * 1000 + (now.tv_nsec - p->last.tv_nsec) / 1000000 < 100)
		return;
	p->last = now;
	char safe[64];
	tfk_sanitize(safe, sizeof(safe), p->name, strlen(p->name));
	fprintf(stderr, "\r\033[Kchecking %s: %llu pages, %llu events", safe, (unsigned long long)p->pages,
		(unsigned long long)p->events);
	p->drawn = true;
}

/* With --github, a Markdown table per file goes to $GITHUB_STEP_SUMMARY when it is set. */
static void step_summary(const struct tfk_report *r, const char *name)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	if (!path || !*path)
		return;
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	char safe[256];
	tfk_sanitize(safe, sizeof(safe), name, strlen(name));
	for (char *p = safe; *p; p++)
		if (*p == '|' || *p == '`')
			*p = '_';
	fprintf(f, "### tracefsck: `%s` is %s\n\n| severity | code | offset | where | expected | found |\n|---|---|---|---|---|---|\n",
		safe, tfk_verdict_name(tfk_report_verdict(r)));
	for (size_t i = 0; i < r->count && i < 200; i++) {
		const struct tfk_finding *fd = &r->findings[i];
		char cells[4][TFK_FINDING_TEXT_MAX];
		const char *src[4] = { fd->path, fd->expected, fd->found, "" };
		for (int k = 0; k < 3; k++) {
			snprintf(cells[k], sizeof(cells[k]), "%s", src[k]);
			for (char *p = cells[k]; *p; p++)
				if (*p == '|')
					*p = '/';
		}
		fprintf(f, "| %s | %s | %s0x%llx | %s | %s | %s |\n", tfk_severity_name(fd->severity), fd->fault->id,
			fd->has_offset ? "" : "-", fd->has_offset ? (unsigned long long)fd->offset : 0ull, cells[0], cells[1],
			cells[2]);
	}
	if (r->total > 200)
		fprintf(f, "\n%llu findings in all; the first 200 are listed.\n", (unsigned long long)r->total);
	fputc('\n', f);
	fclose(f);
}

/* The value of option name given as "--name=VALUE" or "--name VALUE"; NULL if a is not it. */
static const char *option_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

int cmd_check(int argc, char **argv)
{
	bool json = false, quiet = false, fail_on_warning = false, files_only = false, no_tep = false;
	bool sarif = false, github = false;
	int nfiles = 0;
	const char **files = calloc((size_t)argc, sizeof(*files));
	struct tfk_policy *policy = tfk_policy_new();
	if (!files || !policy) {
		free(files);
		tfk_policy_free(policy);
		return EXIT_OPERATIONAL;
	}
	int bad = 0;
	for (int i = 1; i < argc && !bad; i++) {
		const char *a = argv[i], *v;
		bool missing = false;
		if (files_only || a[0] != '-' || strcmp(a, "-") == 0) {
			files[nfiles++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0)
			files_only = true;
		else if (strcmp(a, "--json") == 0)
			json = true;
		else if (strcmp(a, "--sarif") == 0)
			sarif = true;
		else if (strcmp(a, "--github") == 0)
			github = true;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			quiet = true;
		else if (strcmp(a, "--no-libtraceevent") == 0)
			no_tep = true;
		else if ((v = option_value("--fail-on", argc, argv, &i, &missing)))
			bad = cli_policy_fail_on(v, &fail_on_warning, "--fail-on");
		else if ((v = option_value("--disable", argc, argv, &i, &missing)))
			bad = cli_policy_disable(policy, v, "--disable");
		else if ((v = option_value("--severity", argc, argv, &i, &missing)))
			bad = cli_policy_severity(policy, v, "--severity");
		else if ((v = option_value("--policy", argc, argv, &i, &missing)))
			bad = cli_policy_load(v, policy, &fail_on_warning);
		else {
			fprintf(stderr, missing ? "tracefsck check: option '%s' needs a value\n"
						: "tracefsck check: unknown option '%s'\n", a);
			usage();
			bad = -1;
		}
	}
	if (!bad && json + sarif + github > 1) {
		fprintf(stderr, "tracefsck check: choose one of --json, --sarif, --github\n");
		bad = -1;
	}
	if (!bad && nfiles == 0) {
		fprintf(stderr, "tracefsck check: no file given\n");
		usage();
		bad = -1;
	}
	if (bad) {
		free(files);
		tfk_policy_free(policy);
		return EXIT_USAGE;
	}

	/* Progress only for a person watching: stderr a terminal, not quiet. */
	bool show_progress = !quiet && isatty(STDERR_FILENO);
	struct tfk_limits limits = tfk_limits_default();
	if (no_tep)
		limits.parser_timeout_ms = 0;
	limits.policy = policy;
	struct tfk_sink_options opt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE };
	int status = EXIT_CLEAN;
	/* SARIF is one document over all files: keep the reports until the end. */
	struct tfk_report *kept = sarif ? calloc((size_t)nfiles, sizeof(*kept)) : NULL;
	const char **kept_names = sarif ? calloc((size_t)nfiles, sizeof(*kept_names)) : NULL;
	size_t nkept = 0;
	if (sarif && (!kept || !kept_names)) {
		free(kept);
		free(kept_names);
		free(files);
		tfk_policy_free(policy);
		return EXIT_OPERATIONAL;
	}
	for (int i = 0; i < nfiles; i++) {
		const char *a = files[i];
		struct tfk_report report;
		struct progress prog = { .name = a };
		struct tfk_observer obs = { .user = &prog, .page = on_page };
		clock_gettime(CLOCK_MONOTONIC, &prog.last);
		tfk_check_file_observed(a, &limits, show_progress ? &obs : NULL, &report);
		if (prog.drawn)
			fputs("\r\033[K", stderr);
		int rc = 0;
		if (json)
			rc = tfk_sink_jsonl(&report, a, &opt, cli_write_stdout, NULL);
		else if (github) {
			rc = tfk_sink_github(&report, a, &opt, 10, cli_write_stdout, NULL);
			step_summary(&report, a);
		} else if (!sarif)
			rc = tfk_sink_text(&report, a, &opt, cli_write_stdout, NULL);
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
		if (sarif) {
			kept[nkept] = report;
			kept_names[nkept++] = a;
		} else {
			tfk_report_free(&report);
		}
	}
	if (sarif) {
		const struct tfk_report **ptrs = calloc(nkept ? nkept : 1, sizeof(*ptrs));
		for (size_t i = 0; ptrs && i < nkept; i++)
			ptrs[i] = &kept[i];
		if (!ptrs || tfk_sink_sarif(ptrs, kept_names, nkept, cli_write_stdout, NULL) != 0)
			status |= EXIT_OPERATIONAL;
		free(ptrs);
		for (size_t i = 0; i < nkept; i++)
			tfk_report_free(&kept[i]);
		free(kept);
		free(kept_names);
	}
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	free(files);
	tfk_policy_free(policy);
	return status;
}
