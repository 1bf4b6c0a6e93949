/* SPDX-License-Identifier: MIT */
/*
 * CTF 1.8 trace directories: a small trace written here (plain or packetized metadata, one
 * stream of three packets, its LTTng index) checks clean with every event counted; each code
 * is raised on a damaged copy at its member and offset; the recorded LTTng samples check clean
 * with babeltrace2's event counts.
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
#include "formats/formats.h"
#include "test_hooks.h"
#include "tracefsck/check.h"
#include "formats/ctf/ctf_model.h"
#include "tracefsck/observer.h"

#ifndef CTF_CORPUS
#define CTF_CORPUS "corpus/ctf"
#endif
#ifndef CTF_SAMPLES
#define CTF_SAMPLES "../shared/samples/ctf"
#endif

/* The fixture's layout (little-endian). */
#define PKT 128          /* packet bytes */
#define NPKT 3
#define EV0 72           /* first event of a packet */
#define EVSZ 21          /* id u32, ts u64, tag u8, v u8, e u8, len u8, seq[2], "hi\0" */
#define CONTENT (EV0 + 2 * EVSZ)
#define STREAM "stream_0"
#define INDEX "index/stream_0.idx"

static const uint8_t uuid[16] = { 0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0,
				  0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64 };

static const char *const metadata_head =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;\n"
	"trace {\n"
	"\tmajor = 1;\n"
	"\tminor = 8;\n"
	"\tuuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n"
	"\tbyte_order = le;\n"
	"\tpacket.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };\n"
	"};\n"
	"env { tracer_name = \"test\"; };\n"
	"clock { name = c; freq = 1000000000; offset = 0; };\n"
	"stream {\n"
	"\tid = 0;\n"
	"\tpacket.context := struct { ts_t timestamp_begin; ts_t timestamp_end; uint64_t content_size;\n"
	"\t\tuint64_t packet_size; uint64_t packet_seq_num; uint64_t events_discarded; };\n";
static const char *const metadata_header = "\tevent.header := struct { uint32_t id; ts_t timestamp; };\n";
static const char *const metadata_tail =
	"};\n"
	"event {\n"
	"\tname = \"e\";\n"
	"\tid = 0;\n"
	"\tstream_id = 0;\n"
	"\tfields := struct {\n"
	"\t\tenum : uint8_t { A = 0, B = 1 } tag;\n"
	"\t\tvariant <tag> { uint8_t A; uint32_t B; } v;\n"
	"\t\tenum : uint8_t { X = 0 } e;\n"
	"\t\tuint8_t len;\n"
	"\t\tuint8_t seq[len];\n"
	"\t\tstring s;\n"
	"\t};\n"
	"};\n";

static char dir[512];
static struct tfk_report rep;

static void run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static void member_path(const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", dir, name);
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

static void patch(const char *name, long off, const void *bytes, size_t len)
{
	char p[1024];
	member_path(name, p, sizeof(p));
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
}

static void patch_u8(const char *name, long off, uint8_t v)
{
	patch(name, off, &v, 1);
}

static void patch_u32(const char *name, long off, uint32_t v)
{
	uint8_t b[4];
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	patch(name, off, b, 4);
}

static void patch_u64(const char *name, long off, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	patch(name, off, b, 8);
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static char *metadata_text(bool with_header, const char *extra)
{
	static char text[8192];
	snprintf(text, sizeof(text), "%s%s%s%s", metadata_head, with_header ? metadata_header : "", metadata_tail,
		 extra ? extra : "");
	return text;
}

/* Packetized metadata: the text in two packets of 37-byte headers, each padded to 1024 bytes. */
static void write_packetized(const char *text)
{
	size_t len = strlen(text), half = len / 2;
	static uint8_t buf[4096];
	memset(buf, 0, sizeof(buf));
	size_t off = 0;
	for (int k = 0; k < 2; k++) {
		size_t n = k == 0 ? half : len - half;
		assert_true(37 + n <= 1024);
		uint8_t *h = buf + off;
		put_le(h, 0x75D11D57, 4);
		memcpy(h + 4, uuid, 16);
		put_le(h + 24, (37 + n) * 8, 4);
		put_le(h + 28, 1024 * 8, 4);
		h[35] = 1;
		h[36] = 8;
		memcpy(h + 37, text + (k == 0 ? 0 : half), n);
		off += 1024;
	}
	write_member("metadata", buf, off);
}

static void write_stream(void)
{
	uint8_t s[NPKT * PKT];
	memset(s, 0, sizeof(s));
	for (int k = 0; k < NPKT; k++) {
		uint8_t *p = s + k * PKT;
		uint64_t begin = 1000 * (uint64_t)(k + 1);
		put_le(p, 0xC1FC1FC1, 4);
		memcpy(p + 4, uuid, 16);
		put_le(p + 20, 0, 4);
		put_le(p + 24, begin, 8);
		put_le(p + 32, begin + 100, 8);
		put_le(p + 40, CONTENT * 8, 8);
		put_le(p + 48, PKT * 8, 8);
		put_le(p + 56, (uint64_t)k, 8);
		put_le(p + 64, 0, 8);
		for (int e = 0; e < 2; e++) {
			uint8_t *ev = p + EV0 + e * EVSZ;
			put_le(ev, 0, 4);
			put_le(ev + 4, begin + 10 * (uint64_t)(e + 1), 8);
			ev[12] = 0;   /* tag A */
			ev[13] = 7;   /* v.A */
			ev[14] = 0;   /* e = X */
			ev[15] = 2;   /* len */
			ev[16] = 1;
			ev[17] = 2;
			memcpy(ev + 18, "hi", 3);
		}
	}
	write_member(STREAM, s, sizeof(s));
	/* LTTng index v1.1 */
	uint8_t idx[16 + NPKT * 72];
	memset(idx, 0, sizeof(idx));
	put_be(idx, 0xC1F1DCC1, 4);
	put_be(idx + 4, 1, 4);
	put_be(idx + 8, 1, 4);
	put_be(idx + 12, 72, 4);
	for (int k = 0; k < NPKT; k++) {
		uint8_t *e = idx + 16 + k * 72;
		uint64_t begin = 1000 * (uint64_t)(k + 1);
		put_be(e, (uint64_t)k * PKT, 8);
		put_be(e + 8, PKT * 8, 8);
		put_be(e + 16, CONTENT * 8, 8);
		put_be(e + 24, begin, 8);
		put_be(e + 32, begin + 100, 8);
		put_be(e + 40, 0, 8);
		put_be(e + 48, 0, 8);
		put_be(e + 56, 0, 8);
		put_be(e + 64, (uint64_t)k, 8);
	}
	write_member(INDEX, idx, sizeof(idx));
}

static int setup(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tfk-ctf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	char p[1024];
	member_path("index", p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
	const char *text = metadata_text(true, NULL);
	write_member("metadata", text, strlen(text));
	write_stream();
	memset(&rep, 0, sizeof(rep));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tfk_report_free(&rep);
	if (dir[0]) {
		char cmd[1200];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		run(cmd);
	}
	dir[0] = 0;
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

static const struct tfk_finding *expect(const char *code, const char *member)
{
	for (size_t i = 0; i < rep.count; i++) {
		const struct tfk_finding *f = &rep.findings[i];
		if (strcmp(f->fault->id, code) == 0 && strcmp(f->member, member) == 0)
			return f;
	}
	dump_report();
	fail_msg("no %s in '%s'", code, member);
	return NULL;
}

static void expect_at(const char *code, const char *member, uint64_t offset)
{
	const struct tfk_finding *f = expect(code, member);
	if (!f->has_offset || f->offset != offset) {
		dump_report();
		fail_msg("%s in %s at %llu, expected %llu", code, member, (unsigned long long)f->offset,
			 (unsigned long long)offset);
	}
}

/* How many findings of that code the report lists. */
static void expect_count(const char *code, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < rep.count; i++)
		k += strcmp(rep.findings[i].fault->id, code) == 0;
	if (k != n)
		fail_msg("%zu findings of %s, expected %zu", k, code, n);
}

static void expect_clean(uint64_t events)
{
	if (rep.by_severity[TFK_SEV_ERROR] || rep.by_severity[TFK_SEV_WARNING] || rep.incomplete) {
		dump_report();
		fail_msg("not clean");
	}
	assert_int_equal(rep.stats.events, events);
}

static long metadata_offset(const char *text)
{
	const char *m = metadata_text(true, NULL);
	const char *p = strstr(m, text);
	assert_non_null(p);
	return (long)(p - m);
}

/* ---- pristine ---- */

static void test_fixture_clean(void **state)
{
	(void)state;
	check_dir();
	expect_clean(NPKT * 2);
	assert_string_equal(rep.stats.format, "CTF 1.8 (LTTng 2.x)");
}

static void test_packetized_clean(void **state)
{
	(void)state;
	write_packetized(metadata_text(true, NULL));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_samples_clean(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		uint64_t events; /* babeltrace2 2.0.4 prints as many */
	} samples[] = { { "tracef-2000.lttng", 2000 }, { "multipacket-contexts.lttng", 1420 } };
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		char p[1024];
		snprintf(p, sizeof(p), "%s/%s", CTF_SAMPLES, samples[i].name);
		struct stat sb;
		if (stat(p, &sb) != 0)
			continue;
		check_path(p);
		expect_clean(samples[i].events);
	}
}

/* The harness container of corpus/ctf/plain (written by fuzz/scripts/ctf_seeds.py): a second
 * stream class of compact LTTng-style headers (5-bit id, 27-bit timestamp, then the extended
 * form), a double, 3-bit big-endian integers, and declarations of most of the TSDL grammar
 * (typedef, named enum/struct/variant, signed enum ranges, struct align, callsite). babeltrace2
 * 2.0.4 prints 8 events for it. */
static void test_corpus_plain_clean(void **state)
{
	(void)state;
	char p[1024];
	snprintf(p, sizeof(p), "%s/plain", CTF_CORPUS);
	FILE *f = fopen(p, "rb");
	if (!f)
		skip();
	static uint8_t buf[65536];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	size_t pos = 0;
	while (pos < n) {
		size_t nlen = buf[pos++];
		char name[80];
		assert_true(nlen < 64 && pos + nlen + 5 <= n);
		memcpy(name, buf + pos, nlen);
		name[nlen] = 0;
		pos += nlen + 1;
		uint32_t len = (uint32_t)buf[pos] | (uint32_t)buf[pos + 1] << 8 | (uint32_t)buf[pos + 2] << 16 |
			       (uint32_t)buf[pos + 3] << 24;
		pos += 4;
		assert_true(len <= n - pos);
		char member[96];
		snprintf(member, sizeof(member), "%s%s", strstr(name, ".idx") ? "index/" : "", name);
		write_member(member, buf + pos, len);
		pos += len;
	}
	check_dir();
	expect_clean(8);
}

/* ---- metadata ---- */

static void test_metadata_missing(void **state)
{
	(void)state;
	write_member("metadata", "", 0);
	check_dir();
	expect("ctf.metadata.missing", "metadata");
}

/*
 * CTF 2 metadata is read now (test_ctf2.c has its cases): a preamble followed by a NUL is a
 * fragment with a byte after its object, and without a data stream class nothing decodes.
 */
/* The metadata file deleted: the directory is still known for a CTF trace by its streams, and
 * the finding names the missing file; the check is complete (exit 4, not 8). */
static void test_metadata_deleted(void **state)
{
	(void)state;
	char path[600];
	member_path("metadata", path, sizeof(path));
	assert_int_equal(unlink(path), 0);
	check_dir();
	expect("ctf.metadata.missing", "metadata");
	assert_false(rep.incomplete);
	assert_string_equal(rep.stats.format, "CTF 1.8 (LTTng 2.x)");
}

static void test_metadata_ctf2(void **state)
{
	(void)state;
	write_member("metadata", "\x1e{\"type\":\"preamble\",\"version\":2}\n", 34);
	check_dir();
	expect_at("ctf.metadata.json-trailing", "metadata", 33);
	expect_at("ctf.metadata.fragment-missing", "metadata", 0);
}

static void test_metadata_signature(void **state)
{
	(void)state;
	const char *text = metadata_text(true, NULL) + strlen("/* CTF 1.8 */\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_at("ctf.metadata.signature", "metadata", 0);
	assert_int_equal(rep.stats.events, NPKT * 2);
}

static void test_metadata_syntax(void **state)
{
	(void)state;
	const char *text = metadata_text(true, "bogus ;\nstream { id = 1; };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	const struct tfk_finding *f = expect("ctf.metadata.syntax", "metadata");
	assert_int_equal(f->offset, strlen(metadata_text(true, NULL)));
	assert_non_null(strstr(f->path, "line 34,"));
	/* The parser went on after the error: the stream block was read (no semantic fault). */
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 1);
}

/*
 * Plain-text metadata cut inside its last declaration (the event): the cut is one finding at
 * the declaration it splits, not a syntax error; the declarations before it decode the
 * streams, whose events are then of an undeclared id. A tail that closes a brace it did not
 * open is no cut: a syntax error, as before.
 */
static void test_metadata_text_cut(void **state)
{
	(void)state;
	const char *text = metadata_text(true, NULL);
	const char *cut = strstr(text, "\t\tstring s;");
	assert_non_null(cut);
	write_member("metadata", text, (size_t)(cut - text));
	check_dir();
	expect_at("ctf.metadata.text-cut", "metadata", (uint64_t)metadata_offset("event {"));
	expect_count("ctf.metadata.syntax", 0);
	assert_false(rep.incomplete);
	expect_at("ctf.event.unknown-id", STREAM, EV0);
	char bad[8192];
	snprintf(bad, sizeof(bad), "%s}} x", text);
	write_member("metadata", bad, strlen(bad));
	check_dir();
	expect("ctf.metadata.syntax", "metadata");
	expect_count("ctf.metadata.text-cut", 0);
}

static void test_metadata_syntax_nesting(void **state)
{
	(void)state;
	/* Types nested deeper than the bound: a syntax error, never a stack overflow. */
	static char text[16384];
	size_t n = (size_t)snprintf(text, sizeof(text), "/* CTF 1.8 */\ntypedef ");
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "struct { ");
	snprintf(text + n, sizeof(text) - n, "\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect("ctf.metadata.syntax", "metadata");
	/* Enumerations of enumerations nest too. */
	n = (size_t)snprintf(text, sizeof(text), "/* CTF 1.8 */\ntypealias ");
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "enum : ");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect("ctf.metadata.syntax", "metadata");
}

static void test_metadata_semantic(void **state)
{
	(void)state;
	char *text = metadata_text(true, NULL);
	char *minor = strstr(text, "minor = 8");
	minor[8] = '7';
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_at("ctf.metadata.semantic", "metadata", (uint64_t)metadata_offset("trace {"));
}

/*
 * A rule of the TSDL semantics, broken by declarations appended to the fixture's metadata:
 * the code at the marker (the first occurrence within the declarations), and the streams
 * still decode (the rule does not make the metadata unusable).
 */
static void expect_rule(const char *extra, const char *marker, const char *code)
{
	size_t base = strlen(metadata_text(true, NULL));
	char *text = metadata_text(true, extra);
	const char *m = strstr(text + base, marker);
	assert_non_null(m);
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_at(code, "metadata", (uint64_t)(m - text));
	expect_count(code, 1);
	assert_int_equal(rep.stats.events, NPKT * 2);
}

/* A valid shape readers differ on is a note: a sequence in an event context sized by a field of it. */
static void test_metadata_context_sequence(void **state)
{
	(void)state;
	const char *extra = "stream { id = 7; event.context := struct { uint8_t n; uint8_t s[n]; }; };\n";
	write_member("metadata", metadata_text(true, extra), strlen(metadata_text(true, extra)));
	check_dir();
	expect_count("ctf.metadata.context-sequence", 1);
	assert_int_equal(rep.stats.events, NPKT * 2);
	/* in the packet context (babeltrace2 2.0.4 reads it) or sized from outside: no note */
	extra = "stream { id = 7; packet.context := struct { uint8_t n; uint8_t s[n]; }; };\n";
	write_member("metadata", metadata_text(true, extra), strlen(metadata_text(true, extra)));
	check_dir();
	expect_count("ctf.metadata.context-sequence", 0);
}

static void test_metadata_redefinition(void **state)
{
	(void)state;
	/* the second one is reported, not the first */
	expect_rule("typedef uint32_t myint;\ntypedef uint64_t myint ;\n", "myint ;", "ctf.metadata.redefinition");
	expect_rule("struct s { uint8_t a; };\nstruct s { uint32_t b; };\n", "s { uint32_t", "ctf.metadata.redefinition");
	expect_rule("typealias integer { size = 16; } := u16;\ntypealias integer { size = 16; } := u16 ;\n",
		    "u16 ;", "ctf.metadata.redefinition");
	/* an inner scope may hide an outer name */
	char *text = metadata_text(true, "typedef uint32_t myint;\nstruct s { typedef uint8_t myint; myint x; };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_metadata_duplicate_field(void **state)
{
	(void)state;
	expect_rule("struct s { uint8_t a; uint32_t b; uint8_t a; };\n", "a; };", "ctf.metadata.duplicate-field");
}

static void test_metadata_keyword_name(void **state)
{
	(void)state;
	expect_rule("struct s { uint8_t ok; uint32_t stream; };\n", "stream; }", "ctf.metadata.keyword-name");
	expect_rule("typedef uint32_t int;\n", "int;", "ctf.metadata.keyword-name");
	expect_rule("typealias integer { size = 16; } := event;\n", "event;", "ctf.metadata.keyword-name");
	expect_rule("struct s { enum : uint8_t { A, B } t; variant <callsite> { uint8_t A; uint8_t B; } v; };\n",
		    "callsite>", "ctf.metadata.keyword-name");
	/* the C type words may be a typealias's name, and '_' makes any keyword a name */
	char *text = metadata_text(true, "typealias integer { size = 16; } := unsigned short;\n"
					 "struct s { uint8_t _stream; unsigned short _event; };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_metadata_array_length(void **state)
{
	(void)state;
	expect_rule("struct s { uint32_t a[uint8_t]; };\n", "uint8_t]", "ctf.metadata.array-length");
	expect_rule("typedef uint32_t a[typedef];\n", "typedef]", "ctf.metadata.array-length");
	expect_rule("typedef uint32_t a[n];\n", "n];", "ctf.metadata.sequence-scope");
}

static void test_metadata_enum_rules(void **state)
{
	(void)state;
	expect_rule("struct s { enum : uint8_t { } e; };\n", "{ } e", "ctf.metadata.enum-empty");
	expect_rule("enum big : uint8_t { A = 256 };\n", "256", "ctf.metadata.enum-range");
	expect_rule("enum neg : uint8_t { A = -1 };\n", "-1 }", "ctf.metadata.enum-range");
	expect_rule("typealias integer { size = 8; signed = true; } := s8;\nenum low : s8 { A = -129, B = 127 };\n",
		    "-129", "ctf.metadata.enum-range");
	/* the label after 255 holds 256 */
	expect_rule("enum next : uint8_t { A = 255, B };\n", "B }", "ctf.metadata.enum-range");
	char *text = metadata_text(true, "typealias integer { size = 8; signed = true; } := s8;\n"
					 "enum ok : s8 { A = -128, B = 127 };\nenum ok2 : uint8_t { C = 0 ... 255 };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_metadata_variant_label(void **state)
{
	(void)state;
	expect_rule("struct s { enum : uint8_t { \" a \", \" b \" } t; variant <t> { uint8_t a; uint8_t b; } v; };\n",
		    "variant <t>", "ctf.metadata.variant-label");
	/* some labels without an option and some options without a label are allowed */
	char *text = metadata_text(true, "struct s { enum : uint8_t { a, b } t; variant <t> { uint8_t b; uint8_t c; } v; };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_metadata_wide_integer(void **state)
{
	(void)state;
	expect_rule("typealias integer { size = 128; } := u128;\nstruct w { u128 a; };\n", "128;",
		    "ctf.metadata.wide-integer");
	/* a note: the trace is still clean */
	expect_clean(NPKT * 2);
}

/* Named structures declared one after another before a single ';' (ctf-testsuite's pass/struct-inner-struct). */
static void test_metadata_struct_list(void **state)
{
	(void)state;
	char *text = metadata_text(true, "struct a { uint8_t x; }\nstruct b { uint8_t y; struct a z; };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_metadata_packet_byte_order(void **state)
{
	(void)state;
	char *text = metadata_text(true, NULL);
	char *bo = strstr(text, "byte_order = le");
	memcpy(bo + 13, "be", 2);
	write_packetized(text);
	check_dir();
	expect_at("ctf.metadata.packet-byte-order", "metadata", 0);
}

static void test_metadata_undefined_type(void **state)
{
	(void)state;
	char *text = metadata_text(true, NULL);
	char *u = strstr(text, "uint8_t len;");
	memcpy(u, "uint9_t", 7);
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_at("ctf.metadata.semantic", "metadata", (uint64_t)(u - text));
}

static void test_metadata_unknown_attribute(void **state)
{
	(void)state;
	char *text = metadata_text(true, NULL);
	char *id = strstr(text, "\tid = 0;\n\tpacket.context");
	memcpy(id + 1, "xx", 2);
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_at("ctf.metadata.unknown-attribute", "metadata", (uint64_t)(id + 1 - text));
}

static void test_metadata_bad_packet(void **state)
{
	(void)state;
	write_packetized(metadata_text(true, NULL));
	patch_u32("metadata", 1024 + 20, 0xdeadbeef); /* checksum of packet 1 */
	check_dir();
	expect_at("ctf.metadata.bad-packet", "metadata", 1024 + 20);
}

static void test_metadata_truncated(void **state)
{
	(void)state;
	write_packetized(metadata_text(true, NULL));
	char p[1024];
	member_path("metadata", p, sizeof(p));
	assert_int_equal(truncate(p, 1024 + 500), 0);
	check_dir();
	expect_at("ctf.metadata.truncated", "metadata", 1024);
}

/* ---- packets ---- */

static void test_stream_bad_magic(void **state)
{
	(void)state;
	patch_u32(STREAM, PKT, 0x12345678);
	check_dir();
	expect_at("ctf.stream.bad-magic", STREAM, PKT);
	assert_int_equal(rep.stats.events, 2);
}

static void test_stream_uuid_mismatch(void **state)
{
	(void)state;
	patch_u8(STREAM, PKT + 4, 0xff);
	check_dir();
	/* CTF 1.8: babeltrace2 2.0.4 and 2.1.2 read the packet, so a warning, and nothing else */
	expect_at("ctf.stream.uuid-foreign", STREAM, PKT + 4);
	assert_int_equal(expect("ctf.stream.uuid-foreign", STREAM)->severity, TFK_SEV_WARNING);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	expect_count("ctf.stream.uuid-mismatch", 0);
	assert_int_equal(rep.stats.events, NPKT * 2);
}

static void test_stream_unknown_id(void **state)
{
	(void)state;
	patch_u32(STREAM, 2 * PKT + 20, 5);
	check_dir();
	expect_at("ctf.stream.unknown-id", STREAM, 2 * PKT);
}

static void test_packet_bad_size(void **state)
{
	(void)state;
	patch_u64(STREAM, PKT + 40, PKT * 8 + 8); /* content_size > packet_size */
	patch_u64(STREAM, 2 * PKT + 56, 9);	   /* packet_seq_num 0, 1, 9 */
	check_dir();
	expect_at("ctf.packet.bad-size", STREAM, PKT + 24);
	/* packet 1 is stepped over with packet 0's size, which leads to packet 2: walked (its
	 * sequence number is compared with packet 0's), its events not counted as read */
	expect_at("ctf.packet.seq-gap", STREAM, 2 * PKT);
	assert_int_equal(rep.stats.events, 2);
	expect_count("ctf.packet.truncated", 0);
}

/* A packet_size damaged larger than the file: a bad size where the previous packet's size leads
 * to a packet, not a cut file; the walk goes on after it. */
static void test_packet_size_too_large(void **state)
{
	(void)state;
	patch_u64(STREAM, PKT + 48, 1ull << 40);
	patch_u64(STREAM, 2 * PKT + 56, 9);
	check_dir();
	expect_at("ctf.packet.bad-size", STREAM, PKT + 24);
	expect_count("ctf.packet.truncated", 0);
	expect_at("ctf.packet.seq-gap", STREAM, 2 * PKT);
	patch_u64(STREAM, 2 * PKT + 56, 2);
	/* in the last packet, nothing follows: the file was cut */
	patch_u64(STREAM, PKT + 48, PKT * 8);
	patch_u64(STREAM, 2 * PKT + 48, 1ull << 40);
	check_dir();
	expect_at("ctf.packet.truncated", STREAM, 2 * PKT);
	expect_count("ctf.packet.bad-size", 0);
}

static void test_packet_truncated(void **state)
{
	(void)state;
	char p[1024];
	member_path(STREAM, p, sizeof(p));
	assert_int_equal(truncate(p, 2 * PKT + 100), 0);
	check_dir();
	expect_at("ctf.packet.truncated", STREAM, 2 * PKT);
	assert_int_equal(rep.stats.events, 4);
}

static void test_packet_trailing(void **state)
{
	(void)state;
	char p[1024];
	member_path(STREAM, p, sizeof(p));
	assert_int_equal(truncate(p, NPKT * PKT + 100), 0); /* 100 zero bytes appended */
	check_dir();
	expect_at("ctf.packet.trailing", STREAM, NPKT * PKT);
	assert_int_equal(rep.stats.events, NPKT * 2);
}

static void test_packet_time_order(void **state)
{
	(void)state;
	patch_u64(STREAM, PKT + 24, 999999); /* begin > end */
	check_dir();
	expect_at("ctf.packet.time-order", STREAM, PKT);
}

static void test_packet_seq(void **state)
{
	(void)state;
	patch_u64(STREAM, 2 * PKT + 56, 9); /* 0, 1, 9: 7 packets discarded */
	check_dir();
	expect_at("ctf.packet.seq-gap", STREAM, 2 * PKT);
	patch_u64(STREAM, 56, 5); /* 5, 1: a regression */
	check_dir();
	expect_at("ctf.packet.seq-regress", STREAM, PKT);
}

static void test_packet_discarded_regress(void **state)
{
	(void)state;
	patch_u64(STREAM, 64, 40);
	patch_u64(STREAM, PKT + 64, 30);
	patch_u64(STREAM, 2 * PKT + 64, 50);
	check_dir();
	expect_at("ctf.packet.discarded-regress", STREAM, PKT);
	expect_count("ctf.packet.discarded-regress", 1);
}

/*
 * lttng-ust leaves events_discarded at 0 in some packets of a discarding channel: one 0 between
 * counts is a note, and the packet after it is compared with the last count; a second 0 in a
 * row is a count that went down.
 */
static void test_packet_discarded_zero(void **state)
{
	(void)state;
	patch_u64(STREAM, 64, 40);
	patch_u64(STREAM, 2 * PKT + 64, 50); /* 40, 0, 50 */
	check_dir();
	expect_at("ctf.packet.discarded-zero", STREAM, PKT);
	expect_count("ctf.packet.discarded-regress", 0);
	/* the only errors: the index entries of the two packets patched, which still say 0 */
	expect_count("ctf.index.mismatch", 2);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 2);
	patch_u64(STREAM, 2 * PKT + 64, 20); /* 40, 0, 20: below the last count */
	check_dir();
	expect_at("ctf.packet.discarded-zero", STREAM, PKT);
	expect_at("ctf.packet.discarded-regress", STREAM, 2 * PKT);
	patch_u64(STREAM, 2 * PKT + 64, 0); /* 40, 0, 0 */
	check_dir();
	expect_at("ctf.packet.discarded-regress", STREAM, 2 * PKT);
}

/* ---- events ---- */

static void test_event_unknown_id(void **state)
{
	(void)state;
	patch_u32(STREAM, EV0 + EVSZ, 7);
	check_dir();
	expect_at("ctf.event.unknown-id", STREAM, EV0 + EVSZ);
	assert_int_equal(rep.stats.events, NPKT * 2 - 1);
}

static void test_event_overrun(void **state)
{
	(void)state;
	patch_u8(STREAM, EV0 + EVSZ + 15, 200); /* sequence length past the content */
	check_dir();
	expect_at("ctf.event.overrun", STREAM, EV0 + EVSZ + 16);
}

static void test_event_bad_string(void **state)
{
	(void)state;
	patch_u8(STREAM, EV0 + 2 * EVSZ - 1, 'x'); /* the last string of the packet loses its NUL */
	check_dir();
	expect_at("ctf.event.bad-string", STREAM, EV0 + EVSZ + 18);
}

static void test_event_variant_tag(void **state)
{
	(void)state;
	patch_u8(STREAM, EV0 + 12, 9);
	check_dir();
	expect_at("ctf.event.variant-tag", STREAM, EV0 + 13);
}

static void test_event_enum_unmapped(void **state)
{
	(void)state;
	patch_u8(STREAM, EV0 + 14, 5);
	check_dir();
	expect_at("ctf.event.enum-unmapped", STREAM, EV0 + 14);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
}

static void test_event_time_back(void **state)
{
	(void)state;
	patch_u64(STREAM, EV0 + EVSZ + 4, 1005);
	check_dir();
	expect_at("ctf.event.time-back", STREAM, EV0 + EVSZ);
}

static void test_event_zero_length(void **state)
{
	(void)state;
	/* No event header and an event of no field: every event would be zero bits long. */
	char *text = metadata_text(false, NULL);
	char *f = strstr(text, "\tfields := struct {");
	strcpy(f, "\tfields := struct { };\n};\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_at("ctf.event.zero-length", STREAM, EV0);
}

static void test_event_time_outside_packet(void **state)
{
	(void)state;
	patch_u64(STREAM, EV0 + EVSZ + 4, 1150); /* packet 0 ends at 1100 */
	check_dir();
	expect_at("ctf.event.time-outside-packet", STREAM, EV0 + EVSZ);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	/* lttng-ust before 2.11 wrote such events: babeltrace2 corrects them, and so do we. */
	static char text[8192];
	const char *m = metadata_text(true, NULL);
	const char *env = strstr(m, "env {");
	snprintf(text, sizeof(text), "%.*senv { tracer_name = \"lttng-ust\"; tracer_major = 2; tracer_minor = 10; };%s",
		 (int)(env - m), m, strstr(env, "};") + 2);
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
}

static void test_stream_instance_change(void **state)
{
	(void)state;
	char *text = metadata_text(true, NULL);
	char *sid = strstr(text, "uint32_t stream_id; }");
	assert_non_null(sid);
	/* stream_id becomes a 16-bit id and a 16-bit stream_instance_id: the same bytes, 0 and 0. */
	static char t2[8192];
	snprintf(t2, sizeof(t2), "%.*sinteger { size = 16; align = 8; signed = false; } stream_id; "
		 "integer { size = 16; align = 8; signed = false; } stream_instance_id; }%s",
		 (int)(sid - text), text, sid + strlen("uint32_t stream_id; }"));
	write_member("metadata", t2, strlen(t2));
	check_dir();
	expect_clean(NPKT * 2);
	patch_u8(STREAM, 2 * PKT + 22, 1);
	patch_u8(INDEX, 16 + 2 * 72 + 56 + 7, 1); /* its index entry says so too */
	check_dir();
	expect_at("ctf.stream.instance-change", STREAM, 2 * PKT);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
}

static void test_stream_class_change(void **state)
{
	(void)state;
	const char *text = metadata_text(true, "stream { id = 1; };\n");
	write_member("metadata", text, strlen(text));
	check_dir();
	expect_clean(NPKT * 2);
	patch_u32(STREAM, PKT + 20, 1);
	check_dir();
	expect_at("ctf.stream.class-change", STREAM, PKT);
}

/* LTTng's compact event header: a 5-bit id (31: extended) and a 27-bit timestamp whose wrap
 * the reader rebuilds from the previous value; no packet context (the file is one packet). */
static const char *const compact_metadata =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_clock_t;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := uint27_clock_t;\n"
	"trace { major = 1; minor = 8; byte_order = le;\n"
	"\tpacket.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
	"clock { name = c; freq = 1000000000; };\n"
	"struct event_header_compact {\n"
	"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"\tvariant <id> {\n"
	"\t\tstruct { uint27_clock_t timestamp; } compact;\n"
	"\t\tstruct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
	"\t} v;\n"
	"} align(8);\n"
	"stream { id = 0; event.header := struct event_header_compact; };\n"
	"event { name = \"x\"; id = 3; stream_id = 0; fields := struct { uint8_t x; }; };\n";

static void test_compact_timestamps(void **state)
{
	(void)state;
	write_member("metadata", compact_metadata, strlen(compact_metadata));
	char p[1024];
	member_path(INDEX, p, sizeof(p));
	unlink(p);
	uint8_t s[64];
	size_t n = 0;
	put_le(s, 0xC1FC1FC1, 4);
	put_le(s + 4, 0, 4);
	n = 8;
	put_le(s + n, (uint64_t)0x7fffff0 << 5 | 3, 4); /* compact, timestamp 0x7fffff0 */
	s[n + 4] = 1;
	n += 5;
	put_le(s + n, (uint64_t)0x10 << 5 | 3, 4);      /* wraps: 0x8000010 */
	s[n + 4] = 2;
	n += 5;
	s[n] = 31;                                       /* extended: id 3, timestamp 0x8000020 */
	put_le(s + n + 1, 3, 4);
	put_le(s + n + 5, 0x8000020, 8);
	s[n + 13] = 3;
	size_t third = n;
	n += 14;
	write_member(STREAM, s, n);
	check_dir();
	expect_clean(3);
	/* The full timestamp of the extended header goes back below the rebuilt one. */
	patch_u64(STREAM, (long)third + 5, 0x7fffff8);
	check_dir();
	expect_at("ctf.event.time-back", STREAM, third);
}

/* ---- the model for repair ---- */

struct seen {
	unsigned metadata, packets, streams;
	struct tfk_ctf_metadata meta;
	struct tfk_ctf_packet last_packet;
	struct tfk_ctf_stream stream;
};

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct seen *s = user;
	assert_ptr_equal(format, &tfk_format_ctf);
	if (kind == TFK_CTF_MODEL_METADATA && size == sizeof(s->meta)) {
		s->metadata++;
		memcpy(&s->meta, data, size);
	} else if (kind == TFK_CTF_MODEL_PACKET && size == sizeof(s->last_packet)) {
		s->packets++;
		memcpy(&s->last_packet, data, size);
	} else if (kind == TFK_CTF_MODEL_STREAM && size == sizeof(s->stream)) {
		s->streams++;
		memcpy(&s->stream, data, size);
	}
}

static void check_observed(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	struct tfk_observer obs = { 0 };
	obs.user = s;
	obs.model = on_model;
	tfk_report_free(&rep);
	memset(&rep, 0, sizeof(rep));
	tfk_check_file_observed(dir, NULL, &obs, &rep);
	raised_note(&rep);
}

static void test_model(void **state)
{
	(void)state;
	write_packetized(metadata_text(true, NULL));
	struct seen s;
	check_observed(&s);
	assert_int_equal(s.metadata, 1);
	assert_string_equal(s.meta.member, "metadata");
	assert_true(s.meta.packetized && s.meta.usable && s.meta.have_uuid);
	assert_int_equal(s.meta.packets, 2);
	assert_int_equal(s.meta.whole_end, 2048);
	assert_memory_equal(s.meta.uuid, uuid, 16);
	assert_int_equal(s.packets, NPKT);
	assert_string_equal(s.last_packet.member, STREAM);
	assert_int_equal(s.last_packet.offset, 2 * PKT);
	assert_int_equal(s.last_packet.seq, 2);
	assert_int_equal(s.last_packet.events, 2);
	assert_true(s.last_packet.events_ok);
	assert_int_equal(s.streams, 1);
	assert_int_equal(s.stream.good_end, NPKT * PKT);
	assert_int_equal(s.stream.events, NPKT * 2);
	assert_true(s.stream.walked_whole);
	/* A cut stream: the whole packets before the cut, the file not tiled. */
	char p[1024];
	member_path(STREAM, p, sizeof(p));
	assert_int_equal(truncate(p, 2 * PKT + 100), 0);
	check_observed(&s);
	assert_int_equal(s.packets, 2);
	assert_int_equal(s.stream.good_end, 2 * PKT);
	assert_int_equal(s.stream.size, 2 * PKT + 100);
	assert_false(s.stream.walked_whole);
}

/* ---- index and directory ---- */

static void test_index_bad_header(void **state)
{
	(void)state;
	patch_u8(INDEX, 0, 0);
	check_dir();
	expect_at("ctf.index.bad-header", INDEX, 0);
}

static void test_index_mismatch(void **state)
{
	(void)state;
	uint8_t b[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };
	patch(INDEX, 16 + 72 + 24, b, 8); /* entry 1 timestamp_begin */
	check_dir();
	expect_at("ctf.index.mismatch", INDEX, 16 + 72 + 24);
}

static void test_index_missing(void **state)
{
	(void)state;
	char p[1024];
	member_path(INDEX, p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	check_dir();
	expect("ctf.index.missing", INDEX);
	expect_clean(NPKT * 2);
}

static void test_index_orphan(void **state)
{
	(void)state;
	write_member("index/gone_0.idx", "", 0);
	check_dir();
	expect("ctf.index.orphan", "index/gone_0.idx");
	expect_clean(NPKT * 2);
}

static void test_empty_stream(void **state)
{
	(void)state;
	write_member("stream_1", "", 0);
	check_dir();
	expect("ctf.dir.empty-stream", "stream_1");
	expect_clean(NPKT * 2);
}

static void test_nested_traces(void **state)
{
	(void)state;
	/* LTTng nests traces: ust/uid/0/64-bit/ and kernel/, each with its metadata. */
	char cmd[2400];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p ust/uid/0/64-bit kernel && cp -R metadata stream_0 index ust/uid/0/64-bit/ && "
		 "mv metadata stream_0 index kernel/",
		 dir);
	run(cmd);
	check_dir();
	expect_clean(2 * NPKT * 2);
	patch_u32("kernel/stream_0", PKT, 0);
	check_dir();
	expect_at("ctf.stream.bad-magic", "kernel/stream_0", PKT);
}


/* ---- packets decoded ahead on worker threads ---- */

#define BIG_PKT (64u << 10)
#define BIG_NPKT 160 /* 10 MiB: more than a stream needs to be shared among threads */
#define BIG_EVENTS ((BIG_PKT - EV0) / EVSZ)

/* A stream of BIG_NPKT packets of BIG_EVENTS events each, as write_stream's, without an index. */
static void write_big_stream(void)
{
	uint8_t *s = calloc(BIG_NPKT, BIG_PKT);
	assert_non_null(s);
	for (uint64_t k = 0; k < BIG_NPKT; k++) {
		uint8_t *p = s + k * BIG_PKT;
		uint64_t begin = 1000000 * (k + 1);
		put_le(p, 0xC1FC1FC1, 4);
		memcpy(p + 4, uuid, 16);
		put_le(p + 24, begin, 8);
		put_le(p + 32, begin + 100 * BIG_EVENTS, 8);
		put_le(p + 40, (EV0 + BIG_EVENTS * EVSZ) * 8, 8);
		put_le(p + 48, BIG_PKT * 8, 8);
		put_le(p + 56, k, 8);
		for (uint64_t e = 0; e < BIG_EVENTS; e++) {
			uint8_t *ev = p + EV0 + e * EVSZ;
			put_le(ev + 4, begin + 10 * (e + 1), 8);
			ev[13] = 7;
			ev[15] = 2;
			ev[16] = 1;
			ev[17] = 2;
			memcpy(ev + 18, "hi", 3);
		}
	}
	write_member(STREAM, s, (size_t)BIG_NPKT * BIG_PKT);
	free(s);
	char p[1024];
	member_path(INDEX, p, sizeof(p));
	assert_int_equal(unlink(p), 0);
}

/* The report of a check on that many threads; *taken: the packets taken from walkers ahead. */
static void check_threads(unsigned threads, struct tfk_report *out, uint64_t *taken)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { 0 };
	*taken = 0;
	hooks.taken_ahead = taken;
	lim.test_hooks = &hooks;
	lim.threads = threads;
	memset(out, 0, sizeof(*out));
	tfk_check_file(dir, &lim, out);
}

static void same_reports(const struct tfk_report *a, const struct tfk_report *b)
{
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->stats.events, b->stats.events);
	assert_int_equal(tfk_report_verdict(a), tfk_report_verdict(b));
	for (size_t i = 0; i < a->count; i++) {
		assert_string_equal(a->findings[i].fault->id, b->findings[i].fault->id);
		assert_string_equal(a->findings[i].member, b->findings[i].member);
		assert_int_equal(a->findings[i].offset, b->findings[i].offset);
		assert_string_equal(a->findings[i].path, b->findings[i].path);
		assert_string_equal(a->findings[i].found, b->findings[i].found);
	}
}

/*
 * A stream walked on 1, 2 and 3 threads reports the same, finding for finding, pristine and
 * with damage in packets of every share (an unknown event id, a time going back, an unmapped
 * enumeration value, a bad string, a packet with a bad magic stepped over, a cut last packet);
 * and the walkers' packets are taken.
 */
static void test_packets_ahead_agree(void **state)
{
	(void)state;
	write_big_stream();
	struct tfk_report one, two, three;
	uint64_t t1, t2, t3;
	check_threads(1, &one, &t1);
	check_threads(2, &two, &t2);
	check_threads(3, &three, &t3);
	assert_int_equal(one.stats.events, (uint64_t)BIG_NPKT * BIG_EVENTS);
	assert_int_equal(one.by_severity[TFK_SEV_ERROR] + one.by_severity[TFK_SEV_WARNING], 0);
	same_reports(&one, &two);
	same_reports(&one, &three);
	assert_int_equal(t1, 0);
	assert_true(t2 >= BIG_NPKT / 2 - 1);
	assert_true(t3 >= 2 * (BIG_NPKT / 3) - 2);
	tfk_report_free(&one);
	tfk_report_free(&two);
	tfk_report_free(&three);

	const long ev = EV0 + 5 * EVSZ;
	patch_u32(STREAM, 3L * BIG_PKT + ev, 9);                   /* unknown id */
	patch_u64(STREAM, 8L * BIG_PKT + ev + 4, 1);               /* time back */
	patch_u8(STREAM, 13L * BIG_PKT + ev + 14, 5);              /* unmapped enum */
	patch_u8(STREAM, 22L * BIG_PKT + ev + 14, 5);
	patch_u8(STREAM, 31L * BIG_PKT + ev + 14, 5);
	patch(STREAM, (BIG_NPKT - 7L) * BIG_PKT + EV0 + (BIG_EVENTS - 1) * EVSZ + 18, "hij", 3); /* no NUL: an overrun */
	patch_u32(STREAM, 40L * BIG_PKT, 0xdeadbeef);               /* bad magic, stepped over */
	char p[1024];
	member_path(STREAM, p, sizeof(p));
	assert_int_equal(truncate(p, (BIG_NPKT - 1L) * BIG_PKT + 1000), 0);
	check_threads(1, &one, &t1);
	check_threads(2, &two, &t2);
	check_threads(3, &three, &t3);
	assert_true(one.by_severity[TFK_SEV_ERROR] >= 4);
	same_reports(&one, &two);
	same_reports(&one, &three);
	assert_true(t2 > 0 && t3 > 0);
	tfk_report_free(&one);
	tfk_report_free(&two);
	tfk_report_free(&three);
}


/* One file of a trace given alone: its metadata is checked whole; a data stream says where to look. */
static void test_file_alone(void **state)
{
	(void)state;
	char p[1024];
	member_path("metadata", p, sizeof(p));
	check_path(p);
	expect_clean(0);
	assert_int_equal(rep.count, 0);
	write_member("metadata", "/* CTF 1.8 */\ntrace { major = 1; minor = 8; ", 44);
	check_path(p);
	assert_true(rep.by_severity[TFK_SEV_ERROR] > 0);
	member_path(STREAM, p, sizeof(p));
	check_path(p);
	expect_at("ctf.stream.alone", "", 0);
	assert_int_equal(rep.by_severity[TFK_SEV_ERROR], 0);
	assert_true(rep.incomplete);
	assert_int_equal(tfk_report_verdict(&rep), TFK_VERDICT_INCOMPLETE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixture_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packetized_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_samples_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corpus_plain_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_deleted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_ctf2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_signature, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_syntax, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_text_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_syntax_nesting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_semantic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_context_sequence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_redefinition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_duplicate_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_keyword_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_array_length, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_enum_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_variant_label, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_packet_byte_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_wide_integer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_struct_list, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_undefined_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_unknown_attribute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_bad_packet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metadata_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_bad_magic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_uuid_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_unknown_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_bad_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_size_too_large, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_trailing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_time_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_seq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_discarded_regress, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_discarded_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_unknown_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_overrun, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_bad_string, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_variant_tag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_enum_unmapped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_time_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_zero_length, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_time_outside_packet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_class_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_instance_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compact_timestamps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_model, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packets_ahead_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_bad_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_orphan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_traces, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
