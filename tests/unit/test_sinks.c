/* SPDX-License-Identifier: MIT */
/* Report sinks: hostile bytes never reach output raw, and JSON Lines always parses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json_lines.h"
#include "tdw.h"
#include "tracefsck/tracefsck.h"

struct out {
	char buf[1 << 16];
	size_t len;
};

static int collect(void *user, const char *bytes, size_t len)
{
	struct out *o = user;
	if (o->len + len >= sizeof(o->buf))
		return -1;
	memcpy(o->buf + o->len, bytes, len);
	o->len += len;
	o->buf[o->len] = '\0';
	return 0;
}

static void assert_no_raw_control(const struct out *o)
{
	for (size_t i = 0; i < o->len; i++) {
		unsigned char c = (unsigned char)o->buf[i];
		if ((c < 0x20 && c != '\n') || c >= 0x7f)
			fail_msg("raw byte 0x%02x at %zu of output", c, i);
	}
}

/* A trace whose tags and strings carry escapes, quotes, backslashes, newlines and high bytes. */
static void hostile_trace(struct tdw_buf *b, struct tdw_layout *L)
{
	static const char uname[] = "\x1b]8;;evil\x07\"\\\n::error::x";
	struct tdw_spec s = tdw_default_spec();
	s.extra[0] = (struct tdw_option){ 5, uname, sizeof(uname) - 1 }; /* no NUL: bad-payload */
	s.nextra = 1;
	assert_int_equal(tdw_build(&s, b, L), 0);
	memcpy(b->data + L->flyrecord_tag, "\x1b[2J\"\\\n\xff\x80\x00", 10);
	memcpy(b->data + L->header_page_tag, "\r\x1b[31m\"x\\", 10);
}

static void test_jsonl_parses_and_is_ascii(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct tdw_layout L;
	hostile_trace(&b, &L);
	struct tfk_report r;
	tfk_check_buffer(b.data, b.len, NULL, &r);
	assert_true(r.count >= 3);
	struct out *o = calloc(1, sizeof(*o));
	assert_int_equal(tfk_sink_jsonl(&r, "name\"with\\quote\n\x1b[0m.dat", NULL, collect, o), 0);
	assert_no_raw_control(o);
	size_t lines;
	if (!json_lines_valid(o->buf, o->len, &lines))
		fail_msg("JSON Lines output does not parse:\n%s", o->buf);
	assert_int_equal(lines, r.count + 1);
	assert_non_null(strstr(o->buf, "\"verdict\":\"corrupt\""));
	assert_non_null(strstr(o->buf, "\"code\":\"tracedat.section.bad-tag\",\"severity\":\"error\",\"offset\":18,"));
	tfk_report_free(&r);
	tdw_free(&b);
	free(o);
}

static void test_text_escapes(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct tdw_layout L;
	hostile_trace(&b, &L);
	struct tfk_report r;
	tfk_check_buffer(b.data, b.len, NULL, &r);
	struct out *o = calloc(1, sizeof(*o));
	assert_int_equal(tfk_sink_text(&r, "evil\x1b[0m\n.dat", NULL, collect, o), 0);
	assert_no_raw_control(o);
	/* one line per finding plus the summary: no newline smuggled in from the file */
	size_t nl = 0;
	for (size_t i = 0; i < o->len; i++)
		nl += o->buf[i] == '\n';
	assert_int_equal(nl, r.count + 1);
	assert_non_null(strstr(o->buf, "\\x1b"));
	tfk_report_free(&r);
	tdw_free(&b);
	free(o);
}

static void test_sanitize(void **state)
{
	(void)state;
	char out[16];
	tfk_sanitize(out, sizeof(out), "ab\x01\\", 4);
	assert_string_equal(out, "ab\\x01\\x5c");
	tfk_sanitize(out, sizeof(out), "0123456789abcdefghij", 20);
	assert_string_equal(out, "0123456789ab...");
	tfk_sanitize(out, 5, "\x1b\x1b\x1b", 3);
	assert_string_equal(out, "..."); /* truncation is always visible */
	tfk_sanitize(out, 5, "\x1b", 1);
	assert_string_equal(out, "\\x1b");
	tfk_sanitize(out, 1, "abc", 3);
	assert_string_equal(out, "");
	tfk_sanitize(out, sizeof(out), "", 0);
	assert_string_equal(out, "");
}

static void test_quiet_filters_by_severity(void **state)
{
	(void)state;
	struct tdw_buf b;
	struct tdw_layout L;
	struct tdw_spec s = tdw_default_spec();
	s.extra[0] = (struct tdw_option){ 99, "x", 1 }; /* unknown option: a warning */
	s.nextra = 1;
	assert_int_equal(tdw_build(&s, &b, &L), 0);
	struct tfk_report r;
	tfk_check_buffer(b.data, b.len, NULL, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	struct out *o = calloc(1, sizeof(*o));
	struct tfk_sink_options quiet = { .min_severity = TFK_SEV_ERROR };
	assert_int_equal(tfk_sink_text(&r, "t.dat", &quiet, collect, o), 0);
	assert_null(strstr(o->buf, "tracedat.option.unknown"));
	assert_non_null(strstr(o->buf, "t.dat: clean: 0 errors, 1 warning, 0 notes"));
	tfk_report_free(&r);
	tdw_free(&b);
	free(o);
}

/*
 * A finding whose hazard applies carries it in every output; its neighbour of the same code,
 * whose condition does not hold, renders exactly as a finding without hazards.
 */
static void test_hazard_marks(void **state)
{
	(void)state;
	struct tfk_finding f[2] = {
		{ .fault = tfk_catalog_find("tracedat.header.bad-page-size"), .severity = TFK_SEV_ERROR,
		  .has_offset = true, .offset = 14, .length = 4 },
		{ .fault = tfk_catalog_find("tracedat.header.bad-page-size"), .severity = TFK_SEV_ERROR,
		  .has_offset = true, .offset = 14, .length = 4 },
	};
	strcpy(f[0].found, "0");
	strcpy(f[1].found, "4097");
	struct tfk_report r = { .findings = f, .count = 2, .total = 2, .by_severity = { 0, 0, 2 } };
	struct out *o = calloc(1, sizeof(*o));
	assert_int_equal(tfk_sink_text(&r, "t.dat", NULL, collect, o), 0);
	assert_non_null(strstr(o->buf, "t.dat: 0xe : error tracedat.header.bad-page-size: page size is invalid or "
				       "disagrees with header_page (found 0) {hazard: trace-cmd report 3.1.6 crash (SIGFPE)}\n"));
	assert_non_null(strstr(o->buf, "(found 4097)\n"));
	memset(o, 0, sizeof(*o));
	assert_int_equal(tfk_sink_jsonl(&r, "t.dat", NULL, collect, o), 0);
	const char *first = strstr(o->buf, "\"found\":\"0\"");
	assert_non_null(first);
	assert_non_null(strstr(first, ",\"repair\":\"rewrite-header\",\"hazards\":[{\"reader\":\"trace-cmd report\","
					"\"min_version\":\"3.1.6\",\"max_version\":\"3.1.6\",\"effect\":\"crash\","
					"\"signal\":8,\"signal_name\":\"SIGFPE\",\"condition\":"));
	assert_non_null(strstr(o->buf, "\"found\":\"4097\",\"repair\":\"rewrite-header\"}\n"));
	memset(o, 0, sizeof(*o));
	assert_int_equal(tfk_sink_hazards(&r, "t.dat", collect, o), 0);
	assert_string_equal(o->buf, "t.dat: hazard: trace-cmd report 3.1.6 crash (SIGFPE) through "
				    "tracedat.header.bad-page-size at 0xe\nt.dat: 1 reader hazard\n");
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonl_parses_and_is_ascii),
		cmocka_unit_test(test_text_escapes),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_quiet_filters_by_severity),
		cmocka_unit_test(test_hazard_marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
