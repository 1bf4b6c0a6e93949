/* SPDX-License-Identifier: MIT */
/*
 * What the picture of a trace keeps while the check runs (picture_collect.c) and draws at the
 * end (picture_svg.c). Everything is bucketed as it arrives: the byte band and each CPU's
 * timeline are fixed arrays whose bucket width doubles when the file or the time range outgrows
 * them, so memory and the picture's size stay the same for a 1 MiB and a 4 GiB trace.
 */
#ifndef TFK_PICTURE_INTERNAL_H
#define TFK_PICTURE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "tracefsck/picture.h"

#define PIC_BAND 1024  /* byte buckets of the band */
#define PIC_TIME 512   /* time buckets of a CPU's timeline */
#define PIC_LANES 32   /* timelines drawn; the others are counted */

/* What a stretch of bytes turned out to be, least to most alarming (the colour a bucket gets). */
enum pic_state {
	PIC_UNCLAIMED = 0, /* nothing the check read whole holds it */
	PIC_DATA,          /* a data range whose pages or records were not walked one by one */
	PIC_META,          /* headers, metadata, options */
	PIC_EMPTY,         /* a page without committed data */
	PIC_GOOD,          /* a page whose every event is valid */
	PIC_CLIPPED,       /* a page valid up to a point only */
	PIC_BAD,           /* a page nothing in which can be trusted */
	PIC_STATES
};

/* Counts over a range that grows by doubling its bucket width (the band, a timeline). */
struct pic_hist {
	uint64_t origin, width; /* bucket i covers [origin + i * width, origin + (i + 1) * width) */
	bool started;
};

struct pic_lane {
	char buffer[32];
	uint32_t cpu;
	struct pic_hist time;
	uint64_t counts[PIC_TIME][2]; /* per time bucket: events, and pages lost around that time */
	uint64_t first_ts, last_ts;  /* of the events seen */
	uint64_t last_good_ts;       /* of the last page that walked whole */
	bool loss_pending;           /* pages were lost since it */
	uint64_t total_events, pages_bad;
};

struct tfk_picture {
	struct pic_hist band;
	uint64_t bytes[PIC_BAND][PIC_STATES];
	uint64_t extent;             /* end of the furthest range seen */
	uint64_t past_end;           /* bytes CPUs declare that the file does not hold */
	uint32_t page_size;
	char buffer[32];             /* the buffer whose CPUs come next */
	struct pic_lane lanes[PIC_LANES];
	size_t nlanes, lanes_dropped;
	struct pic_lane *lane;       /* the CPU whose pages come next (NULL: not drawn) */
};

/* Make room for value in h, whose buckets hold n counters of `stride` uint64_t each in data. */
void pic_hist_fit(struct pic_hist *h, uint64_t value, uint64_t *data, size_t n, size_t stride);
/* The bucket of value (clamped into [0, n)). */
size_t pic_hist_bucket(const struct pic_hist *h, uint64_t value, size_t n);

#endif
