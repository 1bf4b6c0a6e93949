/* SPDX-License-Identifier: MIT */
/*
 * CTF 2 trace directories: a small trace written here (JSON metadata by CTF2-SPEC-2.0, one data
 * stream of two packets, roles, an alias, a variant, an optional, a dynamic-length array and
 * variable-length integers) checks clean with every event counted; each JSON and fragment
 * fault is raised on a damaged copy at its byte offset in the metadata; repair leaves the
 * damaged fragments out and the copy checks clean; Trace Compass's CTF 2 test traces check
 * clean with their event counts; the LTTng writer quirks are named on copies of real files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "raised.h"
#include "tracefsck/check.h"
#include "tracefsck/repair.h"

#ifndef FOREIGN_DIR
#define FOREIGN_DIR "../shared/foreign"
#endif
#ifndef CTF_SAMPLES
#define CTF_SAMPLES "../shared/samples/ctf"
#endif

#define U8 "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\"}"
#define U32 "{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\",\"alignment\":8}"
#define U64R(role)                                                                                                  \
	"{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":\"little-endian\",\"alignment\":8," \
	"\"roles\":[\"" role "\"]}"
/* Aligned to 64 bits: the packet context begins at byte 24. */
#define U64A(role)                                                                                                   \
	"{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":\"little-endian\",\"alignment\":64," \
	"\"roles\":[\"" role "\"]}"

/* The fragments, each after its RS; a test may replace one (frag[]) before writing. */
/* F_MID and F_LAST: none in the pristine trace; a test puts a fragment there. */
enum { F_PREAMBLE, F_TRACE, F_CLOCK, F_ALIAS, F_MID, F_STREAM, F_EVENT0, F_EVENT1, F_LAST, NFRAG };
static const char *const pristine[NFRAG] = {
	"{\"type\":\"preamble\",\"version\":2,\"uuid\":[42,100,34,208,108,238,17,224,140,8,203,7,215,179,165,100]}\n",
	"{\"type\":\"trace-class\",\"environment\":{\"tracer_name\":\"test\",\"tracer_major\":1},"
	"\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"magic\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
	"\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-magic-number\"]}},"
	"{\"name\":\"uuid\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-uuid\"]}},"
	"{\"name\":\"sid\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
	"\"byte-order\":\"little-endian\",\"roles\":[\"data-stream-class-id\"]}}]}}\n",
	"{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000,\"offset-from-origin\":{\"seconds\":10,\"cycles\":5}}\n",
	"{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":" U8 "}\n",
	NULL,
	"{\"type\":\"data-stream-class\",\"id\":0,\"default-clock-class-id\":\"c\","
	"\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"size\",\"field-class\":" U64A("packet-total-length") "},"
	"{\"name\":\"content\",\"field-class\":" U64A("packet-content-length") "},"
	"{\"name\":\"begin\",\"field-class\":" U64A("default-clock-timestamp") "},"
	"{\"name\":\"end\",\"field-class\":" U64A("packet-end-default-clock-timestamp") "}]},"
	"\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
	"\"byte-order\":\"little-endian\",\"roles\":[\"event-record-class-id\"]}},"
	"{\"name\":\"ts\",\"field-class\":" U64R("default-clock-timestamp") "}]}}\n",
	"{\"type\":\"event-record-class\",\"id\":0,\"name\":\"e\",\"payload-field-class\":{\"type\":\"structure\","
	"\"member-classes\":[{\"name\":\"tag\",\"field-class\":\"u8\"},"
	"{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"tag\"]},"
	"\"options\":[{\"name\":\"a\",\"selector-field-ranges\":[[0,0]],\"field-class\":\"u8\"},"
	"{\"name\":\"b\",\"selector-field-ranges\":[[1,1]],\"field-class\":" U32 "}]}},"
	"{\"name\":\"has\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,\"byte-order\":\"little-endian\"}},"
	"{\"name\":\"opt\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":{\"path\":[\"has\"]},"
	"\"field-class\":\"u8\"}},"
	"{\"name\":\"n\",\"field-class\":\"u8\"},"
	"{\"name\":\"arr\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":"
	"{\"origin\":\"event-record-payload\",\"path\":[\"n\"]},\"element-field-class\":\"u8\"}},"
	"{\"name\":\"s\",\"field-class\":{\"type\":\"null-terminated-string\"}}]}}\n",
	"{\"type\":\"event-record-class\",\"id\":1,\"name\":\"vl\",\"payload-field-class\":{\"type\":\"structure\","
	"\"member-classes\":[{\"name\":\"x\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
	"{\"name\":\"y\",\"field-class\":{\"type\":\"variable-length-signed-integer\"}}]}}\n",
	NULL,
};
static const char *frag[NFRAG];

/* The data stream: two packets of 128 bytes, three events each (e, vl, e). */
#define PKT 128
#define NPKT 2
#define HDR 56   /* header 21 bytes, context aligned to 24, four u64 */
#define E0 22    /* id, ts, tag 1, v.b u32, has 1, opt, n 2, arr[2], "hi" */
#define E1 12    /* id, ts, x 300 (2 bytes), y -2 (1 byte) */
#define CONTENT (HDR + 2 * E0 + E1)
#define EVENTS (NPKT * 3)

static const uint8_t uuid[16] = { 42, 100, 34, 208, 108, 238, 17, 224, 140, 8, 203, 7, 215, 179, 165, 100 };

static char dir[512], out[600], again[600];
static struct tfk_report rep;
static char meta[16384];
static size_t meta_len;

static void member_path(const char *name, char *p, size_t n)
{
	snprintf(p, n, "%s/%s", dir, name);
}

static void write_member(const char *name, const void *data, size_t len)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* The metadata from frag[] (NULL: left out), every fragment after its RS. */
static void write_metadata(void)
{
	meta_len = 0;
	for (int i = 0; i < NFRAG; i++) {
		if (!frag[i])
			continue;
		size_t n = strlen(frag[i]);
		assert_true(meta_len + 1 + n < sizeof(meta));
		meta[meta_len++] = 0x1e;
		memcpy(meta + meta_len, frag[i], n);
		meta_len += n;
	}
	write_member("metadata", meta, meta_len);
}

/* The metadata file's offset of the first `what` in it. */
static uint64_t at(const char *what)
{
	const char *p = memmem(meta, meta_len, what, strlen(what));
	assert_non_null(p);
	return (uint64_t)(p - meta);
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void write_stream(void)
{
	uint8_t s[PKT * NPKT];
	memset(s, 0, sizeof(s));
	for (int k = 0; k < NPKT; k++) {
		uint8_t *p = s + k * PKT;
		const uint64_t begin = 1000 * (uint64_t)(k + 1);
		put_le(p, 0xC1FC1FC1, 4);
		memcpy(p + 4, uuid, 16);
		p[20] = 0; /* sid */
		put_le(p + 24, PKT * 8, 8);
		put_le(p + 32, CONTENT * 8, 8);
		put_le(p + 40, begin, 8);
		put_le(p + 48, begin + 100, 8);
		uint8_t *e = p + HDR;
		for (int i = 0; i < 3; i++) {
			const bool vl = i == 1;
			e[0] = vl ? 1 : 0;
			put_le(e + 1, begin + 10 * (uint64_t)i, 8);
			if (vl) {
				e[9] = 0xac; /* 300 */
				e[10] = 0x02;
				e[11] = 0x7e; /* -2 */
				e += E1;
				continue;
			}
			e[9] = 1;                  /* tag: option b */
			put_le(e + 10, 77, 4);     /* v.b */
			e[14] = 1;                 /* has */
			e[15] = 9;                 /* opt */
			e[16] = 2;                 /* n */
			e[17] = 1;
			e[18] = 2;
			memcpy(e + 19, "hi", 3);
			e += E0;
		}
	}
	write_member("stream_0", s, sizeof(s));
}

static void run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tfk-ctf2-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(again, sizeof(again), "%s.again", dir);
	memcpy(frag, pristine, sizeof(frag));
	write_metadata();
	write_stream();
	memset(&rep, 0, sizeof(rep));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tfk_report_free(&rep);
	char cmd[2000];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s' '%s'", dir, out, again);
	run(cmd);
	return 0;
}

static void check_path(const char *path)
{
	tfk_report_free(&rep);
	memset(&rep, 0, sizeof(rep));
	tfk_check_file(path, NULL, &rep);
	raised_note(&rep);
}

static void check_dir(void)
{
	check_path(dir);
}

static void dump_report(void)
{
	for (size_t i = 0; i < rep.count; i++) {
		const struct tfk_finding *f = &rep.findings[i];
		fprintf(stderr, "  %s [%s] @%llu %s: %s / %s\n", f->fault->id, f->member, (unsigned long long)f->offset,
			f->path, f->expected, f->found);
	}
}

static void expect_at(const char *code, uint64_t offset)
{
	for (size_t i = 0; i < rep.count; i++) {
		const struct tfk_finding *f = &rep.findings[i];
		if (strcmp(f->fault->id, code) == 0 && strcmp(f->member, "metadata") == 0 && f->has_offset &&
		    f->offset == offset)
			return;
	}
	dump_report();
	fail_msg("no %s in metadata at %llu", code, (unsigned long long)offset);
}

static void expect_clean(uint64_t events)
{
	if (tfk_report_verdict(&rep) != TFK_VERDICT_CLEAN || rep.incomplete || rep.stats.events != events) {
		dump_report();
		fail_msg("expected clean with %llu events, got %llu (incomplete %d)", (unsigned long long)events,
			 (unsigned long long)rep.stats.events, rep.incomplete);
	}
}

/* ---- the pristine trace ---- */

static void pristine_clean(void **state)
{
	(void)state;
	check_dir();
	expect_clean(EVENTS);
	assert_int_equal(rep.by_severity[TFK_SEV_WARNING], 0);
	assert_int_equal(rep.by_severity[TFK_SEV_NOTE], 0);
}

/* The data is read through the metadata: a byte of the array length wrong is an overrun. */
static void data_through_metadata(void **state)
{
	(void)state;
	char p[1024];
	member_path("stream_0", p, sizeof(p));
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, HDR + 16, SEEK_SET), 0); /* event 0's n */
	fputc(200, f);
	fclose(f);
	check_dir();
	bool found = false;
	for (size_t i = 0; i < rep.count; i++)
		found |= !strcmp(rep.findings[i].fault->id, "ctf.event.overrun") && rep.findings[i].offset == CONTENT &&
			 strstr(rep.findings[i].path, "fields arr") != NULL; /* the 200 bytes run past the content */
	if (!found)
		dump_report();
	assert_true(found);
}

/* ---- JSON faults, at their bytes ---- */

static void json_syntax(void **state)
{
	(void)state;
	frag[F_CLOCK] = "{\"type\":\"clock-class\",\"id\":\"c\" \"frequency\":1000000000}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-syntax", at("\"frequency\""));
	/* the stream class names a clock no fragment declared now */
	expect_at("ctf.metadata.fragment-dangling", at("\"c\",\"packet-context"));
}

static void json_depth(void **state)
{
	(void)state;
	static char deep[400];
	strcpy(deep, "{\"type\":\"field-class-alias\",\"name\":\"x\",\"field-class\":{\"attributes\":");
	for (int i = 0; i < 70; i++)
		strcat(deep, "[");
	for (int i = 0; i < 70; i++)
		strcat(deep, "]");
	strcat(deep, "}}\n");
	frag[F_ALIAS] = deep;
	write_metadata();
	check_dir();
	/* the object is level 1, field-class 2, attributes 3: the 62nd '[' is level 65 */
	expect_at("ctf.metadata.json-depth", at("[[[[") + 62);
}

static void json_string_length(void **state)
{
	(void)state;
	const size_t n = 70000;
	char *big = malloc(n + 64);
	assert_non_null(big);
	strcpy(big, "{\"type\":\"field-class-alias\",\"name\":\"");
	size_t k = strlen(big);
	memset(big + k, 'a', n);
	strcpy(big + k + n, "\",\"field-class\":\"u8\"}\n");
	char *m = malloc(n + 4096);
	assert_non_null(m);
	frag[F_ALIAS] = big;
	/* the fixture's buffer is too small for this one: written by hand */
	size_t len = 0;
	for (int i = 0; i < NFRAG; i++) {
		if (!frag[i])
			continue;
		m[len++] = 0x1e;
		memcpy(m + len, frag[i], strlen(frag[i]));
		len += strlen(frag[i]);
	}
	write_member("metadata", m, len);
	const uint64_t where = (uint64_t)(strstr(m, "\"aaaa") - m);
	check_dir();
	free(big);
	free(m);
	for (size_t i = 0; i < rep.count; i++)
		if (!strcmp(rep.findings[i].fault->id, "ctf.metadata.json-string-length") && rep.findings[i].offset == where)
			return;
	dump_report();
	fail_msg("no json-string-length at %llu", (unsigned long long)where);
}

static void json_number_range(void **state)
{
	(void)state;
	frag[F_CLOCK] = "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":18446744073709551616}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-number-range", at("18446744073709551616"));
}

static void json_duplicate_key(void **state)
{
	(void)state;
	frag[F_CLOCK] = "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000,\"id\":\"d\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-duplicate-key", at("\"id\":\"d\""));
}

static void json_utf8(void **state)
{
	(void)state;
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":1,\"name\":\"v\xc3\x28l\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-utf8", at("\xc3\x28"));
	/* a lone surrogate escape is not a character either */
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":1,\"name\":\"\\udc00\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-utf8", at("\\udc00"));
}

static void json_trailing(void **state)
{
	(void)state;
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":1,\"name\":\"vl\",\"payload-field-class\":{\"type\":\"structure\","
			 "\"member-classes\":[{\"name\":\"x\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
			 "{\"name\":\"y\",\"field-class\":{\"type\":\"variable-length-signed-integer\"}}]}}\ngarbage\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-trailing", at("garbage"));
	assert_int_equal(rep.stats.events, EVENTS); /* the object itself is used */
}

/* ---- fragments ---- */

static void fragment_cut(void **state)
{
	(void)state;
	frag[F_LAST] = "{\"type\":\"event-record-class\",\"id\":5,\"name\":\"late\",\"payload-fie";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-cut", at("\x1e{\"type\":\"event-record-class\",\"id\":5"));
	/* the fragments before it decode the streams */
	assert_int_equal(rep.stats.events, EVENTS);
}

static void fragment_order(void **state)
{
	(void)state;
	const char *p = frag[F_PREAMBLE];
	frag[F_PREAMBLE] = frag[F_TRACE];
	frag[F_TRACE] = p;
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-order", 1);
	/* a second trace class */
	memcpy(frag, pristine, sizeof(frag));
	frag[F_ALIAS] = "{\"type\":\"trace-class\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-order", at("{\"type\":\"trace-class\"}"));
}

static void fragment_bad(void **state)
{
	(void)state;
	frag[F_PREAMBLE] = "{\"type\":\"preamble\",\"version\":3}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-bad", at("3}"));
	/* a property the specification does not define: reported at its key */
	memcpy(frag, pristine, sizeof(frag));
	frag[F_CLOCK] = "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000,\"colour\":\"red\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-bad", at("\"colour\""));
	/* a role the scope does not have */
	memcpy(frag, pristine, sizeof(frag));
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":1,\"payload-field-class\":{\"type\":\"structure\","
			 "\"member-classes\":[{\"name\":\"x\",\"field-class\":" U64R("packet-total-length") "}]}}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-bad", at("\"packet-total-length\"]}}]}}"));
	/* offset cycles of a second or more */
	memcpy(frag, pristine, sizeof(frag));
	frag[F_CLOCK] = "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":100,\"offset-from-origin\":{\"cycles\":100}}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-bad", at("100}"));
}

static void fragment_duplicate(void **state)
{
	(void)state;
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":0,\"name\":\"again\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-duplicate", at("0,\"name\":\"again\""));
}

static void fragment_dangling(void **state)
{
	(void)state;
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":1,\"data-stream-class-id\":7}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-dangling", at("7}"));
	/* an alias no fragment declared */
	memcpy(frag, pristine, sizeof(frag));
	frag[F_ALIAS] = "{\"type\":\"field-class-alias\",\"name\":\"u16\",\"field-class\":\"u8\"}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-dangling", at("\"u8\"}"));
}

static void fragment_missing(void **state)
{
	(void)state;
	frag[F_STREAM] = NULL;
	frag[F_EVENT0] = NULL;
	frag[F_EVENT1] = NULL;
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.fragment-missing", 0);
}

/* A draft's enumeration type: read, and said to be a draft's. */
static void draft(void **state)
{
	(void)state;
	frag[F_ALIAS] = "{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":{\"type\":"
			"\"fixed-length-unsigned-enumeration\",\"length\":8,\"byte-order\":\"little-endian\","
			"\"mappings\":{\"A\":[[0,0]],\"B\":[[1,1]]}}}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.ctf2-draft", at("\"fixed-length-unsigned-enumeration\""));
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(rep.stats.events, EVENTS);
}

/* Something this build does not decode: said, and the check incomplete rather than wrong. */
static void unsupported(void **state)
{
	(void)state;
	frag[F_EVENT1] = "{\"type\":\"event-record-class\",\"id\":1,\"payload-field-class\":{\"type\":\"structure\","
			 "\"member-classes\":[{\"name\":\"s\",\"field-class\":{\"type\":\"null-terminated-string\","
			 "\"encoding\":\"utf-16le\"}}]}}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.ctf2", at("\"utf-16le\""));
	assert_true(rep.incomplete);
}

/* ---- repair ---- */

static uint64_t kept_events(const struct tfk_repair_report *r)
{
	uint64_t n = 0;
	for (size_t i = 0; i < r->nmembers; i++)
		if (strcmp(r->members[i].unit, "events") == 0)
			n += r->members[i].kept;
	return n;
}

static void repair_ok(uint64_t events)
{
	struct tfk_repair_report r;
	memset(&r, 0, sizeof(r));
	tfk_repair_dir(dir, out, NULL, &r);
	raised_note(&r.before);
	if (r.outcome != TFK_REPAIR_DONE || tfk_report_verdict(&r.after) != TFK_VERDICT_CLEAN) {
		fprintf(stderr, "outcome %d: %s\n", r.outcome, r.reason ? r.reason : "");
		tfk_report_free(&rep);
		rep = r.after;
		memset(&r.after, 0, sizeof(r.after));
		dump_report();
	}
	assert_int_equal(r.outcome, TFK_REPAIR_DONE);
	assert_int_equal(tfk_report_verdict(&r.after), TFK_VERDICT_CLEAN);
	assert_int_equal(r.after.stats.events, events);
	assert_int_equal(kept_events(&r), events);
	tfk_repair_report_free(&r);
	struct tfk_repair_report second;
	tfk_repair_dir(out, again, NULL, &second);
	assert_int_equal(second.outcome, TFK_REPAIR_NOTHING_TO_DO);
	tfk_repair_report_free(&second);
}

static void repair_trailing(void **state)
{
	(void)state;
	static char f[2048];
	snprintf(f, sizeof(f), "%s\x01\x02garbage", pristine[F_EVENT1]);
	frag[F_EVENT1] = f;
	write_metadata();
	repair_ok(EVENTS);
}

/* The last fragment cut: left out. */
static void repair_cut(void **state)
{
	(void)state;
	frag[F_LAST] = "{\"type\":\"event-record-class\",\"id\":5,\"name\":\"late\",\"payload-fie";
	write_metadata();
	repair_ok(EVENTS);
}

/* A fragment damaged in the middle of the metadata: left out, the rest kept. */
static void repair_mid(void **state)
{
	(void)state;
	frag[F_MID] = "{\"type\":\"event-record-class\",\"id\":5,\"name\":\"x\"\x01}\n";
	write_metadata();
	check_dir();
	expect_at("ctf.metadata.json-syntax", at("\x01}"));
	repair_ok(EVENTS);
}

/* A data stream cut inside its second packet: repaired as CTF 1.8's are, the first packet kept. */
static void repair_stream_cut(void **state)
{
	(void)state;
	char p[1024];
	member_path("stream_0", p, sizeof(p));
	assert_int_equal(truncate(p, PKT + 40), 0);
	check_dir();
	bool cut = false;
	for (size_t i = 0; i < rep.count; i++)
		cut |= !strcmp(rep.findings[i].fault->id, "ctf.packet.truncated") && rep.findings[i].offset == PKT + 21; /* its context, after the header */
	if (!cut)
		dump_report();
	assert_true(cut);
	repair_ok(3);
}

/*
 * A CTF 2 packet whose metadata-stream UUID is not the trace's: an error, where a CTF 1.8 one is
 * only a warning (ctf.stream.uuid-foreign): babeltrace2 2.1 refuses it ("Invalid metadata stream
 * UUID").
 */
static void stream_uuid_mismatch(void **state)
{
	(void)state;
	char p[1024];
	member_path("stream_0", p, sizeof(p));
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, PKT + 4, SEEK_SET), 0);
	assert_int_equal(fputc(uuid[0] ^ 0xff, f), uuid[0] ^ 0xff);
	fclose(f);
	check_dir();
	for (size_t i = 0; i < rep.count; i++) {
		const struct tfk_finding *x = &rep.findings[i];
		if (!strcmp(x->fault->id, "ctf.stream.uuid-mismatch") && !strcmp(x->member, "stream_0") && x->has_offset &&
		    x->offset == PKT + 4) {
			assert_int_equal(x->fault->severity, TFK_SEV_ERROR);
			return;
		}
	}
	dump_report();
	fail_msg("no ctf.stream.uuid-mismatch in stream_0 at %d", PKT + 4);
}

/* ---- real traces ---- */

static void foreign(const char *name, uint64_t events, bool draft_dialect)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/ctf/tracecompass/%s", FOREIGN_DIR, name);
	struct stat sb;
	if (stat(p, &sb) != 0) {
		print_message("skipping %s: not there\n", p);
		return;
	}
	check_path(p);
	expect_clean(events);
	bool said = false;
	for (size_t i = 0; i < rep.count; i++)
		said |= !strcmp(rep.findings[i].fault->id, "ctf.metadata.ctf2-draft");
	assert_int_equal(said, draft_dialect);
}

/* Trace Compass's CTF 2 test traces: its own event counts (CtfTestTrace: vl-ints 1). */
static void foreign_tracecompass(void **state)
{
	(void)state;
	foreign("CTF2-vl-ints", 1, false);
	foreign("CTF2-7.0-smalltrace", 2, true);
	foreign("CTF2-7.0-lttng-crash", 400, true);
	foreign("CTF2-7.0-trace-with-index", 4000, true);
}

/* ---- writer quirks, on copies of real files ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	char *p = malloc((size_t)n + 64);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	p[n] = 0;
	*len = (size_t)n;
	return p;
}

/* s with the first `from` replaced by `to` (s freed). */
static char *replace(char *s, const char *from, const char *to)
{
	char *at = strstr(s, from);
	assert_non_null(at);
	size_t n = strlen(s), nf = strlen(from), nt = strlen(to);
	char *r = malloc(n - nf + nt + 1);
	assert_non_null(r);
	memcpy(r, s, (size_t)(at - s));
	memcpy(r + (at - s), to, nt);
	strcpy(r + (at - s) + nt, at + nf);
	free(s);
	return r;
}

/* text in one metadata packet (LE, version major.minor, the given UUID) as member `path`. */
static void write_packet(const char *path, const char *text, const uint8_t id[16], uint8_t major, uint8_t minor)
{
	size_t n = strlen(text);
	uint8_t *p = calloc(1, 37 + n);
	assert_non_null(p);
	put_le(p, 0x75D11D57, 4);
	memcpy(p + 4, id, 16);
	put_le(p + 24, (37 + n) * 8, 4);
	put_le(p + 28, (37 + n) * 8, 4);
	p[35] = major;
	p[36] = minor;
	memcpy(p + 37, text, n);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, 37 + n, f), 37 + n);
	fclose(f);
	free(p);
}

static const struct tfk_finding *first_of(const char *code)
{
	for (size_t i = 0; i < rep.count; i++)
		if (!strcmp(rep.findings[i].fault->id, code))
			return &rep.findings[i];
	return NULL;
}

static bool raised(const char *code)
{
	return first_of(code) != NULL;
}

/*
 * lttng-modules 2.14.0 to 2.14.2 put version 1.8 in the packets of CTF 2 metadata: Trace
 * Compass's lttng-crash trace, its JSON packetized so, as that lttng-modules says it wrote it.
 */
static void quirk_ctf2_packet_version(void **state)
{
	(void)state;
	char src[1024], p[1100];
	snprintf(src, sizeof(src), "%s/ctf/tracecompass/CTF2-7.0-lttng-crash", FOREIGN_DIR);
	size_t n;
	snprintf(p, sizeof(p), "%s/metadata", src);
	char *text = slurp(p, &n);
	if (!text) {
		print_message("skipping: no %s\n", p);
		return;
	}
	char cmd[2400];
	snprintf(cmd, sizeof(cmd), "cp '%s/chan_0' '%s/' && rm -f '%s/stream_0'", src, dir, dir);
	run(cmd);
	text = replace(text, "\"tracer_minor\": 11", "\"tracer_minor\": 14, \"tracer_patchlevel\": 1");
	text = replace(text, "\"lttng-ust\"", "\"lttng-modules\"");
	static const uint8_t id[16] = { 167, 5, 80, 101, 147, 143, 67, 156, 129, 142, 151, 92, 19, 179, 11, 226 };
	member_path("metadata", p, sizeof(p));
	write_packet(p, text, id, 1, 8);
	check_dir();
	assert_true(raised("ctf.writer.lttng-ctf2-packet-version"));
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(rep.stats.events, 400);
	/* from another tracer version, the same header is wrong */
	text = replace(text, "\"tracer_minor\": 14", "\"tracer_minor\": 15");
	write_packet(p, text, id, 1, 8);
	check_dir();
	assert_false(raised("ctf.writer.lttng-ctf2-packet-version"));
	assert_true(raised("ctf.metadata.bad-packet"));
	/* and 2.0, as CTF2-PMETA-1.0 says, is clean */
	write_packet(p, text, id, 2, 0);
	check_dir();
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	assert_false(raised("ctf.metadata.bad-packet"));
	free(text);
}

/* The TSDL text of packetized metadata, packet after packet. */
static char *packets_text(const char *path, uint8_t id[16])
{
	size_t n;
	char *raw = slurp(path, &n);
	if (!raw)
		return NULL;
	char *text = calloc(1, n + 1);
	assert_non_null(text);
	size_t len = 0;
	memcpy(id, raw + 4, 16);
	for (size_t at = 0; at + 37 <= n;) {
		const uint8_t *h = (const uint8_t *)raw + at;
		uint32_t content = (uint32_t)h[24] | (uint32_t)h[25] << 8 | (uint32_t)h[26] << 16 | (uint32_t)h[27] << 24;
		uint32_t packet = (uint32_t)h[28] | (uint32_t)h[29] << 8 | (uint32_t)h[30] << 16 | (uint32_t)h[31] << 24;
		assert_true(content / 8 >= 37 && packet >= content && packet / 8 <= n - at);
		memcpy(text + len, raw + at + 37, content / 8 - 37);
		len += content / 8 - 37;
		at += packet / 8;
	}
	free(raw);
	return text;
}

/*
 * The tracef-2000 sample's stream class copied into dir, and the text of its metadata packets
 * (id: their uuid), for a test to rewrite; NULL (the test skips) when the sample is not there.
 */
static char *sample_copied(char *meta_path, size_t cap, uint8_t id[16])
{
	char src[1024];
	snprintf(src, sizeof(src), "%s/tracef-2000.lttng/ust/uid/0/64-bit", CTF_SAMPLES);
	snprintf(meta_path, cap, "%s/metadata", src);
	char *text = packets_text(meta_path, id);
	if (!text) {
		print_message("skipping: no %s\n", meta_path);
		return NULL;
	}
	char cmd[2400];
	snprintf(cmd, sizeof(cmd), "rm -f '%s'/* && cp -r '%s'/. '%s/'", dir, src, dir);
	run(cmd);
	member_path("metadata", meta_path, cap);
	return text;
}


/*
 * LTTng 2.14.0's kernel metadata lacks its first line: the lttng-ust recording's metadata as
 * lttng-modules 2.14.0 would have written it, one packet without the line. Noted with the
 * version; repair puts the line back and the copy checks clean.
 */
static void quirk_no_signature(void **state)
{
	(void)state;
	char p[1100];
	uint8_t id[16];
	char *text = sample_copied(p, sizeof(p), id);
	if (!text)
		return;
	text = replace(text, "/* CTF 1.8 */\n", "");
	text = replace(text, "tracer_name = \"lttng-ust\";", "tracer_name = \"lttng-modules\";");
	text = replace(text, "tracer_minor = 13;", "tracer_minor = 14;\n\ttracer_patchlevel = 0;");
	write_packet(p, text, id, 1, 8);
	check_dir();
	const uint64_t events = rep.stats.events;
	assert_true(raised("ctf.writer.lttng-no-signature"));
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	assert_true(events > 0);
	struct tfk_repair_report r;
	memset(&r, 0, sizeof(r));
	tfk_repair_dir(dir, out, NULL, &r);
	assert_int_equal(r.outcome, TFK_REPAIR_DONE);
	assert_int_equal(tfk_report_verdict(&r.after), TFK_VERDICT_CLEAN);
	assert_int_equal(r.after.stats.events, events);
	bool still = false;
	for (size_t i = 0; i < r.after.count; i++)
		still |= !strcmp(r.after.findings[i].fault->id, "ctf.writer.lttng-no-signature");
	assert_false(still);
	tfk_repair_report_free(&r);
	free(text);
}

/*
 * lttng-sessiond 2.14.0 and 2.14.1 left out the class of a user space event with a field of
 * empty name: the lttng-ust recording's metadata as such a session daemon wrote it for an
 * lttng-ust 2.14 application, its one class numbered 1 so that the data's id 0 is the one left
 * out. Named as the writer's, a warning, not ctf.event.unknown-id; from lttng-ust 2.13 the same
 * bytes are an unknown id.
 */
static void quirk_dropped_event_class(void **state)
{
	(void)state;
	char p[1100];
	uint8_t id[16];
	char *text = sample_copied(p, sizeof(p), id);
	if (!text)
		return;
	text = replace(text, "\tid = 0;\n\tstream_id = 0;", "\tid = 1;\n\tstream_id = 0;");
	text = replace(text, "tracer_minor = 13;", "tracer_minor = 14;");
	write_packet(p, text, id, 1, 8);
	check_dir();
	const struct tfk_finding *q = first_of("ctf.writer.lttng-dropped-event-class");
	assert_non_null(q);
	assert_true(q->has_offset);
	char member[sizeof(q->member)];
	snprintf(member, sizeof(member), "%s", q->member);
	const uint64_t at = q->offset;
	assert_false(raised("ctf.event.unknown-id"));
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	/* the same metadata from lttng-ust 2.13: the id is unknown */
	text = replace(text, "tracer_minor = 14;", "tracer_minor = 13;");
	write_packet(p, text, id, 1, 8);
	check_dir();
	assert_false(raised("ctf.writer.lttng-dropped-event-class"));
	/* named where the unknown id is: the same event of the same stream */
	const struct tfk_finding *u = first_of("ctf.event.unknown-id");
	assert_non_null(u);
	assert_string_equal(u->member, member);
	assert_true(u->has_offset);
	assert_int_equal(u->offset, at);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(pristine_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(stream_uuid_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(data_through_metadata, setup, teardown),
		cmocka_unit_test_setup_teardown(json_syntax, setup, teardown),
		cmocka_unit_test_setup_teardown(json_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(json_string_length, setup, teardown),
		cmocka_unit_test_setup_teardown(json_number_range, setup, teardown),
		cmocka_unit_test_setup_teardown(json_duplicate_key, setup, teardown),
		cmocka_unit_test_setup_teardown(json_utf8, setup, teardown),
		cmocka_unit_test_setup_teardown(json_trailing, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_order, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_duplicate, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_dangling, setup, teardown),
		cmocka_unit_test_setup_teardown(fragment_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(draft, setup, teardown),
		cmocka_unit_test_setup_teardown(unsupported, setup, teardown),
		cmocka_unit_test_setup_teardown(repair_trailing, setup, teardown),
		cmocka_unit_test_setup_teardown(repair_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(repair_mid, setup, teardown),
		cmocka_unit_test_setup_teardown(repair_stream_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(foreign_tracecompass, setup, teardown),
		cmocka_unit_test_setup_teardown(quirk_ctf2_packet_version, setup, teardown),
		cmocka_unit_test_setup_teardown(quirk_no_signature, setup, teardown),
		cmocka_unit_test_setup_teardown(quirk_dropped_event_class, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
