/* SPDX-License-Identifier: MIT */
/*
 * Ring-buffer pages: the commit word, every event header, timestamps per CPU.
 * This is the hot loop of a check; it reads only through the page's cursor, whose committed
 * bytes it borrows once a page and indexes only where it has proven the read inside them.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "ftrace_observe.h"

#define COMMIT_LEN_MASK 0x7ffffffull /* bits 0-26 */
#define COMMIT_STRAY (7ull << 27)    /* bits 27-29: never set by the kernel */
#define COMMIT_MISSED_STORED (1ull << 30)
#define COMMIT_MISSED (1ull << 31)
#define TS_LOW59 ((1ull << 59) - 1)

enum { TL_DATA_MAX = 28, TL_PADDING = 29, TL_TIME_EXTEND = 30, TL_TIME_STAMP = 31 };

/* Findings of one code on one CPU are listed up to max_per_place, then only counted. */
static struct tfk_finding *page_fault(struct td_cpu_walk *w, enum tfk_fault_code code, uint64_t off, uint64_t len)
{
	if (w->quiet) {
		w->last.state = TFK_PAGE_BAD; /* any fault disqualifies the page in a scan */
		return NULL;
	}
	if (w->cut)
		return NULL; /* the truncation is reported; where the bytes stop is no new fault */
	const struct tfk_pctx pc = { .tmpl = "%scpu%u page %u", .str = { w->buffer }, .num = { w->cpu, w->page },
				     .place = &w->place };
	return tfk_raise(w->td->ctx, &pc, code, off, len, NULL);
}

static bool all_zero(const struct tfk_cursor *page, uint64_t from, uint64_t *first_nonzero)
{
	const uint8_t *p;
	uint64_t n = page->len - from;
	if (!tfk_cur_bytes_at(page, from, n, &p))
		return true;
	uint64_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, p + i, 8);
		if (v)
			break;
	}
	for (; i < n; i++) {
		if (p[i]) {
			*first_nonzero = from + i;
			return false;
		}
	}
	return true;
}

/*
 * The common case of td_check_record, inlined into the walk: true when the record is certainly
 * sound (a known, valid format; long enough; dynamic fields inside; a plausible pid). Anything
 * else goes to td_check_record, which decides and reports. rec is len bytes the page's view
 * lent; every field read below is proven inside them first.
 */
static inline __attribute__((always_inline)) bool record_quick_ok(const struct td_check *td, const uint8_t *rec,
								  uint64_t len, bool swap)
{
	if (len < 2)
		return false;
	uint32_t idx = td->event_index[tfk_lent_u16(rec, swap)];
	if (!idx)
		return false;
	const struct td_event_fmt *e = &td->events[idx - 1];
	if (!e->valid)
		return true;
	if (len < e->need || e->tail_elem)
		return false; /* every field read below lies inside the record; a partly filled tail is counted apart */
	for (unsigned i = 0, n = e->ndyn; i < n; i++) {
		uint32_t off = e->dyn[i].offset, loc = tfk_lent_u32(rec + off, swap);
		uint64_t start = (loc & 0xffff) + (e->dyn[i].relative ? off + 4u : 0u), size = loc >> 16;
		if (start + size > len)
			return false;
		if (e->dyn[i].string && size && rec[start + size - 1] != 0)
			return false;
	}
	/* -1 (idle) wraps to 0; every other negative pid lands above the limit */
	return !e->has_pid || tfk_lent_u32(rec + e->pid_offset, swap) + 1u <= TD_PID_MAX_LIMIT + 1u;
}

/* What one page's events added up to. */
struct page_sum {
	uint64_t events, first_ts, last_ts, payload;
	uint64_t bad_record;  /* position of the first damaged record, or UINT64_MAX */
	uint64_t events_good; /* data events before that record */
};

/*
 * Walk the events of the committed area; returns the running timestamp after the last one.
 * Written once, instantiated for each byte order (be is a constant in each), with the page's
 * view and counters in locals so that the loop keeps them in registers.
 */
static inline __attribute__((always_inline)) uint64_t walk_events_bo(struct td_cpu_walk *w,
								     const struct tfk_cursor *area_in, uint64_t ts,
								     uint64_t *stopped, struct page_sum *sum, const bool be)
{
	/* const: calls that see its address cannot change it, so be stays a constant in the reads */
	const struct tfk_cursor area = { area_in->base, area_in->len, 0, area_in->origin, be };
	const bool swap = tfk_cur_swap(&area);
	const uint64_t len = area.len;
	const struct td_check *td = w->td;
	const bool records = td->event_index != NULL;
	uint64_t pos = 0, events = 0, first_ts = 0, last_ts = 0, payload = 0;
	struct tfk_finding *f;
	/* The committed bytes, lent once: each read below is proven inside them (pos < len, and
	 * the bytes left before it), instead of a bounds check per field. */
	const uint8_t *bytes = NULL;
	tfk_cur_bytes_at(&area, 0, len, &bytes); /* the whole view: only an empty one has no bytes */

	*stopped = 0;
	while (bytes && pos < len) {
		*stopped = pos;
		uint32_t word, a0 = 0;
		uint64_t at = area.origin + pos;
		if (len - pos < 4) {
			f = page_fault(w, TFK_TRACEDAT_PAGE_EVENT_OVERRUN, at, len - pos);
			tfk_set_expected(f, "an event header of 4 bytes");
			tfk_set_found(f, "%llu bytes left of the committed data", (unsigned long long)(len - pos));
			goto out;
		}
		word = tfk_lent_u32(bytes + pos, swap);
		unsigned type_len = be ? word >> 27 : word & 0x1f;
		uint32_t delta = be ? word & 0x7ffffff : word >> 5;
		uint64_t size, hdr = 4;
		bool data = false;

		if (type_len >= 1 && type_len <= TL_DATA_MAX) {
			size = 4 + 4ull * type_len;
			data = true;
			if (__builtin_expect(type_len <= 2, 0)) {
				f = page_fault(w, TFK_TRACEDAT_PAGE_ODD_EVENT_SIZE, at, size);
				tfk_set_expected(f, "type_len 0 or 3..28");
				tfk_set_found(f, "type_len %u", type_len);
			}
		} else {
			if (len - pos < 8) {
				f = page_fault(w, TFK_TRACEDAT_PAGE_EVENT_OVERRUN, at, len - pos);
				tfk_set_expected(f, "8 bytes for a type_len %u event header", type_len);
				tfk_set_found(f, "%llu bytes left of the committed data", (unsigned long long)(len - pos));
				goto out;
			}
			a0 = tfk_lent_u32(bytes + pos + 4, swap);
			switch (type_len) {
			case 0:
				if (a0 < 8 || a0 % 4) {
					f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_EVENT, at, 8);
					tfk_set_expected(f, "a length word of at least 8, a multiple of 4");
					tfk_set_found(f, "%u", a0);
					goto out;
				}
				size = 4ull + a0;
				hdr = 8;
				data = true;
				break;
			case TL_PADDING:
				if (delta == 0) {
					f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_EVENT, at, len - pos);
					tfk_set_expected(f, "null padding only after the committed data");
					tfk_set_found(f, "null padding at +0x%llx of 0x%llx committed bytes",
						      (unsigned long long)pos, (unsigned long long)len);
					goto out;
				}
				if (a0 < 4 || a0 % 4) {
					f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_EVENT, at, 8);
					tfk_set_expected(f, "a discarded-event length of at least 4, a multiple of 4");
					tfk_set_found(f, "%u", a0);
					goto out;
				}
				size = 4ull + a0;
				break;
			case TL_TIME_EXTEND:
				size = 8;
				ts += ((uint64_t)a0 << 27) + delta;
				break;
			default: { /* TL_TIME_STAMP: absolute low 59 bits */
				size = 8;
				uint64_t abs = (ts & ~TS_LOW59) | ((((uint64_t)a0 << 27) | delta) & TS_LOW59);
				if (abs < ts) {
					f = page_fault(w, TFK_TRACEDAT_PAGE_TIME_BACKWARDS, at, 8);
					tfk_set_expected(f, "an absolute timestamp >= %llu", (unsigned long long)ts);
					tfk_set_found(f, "%llu", (unsigned long long)abs);
				}
				ts = abs;
				break;
			}
			}
		}
		if (size > len - pos) {
			f = page_fault(w, TFK_TRACEDAT_PAGE_EVENT_OVERRUN, at, len - pos);
			tfk_set_expected(f, "an event within the %llu committed bytes", (unsigned long long)len);
			tfk_set_found(f, "type_len %u event of %llu bytes at +0x%llx", type_len, (unsigned long long)size,
				      (unsigned long long)pos);
			goto out;
		}
		if (data) {
			ts += delta;
			first_ts = events ? first_ts : ts;
			last_ts = ts;
			payload += size - hdr;
			events++;
			if (records && !record_quick_ok(td, bytes + pos + hdr, size - hdr, swap) &&
			    !td_check_record(w, &area, pos + hdr, size - hdr, at, page_fault) &&
			    sum->bad_record == UINT64_MAX) {
				sum->bad_record = pos;
				sum->events_good = events - 1;
			}
		}
		pos += size;
	}
	*stopped = len;
out:
	sum->events = events;
	sum->first_ts = first_ts;
	sum->last_ts = last_ts;
	sum->payload = payload;
	return ts;
}

static uint64_t walk_events(struct td_cpu_walk *w, const struct tfk_cursor *area, uint64_t ts, uint64_t *stopped,
			    struct page_sum *sum)
{
	sum->bad_record = UINT64_MAX;
	sum->events_good = 0;
	if (area->big_endian)
		return walk_events_bo(w, area, ts, stopped, sum, true);
	return walk_events_bo(w, area, ts, stopped, sum, false);
}

static void observe_page(struct td_cpu_walk *w, const struct tfk_cursor *page, const struct tfk_page_info *info)
{
	if (w->quiet) {
		if (w->last.state != TFK_PAGE_BAD)
			w->last = *info;
		return;
	}
	const struct tfk_observer *obs = td_obs(w->td);
	const uint8_t *p;
	if (obs && obs->page && !w->unobserved && tfk_cur_bytes_at(page, 0, page->len, &p)) {
		struct tfk_page_info seen = *info;
		seen.file_offset = page->origin & TFK_DECODED_BIT ? TFK_PAGE_DECODED : page->origin;
		obs->page(obs->user, p, &seen);
	}
}

static void walk_page(struct td_cpu_walk *w, const struct tfk_cursor *page)
{
	const struct td_geometry *g = &w->td->geo;
	uint64_t ts = 0, commit = 0;
	struct tfk_finding *f;

	tfk_cur_u64_at(page, 0, &ts);
	if (g->commit_size == 8) {
		tfk_cur_u64_at(page, 8, &commit);
	} else {
		uint32_t c32 = 0;
		tfk_cur_u32_at(page, 8, &c32);
		commit = c32;
	}
	const uint64_t cap = g->page_size - g->data_offset;
	const uint64_t len = commit & COMMIT_LEN_MASK;
	const uint64_t commit_at = page->origin + 8;

	/*
	 * The kernel adds RB_MISSED_EVENTS, an int (1 << 31), to a 64-bit local_t: it is sign
	 * extended, so with bit 31 set the upper half is all ones. Otherwise it is zero.
	 */
	uint64_t upper = commit >> 32;
	bool upper_ok = upper == 0 || (upper == 0xffffffffull && (commit & COMMIT_MISSED));
	if ((commit & COMMIT_STRAY) || !upper_ok) {
		f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_COMMIT, commit_at, g->commit_size);
		tfk_set_expected(f, "only bits 0-26, 30 and 31 in use");
		tfk_set_found(f, "commit 0x%llx", (unsigned long long)commit);
	}
	if ((commit & COMMIT_MISSED_STORED) && !(commit & COMMIT_MISSED)) {
		f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_COMMIT, commit_at, g->commit_size);
		tfk_set_expected(f, "bit 30 (missed count stored) only with bit 31 (missed events)");
		tfk_set_found(f, "commit 0x%llx", (unsigned long long)commit);
	}
	struct tfk_page_info info;
	memset(&info, 0, sizeof(info));
	info.missed_events = (commit & COMMIT_MISSED) != 0;
	info.commit_word = commit;
	if (len > cap) {
		f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_COMMIT, commit_at, g->commit_size);
		tfk_set_expected(f, "a length of at most %llu", (unsigned long long)cap);
		tfk_set_found(f, "%llu (commit 0x%llx)", (unsigned long long)len, (unsigned long long)commit);
		info.state = TFK_PAGE_BAD;
		observe_page(w, page, &info);
		return; /* readers cannot use this page; its events are not walked */
	}
	uint64_t used = len;
	if (commit & COMMIT_MISSED) {
		w->lost_pages++;
		if (w->lost_pages == 1)
			w->first_lost_at = page->origin;
		if (commit & COMMIT_MISSED_STORED) {
			if (len + g->commit_size > cap) {
				f = page_fault(w, TFK_TRACEDAT_PAGE_BAD_COMMIT, commit_at, g->commit_size);
				tfk_set_expected(f, "room for the stored missed count after %llu bytes",
						 (unsigned long long)len);
				tfk_set_found(f, "commit 0x%llx in a %u-byte page", (unsigned long long)commit, g->page_size);
			} else {
				uint64_t lost = 0;
				if (g->commit_size == 8) {
					tfk_cur_u64_at(page, g->data_offset + len, &lost);
				} else {
					uint32_t l32 = 0;
					tfk_cur_u32_at(page, g->data_offset + len, &l32);
					lost = l32;
				}
				w->lost_events += lost;
				used += g->commit_size;
				info.missed_stored = true;
				info.missed_count = lost;
			}
		} else {
			w->lost_unknown = true;
		}
	}
	info.state = TFK_PAGE_EMPTY;
	if (len == 0) {
		uint64_t nz0;
		if (ts == 0 && commit == 0 && all_zero(page, 16, &nz0) && !w->quiet) {
			if (!w->zero_run++ && !w->zero_mid)
				w->first_zero_at = page->origin;
		}
		goto tail; /* an empty page has no events and no meaningful timestamp */
	}
	if (w->zero_run) {
		w->zero_mid += w->zero_run; /* zero pages with data after them */
		w->zero_run = 0;
	}
	if (w->have_ts && ts < w->last_ts && w->split_on_time_drop) {
		w->cpu++;
		w->have_ts = false;
		td_obs_cpu(w->td, w->cpu);
	}
	if (w->have_ts && ts < w->last_ts) {
		f = page_fault(w, TFK_TRACEDAT_PAGE_TIME_BACKWARDS, page->origin, 8);
		tfk_set_expected(f, "a page timestamp >= %llu (the CPU's previous event)", (unsigned long long)w->last_ts);
		tfk_set_found(f, "%llu", (unsigned long long)ts);
	}
	struct tfk_cursor area;
	tfk_cur_sub(page, g->data_offset, len, &area);
	uint64_t stopped;
	struct page_sum sum;
	w->last_ts = walk_events(w, &area, ts, &stopped, &sum);
	w->have_ts = true;
	w->events += sum.events;
	info.events = sum.events;
	info.first_ts = sum.first_ts;
	info.last_ts = sum.last_ts;
	info.payload_bytes = sum.payload;
	if (sum.bad_record < stopped) {
		/* The structure walks on, but the page is only good up to its first damaged record;
		 * the events counted for the observer stop there too. */
		stopped = sum.bad_record;
		info.events = sum.events_good;
	}
	info.good_len = (uint32_t)stopped;
	info.state = stopped == len ? TFK_PAGE_GOOD : stopped == 0 ? TFK_PAGE_BAD : TFK_PAGE_CLIPPED;
tail:;
	uint64_t nz;
	info.tail_zero = all_zero(page, g->data_offset + used, &nz);
	if (!info.tail_zero) {
		f = page_fault(w, TFK_TRACEDAT_PAGE_NONZERO_TAIL, page->origin + nz, page->len - (nz));
		tfk_set_expected(f, "zero bytes after the %llu committed bytes", (unsigned long long)len);
		tfk_set_found(f, "a non-zero byte at +0x%llx", (unsigned long long)nz);
	}
	observe_page(w, page, &info);
}

static void walk_init(struct td_cpu_walk *w, struct td_check *td, const char *buffer, uint32_t cpu)
{
	memset(w, 0, sizeof(*w));
	w->td = td;
	w->buffer = buffer;
	w->cpu = cpu;
	tfk_place_begin(&w->place);
}

void td_cpu_walk_begin(struct td_cpu_walk *w, struct td_check *td, const char *buffer, uint32_t cpu)
{
	walk_init(w, td, buffer, cpu);
	td_obs_cpu(td, cpu);
}

void td_behind(struct tfk_ctx *ctx, struct td_behind *b, const uint8_t *p, uint64_t n)
{
	if (p && b->start && p == b->start + b->len) {
		b->len += n;
	} else if (p) {
		tfk_release(ctx, b->start, b->len);
		b->start = p;
		b->len = n;
	}
	if (b->start && (!p || b->len >= TD_RELEASE_STEP)) {
		tfk_release(ctx, b->start, b->len);
		b->start = NULL;
		b->len = 0;
	}
}

void td_cpu_walk_pages(struct td_cpu_walk *w, const struct tfk_cursor *data)
{
	const uint32_t ps = w->td->geo.page_size;
	uint64_t npages = data->len / ps;
	for (uint64_t p = 0; p < npages; p++) {
		struct tfk_cursor page;
		tfk_cur_sub(data, p * ps, ps, &page);
		walk_page(w, &page);
		w->page++;
		const uint8_t *bytes;
		if (tfk_cur_bytes_at(&page, 0, ps, &bytes))
			td_behind(w->td->ctx, &w->behind, bytes, ps);
	}
	w->td->ctx->report->stats.pages += npages;
}

void td_cpu_walk_end(struct td_cpu_walk *w)
{
	struct td_check *td = w->td;
	td_behind(td->ctx, &w->behind, NULL, 0);
	if (!w->quiet)
		td_obs_item(td, TFK_ITEM_CPU, w->item_offset, w->item_length, w->cpu, "cpu",
			    "%s%llu pages, %llu events%s", w->buffer, (unsigned long long)w->page, (unsigned long long)w->events,
			    w->unobserved ? " (not this CPU's pages: the table entry is wrong)" : "");
	struct tfk_stats *st = &td->ctx->report->stats;
	st->events += w->events;
	st->events_lost += w->lost_events;
	st->events_no_format += w->no_format;
	if (w->lost_pages) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_PAGE_EVENTS_LOST, w->first_lost_at, td->geo.page_size);
		tfk_set_path(f, "%scpu%u", w->buffer, w->cpu);
		tfk_set_found(f, "%llu pages flag missed events, %llu events counted%s", (unsigned long long)w->lost_pages,
			      (unsigned long long)w->lost_events, w->lost_unknown ? " (some counts not stored)" : "");
	}
	/*
	 * Zero pages after the last page with events are lost data too: the kernel hands a reader
	 * no empty page (a read of an empty ring buffer returns nothing), so a writer never stores
	 * one; a CPU whose every page is zeros lost all its events.
	 */
	if (w->zero_mid || w->zero_run) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_PAGE_ZEROED, w->first_zero_at, td->geo.page_size);
		tfk_set_path(f, "%scpu%u", w->buffer, w->cpu);
		if (w->zero_run && w->zero_run == w->page)
			tfk_set_found(f, "all %llu pages of the CPU are zeros", (unsigned long long)w->zero_run);
		else if (!w->zero_run)
			tfk_set_found(f, "%llu all-zero pages before later pages with events", (unsigned long long)w->zero_mid);
		else if (!w->zero_mid)
			tfk_set_found(f, "%llu all-zero pages at the end of the CPU's data", (unsigned long long)w->zero_run);
		else
			tfk_set_found(f, "%llu all-zero pages before later pages with events, %llu at the end of the CPU's data",
				      (unsigned long long)w->zero_mid, (unsigned long long)w->zero_run);
	}
	tfk_place_end(td->ctx, &w->place, "%scpu%u", w->buffer, w->cpu);
}

/*
 * Walk the pages of data, a view of the mapping, in windows read into a small buffer when
 * the mapping's file can be read by descriptor (tfk_file_offset): that costs less than
 * faulting small page cache folios into the mapping. A window that cannot be read is walked
 * from the mapping. An observer is told each page's file offset, where the input's own
 * bytes stay.
 */
static void walk_windows(struct td_cpu_walk *w, const struct tfk_cursor *data)
{
	const struct tfk_ctx *ctx = w->td->ctx;
	const uint32_t ps = w->td->geo.page_size;
	uint8_t *buf = NULL;
	if (ps && ps <= TD_READ_WINDOW && data->len >= TD_READ_WINDOW && (ctx->fd >= 0 || ctx->nsources))
		buf = tfk_calloc_optional(ctx, TD_READ_WINDOW / ps, ps);
	if (!buf) {
		td_cpu_walk_pages(w, data);
		return;
	}
	const size_t window = TD_READ_WINDOW / ps * ps;
	for (uint64_t done = 0; done < data->len;) {
		size_t want = data->len - done < window ? (size_t)(data->len - done) : window;
		struct tfk_cursor c;
		if (tfk_read_mapped(ctx, data->base + done, want, buf)) {
			c = tfk_cur_make(buf, want, data->origin + done, data->big_endian);
		} else {
			/* not a file we can read here (or it changed): the mapping says what is there */
			tfk_cur_sub(data, done, want, &c);
		}
		td_cpu_walk_pages(w, &c);
		done += want;
	}
	free(buf);
}

bool td_range_of(const struct td_check *td, uint64_t offset, uint64_t size, const char *buffer, uint32_t cpu,
		 struct td_walk_range *r)
{
	uint64_t end;
	if (!tfk_add_u64(offset, size, &end) || offset >= td->size)
		return false;
	memset(r, 0, sizeof(*r));
	tfk_cur_sub(&td->file, offset, size, &r->data);
	r->buffer = buffer;
	r->cpu = cpu;
	r->item_offset = offset;
	r->item_length = r->data.len;
	r->data.len -= r->data.len % td->geo.page_size; /* a partial or truncated last page is reported apart */
	if (r->item_length < size && r->item_length > r->data.len) /* the end of the file cut a page */
		tfk_cur_sub(&td->file, offset + r->data.len, r->item_length - r->data.len, &r->cut);
	return true;
}

/*
 * What the end of the file left of a page: a copy, zero-filled to the page size, its commit
 * length cut to the bytes that exist (and its stored missed count, now gone, unflagged), walked
 * without findings. The events wholly inside the bytes are kept; the one the cut splits is not.
 */
static void walk_cut_page(struct td_cpu_walk *w, const struct tfk_cursor *cut)
{
	struct td_check *td = w->td;
	const struct td_geometry *g = &td->geo;
	const uint8_t *bytes;
	/* The copy is a whole page: only for page sizes real kernels use (a hostile header's
	 * 128 MiB page would cost that much zeroed memory per CPU). */
	if (cut->len <= g->data_offset || cut->len >= g->page_size || g->page_size > TD_READ_WINDOW ||
	    !tfk_cur_bytes_at(cut, 0, cut->len, &bytes))
		return;
	uint8_t *copy = tfk_calloc(td->ctx, 1, g->page_size);
	if (!copy)
		return;
	memcpy(copy, bytes, cut->len);
	struct tfk_cursor page = tfk_cur_make(copy, g->page_size, cut->origin, cut->big_endian);
	uint64_t commit = 0, avail = cut->len - g->data_offset;
	if (g->commit_size == 8) {
		tfk_cur_u64_at(&page, 8, &commit);
	} else {
		uint32_t c32 = 0;
		tfk_cur_u32_at(&page, 8, &c32);
		commit = c32;
	}
	if ((commit & COMMIT_LEN_MASK) > avail) {
		commit = (commit & ~(COMMIT_LEN_MASK | COMMIT_MISSED_STORED)) | avail;
		uint8_t word[8];
		for (unsigned i = 0; i < g->commit_size; i++)
			word[i] = (uint8_t)(commit >> (cut->big_endian ? 8 * (g->commit_size - 1 - i) : 8 * i));
		memcpy(copy + 8, word, g->commit_size);
		memset(copy + cut->len, 0, g->page_size - cut->len);
	}
	w->cut = true;
	walk_page(w, &page);
	w->cut = false;
	w->page++;
	td->ctx->report->stats.pages++;
	free(copy);
}

void td_walk_range_here(struct td_check *td, const struct td_walk_range *r)
{
	if (r->chunks) {
		if (td->walk_chunks)
			td->walk_chunks(td, r);
		return;
	}
	struct td_cpu_walk w;
	if (r->unobserved) {
		walk_init(&w, td, r->buffer, r->cpu);
		w.unobserved = true;
	} else {
		td_cpu_walk_begin(&w, td, r->buffer, r->cpu);
	}
	w.item_offset = r->item_offset;
	w.item_length = r->item_length;
	walk_windows(&w, &r->data);
	if (r->cut.len && !r->unobserved)
		walk_cut_page(&w, &r->cut);
	td_cpu_walk_end(&w);
}

static uint64_t walk_cap(const struct td_check *td)
{
	return td->size > UINT64_MAX / 2 ? UINT64_MAX : 2 * td->size;
}

bool td_walk_fits(const struct td_check *td, uint64_t *walked, uint64_t len)
{
	uint64_t cap = walk_cap(td);
	if (*walked > cap || len > cap - *walked)
		return false;
	*walked += len;
	return true;
}

bool td_walk_allowed(struct td_check *td, uint64_t len, uint64_t at)
{
	if (td_walk_fits(td, &td->walked, len))
		return true;
	if (!td->walk_capped)
		tfk_limit_hit(td->ctx, at, "bytes of CPU data walked (table entries that claim the same pages)",
			      td->walked + len, walk_cap(td));
	td->walk_capped = true;
	return false;
}

bool td_page_valid(struct td_check *td, const struct tfk_cursor *page, uint64_t *ts)
{
	struct td_cpu_walk w;
	memset(&w, 0, offsetof(struct td_cpu_walk, place)); /* quiet: the per-code tallies are never read */
	w.td = td;
	w.buffer = "";
	w.quiet = true;
	w.last.state = TFK_PAGE_GOOD;
	uint64_t page_ts = 0;
	if (!tfk_cur_u64_at(page, 0, &page_ts) || page_ts == 0)
		return false;
	walk_page(&w, page);
	*ts = page_ts;
	return w.last.state == TFK_PAGE_GOOD && w.last.events > 0;
}
