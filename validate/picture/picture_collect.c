/* SPDX-License-Identifier: MIT */
/*
 * Filling a picture from the observer stream: structures (items) and ring pages coloured on
 * the byte band, pages' events and losses on their CPU's timeline, the bytes CPUs declare past
 * the end of the file. Only the generic callbacks are used, so any format that reports items
 * or pages is drawn; its findings come from the report at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Bytes [off, off + len) of one state, spread over the band buckets they cover. */
static void band_add(struct tfk_picture *p, uint64_t off, uint64_t len, enum pic_state s)
{
	if (!len || off > UINT64_MAX - len)
		return;
	uint64_t end = off + len;
	if (end > p->extent)
		p->extent = end;
	pic_hist_fit(&p->band, end - 1, &p->bytes[0][0], PIC_BAND, PIC_STATES);
	size_t first = pic_hist_bucket(&p->band, off, PIC_BAND), last = pic_hist_bucket(&p->band, end - 1, PIC_BAND);
	for (size_t b = first; b <= last; b++) {
		uint64_t lo = p->band.origin + b * p->band.width, hi = lo + p->band.width;
		uint64_t from = off > lo ? off : lo, to = end < hi ? end : hi;
		p->bytes[b][s] += to > from ? to - from : 1;
	}
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
	case TFK_ITEM_OPTION: band_add(p, it->offset, it->length, PIC_META); break;
	case TFK_ITEM_CPU: band_add(p, it->offset, it->length, PIC_DATA); break;
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
}

static void on_cpu(void *user, uint32_t cpu)
{
	struct tfk_picture *p = user;
	p->lane = NULL;
	if (p->nlanes == PIC_LANES) {
		p->lanes_dropped++;
		return;
	}
	struct pic_lane *l = &p->lanes[p->nlanes++];
	memset(l, 0, sizeof(*l));
	snprintf(l->buffer, sizeof(l->buffer), "%s", p->buffer);
	l->cpu = cpu;
	p->lane = l;
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

static void on_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	(void)page;
	struct tfk_picture *p = user;
	static const enum pic_state states[] = { PIC_GOOD, PIC_CLIPPED, PIC_BAD, PIC_EMPTY };
	if (info->file_offset != TFK_PAGE_DECODED && (unsigned)info->state < 4)
		band_add(p, info->file_offset, p->page_size ? p->page_size : 4096, states[info->state]);
	struct pic_lane *l = p->lane;
	if (!l)
		return;
	if (info->state == TFK_PAGE_BAD || info->state == TFK_PAGE_CLIPPED || info->missed_events) {
		l->loss_pending = true;
		l->pages_bad += info->state == TFK_PAGE_BAD;
	}
	if (!info->events || info->last_ts < info->first_ts)
		return;
	size_t a, b;
	time_span(l, info->first_ts, info->last_ts, &a, &b);
	/* the page's events spread evenly over the buckets its time covers */
	uint64_t per = info->events / (b - a + 1), rest = info->events % (b - a + 1);
	for (size_t i = a; i <= b; i++)
		l->counts[i][0] += per + (i - a < rest);
	if (l->loss_pending && l->total_events) {
		/* the stretch between the last whole page and this one was lost */
		size_t from = pic_hist_bucket(&l->time, l->last_good_ts, PIC_TIME);
		for (size_t i = from; i <= a; i++)
			l->counts[i][1]++;
	}
	l->loss_pending = info->state == TFK_PAGE_CLIPPED;
	if (!l->total_events || info->first_ts < l->first_ts)
		l->first_ts = info->first_ts;
	if (info->last_ts > l->last_ts)
		l->last_ts = info->last_ts;
	l->last_good_ts = info->last_ts;
	l->total_events += info->events;
}

static void on_cpu_extent(void *user, uint32_t cpu, uint64_t declared, uint64_t present, bool compressed)
{
	(void)cpu;
	(void)compressed;
	struct tfk_picture *p = user;
	if (declared > present)
		p->past_end += declared - present;
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
	return o;
}
