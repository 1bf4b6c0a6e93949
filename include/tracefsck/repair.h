/* SPDX-License-Identifier: MIT */
/* Repair: salvage what a damaged trace still holds into a new, valid file. */
#ifndef TRACEFSCK_REPAIR_H
#define TRACEFSCK_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefsck/check.h"
#include "tracefsck/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What was kept and lost of one CPU of one buffer. Events are counted wherever their bytes
 * exist; pages whose bytes are gone (past the end of the file) or cannot be trusted (dropped
 * as damaged, the part of a clipped page after the damage) hold an unknown number of events.
 */
struct tfk_salvage_cpu {
	char buffer[64];          /* "" for the top buffer */
	uint32_t cpu;
	uint64_t pages_kept, pages_clipped, pages_dropped;
	uint64_t events_kept;
	bool lost_time_known;     /* lost_from/lost_to bound the time of lost events */
	uint64_t lost_from, lost_to;
	uint64_t events_lost;     /* events the check walked that the output does not hold */
	uint64_t bytes_declared;  /* the CPU's data as its table entry declares it (0: no entry seen) */
	uint64_t bytes_missing;   /* of those, what the file no longer holds (cut short) */
	uint64_t pages_missing;   /* pages (a partial one included) the file no longer holds; 0 when
	                             compressed: chunks do not tell how many pages they held */
	bool compressed;          /* bytes_* count compressed chunks */
};

/*
 * perf.data: what a salvage kept and lost. Samples and records are counted where their bytes
 * could be read; for bytes that could not (skipped, unreadable, or missing from the file) the
 * count of what they held is unknown, and only the bytes are given.
 */
struct tfk_salvage_perf {
	uint64_t samples_kept, records_kept;
	uint64_t samples_left_out, records_left_out;   /* damaged records left out, the walk going on */
	uint64_t samples_after_cut, records_after_cut; /* read past the point the data was cut at */
	uint64_t bytes_skipped;   /* skipped to the next plausible record after an impossible size */
	uint64_t bytes_unread;    /* in the file past the point no record could be found */
	uint64_t bytes_missing;   /* of the data the header declares, past the end of the file */
	uint64_t bytes_undecodable; /* COMPRESSED payloads after the zstd stream broke */
};

/*
 * Directory formats (uftrace, ...): what the salvage did with one member file of the input,
 * in the units the format counts in that file (records of a task, lines of a text, ...).
 */
struct tfk_salvage_member {
	char member[256];         /* relative path inside the directory (raw: sanitise before output) */
	char unit[16];            /* "records", "lines", "symbols", or "" when nothing is counted */
	const char *action;       /* static text: "copied", "truncated", "rewritten", "rebuilt", "left out" */
	uint64_t kept, lost;      /* units kept, and units walked that the output does not hold */
	bool lost_unknown;        /* bytes were dropped whose units could not be counted */
	uint64_t bytes_in, bytes_out, bytes_dropped;
	bool lost_time_known;     /* lost_from/lost_to bound the time of what was lost */
	uint64_t lost_from, lost_to;
	char note[160];           /* why, in a few words (raw: sanitise before output) */
};

/*
 * The salvage account: one part per unit that holds events (a CPU of a buffer, a stream, a
 * task, a tracefile) and per metadata section (event formats, kallsyms, feature sections,
 * symbol files, TSDL metadata, ...), each kept, lost in part or lost. Every format fills it,
 * so that the totals say by kind what a salvage kept and lost, whatever the format.
 */
enum tfk_salvage_kind {
	TFK_SALVAGE_UNIT = 0,     /* holds events: kept/lost count them */
	TFK_SALVAGE_METADATA,     /* describes them: kept/lost count its entries where known */
};
enum tfk_salvage_state {
	TFK_SALVAGE_KEPT = 0,     /* all of it is in the output */
	TFK_SALVAGE_PART_LOST,    /* some of it is in the output, some was lost (or regenerated) */
	TFK_SALVAGE_LOST,         /* none of it is in the output */
};
struct tfk_salvage_part {
	enum tfk_salvage_kind kind;
	enum tfk_salvage_state state;
	char name[96];            /* "cpu1", "buffer net cpu0", "event formats", "task 1234", ... (raw: sanitise) */
	uint64_t kept, lost;      /* units: events counted kept and lost; metadata: entries, where counted */
	bool lost_unknown;        /* bytes were lost whose events (entries) could not be counted */
	uint64_t bytes_unknown;   /* those bytes, where known (0: not known) */
	char note[120];           /* why, in a few words (raw: sanitise) */
};

enum tfk_repair_outcome {
	TFK_REPAIR_NOTHING_TO_DO = 0, /* the input checks clean; nothing written but a copy */
	TFK_REPAIR_DONE,              /* a repaired file was written and re-checks clean */
	TFK_REPAIR_NOTHING_SALVAGED,  /* a file was written but holds none of the input's data */
	TFK_REPAIR_UNSUPPORTED,       /* not a trace this build can repair */
	TFK_REPAIR_FAILED,            /* internal error: the output did not re-check clean */
};

struct tfk_repair_report {
	enum tfk_repair_outcome outcome;
	struct tfk_report before;     /* the check of the input */
	struct tfk_report after;      /* the check of the output (when one was made) */
	struct tfk_salvage_cpu *cpus;
	size_t ncpus;
	uint32_t buffers;
	bool metadata_lost;           /* formats, kallsyms, ... that could not be kept */
	uint32_t options_dropped;
	char converted[32];           /* e.g. "trace.dat v7 (zstd) -> v6", or "" */
	int write_error;              /* tfk_repair_file: errno of a failed write to out_fd, else 0 */
	const char *reason;           /* UNSUPPORTED: why nothing could be written (static text), or NULL */
	bool perf_data;               /* a perf.data salvage: `perf` says what it kept and lost */
	struct tfk_salvage_perf perf;
	struct tfk_salvage_member *members; /* directory formats: one per member of the input */
	size_t nmembers;
	struct tfk_salvage_part *parts;     /* the account by kind, every format (tfk_salvage_sum sums it) */
	size_t nparts, parts_cap;           /* parts held, and allocated */
};

/*
 * Repair a trace held in memory. On TFK_REPAIR_DONE / NOTHING_SALVAGED *out holds the new
 * file (free() it); otherwise (NOTHING_TO_DO, UNSUPPORTED, FAILED: an output that would not
 * re-check clean) *out is NULL. Never modifies the input.
 */
void tfk_repair_buffer(const uint8_t *in, size_t size, const struct tfk_limits *limits, uint8_t **out, size_t *out_len,
		       struct tfk_repair_report *report);

/*
 * Repair the trace in the file at path (a regular file; never modified). With out_fd >= 0
 * the new file is written to out_fd (a regular file open for reading and writing, empty,
 * at offset 0) and re-checked from there; on NOTHING_TO_DO out_fd receives a copy of the
 * input. With out_fd < 0 (a dry run) nothing is stored: the output is re-checked through a
 * view whose unchanged pages are the input file's own. *out_len is the output's size (0 when
 * none was made). Memory stays small however large the file: pages are referenced, not copied.
 */
void tfk_repair_file(const char *path, int out_fd, const struct tfk_limits *limits, uint64_t *out_len,
		     struct tfk_repair_report *report);

/*
 * Repair the trace directory at in_dir (never modified) into a new directory out_dir: the
 * directory is checked, the format's plug-in writes the repaired members into a temporary
 * directory beside out_dir (unchanged members byte for byte), the result is re-checked, and
 * only an output that re-checks clean is renamed into place at once (out_dir must not exist,
 * be an empty directory, or be in_dir itself: then the input is replaced). out_dir NULL is a
 * dry run: the output is built and re-checked in a temporary directory in the system's
 * temporary folder, then removed. On NOTHING_TO_DO nothing is written. report->members says
 * what was kept and lost of every member; write_error is set when the output could not be
 * written (errno).
 */
void tfk_repair_dir(const char *in_dir, const char *out_dir, const struct tfk_limits *limits,
		    struct tfk_repair_report *report);

/*
 * The path of the temporary directory tfk_repair_dir builds out_dir's output in (out_dir NULL:
 * a dry run's), into buf: .tracefsck-PID.d beside it, one per process, so that a program's
 * signal handler can remove it (tfk_scratch_remove) when a run is stopped. A run killed
 * outright leaves it; the next repair into that folder removes it. 0, or -1 (too long).
 */
int tfk_repair_dir_scratch(const char *out_dir, char *buf, size_t n);

/*
 * Remove from the folder dir what repairs that died there left (SIGKILL): the temporary files
 * and directories named .tracefsck-PID.* of this user whose PID no longer runs. Repairs call
 * it on the folder they write into.
 */
void tfk_sweep_leftovers(const char *dir);

void tfk_repair_report_free(struct tfk_repair_report *report);

/* The salvage report summed over every CPU: what the text and JSON reports print as totals. */
struct tfk_salvage_totals {
	uint64_t events_kept, events_lost;   /* events lost: counted (their bytes were walked) */
	uint64_t pages_kept, pages_clipped, pages_dropped;
	uint64_t pages_missing;              /* past the end of the file: events in them unknown */
	uint64_t compressed_bytes_missing;   /* compressed chunks past the end of the file */
	uint64_t cpus_with_loss;
	bool no_buffer;                      /* no buffer's CPU table survived: what the data held is unknown */
	bool cut_short;                      /* the input was cut short (a finding repaired by truncation):
	                                        whatever lay past the cut, buffers and CPUs included, is unknown */
	bool members_loss_unknown;           /* a directory member dropped bytes whose events were not counted */
	/* The account (report->parts) by kind: units holding events and metadata sections. */
	uint64_t units, units_part_lost, units_lost;
	uint64_t metadata, metadata_part_lost, metadata_lost;
	uint64_t events_unknown_bytes;       /* bytes lost whose events could not be counted, where known */
	bool events_lost_uncounted;          /* a unit lost events that could not be counted */
	uint64_t events_without_format;      /* kept events whose format was lost: readers show them as unknown */
};
void tfk_salvage_sum(const struct tfk_repair_report *report, struct tfk_salvage_totals *totals);
/* Does the salvage report leave an unknown number of events lost (bytes gone or untrusted)? */
bool tfk_salvage_loss_unknown(const struct tfk_salvage_totals *totals);
const char *tfk_repair_outcome_name(enum tfk_repair_outcome outcome);

/*
 * The salvage report as JSON Lines: one {"type":"salvage_cpu",...} object for each CPU that
 * kept or lost anything, then one {"type":"salvage",...} object with the outcome and totals.
 */
int tfk_repair_report_jsonl(const struct tfk_repair_report *report, const char *name, tfk_write_fn write, void *user);

/*
 * The salvage report as text, as `tracefsck repair` prints it: what was kept and lost, in the
 * terms of the format repaired (pages and events of a trace.dat, samples and records of a
 * perf.data), each line beginning with name (sanitised). Nothing when no format was repaired.
 * 0, or -1 when write failed.
 */
int tfk_repair_report_text(const struct tfk_repair_report *report, const char *name, tfk_write_fn write, void *user);

#ifdef __cplusplus
}
#endif
#endif
