/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x tracefiles' model for repair, sent through tfk_observer.model (format:
 * &tfk_format_lttng0; private to its check and repair): every block of a tracefile, in file order, with what the check found in it.
 */
#ifndef TRACEFSCK_FORMATS_LTTNG0_H
#define TRACEFSCK_FORMATS_LTTNG0_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* kind: data is a struct tfk_lttng0_block, one per block (or run of garbage) of the file. */
#define TFK_LTTNG0_MODEL_BLOCK 1u

/*
 * kind: data is a struct tfk_lttng0_member, sent before the blocks of each tracefile of a
 * trace directory (the blocks that follow, up to the next one, are that tracefile's).
 */
#define TFK_LTTNG0_MODEL_MEMBER 2u

/*
 * kind: data is a struct tfk_lttng0_patch: a byte of the current tracefile that repair writes
 * back with the value the trace proves (a marker_id's type size or alignment).
 */
#define TFK_LTTNG0_MODEL_PATCH 3u

struct tfk_lttng0_patch {
	uint64_t offset;      /* in the tracefile */
	uint8_t value;
};

struct tfk_lttng0_member {
	char name[256];       /* relative path in the directory (raw) */
	uint64_t size;
};

enum tfk_lttng0_block_state {
	TFK_LTTNG0_KEEP = 0,  /* header and every event sound: kept as it is */
	TFK_LTTNG0_CLIP,      /* header sound, events whole up to good_end only, or the block cut short */
	TFK_LTTNG0_DROP,      /* the header cannot be trusted */
	TFK_LTTNG0_GARBAGE,   /* bytes where no block could be found */
};

struct tfk_lttng0_block {
	uint32_t state;       /* enum tfk_lttng0_block_state */
	uint8_t layout;       /* 1: the 2008 block header; 2: the LTF 2.x sub-buffer header */
	bool big_endian;
	uint64_t offset;      /* of the block in the file */
	uint64_t size;        /* the bytes the block spans (its size; garbage: the run's length) */
	uint64_t present;     /* of those, the bytes the file holds (below size when cut short) */
	uint64_t good_end;    /* block-relative end of the last whole event (KEEP, CLIP) */
	uint64_t events;      /* whole events walked in the block */
	bool lost_form;       /* LTF 2.3 / 2.4: the fill at 52 is lost_size (size less the data), not data_size */
	/* The header's cycle counts, when they are sound (a picture's timeline), and events_lost (2.x, cumulative). */
	bool timed;
	uint64_t tsc_begin, tsc_end;
	uint32_t events_lost;
};

#ifdef __cplusplus
}
#endif
#endif
