/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perf_fixture.h"

struct px *px_build(struct pdw_spec s)
{
	struct px *x = calloc(1, sizeof(*x));
	assert_non_null(x);
	x->spec = s;
	assert_int_equal(pdw_build(&s, &x->b, &x->L), 0);
	return x;
}

void px_free(struct px *x)
{
	tfk_report_free(&x->r);
	tdw_free(&x->b);
	free(x);
}

void pcheck(struct px *x)
{
	tfk_report_free(&x->r);
	check(&x->b, &x->r);
}

void px_assert_clean(struct px *x, uint64_t samples)
{
	pcheck(x);
	if (tfk_report_verdict(&x->r) != TFK_VERDICT_CLEAN || x->r.total) {
		dump(&x->r);
		fail_msg("expected a clean perf.data");
	}
	assert_int_equal(x->r.stats.events, samples);
}

void insert_bytes(struct tdw_buf *b, uint64_t at, const void *bytes, size_t n)
{
	uint8_t *d = malloc(b->len + n);
	assert_non_null(d);
	memcpy(d, b->data, at);
	memcpy(d + at, bytes, n);
	memcpy(d + at + n, b->data + at, b->len - at);
	free(b->data);
	b->data = d;
	b->len += n;
	b->cap = b->len;
}
