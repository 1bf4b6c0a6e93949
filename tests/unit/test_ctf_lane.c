/* SPDX-License-Identifier: MIT */
/*
 * CTF lanes (validate/formats/ctf/ctf_lane.h) against the careful walk: a trace laid out as
 * LTTng lays out its user-space traces (the large event header: an enumeration tag choosing a
 * compact or an extended variant; whole-byte integers, strings, a 32-bit aligned field, an
 * array; one event with a sequence a lane leaves to the plans) checks the same, finding for
 * finding and event for event, with lanes and with every fast path off, pristine, with each
 * fault a lane must stop in front of, and with a few hundred seeded byte changes; with the
 * kinds changing at nearly every event and in runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "raised.h"
#include "test_hooks.h"
#include "tracefsck/check.h"

#define PKT 4096         /* packet bytes */
#define NPKT 6
#define EV0 72           /* the first event of a packet: after the 24-byte header and 48-byte context */
#define MAX_EVENTS 4096
#define STREAM "stream_0"

static const char *const metadata =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; map = clock.c.value; } := uint32_clock_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_clock_t;\n"
	"trace { major = 1; minor = 8; uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\"; byte_order = le;\n"
	"\tpacket.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; }; };\n"
	"env { tracer_name = \"lttng-ust\"; tracer_major = 2; tracer_minor = 13; tracer_patch = 0; };\n"
	"clock { name = c; freq = 1000000000; offset = 0; };\n"
	"stream { id = 0;\n"
	"\tpacket.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;\n"
	"\t\tuint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num; uint64_t events_discarded; };\n"
	"\tevent.header := struct {\n"
	"\t\tenum : uint16_t { compact = 0 ... 64999, extended = 65535 } id;\n"
	"\t\tvariant <id> {\n"
	"\t\t\tstruct { uint32_clock_t timestamp; } compact;\n"
	"\t\t\tstruct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
	"\t\t} v;\n"
	"\t} align(8);\n"
	"};\n"
	"event { name = \"a\"; id = 0; stream_id = 0;\n"
	"\tfields := struct { uint64_t i; uint32_t x; uint16_t y; string s; string t; }; };\n"
	"event { name = \"b\"; id = 1; stream_id = 0;\n"
	"\tfields := struct { uint8_t pad; integer { size = 32; align = 32; signed = false; } w; uint8_t arr[3];\n"
	"\t\tstring s; }; };\n"
	"event { name = \"c\"; id = 2; stream_id = 0; fields := struct { uint8_t len; uint8_t seq[len]; }; };\n"
	"event { name = \"big\"; id = 70000; stream_id = 0; fields := struct { uint16_t y; }; };\n";

static const uint8_t uuid[16] = { 0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0,
				  0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64 };

static char dir[512];
static uint8_t pristine[NPKT * PKT];
/* Where each event starts in the file, and its kind (0-2, 3: the extended header of id 70000). */
static uint64_t event_at[MAX_EVENTS], event_end[MAX_EVENTS];
static unsigned event_kind[MAX_EVENTS], nevents;
static uint64_t content_at[NPKT]; /* the content size field of each packet */

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void write_file(const char *name, const void *data, size_t len)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* One event at p (offset at from the packet start), its clock ts; its bytes. */
static size_t event(uint8_t *p, uint64_t at, unsigned kind, uint64_t ts, unsigned i)
{
	size_t n;
	if (kind == 3 || i % 7 == 3) { /* the extended header */
		put(p, 65535, 2);
		put(p + 2, kind == 3 ? 70000 : kind, 4);
		put(p + 6, ts, 8);
		n = 14;
	} else {
		put(p, kind, 2);
		put(p + 2, ts & 0xffffffffu, 4);
		n = 6;
	}
	if (kind == 0) {
		put(p + n, i, 8);
		put(p + n + 8, 7u * i, 4);
		put(p + n + 12, i & 0xffff, 2);
		n += 14;
		n += (size_t)sprintf((char *)p + n, "name-%u", i * 37) + 1;
		n += (size_t)sprintf((char *)p + n, "%s", i % 5 ? "const" : "a string longer than the forty bytes of a scan") + 1;
	} else if (kind == 1) { /* the struct aligns as its strictest field, w: 32 bits */
		while ((at + n) % 4)
			p[n++] = 0;
		p[n++] = 9;
		while ((at + n) % 4)
			p[n++] = 0;
		put(p + n, 0xabcdef, 4);
		memcpy(p + n + 4, "xyz", 3);
		n += 7;
		n += (size_t)sprintf((char *)p + n, "b%u", i) + 1;
	} else if (kind == 2) {
		p[n] = 3;
		memcpy(p + n + 1, "\1\2\3", 3);
		n += 4;
	} else {
		put(p + n, 5, 2);
		n += 2;
	}
	return n;
}

/* Events of a kind come in runs of this many (1: the kind changes at nearly every event). */
static unsigned run_len = 1;

/* The kind of the ith event of a stream. */
static unsigned kind_of(unsigned i)
{
	const unsigned j = i / run_len;
	return j % 11 == 10 ? 3 : j % 4 == 3 ? 2 : j % 3;
}

/* npkt packets of events of every kind, timestamps rising through 32-bit wraps; the first MAX_EVENTS recorded. */
static void make_stream(uint8_t *stream, unsigned npkt)
{
	memset(stream, 0, (size_t)npkt * PKT);
	nevents = 0;
	unsigned i = 0;
	for (unsigned k = 0; k < npkt; k++) {
		uint8_t *p = stream + (size_t)k * PKT;
		const uint64_t begin = 0xfff00000ull + (uint64_t)k * 0x7ff00000ull;
		uint64_t ts = begin, at = EV0;
		while (at + 128 < PKT) {
			const unsigned kind = kind_of(i);
			ts += 1000 + 0x100000ull * (i % 13 == 0);
			const uint64_t from = at;
			at += event(p + at, at, kind, ts, i++);
			if (nevents < MAX_EVENTS) {
				event_at[nevents] = (uint64_t)k * PKT + from;
				event_end[nevents] = (uint64_t)k * PKT + at;
				event_kind[nevents] = kind;
			}
			nevents++;
		}
		put(p, 0xC1FC1FC1, 4);
		memcpy(p + 4, uuid, 16);
		put(p + 24, begin, 8);
		put(p + 32, ts + 5, 8);
		put(p + 40, at * 8, 8);
		put(p + 48, PKT * 8, 8);
		put(p + 56, k, 8);
		if (k < NPKT)
			content_at[k] = (uint64_t)k * PKT + 40;
	}
}

static int setup(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tfk-ctf-lane-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	write_file("metadata", metadata, strlen(metadata));
	make_stream(pristine, NPKT);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	run_len = 1;
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, STREAM);
	unlink(path);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}

/* The check of the directory on that many threads, with lanes or with every fast path off; *lane: events through lanes. */
static void check(bool careful, unsigned threads, struct tfk_report *out, uint64_t *lane)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_test_hooks hooks = { 0 };
	*lane = 0;
	hooks.record_by_record = careful;
	hooks.lane_events = lane;
	lim.test_hooks = &hooks;
	lim.threads = threads;
	memset(out, 0, sizeof(*out));
	tfk_check_file(dir, &lim, out);
	raised_note(out);
}

/* The two reports, finding for finding. */
static void same(const struct tfk_report *a, const struct tfk_report *b)
{
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->stats.events, b->stats.events);
	assert_memory_equal(a->by_severity, b->by_severity, sizeof(a->by_severity));
	for (size_t i = 0; i < a->count; i++) {
		const struct tfk_finding *x = &a->findings[i], *y = &b->findings[i];
		assert_string_equal(x->fault->id, y->fault->id);
		assert_int_equal(x->offset, y->offset);
		assert_string_equal(x->path, y->path);
		assert_string_equal(x->expected, y->expected);
		assert_string_equal(x->found, y->found);
	}
}

/* Both ways agree on the stream as given, on one thread; the report with lanes goes to *out (the caller frees it). */
static void agree(const uint8_t *stream, size_t len, struct tfk_report *out, uint64_t *lane)
{
	write_file(STREAM, stream, len);
	struct tfk_report careful;
	uint64_t none;
	check(false, 1, out, lane);
	check(true, 1, &careful, &none);
	assert_int_equal(none, 0);
	same(out, &careful);
	tfk_report_free(&careful);
}

/* The finding of that code: exactly one, at that offset of the stream. */
static void expect_one(const struct tfk_report *r, const char *code, uint64_t offset)
{
	size_t n = 0;
	for (size_t i = 0; i < r->count; i++) {
		if (strcmp(r->findings[i].fault->id, code) != 0)
			continue;
		n++;
		assert_string_equal(r->findings[i].member, STREAM);
		assert_int_equal(r->findings[i].offset, offset);
	}
	assert_int_equal(n, 1);
}

/* The first event of packet k from its fifth on of that kind and header (extended or compact). */
static unsigned find(unsigned k, unsigned kind, bool extended)
{
	for (unsigned e = 0; e < nevents; e++)
		if (event_at[e] >= k * PKT + EV0 && event_at[e] / PKT == k && e >= 4 && event_kind[e] == kind &&
		    (e % 7 == 3) == extended && event_at[e - 4] / PKT == k)
			return e;
	fail_msg("no event of kind %u in packet %u", kind, k);
	return 0;
}

/* The events a lane takes in the pristine stream: all but the sequences (kind 2) and the id past its table (kind 3). */
static uint64_t laned(void)
{
	uint64_t n = 0;
	for (unsigned e = 0; e < nevents; e++)
		n += kind_of(e) < 2;
	return n;
}

/* The laned events of packet k. */
static uint64_t packet_events(unsigned k)
{
	uint64_t n = 0;
	for (unsigned e = 0; e < nevents; e++)
		n += event_at[e] / PKT == k && kind_of(e) < 2;
	return n;
}

/* A stream as make_stream wrote it: clean both ways, every event counted, the lanes taking all they can. */
static void agree_pristine(const uint8_t *stream, size_t len)
{
	struct tfk_report r;
	uint64_t lane;
	agree(stream, len, &r, &lane);
	assert_int_equal(r.stats.events, nevents);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR] + r.by_severity[TFK_SEV_WARNING], 0);
	assert_int_equal(lane, laned());
	tfk_report_free(&r);
}

/* Seeded changes of one to three bytes of a copy of the stream, anywhere after its first packet
 * header, a round at a time: both ways agree on each; the events through lanes, summed. */
static uint64_t mutations_agree(const uint8_t *stream, unsigned rounds, uint64_t x)
{
	static uint8_t s[sizeof(pristine)];
	uint64_t lane_total = 0;
	for (unsigned round = 0; round < rounds; round++) {
		memcpy(s, stream, sizeof(s));
		const unsigned changes = 1 + round % 3;
		for (unsigned c = 0; c < changes; c++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			const uint64_t at = EV0 + x % (sizeof(s) - EV0);
			s[at] = round % 4 == 0 ? 0 : (uint8_t)(x >> 32);
		}
		struct tfk_report r;
		uint64_t lane;
		agree(s, sizeof(s), &r, &lane);
		lane_total += lane;
		tfk_report_free(&r);
	}
	return lane_total;
}

static void test_pristine(void **state)
{
	(void)state;
	agree_pristine(pristine, sizeof(pristine));
}

/* Each fault a lane stops in front of, alone in the stream: both ways report it at the same place. */
static void test_faults_agree(void **state)
{
	(void)state;
	static uint8_t s[sizeof(pristine)];
	struct tfk_report r;
	uint64_t lane;
	const unsigned a = find(1, 0, false), b = find(2, 1, false), x = find(3, 0, true);

	memcpy(s, pristine, sizeof(s)); /* an id no event has */
	put(s + event_at[a], 7, 2);
	agree(s, sizeof(s), &r, &lane);
	expect_one(&r, "ctf.event.unknown-id", event_at[a]);
	tfk_report_free(&r);

	memcpy(s, pristine, sizeof(s)); /* a tag no label maps: no option */
	put(s + event_at[a], 65001, 2);
	agree(s, sizeof(s), &r, &lane);
	expect_one(&r, "ctf.event.variant-tag", event_at[a] + 2);
	tfk_report_free(&r);

	memcpy(s, pristine, sizeof(s)); /* the clock of an extended header goes back: reported, the walk goes on */
	put(s + event_at[x] + 6, 0xfff00000ull + 3 * 0x7ff00000ull + 1, 8);
	agree(s, sizeof(s), &r, &lane);
	expect_one(&r, "ctf.event.time-back", event_at[x]);
	assert_int_equal(r.stats.events, nevents);
	assert_int_equal(lane, laned() - 1); /* all but the event that went back */
	tfk_report_free(&r);

	memcpy(s, pristine, sizeof(s)); /* the packet's end before its events: each is outside it */
	put(s + 2 * PKT + 32, 0xfff00000ull + 2 * 0x7ff00000ull + 1, 8);
	agree(s, sizeof(s), &r, &lane);
	assert_int_equal(r.stats.events, nevents);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	size_t outside = 0;
	for (size_t i = 0; i < r.count; i++)
		outside += strcmp(r.findings[i].fault->id, "ctf.event.time-outside-packet") == 0;
	assert_int_equal(outside, 8); /* the walk lists eight a stream, and counts the rest */
	assert_int_equal(lane, laned() - packet_events(2)); /* each of the packet goes the careful way */
	tfk_report_free(&r);

	memcpy(s, pristine, sizeof(s)); /* the content ends before the last string's NUL */
	put(s + content_at[2], (event_end[b] - 1 - 2 * PKT) * 8, 8);
	agree(s, sizeof(s), &r, &lane);
	expect_one(&r, "ctf.event.bad-string", event_end[b] - 1 - (uint64_t)snprintf(NULL, 0, "b%u", b)); /* at its start */
	tfk_report_free(&r);

	memcpy(s, pristine, sizeof(s)); /* content ending inside an event's integers, and not on a byte */
	put(s + content_at[2], (event_at[b] - 2 * PKT + 9) * 8 + 3, 8);
	agree(s, sizeof(s), &r, &lane);
	/* after the 6-byte header, pad aligned to 4 bytes: the alignment of w after pad runs past the end */
	expect_one(&r, "ctf.event.overrun", ((event_at[b] + 6 + 3) & ~3ull) + 1);
	tfk_report_free(&r);

	memcpy(s, pristine, sizeof(s)); /* an event read with another kind's layout */
	put(s + event_at[b], 0, 2);
	agree(s, sizeof(s), &r, &lane);
	assert_true(r.by_severity[TFK_SEV_ERROR] > 0);
	tfk_report_free(&r);
}

/* Seeded changes of one to three bytes anywhere after the first packet header: both ways agree. */
static void test_mutations_agree(void **state)
{
	(void)state;
	assert_true(mutations_agree(pristine, 300, 0x9e3779b97f4a7c15ull) > 300 * (uint64_t)nevents / 4);
}

/*
 * Events in runs of one kind, as most traces have them: a lane takes an event's form and steps
 * again while its tag and id are those of the event before it, so an event that changes either
 * in the middle of a run must still be read by its own. Both ways agree, pristine, with an
 * event of a run given another kind's id and tag, and with seeded byte changes.
 */
static void test_runs_agree(void **state)
{
	(void)state;
	static uint8_t s[sizeof(pristine)];
	run_len = 6;
	make_stream(s, NPKT);
	agree_pristine(s, sizeof(s));
	struct tfk_report r;
	uint64_t lane;

	/* the fourth of a run of compact kind-0 events in packet 2 (its three before it of its kind) */
	unsigned e = 0;
	for (unsigned i = 3; i < nevents && !e; i++)
		if (event_at[i - 3] / PKT == 2 && kind_of(i) == 0 && kind_of(i - 3) == 0 && i % 7 != 3 && (i - 1) % 7 != 3)
			e = i;
	assert_true(e > 0);
	const uint8_t keep[2] = { s[event_at[e]], s[event_at[e] + 1] };
	put(s + event_at[e], 1, 2); /* read as kind 1: another layout */
	agree(s, sizeof(s), &r, &lane);
	assert_true(r.by_severity[TFK_SEV_ERROR] > 0);
	assert_true(lane < laned());
	tfk_report_free(&r);
	put(s + event_at[e], 7, 2); /* an id no event has */
	agree(s, sizeof(s), &r, &lane);
	expect_one(&r, "ctf.event.unknown-id", event_at[e]);
	tfk_report_free(&r);
	s[event_at[e]] = keep[0];
	s[event_at[e] + 1] = keep[1];

	assert_true(mutations_agree(s, 150, 0x2545f4914f6cdd1dull) > 150 * (uint64_t)nevents / 4);
}

/*
 * A stream large enough to be shared among walkers ahead (ctf_ahead.c), whose lanes decode on
 * worker threads too: 1 and 2 threads with lanes and the careful walk agree, pristine and
 * with an event whose clock goes back and a string cut by its packet's content end.
 */
static void test_threads_agree(void **state)
{
	(void)state;
	const unsigned npkt = 2200; /* 8.6 MiB */
	uint8_t *s = malloc((size_t)npkt * PKT);
	assert_non_null(s);
	make_stream(s, npkt);
	uint64_t lost = 0;
	for (int damaged = 0; damaged < 2; damaged++) {
		if (damaged) {
			const unsigned x = find(3, 0, true), b = find(4, 1, false);
			lost = 1;
			for (unsigned e = b; event_at[e] / PKT == 4; e++)
				lost += kind_of(e) < 2;
			put(s + event_at[x] + 6, 0xfff00000ull + 3 * 0x7ff00000ull + 1, 8);
			put(s + 4 * PKT + 40, (event_end[b] - 1 - 4 * PKT) * 8, 8);
		}
		write_file(STREAM, s, (size_t)npkt * PKT);
		struct tfk_report one, two, careful;
		uint64_t lane1, lane2, none;
		check(false, 1, &one, &lane1);
		check(false, 2, &two, &lane2);
		check(true, 1, &careful, &none);
		same(&one, &careful);
		same(&two, &careful);
		assert_int_equal(careful.by_severity[TFK_SEV_ERROR], damaged ? 2 : 0);
		/* every laned event but, damaged, the one going back and those from the cut one on; the walker's share is not counted */
		assert_int_equal(lane1, laned() - lost);
		assert_true(lane2 > 0 && lane2 < lane1);
		tfk_report_free(&one);
		tfk_report_free(&two);
		tfk_report_free(&careful);
	}
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pristine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_faults_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mutations_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_agree, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
