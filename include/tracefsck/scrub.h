/* SPDX-License-Identifier: MIT */
/*
 * Scrub: a copy of a trace with its private data replaced, still a valid trace of the same
 * format. Strings are replaced word by word with keyed pseudonyms of the same length (the same
 * word gets the same pseudonym everywhere in the trace; two traces scrubbed with one key
 * compare), so offsets, record sizes and page layouts stay what they were; timing, event
 * structure and numeric fields are kept. The report counts what was replaced, per kind, and
 * says what was kept on purpose; it never holds an original value.
 */
#ifndef TRACEFSCK_SCRUB_H
#define TRACEFSCK_SCRUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefsck/check.h"
#include "tracefsck/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a replaced string is. */
enum tfk_scrub_kind {
	TFK_SCRUB_HOST = 0,   /* host names, kernel release and version (uname), guest names */
	TFK_SCRUB_CMDLINE,    /* command lines, executable names */
	TFK_SCRUB_TASK,       /* task names (comm) */
	TFK_SCRUB_PATH,       /* file names and paths */
	TFK_SCRUB_INSTANCE,   /* names of tracing instances (buffers) */
	TFK_SCRUB_MARKER,     /* text written by user space (trace_marker, print events) */
	TFK_SCRUB_STRING,     /* other string fields of event payloads */
	TFK_SCRUB_KINDS,
};

#define TFK_SCRUB_BIT(k) (1u << (k))
/* Profiles: identity names the machine and its users; payloads are the strings events carry. */
#define TFK_SCRUB_IDENTITY                                                                       \
	(TFK_SCRUB_BIT(TFK_SCRUB_HOST) | TFK_SCRUB_BIT(TFK_SCRUB_CMDLINE) | TFK_SCRUB_BIT(TFK_SCRUB_TASK) | \
	 TFK_SCRUB_BIT(TFK_SCRUB_PATH) | TFK_SCRUB_BIT(TFK_SCRUB_INSTANCE))
#define TFK_SCRUB_PAYLOADS (TFK_SCRUB_BIT(TFK_SCRUB_MARKER) | TFK_SCRUB_BIT(TFK_SCRUB_STRING))
/* The default, what a public bug report needs: identity and payload strings. */
#define TFK_SCRUB_PUBLIC (TFK_SCRUB_IDENTITY | TFK_SCRUB_PAYLOADS)

#define TFK_SCRUB_KEY_BYTES 16

struct tfk_scrub_options {
	unsigned kinds;                       /* TFK_SCRUB_BIT of each kind to replace */
	uint8_t key[TFK_SCRUB_KEY_BYTES];     /* the pseudonyms' key (random per run, or a key file's) */
	bool repair_first;                    /* a damaged input is repaired, then the repaired copy scrubbed */
};

enum tfk_scrub_outcome {
	TFK_SCRUB_DONE = 0,      /* the output was made and re-checks as clean as the input */
	TFK_SCRUB_REFUSED,       /* the input has faults (before says which); repair_first was not asked */
	TFK_SCRUB_UNSUPPORTED,   /* not a trace, or a format scrub does not handle yet (reason says) */
	TFK_SCRUB_FAILED,        /* internal error: the output did not re-check clean, or no memory */
};

/* Per kind: how many strings were replaced, and how many seen were kept because not asked. */
struct tfk_scrub_count {
	uint64_t replaced;
	uint64_t kept;
};

#define TFK_SCRUB_MAX_NOTES 8

struct tfk_scrub_report {
	enum tfk_scrub_outcome outcome;
	const char *reason;                   /* static text, or NULL */
	char format[48];                      /* the input's format, as the check names it */
	struct tfk_report before;             /* the check of the input (of the repaired copy with repair_first) */
	struct tfk_report after;              /* the check of the output */
	bool repaired;                        /* the input was damaged and repaired first */
	unsigned kinds;                       /* what was asked */
	struct tfk_scrub_count counts[TFK_SCRUB_KINDS];
	uint64_t swept;                       /* further occurrences of replaced words found elsewhere */
	bool dictionary_full;                 /* too many distinct words to sweep for them all */
	char converted[48];                   /* e.g. "trace.dat v7 (zstd) -> v6", or "" */
	const char *kept_on_purpose[TFK_SCRUB_MAX_NOTES]; /* static texts: what is kept, and why */
	size_t nkept;
};

/*
 * Scrub a trace held in memory. On DONE *out holds the new file (free() it). The input is
 * never modified.
 */
void tfk_scrub_buffer(const uint8_t *in, size_t size, const struct tfk_scrub_options *opts,
		      const struct tfk_limits *limits, uint8_t **out, size_t *out_len, struct tfk_scrub_report *report);

/* The same for the file at path (compressed whole, a pipe: as the check loads it). */
void tfk_scrub_file(const char *path, const struct tfk_scrub_options *opts, const struct tfk_limits *limits,
		    uint8_t **out, size_t *out_len, struct tfk_scrub_report *report);

/*
 * Scrub the trace directory in_dir (never modified) into out_dir, which must not exist or be
 * an empty directory: built beside it and renamed into place only once it checks clean.
 * *write_error is errno when the output could not be written (else 0).
 */
void tfk_scrub_dir(const char *in_dir, const char *out_dir, const struct tfk_scrub_options *opts,
		   const struct tfk_limits *limits, struct tfk_scrub_report *report, int *write_error);

void tfk_scrub_report_free(struct tfk_scrub_report *report);

const char *tfk_scrub_kind_name(enum tfk_scrub_kind kind);
const char *tfk_scrub_outcome_name(enum tfk_scrub_outcome outcome);

/* The scrub report as text lines beginning with name (sanitised): 0, or -1 when write failed. */
int tfk_scrub_report_text(const struct tfk_scrub_report *report, const char *name, tfk_write_fn write, void *user);
/* The scrub report as one JSON Lines object {"type":"scrub",...}. */
int tfk_scrub_report_jsonl(const struct tfk_scrub_report *report, const char *name, tfk_write_fn write, void *user);

/* SipHash-2-4 of n bytes under a 16-byte key: the pseudonyms' keyed hash. */
uint64_t tfk_siphash(const uint8_t key[TFK_SCRUB_KEY_BYTES], const uint8_t *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
