/* SPDX-License-Identifier: MIT */
/* Caps on everything whose size comes from the file. Hitting one makes a check incomplete. */
#ifndef TRACEFSCK_LIMITS_H
#define TRACEFSCK_LIMITS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tfk_policy;
struct tfk_format_memo; /* format_memo.h */
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
	uint64_t max_memory;        /* bytes one check may hold in buffers of its own: the copy of a pipe or
	                               of a decompressed input, the decoders' windows, decoded blocks.
	                               Set it with tfk_limits_set_memory, which fits the caps above into it */
	uint32_t timeout_ms;        /* reading an input (a pipe, a decompression) stops this long after
	                               start_ms, however the bytes trickle in (reported); 0 = no deadline */
	uint64_t start_ms;          /* CLOCK_MONOTONIC milliseconds timeout_ms counts from: the start of
	                               a run of several checks; 0 = the start of each check */
	uint32_t max_members;       /* members (files, directories, links) listed in a trace directory */
	uint32_t parser_timeout_ms; /* event formats go to libtraceevent in a child process; one format
	                               taking longer than this of the child's own CPU time is a hang
	                               (a child the machine does not run is not). 0 = do not run
	                               libtraceevent */
	const struct tfk_policy *policy; /* codes disabled or re-graded (policy.h); NULL = the catalog */
	uint32_t threads;           /* threads walking the CPUs of one buffer at once (and reading a
	                               large member ahead of its walk); 0 or 1 = the caller's thread
	                               only. The report is the same either way */
	struct tfk_format_memo *format_memo; /* libtraceevent's verdicts shared by the checks of a run
	                               (format_memo.h); NULL = every check asks libtraceevent itself */
	const struct tfk_test_hooks *test_hooks; /* NULL (tfk_limits_default); set by tracefsck's own tests only */
};

/* Defaults sized for real traces with generous headroom; a memory budget of 1 GiB per check. */
struct tfk_limits tfk_limits_default(void);

/*
 * Give one check a memory budget of bytes (at least 1 MiB is used), and set the caps whose
 * buffers it pays for from it: half for the input's copy (max_input_bytes), a thirty-second
 * (at most 256 MiB) for a decoded block (max_decoded: a format may hold several, and perf
 * keeps a stream's output up to sixteen), the rest for the decoders' windows and the
 * findings. Lower either cap afterwards to be stricter.
 */
void tfk_limits_set_memory(struct tfk_limits *limits, uint64_t bytes);

/* CLOCK_MONOTONIC now, in milliseconds: what start_ms is set from. */
uint64_t tfk_now_ms(void);

#ifdef __cplusplus
}
#endif
#endif
