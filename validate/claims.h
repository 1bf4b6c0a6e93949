/* SPDX-License-Identifier: MIT */
/*
 * Claimed byte ranges: every format notes which bytes each structure it read occupies, and one
 * sort-and-sweep (O(n log n)) finds the ranges that overlap, and how far the claims reach (what
 * lies after them is trailing data). The format says what an overlap means.
 */
#ifndef TFK_CLAIMS_H
#define TFK_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfk_ctx;

struct tfk_claim {
	uint64_t start, end;      /* [start, end) */
	bool exclusive;           /* no other range may overlap it (an exclusive one may not overlap any) */
	char label[40];
};

struct tfk_claims {
	struct tfk_claim *v;
	size_t n, cap;
};

/* Note a claimed range (allocation through ctx); false when out of memory. */
__attribute__((format(printf, 6, 7))) bool tfk_claims_add(struct tfk_ctx *ctx, struct tfk_claims *c, uint64_t start,
							  uint64_t end, bool exclusive, const char *fmt, ...);

/*
 * Sort the claims and compare each with the one reaching furthest among those before it:
 * overlap(user, r, w) is called for each range r that starts before that range w ends, when
 * either is exclusive. Returns the end of the furthest claim (0 when there is none). The same
 * input always gives the same calls, in the same order.
 */
uint64_t tfk_claims_sweep(struct tfk_claims *c, void (*overlap)(void *user, const struct tfk_claim *r, const struct tfk_claim *w),
			  void *user);

void tfk_claims_free(struct tfk_claims *c);

#endif
