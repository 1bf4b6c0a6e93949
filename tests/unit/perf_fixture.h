/* SPDX-License-Identifier: MIT */
/* A perf.data fixture (tests/fixture/pdw.h) with its last check, shared by the perf unit tests. */
#ifndef TFK_TEST_PERF_FIXTURE_H
#define TFK_TEST_PERF_FIXTURE_H

#include <stdint.h>

#include "pdw.h"
#include "tracedat_helpers.h"

struct px {
	struct pdw_spec spec;
	struct tdw_buf b;
	struct pdw_layout L;
	struct tfk_report r;
};

/* The fixture spec s describes (the test fails if it cannot be built). */
struct px *px_build(struct pdw_spec s);
void px_free(struct px *x);
/* Check it again (with fast_limits), the codes raised noted. */
void pcheck(struct px *x);
/* It checks clean, with no finding at all, holding samples samples. */
void px_assert_clean(struct px *x, uint64_t samples);
/* n bytes inserted at offset at (a pipe-mode stream has no offsets to fix). */
void insert_bytes(struct tdw_buf *b, uint64_t at, const void *bytes, size_t n);

#endif
