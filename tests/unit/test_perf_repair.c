/* SPDX-License-Identifier: MIT */
/*
 * perf.data repair as real writers leave files: -z recordings (one zstd stream), killed
 * recordings with their features behind the data, attr_size lost, TRACING_DATA rebuilt from
 * its good lines, a record stream resynchronised after an impossible size, honest salvage
 * counts, and good files left alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pdw.h"
#include "tracedat_helpers.h"
#include "tracefsck/repair.h"

struct repaired {
	struct tfk_repair_report rep;
	uint8_t *out;
	size_t len;
};

static void repair(const struct tdw_buf *b, struct repaired *r)
{
	tfk_repair_buffer(b->data, b->len, fast_limits(), &r->out, &r->len, &r->rep);
}

static void release(struct repaired *r)
{
	free(r->out);
	tfk_repair_report_free(&r->rep);
}

/* The output checks clean with `samples` samples, and a second repair has nothing to do. */
static void assert_repaired(struct repaired *r, uint64_t samples)
{
	if (r->rep.outcome != TFK_REPAIR_DONE) {
		dump(&r->rep.before);
		dump(&r->rep.after);
		fail_msg("outcome %d, not repaired", r->rep.outcome);
	}
	struct tfk_report again;
	tfk_check_buffer(r->out, r->len, fast_limits(), &again);
	if (tfk_report_verdict(&again) != TFK_VERDICT_CLEAN) {
		dump(&again);
		fail_msg("repaired output is not clean");
	}
	assert_int_equal(again.stats.events, samples);
	tfk_report_free(&again);
	struct repaired twice;
	repair(&(struct tdw_buf){ r->out, r->len, r->len }, &twice);
	assert_int_equal(twice.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	release(&twice);
}

static void build(struct pdw_spec s, struct tdw_buf *b, struct pdw_layout *L)
{
	assert_int_equal(pdw_build(&s, b, L), 0);
}

/* A damaged -z recording keeps the samples of the payloads before the damage. */
static void test_compressed_stream_damage(void **state)
{
	(void)state;
	struct pdw_spec s = pdw_default_spec();
	s.compressed = true;
	s.zrecords = 4;
	s.nsamples = 24;
	struct tdw_buf b;
	struct pdw_layout L;
	build(s, &b, &L);
	uint16_t size = (uint16_t)(tdw_get32(&b, L.zrecord[2] + 4, false) >> 16);
	memset(b.data + L.zrecord[2] + 8 + size / 2, 0x5a, 16);
	struct repaired r;
	repair(&b, &r);
	assert_repaired(&r, L.zsamples[1]);
	assert_true(L.zsamples[1] > 0);
	release(&r);
	tdw_free(&b);

	/* Killed inside the last payload: the stream up to it is kept, its feature rebuilt. */
	s.killed = true;
	build(s, &b, &L);
	b.len = L.zrecord[3] + 20;
	repair(&b, &r);
	assert_repaired(&r, L.zsamples[2]);
	release(&r);
	tdw_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compressed_stream_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
