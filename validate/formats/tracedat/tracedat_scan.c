/* SPDX-License-Identifier: MIT */
/*
 * The page scan of a buffer whose CPU table lost some CPUs (spec 6.3): pages of the data
 * area that are valid on their own and that no usable range covers are runs of lost CPUs,
 * split where the page timestamps start over. Each run is reported and walked as one CPU,
 * so repair can keep it.
 *
 * On one thread each page is classified and, when it belongs to a run, walked right away
 * while it is in cache. With limits.threads > 1 the classification is split between threads
 * (two bits a page), and the runs are then walked like table ranges, ahead on worker threads.
 * Both find the same runs and report the same findings in the same order.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_hooks.h"
#include "../../workers.h"
#include "tracedat.h"


/* Is off inside one of the used ranges (sorted by start, disjoint: see sort_used)? */
static bool in_used(const struct td_used_range *used, uint32_t n, uint64_t off)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) { /* the first range that starts after off */
		uint32_t mid = lo + (hi - lo) / 2;
		if (used[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && off < used[lo - 1].end;
}

static int by_start(const void *a, const void *b)
{
	const struct td_used_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort the ranges and merge those that overlap or touch, in place; returns how many remain. */
static uint32_t sort_used(struct td_used_range *used, uint32_t n)
{
	if (n < 2)
		return n;
	qsort(used, n, sizeof(*used), by_start);
	uint32_t k = 0;
	for (uint32_t i = 1; i < n; i++) {
		if (used[i].start <= used[k].end) {
			if (used[i].end > used[k].end)
				used[k].end = used[i].end;
		} else {
			used[++k] = used[i];
		}
	}
	return k + 1;
}

static void report_found(struct td_check *td, uint32_t pages_found, uint32_t runs, uint64_t first_found,
			 const char *buffer)
{
	if (!pages_found)
		return;
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_RECOVERABLE_PAGES, first_found, 0);
	tfk_set_path(f, "%sflyrecord data", buffer);
	tfk_set_expected(f, "every valid page inside a usable CPU range");
	tfk_set_found(f, "%u valid pages outside them, in %u runs (walked as cpu ids of the broken entries)",
		      pages_found, runs);
}

/* A run is a lost CPU's data now: a CPU walked, its bytes accounted for (not trailing data). */
static void claim(struct td_check *td, uint64_t start, uint64_t end, const char *buffer, uint32_t cpu)
{
	td->ctx->report->stats.cpus++;
	tfk_claims_add(td->ctx, &td->claims, start, end, true, "%scpu%u data (found by the page scan)", buffer, cpu);
}

static uint32_t run_cpu(uint32_t run, const uint32_t *lost_ids, uint32_t nlost, uint32_t ncpu)
{
	return run < nlost ? lost_ids[run] : ncpu + (run - nlost);
}

/* One thread: classify each page and walk it at once when it extends a run. */
static uint32_t scan_here(struct td_check *td, uint64_t p, uint64_t to, const struct td_used_range *used,
			  uint32_t nused, const uint32_t *lost_ids, uint32_t nlost, uint32_t ncpu, const char *buffer)
{
	const uint32_t ps = td->geo.page_size;
	uint32_t run = 0, pages_found = 0;
	uint64_t run_start = 0, run_end = 0, last_ts = 0, first_found = 0;
	bool in_run = false;
	struct td_cpu_walk walk;
	for (;; p += ps) {
		bool valid = false;
		uint64_t ts = 0;
		struct tfk_cursor page;
		bool more = p < to && to - p >= ps;
		if (more && !in_used(used, nused, p) && tfk_cur_sub(&td->file, p, ps, &page) == TFK_SUB_OK)
			valid = td_page_valid(td, &page, &ts);
		bool breaks = in_run && (!valid || ts < last_ts);
		if (breaks) {
			walk.item_length = run_end - run_start;
			td_cpu_walk_end(&walk);
			claim(td, run_start, run_end, buffer, walk.cpu);
			run++;
			in_run = false;
		}
		if (!more || run >= td->ctx->limits->max_cpus)
			break;
		if (valid) {
			if (!in_run) {
				in_run = true;
				run_start = p;
				td_cpu_walk_begin(&walk, td, buffer, run_cpu(run, lost_ids, nlost, ncpu));
				walk.item_offset = p;
			}
			td_cpu_walk_pages(&walk, &page);
			if (!pages_found++)
				first_found = p;
			run_end = p + ps;
			last_ts = ts;
		}
	}
	report_found(td, pages_found, run, first_found, buffer);
	return pages_found;
}

/* The classification of pages [from, to) of the area, by one thread. */
struct slice {
	struct td_check *td;
	uint64_t first;                 /* file offset of page 0 of the area */
	const struct td_used_range *used;
	uint32_t nused;
	uint64_t *valid, *drop;         /* bit i: page i is valid; its timestamp drops below page i-1's */
	uint64_t from, to;
	bool first_valid, last_valid;   /* its first and last page, for the slice boundaries */
	uint64_t first_ts, last_ts;
};

/*
 * The pages [i, i + n) of the area read into buf when the file can be read by descriptor
 * (cheaper than faulting small page cache folios into the mapping); false: use the mapping.
 */
static bool read_pages(const struct slice *s, uint8_t *buf, uint64_t i, uint64_t n)
{
	const struct td_check *td = s->td;
	const uint32_t ps = td->geo.page_size;
	const uint8_t *p;
	return buf && tfk_cur_bytes_at(&td->file, s->first + i * ps, n * ps, &p) && tfk_read_mapped(td->ctx, p, n * ps, buf);
}

static void classify(struct slice *s)
{
	struct td_check *td = s->td;
	const uint32_t ps = td->geo.page_size;
	const uint64_t per_read = TD_READ_WINDOW / ps ? TD_READ_WINDOW / ps : 1;
	uint8_t *buf = ps <= TD_READ_WINDOW ? tfk_calloc_optional(td->ctx, per_read, ps) : NULL;
	struct td_behind behind = { NULL, 0 }; /* classified bytes of the mapping */
	uint64_t prev_ts = 0, read_from = 0, read_to = 0;
	bool prev_valid = false;
	for (uint64_t i = s->from; i < s->to; i++) {
		uint64_t p = s->first + i * ps, ts = 0;
		struct tfk_cursor page;
		bool valid = false;
		if (i >= read_to) {
			uint64_t n = s->to - i < per_read ? s->to - i : per_read;
			read_from = i;
			read_to = read_pages(s, buf, i, n) ? i + n : i;
		}
		if (in_used(s->used, s->nused, p)) {
			/* a table's range: not a lost page */
		} else if (i < read_to) {
			page = tfk_cur_make(buf + (i - read_from) * ps, ps, p, td->file.big_endian);
			valid = td_page_valid(td, &page, &ts);
		} else if (tfk_cur_sub(&td->file, p, ps, &page) == TFK_SUB_OK) {
			valid = td_page_valid(td, &page, &ts);
			const uint8_t *bytes;
			if (tfk_cur_bytes_at(&page, 0, ps, &bytes))
				td_behind(td->ctx, &behind, bytes, ps);
		}
		if (valid)
			s->valid[i / 64] |= 1ull << (i % 64);
		if (valid && prev_valid && i > s->from && ts < prev_ts)
			s->drop[i / 64] |= 1ull << (i % 64);
		if (i == s->from) {
			s->first_valid = valid;
			s->first_ts = ts;
		}
		prev_valid = valid;
		prev_ts = ts;
	}
	td_behind(td->ctx, &behind, NULL, 0);
	free(buf);
	s->last_valid = prev_valid;
	s->last_ts = prev_ts;
}

static void *classify_thread(void *arg)
{
	classify(arg);
	return NULL;
}

static bool bit(const uint64_t *v, uint64_t i)
{
	return (v[i / 64] >> (i % 64)) & 1;
}

/*
 * Several threads: classify every page first (the slices in parallel), then walk the runs
 * as ranges taken ahead by td_prewalk. False when memory for it is short: scan on one thread.
 */
static bool scan_threaded(struct td_check *td, uint64_t first, uint64_t npages, const struct td_used_range *used,
			  uint32_t nused, const uint32_t *lost_ids, uint32_t nlost, uint32_t ncpu, const char *buffer,
			  uint32_t *found)
{
	const uint32_t ps = td->geo.page_size, max_runs = td->ctx->limits->max_cpus;
	unsigned nslices = td->ctx->limits->threads < 64 ? td->ctx->limits->threads : 64;
	uint64_t words = npages / 64 + 1;
	const struct tfk_ctx *ctx = td->ctx;
	uint64_t *valid = tfk_calloc_optional(ctx, words, sizeof(*valid));
	uint64_t *drop = tfk_calloc_optional(ctx, words, sizeof(*drop));
	struct slice *slices = tfk_calloc_optional(ctx, nslices, sizeof(*slices));
	bool ok = valid && drop && slices;
	/* Slices of whole 64-page words, so that no two threads write one word. */
	uint64_t per = ok ? (npages / nslices + 63) / 64 * 64 : 0;
	for (unsigned k = 0; ok && k < nslices; k++) {
		struct slice *s = &slices[k];
		s->td = td;
		s->first = first;
		s->used = used;
		s->nused = nused;
		s->valid = valid;
		s->drop = drop;
		s->from = per * k < npages ? per * k : npages;
		s->to = k + 1 == nslices || per * (k + 1) > npages ? npages : per * (k + 1);
	}
	/* slices 1.. on workers, slice 0 here, then here in turn every slice whose worker did not start */
	struct tfk_workers workers = { NULL, 0 };
	if (ok && nslices > 1)
		tfk_workers_start(&workers, ctx, nslices - 1, classify_thread, &slices[1], sizeof(*slices));
	if (ok)
		classify(&slices[0]);
	for (unsigned k = 1 + workers.n; ok && k < nslices; k++)
		classify(&slices[k]);
	tfk_workers_join(&workers);
	struct td_walk_range *runs = NULL;
	uint32_t nruns = 0, pages_found = 0;
	if (ok) {
		/* The slices' boundaries: does a timestamp drop between one slice's last page and the next's first? */
		for (unsigned k = 1; k < nslices; k++) {
			const struct slice *a = &slices[k - 1], *b = &slices[k];
			if (b->from < b->to && a->from < a->to && b->first_valid && a->last_valid && b->first_ts < a->last_ts)
				drop[b->from / 64] |= 1ull << (b->from % 64);
		}
		uint64_t cap = npages < max_runs ? npages : max_runs;
		runs = tfk_calloc_optional(ctx, cap ? cap : 1, sizeof(*runs));
		ok = runs != NULL;
	}
	/* Runs, as the one-thread scan makes them: a run ends at an invalid page or a drop. */
	bool in_run = false;
	uint64_t start = 0;
	for (uint64_t i = 0; ok && i <= npages; i++) {
		bool v = i < npages && bit(valid, i);
		if (in_run && (!v || bit(drop, i))) {
			struct td_walk_range *r = &runs[nruns];
			memset(r, 0, sizeof(*r));
			tfk_cur_sub(&td->file, first + start * ps, (i - start) * ps, &r->data);
			r->buffer = buffer;
			r->cpu = run_cpu(nruns, lost_ids, nlost, ncpu);
			r->item_offset = first + start * ps;
			r->item_length = (i - start) * ps;
			pages_found += (uint32_t)(i - start);
			nruns++;
			in_run = false;
		}
		if (nruns >= max_runs)
			break;
		if (v && !in_run) {
			in_run = true;
			start = i;
		}
	}
	free(valid);
	free(drop);
	free(slices);
	if (!ok) {
		free(runs);
		return false;
	}
	td_prewalk_start(td, runs, nruns);
	for (uint32_t k = 0; k < nruns; k++) {
		td_walk_range(td, &runs[k]);
		claim(td, runs[k].item_offset, runs[k].item_offset + runs[k].item_length, buffer, runs[k].cpu);
	}
	td_prewalk_finish(td);
	report_found(td, pages_found, nruns, nruns ? runs[0].item_offset : 0, buffer);
	free(runs);
	*found = pages_found;
	return true;
}

uint32_t td_scan_lost_pages(struct td_check *td, uint64_t from, uint64_t to, struct td_used_range *used,
			    uint32_t nused, const uint32_t *lost_ids, uint32_t nlost, uint32_t ncpu, const char *buffer)
{
	const uint32_t ps = td->geo.page_size;
	nused = sort_used(used, nused);
	uint64_t p;
	if (!tfk_align_up(from, ps, &p))
		return 0;
	uint64_t npages = p < to ? (to - p) / ps : 0;
	uint32_t found;
	if (td->ctx->limits->threads > 1 && npages > 1 && !TFK_HOOK(td->ctx->limits, fail_alloc_after) &&
	    scan_threaded(td, p, npages, used, nused, lost_ids, nlost, ncpu, buffer, &found))
		return found;
	return scan_here(td, p, to, used, nused, lost_ids, nlost, ncpu, buffer);
}
