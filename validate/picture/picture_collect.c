/* SPDX-License-Identifier: MIT */
/*
 * Filling a picture from the observer stream: structures (items) and ring pages coloured on
 * the byte band, pages' events and losses on their CPU's timeline and byte row, the bytes CPUs
 * declare past the end of the file. The generic callbacks draw any format that reports items
 * or pages; a format's own model messages are handed to its translator (tfk_format.picture),
 * which draws its streams, tasks or tracefiles through pic_lane and its neighbours. Its
 * findings come from the report at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/formats.h"
#include "picture.h"

struct tfk_picture *tfk_picture_new(void)
{
	return calloc(1, sizeof(struct tfk_picture));
}

void tfk_picture_free(struct tfk_picture *p)
{
	free(p);
}

void pic_hist_fit(struct pic_hist *h, uint64_t value, uint64_t *data, size_t n, size_t stride)
{
	if (!h->started) {
		h->started = true;
		h->width = h->width ? h->width : 1;
		if (value < h->origin)
			h->origin = value;
	}
	/* Double the width, merging bucket pairs, until value falls inside (at most 64 times). */
	while (h->width < (UINT64_MAX >> 1) && value >= h->origin && (value - h->origin) / h->width >= n) {
		for (size_t i = 0; i < n / 2; i++)
			for (size_t k = 0; k < stride; k++)
				data[i * stride + k] = data[2 * i * stride + k] + data[(2 * i + 1) * stride + k];
		memset(data + (n / 2) * stride, 0, (n - n / 2) * stride * sizeof(*data));
		h->width *= 2;
	}
}

size_t pic_hist_bucket(const struct pic_hist *h, uint64_t value, size_t n)
{
	if (value < h->origin || !h->width)
		return 0;
	uint64_t b = (value - h->origin) / h->width;
	return b < n ? (size_t)b : n - 1;
}

/* Bytes [off, off + len) of one state, spread over the buckets of h they cover. */
static void hist_bytes(struct pic_hist *h, uint64_t *data, size_t n, uint64_t off, uint64_t len, enum pic_state s)
{
	if (!len || off > UINT64_MAX - len)
		return;
	uint64_t end = off + len;
	pic_hist_fit(h, end - 1, data, n, PIC_STATES);
	size_t first = pic_hist_bucket(h, off, n), last = pic_hist_bucket(h, end - 1, n);
	for (size_t b = first; b <= last; b++) {
		uint64_t lo = h->origin + b * h->width, hi = lo + h->width;
		uint64_t from = off > lo ? off : lo, to = end < hi ? end : hi;
		data[b * PIC_STATES + s] += to > from ? to - from : 1;
	}
}

void pic_band(struct tfk_picture *p, uint64_t off, uint64_t len, enum pic_state s)
{
	if (!len || off > UINT64_MAX - len)
		return;
	if (off + len > p->extent)
		p->extent = off + len;
	hist_bytes(&p->band, &p->bytes[0][0], PIC_BAND, off, len, s);
}

struct pic_lane *pic_lane(struct tfk_picture *p, const char *kind, const char *name, const char *member, uint64_t origin)
{
	for (size_t i = 0; i < p->nlanes; i++) {
		struct pic_lane *l = &p->lanes[i];
		if (strcmp(l->kind, kind) == 0 && strncmp(l->name, name, sizeof(l->name) - 1) == 0 &&
		    strncmp(l->member, member, sizeof(l->member) - 1) == 0)
			return l;
	}
	if (p->nlanes == PIC_LANES) {
		p->lanes_dropped++;
		return NULL;
	}
	struct pic_lane *l = &p->lanes[p->nlanes++];
	memset(l, 0, sizeof(*l));
	snprintf(l->kind, sizeof(l->kind), "%s", kind);
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->member, sizeof(l->member), "%s", member);
	l->span.origin = origin;
	l->lo = origin;
	return l;
}

void pic_lane_bytes(struct pic_lane *l, uint64_t off, uint64_t len, enum pic_state s)
{
	if (!l || !len || off > UINT64_MAX - len)
		return;
	if (!l->has_bytes || off < l->lo)
		l->lo = off < l->span.origin ? l->span.origin : off;
	if (off + len > l->hi)
		l->hi = off + len;
	l->has_bytes = true;
	if (s == PIC_BAD)
		l->bytes_lost += len;
	hist_bytes(&l->span, &l->bytes[0][0], PIC_LBYTES, off, len, s);
}

/* Room on l's timeline for [first, last]; the buckets they fall in. */
static void time_span(struct pic_lane *l, uint64_t first, uint64_t last, size_t *a, size_t *b)
{
	if (!l->time.started)
		l->time.origin = first;
	pic_hist_fit(&l->time, last, &l->counts[0][0], PIC_TIME, 2);
	*a = pic_hist_bucket(&l->time, first, PIC_TIME);
	*b = pic_hist_bucket(&l->time, last, PIC_TIME);
}

void pic_lane_lost_time(struct pic_lane *l, uint64_t first, uint64_t last)
{
	if (!l || last < first)
		return;
	size_t a, b;
	time_span(l, first, last, &a, &b);
	for (size_t i = a; i <= b; i++)
		l->counts[i][1]++;
	if (!l->has_time || first < l->first_ts)
		l->first_ts = first;
	if (!l->has_time || last > l->last_ts)
		l->last_ts = last;
	l->has_time = true;
}

void pic_lane_events(struct pic_lane *l, uint64_t first, uint64_t last, uint64_t events, bool lost)
{
	if (!l)
		return;
	if (lost)
		l->loss_pending = true;
	if (!events || last < first)
		return;
	size_t a, b;
	time_span(l, first, last, &a, &b);
	/* the events spread evenly over the buckets their time covers */
	uint64_t per = events / (b - a + 1), rest = events % (b - a + 1);
	for (size_t i = a; i <= b; i++)
		l->counts[i][0] += per + (i - a < rest);
	if (l->loss_pending && l->total_events) {
		/* the stretch between the last whole part and this one was lost */
		size_t from = pic_hist_bucket(&l->time, l->last_good_ts, PIC_TIME);
		for (size_t i = from; i <= a; i++)
			l->counts[i][1]++;
	}
	l->loss_pending = false;
	if (!l->has_time || first < l->first_ts)
		l->first_ts = first;
	if (!l->has_time || last > l->last_ts)
		l->last_ts = last;
	l->has_time = true;
	l->last_good_ts = last;
	l->total_events += events;
}

void pic_pages_to(struct tfk_picture *p, struct pic_lane *l, uint32_t page_size)
{
	p->lane = l;
	p->page_size = page_size;
	p->pages_in_member = true;
	if (l)
		l->part = "pages";
}

static void on_item(void *user, const struct tfk_item *it)
{
	struct tfk_picture *p = user;
	if (it->decoded)
		return; /* inside compressed data: no place of its own in the file */
	switch (it->kind) {
	case TFK_ITEM_FILE:
	case TFK_ITEM_SECTION:
	case TFK_ITEM_BLOB:
	case TFK_ITEM_OPTION: pic_band(p, it->offset, it->length, PIC_META); break;
	case TFK_ITEM_CPU:
		pic_band(p, it->offset, it->length, PIC_DATA);
		/* the file range of the CPU whose pages come (or came) with it */
		if (p->lane && !p->pages_in_member && p->lane->cpu == it->id && !p->lane->file_hi) {
			p->lane->file_lo = it->offset;
			p->lane->file_hi = it->offset + it->length;
		}
		break;
	case TFK_ITEM_BUFFER: break; /* its CPUs and pages say more */
	}
}

static void on_buffer(void *user, const char *name, const char *clock, uint32_t page_size, bool latency)
{
	(void)clock;
	(void)latency;
	struct tfk_picture *p = user;
	snprintf(p->buffer, sizeof(p->buffer), "%s", name);
	p->page_size = page_size;
	p->pages_in_member = false;
}

static void on_cpu(void *user, uint32_t cpu)
{
	struct tfk_picture *p = user;
	char name[64];
	snprintf(name, sizeof(name), "%s%scpu%u", p->buffer, p->buffer[0] ? " " : "", cpu);
	p->pages_in_member = false;
	/* origin UINT64_MAX: its first page sets where its bytes start */
	p->lane = pic_lane(p, "cpu", name, "", UINT64_MAX);
	if (p->lane) {
		p->lane->cpu = cpu;
		p->lane->part = "pages";
	}
}

static void on_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	(void)page;
	struct tfk_picture *p = user;
	static const enum pic_state states[] = { PIC_GOOD, PIC_CLIPPED, PIC_BAD, PIC_EMPTY };
	const uint64_t psize = p->page_size ? p->page_size : 4096;
	struct pic_lane *l = p->lane;
	if (info->file_offset == TFK_PAGE_DECODED && l && (unsigned)info->state < 4) {
		/* decoded pages: drawn one after the other in the decoded bytes */
		l->decoded = true;
		if (!l->has_bytes)
			l->span.origin = 0;
		pic_lane_bytes(l, l->parts * psize, psize, states[info->state]);
	} else if (info->file_offset != TFK_PAGE_DECODED && (unsigned)info->state < 4) {
		if (!p->pages_in_member)
			pic_band(p, info->file_offset, psize, states[info->state]);
		if (l && !l->has_bytes && l->span.origin == UINT64_MAX)
			l->span.origin = info->file_offset;
		pic_lane_bytes(l, info->file_offset, psize, states[info->state]);
	}
	if (!l)
		return;
	l->parts++;
	l->parts_bad += info->state == TFK_PAGE_BAD;
	l->parts_clipped += info->state == TFK_PAGE_CLIPPED;
	if (info->missed_events) {
		if (info->missed_stored)
			l->events_lost += info->missed_count;
		else
			l->events_unknown = true;
	}
	if (info->state == TFK_PAGE_BAD)
		l->events_unknown = true;
	bool lost = info->state == TFK_PAGE_BAD || info->state == TFK_PAGE_CLIPPED || info->missed_events;
	if (!info->events || info->last_ts < info->first_ts) {
		if (lost)
			l->loss_pending = true;
		return;
	}
	pic_lane_events(l, info->first_ts, info->last_ts, info->events, lost && info->state != TFK_PAGE_CLIPPED);
	/* a clipped page loses what follows its good part */
	l->loss_pending = info->state == TFK_PAGE_CLIPPED;
}

static void on_cpu_extent(void *user, uint32_t cpu, uint64_t declared, uint64_t present, bool compressed)
{
	(void)cpu;
	(void)compressed;
	struct tfk_picture *p = user;
	if (declared > present)
		p->past_end += declared - present;
}

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	if (format && format->picture)
		format->picture(user, kind, data, size);
}

struct tfk_observer tfk_picture_observer(struct tfk_picture *p)
{
	struct tfk_observer o = { 0 };
	o.user = p;
	o.item = on_item;
	o.buffer = on_buffer;
	o.cpu = on_cpu;
	o.page = on_page;
	o.cpu_extent = on_cpu_extent;
	o.model = on_model;
	return o;
}
