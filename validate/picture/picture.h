/* SPDX-License-Identifier: MIT */
/*
 * What the picture of a trace keeps while the check runs (picture_collect.c) and draws at the
 * end (picture_svg.c, picture_html.c). Everything is bucketed as it arrives: the byte band,
 * and each unit's (a CPU's, a stream's, a task's, a tracefile's) timeline and bytes are fixed
 * arrays whose bucket width doubles when the range outgrows them, so memory and the picture's
 * size stay the same for a 1 MiB and a 4 GiB trace.
 *
 * A format whose model reaches the observer through its own messages (tfk_observer.model)
 * draws its units through the functions at the end, from a translator in its own folder
 * (struct tfk_format.picture): the picture knows no format.
 */
#ifndef TFK_PICTURE_INTERNAL_H
#define TFK_PICTURE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "tracefsck/finding.h"
#include "tracefsck/picture.h"

#define PIC_BAND 1024  /* byte buckets of the band */
#define PIC_TIME 512   /* time buckets of a unit's timeline */
#define PIC_LBYTES 256 /* byte buckets of a unit's own byte row */
#define PIC_LANES 32   /* units drawn; the others are counted */

/* What a stretch of bytes turned out to be, least to most alarming (the colour a bucket gets). */
enum pic_state {
	PIC_UNCLAIMED = 0, /* nothing the check read whole holds it */
	PIC_DATA,          /* a data range whose pages or records were not walked one by one */
	PIC_META,          /* headers, metadata, options */
	PIC_EMPTY,         /* a page without committed data */
	PIC_GOOD,          /* a page (packet, block, records) whose every event is valid: kept */
	PIC_CLIPPED,       /* valid up to a point only */
	PIC_BAD,           /* nothing in it can be trusted: lost */
	PIC_STATES
};

/* Counts over a range that grows by doubling its bucket width (the band, a timeline). */
struct pic_hist {
	uint64_t origin, width; /* bucket i covers [origin + i * width, origin + (i + 1) * width) */
	bool started;
};

/* One unit of the trace: a CPU, a stream, a task, a tracefile; its time and its bytes. */
struct pic_lane {
	char kind[16];                /* "cpu", "stream", "task", ... */
	char name[64];                /* as the file names it (sanitised when drawn) */
	char member[TFK_FINDING_MEMBER_MAX]; /* the directory member it is ("" in a single file) */
	uint32_t cpu;
	struct pic_hist time;
	uint64_t counts[PIC_TIME][2]; /* per time bucket: events, and losses around that time */
	uint64_t first_ts, last_ts;   /* of the events and losses seen */
	bool has_time;
	uint64_t last_good_ts;        /* of the last part that walked whole */
	bool loss_pending;            /* parts were lost since it */
	uint64_t total_events;
	/* Its bytes, at offsets of the file (or of its member): [lo, hi) seen, size declared. */
	struct pic_hist span;
	uint64_t bytes[PIC_LBYTES][PIC_STATES];
	bool has_bytes;
	uint64_t lo, hi, size;
	/* Its pages came out of a decoder: its byte row is of the decoded bytes, page after page,
	 * and [file_lo, file_hi) the compressed range in the file its findings lie in. */
	bool decoded;
	uint64_t file_lo, file_hi;
	/* The summary beside it: parts (pages, packets, blocks, records) walked and lost. */
	const char *part;
	uint64_t parts, parts_bad, parts_clipped, bytes_lost;
	uint64_t events_lost;         /* events the file says were lost (discarded, missed) */
	bool events_unknown;          /* events were lost whose number cannot be told */
};

struct tfk_picture {
	struct pic_hist band;
	uint64_t bytes[PIC_BAND][PIC_STATES];
	uint64_t extent;             /* end of the furthest range seen */
	uint64_t past_end;           /* bytes units declare that the file does not hold */
	uint32_t page_size;
	char buffer[32];             /* the buffer whose CPUs come next */
	struct pic_lane lanes[PIC_LANES];
	size_t nlanes, lanes_dropped;
	struct pic_lane *lane;       /* the unit whose pages come next (NULL: not drawn) */
	bool pages_in_member;        /* those pages' offsets are in a member, not on the band */
};

/* Make room for value in h, whose buckets hold n counters of `stride` uint64_t each in data. */
void pic_hist_fit(struct pic_hist *h, uint64_t value, uint64_t *data, size_t n, size_t stride);
/* The bucket of value (clamped into [0, n)). */
size_t pic_hist_bucket(const struct pic_hist *h, uint64_t value, size_t n);

/*
 * For the formats' translators. pic_lane finds the unit of that kind and name (and member),
 * or adds it; NULL when PIC_LANES are drawn already (it is then counted). origin: the offset
 * its bytes start at (0 for a member of its own).
 */
struct pic_lane *pic_lane(struct tfk_picture *p, const char *kind, const char *name, const char *member, uint64_t origin);
/* Bytes [off, off + len) of the unit (its member's or the file's offsets) in state s. */
void pic_lane_bytes(struct pic_lane *l, uint64_t off, uint64_t len, enum pic_state s);
/* events over [first, last] on the unit's timeline; lost: data was lost just before them. */
void pic_lane_events(struct pic_lane *l, uint64_t first, uint64_t last, uint64_t events, bool lost);
/* Time [first, last] of the unit lost (a part without events, or its tail). */
void pic_lane_lost_time(struct pic_lane *l, uint64_t first, uint64_t last);
/* Bytes [off, off + len) of the file on the band. */
void pic_band(struct tfk_picture *p, uint64_t off, uint64_t len, enum pic_state s);
/* The pages of the observer's page callback belong to l, at offsets of its member. */
void pic_pages_to(struct tfk_picture *p, struct pic_lane *l, uint32_t page_size);

#endif
