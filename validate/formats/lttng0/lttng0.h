/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x tracefiles (spec other-formats.md §3): the 2008 layout ("LTF 1.x": a 40-byte
 * block header, then the 69-byte packed trace header with the magic at block offset 40) and the
 * LTF 2.x sub-buffer header (magic at offset 16). State shared by the checker's files.
 */
#ifndef TFK_LTTNG0_H
#define TFK_LTTNG0_H

#include <stdbool.h>
#include <stdint.h>

#include "../../context.h"
#include "../../cursor.h"
#include "../../input.h"
#include "../formats.h"
#include "lttng0_model.h"

#define L0_MAGIC 0x00D6B7EDu
#define L0_V1_MAGIC_AT 40u   /* §3.2: trace header at block offset 40, magic first */
#define L0_V1_HEADER 109u    /* §3.2: 40-byte block header + 69-byte packed trace header */
#define L0_V2_MAGIC_AT 16u   /* §3.3 */
#define L0_V2_HEADER 68u     /* §3.3: ltt_subbuffer_header_2_6 up to header_end */
#define L0_V2_PAGE 4096u     /* §3.5: sb_size is page aligned (4 KiB pages assumed) */

/* LTF 2.x minor versions whose layout is known (REAL-TRACES.md): 2.3 .. 2.6. */
#define L0_V2_MINOR_MIN 3u
#define L0_V2_MINOR_MAX 6u
/* Before 2.5 the header's fill fields are lost_size and buf_size (fixed-size sub-buffers). */
static inline bool l0_lost_form(uint8_t minor)
{
	return minor < 5;
}
/* 2.4 and 2.5 aligned a type on its own size; 2.3 and 2.6 on min(size, alignment). */
static inline bool l0_natural_align(uint8_t minor)
{
	return minor == 4 || minor == 5;
}

/* One block's header, both layouts (fields of the other layout stay 0). */
struct l0_header {
	uint64_t tsc_begin, tsc_end;
	uint32_t size;              /* buf_size (1.x, 2.3, 2.4) or sb_size (2.5, 2.6) */
	uint32_t lost_size;         /* 1.x, 2.3, 2.4: bytes unused at the end of the block */
	uint32_t data_size;         /* 2.5, 2.6 */
	bool lost_form;             /* 2.x before 2.5: the fields at 52 and 56 are lost_size and buf_size */
	uint32_t events_lost, subbuf_corrupt; /* 2.x, cumulative */
	uint8_t major, minor, arch_size, alignment;
	uint8_t has_heartbeat, flight_recorder, tscbits, compact_data_shift; /* 1.x */
	uint8_t tsc_lsb_truncate;   /* 1.x: compact words hold the TSC shifted right by this */
	uint32_t freq_scale;
	uint64_t start_freq;
};

/* How the events of a tracefile are laid out, from a header whose fields are sound. */
struct l0_params {
	uint8_t layout;             /* 1 or 2 */
	uint8_t arch_size, alignment;
	bool natural;               /* LTF 2.4 and 2.5: a type aligns on its own size, not min(size, alignment) */
	bool heartbeat;             /* 1.x: 32-bit event timestamps */
	bool compact;               /* 1.x compact tracefile: one u32 per event */
	bool tsc_bounds;            /* the block's cycle counts are sound: events' full TSCs lie within them */
	uint8_t tscbits, tsc_truncate; /* 1.x compact tracefiles: the TSC bits of a word, and their shift */
	bool sound;                 /* the block's header is sound: repair keeps its whole events, so its
	                               marker records count (a dropped block's would vanish from the output) */
};

/*
 * Marker metadata (spec §3.1 and §3.3; the 2008 document's "facilities" files): the core
 * marker_id event (id 0) gives a marker's numeric id and the sizes of int, long, pointer and
 * size_t; the core marker_format event (id 1) its printf-like format, from which the size of
 * an event that does not carry one is computed field by field.
 */
#define L0_MAX_FIELDS 32      /* fields of one format; a longer format is reported */
#define L0_MAX_MARKERS 4096   /* markers kept for one trace (LTTng 0.x kernels had a few hundred) */
#define L0_MAX_CPUS 4096    /* CPUs counted for the summary (the _N suffixes of the tracefiles) */
#define L0_NAME_MAX 256       /* bytes kept of a channel or marker name, NUL included (LTTV has no limit) */

/* A field's class (low 4 bits) and, for L0F_FIXED, its size in bytes (high 4 bits). */
enum { L0F_FIXED = 0, L0F_INT, L0F_LONG, L0F_PTR, L0F_SIZE_T, L0F_STRING };
#define L0F_CLASS(f) ((f) & 0x0F)
#define L0F_SIZE(f) ((f) >> 4)

struct l0_marker {
	char channel[L0_NAME_MAX], name[L0_NAME_MAX];
	uint16_t id;
	bool has_id, has_format;
	uint8_t sizes[4];          /* int, long, pointer, size_t (from marker_id; arch defaults before) */
	uint8_t align;             /* the marker's own alignment (marker_id's last byte): its fields align on it */
	bool core;                 /* a core marker event: aligned by the header's alignment */
	uint8_t nfields;
	uint8_t fields[L0_MAX_FIELDS];
};

struct l0_markers {
	struct l0_marker *m;
	size_t n, cap;
	bool full;                 /* the cap was hit (reported once) */
	/*
	 * Event id -> marker of one channel (65536 entries, -1 for none), rebuilt when the channel
	 * or the markers change, so that a lookup costs the same however many markers there are.
	 */
	int32_t *index;
	char index_channel[L0_NAME_MAX];
	uint64_t gen, index_gen;   /* bumped at every change of the markers; the index's */
	bool index_cover;          /* the channel has a marker with an id and a format */
};

/*
 * Parse a marker format into fields; -1 when it can be sized, else the offset of the bad byte.
 * The grammar is the tracer's: "#" trace types ([n]* qualifier? type, e.g. "#2u", "#p", "#1u")
 * give the recorded size of the "%" conversion that follows ("#p%lu" is a pointer-sized field).
 */
long l0_format_parse(const char *fmt, size_t len, uint8_t *fields, uint8_t *nfields);

/* The offset of a '#' trace type with no type after it ("#1%d": the tracer records no field), or -1. */
long l0_format_typeless(const char *fmt, size_t len);

/* The marker given id in the channel (its format perhaps unknown), or NULL. */
const struct l0_marker *l0_marker_find(struct l0_markers *mk, const char *channel, uint16_t id);
/* Does any marker of the channel have an id and a format (ids can be checked against them)? */
bool l0_markers_cover(struct l0_markers *mk, const char *channel);
void l0_markers_free(struct l0_markers *mk);

/* What stays the same across the blocks of every tracefile of one trace. */
struct l0_trace {
	bool have_ref;
	uint8_t layout;
	bool big_endian;
	uint8_t ref[L0_V1_HEADER];  /* the reference block's header bytes */
	const char *ref_member;     /* where it came from ("" for a single file) */
	uint64_t events;
	struct l0_markers markers;  /* read from the metadata tracefiles, which are checked first */
	const char *channel;        /* LTF 2.x channel of the tracefile being walked ("" for 1.x or alone) */
	const char *member;         /* the tracefile's name in the directory ("" alone), for the map */
	uint32_t cpu;               /* its CPU (the name's _N suffix; 0 alone) */
	bool meta;                  /* it is a metadata tracefile: ids 0 and 1 are the core marker events */
	uint8_t alignment;          /* the header's alignment of the block being walked */
	uint8_t major, minor;       /* and its version */
	/* Findings of one code in the tracefile being walked: listed up to max_per_place, then counted. */
	struct tfk_place place;
};

/* tfk_emit within the tracefile's quota of findings per code; NULL once it is spent. */
struct tfk_finding *l0_emit(struct tfk_ctx *ctx, struct l0_trace *t, enum tfk_fault_code code, uint64_t offset,
			    uint64_t length);

/* The result of walking one block's events. */
struct l0_walk {
	uint64_t events;
	uint64_t good_end;          /* block-relative end of the last whole event */
	bool overrun;               /* an event crossed the fill limit (reported) */
	bool cut;                   /* the walk met the end of the file */
	bool unknown;               /* an event of unknown size stopped the walk (reported) */
};

/* 1 (2008) or 2 (LTF 2.x) when a block header begins at `at`, with its byte order; else 0. */
int l0_detect(const struct tfk_cursor *c, uint64_t at, bool *big_endian);

/* Read the header of the block at view-relative `at` (the view holds the whole header). */
void l0_read_header(const struct tfk_cursor *c, uint64_t at, uint8_t layout, struct l0_header *h);

/* Report out-of-range fields of the header at `at`; false when any was. */
bool l0_check_fields(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t at, uint8_t layout,
		     const struct l0_header *h, uint64_t block);
/* Report a header differing from the trace's reference; false when it does. */
bool l0_check_same(struct tfk_ctx *ctx, const struct tfk_cursor *c, uint64_t at, struct l0_trace *t, uint64_t block);

/*
 * A core marker event's fields, read from the tracefile at their offsets (view-relative), into
 * the trace's markers; id is 0 (marker_id) or 1 (marker_format). Faults are reported.
 */
void l0_marker_record(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint8_t layout, uint16_t id,
		      const uint64_t *offs, uint8_t arch_size);
/* The fields of core marker event id (0 or 1) of the layout. */
const struct l0_marker *l0_core_marker(uint8_t layout, uint16_t id);

/* Walk the events of one block, [first, fill) block-relative, the block being `block_len` bytes here. */
void l0_walk_events(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t at, uint64_t fill, uint64_t block_len,
		    const struct l0_params *p, const struct l0_header *h, uint64_t block, struct l0_walk *w);

/* Check one tracefile (the whole view); compact: a 1.x compact tracefile (by its name). */
void l0_check_tracefile(struct tfk_ctx *ctx, const struct tfk_cursor *file, struct l0_trace *t, bool compact);

/* The directory format's entry points (lttng0_dir.c). */
int l0_sniff_dir(const struct tfk_input *in);
void l0_check_dir(struct tfk_ctx *ctx, const struct tfk_input *in);

/* The format's model messages drawn on a picture (lttng0_picture.c). */
void l0_picture(struct tfk_picture *picture, uint32_t kind, const void *data, size_t size);

#endif
