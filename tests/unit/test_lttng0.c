/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x tracefiles, made by the fixture writer (lttng0_fixture.c): every layout and
 * byte order checks clean with its exact event count; each code is raised at its offset by one
 * mutation; trace directories are checked member by member; repair keeps the whole blocks and
 * the whole events and re-checks clean. With --corpus DIR, writes the fuzzing seeds instead.
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

#include "lttng0_decode.h"
#include "lttng0_fixture.h"
#include "raised.h"
#include "tracefsck/check.h"
#include "tracefsck/repair.h"
#include "formats/lttng0/lttng0.h"

struct fx {
	struct l0fx_spec s;
	struct l0fx_layout L;
	uint8_t *buf;
	size_t len;
	struct tfk_report rep;
};

static void make(struct fx *x, struct l0fx_spec s)
{
	memset(x, 0, sizeof(*x));
	x->s = s;
	assert_int_equal(l0fx_write(&s, &x->buf, &x->len, &x->L), 0);
}

static void dump(const struct tfk_report *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		print_message("  %s [%s] @%llu %s: expected %s, found %s\n", f->fault->id, f->member,
			      (unsigned long long)f->offset, f->path, f->expected, f->found);
	}
}

static void check(struct fx *x)
{
	tfk_report_free(&x->rep);
	tfk_check_buffer(x->buf, x->len, NULL, &x->rep);
	raised_note(&x->rep);
}

static void done(struct fx *x)
{
	tfk_report_free(&x->rep);
	free(x->buf);
}

static size_t count(const struct tfk_report *r, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < r->count; i++)
		n += strcmp(r->findings[i].fault->id, code) == 0;
	return n;
}

static void expect_at(const struct tfk_report *r, const char *code, uint64_t offset)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (strcmp(f->fault->id, code) == 0 && f->has_offset && f->offset == offset)
			return;
	}
	dump(r);
	fail_msg("no %s at %llu", code, (unsigned long long)offset);
}

static void expect_clean(const struct tfk_report *r, uint64_t events)
{
	if (tfk_report_verdict(r) != TFK_VERDICT_CLEAN || r->count) {
		dump(r);
		fail_msg("not clean: %zu findings", r->count);
	}
	assert_int_equal(r->stats.events, events);
}

/* The one fault of the mutation, at its offset, and the events still walked. */
static void expect_only(struct fx *x, const char *code, uint64_t offset, uint64_t events)
{
	check(x);
	expect_at(&x->rep, code, offset);
	for (size_t i = 0; i < x->rep.count; i++)
		if (strcmp(x->rep.findings[i].fault->id, code) != 0) {
			dump(&x->rep);
			fail_msg("%s besides %s", x->rep.findings[i].fault->id, code);
		}
	assert_int_equal(x->rep.stats.events, events);
}

static void put(struct fx *x, size_t at, uint64_t v, unsigned width)
{
	assert_true(at + width <= x->len);
	l0fx_put(x->buf + at, v, width, x->s.big_endian);
}

/*
 * The oracle without a reader: the test decoder (from the 2008 document, not the checker) reads
 * exactly the events the writer put in the file, in order, but those numbered [a1, b1) and
 * [a2, b2): every id, size, timestamp and payload byte.
 */
static void expect_events(const uint8_t *p, size_t len, const struct fx *x, uint64_t a1, uint64_t b1, uint64_t a2,
			  uint64_t b2)
{
	static struct l0dec_event ev[4096];
	long n = l0dec_decode(p, len, x->s.layout, x->s.big_endian, ev, 4096);
	assert_true(n >= 0);
	size_t i = 0;
	for (uint64_t g = 0; g < x->L.total_events; g++) {
		if ((g >= a1 && g < b1) || (g >= a2 && g < b2))
			continue;
		assert_true(i < (size_t)n);
		uint16_t id;
		uint32_t size;
		uint64_t tsc;
		l0fx_event(&x->s, g, &id, &size, &tsc);
		const struct l0dec_event *e = &ev[i++];
		assert_int_equal(e->id, id);
		assert_int_equal(e->size, size);
		if (x->s.layout == 1 && x->s.heartbeat)
			tsc &= 0xFFFFFFFFu;
		if (x->s.layout == 2 && e->tsc < (1u << 27))
			tsc &= 0x7FFFFFF;
		assert_int_equal(e->tsc, tsc);
		for (uint32_t k = 0; k < size; k++)
			assert_int_equal(e->payload[k], (uint8_t)(g + k));
	}
	assert_int_equal(i, (size_t)n);
}

/* ---- pristine ------------------------------------------------------------------------ */

static void test_pristine_2008(void **state)
{
	(void)state;
	for (unsigned m = 0; m < 8; m++) {
		struct l0fx_spec s = l0fx_default(1);
		s.big_endian = m & 1;
		s.heartbeat = (m >> 1) & 1;
		s.alignment = (m & 4) ? 8 : 0;
		s.arch_size = (m == 6) ? 4 : 8;
		s.blocks = 4;
		s.events = 40;
		struct fx x;
		make(&x, s);
		check(&x);
		expect_clean(&x.rep, x.L.total_events);
		expect_events(x.buf, x.len, &x, 0, 0, 0, 0);
		assert_true(x.L.total_events > 4 * 20);
		assert_string_equal(x.rep.stats.format, s.big_endian ? "LTTng 0.x 2008 (big-endian)" : "LTTng 0.x 2008");
		done(&x);
	}
}

static void test_pristine_ltf2(void **state)
{
	(void)state;
	for (unsigned m = 0; m < 8; m++) {
		struct l0fx_spec s = l0fx_default(2);
		s.big_endian = m & 1;
		s.big_sizes = (m >> 1) & 1;
		s.alignment = (m & 4) ? 8 : 0;
		s.arch_size = (m == 6) ? 4 : 8;
		s.events = 100;
		struct fx x;
		make(&x, s);
		check(&x);
		expect_clean(&x.rep, x.L.total_events);
		expect_events(x.buf, x.len, &x, 0, 0, 0, 0);
		assert_int_equal(x.L.total_events, 300);
		assert_string_equal(x.rep.stats.format, s.big_endian ? "LTTng 0.x LTF 2.x (big-endian)" : "LTTng 0.x LTF 2.x");
		assert_int_equal(x.rep.stats.events_lost, 4);
		done(&x);
	}
}

/* ---- block faults -------------------------------------------------------------------- */

static void test_bad_magic(void **state)
{
	(void)state;
	for (uint8_t layout = 1; layout <= 2; layout++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(layout);
		s.big_endian = layout == 2;
		make(&x, s);
		size_t mat = layout == 1 ? 40 : 16;
		put(&x, x.L.block_off[1] + mat, 0x12345678, 4);
		expect_only(&x, "lttng0.header.bad-magic", x.L.block_off[1] + mat, x.L.total_events - x.L.events[1]);
		done(&x);
	}
}

static void test_bad_size(void **state)
{
	(void)state;
	/* sb_size 0 (LTTV loops forever): the walk goes on at the next magic. */
	struct fx x;
	make(&x, l0fx_default(2));
	put(&x, x.L.block_off[1] + 56, 0, 4);
	expect_only(&x, "lttng0.block.bad-size", x.L.block_off[1] + 56, x.L.total_events - x.L.events[1]);
	done(&x);
	/* buf_size 0 in the first 2008 block (LTTV divides by it). */
	make(&x, l0fx_default(1));
	put(&x, 36, 0, 4);
	expect_only(&x, "lttng0.block.bad-size", 36, x.L.total_events - x.L.events[0]);
	done(&x);
}

static void test_inconsistent_and_odd(void **state)
{
	(void)state;
	struct fx x;
	make(&x, l0fx_default(1));
	put(&x, x.L.block_off[1] + 36, 2048, 4);
	expect_only(&x, "lttng0.block.inconsistent", x.L.block_off[1] + 36, x.L.total_events);
	done(&x);
	struct l0fx_spec s = l0fx_default(1);
	s.block_size = 1000;
	make(&x, s);
	check(&x);
	assert_int_equal(count(&x.rep, "lttng0.block.odd-size"), 3);
	expect_at(&x.rep, "lttng0.block.odd-size", x.L.block_off[2] + 36);
	assert_int_equal(tfk_report_verdict(&x.rep), TFK_VERDICT_CLEAN);
	done(&x);
	s = l0fx_default(2);
	s.block_size = 3000;
	make(&x, s);
	check(&x);
	assert_int_equal(count(&x.rep, "lttng0.block.odd-size"), 3);
	expect_at(&x.rep, "lttng0.block.odd-size", x.L.block_off[1] + 56);
	done(&x);
}

/* One code's findings in a tracefile are listed up to max_per_place, then counted and summarised. */
static void test_quota(void **state)
{
	(void)state;
	struct fx x;
	struct l0fx_spec s = l0fx_default(1);
	s.block_size = 1000;
	s.blocks = 16;
	make(&x, s);
	struct tfk_limits lim = tfk_limits_default();
	lim.max_per_place = 2;
	tfk_check_buffer(x.buf, x.len, &lim, &x.rep);
	raised_note(&x.rep);
	assert_int_equal(count(&x.rep, "lttng0.block.odd-size"), 2);
	assert_int_equal(x.rep.by_severity[TFK_SEV_WARNING], 16);
	expect_at(&x.rep, "core.findings.suppressed", x.L.block_off[2] + 36);
	assert_int_equal(x.rep.stats.events, x.L.total_events);
	done(&x);
}

static void test_cut(void **state)
{
	(void)state;
	for (uint8_t layout = 1; layout <= 2; layout++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(layout);
		s.events = 30;
		make(&x, s);
		/* Cut inside block 2, just after its third event's start: two events of it stay whole. */
		size_t cut = x.L.block_off[2] + (layout == 1 ? 109 : 68);
		x.len = x.L.data_end[2] - 1; /* the last event of block 2 loses its last byte */
		expect_only(&x, "lttng0.block.cut", x.L.block_off[2], x.L.total_events - 1);
		x.len = cut - 5; /* the header itself is cut */
		expect_only(&x, "lttng0.block.cut", x.L.block_off[2], x.L.events[0] + x.L.events[1]);
		done(&x);
	}
}

static void test_bad_fill(void **state)
{
	(void)state;
	struct fx x;
	make(&x, l0fx_default(1));
	put(&x, x.L.block_off[1] + 32, 5000, 4);
	expect_only(&x, "lttng0.block.bad-fill", x.L.block_off[1] + 32, x.L.total_events - x.L.events[1]);
	done(&x);
	/* data_size > sb_size: LTTV's g_assert(data_size <= size) aborts. */
	make(&x, l0fx_default(2));
	put(&x, x.L.block_off[0] + 52, 5000, 4);
	expect_only(&x, "lttng0.block.bad-fill", 52, x.L.total_events - x.L.events[0]);
	done(&x);
}

static void test_times(void **state)
{
	(void)state;
	for (uint8_t layout = 1; layout <= 2; layout++) {
		struct fx x;
		make(&x, l0fx_default(layout));
		size_t end_at = layout == 1 ? 16 : 8;
		put(&x, x.L.block_off[1] + end_at, 1, 8);
		expect_only(&x, "lttng0.block.tsc-reversed", x.L.block_off[1] + end_at, x.L.total_events);
		done(&x);
		make(&x, l0fx_default(layout));
		put(&x, x.L.block_off[2], 10, 8);
		expect_only(&x, "lttng0.block.time-backwards", x.L.block_off[2], x.L.total_events);
		assert_int_equal(tfk_report_verdict(&x.rep), TFK_VERDICT_CLEAN);
		done(&x);
	}
	/* LTF 2.x counters are cumulative. */
	struct fx x;
	make(&x, l0fx_default(2));
	put(&x, x.L.block_off[2] + 60, 0, 4);
	put(&x, x.L.block_off[2] + 64, 0, 4);
	put(&x, x.L.block_off[1] + 64, 7, 4);
	check(&x);
	expect_at(&x.rep, "lttng0.counters.decrease", x.L.block_off[2] + 60);
	expect_at(&x.rep, "lttng0.counters.decrease", x.L.block_off[2] + 64);
	assert_int_equal(count(&x.rep, "lttng0.counters.decrease"), 2);
	done(&x);
}

static void test_header_fields(void **state)
{
	(void)state;
	for (uint8_t layout = 1; layout <= 2; layout++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(layout);
		s.big_endian = true;
		const size_t arch = layout == 1 ? 56 : 22, major = layout == 1 ? 57 : 20, sec = layout == 1 ? 93 : 24;
		const size_t freq = layout == 1 ? 69 : 40;
		make(&x, s);
		x.buf[x.L.block_off[1] + arch] = 3;
		expect_only(&x, "lttng0.header.bad-field", x.L.block_off[1] + arch, x.L.total_events - x.L.events[1]);
		done(&x);
		make(&x, s);
		put(&x, x.L.block_off[2] + freq, 0, 8);
		expect_only(&x, "lttng0.header.bad-field", x.L.block_off[2] + freq, x.L.total_events);
		done(&x);
		make(&x, s);
		x.buf[x.L.block_off[1] + major] = 7;
		expect_only(&x, "lttng0.header.bad-version", x.L.block_off[1] + major, x.L.total_events);
		done(&x);
		make(&x, s);
		for (unsigned b = 0; b < 3; b++)
			x.buf[x.L.block_off[b] + major + 1] = layout == 1 ? 5 : 7; /* 2.3 .. 2.6 are known */
		check(&x);
		assert_int_equal(count(&x.rep, "lttng0.header.other-minor"), 3);
		expect_at(&x.rep, "lttng0.header.other-minor", x.L.block_off[1] + major + 1);
		assert_int_equal(tfk_report_verdict(&x.rep), TFK_VERDICT_CLEAN);
		done(&x);
		make(&x, s);
		put(&x, x.L.block_off[1] + sec, 1, 8);
		expect_only(&x, "lttng0.header.varies", x.L.block_off[1] + sec, x.L.total_events);
		done(&x);
	}
	/* 2008 only: heartbeat, tscbits */
	struct fx x;
	make(&x, l0fx_default(1));
	x.buf[x.L.block_off[2] + 63] = 40;
	expect_only(&x, "lttng0.header.bad-field", x.L.block_off[2] + 63, x.L.total_events);
	done(&x);
}

static void test_events(void **state)
{
	(void)state;
	for (uint8_t layout = 1; layout <= 2; layout++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(layout);
		s.alignment = 8;
		make(&x, s);
		/* The data ends 3 bytes into block 0's last event: its header crosses the fill limit. */
		size_t fill = x.L.last_off[0] + 3 - x.L.block_off[0];
		if (layout == 1)
			put(&x, 32, s.block_size - fill, 4);
		else
			put(&x, 52, fill, 4);
		expect_only(&x, "lttng0.event.overrun", x.L.last_off[0], x.L.total_events - 1);
		done(&x);
		/* Sizes left to the formats: the walk stops at the first such event. */
		s = l0fx_default(layout);
		s.unknown_sizes = true;
		make(&x, s);
		check(&x);
		expect_at(&x.rep, "lttng0.event.size-unknown", x.L.event_off[1]);
		assert_int_equal(count(&x.rep, "lttng0.event.size-unknown"), 3);
		assert_int_equal(tfk_report_verdict(&x.rep), TFK_VERDICT_INCOMPLETE);
		assert_int_equal(x.rep.stats.events, 0);
		done(&x);
	}
	/* A full TSC outside its block (2008 without heartbeat). */
	struct fx x;
	make(&x, l0fx_default(1));
	put(&x, x.L.event_off[1], 1, 8);
	expect_only(&x, "lttng0.event.tsc-outside", x.L.event_off[1], x.L.total_events);
	done(&x);
	/* And in the LTF 2.x escape 29 (after id, size: 8 bytes in, unaligned). */
	make(&x, l0fx_default(2));
	put(&x, x.L.event_off[2] + 8, 1, 8);
	expect_only(&x, "lttng0.event.tsc-outside", x.L.event_off[2] + 8, x.L.total_events);
	done(&x);
}

/* ---- directories ----------------------------------------------------------------------- */

struct dir {
	char path[512];
};

static void dir_make(struct dir *d)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(d->path, sizeof(d->path), "%s/tfk-lttng0-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(d->path));
	char sub[600];
	snprintf(sub, sizeof(sub), "%s/control", d->path);
	assert_int_equal(mkdir(sub, 0755), 0);
}

static void dir_put(struct dir *d, const char *name, const uint8_t *p, size_t n)
{
	char path[800];
	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void dir_free(struct dir *d)
{
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
}

static uint64_t dir_fx(struct dir *d, const char *name, struct l0fx_spec s)
{
	struct fx x;
	make(&x, s);
	dir_put(d, name, x.buf, x.len);
	uint64_t n = x.L.total_events;
	done(&x);
	return n;
}

static const struct tfk_finding *member_finding(const struct tfk_report *r, const char *code, const char *member)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->findings[i].fault->id, code) == 0 && strcmp(r->findings[i].member, member) == 0)
			return &r->findings[i];
	dump(r);
	fail_msg("no %s in %s", code, member);
	return NULL;
}

static void test_dir_2008(void **state)
{
	(void)state;
	struct dir d;
	dir_make(&d);
	struct l0fx_spec s = l0fx_default(1);
	s.heartbeat = true;
	s.big_endian = true;
	uint64_t n = dir_fx(&d, "cpu_0", s) + dir_fx(&d, "cpu_2", s);
	s.blocks = 1;
	n += dir_fx(&d, "control/processes_0", s);
	struct l0fx_spec meta = s;
	meta.meta = true;
	meta.blocks = L0FX_MAX_BLOCKS;
	n += dir_fx(&d, "control/facilities_0", meta);
	struct l0fx_spec c = s;
	c.compact = true;
	c.blocks = 2;
	n += dir_fx(&d, "compact_0", c);
	struct tfk_report r;
	tfk_check_file(d.path, NULL, &r);
	raised_note(&r);
	expect_clean(&r, n);
	assert_string_equal(r.stats.format, "LTTng 0.x trace directory");
	assert_int_equal(r.stats.cpus, 2);
	tfk_report_free(&r);
	/* A tracefile of another trace (other start time), an empty channel, no facilities. */
	s.start_time = 1;
	s.blocks = 2;
	dir_fx(&d, "cpu_2", s);
	dir_put(&d, "control/facilities_0", (const uint8_t *)"", 0);
	tfk_check_file(d.path, NULL, &r);
	raised_note(&r);
	const struct tfk_finding *f = member_finding(&r, "lttng0.header.varies", "cpu_2");
	assert_int_equal(f->offset, 93);
	member_finding(&r, "lttng0.file.empty", "control/facilities_0");
	tfk_report_free(&r);
	dir_free(&d);
}

static void test_dir_ltf2(void **state)
{
	(void)state;
	struct dir d;
	dir_make(&d);
	struct l0fx_spec s = l0fx_default(2);
	uint64_t n = dir_fx(&d, "kernel_0", s) + dir_fx(&d, "metadata_0", s);
	struct tfk_report r;
	tfk_check_file(d.path, NULL, &r);
	raised_note(&r);
	expect_clean(&r, n);
	tfk_report_free(&r);
	/* Only metadata: no tracefile of data; a big-endian one beside little-endian ones. */
	char path[800];
	snprintf(path, sizeof(path), "%s/kernel_0", d.path);
	assert_int_equal(unlink(path), 0);
	s.big_endian = true;
	dir_fx(&d, "control/metadata_1", s);
	tfk_check_file(d.path, NULL, &r);
	raised_note(&r);
	member_finding(&r, "lttng0.dir.no-tracefile", "");
	const struct tfk_finding *f = member_finding(&r, "lttng0.header.varies", "metadata_0"); /* the listing is sorted: control/ first */
	assert_int_equal(f->offset, 0);
	tfk_report_free(&r);
	/* cpu_0 and control/ without facilities or metadata. */
	snprintf(path, sizeof(path), "%s/metadata_0", d.path);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/control/metadata_1", d.path);
	assert_int_equal(unlink(path), 0);
	dir_fx(&d, "cpu_0", l0fx_default(2));
	tfk_check_file(d.path, NULL, &r);
	raised_note(&r);
	member_finding(&r, "lttng0.dir.no-metadata", "");
	/* no event can be named without it: an error, the only one */
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CORRUPT);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 1);
	tfk_report_free(&r);
	dir_free(&d);
}


/* ---- compact timestamps ---------------------------------------------------------------- */

/*
 * Heartbeat mode (32-bit 2008 timestamps) and LTF 2.x 27-bit words: the TSC wraps inside a
 * block and checks clean; a timestamp set below the one before (no heartbeat could explain it)
 * is reported at its event, and the walk goes on.
 */
static void test_compact_time(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 8; v++) {
		const uint8_t layout = 1 + (v & 1);
		struct l0fx_spec s = l0fx_default(layout);
		s.big_endian = v & 2;
		s.alignment = v & 4 ? 8 : 0;
		s.heartbeat = layout == 1;
		const unsigned bits = layout == 1 ? 32 : 27;
		/* Cross a wrap in every block: one every third event. */
		s.tsc_base = (5ull << bits) - 2500;
		s.tsc_step = (1ull << bits) / 3;
		struct fx x;
		make(&x, s);
		check(&x);
		expect_clean(&x.rep, x.L.total_events);
		done(&x);
		/* Near a wrap, events 1000 cycles apart; event 5 dated one cycle before event 4. */
		s.tsc_step = 0;
		make(&x, s);
		uint16_t id;
		uint32_t size;
		uint64_t tsc4;
		l0fx_event(&x.s, 4, &id, &size, &tsc4);
		const uint64_t low = (tsc4 - 1) & ((1ull << bits) - 1);
		if (layout == 1)
			put(&x, x.L.ev_off[5], low, 4);
		else
			put(&x, x.L.ev_off[5], 30u << 27 | low, 4);
		expect_only(&x, "lttng0.event.time-backwards", x.L.ev_off[5], x.L.total_events);
		assert_int_equal(count(&x.rep, "lttng0.event.time-backwards"), 1);
		done(&x);
	}
}

/* A 2008 compact tracefile (24 TSC bits a word) beside cpu_0: wraps check clean; one back is reported. */
static void test_compact_tracefile_time(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 2; v++) {
		struct dir d;
		dir_make(&d);
		struct l0fx_spec s = l0fx_default(1);
		s.big_endian = v;
		s.tsc_base = (5ull << 24) - 2500;
		s.tsc_step = (1ull << 24) / 3;
		struct l0fx_spec c = s;
		c.compact = true;
		struct fx x;
		make(&x, c);
		uint64_t n = dir_fx(&d, "cpu_0", s) + x.L.total_events;
		dir_put(&d, "compact_0", x.buf, x.len);
		struct tfk_report r;
		tfk_check_file(d.path, NULL, &r);
		raised_note(&r);
		/* the fixture has no metadata channel (lttng0.dir.no-metadata, an error): nothing else */
		assert_int_equal(count(&r, "lttng0.dir.no-metadata"), 1);
		assert_int_equal(r.by_severity[TFK_SEV_ERROR], 1);
		assert_int_equal(r.stats.events, n);
		assert_int_equal(count(&r, "lttng0.event.time-backwards"), 0);
		tfk_report_free(&r);
		/* Events 1000 cycles apart near a wrap; event 5's bits one below event 4's. */
		done(&x);
		c.tsc_step = 0;
		make(&x, c);
		uint32_t word = 0;
		for (unsigned i = 0; i < 4; i++)
			word |= (uint32_t)x.buf[x.L.ev_off[4] + i] << (v ? 8 * (3 - i) : 8 * i);
		const uint32_t low = (word & 0xFFFFFF) ? (word & 0xFFFFFF) - 1 : 0xFFFFFF;
		word = (word & 0xFF000000u) | low;
		put(&x, x.L.ev_off[5], word, 4);
		dir_put(&d, "compact_0", x.buf, x.len);
		tfk_check_file(d.path, NULL, &r);
		raised_note(&r);
		const struct tfk_finding *f = member_finding(&r, "lttng0.event.time-backwards", "compact_0");
		assert_int_equal(f->offset, x.L.ev_off[5]);
		tfk_report_free(&r);
		done(&x);
		dir_free(&d);
	}
}

/* ---- sizes from the marker metadata ------------------------------------------------------ */

/* A trace directory of one layout: its metadata tracefile and a tracefile of formats events. */
struct mdir {
	struct dir d;
	struct fx meta, data;
	char meta_name[64], data_name[64];
	uint64_t events;
};

static void mdir_make(struct mdir *m, uint8_t layout, bool be, uint8_t alignment, bool heartbeat)
{
	dir_make(&m->d);
	struct l0fx_spec s = l0fx_default(layout);
	s.big_endian = be;
	s.alignment = alignment;
	s.heartbeat = heartbeat;
	s.channel = "kernel";
	struct l0fx_spec ms = s;
	ms.meta = true;
	ms.blocks = L0FX_MAX_BLOCKS;
	if (layout == 1)
		ms.block_size = 512; /* the records take several blocks */
	make(&m->meta, ms);
	s.formats = true;
	s.blocks = 4;
	s.events = 9;
	make(&m->data, s);
	snprintf(m->meta_name, sizeof m->meta_name, "%s", layout == 1 ? "control/facilities_0" : "metadata_0");
	snprintf(m->data_name, sizeof m->data_name, "%s", layout == 1 ? "cpu_0" : "kernel_0");
	m->events = m->meta.L.total_events + m->data.L.total_events;
}

static void mdir_check(struct mdir *m, struct tfk_report *r)
{
	dir_put(&m->d, m->meta_name, m->meta.buf, m->meta.len);
	dir_put(&m->d, m->data_name, m->data.buf, m->data.len);
	tfk_check_file(m->d.path, NULL, r);
	raised_note(r);
}

static void mdir_free(struct mdir *m)
{
	done(&m->meta);
	done(&m->data);
	dir_free(&m->d);
}

/* The first file offset of the string s (its NUL included) in the fixture. */
static size_t find_str(const struct fx *x, const char *s)
{
	const size_t n = strlen(s) + 1;
	for (size_t i = 0; i + n <= x->len; i++)
		if (memcmp(x->buf + i, s, n) == 0)
			return i;
	fail_msg("no \"%s\" in the fixture", s);
	return 0;
}

/* The offset of the string s (its NUL included) at or after from, relative to from. */
static size_t find_str_from(const struct fx *x, size_t from, const char *s)
{
	const size_t n = strlen(s) + 1;
	for (size_t i = from; i + n <= x->len; i++)
		if (memcmp(x->buf + i, s, n) == 0)
			return i - from;
	fail_msg("no \"%s\" after %zu in the fixture", s, from);
	return 0;
}

/* The file offset of a marker_id record's u16 id: after its name, aligned to 2 when aligned. */
static size_t id_field(const struct fx *x, const char *name)
{
	size_t at = find_str(x, name) + strlen(name) + 1;
	return x->s.alignment ? (at + 1) / 2 * 2 : at;
}

static const struct tfk_finding *finding_of(const struct tfk_report *r, const char *code, const char *member)
{
	const struct tfk_finding *f = member_finding(r, code, member);
	assert_true(f->has_offset);
	return f;
}

static uint8_t *read_all(const char *dir, const char *name, size_t *len)
{
	char path[800];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	uint8_t *p = malloc(n ? (size_t)n : 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

static void test_metadata_sizes(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 16; v++) {
		const uint8_t layout = 1 + (v & 1), alignment = v & 2 ? 8 : 0;
		const bool be = v & 4, hb = v & 8;
		if (layout == 2 && hb)
			continue;
		struct mdir m;
		mdir_make(&m, layout, be, alignment, hb);
		/* Every block holds several events of each marker, strings of every length. */
		assert_int_equal(m.data.L.blocks, 4);
		assert_true(m.meta.L.blocks >= (layout == 1 ? 2u : 1u));
		assert_int_equal(m.meta.L.total_events, 2 * (L0FX_NMARKERS + (layout == 1 ? 7 : 5)));
		struct tfk_report r;
		mdir_check(&m, &r);
		expect_clean(&r, m.events);
		tfk_report_free(&r);
		/* The test decoder reads the markers itself, then every event of the data, in order. */
		static struct l0dec_meta meta;
		static struct l0dec_event ev[1024];
		memset(&meta, 0, sizeof(meta));
		long n = l0dec_decode_meta(m.meta.buf, m.meta.len, layout, be, &meta, true, "", ev, 1024);
		assert_int_equal(n, (long)m.meta.L.total_events);
		assert_int_equal(meta.n, L0FX_NMARKERS + (layout == 1 ? 7 : 5));
		n = l0dec_decode_meta(m.data.buf, m.data.len, layout, be, &meta, false, "kernel", ev, 1024);
		assert_int_equal(n, (long)m.data.L.total_events);
		for (long g = 0; g < n; g++) {
			assert_int_equal(ev[g].id, l0fx_markers[g % L0FX_NMARKERS].id);
			if ((size_t)g < L0FX_MAX_EVENTS && g + 1 < n && ev[g + 1].block == ev[g].block)
				assert_true(ev[g].payload + ev[g].size <= m.data.buf + m.data.L.ev_off[g + 1]);
		}
		/* Without its metadata the data tracefile cannot be measured past each block's first. */
		tfk_check_buffer(m.data.buf, m.data.len, NULL, &r);
		raised_note(&r);
		assert_int_equal(count(&r, "lttng0.event.size-unknown"), 4);
		assert_int_equal(r.stats.events, layout == 2 ? 4 : 0); /* 2.x: the escape-29 events */
		if (layout == 1)
			for (unsigned b = 0; b < 4; b++)
				expect_at(&r, "lttng0.event.size-unknown", m.data.L.event_off[b]);
		assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
		tfk_report_free(&r);
		mdir_free(&m);
	}
}

/* Events of data block b up to (not including) the first of marker index k; all if none. */
static uint64_t walked_before(const struct fx *x, unsigned b, unsigned k)
{
	uint64_t n = 0;
	for (uint64_t g = x->L.first_event[b]; g < x->L.first_event[b] + x->L.events[b]; g++, n++)
		if (g % L0FX_NMARKERS == k && !(x->s.layout == 2 && g == x->L.first_event[b]))
			break; /* 2.x: a block's first event carries its size */
	return n;
}

static uint64_t walked_all_but(const struct fx *x, unsigned k)
{
	uint64_t n = 0;
	for (unsigned b = 0; b < x->L.blocks; b++)
		n += walked_before(x, b, k);
	return n;
}

/* Damaged metadata: each fault at its byte; the data events of the marker it spoils go unmeasured. */
static void test_metadata_faults(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 4; v++) {
		const uint8_t layout = 1 + (v & 1), alignment = v & 2 ? 8 : 0;
		const bool be = v & 1;
		struct mdir m;
		struct tfk_report r;
		/*
		 * A type size of 3 in sched_switch's marker_id: reported, read as the trace's other
		 * marker_id events give it (every event is still walked), and written back by repair.
		 */
		mdir_make(&m, layout, be, alignment, false);
		size_t at = id_field(&m.meta, "sched_switch") + 2;
		assert_int_equal(m.meta.buf[at], 4);
		m.meta.buf[at] = 3;
		mdir_check(&m, &r);
		assert_int_equal(finding_of(&r, "lttng0.metadata.bad-type-size", m.meta_name)->offset, at);
		assert_int_equal(r.by_severity[TFK_SEV_ERROR], 1);
		assert_int_equal(r.by_severity[TFK_SEV_WARNING], 0);
		assert_int_equal(r.stats.events, m.meta.L.total_events + m.data.L.total_events);
		tfk_report_free(&r);
		{
			char out[600];
			snprintf(out, sizeof(out), "%s-out", m.d.path);
			struct tfk_repair_report rep;
			tfk_repair_dir(m.d.path, out, NULL, &rep);
			assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
			tfk_repair_report_free(&rep);
			size_t n;
			uint8_t *p = read_all(out, m.meta_name, &n);
			assert_int_equal(n, m.meta.len);
			m.meta.buf[at] = 4;
			assert_memory_equal(p, m.meta.buf, n); /* the byte written back, nothing else */
			free(p);
			char cmd[700];
			snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
			assert_int_equal(system(cmd), 0);
		}
		mdir_free(&m);
		/* A floating-point conversion in irq_entry's format: its events have no size. */
		mdir_make(&m, layout, be, alignment, false);
		at = find_str(&m.meta, "ip %p irq #2u%u kernel #1u%hhu");
		m.meta.buf[at + 4] = 'f';
		mdir_check(&m, &r);
		assert_int_equal(finding_of(&r, "lttng0.metadata.bad-format", m.meta_name)->offset, at + 3);
		finding_of(&r, "lttng0.event.size-unknown", m.data_name);
		assert_int_equal(r.stats.events, m.meta.L.total_events + walked_all_but(&m.data, 1));
		tfk_report_free(&r);
		mdir_free(&m);
		/* irq_entry given sched_switch's id: the first definition stays, id 11 is undefined. */
		mdir_make(&m, layout, be, alignment, false);
		at = id_field(&m.meta, "irq_entry");
		l0fx_put(m.meta.buf + at, 10, 2, be);
		mdir_check(&m, &r);
		assert_int_equal(finding_of(&r, "lttng0.metadata.redefined", m.meta_name)->offset, at);
		const struct tfk_finding *f = finding_of(&r, "lttng0.event.unknown-id", m.data_name);
		assert_int_equal(f->offset, m.data.L.ev_off[1]); /* event 1 is the first of irq_entry */
		assert_int_equal(r.stats.events, m.meta.L.total_events + walked_all_but(&m.data, 1));
		tfk_report_free(&r);
		mdir_free(&m);
		/* The marker_format record of sched_switch with an empty name: ignored, reported there. */
		mdir_make(&m, layout, be, alignment, false);
		at = find_str(&m.meta, "sched_switch");
		const size_t second = at + 1 + find_str_from(&m.meta, at + 1, "sched_switch");
		m.meta.buf[second] = 0;
		mdir_check(&m, &r);
		assert_int_equal(finding_of(&r, "lttng0.metadata.bad-record", m.meta_name)->offset, second);
		finding_of(&r, "lttng0.event.size-unknown", m.data_name);
		tfk_report_free(&r);
		mdir_free(&m);
		/* A block whose data ends inside the last event's string (no NUL within): an overrun. */
		mdir_make(&m, layout, be, alignment, false);
		unsigned b = 0;
		while (b < m.data.L.blocks && (m.data.L.first_event[b] + m.data.L.events[b] - 1) % L0FX_NMARKERS != 0)
			b++;
		assert_true(b < m.data.L.blocks); /* sched_switch, whose last field is a string */
		const size_t fill_at = m.data.L.block_off[b] + (layout == 1 ? 32 : 52);
		const uint64_t fill = m.data.L.data_end[b] - m.data.L.block_off[b] - 1;
		l0fx_put(m.data.buf + fill_at, layout == 1 ? m.data.s.block_size - fill : fill, 4, be);
		mdir_check(&m, &r);
		assert_int_equal(finding_of(&r, "lttng0.event.overrun", m.data_name)->offset, m.data.L.last_off[b]);
		assert_int_equal(r.stats.events, m.events - 1);
		tfk_report_free(&r);
		mdir_free(&m);
	}
}

/* ---- directory repair ------------------------------------------------------------------ */


static const struct tfk_salvage_member *salvaged(const struct tfk_repair_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nmembers; i++)
		if (strcmp(rep->members[i].member, name) == 0)
			return &rep->members[i];
	fail_msg("no salvage line for %s", name);
	return NULL;
}

/*
 * A trace directory with its metadata, an intact tracefile of metadata-sized events, and three
 * damaged tracefiles: cut inside block 2, a bad magic in the tail block, block 1's fill
 * impossible. The repaired directory checks clean; untouched members are copied byte for byte;
 * the test decoder reads exactly the events of the blocks and whole events that survived.
 */
static void test_repair_dir(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 4; v++) {
		const uint8_t layout = 1 + (v & 1);
		struct mdir m;
		mdir_make(&m, layout, v & 2, v & 2 ? 8 : 0, false);
		const char *pre = layout == 1 ? "cpu_" : "kernel_";
		struct l0fx_spec s = m.data.s;
		s.formats = false;
		s.blocks = 3;
		s.events = 8;
		struct fx cut, magic, fill;
		make(&cut, s);
		make(&magic, s);
		make(&fill, s);
		const uint64_t cut_at = cut.L.ev_off[cut.L.first_event[2] + 3] + 1;
		magic.buf[magic.L.block_off[2] + (layout == 1 ? 40 : 16)] ^= 0x55;
		put(&fill, fill.L.block_off[1] + (layout == 1 ? 32 : 52), layout == 1 ? 4000 : 5000, 4);
		char names[3][32];
		struct fx *xs[3] = { &cut, &magic, &fill };
		for (unsigned i = 0; i < 3; i++) {
			snprintf(names[i], sizeof names[i], "%s%u", pre, i + 1);
			dir_put(&m.d, names[i], xs[i]->buf, i == 0 ? (size_t)cut_at : xs[i]->len);
		}
		struct tfk_report r;
		mdir_check(&m, &r);
		finding_of(&r, "lttng0.block.cut", names[0]);
		finding_of(&r, "lttng0.header.bad-magic", names[1]);
		finding_of(&r, "lttng0.block.bad-fill", names[2]);
		tfk_report_free(&r);

		char out[600];
		snprintf(out, sizeof(out), "%s-out", m.d.path);
		struct tfk_repair_report rep;
		tfk_repair_dir(m.d.path, out, NULL, &rep);
		if (rep.outcome != TFK_REPAIR_DONE) {
			dump(&rep.after);
			fail_msg("outcome %d (%s)", rep.outcome, rep.reason ? rep.reason : "");
		}
		const uint64_t kept[3] = { cut.L.first_event[2] + 3, magic.L.first_event[2],
					   fill.L.total_events - fill.L.events[1] };
		for (unsigned i = 0; i < 3; i++) {
			const struct tfk_salvage_member *sm = salvaged(&rep, names[i]);
			assert_string_equal(sm->action, "rewritten");
			assert_int_equal(sm->kept, kept[i]);
		}
		/* Block 1's events were not walked (its fill is impossible): lost, number unknown. */
		assert_int_equal(salvaged(&rep, names[2])->lost, 0);
		assert_true(salvaged(&rep, names[2])->lost_unknown);
		assert_non_null(strstr(salvaged(&rep, names[2])->note, "2 blocks kept whole, 0 clipped to the last whole event, 1 dropped"));
		assert_string_equal(salvaged(&rep, m.meta_name)->action, "copied");
		assert_string_equal(salvaged(&rep, m.data_name)->action, "copied");
		assert_int_equal(salvaged(&rep, m.data_name)->kept, m.data.L.total_events);
		tfk_repair_report_free(&rep);

		/* The output re-checks clean with exactly the events kept. */
		tfk_check_file(out, NULL, &r);
		raised_note(&r);
		expect_clean(&r, m.events + kept[0] + kept[1] + kept[2]);
		tfk_report_free(&r);
		/* Untouched members byte for byte; the others through the decoder. */
		struct fx *whole[2] = { &m.meta, &m.data };
		const char *whole_names[2] = { m.meta_name, m.data_name };
		for (unsigned i = 0; i < 2; i++) {
			size_t n;
			uint8_t *p = read_all(out, whole_names[i], &n);
			assert_int_equal(n, whole[i]->len);
			assert_memory_equal(p, whole[i]->buf, n);
			free(p);
		}
		size_t n;
		uint8_t *p = read_all(out, names[0], &n);
		assert_int_equal(n, 3 * (size_t)s.block_size);
		expect_events(p, n, &cut, kept[0], cut.L.total_events, 0, 0);
		free(p);
		p = read_all(out, names[1], &n);
		assert_int_equal(n, 2 * (size_t)s.block_size);
		expect_events(p, n, &magic, kept[1], magic.L.total_events, 0, 0);
		free(p);
		p = read_all(out, names[2], &n);
		assert_int_equal(n, 2 * (size_t)s.block_size);
		expect_events(p, n, &fill, fill.L.first_event[1], fill.L.first_event[2], 0, 0);
		free(p);

		/* Two-run rule: the repaired directory needs nothing more. */
		tfk_repair_dir(out, NULL, NULL, &rep);
		assert_int_equal(rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
		tfk_repair_report_free(&rep);
		char cmd[700];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
		assert_int_equal(system(cmd), 0);
		for (unsigned i = 0; i < 3; i++)
			done(xs[i]);
		mdir_free(&m);
	}
}

static void put_le32_at(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * The metadata tracefile cut inside its first block, whose header claims a sub-buffer of 1 GiB:
 * no block of it can be kept, and without the marker metadata no channel's events have a size.
 * Repair refuses, saying why, and writes nothing.
 */
static void test_repair_dir_metadata_lost(void **state)
{
	(void)state;
	struct mdir m;
	mdir_make(&m, 2, false, 0, false);
	put_le32_at(m.meta.buf + m.meta.L.block_off[0] + 56, 1u << 30); /* sb_size (§3.3) */
	m.meta.len = m.meta.L.data_end[0] - 1;
	struct tfk_report r;
	mdir_check(&m, &r);
	finding_of(&r, "lttng0.block.cut", m.meta_name);
	tfk_report_free(&r);
	char out[600];
	snprintf(out, sizeof(out), "%s-out", m.d.path);
	struct tfk_repair_report rep;
	tfk_repair_dir(m.d.path, out, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_UNSUPPORTED);
	assert_non_null(rep.reason);
	assert_non_null(strstr(rep.reason, "marker metadata"));
	struct stat sb;
	assert_int_not_equal(stat(out, &sb), 0);
	tfk_repair_report_free(&rep);
	mdir_free(&m);
}

/* ---- repair -------------------------------------------------------------------------- */

static void expect_repaired_as(struct fx *x, uint64_t events, uint64_t blocks_dropped, uint64_t a1, uint64_t b1,
			       uint64_t a2, uint64_t b2)
{
	struct tfk_repair_report rep;
	uint8_t *out;
	size_t len;
	tfk_repair_buffer(x->buf, x->len, NULL, &out, &len, &rep);
	raised_note(&rep.before);
	if (rep.outcome != TFK_REPAIR_DONE) {
		dump(&rep.before);
		dump(&rep.after);
		fail_msg("outcome %d", rep.outcome);
	}
	expect_clean(&rep.after, events);
	assert_int_equal(len % x->s.block_size, 0);
	assert_int_equal(rep.ncpus, 1);
	assert_int_equal(rep.cpus[0].events_kept, events);
	assert_int_equal(rep.cpus[0].pages_dropped, blocks_dropped);
	expect_events(out, len, x, a1, b1, a2, b2);
	struct tfk_repair_report twice;
	uint8_t *out2;
	size_t len2;
	tfk_repair_buffer(out, len, NULL, &out2, &len2, &twice);
	assert_int_equal(twice.outcome, TFK_REPAIR_NOTHING_TO_DO);
	tfk_repair_report_free(&twice);
	free(out2);
	tfk_repair_report_free(&rep);
	free(out);
}

/* Repaired keeping every event but [a1, b1). */
static void expect_repaired(struct fx *x, uint64_t events, uint64_t blocks_dropped, uint64_t a1, uint64_t b1)
{
	expect_repaired_as(x, events, blocks_dropped, a1, b1, 0, 0);
}

static void test_repair_cut(void **state)
{
	(void)state;
	for (unsigned m = 0; m < 4; m++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(m & 1 ? 2 : 1);
		s.big_endian = m & 2;
		s.alignment = m & 2 ? 8 : 0;
		s.events = 30;
		make(&x, s);
		x.len = x.L.data_end[2] - 1;
		expect_repaired(&x, x.L.total_events - 1, 0, x.L.total_events - 1, x.L.total_events);
		/* Cut in the last block's header: the block is lost. */
		x.len = x.L.block_off[2] + 20;
		expect_repaired(&x, x.L.events[0] + x.L.events[1], 1, x.L.first_event[2], x.L.total_events);
		done(&x);
	}
}

/*
 * The last block cut short while its header claims a sub-buffer of 1 GiB: put back with zeros
 * it would turn a few kilobytes into a gigabyte. Such a block is not trusted: dropped, its
 * events counted lost, the output the two whole blocks before it.
 */
static void test_repair_cut_huge_block(void **state)
{
	(void)state;
	struct fx x;
	struct l0fx_spec s = l0fx_default(2);
	s.events = 30;
	make(&x, s);
	x.len = x.L.data_end[2] - 1;
	put_le32_at(x.buf + x.L.block_off[2] + 56, 1u << 30); /* sb_size (§3.3) */
	struct tfk_repair_report rep;
	uint8_t *out;
	size_t len;
	tfk_repair_buffer(x.buf, x.len, NULL, &out, &len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	assert_int_equal(len, x.L.block_off[2]);
	assert_memory_equal(out, x.buf, len);
	assert_int_equal(rep.cpus[0].pages_dropped, 1);
	assert_int_equal(rep.cpus[0].events_kept, x.L.events[0] + x.L.events[1]);
	assert_int_equal(tfk_report_verdict(&rep.after), TFK_VERDICT_CLEAN);
	free(out);
	tfk_repair_report_free(&rep);
	done(&x);
}

static void test_repair_damaged(void **state)
{
	(void)state;
	for (uint8_t layout = 1; layout <= 2; layout++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(layout);
		s.blocks = 4;
		make(&x, s);
		/* Garbage over block 1's header: dropped, the others kept whole. */
		memset(x.buf + x.L.block_off[1], 0xA5, 80);
		expect_repaired(&x, x.L.total_events - x.L.events[1], 1, x.L.first_event[1], x.L.first_event[2]);
		done(&x);
		/* An event overrun in block 2: the block is kept up to its last whole event. */
		make(&x, s);
		size_t fill = x.L.last_off[2] + 3 - x.L.block_off[2];
		if (layout == 1)
			put(&x, x.L.block_off[2] + 32, s.block_size - fill, 4);
		else
			put(&x, x.L.block_off[2] + 52, fill, 4);
		expect_repaired(&x, x.L.total_events - 1, 0, x.L.first_event[3] - 1, x.L.first_event[3]);
		done(&x);
		/* A varying header and an impossible fill: both blocks dropped. */
		make(&x, s);
		put(&x, x.L.block_off[1] + (layout == 1 ? 93 : 24), 3, 8);
		put(&x, x.L.block_off[3] + (layout == 1 ? 32 : 52), 99999, 4);
		expect_repaired_as(&x, x.L.events[0] + x.L.events[2], 2, x.L.first_event[1], x.L.first_event[2],
				   x.L.first_event[3], x.L.total_events);
		done(&x);
	}
}

struct text {
	char buf[2048];
	size_t len;
};

static int collect(void *user, const char *bytes, size_t len)
{
	struct text *t = user;
	if (len >= sizeof(t->buf) - t->len)
		return -1;
	memcpy(t->buf + t->len, bytes, len);
	t->len += len;
	t->buf[t->len] = '\0';
	return 0;
}

/* The salvage report says what was kept and lost, in blocks and events. */
static void test_repair_salvage_text(void **state)
{
	(void)state;
	struct fx x;
	struct l0fx_spec s = l0fx_default(1);
	s.blocks = 4;
	make(&x, s);
	memset(x.buf + x.L.block_off[1] + 40, 0, 4);
	x.len = x.L.data_end[3] - 1;
	struct tfk_repair_report rep;
	uint8_t *out;
	size_t len;
	tfk_repair_buffer(x.buf, x.len, NULL, &out, &len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_DONE);
	struct text t = { "", 0 };
	assert_int_equal(tfk_repair_report_text(&rep, "cpu_0", collect, &t), 0);
	char want[1024];
	snprintf(want, sizeof(want),
		 "cpu_0: salvage: kept 2 blocks whole and 1 block up to the last whole event (%llu events); dropped 1 "
		 "damaged block or run of garbage (0 events walked in them); the events after the damage in a clipped "
		 "block are unknown; %llu bytes of the last block missing from the file, which was cut short (events "
		 "there unknown)\n"
		 /* the account by kind: the one tracefile a unit lost in part, no metadata of its own */
		 "cpu_0: account: events kept %llu, lost 0 + an unknown number in %llu bytes; 1 unit (0 kept; 1 lost in "
		 "part: tracefile); 0 metadata sections\n"
		 "cpu_0:   unit tracefile: lost in part; events kept %llu, lost 0 + an unknown number in %llu bytes; 1 block "
		 "clipped, 1 dropped\n",
		 (unsigned long long)(x.L.total_events - x.L.events[1] - 1),
		 (unsigned long long)(x.L.block_off[3] + s.block_size - x.len),
		 (unsigned long long)(x.L.total_events - x.L.events[1] - 1),
		 (unsigned long long)(x.L.block_off[3] + s.block_size - x.len),
		 (unsigned long long)(x.L.total_events - x.L.events[1] - 1),
		 (unsigned long long)(x.L.block_off[3] + s.block_size - x.len));
	assert_string_equal(t.buf, want);
	free(out);
	tfk_repair_report_free(&rep);
	/* Only a cut first header: no block is left to keep, and an empty file is no tracefile. */
	tfk_repair_buffer(x.buf, 60, NULL, &out, &len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_UNSUPPORTED);
	assert_non_null(rep.reason);
	assert_null(out);
	tfk_repair_report_free(&rep);
	/* A clean file has nothing to repair. */
	x.len = x.L.block_off[3] + s.block_size;
	memcpy(x.buf + x.L.block_off[1] + 40, x.buf + 40, 4);
	tfk_repair_buffer(x.buf, x.len, NULL, &out, &len, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	tfk_repair_report_free(&rep);
	free(out);
	done(&x);
}

/* ---- fuzz seeds ---------------------------------------------------------------------- */

static int write_corpus(const char *dir)
{
	static const struct {
		const char *name;
		uint8_t layout;
		bool be, hb;
		uint8_t align, minor;
	} seeds[] = {
		{ "seed-lttng0-2008-le", 1, false, false, 0, 0 },
		{ "seed-lttng0-2008-be-heartbeat-align8", 1, true, true, 8, 0 },
		{ "seed-lttng0-ltf26-le-align8", 2, false, false, 8, 0 },
		{ "seed-lttng0-ltf26-be", 2, true, false, 0, 0 },
		{ "seed-lttng0-ltf23-le-lost-size", 2, false, false, 0, 3 },
		{ "seed-lttng0-ltf25-le-align4-natural", 2, false, false, 4, 5 },
	};
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct l0fx_spec s = l0fx_default(seeds[i].layout);
		s.big_endian = seeds[i].be;
		s.heartbeat = seeds[i].hb;
		s.alignment = seeds[i].align;
		s.minor = seeds[i].minor;
		s.blocks = 2;
		s.block_size = seeds[i].layout == 1 ? 512 : 4096;
		s.events = 6;
		struct l0fx_layout L;
		uint8_t *buf;
		size_t len;
		if (l0fx_write(&s, &buf, &len, &L) != 0)
			return 1;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
			return 1;
		free(buf);
	}
	return 0;
}

/* One member of fuzz_lttng0's container: {u8 name length, name, u8 kind 0, u32 LE size, bytes}. */
static bool put_member(FILE *f, const char *name, const uint8_t *p, size_t n)
{
	const uint8_t head[6] = { 0, (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24), 0 };
	const uint8_t nlen = (uint8_t)strlen(name);
	return fwrite(&nlen, 1, 1, f) == 1 && fwrite(name, 1, nlen, f) == nlen && fwrite(head, 1, 5, f) == 5 &&
	       fwrite(p, 1, n, f) == n;
}

/*
 * Seeds of fuzz_lttng0: trace directories of the fixture writer (metadata, a tracefile of
 * metadata-sized events, one of explicit sizes), pristine and with a tracefile cut mid-block.
 */
static int write_dir_corpus(const char *dir)
{
	static const struct {
		const char *name;
		uint8_t layout;
		bool be;
		uint8_t align;
		bool cut;
		uint8_t minor;
		bool real;       /* the real kernels' marker formats */
	} seeds[] = {
		{ "seed-lttng0-dir-2008-le", 1, false, 0, false, 0, false },
		{ "seed-lttng0-dir-2008-be-align8-cut", 1, true, 8, true, 0, false },
		{ "seed-lttng0-dir-ltf26-le-align8", 2, false, 8, false, 0, false },
		{ "seed-lttng0-dir-ltf26-be-cut", 2, true, 0, true, 0, false },
		{ "seed-lttng0-dir-ltf23-le-real-markers", 2, false, 0, false, 3, true },
		{ "seed-lttng0-dir-ltf25-le-align4-real-markers-cut", 2, false, 4, true, 5, true },
	};
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		const uint8_t layout = seeds[i].layout;
		struct l0fx_spec s = l0fx_default(layout);
		s.big_endian = seeds[i].be;
		s.alignment = seeds[i].align;
		s.channel = "kernel";
		s.block_size = layout == 1 ? 512 : 4096;
		s.blocks = 2;
		s.events = 6;
		s.minor = seeds[i].minor;
		s.markers = seeds[i].real ? l0fx_real_markers : NULL;
		struct l0fx_spec ms = s, fs = s;
		ms.meta = true;
		ms.blocks = L0FX_MAX_BLOCKS;
		fs.formats = true;
		const struct l0fx_spec *specs[3] = { &ms, &fs, &s };
		const char *names[2][3] = { { "control.facilities_0", "cpu_0", "cpu_1" },
					    { "metadata_0", "kernel_0", "kernel_1" } };
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		FILE *f = fopen(path, "wb");
		if (!f)
			return 1;
		for (unsigned k = 0; k < 3; k++) {
			struct l0fx_layout L;
			uint8_t *buf;
			size_t len;
			if (l0fx_write(specs[k], &buf, &len, &L) != 0)
				return 1;
			if (seeds[i].cut && k == 2)
				len = L.ev_off[L.first_event[1] + 2] + 3;
			bool ok = put_member(f, names[layout - 1][k], buf, len);
			free(buf);
			if (!ok)
				return 1;
		}
		if (fclose(f) != 0)
			return 1;
	}
	return 0;
}


/* ---- as the LTF 2.x tracers really wrote (REAL-TRACES.md) ------------------------------- */

/* A metadata_0 and a kernel_0 of events sized by their markers, as a real writer of spec's version. */
static void rdir_make(struct mdir *m, struct l0fx_spec s)
{
	dir_make(&m->d);
	s.channel = "kernel";
	struct l0fx_spec ms = s;
	ms.meta = true;
	ms.trim = false;
	ms.blocks = L0FX_MAX_BLOCKS;
	make(&m->meta, ms);
	s.formats = true;
	s.blocks = 4;
	s.events = 9;
	make(&m->data, s);
	snprintf(m->meta_name, sizeof m->meta_name, "metadata_0");
	snprintf(m->data_name, sizeof m->data_name, "kernel_0");
	m->events = m->meta.L.total_events + m->data.L.total_events;
}

/* Clean with the events, no finding but n notes of the real pm markers' writer quirk. */
static void expect_clean_but_quirk(const struct tfk_report *r, uint64_t events, size_t n)
{
	size_t q = 0;
	for (size_t i = 0; i < r->count; i++)
		q += strcmp(r->findings[i].fault->id, "lttng0.writer.typeless-trace-type") == 0;
	if (tfk_report_verdict(r) != TFK_VERDICT_CLEAN || r->count != n || q != n) {
		dump(r);
		fail_msg("not clean: %zu findings", r->count);
	}
	assert_int_equal(r->stats.events, events);
}

/* The decoder (apart from the checker) walks every event of both tracefiles. */
static void rdir_decoded(struct mdir *m)
{
	static struct l0dec_meta meta;
	static struct l0dec_event ev[1024];
	memset(&meta, 0, sizeof(meta));
	const bool be = m->data.s.big_endian;
	assert_int_equal(l0dec_decode_meta(m->meta.buf, m->meta.len, 2, be, &meta, true, "", ev, 1024),
			 (long)m->meta.L.total_events);
	assert_int_equal(l0dec_decode_meta(m->data.buf, m->data.len, 2, be, &meta, false, "kernel", ev, 1024),
			 (long)m->data.L.total_events);
}

/*
 * 2.3 to 2.6, packed or aligned, 32- or 64-bit, the fixture's markers and the real kernels':
 * clean, no minor called unknown, every event walked. 2.3/2.4 carry lost_size and buf_size, 2.4
 * and 2.5 align a type on its size, every payload begins on its widest field, "#p%ld" is a
 * pointer, "#2u%u" two bytes and "irqstate #1%d" nothing at all.
 */
static void test_real_versions(void **state)
{
	(void)state;
	for (uint8_t minor = 3; minor <= 6; minor++)
		for (unsigned v = 0; v < 12; v++) {
			struct l0fx_spec s = l0fx_default(2);
			s.minor = minor;
			s.alignment = (uint8_t)(v % 3 == 0 ? 0 : v % 3 == 1 ? 4 : 8);
			s.arch_size = v & 4 ? 4 : 8;
			s.markers = v & 8 ? l0fx_real_markers : NULL;
			s.big_endian = v & 1;
			struct mdir m;
			rdir_make(&m, s);
			struct tfk_report r;
			mdir_check(&m, &r);
			expect_clean_but_quirk(&r, m.events, s.markers ? 1 : 0);
			tfk_report_free(&r);
			rdir_decoded(&m);
			mdir_free(&m);
		}
}

/* Minors outside 2.3 .. 2.6 are named (a warning on each block), and still walked as 2.6. */
static void test_real_unknown_minor(void **state)
{
	(void)state;
	const uint8_t minors[2] = { 2, 7 };
	for (unsigned i = 0; i < 2; i++) {
		struct fx x;
		struct l0fx_spec s = l0fx_default(2);
		make(&x, s);
		for (unsigned b = 0; b < x.L.blocks; b++)
			x.buf[x.L.block_off[b] + 21] = minors[i];
		check(&x);
		assert_int_equal(count(&x.rep, "lttng0.header.other-minor"), x.L.blocks);
		expect_at(&x.rep, "lttng0.header.other-minor", x.L.block_off[0] + 21);
		assert_int_equal(x.rep.by_severity[TFK_SEV_ERROR], 0);
		assert_int_equal(x.rep.stats.events, x.L.total_events);
		done(&x);
	}
}

/*
 * The version decides the layout: a 2.3 tracefile's lost_size read as 2.5's data_size is an
 * impossible fill (the blocks dropped), and a 2.3 block whose buf_size differs from the first's
 * breaks the fixed sub-buffer size (LTTV 2.3 computes every block's place from the first's).
 */
static void test_real_lost_size(void **state)
{
	(void)state;
	struct fx x;
	struct l0fx_spec s = l0fx_default(2);
	s.minor = 3;
	s.events = 20;
	make(&x, s);
	check(&x);
	expect_clean(&x.rep, x.L.total_events);
	/* lost_size is the unused tail: data end = buf_size - lost_size */
	uint32_t lost = 0;
	for (int i = 3; i >= 0; i--)
		lost = lost << 8 | x.buf[x.L.block_off[1] + 52 + (unsigned)i];
	assert_int_equal(s.block_size - lost, x.L.data_end[1] - x.L.block_off[1]);
	for (unsigned b = 0; b < x.L.blocks; b++)
		x.buf[x.L.block_off[b] + 21] = 5;
	check(&x);
	/* Read as 2.5, each block's walk runs on past its real data, into the unused tail. */
	assert_int_not_equal(tfk_report_verdict(&x.rep), TFK_VERDICT_CLEAN);
	assert_int_equal(count(&x.rep, "lttng0.event.size-unknown"), x.L.blocks);
	expect_at(&x.rep, "lttng0.event.size-unknown", x.L.data_end[0]);
	done(&x);

	make(&x, s);
	put(&x, x.L.block_off[1] + 52, s.block_size, 4); /* lost_size past the headers */
	expect_only(&x, "lttng0.block.bad-fill", x.L.block_off[1] + 52, x.L.total_events - x.L.events[1]);
	assert_string_equal(x.rep.findings[0].path, "block 1 lost_size");
	done(&x);

	make(&x, s);
	put(&x, x.L.block_off[1] + 56, 2 * s.block_size, 4);
	check(&x);
	expect_at(&x.rep, "lttng0.block.inconsistent", x.L.block_off[1] + 56);
	done(&x);
}

/* A 2.3 tracefile cut inside its last block: repair writes that block's lost_size back. */
static void test_real_lost_size_repair(void **state)
{
	(void)state;
	struct fx x;
	struct l0fx_spec s = l0fx_default(2);
	s.minor = 3;
	s.events = 30;
	make(&x, s);
	x.len = x.L.data_end[2] - 1;
	expect_repaired(&x, x.L.total_events - 1, 0, x.L.total_events - 1, x.L.total_events);
	done(&x);
}

/* 2.5+ lttd wrote each sub-buffer only up to its last page: sb_size varies, all of it sound. */
static void test_real_trimmed(void **state)
{
	(void)state;
	for (uint8_t minor = 5; minor <= 6; minor++) {
		struct l0fx_spec s = l0fx_default(2);
		s.minor = minor;
		s.block_size = 16384;
		s.events = 40;
		s.trim = true;
		struct mdir m;
		rdir_make(&m, s);
		assert_true(m.data.len < (size_t)s.blocks * s.block_size);
		struct tfk_report r;
		mdir_check(&m, &r);
		expect_clean_but_quirk(&r, m.events, 0);
		tfk_report_free(&r);
		rdir_decoded(&m);
		mdir_free(&m);
	}
}

/* The tracer's format grammar, field by field. */
static void test_real_format_grammar(void **state)
{
	(void)state;
	static const struct {
		const char *fmt;
		int n;
		uint8_t f[4];
	} cases[] = {
		{ "ip #p%ld syscall_id #2u%u", 2, { L0F_PTR, 2 << 4, 0, 0 } },
		{ "address #p%lu write_access #1u%u", 2, { L0F_PTR, 1 << 4, 0, 0 } },
		{ "irqstate #1%d", 0, { 0 } },                              /* '#1' is no type: nothing */
		{ "label %s address #n4u%u", 2, { L0F_STRING, 4 << 4, 0, 0 } },
		{ "fd %u offset %lld origin %u", 3, { L0F_INT, 8 << 4, L0F_INT, 0 } },
		{ "c %c h %hu hh %hhu z %zu", 4, { 1 << 4, 2 << 4, 1 << 4, L0F_SIZE_T } },
		{ "a ## b %% c %lX", 1, { L0F_LONG, 0, 0, 0 } },
		{ " ", 0, { 0 } },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t f[L0_MAX_FIELDS], n = 0xFF;
		assert_int_equal(l0_format_parse(cases[i].fmt, strlen(cases[i].fmt), f, &n), -1);
		assert_int_equal(n, cases[i].n);
		for (int k = 0; k < cases[i].n; k++)
			assert_int_equal(f[k], cases[i].f[k]);
	}
	uint8_t f[L0_MAX_FIELDS], n;
	assert_int_equal(l0_format_parse("x %f", 4, f, &n), 2); /* floating point: no size */
}

/*
 * The writer quirk of the real 2.5 kernels' pm markers ("irqstate #1%d", fixture from the real
 * metadata): a note at the '#' of the format, the trace's version as found, and the events of
 * the marker walked as the tracer wrote them (no field).
 */
static void test_real_quirk_typeless(void **state)
{
	(void)state;
	struct l0fx_spec s = l0fx_default(2);
	s.minor = 5;
	s.arch_size = 4;
	s.markers = l0fx_real_markers;
	struct mdir m;
	rdir_make(&m, s);
	struct tfk_report r;
	mdir_check(&m, &r);
	const struct tfk_finding *f = finding_of(&r, "lttng0.writer.typeless-trace-type", m.meta_name);
	assert_int_equal(f->offset, find_str(&m.meta, "irqstate #1%d") + 9);
	assert_int_equal(f->severity, TFK_SEV_NOTE);
	assert_string_equal(f->found, "2.5");
	assert_string_equal(f->path, "marker kernel.idle_entry format");
	assert_int_equal(r.count, 1);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	assert_int_equal(r.stats.events, m.events);
	tfk_report_free(&r);
	assert_int_equal(l0_format_typeless("irqstate #1%d", 13), 9);
	assert_int_equal(l0_format_typeless("ip #p%ld syscall_id #2u%u a ## b", 32), -1);
	mdir_free(&m);
}

/*
 * Beside metadata_0, a channel tracefile whose first block was zeroed is still a tracefile: the
 * lost magic is reported there, not taken for a file of no concern.
 */
static void test_real_zeroed_first_block(void **state)
{
	(void)state;
	struct l0fx_spec s = l0fx_default(2);
	s.minor = 5;
	struct mdir m;
	rdir_make(&m, s);
	memset(m.data.buf, 0, m.data.L.block_off[1]);
	struct tfk_report r;
	mdir_check(&m, &r);
	assert_int_equal(finding_of(&r, "lttng0.header.bad-magic", m.data_name)->offset, 16);
	assert_int_equal(r.stats.events, m.events - m.data.L.events[0]);
	tfk_report_free(&r);
	mdir_free(&m);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--corpus") == 0)
		return write_corpus(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--dir-corpus") == 0)
		return write_dir_corpus(argv[2]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pristine_2008),
		cmocka_unit_test(test_pristine_ltf2),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_bad_size),
		cmocka_unit_test(test_inconsistent_and_odd),
		cmocka_unit_test(test_quota),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_bad_fill),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_dir_2008),
		cmocka_unit_test(test_dir_ltf2),
		cmocka_unit_test(test_compact_time),
		cmocka_unit_test(test_compact_tracefile_time),
		cmocka_unit_test(test_metadata_sizes),
		cmocka_unit_test(test_metadata_faults),
		cmocka_unit_test(test_repair_dir),
		cmocka_unit_test(test_repair_cut),
		cmocka_unit_test(test_repair_cut_huge_block),
		cmocka_unit_test(test_repair_dir_metadata_lost),
		cmocka_unit_test(test_repair_damaged),
		cmocka_unit_test(test_repair_salvage_text),
		cmocka_unit_test(test_real_versions),
		cmocka_unit_test(test_real_unknown_minor),
		cmocka_unit_test(test_real_lost_size),
		cmocka_unit_test(test_real_lost_size_repair),
		cmocka_unit_test(test_real_trimmed),
		cmocka_unit_test(test_real_format_grammar),
		cmocka_unit_test(test_real_zeroed_first_block),
		cmocka_unit_test(test_real_quirk_typeless),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
