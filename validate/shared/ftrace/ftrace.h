/* SPDX-License-Identifier: MIT */
/* The ftrace checker state: trace.dat's passes and the formats that store ftrace pieces share it. */
#ifndef TFK_FTRACE_H
#define TFK_FTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../context.h"
#include "../../claims.h"
#include "../../cursor.h"
#include "tracefsck/observer.h"
#include "tracefsck/sink.h"

#define TD_MAGIC "\x17\x08\x44tracing"
#define TD_MAGIC_LEN 10
#define TD_TAG_LEN 10 /* "options  \0", "latency  \0", "flyrecord\0" */

/* A byte range some structure claims, for overlap and coverage checks. */

/* Ring page geometry, from header_page (or the fallbacks). */
struct td_geometry {
	uint32_t page_size;    /* bytes per ring page */
	uint32_t commit_size;  /* 4 or 8 */
	uint32_t data_offset;  /* D: where events start in a page */
};

#define TD_MAX_DYN 8
#define TD_TEP_CHILDREN 2 /* libtraceevent children parsing at once */
/* The kernel's PID_MAX_LIMIT: no pid in a record is above it (-1 is the idle task's). */
#define TD_PID_MAX_LIMIT 4194304u
#define TD_MAX_COMMON 8

/* What the page walk needs of one event format. */
struct td_event_fmt {
	uint16_t id;
	uint16_t fixed;         /* bytes of the fixed fields (last offset + size) */
	uint32_t need;          /* bytes a record needs for every field the page walk reads */
	bool valid;             /* its fields passed the checks */
	bool has_pid;
	uint16_t pid_offset;
	uint8_t ndyn;
	struct {
		uint16_t offset;
		bool relative, string;
	} dyn[TD_MAX_DYN];
	/*
	 * A last field that is an array the kernel fills only in part, its entry count in a
	 * field named "size" before it (ftrace's kernel_stack: "int size; unsigned long caller[8]"):
	 * records hold `size` entries, not the declared number. tail_elem 0: none.
	 */
	uint16_t tail_offset, tail_elem, count_offset;
	uint8_t count_size;
	char name[64];          /* "system/event", sanitised */
};

struct td_walk_range;
struct td_file;

/*
 * The ftrace checker: what the metadata readers, the event-format grammar and the ring page
 * walker know of one trace (trace.dat's, a perf tracing-data bundle, uftrace's kernel pages).
 */
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

	/* trace.dat's own part (formats/tracedat/tracedat.h): NULL for the other formats */
	struct td_file *dat;

	struct tfk_claims claims;    /* what every structure read occupies (claims.h) */
	uint64_t lost_at;           /* where the sequential walk was last lost, to resume after */

	/* compressed CPU data (walk_chunks): each walk's own buffer and decoder */
	uint8_t *chunk_buf;         /* reused for every decoded CPU chunk */
	uint64_t walked;            /* bytes of CPU data the tables had walked (td_walk_allowed) */
	bool walk_capped;           /* and a range was skipped for it */
	void *decode_state;         /* the codec context reused for every chunk */
	/*
	 * How a range of compressed chunks (r->chunks) is decoded and walked: the format that
	 * stores pages that way sets it (trace.dat v7); NULL elsewhere.
	 */
	void (*walk_chunks)(struct td_check *td, const struct td_walk_range *r);
	size_t chunk_cap;

	/* formats that passed the grammar, kept for the guarded libtraceevent parse */
	char *fmt_text;             /* each text followed by a NUL */
	size_t fmt_text_len, fmt_text_cap;
	struct td_fmt_ref {
		size_t start, len;
		uint64_t offset;    /* file offset (of the compressed block when decoded) */
		bool decoded;
		uint64_t decoded_offset;
		char system[48];
		char name[48];
		bool rejected;      /* libtraceevent could not parse it (reported once for all, as a note) */
		bool known;         /* rejected came from the run's format memo: no child asks again */
		uint8_t key[16];    /* its name in the memo (with a memo only) */
	} *fmt_refs;
	size_t nfmt_refs, fmt_refs_cap;
	size_t memo_upto;           /* formats [0, memo_upto) were looked up in the memo */
	/*
	 * The libtraceevent children started ahead of the page walk (td_parse_ahead), if any: with
	 * worker threads allowed, the formats split between two, each parsing on a core of its own.
	 */
	struct td_tep_child {
		int pid, fd;        /* pid 0: none running */
		void *shared;       /* its progress, mapped shared (ftrace_tep_guard.c) */
		size_t shared_len;
		size_t from, end;   /* the formats it parses */
		int64_t forked_ms;
	} tep[TD_TEP_CHILDREN];

	/*
	 * Records of ids without a format are counted here instead of reported one by one: set
	 * for ring pages whose writer is known to leave formats out (ftrace_rings.h).
	 */
	bool count_unknown_ids;
	uint64_t unknown_ids, first_unknown_at;
	uint16_t first_unknown_id;

	/* event formats */
	uint32_t *event_index;      /* 65536 entries: id -> events[] index + 1, or 0 */
	struct td_event_fmt *events;
	size_t nevents, events_cap;
	bool have_common;
	uint8_t ncommon;
	struct {
		char name[32];
		uint32_t offset, size;
	} common[TD_MAX_COMMON];
};

/*
 * Metadata readers shared by v6 (src = the file) and v7 (src = a section body, decoded or
 * not). pos is relative to src; each returns false when the walk cannot continue.
 */
/* header_page / header_event (v6 items a-f; v7 HEADER_INFO) */
bool td_check_headers(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos);
/* u32 count, then count u64-sized format texts (v6 items g-h; v7 FTRACE_EVENTS) */
bool td_check_ftrace_formats(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos);
/* u32 systems, each a name, a u32 count and format texts (v6 items i-j; v7 EVENT_FORMATS) */
bool td_check_event_systems(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos);
/* a u32 at *pos, stepped over (a short src is reported as td_overrun does) */
bool td_read_u32(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, uint32_t *v, const char *what);
/* a size-prefixed text (size field of width 4 or 8 bytes): kallsyms, printk, cmdlines */
bool td_check_text_blob(struct td_check *td, const struct tfk_cursor *src, uint64_t *pos, unsigned width,
			const char *what, enum tfk_meta_kind kind);
/* A check of file starting from nothing known. */
void td_check_init(struct td_check *td, struct tfk_ctx *ctx, const struct tfk_cursor *file);
/* Free what a check allocated in td. */
void td_check_release(struct td_check *td);

/* Parse header_page text into td->hp_*; reports header-page.invalid. */
void td_parse_header_page(struct td_check *td, const struct tfk_cursor *text);
void td_check_header_event(struct td_check *td, const struct tfk_cursor *text);
/* Ring pages of a file are read by descriptor in windows of this many bytes (a buffer in L2). */
#define TD_READ_WINDOW (256u << 10)
/* Pages read through the mapping are handed back to the kernel in steps of this many bytes. */
#define TD_RELEASE_STEP (4u << 20)

/*
 * Mapped bytes read and done with, handed back to the kernel behind the reader (tfk_release)
 * once TD_RELEASE_STEP of them are contiguous, or when flushed (p NULL).
 */
struct td_behind {
	const uint8_t *start;
	uint64_t len;
};
void td_behind(struct tfk_ctx *ctx, struct td_behind *b, const uint8_t *p, uint64_t n);

/* Labels of buffers in paths: "" or "buffer NAME " */
#define TD_LABEL_MAX 80

/*
 * One CPU's data, walked whole: what td_walk_range needs and a prewalk matches on. Either
 * uncompressed pages, or (chunks) a v7 chunk stream, each chunk decoded on the walking thread
 * with that thread's own decoder context.
 */
struct td_walk_range {
	struct tfk_cursor data;     /* whole pages; or the chunk stream, from its count, as the file holds it */
	struct tfk_cursor cut;      /* the bytes of a page the end of the file cut, after them (len 0: none) */
	const char *buffer;         /* "" or "buffer NAME " */
	uint32_t cpu;
	uint64_t item_offset, item_length; /* the CPU's range, for the structural map */
	bool unobserved;            /* findings only: the pages are not the CPU's (a misaligned entry) */
	/* chunks only: the entry that declared the stream, and what it says the chunks occupy */
	bool chunks;
	const char *kind;           /* "BUFFER" or "BUFFER_TEXT": the option, for the entry's findings */
	uint64_t entry_at, declared;
};

/*
 * The range a CPU entry (offset, size) locates in the file: clipped to the file, its data
 * whole pages, item_length what the file holds of it. False when offset + size overflows or
 * the offset is past the end of the file.
 */
bool td_range_of(const struct td_check *td, uint64_t offset, uint64_t size, const char *buffer, uint32_t cpu,
		 struct td_walk_range *r);

/* The page walk of one CPU; its state carries over between chunks of compressed data. */
struct td_cpu_walk {
	struct td_check *td;
	const char *buffer;     /* "" or "buffer NAME " */
	uint32_t cpu;
	uint64_t page;          /* index of the page being walked, over all chunks */
	bool have_ts;
	uint64_t last_ts;       /* timestamp of the last event (or page) seen on this CPU */
	uint64_t events;
	uint64_t no_format;       /* events whose id names no format (tfk_stats.events_no_format) */
	uint64_t lost_pages, lost_events, first_lost_at;
	bool lost_unknown;
	bool split_on_time_drop;  /* CPU unknown: a page timestamp that drops starts the next CPU */
	uint64_t zero_run, zero_mid, first_zero_at; /* all-zero pages: pending, between data pages */
	uint64_t item_offset, item_length;  /* the CPU's range, for the structural map */
	bool quiet;               /* classify only: no findings, no observer */
	bool cut;                 /* walking what the end of the file left of a page: no findings */
	struct td_behind behind;  /* walked bytes not yet handed back */
	bool unobserved;          /* findings only: the pages are not the CPU's (a misaligned table entry) */
	struct tfk_page_info last;/* what the last walked page turned out to be */
	/* last: a quiet walk (a scan's, once per page) reports nothing and leaves it alone */
	struct tfk_place place;   /* findings of one code on this CPU, capped */
};

/* One format text of system ("ftrace" for ftrace formats): grammar, fields, the id table. */
void td_check_format(struct td_check *td, const struct tfk_cursor *text, const char *system);
/* Lines of a kallsyms, printk or cmdlines text against their pattern (tfk_meta_line_ok). */
void td_check_meta_lines(struct td_check *td, const struct tfk_cursor *text, enum tfk_meta_kind kind, const char *what);
/* Keep an accepted format text for td_guarded_parse. */
void td_keep_format(struct td_check *td, const struct tfk_cursor *text, const char *system, const char *name);
/* Parse the kept formats with libtraceevent in a child process; crashes and hangs become findings.
 * (In process instead with the parse_in_process test hook: the fuzz harnesses, same findings.) */
void td_guarded_parse(struct td_check *td);
/* Start that child now, on the formats kept so far, so that it parses while the pages are walked;
 * td_guarded_parse collects its answers (and td_check_release ends it when never collected). */
void td_parse_ahead(struct td_check *td);
void td_parse_abandon(struct td_check *td);
/*
 * One data record against its format; fault() reports through the walk's per-CPU caps.
 * False when the record itself is damaged (not for warnings such as an unknown id).
 */
bool td_check_record(struct td_cpu_walk *w, const struct tfk_cursor *area, uint64_t payload, uint64_t len,
		     uint64_t event_at,
		     struct tfk_finding *(*fault)(struct td_cpu_walk *, enum tfk_fault_code, uint64_t, uint64_t));

/* Is this page valid on its own (for scans): plausible, every event sound, zero tail? */
bool td_page_valid(struct td_check *td, const struct tfk_cursor *page, uint64_t *ts);

void td_cpu_walk_begin(struct td_cpu_walk *w, struct td_check *td, const char *buffer, uint32_t cpu);
/* Walk every whole page of data (a view of raw or decoded ring pages). */
void td_cpu_walk_pages(struct td_cpu_walk *w, const struct tfk_cursor *data);
void td_cpu_walk_end(struct td_cpu_walk *w);
/*
 * Table entries may claim the same bytes again and again (overlapping or repeated entries):
 * a hostile table could have one gigabyte walked thousands of times. CPU data the tables
 * have walked is capped at twice the file's size; a range that would go beyond is a limit
 * reached (reported once) and is not walked. *walked is the running total to check against
 * (td->walked, or a copy when planning ahead); true, and it grows by len, when len fits.
 */
bool td_walk_fits(const struct td_check *td, uint64_t *walked, uint64_t len);
bool td_walk_allowed(struct td_check *td, uint64_t len, uint64_t at);

/* All three for one range, on this thread. */
void td_walk_range_here(struct td_check *td, const struct td_walk_range *r);
/* Helpers */

/* Report a structure of `need` bytes at `offset` that runs past EOF. */
void td_truncated(struct td_check *td, uint64_t offset, uint64_t need, const char *what);
/*
 * A structure of `need` bytes at src-relative pos runs past the end of src: past the end of
 * the file (tracedat.file.truncated) or of its section (tracedat.section.overrun).
 */
void td_overrun(struct td_check *td, const struct tfk_cursor *src, uint64_t pos, uint64_t need, const char *what);
/* Infer geometry for the page walker from header_page and the header. */
void td_settle_geometry(struct td_check *td);

#endif
