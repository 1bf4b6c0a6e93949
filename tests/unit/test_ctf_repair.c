/* SPDX-License-Identifier: MIT */
/*
 * CTF trace directories' repair (tfk_repair_dir) on damaged copies of the multi-packet LTTng
 * recording: a stream cut mid-packet, a zero-filled tail, a bad-magic and an unknown-stream
 * packet in the middle, a metadata cut in its padding, a two-packet metadata cut inside its
 * second packet, a missing index. The output re-checks clean, holds exactly the input's whole
 * packets (byte for byte), its regenerated indexes are byte for byte LTTng's own where the
 * stream is healthy, and it repairs to nothing the second time. The check's own view of a
 * packet stepped over in the middle of a stream is pinned here too (codes at their offsets).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

#ifndef CTF_SAMPLE
#define CTF_SAMPLE "../shared/samples/ctf/multipacket-contexts.lttng"
#endif

#define SUB "ust/uid/0/64-bit/"
#define STREAM SUB "ch0_0"
#define STREAM_IDX SUB "index/ch0_0.idx"
#define OTHER_IDX SUB "index/ch0_1.idx"
#define METADATA SUB "metadata"
#define PKT 4096u       /* the recording's sub-buffer size: every packet of ch0_0 */
#define NPKT 21u        /* packets of ch0_0 */
#define IDX_HEADER 16u
#define IDX_ENTRY 72u   /* LTTng 2.13 writes index 1.1 */

static char top[512], in[600], out[600], again[600];
static struct tfk_repair_report rep;

static void run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	(void)state;
	struct stat sb;
	memset(&rep, 0, sizeof(rep));
	top[0] = 0;
	if (stat(CTF_SAMPLE "/" STREAM, &sb) != 0 || sb.st_size != NPKT * PKT)
		return 0; /* the tests skip */
	const char *tmp = getenv("TMPDIR");
	snprintf(top, sizeof(top), "%s/tfk-ctfrepair-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(top));
	snprintf(in, sizeof(in), "%s/in", top);
	snprintf(out, sizeof(out), "%s/out", top);
	snprintf(again, sizeof(again), "%s/again", top);
	char cmd[2000];
	snprintf(cmd, sizeof(cmd), "mkdir '%s' && cp -R '%s/.' '%s/' && chmod -R u+rw '%s'", in, CTF_SAMPLE, in, in);
	run(cmd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tfk_repair_report_free(&rep);
	if (top[0]) {
		char cmd[1200];
		snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' && rm -rf '%s'", top, top);
		run(cmd);
	}
	top[0] = 0;
	return 0;
}

#define NEED_SAMPLE()            \
	do {                     \
		if (!top[0])     \
			skip();  \
	} while (0)

static void path_of(const char *dir, const char *name, char *p, size_t n)
{
	snprintf(p, n, "%s/%s", dir, name);
}

/* A member's bytes (malloc'd), its size in *n; NULL when it does not exist. */
static uint8_t *slurp(const char *dir, const char *name, size_t *n)
{
	char p[1200];
	path_of(dir, name, p, sizeof(p));
	FILE *f = fopen(p, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(size > 0 ? (size_t)size : 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	*n = (size_t)size;
	return b;
}

static void write_bytes(const char *name, long off, const void *p, size_t n)
{
	char path[1200];
	path_of(in, name, path, sizeof(path));
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void cut(const char *name, long size)
{
	char path[1200];
	path_of(in, name, path, sizeof(path));
	assert_int_equal(truncate(path, size), 0);
}

/* out/name holds exactly bytes [from, from + n) of the pristine sample's member, then [from2, end) when from2 != 0. */
static void out_is(const char *name, size_t from, size_t n, size_t from2)
{
	size_t a, b;
	uint8_t *want = slurp(CTF_SAMPLE, name, &a), *got = slurp(out, name, &b);
	assert_non_null(want);
	assert_non_null(got);
	if (n == SIZE_MAX)
		n = a - from;
	size_t tail = from2 ? a - from2 : 0;
	assert_int_equal(b, n + tail);
	assert_memory_equal(want + from, got, n);
	if (tail)
		assert_memory_equal(want + from2, got + n, tail);
	free(want);
	free(got);
}

static const struct tfk_salvage_member *member(const char *name)
{
	for (size_t i = 0; i < rep.nmembers; i++)
		if (strcmp(rep.members[i].member, name) == 0)
			return &rep.members[i];
	return NULL;
}

static bool has_code_at(const struct tfk_report *r, const char *code, const char *mem, uint64_t off)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (strcmp(f->fault->id, code) == 0 && f->offset == off && strcmp(f->member, mem) == 0)
			return true;
	}
	return false;
}

/* Events the salvage report kept over the data streams. */
static uint64_t kept_events(void)
{
	uint64_t n = 0;
	for (size_t i = 0; i < rep.nmembers; i++)
		if (strcmp(rep.members[i].unit, "events") == 0)
			n += rep.members[i].kept;
	return n;
}

/* Repair in into out: repaired, the output clean with as many events as the report kept, and a second repair a no-op. */
static void repair_ok(void)
{
	tfk_repair_dir(in, out, NULL, &rep);
	raised_note(&rep.before);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(tfk_report_verdict(&rep.after), TFK_VERDICT_CLEAN);
	assert_int_equal(rep.after.stats.events, kept_events());
	struct tfk_salvage_totals t; /* the totals of the JSON salvage line: the streams' events */
	tfk_salvage_sum(&rep, &t);
	assert_int_equal(t.events_kept, kept_events());
	struct tfk_repair_report second;
	tfk_repair_dir(out, again, NULL, &second);
	assert_int_equal(second.outcome, TFK_REPAIR_NOTHING_TO_DO);
	tfk_repair_report_free(&second);
}

static void pristine_nothing_to_do(void **state)
{
	(void)state;
	NEED_SAMPLE();
	tfk_repair_dir(in, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	struct stat sb;
	assert_int_not_equal(stat(out, &sb), 0);
}

/* Cut mid-packet: the 14 whole packets, and an index that is LTTng's first 14 entries byte for byte. */
static void stream_cut(void **state)
{
	(void)state;
	NEED_SAMPLE();
	cut(STREAM, 60000);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.packet.truncated", STREAM, 14 * PKT));
	out_is(STREAM, 0, 14 * PKT, 0);
	out_is(STREAM_IDX, 0, IDX_HEADER + 14 * IDX_ENTRY, 0);
	out_is(OTHER_IDX, 0, SIZE_MAX, 0);
	out_is(METADATA, 0, SIZE_MAX, 0);
	const struct tfk_salvage_member *s = member(STREAM);
	assert_non_null(s);
	assert_string_equal(s->action, "truncated");
	assert_true(s->lost_unknown);
	assert_int_equal(s->bytes_dropped, 60000 - 14 * PKT);
	assert_int_equal(strcmp(member(STREAM_IDX)->action, "rebuilt"), 0);
}

/* Zeros from the middle of packet 18 on: packets 0-17 kept, the zeros counted as no event. */
static void zero_tail(void **state)
{
	(void)state;
	NEED_SAMPLE();
	static uint8_t zeros[PKT * 3 + PKT / 2];
	write_bytes(STREAM, 18 * PKT - PKT / 2, zeros, sizeof(zeros));
	repair_ok();
	out_is(STREAM, 0, 17 * PKT, 0);
	out_is(STREAM_IDX, 0, IDX_HEADER + 17 * IDX_ENTRY, 0);
}

/*
 * A bad magic in packet 5: the check reports it, steps over the packet (its context still
 * tells its size) and notes the sequence gap after it; repair drops exactly its 4096 bytes.
 */
static void middle_bad_magic(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_bytes(STREAM, 5 * PKT, "DEAD", 4);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.stream.bad-magic", STREAM, 5 * PKT));
	assert_true(has_code_at(&rep.before, "ctf.packet.seq-gap", STREAM, 6 * PKT));
	out_is(STREAM, 0, 5 * PKT, 6 * PKT);
	/* The output still tells the packet was lost: the gap, a note, at the packet after it. */
	assert_true(has_code_at(&rep.after, "ctf.packet.seq-gap", STREAM, 5 * PKT));
	const struct tfk_salvage_member *s = member(STREAM);
	assert_string_equal(s->action, "rewritten");
	assert_int_equal(s->bytes_dropped, PKT);
	assert_non_null(strstr(s->note, "sequence gap"));
}

/*
 * A damaged events_discarded in packet 3 (1000, where every packet says 0): packet 4's 0 reads
 * as the counter lttng-ust leaves unset (a note), packet 5's second 0 in a row as a regression
 * the check blames on packet 5. Repair drops the outlier, packet 3, and keeps every packet
 * after it (dropping packet 5 instead would leave packet 6 just as far below packet 3: an
 * output that does not check clean).
 */
static void discarded_outlier(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const uint8_t thousand[8] = { 0xe8, 0x03, 0, 0, 0, 0, 0, 0 };
	write_bytes(STREAM, 3 * PKT + 72, thousand, 8); /* header 32 bytes, then 5 u64 before it */
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.packet.discarded-zero", STREAM, 4 * PKT));
	assert_true(has_code_at(&rep.before, "ctf.packet.discarded-regress", STREAM, 5 * PKT));
	out_is(STREAM, 0, 3 * PKT, 4 * PKT);
	const struct tfk_salvage_member *s = member(STREAM);
	assert_string_equal(s->action, "rewritten");
	assert_int_equal(s->bytes_dropped, PKT);
}

/* A packet_size in packet 7 one bit off (not a whole byte): stepped over with the previous
 * packet's size and dropped, exactly its bytes; the packets after it kept. */
static void middle_bad_size(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const uint8_t one[1] = { 1 };
	write_bytes(STREAM, 7 * PKT + 56, one, 1); /* header 32 bytes, then ts_begin, ts_end, content_size */
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.packet.bad-size", STREAM, 7 * PKT + 32)); /* the context */
	out_is(STREAM, 0, 7 * PKT, 8 * PKT);
	const struct tfk_salvage_member *s = member(STREAM);
	assert_int_equal(s->bytes_dropped, PKT);
}

/* An unknown stream id in packet 7: stepped over with the previous packet's size. */
static void middle_unknown_stream(void **state)
{
	(void)state;
	NEED_SAMPLE();
	const uint8_t five[4] = { 5, 0, 0, 0 };
	write_bytes(STREAM, 7 * PKT + 20, five, 4);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.stream.unknown-id", STREAM, 7 * PKT));
	out_is(STREAM, 0, 7 * PKT, 8 * PKT);
	/* The input's index still has its 21 entries for 21 tiles: no mismatch is made up. */
	for (size_t i = 0; i < rep.before.count; i++)
		assert_string_not_equal(rep.before.findings[i].fault->id, "ctf.index.mismatch");
}

/* The metadata cut in its zero padding (babeltrace2 hangs on it): the padding put back. */
static void metadata_cut_in_padding(void **state)
{
	(void)state;
	NEED_SAMPLE();
	cut(METADATA, 3500);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.metadata.truncated", METADATA, 0));
	out_is(METADATA, 0, SIZE_MAX, 0);
	out_is(STREAM, 0, SIZE_MAX, 0);
	/* The indexes of the healthy streams, regenerated, are LTTng's byte for byte. */
	out_is(STREAM_IDX, 0, SIZE_MAX, 0);
	out_is(OTHER_IDX, 0, SIZE_MAX, 0);
	assert_string_equal(member(STREAM_IDX)->action, "copied");
	assert_false(rep.metadata_lost);
}

/* A missing index is made from the packets: byte for byte the one LTTng wrote. */
static void missing_index_rebuilt(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char p[1200];
	path_of(in, STREAM_IDX, p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	cut(METADATA, 3500); /* a fault, so that there is something to repair */
	repair_ok();
	out_is(STREAM_IDX, 0, SIZE_MAX, 0);
	assert_string_equal(member(STREAM_IDX)->action, "rebuilt");
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * LTTng appends metadata packets while tracing: a second packet declaring one more type, cut
 * inside its text. The repair keeps the first packet whole and never the partial one.
 */
static void metadata_second_packet_cut(void **state)
{
	(void)state;
	NEED_SAMPLE();
	size_t n;
	uint8_t *meta = slurp(CTF_SAMPLE, METADATA, &n);
	assert_non_null(meta);
	assert_int_equal(n, PKT);
	static const char text[] = "\ntypealias integer { size = 8; align = 8; signed = false; } := tfk_extra_t;\n";
	uint8_t second[256] = { 0 };
	memcpy(second, meta, 37); /* magic, uuid, checksum, schemes and version as the first packet's */
	const uint32_t content = 37 + (uint32_t)strlen(text), packet = 128;
	put_le32(second + 24, content * 8);
	put_le32(second + 28, packet * 8);
	memcpy(second + 37, text, strlen(text));
	write_bytes(METADATA, PKT, second, packet);
	free(meta);
	/* Whole, the two-packet metadata checks clean. */
	struct tfk_report r;
	tfk_check_file(in, NULL, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	tfk_report_free(&r);
	cut(METADATA, PKT + 37 + 20);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.metadata.truncated", METADATA, PKT));
	out_is(METADATA, 0, PKT, 0);
	assert_true(rep.metadata_lost);
	assert_string_equal(member(METADATA)->action, "truncated");
	out_is(STREAM, 0, SIZE_MAX, 0);
}

/*
 * A second metadata packet declaring two more types, cut inside its text after the first: the
 * check parses the declarations up to the cut (the one the cut split is no syntax error), and
 * repair keeps them all, the cut packet's included, as plain-text metadata.
 */
static void metadata_cut_keeps_whole_declarations(void **state)
{
	(void)state;
	NEED_SAMPLE();
	size_t n;
	uint8_t *meta = slurp(CTF_SAMPLE, METADATA, &n);
	assert_non_null(meta);
	static const char text[] = "\ntypealias integer { size = 8; align = 8; signed = false; } := tfk_extra_t;\n"
				   "typealias integer { size = 16; align = 8; signed = false; } := tfk_extra2_t;\n";
	uint8_t second[256] = { 0 };
	memcpy(second, meta, 37);
	put_le32(second + 24, (37 + (uint32_t)strlen(text)) * 8);
	put_le32(second + 28, 256 * 8);
	memcpy(second + 37, text, strlen(text));
	write_bytes(METADATA, PKT, second, sizeof(second));
	const long cut_at = PKT + 37 + (long)(strstr(text, "tfk_extra2_t") - text);
	cut(METADATA, cut_at);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.metadata.truncated", METADATA, PKT));
	for (size_t i = 0; i < rep.before.count; i++)
		assert_string_not_equal(rep.before.findings[i].fault->id, "ctf.metadata.syntax");
	assert_string_equal(member(METADATA)->action, "rewritten");
	assert_true(rep.metadata_lost);
	size_t m;
	uint8_t *got = slurp(out, METADATA, &m);
	assert_non_null(got);
	assert_true(m > 10 && memcmp(got, "/* CTF 1.8", 10) == 0);
	char *txt = calloc(1, m + 1);
	assert_non_null(txt);
	memcpy(txt, got, m);
	assert_non_null(strstr(txt, "tfk_extra_t;"));
	assert_null(strstr(txt, "tfk_extra2_t"));
	free(txt);
	free(got);
	free(meta);
	out_is(STREAM, 0, SIZE_MAX, 0);
}

/* Garbage after the last packet: dropped, every event kept, the salvage says so in text. */
static int collect(void *user, const char *p, size_t n)
{
	char *buf = user;
	size_t have = strlen(buf);
	if (have + n >= 8192)
		return -1;
	memcpy(buf + have, p, n);
	buf[have + n] = 0;
	return 0;
}

static void garbage_and_report(void **state)
{
	(void)state;
	NEED_SAMPLE();
	write_bytes(STREAM, NPKT * PKT, "garbage after the last packet", 29);
	repair_ok();
	assert_true(has_code_at(&rep.before, "ctf.packet.trailing", STREAM, NPKT * PKT) ||
		    has_code_at(&rep.before, "ctf.stream.bad-magic", STREAM, NPKT * PKT) ||
		    has_code_at(&rep.before, "ctf.packet.truncated", STREAM, NPKT * PKT));
	out_is(STREAM, 0, SIZE_MAX, 0);
	assert_int_equal(kept_events(), rep.before.stats.events);
	char *buf = calloc(1, 8192);
	assert_non_null(buf);
	assert_int_equal(tfk_repair_report_text(&rep, "t", collect, buf), 0);
	char want[128];
	snprintf(want, sizeof(want), "kept %llu events, lost 0", (unsigned long long)kept_events());
	assert_non_null(strstr(buf, want));
	assert_non_null(strstr(buf, "t/" STREAM ": truncated"));
	free(buf);
}


/*
 * Two snapshots of one session (the same UUID, the second cut in the middle of its stream):
 * babeltrace2 merges them and shows each packet once, so the check counts the recording's
 * 1,420 events once, and so does the salvage report of the repaired copy, whose packets are
 * written in both snapshots (babeltrace2 2.0.4 prints 1,420 events of the output, none of the
 * input, which it refuses whole for the cut packet).
 */
static void snapshots_counted_once(void **state)
{
	(void)state;
	NEED_SAMPLE();
	char cmd[4000];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir snapshot-0 && mv ust snapshot-0/ && cp -R snapshot-0 snapshot-1 && "
		 "truncate -s 50000 snapshot-1/" STREAM, in);
	run(cmd);
	struct tfk_report pristine_two;
	memset(&pristine_two, 0, sizeof(pristine_two));
	char p[700];
	snprintf(p, sizeof(p), "%s/snapshot-0", in);
	tfk_check_file(p, NULL, &pristine_two);
	assert_int_equal(pristine_two.stats.events, 1420);
	tfk_report_free(&pristine_two);
	repair_ok();
	assert_int_equal(kept_events(), 1420);
	assert_int_equal(rep.before.stats.events, 1420);
	const struct tfk_salvage_member *cut_one = member("snapshot-1/" STREAM);
	assert_non_null(cut_one);
	assert_int_equal(cut_one->kept, 0); /* each of its 12 whole packets counted in snapshot-0 */
	assert_non_null(strstr(cut_one->note, "kept by another snapshot too"));
	size_t a, b;
	uint8_t *want = slurp(CTF_SAMPLE, STREAM, &a), *got = slurp(out, "snapshot-1/" STREAM, &b);
	assert_non_null(want);
	assert_non_null(got);
	assert_int_equal(b, 12 * PKT);
	assert_memory_equal(want, got, b);
	free(want);
	free(got);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(pristine_nothing_to_do), T(stream_cut),           T(zero_tail),
		T(middle_bad_magic),       T(middle_unknown_stream), T(middle_bad_size), T(discarded_outlier), T(metadata_cut_in_padding), T(metadata_cut_keeps_whole_declarations),
		T(missing_index_rebuilt),  T(metadata_second_packet_cut), T(garbage_and_report), T(snapshots_counted_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
