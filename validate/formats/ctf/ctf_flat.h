/* SPDX-License-Identifier: MIT */
/*
 * The ops of a flat plan (ctf_flat.c): shared with what is compiled from the plans in turn
 * (ctf_lane_build.c), so that both read one description of a scope.
 */
#ifndef TFK_CTF_FLAT_H
#define TFK_CTF_FLAT_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf.h"

/* FLAT_SKIP: a run of whole-byte fields nothing reads (see merge_runs), stepped over at once. */
enum flat_kind { FLAT_ALIGN, FLAT_INT, FLAT_FLOAT, FLAT_STRING, FLAT_ARRAY, FLAT_SEQ, FLAT_VARIANT, FLAT_SKIP };

struct flat_option {
	uint32_t start, end; /* its ops */
};

struct ctf_flat_op {
	uint8_t kind;
	bool big_endian, is_enum, is_signed, clock, is_id;
	unsigned size, align;         /* bits; the element's for arrays and sequences */
	const struct ctf_type *type;  /* the integer's (enum ranges), or the element's */
	const char *path;             /* integers remembered: their path; NULL: not remembered */
	uint32_t ordinal;             /* integers of an event's fields: how many come before */
	uint64_t count;               /* arrays: elements */
	uint32_t ref;                 /* sequences: the op of the length; variants: the tag's */
	uint32_t end;                 /* variants: the op after every option; skips: the op after the run */
	const int32_t *range_option;  /* variants: the option each range of the tag's enum selects, or -1 */
	const struct flat_option *options;
	uint32_t noptions;            /* variants: how many */
};

struct ctf_plan {
	const struct ctf_flat_op *ops;
	uint32_t n;
	enum ctf_scope scope;
};

#endif
