/* SPDX-License-Identifier: MIT */
/* Catalog invariants: sorted, unique, well-formed ids, every field present. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tracefsck/catalog.h"
#include "tracefsck/hazard.h"
#include "tracefsck/quirk.h"
#include "writer_version.h"

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

/* Hazards come grouped by fault in catalog order, each complete, and the lookup finds them. */
static void test_hazards_well_formed(void **state)
{
	(void)state;
	size_t n, ncat;
	const struct tfk_hazard *all = tfk_hazard_catalog(&n);
	const struct tfk_fault *cat = tfk_catalog(&ncat);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		const struct tfk_hazard *h = &all[i];
		const struct tfk_fault *f = tfk_hazard_fault(h);
		assert_non_null(f);
		if (i && tfk_hazard_fault(&all[i - 1]) > f)
			fail_msg("hazard %zu (%s) out of catalog order", i, f->id);
		size_t k;
		const struct tfk_hazard *group = tfk_fault_hazards(f, &k);
		assert_true(k > 0 && h >= group && h < group + k);
		assert_true(h->reader && h->reader[0] && h->min_version[0] && h->max_version[0]);
		assert_string_not_equal(tfk_hazard_effect_name(h->effect), "unknown");
		if ((h->effect == TFK_EFFECT_CRASH) != (h->signal > 0))
			fail_msg("%s: a crash names its signal, nothing else does", f->id);
		if (h->signal && strncmp(h->signal_name, "SIG", 3) != 0)
			fail_msg("%s: signal name %s", f->id, h->signal_name);
		if ((h->path_glob || h->expected_glob || h->found_glob) && !h->condition)
			fail_msg("%s: a hazard limited to some findings says which in its condition", f->id);
	}
	/* a code without hazards, and pointers that are not the catalog's */
	size_t k = 99;
	assert_null(tfk_fault_hazards(tfk_catalog_find("tracedat.option.unknown"), &k));
	assert_int_equal(k, 0);
	assert_null(tfk_fault_hazards(NULL, &k));
	assert_null(tfk_hazard_fault(NULL));
	(void)cat;
}

/* The condition picks the instances: page size 0 crashes trace-cmd, page size 4097 does not. */
static void test_hazard_condition(void **state)
{
	(void)state;
	struct tfk_finding f = { .fault = tfk_catalog_find("tracedat.header.bad-page-size") };
	assert_non_null(f.fault);
	strcpy(f.found, "0");
	assert_int_equal(tfk_finding_hazard_count(&f), 1);
	size_t k;
	const struct tfk_hazard *h = tfk_fault_hazards(f.fault, &k);
	assert_int_equal(k, 3); /* the SIGFPE of 0, the silent loss of larger sizes (two ranges) */
	assert_true(tfk_hazard_applies(h, &f));
	assert_int_equal(h->effect, TFK_EFFECT_CRASH);
	assert_string_equal(h->signal_name, "SIGFPE");
	assert_int_equal(h->signal, 8);
	strcpy(f.found, "4097");
	assert_false(tfk_hazard_applies(h, &f));
	assert_int_equal(tfk_finding_hazard_count(&f), 0);
	/* 8192 on 4096-byte pages: the silent loss, not the crash */
	strcpy(f.expected, "4096 (header_page data offset + size)");
	strcpy(f.found, "8192");
	assert_false(tfk_hazard_applies(h, &f));
	assert_int_equal(tfk_finding_hazard_count(&f), 1);
	assert_true(tfk_hazard_applies(&h[1], &f));
	assert_int_equal(h[1].effect, TFK_EFFECT_SILENT_LOSS);
	/* A reader that crashes does not exit 0: kallsyms of 0xffffffff bytes is the SIGSEGV only,
	   a kallsyms cut short the silent loss only. */
	struct tfk_finding ks = { .fault = tfk_catalog_find("tracedat.file.truncated") };
	strcpy(ks.path, "kallsyms (size field at 0x666)");
	strcpy(ks.expected, "4294967295 bytes");
	strcpy(ks.found, "40 bytes before end of file");
	const struct tfk_hazard *kh = tfk_fault_hazards(ks.fault, &k);
	size_t crash = 0, loss = 0;
	for (size_t i = 0; i < k; i++) {
		crash += tfk_hazard_applies(&kh[i], &ks) && kh[i].effect == TFK_EFFECT_CRASH;
		loss += tfk_hazard_applies(&kh[i], &ks) && kh[i].effect == TFK_EFFECT_SILENT_LOSS;
	}
	assert_int_equal(crash, 1);
	assert_int_equal(loss, 0);
	strcpy(ks.expected, "64 bytes");
	crash = loss = 0;
	for (size_t i = 0; i < k; i++) {
		crash += tfk_hazard_applies(&kh[i], &ks) && kh[i].effect == TFK_EFFECT_CRASH;
		loss += tfk_hazard_applies(&kh[i], &ks) && kh[i].effect == TFK_EFFECT_SILENT_LOSS;
	}
	assert_int_equal(crash, 0);
	assert_int_equal(loss, 1);
	/* a hazard never applies to a finding of another code */
	struct tfk_finding other = { .fault = tfk_catalog_find("tracedat.option.unknown") };
	strcpy(other.found, "0");
	assert_false(tfk_hazard_applies(h, &other));
}

/*
 * The writer-quirk table: each row belongs to a catalog code of its own, rows in catalog order,
 * every field given, a quirk never an error (a known writer's behaviour is not corruption), and
 * a version range that is a range, fixed after it. That each quirk's code is raised by a test
 * on a fixture is catalog_coverage's business, as for every code.
 */
static void test_quirks_well_formed(void **state)
{
	(void)state;
	size_t n;
	const struct tfk_quirk *all = tfk_quirk_catalog(&n);
	for (size_t i = 0; i < n; i++) {
		const struct tfk_quirk *q = &all[i];
		const struct tfk_fault *f = tfk_quirk_fault(q);
		assert_non_null(f);
		if (i && tfk_quirk_fault(&all[i - 1]) >= f)
			fail_msg("quirk %zu (%s) out of catalog order or a second row for one code", i, f->id);
		assert_ptr_equal(tfk_fault_quirk(f), q);
		if (f->severity == TFK_SEV_ERROR)
			fail_msg("%s: a writer quirk is a note or a warning, not an error", f->id);
		if (!q->writer[0] || !q->first_bad[0] || !q->last_bad[0] || !q->effect[0] || !q->repair[0])
			fail_msg("%s: every field of a quirk row is given (fixed_in may be empty)", f->id);
		if (tfk_version_cmp(q->first_bad, q->last_bad) > 0)
			fail_msg("%s: first bad version %s after last %s", f->id, q->first_bad, q->last_bad);
		if (q->fixed_in[0] && tfk_version_cmp(q->fixed_in, q->last_bad) <= 0)
			fail_msg("%s: fixed in %s, not after the last bad %s", f->id, q->fixed_in, q->last_bad);
	}
	assert_null(tfk_quirk_fault(NULL));
	assert_null(tfk_fault_quirk(NULL));
	assert_null(tfk_fault_quirk(tfk_catalog_find("core.input.io-error")));
}

/* Writer versions compare as dotted numbers, whatever decorates them. */
static void test_writer_versions(void **state)
{
	(void)state;
	assert_int_equal(tfk_version_cmp("3.3.1", "3.3.1"), 0);
	assert_true(tfk_version_cmp("3.3", "3.3.0") == 0);
	assert_true(tfk_version_cmp("3.2.0", "3.10") < 0); /* numbers, not text */
	assert_true(tfk_version_cmp("v0.17", "0.16.2") > 0);
	assert_true(tfk_version_cmp("2.14.0-rc1", "2.14.0") == 0);
	assert_true(tfk_version_cmp("6.16.0+git", "6.2") > 0);
	assert_true(tfk_version_cmp("", "0") == 0);
	assert_true(tfk_version_cmp("99999999999999999999", "1000000000") == 0); /* capped, no overflow */
	assert_true(tfk_version_between("3.3.1", "3.3.1", "3.3.1"));
	assert_false(tfk_version_between("3.3.2", "3.0", "3.3.1"));
	assert_true(tfk_version_between("3.1", NULL, "3.3.1"));
	assert_true(tfk_version_between("7", "6.16", ""));
	assert_false(tfk_version_between("6.15.9", "6.16", ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_and_unique),
		cmocka_unit_test(test_fields_present_and_ids_well_formed),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_required_codes),
		cmocka_unit_test(test_hazards_well_formed),
		cmocka_unit_test(test_hazard_condition),
		cmocka_unit_test(test_quirks_well_formed),
		cmocka_unit_test(test_writer_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
