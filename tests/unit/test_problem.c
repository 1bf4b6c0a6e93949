/* SPDX-License-Identifier: MIT */
/*
 * The core's one way to raise a finding (tfk_raise with a problem context) and its one
 * growable array (tfk_array_grow): paths rendered as the formats' printf once wrote them,
 * quotas honoured, arrays that grow, zero and refuse what overflows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "context.h"
#include "grow.h"

struct fixture {
	struct tfk_limits limits;
	struct tfk_report report;
	struct tfk_ctx ctx;
};

static void begin(struct fixture *fx, uint32_t per_place)
{
	memset(fx, 0, sizeof(*fx));
	fx->limits = tfk_limits_default();
	if (per_place)
		fx->limits.max_per_place = per_place;
	tfk_ctx_init(&fx->ctx, &fx->limits, &fx->report);
}

static void test_path_rendered_from_template(void **state)
{
	(void)state;
	struct fixture fx;
	begin(&fx, 0);
	const struct tfk_pctx page = { .tmpl = "%scpu%u page %u", .str = { "buffer b1 " }, .num = { 3, 18446744073709551615ull } };
	struct tfk_finding *f = tfk_raise(&fx.ctx, &page, TFK_CORE_CHECK_UNSUPPORTED, 4096, 8, NULL);
	assert_non_null(f);
	assert_string_equal(f->path, "buffer b1 cpu3 page 18446744073709551615");
	assert_int_equal(f->offset, 4096);
	assert_int_equal(f->length, 8);
	/* what follows the path after one space; hex and a literal percent */
	const struct tfk_pctx sec = { .tmpl = "section %s at 0x%x (100%%)", .str = { "options" }, .num = { 0xbeef } };
	f = tfk_raise(&fx.ctx, &sec, TFK_CORE_CHECK_UNSUPPORTED, 0, 1, "flags");
	assert_string_equal(f->path, "section options at 0xbeef (100%) flags");
	/* no template: the path is what alone, or nothing */
	const struct tfk_pctx none = { 0 };
	f = tfk_raise(&fx.ctx, &none, TFK_CORE_CHECK_UNSUPPORTED, 0, 1, "header");
	assert_string_equal(f->path, "header");
	f = tfk_raise(&fx.ctx, &none, TFK_CORE_CHECK_UNSUPPORTED, 0, 1, NULL);
	assert_string_equal(f->path, "");
	/* a missing string renders empty; more conversions than values are copied as letters */
	const struct tfk_pctx odd = { .tmpl = "[%s] %u %u %u %u" , .num = { 1, 2, 3 } };
	f = tfk_raise(&fx.ctx, &odd, TFK_CORE_CHECK_UNSUPPORTED, 0, 1, NULL);
	assert_string_equal(f->path, "[] 1 2 3 u");
	assert_int_equal(fx.report.count, 5);
	tfk_report_free(&fx.report);
}

static void test_found_bytes_and_sanitising(void **state)
{
	(void)state;
	struct fixture fx;
	begin(&fx, 0);
	static const char line[] = "pid 12\x1b[31m bad";
	const struct tfk_pctx pc = { .tmpl = "line %u:", .num = { 7 }, .found_bytes = line, .found_len = sizeof(line) - 1 };
	struct tfk_finding *f = tfk_raise(&fx.ctx, &pc, TFK_CORE_CHECK_UNSUPPORTED, 10, 16, "task");
	assert_string_equal(f->path, "line 7: task");
	/* found is the line quoted, the escape made harmless, exactly as tfk_set_found_bytes does */
	struct tfk_finding ref;
	memset(&ref, 0, sizeof(ref));
	tfk_set_found_bytes(&ref, line, sizeof(line) - 1);
	assert_string_equal(f->found, ref.found);
	assert_null(strchr(f->found, '\x1b'));
	/* a path from hostile text is sanitised too */
	const struct tfk_pctx hostile = { .tmpl = "format %s/%s", .str = { "sched", "a\nb" } };
	f = tfk_raise(&fx.ctx, &hostile, TFK_CORE_CHECK_UNSUPPORTED, 0, 1, NULL);
	assert_null(strchr(f->path, '\n'));
	tfk_report_free(&fx.report);
}

static void test_place_quota(void **state)
{
	(void)state;
	struct fixture fx;
	begin(&fx, 2);
	struct tfk_place place;
	tfk_place_begin(&place);
	const struct tfk_pctx pc = { .tmpl = "cpu%u", .num = { 0 }, .place = &place };
	assert_non_null(tfk_raise(&fx.ctx, &pc, TFK_CORE_CHECK_UNSUPPORTED, 1, 1, NULL));
	assert_non_null(tfk_raise(&fx.ctx, &pc, TFK_CORE_CHECK_UNSUPPORTED, 2, 1, NULL));
	assert_null(tfk_raise(&fx.ctx, &pc, TFK_CORE_CHECK_UNSUPPORTED, 3, 1, NULL)); /* counted only */
	assert_int_equal(fx.report.count, 2);
	assert_int_equal(fx.report.total, 3);
	tfk_place_end(&fx.ctx, &place, "cpu0");
	assert_int_equal(fx.report.count, 3); /* the suppressed note */
	assert_string_equal(fx.report.findings[2].fault->id, "core.findings.suppressed");
	tfk_report_free(&fx.report);
}

static void test_array_grows_zeroed_and_bounded(void **state)
{
	(void)state;
	void *v = NULL;
	size_t cap = 0;
	assert_true(tfk_array_grow(&v, &cap, 1, sizeof(uint64_t), 0));
	assert_int_equal(cap, 8);
	memset(v, 0xff, cap * sizeof(uint64_t));
	assert_true(tfk_array_grow(&v, &cap, 9, sizeof(uint64_t), 0));
	assert_int_equal(cap, 16);
	const uint64_t *u = v;
	for (size_t i = 8; i < 16; i++)
		assert_int_equal(u[i], 0); /* new elements zeroed, old kept */
	assert_int_equal(u[7], UINT64_MAX);
	/* the cap stops at max_elems; beyond it, refused and unchanged */
	assert_true(tfk_array_grow(&v, &cap, 17, sizeof(uint64_t), 20));
	assert_int_equal(cap, 20);
	void *was = v;
	assert_false(tfk_array_grow(&v, &cap, 21, sizeof(uint64_t), 20));
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 20);
	/* sizes that overflow are refused, never wrapped */
	assert_false(tfk_array_grow(&v, &cap, SIZE_MAX / 2, 16, 0));
	assert_false(tfk_array_grow(&v, &cap, SIZE_MAX, 1, 0));
	assert_int_equal(cap, 20);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_rendered_from_template),
		cmocka_unit_test(test_found_bytes_and_sanitising),
		cmocka_unit_test(test_place_quota),
		cmocka_unit_test(test_array_grows_zeroed_and_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
