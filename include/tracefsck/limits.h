/* SPDX-License-Identifier: MIT */
/* Caps on everything whose size comes from the file. Hitting one makes a check incomplete. */
#ifndef TRACEFSCK_LIMITS_H
#define TRACEFSCK_LIMITS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tfk_policy;
struct tfk_test_hooks; /* tracefsck's own tests only: failure injection (not part of the API) */

struct tfk_limits {
	uint32_t max_findings;      /* findings kept; further ones are counted only */
	uint32_t max_cpus;          /* CPU table entries per buffer */
	uint32_t max_buffers;       /* buffer instances */
	uint32_t max_options;       /* options walked in one file */
	uint32_t max_format_blobs;  /* ftrace + event format blobs, and systems */
	uint32_t max_string;        /* bytes of a name or other short string */
	uint32_t max_page_size;     /* largest ring-buffer page accepted */
	uint64_t max_decoded;       /* bytes one compressed block may decode to */
	uint32_t max_per_place;     /* findings of one code in one CPU before the rest are summarised */
	uint64_t max_input_bytes;   /* bytes read from a pipe, or decompressed from a compressed input */
	uint32_t input_idle_ms;     /* a pipe silent this long is taken as ended (reported); 0 = wait */
	uint32_t max_members;       /* members (files, directories, links) listed in a trace directory */
	uint32_t parser_timeout_ms; /* event formats go to libtraceevent in a child process; one format
	                               taking longer than this is a hang. 0 = do not run libtraceevent */
	const struct tfk_policy *policy; /* codes disabled or re-graded (policy.h); NULL = the catalog */
	uint32_t threads;           /* threads walking the CPUs of one buffer at once (and reading a
	                               large member ahead of its walk); 0 or 1 = the caller's thread
	                               only. The report is the same either way */
	const struct tfk_test_hooks *test_hooks; /* NULL (tfk_limits_default); set by tracefsck's own tests only */
};

/* Defaults sized for real traces with generous headroom. */
struct tfk_limits tfk_limits_default(void);

#ifdef __cplusplus
}
#endif
#endif
