/* SPDX-License-Identifier: MIT */
/* What every format's repair shares: growable byte blobs, numbers in a byte order, good lines. */
#ifndef TFK_REPAIR_COMMON_H
#define TFK_REPAIR_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grow.h"
#include "tracefsck/observer.h"

struct tfk_salvage_member;

struct rp_blob {
	uint8_t *data;
	size_t len;
	size_t cap;  /* allocated bytes; appends grow it geometrically */
};

/*
 * Room for n elements in an array of *cap elements of size bytes: repair's growable arrays
 * are the tool's one (tfk_array_grow, grow.h); new elements zeroed. False when out of memory.
 */
static inline bool rp_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	return tfk_array_grow(arr, cap, n, size, 0);
}

/* Room for n more bytes after b->len (the capacity doubles); false when out of memory. */
bool rp_blob_reserve(struct rp_blob *b, size_t n);

/* Append n bytes, doubling the capacity (appends stay linear in the data's size); false when out of memory. */
/* Does the report say the input changed while it was read (core.input.changed)? (repair.c) */
struct tfk_report;
bool rp_input_changed(const struct tfk_report *r);

bool rp_blob_append(struct rp_blob *b, const uint8_t *p, size_t n);

/* A number of width bytes at p, in the file's byte order. */
static inline void rp_put_num(uint8_t *p, uint64_t v, unsigned width, bool be)
{
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (be ? 8 * (width - 1 - i) : 8 * i));
}

/*
 * A line-based text (kallsyms, printk, cmdlines) without the lines the checker calls
 * malformed, into out (whose old contents are freed). False when out of memory.
 */
bool rp_good_lines(enum tfk_meta_kind kind, const uint8_t *p, uint64_t n, struct rp_blob *out);

/*
 * What a directory salvage did with a member, and the units it counts in: the words the
 * report shows (tfk_salvage_member's action and unit) are rendered here alone.
 */
enum rp_action { RP_ACTION_COPIED, RP_ACTION_TRUNCATED, RP_ACTION_REWRITTEN, RP_ACTION_REBUILT, RP_ACTION_LEFT_OUT };
enum rp_unit { RP_UNIT_EVENTS, RP_UNIT_RECORDS, RP_UNIT_LINES };
const char *rp_action_name(enum rp_action a);
/* Did the salvage do a with m (an action NULL is none)? */
bool rp_action_is(const struct tfk_salvage_member *m, enum rp_action a);
void rp_set_unit(struct tfk_salvage_member *m, enum rp_unit u);
bool rp_unit_is(const struct tfk_salvage_member *m, enum rp_unit u);

#endif
