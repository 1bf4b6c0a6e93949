/* SPDX-License-Identifier: MIT */
/*
 * The format memo (validate/format_memo.c) and the SipHash under it (validate/siphash.c): the
 * reference vectors, a hash fed in pieces equal to one fed whole, a second check of the same
 * kernel's formats answered from the memo alone with the same report, the crash hook's format
 * never remembered, and the cache's refusals and sealed entries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "format_memo.h"
#include "raised.h"
#include "siphash.h"
#include "test_hooks.h"
#include "tracefsck/check.h"

#ifndef TD_SAMPLES
#define TD_SAMPLES "../shared/samples/tracedat"
#endif
#define SAMPLE TD_SAMPLES "/io-instance-only.v7zstd.dat"

static void sip128_reference(void **state)
{
	(void)state;
	/* veorq/SipHash vectors.h, vectors_sip128: key 00..0f, messages 00, 00 01, ... */
	static const uint8_t want[3][16] = {
		{ 0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02, 0x93 },
		{ 0xda, 0x87, 0xc1, 0xd8, 0x6b, 0x99, 0xaf, 0x44, 0x34, 0x76, 0x59, 0x11, 0x9b, 0x22, 0xfc, 0x45 },
		{ 0x81, 0x77, 0x22, 0x8d, 0xa4, 0xa4, 0x5d, 0xc7, 0xfc, 0xa3, 0x8b, 0xde, 0xf6, 0x0a, 0xff, 0xe4 },
	};
	uint8_t key[16], msg[64], out[16];
	for (unsigned i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (unsigned i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	for (unsigned n = 0; n < 3; n++) {
		struct tfk_sip s;
		tfk_sip_init(&s, key, 1);
		tfk_sip_update(&s, msg, n);
		tfk_sip_final128(&s, out);
		assert_memory_equal(out, want[n], 16);
	}
	/* the 64-bit form: the vector scrub's test holds too (15 bytes) */
	struct tfk_sip s;
	tfk_sip_init(&s, key, 0);
	tfk_sip_update(&s, msg, 15);
	assert_true(tfk_sip_final64(&s) == 0xa129ca6149be45e5ull);
}

static void sip_pieces(void **state)
{
	(void)state;
	uint8_t key[16] = { 7, 1, 2 }, msg[61];
	for (unsigned i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 37 + 5);
	for (size_t cut1 = 0; cut1 <= sizeof(msg); cut1 += 3)
		for (size_t cut2 = cut1; cut2 <= sizeof(msg); cut2 += 5) {
			struct tfk_sip whole, parts;
			uint8_t a[16], b[16];
			tfk_sip_init(&whole, key, 1);
			tfk_sip_update(&whole, msg, sizeof(msg));
			tfk_sip_final128(&whole, a);
			tfk_sip_init(&parts, key, 1);
			tfk_sip_update(&parts, msg, cut1);
			tfk_sip_update(&parts, msg + cut1, cut2 - cut1);
			tfk_sip_update(&parts, msg + cut2, sizeof(msg) - cut2);
			tfk_sip_final128(&parts, b);
			assert_memory_equal(a, b, 16);
		}
}

static void same_report(const struct tfk_report *a, const struct tfk_report *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->total, b->total);
	assert_memory_equal(a->by_severity, b->by_severity, sizeof(a->by_severity));
	assert_int_equal(a->incomplete, b->incomplete);
	assert_int_equal(a->stats.events, b->stats.events);
	for (size_t i = 0; i < a->count; i++) {
		assert_int_equal(a->findings[i].fault, b->findings[i].fault);
		assert_int_equal(a->findings[i].offset, b->findings[i].offset);
		assert_string_equal(a->findings[i].found, b->findings[i].found);
	}
}

static int have_sample(void)
{
	if (access(SAMPLE, R_OK) == 0)
		return 1;
	print_message("no sample at %s: skipped\n", SAMPLE);
	return 0;
}

/* A second check of the same kernel's formats asks libtraceevent nothing, and reports the same. */
static void second_check_from_memo(void **state)
{
	(void)state;
	if (!have_sample())
		skip();
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_report none, first, second;
	tfk_check_file(SAMPLE, &lim, &none);
	raised_note(&none);
	lim.format_memo = tfk_format_memo_new();
	assert_non_null(lim.format_memo);
	tfk_check_file(SAMPLE, &lim, &first);
	struct tfk_format_memo_stats s1 = tfk_format_memo_stats(lim.format_memo);
	tfk_check_file(SAMPLE, &lim, &second);
	struct tfk_format_memo_stats s2 = tfk_format_memo_stats(lim.format_memo);
	assert_true(s1.misses > 1000); /* a real kernel's formats */
	assert_int_equal(s1.hits, 0);
	assert_int_equal(s1.entries, s1.misses);
	assert_int_equal(s2.misses, s1.misses);
	assert_int_equal(s2.hits, s1.misses);
	same_report(&none, &first);
	same_report(&none, &second);
	/* the memo answered rejections too: the note naming them is there */
	size_t notes = 0;
	for (size_t i = 0; i < second.count; i++)
		notes += strcmp(second.findings[i].fault->id, "tracedat.format.unparsable") == 0;
	assert_int_equal(notes, 1);
	tfk_report_free(&none);
	tfk_report_free(&first);
	tfk_report_free(&second);
	tfk_format_memo_free(lim.format_memo);
}

/* A format the parser crashed on is never remembered: the next check meets the crash again. */
static void crash_not_remembered(void **state)
{
	(void)state;
	if (!have_sample())
		skip();
	struct tfk_test_hooks hooks = { .parser_crash_at = 3 };
	struct tfk_limits lim = tfk_limits_default();
	lim.threads = 1;
	lim.test_hooks = &hooks;
	lim.format_memo = tfk_format_memo_new();
	struct tfk_report a, b;
	tfk_check_file(SAMPLE, &lim, &a);
	struct tfk_format_memo_stats s1 = tfk_format_memo_stats(lim.format_memo);
	tfk_check_file(SAMPLE, &lim, &b);
	struct tfk_format_memo_stats s2 = tfk_format_memo_stats(lim.format_memo);
	same_report(&a, &b);
	size_t crashes = 0;
	for (size_t i = 0; i < b.count; i++)
		crashes += strcmp(b.findings[i].fault->id, "tracedat.format.parser-crash") == 0;
	assert_int_equal(crashes, 1);
	raised_note(&b);
	/* every format but the crashed one remembered; the second check asked about that one only */
	assert_int_equal(s1.entries, s1.misses - 1);
	assert_int_equal(s2.misses - s1.misses, 1);
	tfk_report_free(&a);
	tfk_report_free(&b);
	tfk_format_memo_free(lim.format_memo);
}

static void cache_refusals(void **state)
{
	(void)state;
	char dir[] = "/tmp/tfk-memo-XXXXXX", why[256], path[300];
	assert_non_null(mkdtemp(dir));
	struct tfk_format_memo *m = tfk_format_memo_new();
	/* writable by others */
	snprintf(path, sizeof(path), "%s/open", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(chmod(path, 0777), 0);
	assert_int_equal(tfk_format_memo_open_cache(m, path, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "writable by group or others"));
	/* a symbolic link */
	snprintf(path, sizeof(path), "%s/link", dir);
	assert_int_equal(symlink("open", path), 0);
	assert_int_equal(tfk_format_memo_open_cache(m, path, why, sizeof(why)), -1);
	/* a fresh one: made 0700, key 0600; saving with nothing learnt writes nothing */
	snprintf(path, sizeof(path), "%s/fresh", dir);
	assert_int_equal(tfk_format_memo_open_cache(m, path, why, sizeof(why)), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	uint8_t key[16] = { 1 };
	tfk_memo_put(m, key, TFK_MEMO_REJECTS);
	tfk_memo_put(m, key, TFK_MEMO_PARSES); /* the first answer stays */
	tfk_memo_put(m, (uint8_t[16]){ 2 }, 'x'); /* not a verdict: ignored */
	assert_int_equal(tfk_format_memo_save(m, why, sizeof(why)), 0);
	tfk_format_memo_free(m);
	/* a memo on the same directory finds the verdict under the same key */
	m = tfk_format_memo_new();
	assert_int_equal(tfk_format_memo_open_cache(m, path, why, sizeof(why)), 0);
	assert_int_equal(tfk_memo_get(m, key), TFK_MEMO_REJECTS);
	assert_int_equal(tfk_memo_get(m, (uint8_t[16]){ 2 }), 0);
	assert_int_equal(tfk_format_memo_stats(m).loaded, 1);
	const char *name, *what;
	assert_int_equal(tfk_format_memo_ignored(m, 0, &name, &what), -1);
	tfk_format_memo_free(m);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sip128_reference),
		cmocka_unit_test(sip_pieces),
		cmocka_unit_test(second_check_from_memo),
		cmocka_unit_test(crash_not_remembered),
		cmocka_unit_test(cache_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
