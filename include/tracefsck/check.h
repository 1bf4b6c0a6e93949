/* SPDX-License-Identifier: MIT */
/* Checking a trace: the entry points and the report they fill. */
#ifndef TRACEFSCK_CHECK_H
#define TRACEFSCK_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefsck/finding.h"
#include "tracefsck/limits.h"

#ifdef __cplusplus
extern "C" {
#endif

enum tfk_verdict {
	TFK_VERDICT_CLEAN = 0,      /* no error finding, check complete */
	TFK_VERDICT_CORRUPT = 1,    /* at least one error finding */
	TFK_VERDICT_INCOMPLETE = 2, /* no error found, but the check could not finish */
	TFK_VERDICT_FAILED = 3,     /* no error, but warnings, and the policy fails on warnings */
};

/* Figures gathered while checking; they describe what was walked. */
struct tfk_stats {
	const char *format;       /* "trace.dat v6", ... or NULL when unrecognised */
	uint64_t file_size;
	uint32_t buffers;         /* flyrecord blocks walked (top instance included) */
	uint32_t cpus;            /* CPU ranges walked, over all buffers */
	uint64_t pages;           /* ring pages walked */
	uint64_t events;          /* data events walked */
	uint64_t events_lost;     /* lost events the kernel recorded in page headers */
	uint64_t events_no_format; /* data events whose id names no format in the file (readers show them
	                              as unknown events); ftrace ring data only, else 0 */
};

struct tfk_format;

struct tfk_report {
	struct tfk_finding *findings;  /* the first limits.max_findings findings, in file order of discovery */
	size_t count;
	uint64_t total;                /* all findings, including those not kept */
	uint64_t by_severity[3];       /* indexed by enum tfk_severity, over all findings */
	uint64_t disabled;             /* findings the policy switched off (not in the counts above) */
	bool incomplete;               /* a limit was hit or the input could not be read */
	bool not_checked;              /* unreadable or unrecognised: nothing was checked */
	bool internal_error;           /* out of memory or a broken invariant inside tracefsck */
	bool fail_on_warning;          /* the policy fails the gate on warnings (tfk_policy_set_fail_on) */
	struct tfk_stats stats;
	/*
	 * The format that checked the input (opaque to callers: the library's descriptor of it),
	 * or NULL when none did. Repair finds its plug-in by this identity, never by stats.format's text.
	 */
	const struct tfk_format *checked_by;
};

/*
 * Every check runs in the calling thread and keeps no global state; checks of different files
 * may run side by side. A process of its own: a trace.dat's event formats are also parsed by
 * libtraceevent (the parser trace-cmd and perf use) in a child process, so that its crashes
 * and hangs are findings, not the caller's: the check then fork()s once per file, and calls
 * fflush(NULL) before, so that the caller's buffered output is not written twice. The child
 * closes the descriptors it inherited and runs under a seccomp filter and resource limits
 * (SECURITY.md); it never touches the caller's files or output. Set
 * limits.parser_timeout_ms to 0 and no child is ever made (formats are then checked by
 * tracefsck's own grammar only). With limits.threads > 1 a check starts worker threads.
 */

/* Check a trace held in memory. Never reads outside [data, data + size). */
void tfk_check_buffer(const uint8_t *data, size_t size, const struct tfk_limits *limits,
		      struct tfk_report *report);

/* Check a file by path (mapped read-only; never written). */
void tfk_check_file(const char *path, const struct tfk_limits *limits, struct tfk_report *report);

struct tfk_observer;
/* Check, and tell the observer (may be NULL) every structure read whole. */
void tfk_check_buffer_observed(const uint8_t *data, size_t size, const struct tfk_limits *limits,
			       const struct tfk_observer *observer, struct tfk_report *report);
void tfk_check_file_observed(const char *path, const struct tfk_limits *limits, const struct tfk_observer *observer,
			     struct tfk_report *report);
/*
 * Check what an open descriptor holds (standard input, say): a regular file is mapped; a pipe,
 * FIFO or socket is read to its end into memory (limits.max_input_bytes, limits.input_idle_ms);
 * a file compressed whole with xz, gzip or zstd is checked as what it decompresses to. Files
 * given by path go the same way. fd stays open; its position may move.
 */
void tfk_check_fd(int fd, const struct tfk_limits *limits, const struct tfk_observer *observer,
		  struct tfk_report *report);
/*
 * Check a read-only mapping of a file that the caller made (and unmaps). Walked pages are
 * handed back to the kernel as the check goes (madvise), so resident memory stays flat; they
 * fault back in from the page cache if read again. Anonymous memory must not be passed here.
 */
void tfk_check_mapping(const uint8_t *data, size_t size, const struct tfk_limits *limits,
		       const struct tfk_observer *observer, struct tfk_report *report);

/* Bytes [offset, offset + length) of a mapping that are a file's, at file_offset of fd. */
struct tfk_mapped_source {
	uint64_t offset, length;
	int fd;
	uint64_t file_offset;
};

/*
 * tfk_check_mapping for a mapping assembled from several files (or memory): ring pages inside
 * a source are read from its descriptor into a small buffer instead of through the mapping.
 */
void tfk_check_mapping_sources(const uint8_t *data, size_t size, const struct tfk_mapped_source *sources,
			       size_t nsources, const struct tfk_limits *limits,
			       const struct tfk_observer *observer, struct tfk_report *report);

enum tfk_verdict tfk_report_verdict(const struct tfk_report *report);
const char *tfk_verdict_name(enum tfk_verdict verdict);

/* Release what a check allocated; the report may be reused afterwards. */
void tfk_report_free(struct tfk_report *report);

#ifdef __cplusplus
}
#endif
#endif
