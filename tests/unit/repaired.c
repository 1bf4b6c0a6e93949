/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "repaired.h"

void repaired_run(const struct tdw_buf *b, struct repaired *r)
{
	tfk_repair_buffer(b->data, b->len, fast_limits(), &r->out, &r->len, &r->rep);
}

void repaired_release(struct repaired *r)
{
	free(r->out);
	tfk_repair_report_free(&r->rep);
}

void assert_repaired_as(struct repaired *r, uint64_t count, bool strict)
{
	if (r->rep.outcome != TFK_REPAIR_DONE) {
		dump(&r->rep.before);
		dump(&r->rep.after);
		fail_msg("outcome %d, not repaired", r->rep.outcome);
	}
	struct tfk_report again;
	tfk_check_buffer(r->out, r->len, fast_limits(), &again);
	if (strict)
		note_raised(&again);
	if (tfk_report_verdict(&again) != TFK_VERDICT_CLEAN || (strict && again.total)) {
		dump(&again);
		fail_msg("repaired output is not clean");
	}
	assert_int_equal(again.stats.events, count);
	tfk_report_free(&again);
	struct repaired twice;
	repaired_run(&(struct tdw_buf){ r->out, r->len, r->len }, &twice);
	assert_int_equal(twice.rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	assert_null(twice.out);
	repaired_release(&twice);
}
