/* SPDX-License-Identifier: MIT */
/* Gate policies: patterns, severities, and what a policy does to a report's counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tracefsck/tracefsck.h"

static unsigned catalog_prefix_count(const char *prefix)
{
	size_t n;
	const struct tfk_fault *all = tfk_catalog(&n);
	unsigned hits = 0;
	for (size_t i = 0; i < n; i++)
		hits += strncmp(all[i].id, prefix, strlen(prefix)) == 0;
	return hits;
}

static void test_patterns(void **state)
{
	(void)state;
	struct tfk_policy *p = tfk_policy_new();
	assert_non_null(p);
	assert_int_equal(tfk_policy_disable(p, "tracedat.cpu.overlap"), 1);
	assert_int_equal(tfk_policy_disable(p, "core.*"), catalog_prefix_count("core."));
	assert_int_equal(tfk_policy_disable(p, "tracedat.page.*"), catalog_prefix_count("tracedat.page."));
	assert_true(catalog_prefix_count("tracedat.page.") >= 2);
	/* Unknown codes and partial names match nothing. */
	assert_int_equal(tfk_policy_disable(p, "tracedat.no-such"), 0);
	assert_int_equal(tfk_policy_disable(p, "tracedat.cpu"), 0);
	assert_int_equal(tfk_policy_disable(p, "tracedat.cpu.overla*"), 0);
	assert_int_equal(tfk_policy_set_severity(p, "tracedat.cpu.overlap", (enum tfk_severity)7), 0);

	enum tfk_severity sev;
	const struct tfk_fault *overlap = tfk_catalog_find("tracedat.cpu.overlap");
	assert_false(tfk_policy_reports(p, overlap, &sev));
	/* A later rule overrides an earlier one. */
	assert_int_equal(tfk_policy_set_severity(p, "tracedat.cpu.overlap", TFK_SEV_NOTE), 1);
	assert_true(tfk_policy_reports(p, overlap, &sev));
	assert_int_equal(sev, TFK_SEV_NOTE);
	const struct tfk_fault *unknown = tfk_catalog_find("tracedat.option.unknown");
	assert_true(tfk_policy_reports(p, unknown, &sev));
	assert_int_equal(sev, unknown->severity);
	assert_true(tfk_policy_reports(NULL, unknown, &sev));
	tfk_policy_free(p);

	assert_true(tfk_severity_from_name("warning", &sev) && sev == TFK_SEV_WARNING);
	assert_true(tfk_severity_from_name("error", &sev) && sev == TFK_SEV_ERROR);
	assert_false(tfk_severity_from_name("fatal", &sev));
	assert_false(tfk_severity_from_name(NULL, &sev));
}

static void test_report_counts(void **state)
{
	(void)state;
	static const uint8_t text[] = "hello, world\n";
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_report r;

	tfk_check_buffer(text, sizeof(text) - 1, &lim, &r);
	assert_int_equal(r.count, 1);
	assert_string_equal(r.findings[0].fault->id, "core.input.unrecognised");
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 1);
	tfk_report_free(&r);

	struct tfk_policy *p = tfk_policy_new();
	lim.policy = p;
	assert_int_equal(tfk_policy_set_severity(p, "core.input.unrecognised", TFK_SEV_WARNING), 1);
	tfk_check_buffer(text, sizeof(text) - 1, &lim, &r);
	assert_int_equal(r.count, 1);
	assert_int_equal(r.findings[0].severity, TFK_SEV_WARNING);
	assert_int_equal(r.findings[0].fault->severity, TFK_SEV_ERROR); /* the catalog is unchanged */
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(r.by_severity[TFK_SEV_WARNING], 1);
	tfk_report_free(&r);

	assert_int_equal(tfk_policy_disable(p, "core.input.unrecognised"), 1);
	tfk_check_buffer(text, sizeof(text) - 1, &lim, &r);
	assert_int_equal(r.count, 0);
	assert_int_equal(r.total, 0);
	assert_int_equal(r.disabled, 1);
	/* Not a trace is still not checked, whatever the policy hides. */
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
	tfk_policy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_report_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
