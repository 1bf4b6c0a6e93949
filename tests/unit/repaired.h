/* SPDX-License-Identifier: MIT */
/* A buffer repaired in memory, and what every repair test asks of its output. */
#ifndef TFK_TEST_REPAIRED_H
#define TFK_TEST_REPAIRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracedat_helpers.h"
#include "tracefsck/repair.h"

struct repaired {
	struct tfk_repair_report rep;
	uint8_t *out;
	size_t len;
};

/* Repair b in memory (fast_limits). */
void repaired_run(const struct tdw_buf *b, struct repaired *r);
void repaired_release(struct repaired *r);
/*
 * Repaired: the output checks clean (with strict, no finding at all, and its codes noted)
 * holding count events, and a second repair of it has nothing to do.
 */
void assert_repaired_as(struct repaired *r, uint64_t count, bool strict);

#endif
