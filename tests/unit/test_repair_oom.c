/* SPDX-License-Identifier: MIT */
/*
 * Repair when memory runs out: every allocation of a repair, from the k-th on, made to fail
 * (malloc, calloc and realloc wrapped at link time, so that repair's own allocations fail as
 * well as the check's), for each k up to the number a repair makes. Whatever k, a repair
 * never crashes or leaks (the ASan and Valgrind runs of this test), never claims a damaged
 * input needs nothing, and never hands back an output that would not check clean with every
 * event the unhindered repair kept: it writes the same repair, or it says it failed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pdw.h"
#include "repaired.h"
#include "tdw_emit.h"
#include "tracedat_helpers.h"

/* The allocation gate: counting when armed, failing from the fail_from-th call on. */
static struct {
	int armed;
	unsigned long calls, fail_from;
} gate;

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t n);
void *__wrap_realloc(void *p, size_t n);

static int refuse(void)
{
	return gate.armed && ++gate.calls >= gate.fail_from && gate.fail_from;
}

void *__wrap_malloc(size_t n)
{
	return refuse() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t count, size_t n)
{
	return refuse() ? NULL : __real_calloc(count, n);
}

void *__wrap_realloc(void *p, size_t n)
{
	return refuse() ? NULL : __real_realloc(p, n);
}

/* Repair b with allocations failing from the fail_from-th on (0: none); how many were asked for. */
static unsigned long repair_with_gate(const struct tdw_buf *b, unsigned long fail_from, struct repaired *r)
{
	memset(r, 0, sizeof(*r));
	gate.calls = 0;
	gate.fail_from = fail_from;
	gate.armed = 1;
	repaired_run(b, r);
	gate.armed = 0;
	return gate.calls;
}

/* Repair b once unhindered, then with every failure point; each outcome held to the rules above. */
static void every_failure_point(const struct tdw_buf *b, uint64_t events)
{
	struct repaired good;
	unsigned long total = repair_with_gate(b, 0, &good);
	assert_repaired_as(&good, events, false);
	assert_true(total > 0);
	print_message("%lu allocations in the repair, each made the first to fail\n", total);
	unsigned long done = 0, failed = 0;
	for (unsigned long k = 1; k <= total; k++) {
		struct repaired r;
		repair_with_gate(b, k, &r);
		switch (r.rep.outcome) {
		case TFK_REPAIR_DONE:
			/* the same repair, byte for byte (the failure hit a path with a way round it) */
			assert_int_equal(r.len, good.len);
			assert_memory_equal(r.out, good.out, good.len);
			done++;
			break;
		case TFK_REPAIR_FAILED:
		case TFK_REPAIR_UNSUPPORTED:
			assert_null(r.out);
			failed++;
			break;
		default:
			fail_msg("allocation %lu of %lu failing: outcome %d for a damaged input", k, total, r.rep.outcome);
		}
		repaired_release(&r);
	}
	assert_int_equal(done + failed, total);
	assert_true(failed > 0); /* the gate did reach the repair */
	repaired_release(&good);
}

static void test_tracedat_cut(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	x->b.len = page_at(x, 1, 1) + 300; /* cut inside CPU1's second page */
	every_failure_point(&x->b, 3 * x->spec.events_per_page + tdw_events_within(&x->spec, 300));
	fx_free(x);
}

static void test_perf_cut(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct pdw_layout L;
	struct pdw_spec s = pdw_default_spec();
	assert_int_equal(pdw_build(&s, &b, &L), 0);
	b.len = L.sample[7] + 30; /* cut inside sample 7 */
	every_failure_point(&b, 7);
	tdw_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracedat_cut),
		cmocka_unit_test(test_perf_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
