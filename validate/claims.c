/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "context.h"

bool tfk_claims_add(struct tfk_ctx *ctx, struct tfk_claims *c, uint64_t start, uint64_t end, bool exclusive,
		    const char *fmt, ...)
{
	void *arr = c->v;
	if (!tfk_grow(ctx, &arr, &c->cap, c->n + 1, sizeof(*c->v)))
		return false;
	c->v = arr;
	struct tfk_claim *r = &c->v[c->n++];
	r->start = start;
	r->end = end;
	r->exclusive = exclusive;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->label, sizeof(r->label), fmt, ap);
	va_end(ap);
	return true;
}

/* By start, then end, then label: a total order, so the sweep does not depend on qsort. */
static int by_start(const void *a, const void *b)
{
	const struct tfk_claim *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return strcmp(x->label, y->label);
}

uint64_t tfk_claims_sweep(struct tfk_claims *c, void (*overlap)(void *user, const struct tfk_claim *r, const struct tfk_claim *w),
			  void *user)
{
	if (c->n == 0)
		return 0;
	qsort(c->v, c->n, sizeof(*c->v), by_start);
	size_t widest = 0;
	uint64_t covered = c->v[0].end;
	for (size_t i = 1; i < c->n; i++) {
		const struct tfk_claim *r = &c->v[i], *w = &c->v[widest];
		if (r->start < w->end && r->end > r->start && (r->exclusive || w->exclusive))
			overlap(user, r, w);
		if (r->end > w->end)
			widest = i;
		if (r->end > covered)
			covered = r->end;
	}
	return covered;
}

void tfk_claims_free(struct tfk_claims *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
