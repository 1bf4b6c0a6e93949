/* SPDX-License-Identifier: MIT */
/*
 * trace.dat's own passes (initial header, v6 tags, v7 sections and options, CPU tables,
 * compressed chunks, scans and walks ahead) over the ftrace checker state they share with
 * the formats that store ftrace pieces (shared/ftrace/ftrace.h).
 */
#ifndef TFK_TRACEDAT_H
#define TFK_TRACEDAT_H

#include "shared/ftrace/ftrace.h"

/* A v6 instance announced by a BUFFER option. */
struct td_instance {
	uint64_t offset;      /* of its flyrecord/latency tag */
	uint64_t opt_offset;  /* of the option that announced it */
	char name[64];        /* sanitised */
};

/* A v7 section header, as walked or as found at an option's target. */
struct td_section {
	uint64_t offset;       /* of the 16-byte header */
	uint64_t size;         /* body size as declared */
	uint64_t avail;        /* body bytes present in the file */
	uint16_t id, flags;
	int32_t desc;
	bool reached;          /* an option (or the DONE chain) points at it */
	bool checked;          /* its content was checked */
};

/* A v7 BUFFER or BUFFER_TEXT option, kept until the options chain has been read. */
struct td_buffer_opt {
	uint16_t id;
	uint64_t opt_offset;
	struct tfk_cursor payload;
};

/*
 * trace.dat's own part of a check (td_check.dat): what its header, options, sections and
 * tables say, apart from the ftrace state the shared readers and walker use.
 */
struct td_file {
	/* CPU counts */
	bool have_hdr_cpus;
	uint32_t hdr_cpus;
	uint64_t hdr_cpus_offset;
	bool have_cpucount;
	uint32_t cpucount;          /* last CPUCOUNT option wins, as in libtracecmd */
	uint64_t cpucount_offset;
	bool have_traceclock;
	char clock[32];             /* the clock the data was recorded with, for the observer */
	char writer[48];            /* the VERSION option's text (trace-cmd's version), sanitised; "" if none */
	bool size_form_noted;
	bool zero_sizes_noted;      /* trace-cmd 3.3.1's zero compression sizes were reported */
	bool last_boot;             /* a LAST_BOOT_INFO option: an instance holds the previous boot's events */       /* the pre-3.2 compressed CPU size form was reported (once a file) */
	uint32_t top_cpustats;      /* CPUSTAT options before the first "Buffer:" separator */
	uint64_t first_cpustat;     /* offset of the first one */
	bool cpustat_instances;     /* a "Buffer:" separator was seen */

	struct td_instance *instances;
	size_t ninstances, instances_cap;

	uint64_t meta_end;          /* end of the metadata before the first flyrecord block */
	uint64_t top_tag_offset;    /* of the top flyrecord/latency tag, or UINT64_MAX */

	/* v7 */
	int codec;                  /* enum tfk_codec */
	struct td_section *sections;
	size_t nsections, sections_cap;
	struct td_buffer_opt *buffer_opts;
	size_t nbuffer_opts, buffer_opts_cap;
	uint64_t strings_len;       /* bytes of all STRINGS sections, decoded */
	bool walk_complete;         /* the section walk ended exactly at the end of the file */
	size_t derailed_from;       /* sections walked before an implausible header (0: none met) */
	bool unsupported_reported;
	struct td_prewalk *prewalk; /* CPUs being walked ahead, or NULL */
};

/* Free what a check of trace.dat allocated in f. */
void td_file_release(struct td_file *f);

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

/*
 * trace-cmd 3.3.1 on big-endian machines wrote compression sizes as 0: whether the u32 pair at
 * view-relative at is {0, 0} followed by a frame of the file's codec (tracedat_buffer_v7.c).
 */
bool td_zero_sized_block(const struct td_check *td, const struct tfk_cursor *c, uint64_t at);
/* Report that quirk, once a file; offset is the first zero size met. */
void td_note_zero_sizes(struct td_check *td, uint64_t offset, const char *where);

/* A BTF_FILE section's decoded body: a BTF header (magic 0xeb9f) and the areas it names. */
void td_check_btf(struct td_check *td, uint64_t section_offset, const struct tfk_cursor *body);

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
