/* SPDX-License-Identifier: MIT */
/* Report sinks: render a report as text or JSON Lines through a caller-supplied writer. */
#ifndef TRACEFSCK_SINK_H
#define TRACEFSCK_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "tracefsck/check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives rendered output; returns 0 on success. The library itself never prints. */
typedef int (*tfk_write_fn)(void *user, const char *bytes, size_t len);

/*
 * The version of the JSON Lines objects (docs/tracefsck-jsonl.schema.json), printed in every
 * summary object as "schema_version". It changes when a key is removed or changes meaning;
 * new keys may appear without a change.
 */
#define TFK_JSONL_SCHEMA_VERSION 1

struct tfk_sink_options {
	enum tfk_severity min_severity;  /* findings below it are not rendered */
};

/* "NAME: 0xOFF [path]: severity code: summary (expected X, found Y)" lines, then a summary line. */
int tfk_sink_text(const struct tfk_report *report, const char *name, const struct tfk_sink_options *opt,
		  tfk_write_fn write, void *user);

/* One JSON object per finding, then one {"type":"summary",...} object for the file. */
int tfk_sink_jsonl(const struct tfk_report *report, const char *name, const struct tfk_sink_options *opt,
		   tfk_write_fn write, void *user);

/*
 * check --hazards: per file, one line for each reader hazard the file's findings trigger,
 * worst effect first ("NAME: hazard: READER VERSION EFFECT (SIGNAL) through CODE at 0xOFF, ..."),
 * then "NAME: N reader hazards".
 */
int tfk_sink_hazards(const struct tfk_report *report, const char *name, tfk_write_fn write, void *user);

struct tfk_item;
/*
 * The structural map of one file (tracefsck describe): the structures an observer's item
 * callback received, in order, each followed by the findings that lie in it, then the findings
 * no structure holds, then a summary. json: JSON Lines whose finding and summary objects are
 * tfk_sink_jsonl's (the summary adds "structures").
 */
int tfk_sink_map(const struct tfk_report *report, const struct tfk_item *items, size_t nitems, const char *name,
		 bool json, tfk_write_fn write, void *user);

/* One SARIF 2.1.0 document for the reports of n files (rules: the whole catalog). */
int tfk_sink_sarif(const struct tfk_report *const *reports, const char *const *names, size_t n,
		   tfk_write_fn write, void *user);

/* What a SARIF document says of the run itself. */
struct tfk_sarif_options {
	bool has_exit_code;
	int exit_code;          /* invocations[0].exitCode; 8, 16 or 128 in it: executionSuccessful false */
	const char *srcroot;    /* absolute working directory: files under it are named relative to
	                           %SRCROOT% (originalUriBaseIds); NULL: relative names as given */
	const char *help_base;  /* rules' helpUri is help_base#CODE; NULL: the fault manual page
	                           where the build installs it */
};
/*
 * As tfk_sink_sarif, with an invocation (exit code, success, and the inputs that could not be
 * read as tool execution notifications instead of results), %SRCROOT% and help URIs.
 */
int tfk_sink_sarif_run(const struct tfk_report *const *reports, const char *const *names, size_t n,
		       const struct tfk_sarif_options *options, tfk_write_fn write, void *user);

/*
 * GitHub Actions workflow commands (::error/::warning/::notice file=...,title=CODE::message),
 * at most max_per_severity of each kind, then one notice saying how many more there are.
 */
int tfk_sink_github(const struct tfk_report *report, const char *name, const struct tfk_sink_options *opt,
		    unsigned max_per_severity, tfk_write_fn write, void *user);

/*
 * GitHub keeps at most 10 annotations of each kind per step, however many files a run checks:
 * one budget for the whole run (a notice kept back for the closing one), the reports of every
 * file annotated against it, then one closing notice with the count of the rest.
 */
struct tfk_github_budget {
	unsigned cap;         /* annotations of each kind GitHub keeps */
	unsigned room[3];     /* annotations the budget gives each severity (one notice kept back) */
	unsigned shown[3];    /* by severity */
	uint64_t left;        /* findings not annotated */
};
void tfk_github_budget_init(struct tfk_github_budget *budget, unsigned cap_per_kind);
int tfk_sink_github_budgeted(const struct tfk_report *report, const char *name, const struct tfk_sink_options *opt,
			     struct tfk_github_budget *budget, tfk_write_fn write, void *user);
/* The closing notice (nothing when every finding was annotated). 0, or -1 when write failed. */
int tfk_sink_github_close(const struct tfk_github_budget *budget, tfk_write_fn write, void *user);

/*
 * Copy an untrusted byte string into dst as printable ASCII: bytes outside 0x20..0x7e and the
 * backslash become \xNN escapes. Output is NUL-terminated and truncated (with "...") to fit.
 */
void tfk_sanitize(char *dst, size_t dst_size, const void *src, size_t src_len);
/* The same escapes, never cut: a new string to free(), or NULL when memory is short. */
char *tfk_sanitize_dup(const void *src, size_t src_len);

#ifdef __cplusplus
}
#endif
#endif
