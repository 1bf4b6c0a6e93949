/* SPDX-License-Identifier: MIT */
/*
 * Real LTTng 0.x traces (../shared/foreign/lttng0: the Eclipse Linux Tools test traces, LTF 2.3,
 * 2.5 and 2.6, recorded 2009-2011 on 32-bit x86): each checks clean with its exact event count
 * and no finding but a writer quirk's note; the tests' own decoder (lttng0_decode.c, written apart from the
 * checker) walks as many events per tracefile as the map (describe) shows; the 2.5 trace agrees
 * with the text dump the Eclipse reader printed of it (trace-15316events_nolost_newformat.txt:
 * 15,316 events, the first and the last with their times and fields). Damaged copies (cut,
 * zeroed block, bad magic, bad marker_id type size) are reported with their codes and repaired
 * so that the output checks clean and decodes as the original less the damaged block's events.
 * Skipped (77) when the folder is absent.
 */
#include <dirent.h>
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
#include "raised.h"
#include "tracefsck/check.h"
#include "tracefsck/observer.h"
#include "tracefsck/repair.h"

#ifndef TFK_FOREIGN_LTTNG0
#define TFK_FOREIGN_LTTNG0 "../shared/foreign/lttng0"
#endif

struct real {
	const char *name;
	uint64_t events;   /* what the Eclipse reader counted (the 2.3 and 2.5 names say it) */
	uint32_t cpus;
};

static const struct real reals[] = {
	{ "linuxtools-trace-1021events-nolost-1cpu", 1021, 1 },          /* LTF 2.3 */
	{ "linuxtools-trace-15316events_nolost_newformat", 15316, 1 }, /* LTF 2.5, 22 channels */
	{ "linuxtools-trace-2.6", 219558, 2 },                           /* LTF 2.6, 2 CPUs x 18 channels */
};
#define NREALS (sizeof(reals) / sizeof(reals[0]))

/* ---- files ------------------------------------------------------------------------------- */

#define MAX_FILES 64

struct tf {
	char name[64];
	uint8_t *buf;
	size_t len;
	struct l0dec_event *ev;
	long n;
};

struct trace {
	struct tf f[MAX_FILES];
	size_t n;
	struct l0dec_meta *meta;
};

static uint8_t *read_file(const char *path, size_t *len)
{
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

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct tf *)a)->name, ((const struct tf *)b)->name);
}

static bool is_meta(const char *name)
{
	return strncmp(name, "metadata_", 9) == 0;
}

/* The channel of a tracefile: its name less the _N suffix. */
static void channel_of(const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s", name);
	char *us = strrchr(out, '_');
	if (us)
		*us = 0;
}

/* Read every tracefile of dir and decode it: the metadata ones first, for the markers. */
static void load(struct trace *t, const char *dir)
{
	memset(t, 0, sizeof(*t));
	t->meta = calloc(1, sizeof(*t->meta));
	assert_non_null(t->meta);
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		assert_true(t->n < MAX_FILES);
		struct tf *f = &t->f[t->n++];
		snprintf(f->name, sizeof f->name, "%s", e->d_name);
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		f->buf = read_file(path, &f->len);
	}
	closedir(d);
	qsort(t->f, t->n, sizeof(t->f[0]), by_name);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t->n; i++) {
			struct tf *f = &t->f[i];
			if (is_meta(f->name) != (pass == 0))
				continue;
			char channel[64];
			channel_of(f->name, channel, sizeof channel);
			const size_t max = f->len / 4 + 1;
			f->ev = calloc(max, sizeof(*f->ev));
			assert_non_null(f->ev);
			f->n = l0dec_decode_meta(f->buf, f->len, 2, false, t->meta, pass == 0, channel, f->ev, max);
			if (f->n < 0)
				fail_msg("the decoder could not walk %s/%s", dir, f->name);
		}
}

static void unload(struct trace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->f[i].buf);
		free(t->f[i].ev);
	}
	free(t->meta);
}

static struct tf *file_of(struct trace *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->f[i].name, name) == 0)
			return &t->f[i];
	fail_msg("no tracefile %s", name);
	return NULL;
}

static uint64_t total(const struct trace *t)
{
	uint64_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		n += (uint64_t)t->f[i].n;
	return n;
}

static void path_of(char *out, size_t cap, const char *name)
{
	snprintf(out, cap, "%s/%s", TFK_FOREIGN_LTTNG0, name);
}

/* ---- the map: events walked per tracefile ------------------------------------------------ */

struct walked {
	char name[64];
	uint64_t events;
};

struct map {
	struct walked w[MAX_FILES];
	size_t n;
};

static void on_item(void *user, const struct tfk_item *it)
{
	struct map *m = user;
	const char *p = strstr(it->detail, " events");
	if (m->n == MAX_FILES || !p)
		return;
	while (p > it->detail && p[-1] >= '0' && p[-1] <= '9')
		p--;
	snprintf(m->w[m->n].name, sizeof m->w[m->n].name, "%s", it->name);
	m->w[m->n++].events = strtoull(p, NULL, 10);
}

static void dump(const struct tfk_report *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		print_message("  %s [%s] @%llu %s: expected %s, found %s\n", f->fault->id, f->member,
			      (unsigned long long)f->offset, f->path, f->expected, f->found);
	}
}

static void test_real_clean(void **state)
{
	(void)state;
	for (size_t k = 0; k < NREALS; k++) {
		char dir[512];
		path_of(dir, sizeof dir, reals[k].name);
		struct map m = { 0 };
		struct tfk_observer obs = { .user = &m, .item = on_item };
		struct tfk_report r;
		tfk_check_file_observed(dir, NULL, &obs, &r);
		raised_note(&r);
		/*
		 * No finding but the writer quirk of the 2.5 trace's pm markers ("irqstate #1%d": the
		 * tracer recorded no field), a note at each of the four formats.
		 */
		const size_t quirks = k == 1 ? 4 : 0;
		size_t seen = 0;
		for (size_t i = 0; i < r.count; i++)
			seen += strcmp(r.findings[i].fault->id, "lttng0.writer.typeless-trace-type") == 0;
		if (r.count != quirks || seen != quirks)
			dump(&r);
		assert_int_equal(r.count, quirks);
		assert_int_equal(seen, quirks);
		if (quirks) {
			static const uint64_t at[4] = { 0x16e7, 0x189e, 0x1fc6, 0x2bb3 };
			for (size_t i = 0; i < 4; i++) {
				assert_int_equal(r.findings[i].severity, TFK_SEV_NOTE);
				assert_string_equal(r.findings[i].member, "metadata_0");
				assert_int_equal(r.findings[i].offset, at[i]);
				assert_string_equal(r.findings[i].found, "2.5");
			}
			assert_string_equal(r.findings[1].path, "marker pm.idle_entry format");
		}
		assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
		assert_int_equal(r.stats.events, reals[k].events);
		assert_int_equal(r.stats.cpus, reals[k].cpus);
		assert_int_equal(r.stats.events_lost, 0);
		tfk_report_free(&r);

		/* The decoder, apart from the checker, walks as many events in every tracefile. */
		struct trace t;
		load(&t, dir);
		assert_int_equal(total(&t), reals[k].events);
		assert_int_equal(m.n, t.n);
		for (size_t i = 0; i < m.n; i++)
			assert_int_equal(m.w[i].events, (uint64_t)file_of(&t, m.w[i].name)->n);
		unload(&t);
	}
}

/* ---- the 2.5 trace against the Eclipse reader's text dump ------------------------------- */

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* LTTV's time of a cycle count: tsc * 1e9 * freq_scale / start_freq, in nanoseconds. */
static uint64_t ns_of(const uint8_t *hdr, uint64_t tsc)
{
	const uint64_t freq = le(hdr + 40, 8), scale = le(hdr + 48, 4);
	return (uint64_t)((double)tsc * 1e9 * (double)scale / (double)freq);
}

static const struct l0dec_marker *marker(const struct l0dec_meta *meta, const char *channel, uint16_t id)
{
	for (size_t i = 0; i < meta->n; i++)
		if (meta->m[i].has_id && meta->m[i].id == id && strcmp(meta->m[i].channel, channel) == 0)
			return &meta->m[i];
	return NULL;
}

static void test_real_text_dump(void **state)
{
	(void)state;
	char dir[512];
	path_of(dir, sizeof dir, reals[1].name);
	struct trace t;
	load(&t, dir);
	/* "Trace set contains 1 traces" ... 15,316 event lines. */
	assert_int_equal(total(&t), 15316);
	const struct tf *first = NULL, *last = NULL;
	const struct l0dec_event *e0 = NULL, *e1 = NULL;
	for (size_t i = 0; i < t.n; i++)
		for (long j = 0; j < t.f[i].n; j++) {
			const struct l0dec_event *e = &t.f[i].ev[j];
			if (!e0 || e->full < e0->full)
				first = &t.f[i], e0 = e;
			if (!e1 || e->full > e1->full)
				last = &t.f[i], e1 = e;
		}
	const uint8_t *hdr = file_of(&t, "metadata_0")->buf;
	/*
	 * metadata.core_marker_id: 13589.759412127 (.../metadata_0) { channel = "vm_state",
	 * name = "vm_map", event_id = 0, int = 4, long = 4, pointer = 4, size_t = 4, alignment = 0 }
	 */
	assert_string_equal(first->name, "metadata_0");
	assert_int_equal(e0->id, 0);
	assert_memory_equal(e0->payload, "vm_state\0vm_map\0\0\0\4\4\4\4\0", 23);
	const uint64_t t0 = ns_of(hdr, e0->full);
	assert_true(t0 + 1 >= 13589759412127ull && t0 <= 13589759412128ull);
	/*
	 * The last line: kernel.syscall_entry: 13589.906758691 (.../kernel_0), ... SYSCALL
	 * { ip = 0xb784c416, syscall_id = 4 [sys_write+0x0/0x9d] }
	 */
	assert_string_equal(last->name, "kernel_0");
	const struct l0dec_marker *m = marker(t.meta, "kernel", e1->id);
	assert_non_null(m);
	assert_string_equal(m->name, "syscall_entry");
	assert_string_equal(m->format, "ip #p%ld syscall_id #2u%u");
	assert_int_equal(e1->size, 6);
	assert_int_equal(le(e1->payload, 4), 0xb784c416u);
	assert_int_equal(le(e1->payload + 4, 2), 4);
	const uint64_t t1 = ns_of(hdr, e1->full);
	assert_true(t1 + 1 >= 13589906758691ull && t1 <= 13589906758692ull);
	unload(&t);
}

/* ---- damaged copies and their repair ----------------------------------------------------- */

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void put_file(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static const struct tfk_finding *finding(const struct tfk_report *r, const char *code, const char *member)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->findings[i].fault->id, code) == 0 && strcmp(r->findings[i].member, member) == 0)
			return &r->findings[i];
	dump(r);
	fail_msg("no %s in %s", code, member);
	return NULL;
}

/* Offsets of the blocks of an LTF 2.x tracefile (sb_size / buf_size at 56). */
static size_t blocks_of(const struct tf *f, size_t *off, size_t max)
{
	size_t n = 0;
	for (size_t at = 0; at + 68 <= f->len && n < max;) {
		off[n++] = at;
		const size_t size = (size_t)le(f->buf + at + 56, 4);
		assert_true(size >= 68);
		at += size;
	}
	return n;
}

enum damage { CUT, ZERO, MAGIC, MARKER, NDAMAGE };
static const char *const damage_names[NDAMAGE] = { "cut", "zeroed block", "bad magic", "bad marker_id type size" };

/* The data tracefile with the most blocks (ties: the largest), where a block is damaged. */
static struct tf *target(struct trace *t)
{
	struct tf *best = NULL;
	size_t best_blocks = 0, off[256];
	for (size_t i = 0; i < t->n; i++) {
		struct tf *f = &t->f[i];
		if (is_meta(f->name) || !f->n)
			continue;
		size_t nb = blocks_of(f, off, 256);
		if (!best || nb > best_blocks || (nb == best_blocks && f->len > best->len))
			best = f, best_blocks = nb;
	}
	assert_non_null(best);
	return best;
}

/* The int size byte of the first kernel marker's marker_id (packed: after its id), or SIZE_MAX. */
static size_t int_size_at(const struct tf *meta)
{
	for (size_t i = 0; i + 7 < meta->len; i++) {
		if (memcmp(meta->buf + i, "kernel", 7) != 0)
			continue;
		size_t j = i + 7;
		while (j < meta->len && meta->buf[j])
			j++;
		j += 1 + 2; /* the name's NUL, the u16 id */
		if (j + 5 <= meta->len && !memcmp(meta->buf + j, "\4\4\4\4", 4))
			return j;
	}
	return SIZE_MAX;
}

/* The metadata tracefile that defines a kernel marker (each CPU's defines some). */
static struct tf *marker_file(struct trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (is_meta(t->f[i].name) && int_size_at(&t->f[i]) != SIZE_MAX)
			return &t->f[i];
	fail_msg("no kernel marker_id in any metadata tracefile");
	return NULL;
}

/* The events the output's tracefile must hold: the original's, less [lo, hi) of the file. */
static void expect_kept(const struct tf *orig, const struct tf *out, size_t lo, size_t hi)
{
	long k = 0;
	for (long i = 0; i < orig->n; i++) {
		const struct l0dec_event *e = &orig->ev[i];
		const size_t start = (size_t)(e->payload - orig->buf);
		if (e->end > lo && start < hi)
			continue; /* in the damaged range */
		assert_true(k < out->n);
		const struct l0dec_event *o = &out->ev[k++];
		assert_int_equal(o->id, e->id);
		assert_int_equal(o->full, e->full);
		assert_int_equal(o->size, e->size);
		assert_memory_equal(o->payload, e->payload, e->size);
	}
	assert_int_equal(out->n, k);
}

static void one_damage(const struct real *rl, enum damage dmg)
{
	char src[512], work[512], in[600], out[600];
	path_of(src, sizeof src, rl->name);
	const char *tmp = getenv("TMPDIR");
	snprintf(work, sizeof work, "%s/tfk-lttng0-real-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(work));
	snprintf(in, sizeof in, "%s/in", work);
	snprintf(out, sizeof out, "%s/out", work);
	sh("cp -r '%s' '%s' && chmod -R u+w '%s'", src, in, in);

	struct trace orig;
	load(&orig, src);
	struct tf *f = dmg == MARKER ? marker_file(&orig) : target(&orig);
	size_t off[256];
	const size_t nb = blocks_of(f, off, 256);
	const size_t last = off[nb - 1];
	uint8_t *p = malloc(f->len);
	assert_non_null(p);
	memcpy(p, f->buf, f->len);
	size_t len = f->len, lo = 0, hi = 0, at = 0;
	const char *code = NULL;
	switch (dmg) {
	case CUT: {
		/* Mid-way through the last block's events. */
		const size_t size = (size_t)le(f->buf + last + 56, 4), fill = (size_t)le(f->buf + last + 52, 4);
		const size_t data_end = f->buf[last + 21] < 5 ? last + size - fill : last + fill;
		len = last + 68 + (data_end - last - 68) / 2;
		lo = len, hi = SIZE_MAX;
		code = "lttng0.block.cut", at = last;
		break;
	}
	case ZERO:
		memset(p + last, 0, f->len - last);
		lo = last, hi = f->len;
		code = "lttng0.header.bad-magic", at = last + 16;
		break;
	case MAGIC:
		p[last + 16] ^= 0x55;
		lo = last, hi = f->len;
		code = "lttng0.header.bad-magic", at = last + 16;
		break;
	default:
		at = int_size_at(f);
		p[at] = 3;
		code = "lttng0.metadata.bad-type-size";
		break;
	}
	put_file(in, f->name, p, len);
	free(p);

	struct tfk_report r;
	tfk_check_file(in, NULL, &r);
	raised_note(&r);
	assert_int_equal(finding(&r, code, f->name)->offset, at);
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 1); /* the damage, and nothing it does not explain */
	assert_int_equal(r.by_severity[TFK_SEV_WARNING], 0);
	const size_t notes = r.by_severity[TFK_SEV_NOTE]; /* the writer quirk, if the trace has it */
	tfk_report_free(&r);

	struct tfk_repair_report rep;
	tfk_repair_dir(in, out, NULL, &rep);
	if ((dmg == ZERO || dmg == MAGIC) && nb == 1) {
		/* The tracefile's only block is gone: no data of it to keep, so nothing is written. */
		print_message("%s, %s in %s's only block: refused (%s)\n", rl->name, damage_names[dmg], f->name,
			      rep.reason ? rep.reason : "");
		assert_int_equal(rep.outcome, TFK_REPAIR_UNSUPPORTED);
		assert_non_null(rep.reason);
		struct stat sb;
		assert_int_not_equal(stat(out, &sb), 0);
		tfk_repair_report_free(&rep);
		unload(&orig);
		sh("rm -rf '%s'", work);
		return;
	}
	if (rep.outcome != TFK_REPAIR_DONE) {
		dump(&rep.after);
		fail_msg("%s, %s: outcome %d (%s)", rl->name, damage_names[dmg], rep.outcome, rep.reason ? rep.reason : "");
	}
	tfk_repair_report_free(&rep);

	/* The output checks clean, and decodes as the original less the damaged range. */
	tfk_check_file(out, NULL, &r);
	raised_note(&r);
	if (r.count != notes)
		dump(&r);
	assert_int_equal(r.count, notes);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	struct trace rep_t;
	load(&rep_t, out);
	assert_int_equal(rep_t.n, orig.n);
	uint64_t lost = 0;
	for (size_t i = 0; i < orig.n; i++) {
		const struct tf *o = &orig.f[i], *w = file_of(&rep_t, o->name);
		if (o == f) {
			expect_kept(o, w, lo, hi);
			lost = (uint64_t)(o->n - w->n);
		} else {
			assert_int_equal(w->len, o->len);
			assert_memory_equal(w->buf, o->buf, o->len); /* untouched members byte for byte */
		}
	}
	if (dmg == MARKER) /* the byte written back: the very file the tracer wrote */
		assert_memory_equal(file_of(&rep_t, f->name)->buf, f->buf, f->len);
	assert_int_equal(r.stats.events, rl->events - lost);
	print_message("%s, %s in %s: %llu events kept, %llu lost\n", rl->name, damage_names[dmg], f->name,
		      (unsigned long long)(rl->events - lost), (unsigned long long)lost);
	tfk_report_free(&r);
	unload(&rep_t);

	/* Two-run rule: the repaired copy needs nothing more. */
	tfk_repair_dir(out, NULL, NULL, &rep);
	assert_int_equal(rep.outcome, TFK_REPAIR_NOTHING_TO_DO);
	tfk_repair_report_free(&rep);
	unload(&orig);
	sh("rm -rf '%s'", work);
}

static void test_real_damaged(void **state)
{
	(void)state;
	for (size_t k = 0; k < NREALS; k++)
		for (int d = 0; d < NDAMAGE; d++)
			one_damage(&reals[k], (enum damage)d);
}

int main(void)
{
	struct stat sb;
	if (stat(TFK_FOREIGN_LTTNG0 "/linuxtools-trace-2.6", &sb) != 0) {
		printf("no real LTTng 0.x traces at %s: skipped\n", TFK_FOREIGN_LTTNG0);
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_clean),
		cmocka_unit_test(test_real_text_dump),
		cmocka_unit_test(test_real_damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
