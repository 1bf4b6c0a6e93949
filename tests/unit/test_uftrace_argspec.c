/* SPDX-License-Identifier: MIT */
/*
 * uftrace's argument spec rules as read for the payload lengths (validate/formats/uftrace/
 * uftrace_argspec.c): sizes of every format letter, strings, the other pass's actions ignored,
 * an invalid entry dropped whole, what cannot be followed said so, the merge of add_arg_spec,
 * and the pattern kinds of uftrace's init_filter_pattern.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "context.h"
#include "formats/uftrace/uftrace_argspec.h"

static struct tfk_report report;
static struct tfk_ctx ctx;
static struct tfk_limits limits;

static void parse(struct uf_ruleset *rs, const char *text, bool retval, enum uf_patt patt)
{
	memset(&report, 0, sizeof(report));
	limits = tfk_limits_default();
	tfk_ctx_init(&ctx, &limits, &report);
	memset(rs, 0, sizeof(*rs));
	assert_true(uf_rules_parse(&ctx, rs, text, strlen(text), retval, patt, true));
}

static bool matches(const struct uf_rule *r, const char *name)
{
	return uf_rule_matches(r, name, strlen(name));
}

static void sizes(void **state)
{
	(void)state;
	struct uf_ruleset rs;
	parse(&rs, "f@arg1,arg2/i32,arg3/s,arg4/c,arg5/x16,arg6/f32,fparg1,fparg2/80,arg7/S,arg8/e:color,arg9/t24:pair",
	      false, UF_PATT_REGEX);
	assert_false(rs.unfollowable);
	assert_int_equal(rs.n, 1);
	const struct uf_arglist *a = &rs.r[0].args;
	static const uint32_t want[] = { 8, 4, 8, 1, 2, 4, 8, 10, 8, 8, 24 };
	static const bool str[] = { 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0 };
	assert_int_equal(a->n, 11);
	for (unsigned i = 0; i < a->n; i++) {
		assert_int_equal(a->a[i].size, want[i]);
		assert_int_equal(a->a[i].string, str[i]);
		assert_false(a->a[i].retval);
	}
	assert_true(rs.r[0].exact);
	uf_ruleset_free(&rs);
}

/* An ARGUMENT pass ignores retval actions and a RETVAL pass arg actions (compat_flags). */
static void passes(void **state)
{
	(void)state;
	struct uf_ruleset rs;
	parse(&rs, "fib@arg1/i32,retval/i64;g@retval", false, UF_PATT_REGEX);
	assert_int_equal(rs.n, 2);
	assert_int_equal(rs.r[0].args.n, 1);
	assert_true(rs.r[1].auto_lookup); /* its only action is the other pass's */
	uf_ruleset_free(&rs);
	parse(&rs, "fib@arg1/i32,retval/i64", true, UF_PATT_REGEX);
	assert_int_equal(rs.r[0].args.n, 1);
	assert_true(rs.r[0].args.a[0].retval);
	assert_int_equal(rs.r[0].args.a[0].size, 8);
	uf_ruleset_free(&rs);
}

/* An invalid spec drops its whole entry, as setup_trigger_action fails it; others stay. */
static void invalid_entry(void **state)
{
	(void)state;
	struct uf_ruleset rs;
	parse(&rs, "a@arg1/i12;b@arg1/q;c@argx;d@arg2", false, UF_PATT_REGEX);
	assert_false(rs.unfollowable);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].pat_len, 1);
	assert_int_equal(rs.r[0].pat[0], 'd');
	uf_ruleset_free(&rs);
}

/* What is not followed: a module name, a regex beyond a literal; a C++ pattern matches no C name. */
static void unfollowable(void **state)
{
	(void)state;
	struct uf_ruleset rs;
	parse(&rs, "f@libc,arg1", false, UF_PATT_REGEX);
	assert_true(rs.unfollowable);
	uf_ruleset_free(&rs);
	parse(&rs, "f[0-9]@arg1", false, UF_PATT_REGEX);
	assert_true(rs.unfollowable);
	uf_ruleset_free(&rs);
	parse(&rs, "_Znwm@arg1/u", false, UF_PATT_REGEX);
	assert_false(rs.unfollowable);
	assert_false(matches(&rs.r[0], "_Znwm"));
	uf_ruleset_free(&rs);
}

static void patterns(void **state)
{
	(void)state;
	struct uf_ruleset rs;
	parse(&rs, "fib@arg1;^thr@arg1;loop$@arg1;mid@arg1;.@arg1;operator new@arg1;x-y@arg1", false, UF_PATT_REGEX);
	assert_false(rs.unfollowable);
	assert_int_equal(rs.n, 7);
	assert_true(matches(&rs.r[0], "fib"));
	assert_false(matches(&rs.r[0], "fibo")); /* no regex character: compared whole */
	assert_true(matches(&rs.r[1], "thrower"));
	assert_false(matches(&rs.r[1], "a_thrower"));
	assert_true(matches(&rs.r[2], "main_loop"));
	assert_false(matches(&rs.r[2], "loops"));
	assert_true(matches(&rs.r[3], "mid"));
	assert_false(matches(&rs.r[3], "amidst")); /* no regex character: whole */
	assert_true(matches(&rs.r[4], "anything"));
	assert_true(matches(&rs.r[5], "operator new"));
	assert_true(rs.r[5].exact);
	assert_true(matches(&rs.r[6], "ax-yz")); /* '-' makes it a regex: unanchored */
	assert_false(rs.r[6].exact);
	uf_ruleset_free(&rs);
	parse(&rs, "*@arg1;a.b@arg1", false, UF_PATT_GLOB);
	assert_true(matches(&rs.r[0], "f"));
	assert_true(matches(&rs.r[1], "a.b"));
	assert_false(matches(&rs.r[1], "axb"));
	uf_ruleset_free(&rs);
	parse(&rs, "^f@arg1", false, UF_PATT_NONE); /* no pattern_type line: a regex matches nothing */
	assert_false(matches(&rs.r[0], "f"));
	uf_ruleset_free(&rs);
}

/* add_arg_spec: the same argument replaced, unless a regex's would replace an exact one's. */
static void merge(void **state)
{
	(void)state;
	struct uf_ruleset exact, regex;
	parse(&exact, "f@arg1/i32,arg2/s", false, UF_PATT_REGEX);
	parse(&regex, "^f@arg1/s,arg3", false, UF_PATT_REGEX);
	struct uf_arglist list;
	memset(&list, 0, sizeof(list));
	uf_arglist_merge(&list, &exact.r[0].args, true);
	uf_arglist_merge(&list, &regex.r[0].args, false);
	assert_int_equal(list.n, 3);
	assert_int_equal(list.a[0].size, 4); /* arg1 stays i32 */
	assert_false(list.a[0].string);
	assert_true(list.a[1].string);
	assert_int_equal(list.a[2].key, 3);
	uf_arglist_merge(&list, &regex.r[0].args, true);
	assert_true(list.a[0].string); /* an exact match replaces */
	uf_ruleset_free(&exact);
	uf_ruleset_free(&regex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),	 cmocka_unit_test(passes),   cmocka_unit_test(invalid_entry),
		cmocka_unit_test(unfollowable), cmocka_unit_test(patterns), cmocka_unit_test(merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
