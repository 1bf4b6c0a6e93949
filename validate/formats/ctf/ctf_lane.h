/* SPDX-License-Identifier: MIT */
/*
 * Lanes: a stream class's events compiled, once the flat plans are made, into the byte
 * layouts a clean event has. Most events of a real trace are whole-byte integers at fixed
 * places between strings, after a header whose variant its tag selects. A lane holds, for the
 * header, the fields the walk needs (the clock, the event id, the tag) at their byte offsets
 * for each option of its variant and, for each event id, the rest of the event as steps: an
 * alignment, a run of fixed bytes, maybe a string after them. Nothing is looked up by name
 * and nothing is remembered.
 *
 * A lane decodes only events that the plans would decode whole and that the walk would
 * report nothing about (ctf_lane_events): the first event it cannot prove so is left where
 * it starts, with the state it starts from, to the careful walk, which finds what is wrong.
 */
#ifndef TFK_CTF_LANE_H
#define TFK_CTF_LANE_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf.h"

/* A whole-byte integer of the event header, at a fixed place from its start. */
struct ctf_lane_field {
	uint32_t at;   /* bytes from the header's start */
	uint8_t bytes; /* 1 to 8; 0: the header has no such field */
	uint8_t bits;  /* its declared width (a clock's wraps there) */
	bool big_endian;
};

/*
 * The event header as one of its variant's options makes it: every field at a fixed place
 * from the header's start, the clock field (at most one) and the last field named id.
 */
struct ctf_lane_form {
	uint32_t bytes;
	struct ctf_lane_field clock, id;
	bool ok; /* false: an option the lane cannot read (its events are the careful walk's) */
};

/* A run of the rest of an event: an alignment, fixed bytes, and maybe a string after them. */
struct ctf_lane_step {
	uint32_t align; /* bytes, a power of two: the step starts at a multiple of it (from the packet start) */
	uint32_t bytes;
	bool string;    /* a NUL-terminated string follows the fixed bytes */
};

/* Steps [first, first + n) of ctf_lane.steps; ok false: no lane (the careful walk's). */
struct ctf_lane_seq {
	uint32_t first, n;
	bool ok;
};

struct ctf_lane {
	/* The event header: its alignment (bytes), the bytes before its variant, the variant's tag. */
	uint32_t align, prefix_bytes;
	struct ctf_lane_field tag;   /* bytes 0: no variant, the header is forms[0] */
	/* The ranges of the tag's enumeration, in order, each the form it selects (or -1). */
	uint32_t nranges;
	const uint64_t *lo, *hi;
	const int32_t *range_form;
	const struct ctf_lane_form *forms;
	/* Each event id below nids: the stream context, event context and fields of that event. */
	const struct ctf_lane_step *steps;
	const struct ctf_lane_seq *by_id;
	uint32_t nids;
	uint32_t max_values; /* values the plans remember in one event at most (CTF_MAX_VALUES bounds them) */
};

/* The lanes of every stream class whose event header has a plan (ctf_lane_build.c); after ctf_flat_plan. */
void ctf_lane_build(struct ctf_meta *m);

/* Where the careful walk of a packet's events stands, moved on by the events a lane decodes. */
struct ctf_lane_walk {
	uint64_t n;               /* events of the packet decoded */
	uint64_t prev_ts;         /* the clock after the last of them, when have_prev_ts */
	bool have_prev_ts;
	uint64_t ts_lo, ts_hi;    /* the clock values no event is reported outside the packet for */
};

/*
 * Decode events from d's position with the lane as long as each is whole and has nothing to
 * report, moving d (position, clock) and the walk past them; stops at the first that may
 * not be, or at the content's end.
 */
void ctf_lane_events(const struct ctf_lane *ln, struct ctf_decoder *d, struct ctf_lane_walk *ew);

#endif
