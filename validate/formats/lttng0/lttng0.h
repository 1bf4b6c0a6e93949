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
#include "tracefsck/formats/lttng0.h"

#define L0_MAGIC 0x00D6B7EDu
#define L0_V1_MAGIC_AT 40u   /* §3.2: trace header at block offset 40, magic first */
#define L0_V1_HEADER 109u    /* §3.2: 40-byte block header + 69-byte packed trace header */
#define L0_V2_MAGIC_AT 16u   /* §3.3 */
#define L0_V2_HEADER 68u     /* §3.3: ltt_subbuffer_header_2_6 up to header_end */
#define L0_V2_PAGE 4096u     /* §3.5: sb_size is page aligned (4 KiB pages assumed) */

/* One block's header, both layouts (fields of the other layout stay 0). */
struct l0_header {
	uint64_t tsc_begin, tsc_end;
	uint32_t size;              /* buf_size (1.x) or sb_size (2.x) */
	uint32_t lost_size;         /* 1.x */
	uint32_t data_size;         /* 2.x */
	uint32_t events_lost, subbuf_corrupt; /* 2.x, cumulative */
	uint8_t major, minor, arch_size, alignment;
	uint8_t has_heartbeat, flight_recorder, tscbits, compact_data_shift; /* 1.x */
	uint32_t freq_scale;
	uint64_t start_freq;
};

/* How the events of a tracefile are laid out, from a header whose fields are sound. */
struct l0_params {
	uint8_t layout;             /* 1 or 2 */
	uint8_t arch_size, alignment;
	bool heartbeat;             /* 1.x: 32-bit event timestamps */
	bool compact;               /* 1.x compact tracefile: one u32 per event */
	bool tsc_bounds;            /* the block's cycle counts are sound: events' full TSCs lie within them */
};

/* What stays the same across the blocks of every tracefile of one trace. */
struct l0_trace {
	bool have_ref;
	uint8_t layout;
	bool big_endian;
	uint8_t ref[L0_V1_HEADER];  /* the reference block's header bytes */
	const char *ref_member;     /* where it came from ("" for a single file) */
	uint64_t events;
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

/* Walk the events of one block, [first, fill) block-relative, the block being `block_len` bytes here. */
void l0_walk_events(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t at, uint64_t fill, uint64_t block_len,
		    const struct l0_params *p, const struct l0_header *h, uint64_t block, struct l0_walk *w);

/* Check one tracefile (the whole view); compact: a 1.x compact tracefile (by its name). */
void l0_check_tracefile(struct tfk_ctx *ctx, const struct tfk_cursor *file, struct l0_trace *t, bool compact);

/* The directory format's entry points (lttng0_dir.c). */
int l0_sniff_dir(const struct tfk_input *in);
void l0_check_dir(struct tfk_ctx *ctx, const struct tfk_input *in);

#endif
