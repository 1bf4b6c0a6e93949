/* SPDX-License-Identifier: MIT */
/*
 * trace.dat's own passes (initial header, v6 tags, v7 sections and options, CPU tables,
 * compressed chunks, scans and walks ahead) over the ftrace checker state they share with
 * the formats that store ftrace pieces (shared/ftrace/ftrace.h).
 */
#ifndef TFK_TRACEDAT_H
#define TFK_TRACEDAT_H

#include "shared/ftrace/ftrace.h"

/* Passes, in file order. Each reports what it finds and leaves the rest to the next. */
int td_sniff(const struct tfk_cursor *file);
/* Initial header; returns false when the file cannot be walked further. */
bool td_check_initial(struct td_check *td, uint64_t *next);

/* The v6 metadata after the headers: formats, kallsyms, printk, cmdlines, CPU count. */
bool td_check_v6_metadata(struct td_check *td, uint64_t *pos);
/* The v6 tags after the CPU count: options, latency, flyrecord. */
void td_check_v6_tail(struct td_check *td, uint64_t pos);
/* One option's payload (shared by v6 and v7). payload is a view of exactly its bytes. */
void td_check_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload);
/* A v6 flyrecord block starting after its tag at pos; name is "" for the top instance. */
void td_check_flyrecord(struct td_check *td, uint64_t pos, const char *buffer_name);
/* Overlap checks over every claimed range, and (v6) bytes after the last one; run once at the end. */
void td_check_ranges(struct td_check *td, bool trailing);

/* The version 7 walk: everything after the initial header. */
void td_check_v7(struct td_check *td, uint64_t pos);
/* v7 options that name sections or buffers (called by td_check_option). */
void td_v7_section_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload);
void td_v7_buffer_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload);
/* Check one v7 BUFFER / BUFFER_TEXT option and the data it describes. */
void td_check_buffer_v7(struct td_check *td, const struct td_buffer_opt *opt);
/* Find the section whose header starts at offset (walked, or read there); NULL if none fits. */
struct td_section *td_section_at(struct td_check *td, uint64_t offset);
/* found = what a section pointer hits: a section of another kind, the end of the file, nothing. */
void td_set_found_target(const struct td_check *td, struct tfk_finding *f, uint64_t target, const struct td_section *s);
/* Check the data of a BUFFER section no option reaches, as far as it describes itself. */
void td_scan_orphan_buffer(struct td_check *td, const struct td_section *s);

/* A file range a buffer's CPU table entry claims. */
struct td_used_range {
	uint64_t start, end;
};

/*
 * The table lost some CPUs' pages: find the pages of [from, to) that are valid on their own
 * and outside every used range (the ranges any buffer's table claims; sorted and merged here,
 * in place), and walk their runs as the lost CPUs (tracedat_scan.c).
 * Returns how many pages were found.
 */
uint32_t td_scan_lost_pages(struct td_check *td, uint64_t from, uint64_t to, struct td_used_range *used,
			    uint32_t nused, const uint32_t *lost_ids, uint32_t nlost, uint32_t ncpu, const char *buffer);

/* All three for one range: its walk from a prewalk when one took it, else walked now. */
void td_walk_range(struct td_check *td, const struct td_walk_range *r);

/* A chunk stream (r->chunks), decoded and walked on this thread (tracedat_buffer_v7.c). */
void td_walk_chunks_here(struct td_check *td, const struct td_walk_range *r);

/*
 * Walk the ranges a buffer's entry loop is about to ask td_walk_range for on worker threads
 * (tracedat_prewalk.c). Nothing happens unless limits.threads > 1; an observer hears the
 * walks in file order all the same.
 * td_prewalk_take answers one range from its finished walk; td_prewalk_finish ends it.
 */
void td_prewalk_start(struct td_check *td, const struct td_walk_range *ranges, size_t n);
bool td_prewalk_take(struct td_check *td, const struct td_walk_range *r);
void td_prewalk_finish(struct td_check *td);

#endif
