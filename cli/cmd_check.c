/* SPDX-License-Identifier: MIT */
/* tracefsck check: run the library on each file, render, and combine exit statuses. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_pool.h"
#include "cli.h"
#include "shard.h"
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
	/* a section only where there is something to read: a folder's clean units stay out of it */
	if (r->count == 0 && tfk_report_verdict(r) == TFK_VERDICT_CLEAN)
		return;
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	char *safe = tfk_sanitize_dup(name, strlen(name));
	if (!safe) {
		fclose(f);
		return;
	}
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
	free(safe);
}

/* What one run of check renders, and the exit status it builds up over the files. */
struct run {
	struct tfk_sink_options opt;
	bool json, sarif, github, hazards;
	const char **files;
	struct tfk_report *kept; /* --sarif: every report, for one document at the end */
	struct progress *prog;   /* shown for one file at a time */
	struct tfk_github_budget budget; /* --github: GitHub's annotation limits are per step, not per file */
	int status;
};

/* One file's report, in file order: render it and fold its verdict into the exit status. */
static void on_report(void *user, int index, struct tfk_report *report)
{
	struct run *run = user;
	const char *name = run->files[index];
	if (run->prog) {
		if (run->prog->drawn)
			fputs("\r\033[K", stderr);
		run->prog->drawn = false;
		run->prog->pages = run->prog->events = 0;
		run->prog->name = run->files[index + 1] ? run->files[index + 1] : "";
	}
	int rc = 0;
	if (run->hazards)
		rc = tfk_sink_hazards(report, name, cli_write_stdout, NULL);
	else if (run->json)
		rc = tfk_sink_jsonl(report, name, &run->opt, cli_write_stdout, NULL);
	else if (run->github) {
		rc = tfk_sink_github_budgeted(report, name, &run->opt, &run->budget, cli_write_stdout, NULL);
		step_summary(report, name);
	} else if (!run->sarif)
		rc = tfk_sink_text(report, name, &run->opt, cli_write_stdout, NULL);
	if (rc != 0)
		run->status |= EXIT_OPERATIONAL;
	enum tfk_verdict verdict = tfk_report_verdict(report);
	if (verdict == TFK_VERDICT_CORRUPT || verdict == TFK_VERDICT_FAILED)
		run->status |= EXIT_FAULTS;
	if (report->incomplete)
		run->status |= EXIT_OPERATIONAL;
	if (report->internal_error)
		run->status |= EXIT_INTERNAL;
	if (run->sarif)
		run->kept[index] = *report;
	else
		tfk_report_free(report);
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

static int online_cpus(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus < 1 ? 1 : cpus > 64 ? 64 : (int)cpus;
}

/* -j N (files at once) and --threads N (threads per file): 1 to 64; 0 means one per online CPU. */
static int parse_count(const char *v, int *count, const char *what)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < 0 || n > 64) {
		fprintf(stderr, "tracefsck check: %s takes a number from 0 (one per CPU) to 64, not '%s'\n", what, v);
		return -1;
	}
	*count = n == 0 ? online_cpus() : (int)n;
	return 0;
}

/* --idle-timeout SECONDS: 0 (wait as long as the writer takes) to a day. */
static int parse_seconds(const char *v, long *s)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < 0 || n > 86400) {
		fprintf(stderr, "tracefsck check: --idle-timeout takes seconds from 0 (wait) to 86400, not '%s'\n", v);
		return -1;
	}
	*s = n;
	return 0;
}

/* --timeout SECONDS: 0 (no deadline) to a day. */
static int parse_timeout(const char *v, long *s)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < 0 || n > 86400) {
		fprintf(stderr, "tracefsck check: --timeout takes seconds from 0 (no deadline) to 86400, not '%s'\n", v);
		return -1;
	}
	*s = n;
	return 0;
}

int cmd_check(int argc, char **argv)
{
	bool json = false, quiet = false, fail_on_warning = false, files_only = false, no_tep = false;
	bool sarif = false, github = false, hazards = false, whole_traces = false, no_memo = false;
	const char *format_cache = NULL;     /* --format-cache DIR */
	int nfiles = 0, jobs = 1, threads = -1;
	long idle_s = -1, timeout_s = -1;
	uint64_t max_memory = 0;
	struct cli_shard shard = { 0 };      /* --shard I/N: this job's share of the units */
	struct cli_files listed = { 0 };     /* --files-from: operands read from a file */
	unsigned char *keep = NULL;          /* with --shard, which units are this shard's */
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
		else if (strcmp(a, "--hazards") == 0)
			hazards = true;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			quiet = true;
		else if (strcmp(a, "--whole-traces") == 0)
			whole_traces = true;
		else if (strcmp(a, "--no-libtraceevent") == 0)
			no_tep = true;
		else if (strcmp(a, "--no-format-memo") == 0)
			no_memo = true;
		else if ((v = option_value("--format-cache", argc, argv, &i, &missing)))
			format_cache = v;
		else if (a[1] == 'j' && a[2] >= '0' && a[2] <= '9')
			bad = parse_count(a + 2, &jobs, "-j"); /* -jN */
		else if ((v = option_value("-j", argc, argv, &i, &missing)) ||
			 (v = option_value("--jobs", argc, argv, &i, &missing)))
			bad = parse_count(v, &jobs, "-j");
		else if ((v = option_value("--idle-timeout", argc, argv, &i, &missing)))
			bad = parse_seconds(v, &idle_s);
		else if ((v = option_value("--timeout", argc, argv, &i, &missing)))
			bad = parse_timeout(v, &timeout_s);
		else if ((v = option_value("--max-memory", argc, argv, &i, &missing)))
			bad = cli_parse_size(v, &max_memory, "--max-memory");
		else if ((v = option_value("--threads", argc, argv, &i, &missing)))
			bad = parse_count(v, &threads, "--threads");
		else if ((v = option_value("--fail-on", argc, argv, &i, &missing)))
			bad = cli_policy_fail_on(v, &fail_on_warning, "--fail-on");
		else if ((v = option_value("--disable", argc, argv, &i, &missing)))
			bad = cli_policy_disable(policy, v, "--disable");
		else if ((v = option_value("--severity", argc, argv, &i, &missing)))
			bad = cli_policy_severity(policy, v, "--severity");
		else if ((v = option_value("--policy", argc, argv, &i, &missing)))
			bad = cli_policy_load(v, policy, &fail_on_warning);
		else if ((v = option_value("--shard", argc, argv, &i, &missing)))
			bad = cli_shard_parse(v, &shard);
		else if ((v = option_value("--files-from", argc, argv, &i, &missing)))
			bad = cli_files_read(v, &listed);
		else {
			fprintf(stderr, missing ? "tracefsck check: option '%s' needs a value\n"
						: "tracefsck check: unknown option '%s'\n", a);
			usage();
			bad = -1;
		}
	}
	if (!bad && json + sarif + github + hazards > 1) {
		fprintf(stderr, "tracefsck check: choose one of --json, --sarif, --github, --hazards\n");
		bad = -1;
	}
	if (!bad && no_memo && format_cache) {
		fprintf(stderr, "tracefsck check: --format-cache needs the format memo (drop --no-format-memo)\n");
		bad = -1;
	}
	if (!bad && nfiles == 0 && listed.n == 0) {
		fprintf(stderr, "tracefsck check: no file given\n");
		usage();
		bad = -1;
	}
	if (bad) {
		cli_files_free(&listed);
		free(files);
		tfk_policy_free(policy);
		return EXIT_USAGE;
	}

	/* Progress only for a person watching: stderr a terminal, not quiet, one file at a time. */
	bool show_progress = !quiet && jobs == 1 && isatty(STDERR_FILENO);
	struct tfk_limits limits = tfk_limits_default();
	/* the run's deadline counts from here, across every file, whatever -j does */
	limits.start_ms = tfk_now_ms();
	if (timeout_s >= 0)
		limits.timeout_ms = (uint32_t)(timeout_s * 1000);
	/*
	 * One budget for the run: the files checked at once share it equally, so each file's
	 * report is the same whichever finishes first (a shared account would make one file's
	 * limit depend on what the others held at that moment).
	 */
	if (!max_memory)
		max_memory = limits.max_memory;
	int at_once = jobs < nfiles + (int)listed.n ? jobs : nfiles + (int)listed.n;
	if (at_once < 1)
		at_once = 1;
	if (max_memory / (uint64_t)at_once < (1u << 20)) {
		/* below 1 MiB a file could not hold its header sections: refuse rather than overspend */
		fprintf(stderr, "tracefsck check: --max-memory shared by %d files at once leaves each less than 1M\n", at_once);
		cli_files_free(&listed);
		free(files);
		tfk_policy_free(policy);
		return EXIT_USAGE;
	}
	tfk_limits_set_memory(&limits, max_memory / (uint64_t)at_once);
	if (no_tep)
		limits.parser_timeout_ms = 0;
	if (idle_s >= 0)
		limits.input_idle_ms = (uint32_t)(idle_s * 1000);
	if (fail_on_warning)
		tfk_policy_set_fail_on(policy, TFK_SEV_WARNING);
	limits.policy = policy;
	/*
	 * The format memo: libtraceevent's verdict on each event-format text, asked once a run and
	 * shared by every file, folder member and job (the findings are the same without it). With
	 * --format-cache it also lives on between runs, in a directory no trace of the run lies
	 * above.
	 */
	struct tfk_format_memo *memo = no_memo || no_tep ? NULL : tfk_format_memo_new();
	if (format_cache && memo) {
		const char **ops = calloc((size_t)nfiles + listed.n + 1, sizeof(*ops));
		for (size_t i = 0; ops && i < (size_t)nfiles + listed.n; i++)
			ops[i] = i < (size_t)nfiles ? files[i] : listed.v[i - (size_t)nfiles];
		int rc = ops ? cli_format_cache_open(memo, format_cache, ops, (size_t)nfiles + listed.n) : -1;
		free(ops);
		if (rc != 0) {
			tfk_format_memo_free(memo);
			cli_files_free(&listed);
			free(files);
			tfk_policy_free(policy);
			return EXIT_USAGE;
		}
	}
	limits.format_memo = memo;
	/* One file at a time: its CPUs are walked on every core (up to 8); several: one thread each. */
	if (threads < 0)
		threads = jobs > 1 ? 1 : online_cpus() < 8 ? online_cpus() : 8;
	limits.threads = (uint32_t)threads;
	/* Every operand's trace units (a folder's, an archive's), found before any is checked. */
	struct tfk_units units;
	tfk_units_init(&units);
	cli_scratch_handlers();
	/* The operands: the command line's, then --files-from's; with --shard, this shard's units of them. */
	for (size_t i = 0; i < (size_t)nfiles + listed.n; i++) {
		const char *op = i < (size_t)nfiles ? files[i] : listed.v[i - (size_t)nfiles];
		bool split;
		if (!cli_shard_operand_mine(&shard, op, &split))
			continue;
		size_t from = units.n;
		sigset_t was;
		cli_signals_block(&was); /* the scratch directory is guarded from the moment it exists */
		int rc = whole_traces ? tfk_units_add_member(&units, op, &limits) : tfk_units_add(&units, op, &limits);
		cli_scratch_guard(units.scratch);
		cli_signals_restore(&was);
		if (rc == 0)
			rc = cli_shard_mark(&shard, op, split, &units, from, &keep);
		if (rc != 0) {
			fprintf(stderr, "tracefsck check: out of memory listing %s\n", op);
			tfk_units_free(&units);
			free(keep);
			cli_files_free(&listed);
			free(files);
			tfk_policy_free(policy);
			tfk_format_memo_free(memo);
			return EXIT_OPERATIONAL;
		}
	}
	size_t selected = cli_shard_partition(&units, keep); /* the shard's units, first, in their order */
	free(keep);
	int nunits = selected > INT_MAX - 1 ? INT_MAX - 1 : (int)selected;
	const char **names = calloc((size_t)nunits + 1, sizeof(*names));
	if (!names) {
		tfk_units_free(&units);
		cli_files_free(&listed);
		free(files);
		tfk_policy_free(policy);
	tfk_format_memo_free(memo);
		return EXIT_OPERATIONAL;
	}
	for (int i = 0; i < nunits; i++)
		names[i] = units.v[i].name;
	struct run run = {
		.opt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE },
		.json = json, .sarif = sarif, .github = github, .hazards = hazards,
		.files = names,
	};
	/* SARIF is one document over all units: keep the reports until the end. */
	run.kept = sarif ? calloc((size_t)nunits + 1, sizeof(*run.kept)) : NULL;
	if (sarif && !run.kept) {
		free(names);
		tfk_units_free(&units);
		cli_files_free(&listed);
		free(files);
		tfk_policy_free(policy);
	tfk_format_memo_free(memo);
		return EXIT_OPERATIONAL;
	}
	struct progress prog = { .name = "" };
	struct tfk_observer obs = { .user = &prog, .page = on_page };
	run.prog = show_progress ? &prog : NULL;
	if (show_progress) {
		prog.name = nunits ? names[0] : "";
		clock_gettime(CLOCK_MONOTONIC, &prog.last);
	}
	tfk_github_budget_init(&run.budget, 10);
	check_pool_run(units.v, nunits, jobs, &limits, show_progress ? &obs : NULL, on_report, &run);
	if (format_cache && memo)
		cli_format_cache_save(memo, format_cache);
	if (github && tfk_sink_github_close(&run.budget, cli_write_stdout, NULL) != 0)
		run.status |= EXIT_OPERATIONAL;
	if (sarif) {
		const struct tfk_report **ptrs = calloc((size_t)nunits + 1, sizeof(*ptrs));
		for (int i = 0; ptrs && i < nunits; i++)
			ptrs[i] = &run.kept[i];
		/* The run's own record: its exit status, the working directory as %SRCROOT%, and
		 * TRACEFSCK_HELP_URI, when set, as the base of the rules' help links. */
		char cwd[4096];
		struct tfk_sarif_options so = { .has_exit_code = true, .exit_code = run.status,
						.srcroot = getcwd(cwd, sizeof(cwd)), .help_base = getenv("TRACEFSCK_HELP_URI") };
		if (!ptrs || tfk_sink_sarif_run(ptrs, names, (size_t)nunits, &so, cli_write_stdout, NULL) != 0)
			run.status |= EXIT_OPERATIONAL;
		free(ptrs);
		for (int i = 0; i < nunits; i++)
			tfk_report_free(&run.kept[i]);
		free(run.kept);
	}
	if (fflush(stdout) != 0)
		run.status |= EXIT_OPERATIONAL;
	sigset_t was;
	cli_signals_block(&was);
	tfk_units_free(&units); /* the scratch directory goes with the units */
	cli_scratch_guard(NULL);
	cli_signals_restore(&was);
	free(names);
	cli_files_free(&listed);
	free(files);
	tfk_policy_free(policy);
	tfk_format_memo_free(memo);
	return run.status;
}
