/* SPDX-License-Identifier: MIT */
/*
 * perf records kept outside a perf.data file (uftrace's perf-cpu<N>.dat): a stream of records
 * of one attr, walked by perf.data's record walker with its codes. The walker's state stays
 * behind this interface: new, walk, free.
 */
#ifndef TFK_PERFREC_H
#define TFK_PERFREC_H

#include <stdint.h>

#include "context.h"
#include "cursor.h"

/* The perf_event_attr fields the walk reads of the one attr every record belongs to. */
struct perfrec_attr {
	uint32_t type;          /* PERF_TYPE_* */
	uint64_t sample_type;   /* PERFREC_SAMPLE_* bits */
	uint64_t flags;         /* the attr's bit fields word (PERFREC_FLAG_*) */
};

#define PERFREC_SAMPLE_TID (1ull << 1)
#define PERFREC_SAMPLE_TIME (1ull << 2)
#define PERFREC_FLAG_SAMPLE_ID_ALL (1ull << 18)

struct perfrec;

/*
 * A walker over records of attr, in file (the whole member, its byte order; a stream given
 * to the walk is a view of it). NULL when out of memory.
 */
struct perfrec *perfrec_new(struct tfk_ctx *ctx, const struct tfk_cursor *file, const struct perfrec_attr *attr);
/* Walk one whole stream of records, then report what is found over the stream as a whole. */
void perfrec_walk(struct perfrec *r, const struct tfk_cursor *stream);
void perfrec_free(struct perfrec *r);

#endif
