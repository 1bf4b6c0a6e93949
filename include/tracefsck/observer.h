/* SPDX-License-Identifier: MIT */
/*
 * The recovered model, as a stream: while checking, the library tells an observer every
 * structure it could read whole. repair/ builds its output from this and nothing else.
 * Pointers are valid only during the call (they may point into decoded data).
 */
#ifndef TRACEFSCK_OBSERVER_H
#define TRACEFSCK_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>

struct tfk_format; /* a format's descriptor: opaque outside the library */

#ifdef __cplusplus
extern "C" {
#endif

enum tfk_meta_kind {
	TFK_META_HEADER_PAGE = 0,  /* header_page text (only when it parsed) */
	TFK_META_HEADER_EVENT,     /* header_event text */
	TFK_META_FTRACE_FORMAT,    /* one ftrace event format text */
	TFK_META_SYSTEM,           /* an event system's name; its formats follow */
	TFK_META_EVENT_FORMAT,     /* one event format text of the last system */
	TFK_META_KALLSYMS,
	TFK_META_PRINTK,
	TFK_META_CMDLINES,
	TFK_META_LATENCY,          /* latency text of a latency buffer */
};

/* What the file says about its ring pages, as far as it could be proven. */
struct tfk_geometry {
	bool big_endian;
	uint32_t page_size;
	uint32_t commit_size;   /* 4 or 8 */
	uint32_t data_offset;   /* where events start in a page */
	uint8_t long_size;      /* user-space long size to write in a header (4 or 8) */
	unsigned version;       /* of the input: 6 or 7 */
};

enum tfk_page_state {
	TFK_PAGE_GOOD = 0,      /* commit and every event are valid */
	TFK_PAGE_CLIPPED,       /* events are valid up to good_len only */
	TFK_PAGE_BAD,           /* nothing in it can be trusted */
	TFK_PAGE_EMPTY,         /* valid, no committed data */
};

struct tfk_page_info {
	enum tfk_page_state state;
	uint32_t good_len;      /* committed bytes that walk cleanly */
	bool missed_events;     /* the kernel flagged lost events before this page */
	bool missed_stored;     /* and stored their count after the data */
	uint64_t missed_count;
	uint64_t events;        /* data events in the good part */
	uint64_t first_ts, last_ts; /* of the first and last data event of the good part (0 when none) */
	uint64_t payload_bytes; /* sum of the data events' payload sizes */
	/*
	 * Where the page lies in the input, or TFK_PAGE_DECODED when it came out of a decoder.
	 * The bytes handed to the callback are valid during the call only (they may be a copy
	 * read into a buffer); the input's own bytes are at this offset.
	 */
	uint64_t file_offset;
	uint64_t commit_word;   /* the page's commit word as it stands */
	bool tail_zero;         /* every byte after the data (and the stored missed count) is zero */
};

#define TFK_PAGE_DECODED UINT64_MAX

/*
 * Is one line (without its newline) of a kallsyms, printk or cmdlines text well formed?
 * The checker reports the lines that are not; repair keeps only the lines that are.
 */
bool tfk_meta_line_ok(enum tfk_meta_kind kind, const uint8_t *line, size_t len);

/* One structure of the file, for a structural map (tracefsck describe). */
enum tfk_item_kind {
	TFK_ITEM_FILE = 0,  /* the file header: format, byte order, sizes, compression */
	TFK_ITEM_SECTION,   /* a v7 section header and its body */
	TFK_ITEM_BLOB,      /* a metadata text (header_page, formats of a system, kallsyms, ...) */
	TFK_ITEM_OPTION,    /* one option */
	TFK_ITEM_BUFFER,    /* a buffer (flyrecord block or v7 BUFFER option) */
	TFK_ITEM_CPU,       /* one CPU's data range, with what its walk found */
};

struct tfk_item {
	enum tfk_item_kind kind;
	uint64_t offset, length;   /* in the file (of the compressed block for decoded data) */
	bool decoded;              /* the structure lies inside compressed data */
	uint32_t id;               /* section id, option id, CPU number */
	char name[64];             /* sanitised */
	char detail[160];          /* sanitised */
};

struct tfk_observer {
	void *user;
	void (*geometry)(void *user, const struct tfk_geometry *g);
	void (*meta)(void *user, enum tfk_meta_kind kind, const uint8_t *bytes, uint64_t len);
	/* Every option that passed its checks (DONE and section locators excluded). */
	void (*option)(void *user, uint16_t id, const uint8_t *payload, uint32_t len);
	/* A buffer's data begins: name "" is the top buffer; clock may be "". latency: text only. */
	void (*buffer)(void *user, const char *name, const char *clock, uint32_t page_size, bool latency);
	void (*cpu)(void *user, uint32_t cpu);
	/* One ring page of the current CPU, in file byte order, page_size bytes. */
	void (*page)(void *user, const uint8_t *page, const struct tfk_page_info *info);
	/* One structure for the map, in the order the check meets them. */
	void (*item)(void *user, const struct tfk_item *item);
	/*
	 * A format's own model, for its repair: what the format's private model header
	 * (validate/formats/<fmt>/<fmt>_model.h, or its shared module's) says it sends (format is the sending format's descriptor, the
	 * identity repair matches its plug-in by, never a name compared as text; kind one of
	 * its TFK_<FMT>_MODEL_* values, data a struct of that header, size its size). The
	 * callbacks above are the ftrace ring buffer's (trace.dat, and any format holding ring
	 * pages); a format with a model of its own adds a header, not a callback.
	 */
	void (*model)(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size);
	/*
	 * A CPU of the current buffer whose table entry declares data, before its pages (if any):
	 * the bytes declared and how many of them the file holds. compressed: the bytes are
	 * compressed chunks (no page count can be told from them). Lets repair say what was lost.
	 */
	void (*cpu_extent)(void *user, uint32_t cpu, uint64_t declared, uint64_t present, bool compressed);
	/*
	 * Send where every text field of every event lies, through model (a format that has such a
	 * message: CTF's TFK_CTF_MODEL_TEXT), for scrub. Such a check decodes every event the
	 * careful way, on one thread: slower, the same findings.
	 */
	bool payload_text;
};

#ifdef __cplusplus
}
#endif
#endif
