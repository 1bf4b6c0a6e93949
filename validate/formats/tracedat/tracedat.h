/* SPDX-License-Identifier: MIT */
/* trace.dat checker: state shared by its passes. */
#ifndef TFK_TRACEDAT_H
#define TFK_TRACEDAT_H

#include <stdbool.h>
#include <stdint.h>

#include "../../context.h"
#include "../../cursor.h"
#include "tracefsck/sink.h"

#define TD_MAGIC "\x17\x08\x44tracing"
#define TD_MAGIC_LEN 10
#define TD_TAG_LEN 10 /* "options  \0", "latency  \0", "flyrecord\0" */

/* A byte range some structure claims, for overlap and coverage checks. */
struct td_range {
	uint64_t start, end;
	char label[40];
	bool is_cpu_data;
};

/* A v6 instance announced by a BUFFER option. */
struct td_instance {
	uint64_t offset;      /* of its flyrecord/latency tag */
	uint64_t opt_offset;  /* of the option that announced it */
	char name[64];        /* sanitised */
};

/* Ring page geometry, from header_page (or the fallbacks). */
struct td_geometry {
	uint32_t page_size;    /* bytes per ring page */
	uint32_t commit_size;  /* 4 or 8 */
	uint32_t data_offset;  /* D: where events start in a page */
};

struct td_check {
	struct tfk_ctx *ctx;
	struct tfk_cursor file;     /* the whole file, in its byte order */
	uint64_t size;
	unsigned version;           /* 6 or 7, as the structure shows */

	/* initial header */
	uint8_t long_size;          /* header byte 13 */
	uint32_t header_page_size;  /* header u32 at 14, as found */
	bool header_page_size_ok;

	/* header_page */
	bool hp_ok;
	uint64_t hp_offset;         /* of the header_page text */
	uint32_t hp_commit_size, hp_data_offset, hp_page_size;

	struct td_geometry geo;     /* what the page walker uses */

	/* CPU counts */
	bool have_hdr_cpus;
	uint32_t hdr_cpus;
	uint64_t hdr_cpus_offset;
	bool have_cpucount;
	uint32_t cpucount;          /* last CPUCOUNT option wins, as in libtracecmd */
	uint64_t cpucount_offset;
	bool have_traceclock;
	uint32_t top_cpustats;      /* CPUSTAT options before the first "Buffer:" separator */
	uint64_t first_cpustat;     /* offset of the first one */
	bool cpustat_instances;     /* a "Buffer:" separator was seen */

	struct td_instance *instances;
	size_t ninstances, instances_cap;

	struct td_range *ranges;
	size_t nranges, ranges_cap;
	uint64_t meta_end;          /* end of the metadata before the first flyrecord block */
	uint64_t top_tag_offset;    /* of the top flyrecord/latency tag, or UINT64_MAX */
	uint64_t lost_at;           /* where the sequential walk was last lost, to resume after */
};

/* Passes, in file order. Each reports what it finds and leaves the rest to the next. */
int td_sniff(const struct tfk_cursor *file);
/* Initial header; returns false when the file cannot be walked further. */
bool td_check_initial(struct td_check *td, uint64_t *next);
/* header_page / header_event blobs (v6 items a-f), from *pos; false when the walk is lost. */
bool td_check_headers(struct td_check *td, uint64_t *pos);
/* Parse header_page text into td->hp_*; reports header-page.invalid. */
void td_parse_header_page(struct td_check *td, const struct tfk_cursor *text);
void td_check_header_event(struct td_check *td, const struct tfk_cursor *text);
/* The v6 metadata after the headers: formats, kallsyms, printk, cmdlines, CPU count. */
bool td_check_v6_metadata(struct td_check *td, uint64_t *pos);
/* The v6 tags after the CPU count: options, latency, flyrecord. */
void td_check_v6_tail(struct td_check *td, uint64_t pos);
/* One option's payload (shared by v6 and v7). payload is a view of exactly its bytes. */
void td_check_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload);
/* A v6 flyrecord block starting after its tag at pos; name is "" for the top instance. */
void td_check_flyrecord(struct td_check *td, uint64_t pos, const char *buffer_name);
/* Overlap and coverage checks over every claimed range; run once at the end. */
void td_check_ranges(struct td_check *td);

/* Walk the pages of one CPU's data view. */
void td_walk_cpu(struct td_check *td, const struct tfk_cursor *data, const char *buffer_name, uint32_t cpu);

/* Helpers */
bool td_add_range(struct td_check *td, uint64_t start, uint64_t end, bool is_cpu_data, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Report a structure of `need` bytes at `offset` that runs past EOF. */
void td_truncated(struct td_check *td, uint64_t offset, uint64_t need, const char *what);
/* Infer geometry for the page walker from header_page and the header. */
void td_settle_geometry(struct td_check *td);

#endif
