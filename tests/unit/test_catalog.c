/* SPDX-License-Identifier: MIT */
/* Catalog invariants: sorted, unique, well-formed ids, every field present. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tracefsck/catalog.h"

static void test_sorted_and_unique(void **state)
{
	(void)state;
	size_t n;
	const struct tfk_fault *cat = tfk_catalog(&n);
	assert_true(n > 20);
	for (size_t i = 1; i < n; i++) {
		if (strcmp(cat[i - 1].id, cat[i].id) >= 0)
			fail_msg("catalog out of order or duplicated: %s then %s", cat[i - 1].id, cat[i].id);
	}
}

static void test_fields_present_and_ids_well_formed(void **state)
{
	(void)state;
	size_t n;
	const struct tfk_fault *cat = tfk_catalog(&n);
	for (size_t i = 0; i < n; i++) {
		const struct tfk_fault *f = &cat[i];
		assert_non_null(f->id);
		assert_non_null(f->summary);
		assert_non_null(f->help);
		assert_true(strlen(f->summary) > 10);
		assert_true(strlen(f->help) > 60);
		assert_true(f->severity <= TFK_SEV_ERROR);
		assert_string_not_equal(tfk_repair_action_name(f->repair), "unknown");
		/* format.group.name: lower case, digits and dashes, exactly two dots */
		int dots = 0;
		for (const char *p = f->id; *p; p++) {
			if (*p == '.')
				dots++;
			else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
				fail_msg("bad character in id %s", f->id);
		}
		if (dots != 2)
			fail_msg("id %s is not format.group.name", f->id);
		assert_true(f->summary[strlen(f->summary) - 1] != '.');
	}
}

static void test_lookup(void **state)
{
	(void)state;
	size_t n;
	const struct tfk_fault *cat = tfk_catalog(&n);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(tfk_catalog_find(cat[i].id), &cat[i]);
	assert_null(tfk_catalog_find("tracedat.cpu"));
	assert_null(tfk_catalog_find(""));
	assert_null(tfk_catalog_find(NULL));
	assert_null(tfk_catalog_find("zzz.yyy.xxx"));
}

/* The codes the foundation issue names must exist with these exact ids and severities. */
static void test_required_codes(void **state)
{
	(void)state;
	static const struct {
		const char *id;
		enum tfk_severity sev;
	} required[] = {
		{ "tracedat.header.bad-magic", TFK_SEV_ERROR },     { "tracedat.header.bad-version", TFK_SEV_ERROR },
		{ "tracedat.header.bad-endian", TFK_SEV_ERROR },    { "tracedat.header.bad-long-size", TFK_SEV_ERROR },
		{ "tracedat.header.bad-page-size", TFK_SEV_ERROR }, { "tracedat.file.truncated", TFK_SEV_ERROR },
		{ "tracedat.section.bad-tag", TFK_SEV_ERROR },      { "tracedat.option.bad-size", TFK_SEV_ERROR },
		{ "tracedat.option.unknown", TFK_SEV_WARNING },     { "tracedat.option.bad-payload", TFK_SEV_ERROR },
		{ "tracedat.cpu.count-mismatch", TFK_SEV_ERROR },   { "tracedat.cpu.misaligned", TFK_SEV_ERROR },
		{ "tracedat.cpu.overlap", TFK_SEV_ERROR },          { "tracedat.cpu.out-of-file", TFK_SEV_ERROR },
		{ "tracedat.cpu.partial-page", TFK_SEV_ERROR },     { "tracedat.page.bad-commit", TFK_SEV_ERROR },
		{ "tracedat.page.event-overrun", TFK_SEV_ERROR },   { "tracedat.page.bad-event", TFK_SEV_ERROR },
		{ "tracedat.page.time-backwards", TFK_SEV_WARNING },
	};
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		const struct tfk_fault *f = tfk_catalog_find(required[i].id);
		if (!f)
			fail_msg("missing required code %s", required[i].id);
		assert_int_equal(f->severity, required[i].sev);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_and_unique),
		cmocka_unit_test(test_fields_present_and_ids_well_formed),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_required_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
